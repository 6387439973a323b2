// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Shared by the extraction workload's tests (test_untar.c, test_untar_hostile.c): a file's
 * CRC, counting a tree, checking an extraction against its archive file by file, the phase and
 * progress callbacks, and archives built entry by entry from a table.
 */
#ifndef SS_TEST_UNTAR_FIXTURE_H
#define SS_TEST_UNTAR_FIXTURE_H

#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <zlib.h>

#include "tap.h"
#include "testdir.h"
#include "untar.h"

/* ---- helpers ---------------------------------------------------------------------------- */

__attribute__((unused))
static uint32_t crc_file(const char *p, int64_t *size)
{
	unsigned char buf[65536];
	uLong c = crc32(0L, Z_NULL, 0);
	ssize_t n;
	int fd = open(p, O_RDONLY);

	*size = -1;
	if (fd < 0)
		return 0;
	*size = 0;
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		c = crc32(c, buf, (uInt)n);
		*size += n;
	}
	close(fd);
	return (uint32_t)c;
}

struct tree_count { unsigned files, dirs, links, others; };
static struct tree_count counted;

__attribute__((unused))
static int count_one(const char *p, const struct stat *sb, int flag, struct FTW *f)
{
	(void)p; (void)f;
	if (flag == FTW_SL)
		counted.links++;
	else if (flag == FTW_D || flag == FTW_DP)
		counted.dirs++;
	else if (S_ISREG(sb->st_mode))
		counted.files++;
	else
		counted.others++;
	return 0;
}

__attribute__((unused))
static struct tree_count count_tree(const char *p)
{
	memset(&counted, 0, sizeof(counted));
	nftw(p, count_one, 16, FTW_PHYS);
	return counted;
}

