/*
 * What `report` and `plot` do with an opened trace, for the fuzz targets of every reader
 * (fuzz_trace.c: seekscope files; fuzz_blktrace.c, fuzz_tracecmd.c: the importers): stream
 * every batch (their sum must equal the announced count), one statistics pass with time bins
 * and the per-event hooks, every binned series (no NaN), and both report printers into
 * /dev/null.  Include after fuzz.h; call fuzz_consume_init() from LLVMFuzzerInitialize.
 */
#ifndef SS_FUZZ_CONSUME_H
#define SS_FUZZ_CONSUME_H

#include <math.h>

#include "report_fmt.h"
#include "stats.h"
#include "trace_read.h"

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
		report_print_text(fuzz_null_stream, t, st, &ro);
		report_print_json(fuzz_null_stream, t, st, &ro);
		fflush(fuzz_null_stream);
	}
	ss_stats_free(st);
}

/* Open PATH with the format detection every command uses, consume it, close it. */
static inline void fuzz_open_consume(const char *path)
{
	char err[256] = "";
	struct ss_trace *t = ss_trace_open(path, err, sizeof(err));

	if (!t) {
		FUZZ_ASSERT(err[0], "open failed without a message");
		return;
	}
	fuzz_consume(t);
	ss_trace_close(t);
}

#endif
