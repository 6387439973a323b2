// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What `report` and `plot` do with an opened trace, for the fuzz targets of every reader
 * (fuzz_trace.c: seekscope files; fuzz_blktrace.c, fuzz_tracecmd.c: the importers): stream
 * every batch (their sum must equal the announced count), one statistics pass with time bins
 * and the per-event hooks, per-process and per-directory rows (each adding up to the
 * trace's I/Os and seeks: the latter through the file map's index), every binned series
 * (no NaN), and both report printers into /dev/null.  Include after fuzz.h; call fuzz_consume_init() from LLVMFuzzerInitialize.
 */
#ifndef SS_FUZZ_CONSUME_H
#define SS_FUZZ_CONSUME_H

#include <math.h>
#include <zlib.h>

#include "report_fmt.h"
#include "seekscope/codec.h"
#include "stats.h"
#include "trace_read.h"

static inline uint32_t fuzz_get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline void fuzz_put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}

/*
 * Seekscope trace inputs: recompute the CRC of every record that fits in the buffer, walking as
 * the reader does, so that mutations reach the parsers behind the checksum — unless byte 48
 * (the first reserved header byte, which readers ignore) is odd: then the CRCs stay as they are
 * and the mismatch paths are fuzzed.
 */
static inline void fuzz_fix_sst_crcs(uint8_t *d, size_t size)
{
	size_t off;

	if (size < SS_FILE_HEADER_SIZE || (d[48] & 1))
		return;
	off = fuzz_get_le32(d + 16);                                  /* header_size */
	if (off < SS_FILE_HEADER_SIZE || off > 4096)
		off = SS_FILE_HEADER_SIZE;
	while (off + SS_RECORD_HEADER_SIZE <= size) {
		uint32_t len = fuzz_get_le32(d + off + 4);
		size_t padded = ((size_t)len + SS_RECORD_ALIGN - 1) & ~(size_t)(SS_RECORD_ALIGN - 1);

		if (len > SS_MAX_RECORD_LEN || off + SS_RECORD_HEADER_SIZE + len > size)
			return;
		fuzz_put_le32(d + off + 8, (uint32_t)crc32(crc32(0L, Z_NULL, 0),
						      d + off + SS_RECORD_HEADER_SIZE, len));
		off += SS_RECORD_HEADER_SIZE + padded;
	}
}

/* DATA as a seekscope trace file (a copy with its CRCs fixed as above) in the memfd *MEMFD,
 * named in PATH; 0, or -1 when it could not be made (the input is then skipped). */
static inline int fuzz_sst_memfile(int *memfd, const uint8_t *data, size_t size, char *path,
				   size_t pathlen)
{
	uint8_t *copy = malloc(size ? size : 1);
	int ret;

	if (!copy)
		return -1;
	memcpy(copy, data, size);
	fuzz_fix_sst_crcs(copy, size);
	ret = fuzz_memfile(memfd, copy, size, 0, path, pathlen);
	free(copy);
	return ret < 0 ? -1 : 0;
}

static FILE *fuzz_null_stream;

static inline void fuzz_consume_init(void)
{
	fuzz_null_stream = fopen("/dev/null", "we");
}

struct hook_counts {
	uint64_t ios, seeks;
};

static void on_io(const struct ss_io *io, void *arg)
{
	(void)io;
	((struct hook_counts *)arg)->ios++;
}

static void on_seek(const struct ss_event *ev, int verdict, int64_t distance, void *arg)
{
	(void)ev, (void)verdict, (void)distance;
	((struct hook_counts *)arg)->seeks++;
}

