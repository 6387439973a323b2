/*
 * Fuzz target: the seekscope trace reader (render/trace_read.c) and everything that consumes
 * what it returns — the statistics pass with time bins (render/stats.h), the text and JSON
 * report printers and `seekscope dump` — on an untrusted trace file.
 *
 * The input is a trace file.  Record payloads are CRC-protected, which random mutation
 * practically never gets right, so the harness recomputes every record's CRC before handing
 * the file over (the same walk the reader does) — unless byte 48 of the input (the first
 * reserved header byte, which readers ignore) is odd: then the CRCs are left as they are and
 * the checksum-mismatch paths get exercised too.
 */
#include <fcntl.h>
#include <math.h>
#include <zlib.h>

#include "commands.h"
#include "fuzz.h"
#include "report_fmt.h"
#include "seekscope/codec.h"
#include "stats.h"
#include "trace_read.h"

static int memfd = -1, devnull = -1;
static FILE *null_stream;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	null_stream = fopen("/dev/null", "we");
	return 0;
}

static uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}

/* Recompute the CRC of every record that fits in the buffer, walking as the reader does. */
static void fix_crcs(uint8_t *d, size_t size)
{
	size_t off;

	if (size < SS_FILE_HEADER_SIZE || (d[48] & 1))
		return;
	off = get_le32(d + 16);                                  /* header_size */
	if (off < SS_FILE_HEADER_SIZE || off > 4096)
		off = SS_FILE_HEADER_SIZE;
	while (off + SS_RECORD_HEADER_SIZE <= size) {
		uint32_t len = get_le32(d + off + 4);
		size_t padded = ((size_t)len + SS_RECORD_ALIGN - 1) & ~(size_t)(SS_RECORD_ALIGN - 1);

		if (len > SS_MAX_RECORD_LEN || off + SS_RECORD_HEADER_SIZE + len > size)
			return;
		put_le32(d + off + 8, (uint32_t)crc32(crc32(0L, Z_NULL, 0),
						      d + off + SS_RECORD_HEADER_SIZE, len));
		off += SS_RECORD_HEADER_SIZE + padded;
	}
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

/* What `report` and `plot` do with a trace: statistics with bins and the per-event hooks,
 * every binned series (smoothed, as the plots draw them), both printers. */
static void consume(struct ss_trace *t)
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
	so.on_io = on_io;
	so.on_seek = on_seek;
	so.arg = &hc;
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
		report_print_text(null_stream, t, st, &ro);
		report_print_json(null_stream, t, st, &ro);
		fflush(null_stream);
	}
	ss_stats_free(st);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64], err[256];
	struct ss_trace *t;
	uint8_t *copy;

	if (size > (8u << 20))
		return 0;
	copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	fix_crcs(copy, size);
	if (fuzz_memfile(&memfd, copy, size, 0, path, sizeof(path)) < 0) {
		free(copy);
		return 0;
	}
	free(copy);

	t = ss_trace_open(path, err, sizeof(err));
	if (!t) {
		FUZZ_ASSERT(err[0], "open failed without a message");
		return 0;
	}
	consume(t);
	ss_trace_close(t);

	/* `seekscope dump FILE`, its output thrown away */
	if (devnull >= 0) {
		char *argv[] = { "dump", path, NULL };
		int saved;

		fflush(stdout);
		saved = dup(STDOUT_FILENO);
		dup2(devnull, STDOUT_FILENO);
		ss_cmd_dump(2, argv);
		fflush(stdout);
		if (saved >= 0) {
			dup2(saved, STDOUT_FILENO);
			close(saved);
		}
	}
	return 0;
}