/* Entries directly in directory p ("." and ".." not counted), or -1u if unreadable. */
__attribute__((unused))
static unsigned count_dir(const char *p)
{
	DIR *d = opendir(p);
	struct dirent *de;
	unsigned n = 0;

	if (!d)
		return -1u;
	while ((de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return n;
}

/* Compare every regular file of the archive with <root>/<its path>. */
__attribute__((unused))
static int verify_extracted(const char *archive, const char *root, unsigned *nfiles)
{
	struct archive *a = archive_read_new();
	struct archive_entry *e;
	int bad = 0;

	*nfiles = 0;
	archive_read_support_filter_all(a);
	archive_read_support_format_all(a);
	if (archive_read_open_filename(a, archive, 65536) != ARCHIVE_OK) {
		archive_read_free(a);
		return -1;
	}
	while (archive_read_next_header(a, &e) == ARCHIVE_OK) {
		const void *buf;
		size_t len;
		la_int64_t off;
		uLong c = crc32(0L, Z_NULL, 0);
		int64_t size = 0, got_size;
		char p[2048];

		if (archive_entry_filetype(e) != AE_IFREG)
			continue;
		while (archive_read_data_block(a, &buf, &len, &off) == ARCHIVE_OK) {
			c = crc32(c, buf, (uInt)len);
			size += (int64_t)len;
		}
		snprintf(p, sizeof(p), "%s/%s", root, archive_entry_pathname(e));
		if (crc_file(p, &got_size) != (uint32_t)c || got_size != size) {
			if (bad++ < 3)
				printf("# mismatch: %s (size %lld, want %lld)\n", p,
				       (long long)got_size, (long long)size);
		}
		(*nfiles)++;
	}
	archive_read_free(a);
	return bad;
}

struct events {
	char names[80][32];
	bool begin[80];
	uint64_t ts[80];
	unsigned n;
	unsigned progress_calls;
	struct ss_untar_progress last;
	const char *stop_at;          /* set *stop when this phase begins */
	volatile int *stop;
	const char *count_at;         /* count the tree under count_root when this phase begins */
	const char *count_root;
	struct tree_count at_phase;
};

__attribute__((unused))
static void on_phase(void *ctx, const char *name, bool begin, uint64_t ns)
{
	struct events *ev = ctx;

	if (ev->n < 80) {
		snprintf(ev->names[ev->n], sizeof(ev->names[0]), "%s", name);
		ev->begin[ev->n] = begin;
		ev->ts[ev->n++] = ns;
	}
	if (begin && ev->stop_at && !strcmp(name, ev->stop_at))
		*ev->stop = 1;
	if (begin && ev->count_at && !strcmp(name, ev->count_at))
		ev->at_phase = count_tree(ev->count_root);
}

__attribute__((unused))
static void on_progress(void *ctx, const struct ss_untar_progress *p)
{
	struct events *ev = ctx;

	ev->progress_calls++;
	ev->last = *p;
}

/* "extract+ extract- sync+ sync-" against what the callbacks saw; also checks time order. */
__attribute__((unused))
static int phases_are(const struct events *ev, const char *want)
{
	char got[2048] = "";
	size_t n = 0;
	bool ordered = true;

	for (unsigned i = 0; i < ev->n; i++) {
		n += (size_t)snprintf(got + n, sizeof(got) - n, "%s%s%c", i ? " " : "", ev->names[i],
				      ev->begin[i] ? '+' : '-');
		if (i && ev->ts[i] < ev->ts[i - 1])
			ordered = false;
	}
	if (strcmp(got, want) || !ordered) {
		printf("#   phases: got \"%s\"%s\n#   want \"%s\"\n", got,
		       ordered ? "" : " (timestamps out of order)", want);
		return 0;
	}
	return 1;
}

__attribute__((unused))
static void untar_opts(struct ss_untar_opts *o, const char *archive, const char *dest,
		       struct events *ev)
{
	memset(o, 0, sizeof(*o));
	memset(ev, 0, sizeof(*ev));
	o->archive = archive;
	o->dest = dest;
	o->repeat = 1;
	o->phase_cb = on_phase;
	o->progress_cb = on_progress;
	o->ctx = ev;
}

/* ---- hand-built archives ---------------------------------------------------------------- */

struct spec {
	const char *path;
	mode_t type;            /* AE_IFREG, AE_IFDIR, AE_IFLNK, AE_IFCHR, AE_IFIFO; 0: hardlink */
	mode_t perm;
	const char *target;     /* symlink or hardlink target */
	const char *data;
};

__attribute__((unused))
static int write_specs(const char *path, const struct spec *s, size_t n)
{
	struct archive *a = archive_write_new();
	struct archive_entry *e = archive_entry_new();
	int ret = 0;

	archive_write_set_format_pax_restricted(a);
	if (archive_write_open_filename(a, path) != ARCHIVE_OK)
		ret = -1;
	for (size_t i = 0; i < n && !ret; i++) {
		size_t len = s[i].data ? strlen(s[i].data) : 0;

		archive_entry_clear(e);
		archive_entry_copy_pathname(e, s[i].path);
		if (s[i].type) {
			archive_entry_set_filetype(e, s[i].type);
		} else {
			archive_entry_set_filetype(e, AE_IFREG);
			archive_entry_copy_hardlink(e, s[i].target);
		}
		if (s[i].type == AE_IFLNK)
			archive_entry_copy_symlink(e, s[i].target);
		if (s[i].type == AE_IFCHR)
			archive_entry_set_rdev(e, makedev(1, 3));
		archive_entry_set_perm(e, s[i].perm ? s[i].perm : 0644);
		archive_entry_set_size(e, (la_int64_t)len);
		if (archive_write_header(a, e) != ARCHIVE_OK ||
		    (len && archive_write_data(a, s[i].data, len) != (la_ssize_t)len))
			ret = -1;
	}
	if (archive_write_close(a) != ARCHIVE_OK)
		ret = -1;
	archive_write_free(a);
	archive_entry_free(e);
	return ret;
}


__attribute__((unused))
static uint32_t crc_of(const char *p)
{
	int64_t size;

	return crc_file(p, &size);
}

#endif