static inline void fuzz_consume(struct ss_trace *t)
{
	struct report_opts ro = { .all_zones = true, .seek_threshold = 128 };
	struct hook_counts hc = { 0 };
	struct ss_stats_opts so;
	struct ss_stats *st;
	uint64_t nev = 0;
	const struct ss_event *ev;
	size_t n;
	int ret;

	(void)ss_trace_meta(t, "cmdline");
	(void)ss_trace_lost_events(t);
	for (size_t i = 0; i < t->nr_zones && i < 64; i++)
		(void)ss_trace_zone_at(t, t->zones[i].dev, t->zones[i].start_sector);
	/* streaming alone: the batches add up to the count the metadata pass announced */
	while ((ret = ss_trace_next_batch(t, &ev, &n)) > 0)
		nev += n;
	if (ret == 0)
		FUZZ_ASSERT(nev == t->nr_events, "%llu events streamed, %llu announced",
			    (unsigned long long)nev, (unsigned long long)t->nr_events);
	ss_trace_rewind(t);

	ss_stats_opts_init(&so);
	so.bins = true;
	/* Fewer bins than the plots use (same code, any count): a large zeroed array and a
	 * series loop over it per metric would cost more than everything else per input. */
	so.max_bins = 64;
	so.on_io = on_io;
	so.on_seek = on_seek;
	so.arg = &hc;
	/* per-process rows, and a process filter on every other input (names from the file) */
	so.procs = true;
	so.dirs = true;
	if (t->nr_events & 1) {
		ro.only = (struct ss_task_spec){ .pids = { 1 }, .nr_pids = 1, .comms = { "t*" },
						 .nr_comms = 1 };
		so.only = &ro.only;
	}
	st = ss_stats_new(t, &so);
	if (!st)
		return;
	if (ss_stats_run(st, t) == 0) {
		const struct ss_bins *b = ss_stats_bins(st);
		double *series = b ? calloc(b->n ? b->n : 1, sizeof(*series)) : NULL;

		FUZZ_ASSERT(ss_stats_total(st)->events <= t->nr_events, "more events counted than read");
		FUZZ_ASSERT(hc.ios <= t->nr_events && hc.seeks <= t->nr_events, "hooks called too often");
		for (int m = 0; series && m < SS_BM_METRIC_MAX; m++) {
			ss_bins_series(b, (enum ss_bin_metric)m, 5, series);
			for (size_t i = 0; i < b->n; i++)
				FUZZ_ASSERT(!isnan(series[i]), "metric %d is NaN in bin %zu", m, i);
		}
		free(series);
		{
			const struct ss_procs *p = ss_stats_procs(st);
			uint64_t ios = 0, seeks = 0;

			for (size_t i = 0; p && i < ss_procs_count(p); i++) {
				ios += ss_procs_row(p, i)->ios;
				seeks += ss_procs_row(p, i)->seeks;
			}
			FUZZ_ASSERT(ios == ss_stats_total(st)->ios && seeks == ss_stats_total(st)->seeks,
				    "process rows add up to %llu I/Os, %llu seeks, not %llu, %llu",
				    (unsigned long long)ios, (unsigned long long)seeks,
				    (unsigned long long)ss_stats_total(st)->ios,
				    (unsigned long long)ss_stats_total(st)->seeks);
		}
		{
			const struct ss_group_stats *g = ss_stats_dirs(st);
			uint64_t ios = 0, seeks = 0;

			for (size_t i = 0; g && i < ss_group_stats_count(g); i++) {
				ios += ss_group_stats_row(g, i)->ios;
				seeks += ss_group_stats_row(g, i)->seeks;
			}
			FUZZ_ASSERT(ios == ss_stats_total(st)->ios && seeks == ss_stats_total(st)->seeks,
				    "directory rows add up to %llu I/Os, %llu seeks, not %llu, %llu",
				    (unsigned long long)ios, (unsigned long long)seeks,
				    (unsigned long long)ss_stats_total(st)->ios,
				    (unsigned long long)ss_stats_total(st)->seeks);
		}
		report_print_text(fuzz_null_stream, t, st, &ro);
		report_print_json(fuzz_null_stream, t, st, &ro);
		fflush(fuzz_null_stream);
	}
	ss_stats_free(st);
}

/* Open PATH with the format detection every command uses (a trace-cmd file read in SRV's
 * reader process when SRV is not NULL), consume it, close it. */
static inline void fuzz_open_consume_with(const char *path, struct ss_tracecmd_server *srv)
{
	char err[256] = "";
	struct ss_trace *t = ss_trace_open_with(path, srv, err, sizeof(err));

	if (!t) {
		FUZZ_ASSERT(err[0], "open failed without a message");
		return;
	}
	fuzz_consume(t);
	ss_trace_close(t);
}

static inline void fuzz_open_consume(const char *path)
{
	fuzz_open_consume_with(path, NULL);
}

#endif
