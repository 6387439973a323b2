// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tc-unpack: how long unpacking a trace-cmd file's compressed ring buffer data (format version
 * 7 or later) takes on one CPU, and nothing else — what any reading of that file must do,
 * which tests/bench/import.sh prints beside seekscope's and trace-cmd's times.
 *
 *   tc-unpack FILE.dat [RUNS]
 *
 * The file's chunks are found by the reader's own walk (import_tracecmd_chunks.c, every chunk
 * checked) and read into memory first; each run then unpacks every chunk of every CPU, a CPU's
 * chunks after another's in the order the file lists them (a table listed twice, once), with
 * one libzstd (or zlib) context into one buffer.  Prints the chunks, their packed and unpacked
 * bytes, and the least CPU and wall seconds of the runs.  Exit status 1 for a file it cannot
 * read so (an older version, not compressed, damaged) or too little memory, 2 for bad
 * arguments.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include <zlib.h>
#include <zstd.h>

#include "fileio.h"
#include "import_tracecmd_reader.h"

struct chunk {
	const unsigned char *src;
	uint32_t packed, claim;
};

static double clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint32_t word(const unsigned char *b, int big_endian)
{
	return big_endian ? (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3]
			  : (uint32_t)b[3] << 24 | (uint32_t)b[2] << 16 | (uint32_t)b[1] << 8 | b[0];
}

/* The chunks of the CPU data whose chunk table is at OFF of FILE (LEN bytes) appended to *CH:
 * 0, -EINVAL when they do not lie within the file (as the reader holds them: the option's size
 * of the data is not their bytes), -ENOMEM. */
static int add_chunks(const unsigned char *file, uint64_t len, uint64_t off, int big_endian,
		      struct chunk **ch, size_t *nr, size_t *cap)
{
	uint64_t end = len, at = off + 4;
	uint32_t count;

	if (off > len || len - off < 4)
		return -EINVAL;
	count = word(file + off, big_endian);
	for (uint32_t i = 0; i < count; i++) {
		struct chunk c;

		if (at + 8 > end)
			return -EINVAL;
		c = (struct chunk){ file + at + 8, word(file + at, big_endian),
				    word(file + at + 4, big_endian) };
		if (c.packed > end - at - 8)
			return -EINVAL;
		if (*nr == *cap) {
			struct chunk *n = realloc(*ch, (*cap ? 2 * *cap : 1024) * sizeof(*n));

			if (!n)
				return -ENOMEM;
			*ch = n;
			*cap = *cap ? 2 * *cap : 1024;
		}
		(*ch)[(*nr)++] = c;
		at += 8 + (uint64_t)c.packed;
	}
	return 0;
}

/* Whether LAY's CPU data C of buffer B has its chunk table where an earlier one listed has (as
 * the walk, which checks such a table once, allows). */
static bool listed_before(const struct ss_tc_layout *lay, size_t b, uint32_t c)
{
	for (size_t i = 0; i <= b; i++)
		for (uint32_t k = 0; k < (i < b ? lay->buf[i].nr_cpus : c); k++)
			if (lay->buf[i].compressed && lay->buf[i].cpu[k].size &&
			    lay->buf[i].cpu[k].off == lay->buf[b].cpu[c].off)
				return true;
	return false;
}

/* Every chunk of CH[NR] unpacked once into OUT (CAP bytes): 0, or -1 when one does not unpack
 * to its claim. */
