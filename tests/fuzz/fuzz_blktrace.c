// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: the blktrace importer (render/import_blktrace.c) behind the format detection
 * every command uses, and what report and plot do with what it returns (fuzz_consume.h).
 *
 * Input: byte 0 picks how the files are handed over, the rest is the files' bytes, one file
 * per part between separators FUZZ_BT_SEP (at most FUZZ_BT_FILES parts):
 *   0  the first part as one stream with another name (`blkparse -d` output, a memfd)
 *   1  the parts as fz.blktrace.0, .1, ... in a directory, opened by the directory's name
 *   2  the same files, opened by the prefix DIR/fz (the `blktrace -o fz` name)
 *   3  the same files, opened by the name of the first one (DIR/fz.blktrace.0)
 * So the per-CPU merge (a heap over one pending event per file), both byte orders (the magic
 * tells) and cut records at every file's end are reached.  The files live in a directory of
 * this process under $FUZZ_SANDBOX_DIR (run-fuzz.sh: a tmpfs directory), else $TMPDIR or /tmp,
 * emptied after every input and removed at exit.
 *
 * Each input is also reported as `seekscope report` does (text and JSON), the trace opened the
 * usual way and lazily (trace_read.h: ss_trace_open_lazy, its metadata found by the pass, run
 * again when a pid was named twice): what one way reports the other must report byte for
 * byte, and what one refuses the other refuses.
 */
#include <fcntl.h>
#include <sys/stat.h>

#include "fuzz.h"
#include "fuzz_consume.h"
#include "report_bytes.h"

#define FUZZ_BT_SEP   "\nBTSPLIT"
#define FUZZ_BT_FILES 8

static int memfd = -1;
static char dir[4096];

static void remove_files(void)
{
	char path[4200];

	for (int i = 0; i < FUZZ_BT_FILES; i++) {
		snprintf(path, sizeof(path), "%s/fz.blktrace.%d", dir, i);
		unlink(path);
	}
}

static void remove_dir(void)
{
	if (dir[0]) {
		remove_files();
		rmdir(dir);
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *base = getenv("FUZZ_SANDBOX_DIR");

	(void)argc, (void)argv;
	if (!base || !*base)
		base = getenv("TMPDIR");
	if (!base || !*base)
		base = "/tmp";
	snprintf(dir, sizeof(dir), "%s/ss-fuzz-blktrace.XXXXXX", base);
	if (!mkdtemp(dir)) {
		fprintf(stderr, "fuzz_blktrace: mkdtemp %s: %s\n", dir, strerror(errno));
		exit(1);
	}
	atexit(remove_dir);
	fuzz_consume_init();
	return 0;
}

/* PATH reported both ways (report_bytes.h): the same bytes, or both refused. */
static void same_once_as_twice(const char *path)
{
	char *a = NULL, *b = NULL;
	size_t la = 0, lb = 0;
	bool ra, rb;
	int ea = report_bytes(path, false, &a, &la, &ra), eb = report_bytes(path, true, &b, &lb, &rb);

	if (ea == -ENOMEM || eb == -ENOMEM) {   /* the allocator's limit, not the reader */
		free(a);
		free(b);
		return;
	}
	FUZZ_ASSERT(!ea == !eb, "refused one way only (usual %d, lazily %d)", ea, eb);
	FUZZ_ASSERT(ea || (la == lb && !memcmp(a, b, la)),
		    "another report when read once: %zu and %zu bytes", la, lb);
	free(a);
	free(b);
}

static int write_part(int i, const uint8_t *p, size_t n)
{
	char path[4200];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/fz.blktrace.%d", dir, i);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w <= 0) {
			ret = -1;
			break;
		}
		p += w, n -= (size_t)w;
	}
	close(fd);
	return ret;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const size_t seplen = sizeof(FUZZ_BT_SEP) - 1;
	const uint8_t *p, *end;
	char path[4200];
	int mode, nr = 0;

	if (size < 1 || size > (4u << 20))
		return 0;
	mode = data[0] & 3;
	p = data + 1;
	end = data + size;
	if (mode == 0) {
		const uint8_t *cut = memmem(p, (size_t)(end - p), FUZZ_BT_SEP, seplen);

		if (fuzz_memfile(&memfd, p, (size_t)((cut ? cut : end) - p), 0, path,
				 sizeof(path)) < 0)
			return 0;
		fuzz_open_consume(path);
		same_once_as_twice(path);
		return 0;
	}
	while (nr < FUZZ_BT_FILES) {
		const uint8_t *cut = memmem(p, (size_t)(end - p), FUZZ_BT_SEP, seplen);
		const uint8_t *stop = cut && nr < FUZZ_BT_FILES - 1 ? cut : end;

		if (write_part(nr++, p, (size_t)(stop - p)) < 0)
			goto out;
		if (stop == end)
			break;
		p = stop + seplen;
	}
	if (mode == 1)
		snprintf(path, sizeof(path), "%s", dir);
	else if (mode == 2)
		snprintf(path, sizeof(path), "%s/fz", dir);
	else
		snprintf(path, sizeof(path), "%s/fz.blktrace.0", dir);
	fuzz_open_consume(path);
	same_once_as_twice(path);
out:
	remove_files();
	return 0;
}