static int unpack_all(const struct chunk *ch, size_t nr, enum algo algo, ZSTD_DCtx *zd,
		      unsigned char *out, size_t cap)
{
	for (size_t i = 0; i < nr; i++) {
		size_t got;

		if (ch[i].claim > cap)
			return -1;
		if (algo == ALGO_ZSTD) {
			got = ZSTD_decompressDCtx(zd, out, ch[i].claim, ch[i].src, ch[i].packed);
			if (ZSTD_isError(got))
				return -1;
		} else {
			uLongf n = ch[i].claim;

			if (uncompress(out, &n, ch[i].src, ch[i].packed) != Z_OK)
				return -1;
			got = n;
		}
		if (got != ch[i].claim)
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct ss_tc_layout lay = { 0 };
	struct file_head fh;
	struct chunk *ch = NULL;
	size_t nr = 0, cap = 0, biggest = 0;
	unsigned char *file = NULL, *out = NULL;
	uint64_t packed = 0, unpacked = 0;
	double best_cpu = -1, best_wall = -1;
	ZSTD_DCtx *zd = NULL;
	struct stat st;
	char err[256] = "";
	char *end;
	long runs = 3;
	int fd, ret = 1;

	if (argc < 2 || argc > 3 ||
	    (argc == 3 && ((runs = strtol(argv[2], &end, 10)) < 1 || runs > 100 || *end))) {
		fprintf(stderr, "usage: tc-unpack FILE.dat [RUNS (1-100)]\n");
		return 2;
	}
	if ((fd = open(argv[1], O_RDONLY | O_CLOEXEC)) < 0 || fstat(fd, &st)) {
		fprintf(stderr, "tc-unpack: %s: %s\n", argv[1], strerror(errno));
		if (fd >= 0)
			close(fd);
		return 1;
	}
	if (!ss_tc_read_file_head(fd, &fh) || fh.version < 7 || !fh.compressed) {
		fprintf(stderr, "tc-unpack: %s: not a compressed trace-cmd file of version 7\n",
			argv[1]);
		goto out;
	}
	if (ss_tc_walk_buffers(fd, &fh, &lay, false, err, sizeof(err)) || !lay.walked ||
	    (lay.algo != ALGO_ZSTD && lay.algo != ALGO_ZLIB)) {
		if (err[0])
			fprintf(stderr, "tc-unpack: %s: %s\n", argv[1], err);
		else
			fprintf(stderr, "tc-unpack: %s: compressed with \"%s\", which it does not "
				"unpack (zstd and zlib only)\n", argv[1], fh.compression);
		goto out;
	}
	if (!(file = malloc((size_t)st.st_size ? (size_t)st.st_size : 1)) ||
	    ss_pread_full(fd, file, (size_t)st.st_size, 0) != (ssize_t)st.st_size) {
		fprintf(stderr, "tc-unpack: %s: cannot read it\n", argv[1]);
		goto out;
	}
	for (size_t b = 0; b < lay.nr_buf; b++) {
		for (uint32_t c = 0; c < lay.buf[b].nr_cpus; c++) {
			const struct ss_tc_cpu_data *d = &lay.buf[b].cpu[c];
			int r;

			if (!lay.buf[b].compressed || !d->size || listed_before(&lay, b, c))
				continue;
			if ((r = add_chunks(file, (uint64_t)st.st_size, d->off, fh.endian, &ch, &nr,
					    &cap))) {
				fprintf(stderr, "tc-unpack: %s: %s\n", argv[1], r == -ENOMEM ?
					"out of memory" : "a chunk table lies past the file");
				goto out;
			}
		}
	}
	for (size_t i = 0; i < nr; i++) {
		packed += ch[i].packed;
		unpacked += ch[i].claim;
		if (ch[i].claim > biggest)
			biggest = ch[i].claim;
	}
	if (!(out = malloc(biggest ? biggest : 1)) ||
	    (lay.algo == ALGO_ZSTD && !(zd = ZSTD_createDCtx()))) {
		fprintf(stderr, "tc-unpack: out of memory\n");
		goto out;
	}
	for (long r = 0; r < runs; r++) {
		double c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID), w0 = clock_s(CLOCK_MONOTONIC);
		double cpu, wall;

		if (unpack_all(ch, nr, lay.algo, zd, out, biggest)) {
			fprintf(stderr, "tc-unpack: %s: a chunk does not unpack to its claim\n",
				argv[1]);
			goto out;
		}
		cpu = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
		wall = clock_s(CLOCK_MONOTONIC) - w0;
		if (best_wall < 0 || wall < best_wall)
			best_wall = wall;
		if (best_cpu < 0 || cpu < best_cpu)
			best_cpu = cpu;
	}
	printf("%zu chunks, %" PRIu64 " bytes packed, %" PRIu64 " unpacked (%s), least of %ld runs: "
	       "%.3f s CPU, %.3f s wall\n", nr, packed, unpacked,
	       lay.algo == ALGO_ZSTD ? "zstd" : "zlib", runs, best_cpu, best_wall);
	ret = 0;
out:
	ZSTD_freeDCtx(zd);
	free(out);
	free(ch);
	free(file);
	ss_tc_layout_free(&lay);
	close(fd);
	return ret;
}
