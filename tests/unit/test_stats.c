// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Statistics primitives on hand-made event lists: seeks at the threshold boundary, request
 * pairing (flushes, requeues, unmatched completions, queue depth), bin widths, latency
 * percentiles, and per-phase / per-zone attribution through a real (small) trace file.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "tap.h"
#include "seekscope/model.h"
#include "trace_write.h"
#include "trace_read.h"
#include "stats.h"
#include "zone_index.h"

#define DEV_A SS_MKDEV(8, 0)
#define DEV_B SS_MKDEV(8, 16)
#define MS 1000000ull
#define S  1000000000ull

static struct ss_event mk(uint64_t ts, uint16_t type, uint32_t dev, uint64_t sector, uint32_t nr,
			  uint16_t flags)
{
	struct ss_event e = { .ts_ns = ts, .sector = sector, .nr_sector = nr, .bytes = nr * 512,
			      .dev = dev, .type = type, .flags = flags };
	return e;
}

static struct ss_event issue(uint64_t ts, uint32_t dev, uint64_t sector, uint32_t nr, uint16_t fl)
{
	return mk(ts, SS_EV_ISSUE, dev, sector, nr, fl);
}

static struct ss_event complete(uint64_t ts, uint32_t dev, uint64_t sector, uint32_t nr,
				uint16_t fl)
{
	return mk(ts, SS_EV_COMPLETE, dev, sector, nr, fl);
}

static void test_seek_boundary(void)
{
	struct ss_seek *s = ss_seek_new(SS_SEEK_THRESHOLD_DEFAULT);
	struct ss_event e;
	int64_t d;

	e = issue(1, DEV_A, 1000, 8, SS_RW_WRITE);
	is_int(ss_seek_feed(s, &e, &d), SS_SEEK_FIRST, "first I/O on a device is not a seek");
	is_int(d, 0, "first I/O has no distance");
	e = issue(2, DEV_A, 1008 + 128, 8, SS_RW_WRITE);     /* previous end 1008 */
	is_int(ss_seek_feed(s, &e, &d), SS_SEEK_NEAR, "exactly 128 sectors away is not a seek");
	is_int(d, 128, "distance +128");
	e = issue(3, DEV_A, 1144 + 129, 8, SS_RW_WRITE);     /* previous end 1144 */
	is_int(ss_seek_feed(s, &e, &d), SS_SEEK_FAR, "129 sectors away is a seek");
	is_int(d, 129, "distance +129");
	e = issue(4, DEV_A, 1281 - 129, 8, SS_RW_READ);      /* previous end 1281 */
	is_int(ss_seek_feed(s, &e, &d), SS_SEEK_FAR, "129 sectors backwards is a seek");
	is_int(d, -129, "distance -129");
	e = issue(5, DEV_A, 1160 - 128, 8, SS_RW_READ);
	is_int(ss_seek_feed(s, &e, &d), SS_SEEK_NEAR, "128 sectors backwards is not a seek");
	e = issue(6, DEV_A, 0, 0, SS_RW_FLUSH | SS_RW_PREFLUSH);
	is_int(ss_seek_feed(s, &e, &d), SS_SEEK_IGNORED, "a flush (sector 0, length 0) is ignored");
	e = complete(7, DEV_A, 900000, 8, SS_RW_READ);
	is_int(ss_seek_feed(s, &e, &d), SS_SEEK_IGNORED, "completions are ignored");
	e = issue(8, DEV_A, 1040, 8, SS_RW_READ);
	is_int(ss_seek_feed(s, &e, &d), SS_SEEK_NEAR, "the flush did not move the head");
	is_int(d, 0, "sequential I/O has distance 0");
	ss_seek_free(s);

	s = ss_seek_new(0);
	e = issue(1, DEV_A, 0, 8, SS_RW_READ);
	ss_seek_feed(s, &e, NULL);
	e = issue(2, DEV_A, 8, 8, SS_RW_READ);
	is_int(ss_seek_feed(s, &e, NULL), SS_SEEK_NEAR, "threshold 0: contiguous is not a seek");
	e = issue(3, DEV_A, 17, 8, SS_RW_READ);
	is_int(ss_seek_feed(s, &e, NULL), SS_SEEK_FAR, "threshold 0: a one-sector gap is a seek");
	ss_seek_free(s);
}

static void test_seek_two_devices(void)
{
	struct ss_seek *s = ss_seek_new(128);
	struct ss_event ev[] = {
		issue(1, DEV_A, 0, 8, SS_RW_WRITE),
		issue(2, DEV_B, 500000, 8, SS_RW_WRITE),   /* first on B: not a seek */
		issue(3, DEV_A, 8, 8, SS_RW_WRITE),        /* continues A */
		issue(4, DEV_B, 500008, 8, SS_RW_WRITE),   /* continues B */
		issue(5, DEV_A, 100000, 8, SS_RW_WRITE),   /* seek on A */
		issue(6, DEV_B, 500016, 8, SS_RW_WRITE),   /* continues B */
	};
	int want[] = { SS_SEEK_FIRST, SS_SEEK_FIRST, SS_SEEK_NEAR, SS_SEEK_NEAR, SS_SEEK_FAR,
		       SS_SEEK_NEAR };
	int bad = 0;

	for (size_t i = 0; i < sizeof(ev) / sizeof(ev[0]); i++)
		bad += ss_seek_feed(s, &ev[i], NULL) != want[i];
	is_int(bad, 0, "interleaved devices are tracked separately");
	ss_seek_free(s);

	is_int(ss_seek_hist_bucket(0), 0, "distance 0 in bucket 0");
	is_int(ss_seek_hist_bucket(1), 1, "distance 1 in bucket 1");
	is_int(ss_seek_hist_bucket(-129), 8, "distance -129 in bucket 8 (128..255)");
	is_int(ss_seek_hist_bucket(INT64_MIN), 64, "INT64_MIN does not overflow");
	is_int(ss_seek_hist_bucket_low(8), 128, "bucket 8 starts at 128");
}

static void test_pairing(void)
{
	struct ss_pair *p = ss_pair_new(0);
	struct ss_io io;
	struct ss_event e;

	/* A write, a flush and a read in flight on one device, one write on another. */
	e = issue(100, DEV_A, 2048, 8, SS_RW_WRITE);
	is_int(ss_pair_feed(p, &e, &io), 0, "issue is not a completion");
	e = issue(110, DEV_A, 0, 0, SS_RW_FLUSH | SS_RW_PREFLUSH);
	ss_pair_feed(p, &e, &io);
	e = issue(120, DEV_A, 0, 8, SS_RW_READ);          /* sector 0 too, but with data */
	ss_pair_feed(p, &e, &io);
	e = issue(125, DEV_B, 2048, 8, SS_RW_WRITE);      /* same sector, other device */
	ss_pair_feed(p, &e, &io);
	is_int(ss_pair_inflight(p), 4, "queue depth rises to 4");
	is_int(ss_pair_inflight_dev(p, DEV_A), 3, "3 in flight on A");
	is_int(ss_pair_inflight_dev(p, DEV_B), 1, "1 in flight on B");
	is_int(ss_pair_inflight_issued(p, 0, UINT64_MAX), 4, "all 4 issued at any time");
	is_int(ss_pair_inflight_issued(p, 100, 120), 2, "issued in (100, 120]: the flush and "
	       "the read (a flush's FIFO walked as a bucket's chain)");
	is_int(ss_pair_inflight_issued(p, 0, 99), 0, "none issued up to 99");
	is_int(ss_pair_inflight_issued(p, 125, UINT64_MAX), 0, "none issued after 125");

	e = complete(200, DEV_A, SS_SECTOR_NONE, 0, SS_RW_FLUSH | SS_RW_PREFLUSH);
	is_int(ss_pair_feed(p, &e, &io), 1, "completion reported");
	ok(io.matched && !io.has_data && io.issue_ts == 110, "flush complete at SECTOR_NONE pairs with "
	   "the flush issued at sector 0 (issue_ts %llu)", (unsigned long long)io.issue_ts);
	is_int(ss_io_latency_ns(&io), 90, "flush latency");
	e = complete(220, DEV_A, 0, 8, SS_RW_READ);
	ss_pair_feed(p, &e, &io);
	ok(io.matched && io.issue_ts == 120, "read at sector 0 pairs with its own issue");
	e = complete(230, DEV_B, 2048, 8, SS_RW_WRITE);
	ss_pair_feed(p, &e, &io);
	ok(io.matched && io.issue_ts == 125 && io.dev == DEV_B, "same sector on B pairs with B");
	is_int(ss_pair_inflight(p), 1, "queue depth falls to 1");

	/* requeue then re-issue: latency from the second dispatch */
	e = mk(240, SS_EV_REQUEUE, DEV_A, 2048, 8, SS_RW_WRITE);
	ss_pair_feed(p, &e, &io);
	is_int(ss_pair_inflight(p), 0, "requeue takes the request out of flight");
	e = issue(260, DEV_A, 2048, 8, SS_RW_WRITE);
	ss_pair_feed(p, &e, &io);
	is_int(ss_pair_inflight(p), 1, "re-issue puts it back");
	e = complete(300, DEV_A, 2048, 8, SS_RW_WRITE);
	ss_pair_feed(p, &e, &io);
	ok(io.matched && io.issue_ts == 260, "requeued request pairs with its re-issue");
	is_int(ss_io_latency_ns(&io), 40, "latency from the last dispatch");

	/* completions without an issue: counted, no crash, depth stays at 0 */
	e = complete(310, DEV_A, 999, 8, SS_RW_READ);
	ss_pair_feed(p, &e, &io);
	ok(!io.matched && ss_io_latency_ns(&io) == 0, "unmatched completion has no latency");
	e = complete(320, DEV_B, SS_SECTOR_NONE, 0, SS_RW_FLUSH);
	ss_pair_feed(p, &e, &io);
	ok(!io.matched, "flush completion without issue is unmatched");
	is_int(ss_pair_inflight(p), 0, "depth does not go below 0");
	is_int(ss_pair_stats(p)->unmatched, 2, "two unmatched completions");
	is_int(ss_pair_stats(p)->matched, 4, "four matched completions");
	is_int(ss_pair_stats(p)->requeued, 1, "one requeue");
	is_int(ss_pair_stats(p)->max_depth, 4, "max depth 4");

	/* duplicate keys pair FIFO; partial completion keeps the rest in flight */
	e = issue(400, DEV_A, 5000, 8, SS_RW_READ);
	ss_pair_feed(p, &e, &io);
	e = issue(410, DEV_A, 5000, 8, SS_RW_READ);
	ss_pair_feed(p, &e, &io);
	e = complete(450, DEV_A, 5000, 8, SS_RW_READ);
	ss_pair_feed(p, &e, &io);
	ok(io.issue_ts == 400, "equal keys complete in issue order");
	e = issue(460, DEV_A, 6000, 16, SS_RW_WRITE);
	ss_pair_feed(p, &e, &io);
	e = complete(470, DEV_A, 6000, 8, SS_RW_WRITE);
	ss_pair_feed(p, &e, &io);
	ok(io.matched && io.nr_sector == 8, "partial completion matched");
	e = complete(480, DEV_A, 6008, 8, SS_RW_WRITE);
	ss_pair_feed(p, &e, &io);
	ok(io.matched && io.issue_ts == 460, "rest of a partially completed request matched");
	e = complete(490, DEV_A, 5000, 8, SS_RW_READ);
	ss_pair_feed(p, &e, &io);
	e = issue(500, DEV_A, 7000, 16, SS_RW_WRITE);
	ss_pair_feed(p, &e, &io);
	e = complete(510, DEV_A, 7000, 8, SS_RW_WRITE);
	ss_pair_feed(p, &e, &io);
	ok(ss_pair_inflight_issued(p, 0, 500) == 1 && ss_pair_inflight_issued(p, 0, 499) == 0 &&
	   ss_pair_inflight(p) == 1, "a partial completion's rest counts as issued when the "
	   "request was (500), after the chains it moved between");
	ss_pair_free(p);

	/* the in-flight cap: overflow is counted, memory stays bounded */
	p = ss_pair_new(4);
	for (int i = 0; i < 10; i++) {
		e = issue(1000 + (uint64_t)i, DEV_A, (uint64_t)i * 8, 8, SS_RW_READ);
		ss_pair_feed(p, &e, &io);
	}
	is_int(ss_pair_inflight(p), 4, "in-flight capped at 4");
	is_int(ss_pair_inflight_issued(p, 0, UINT64_MAX), 4, "the issues over the cap are not "
	       "in flight for ss_pair_inflight_issued either");
	is_int(ss_pair_stats(p)->overflow, 6, "6 issues over the cap counted");
	ss_pair_free(p);

	/* many requests: bucket growth keeps every pairing */
	p = ss_pair_new(0);
	int bad = 0;
	for (int i = 0; i < 5000; i++) {
		e = issue(1, DEV_A, (uint64_t)i * 16, 8, SS_RW_READ);
		ss_pair_feed(p, &e, &io);
	}
	is_int(ss_pair_inflight_issued(p, 0, 1), 5000, "5000 in flight found in the grown table");
	for (int i = 4999; i >= 0; i--) {
		e = complete(2, DEV_A, (uint64_t)i * 16, 8, SS_RW_READ);
		ss_pair_feed(p, &e, &io);
		bad += !io.matched;
	}
	is_int(bad, 0, "5000 in flight, completed in reverse order, all matched");
	is_int(ss_pair_inflight_issued(p, 0, UINT64_MAX), 0, "none left in any chain");
	is_int(ss_pair_inflight(p), 0, "all drained");
	ss_pair_free(p);
}

static void test_bins(void)
{
	struct ss_bins *b;
	double in[5] = { 0, 10, 0, 10, 0 }, out[5];

	is_int(ss_bins_choose_width(3 * S, 0), 10 * MS, "3 s -> 10 ms bins");
	is_int(ss_bins_choose_width(60 * S, 0), 200 * MS, "60 s -> 200 ms bins");
	is_int(ss_bins_choose_width(3600 * S, 0), 10 * S, "1 h -> 10 s bins");
	is_int(ss_bins_choose_width(0, 0), MS, "empty span -> 1 ms");
	is_int(ss_bins_choose_width(4 * S, 0), 10 * MS, "4 s -> 10 ms (400 bins)");
	is_int(ss_bins_choose_width(4 * S + 1, 0), 20 * MS, "just over 4 s -> 20 ms");
	b = ss_bins_new(1 * S, 4 * S, 0);
	ok(b && b->n == 300 && b->width_ns == 10 * MS, "3 s trace gives 300 bins");
	is_int(ss_bins_index(b, 1 * S), 0, "start in bin 0");
	is_int(ss_bins_index(b, 4 * S), 299, "end in the last bin");
	is_int(ss_bins_index(b, 4 * S + 1), -1, "past end outside");
	is_int(ss_bins_index(b, S - 1), -1, "before start outside");
	ss_bins_add_depth(b, 1 * S + 5 * MS, 1 * S + 25 * MS, 2);   /* spans bins 0, 1, 2 */
	ok(fabs(ss_bins_value(b, 0, SS_BM_QUEUE_DEPTH) - 1.0) < 1e-9 &&
	   fabs(ss_bins_value(b, 1, SS_BM_QUEUE_DEPTH) - 2.0) < 1e-9 &&
	   fabs(ss_bins_value(b, 2, SS_BM_QUEUE_DEPTH) - 1.0) < 1e-9,
	   "queue depth spread over bins, time-weighted");
	b->bin[3].write_bytes = 1000000;   /* 1 MB in 10 ms = 100 MB/s */
	b->bin[3].writes = 10;
	ok(fabs(ss_bins_value(b, 3, SS_BM_WRITE_MB_S) - 100.0) < 1e-9, "MB/s per bin");
	ok(fabs(ss_bins_value(b, 3, SS_BM_IOPS) - 1000.0) < 1e-9, "IOPS per bin");
	ss_bins_free(b);

	/* A span near 2^64 ns (a hostile trace, found by fuzzing): start + n * width does not fit
	 * in 64 bits.  This used to loop forever; the depth must land in the last bin. */
	b = ss_bins_new(1 * S, UINT64_MAX - 16777216, 0);
	ok(b != NULL, "bins over a span of almost 2^64 ns");
	if (b) {
		uint64_t last = ss_bins_bin_start(b, b->n - 1);

		ss_bins_add_depth(b, last + 5, b->end_ns, 1);
		ok(b->bin[b->n - 1].depth_ns == (double)(b->end_ns - last - 5),
		   "depth in the last bin when its nominal end would wrap around");
		ok(ss_bins_bin_width(b, b->n - 1) == b->end_ns - last,
		   "the last bin's real width, not the nominal one, when that would wrap");
		ss_bins_free(b);
	}

	b = ss_bins_new(0, 25 * MS, 10 * MS);
	ok(b && b->n == 3 && ss_bins_bin_width(b, 2) == 5 * MS, "short last bin has its real width");
	b->bin[2].reads = 5;
	ok(fabs(ss_bins_value(b, 2, SS_BM_READ_IOPS) - 1000.0) < 1e-9, "rate uses the real width");
	ss_bins_free(b);

	ss_series_rolling(in, out, 5, 3);
	ok(fabs(out[0] - 5) < 1e-9 && fabs(out[1] - 10.0 / 3) < 1e-9 && fabs(out[2] - 20.0 / 3) < 1e-9,
	   "centred rolling average shrinks at the edges");
	ss_series_rolling(in, out, 5, 1);
	ok(out[1] == 10, "window 1 copies");
	errno = 0;
	ok(!ss_bins_new(0, 3600 * S, 1) && errno == E2BIG, "absurd bin count refused");
}

static void test_lathist(void)
{
	struct ss_lathist h;
	uint64_t p50, p99;

	ss_lathist_init(&h);
	is_int(ss_lathist_percentile(&h, 50), 0, "empty histogram");
	/* 1..1000 us, uniformly: p50 = 500 us, p99 = 990 us */
	for (uint64_t i = 1; i <= 1000; i++)
		ss_lathist_add(&h, i * 1000);
	p50 = ss_lathist_percentile(&h, 50);
	p99 = ss_lathist_percentile(&h, 99);
	ok(fabs((double)p50 - 500e3) / 500e3 < 1.0 / 16, "p50 %llu ns within bucket precision of 500 us",
	   (unsigned long long)p50);
	ok(fabs((double)p99 - 990e3) / 990e3 < 1.0 / 16, "p99 %llu ns within bucket precision of 990 us",
	   (unsigned long long)p99);
	is_int(ss_lathist_percentile(&h, 100), 1000000, "p100 is the exact max");
	is_int(h.max_ns, 1000000, "exact max");
	is_int(ss_lathist_percentile(&h, 0), 1000, "p0 is the exact min");
	ok(fabs(ss_lathist_mean(&h) - 500500.0) < 1e-6, "exact mean");
	int bad = 0;
	for (unsigned i = 0; i < SS_LATHIST_BUCKETS; i++) {
		uint64_t lo = ss_lathist_bucket_low(i), hi = ss_lathist_bucket_high(i);

		bad += ss_lathist_index(lo) != i || ss_lathist_index(hi) != i;
		if (i + 1 < SS_LATHIST_BUCKETS)
			bad += ss_lathist_bucket_low(i + 1) != hi + 1;
	}
	is_int(bad, 0, "buckets tile 0..2^64-1 without gaps");
	is_int(ss_lathist_index(UINT64_MAX), SS_LATHIST_BUCKETS - 1, "UINT64_MAX in the last bucket");

	/* a bimodal distribution: 90 fast (100 us), 10 slow (20 ms) */
	ss_lathist_init(&h);
	for (int i = 0; i < 90; i++)
		ss_lathist_add(&h, 100000);
	for (int i = 0; i < 10; i++)
		ss_lathist_add(&h, 20000000);
	ok(llabs((long long)ss_lathist_percentile(&h, 50) - 100000) < 100000 / 16, "bimodal p50");
	ok(llabs((long long)ss_lathist_percentile(&h, 99) - 20000000) < 20000000 / 16, "bimodal p99");
	ok(llabs((long long)ss_lathist_percentile(&h, 90) - 100000) < 100000 / 16,
	   "p90 is the 90th sample (nearest rank)");

	/* nearest rank must not be pushed up by binary fractions: p99 of 100 samples is the 99th */
	ss_lathist_init(&h);
	for (uint64_t i = 1; i <= 100; i++)
		ss_lathist_add(&h, i * 1000000);
	ok(llabs((long long)ss_lathist_percentile(&h, 99) - 99000000) < 99000000 / 16 &&
	   ss_lathist_percentile(&h, 99) != 100000000, "p99 of 1..100 ms is ~99 ms, not the max");
	ok(llabs((long long)ss_lathist_percentile(&h, 50) - 50000000) < 50000000 / 16, "p50 ~50 ms");
}

/* The one-pass summary over a bare event list (no trace metadata). */
static void test_stats_events(void)
{
	struct ss_stats_opts o;
	struct ss_stats *st;
	const struct ss_summary *s;
	const struct ss_bins *b;
	struct ss_event ev[] = {
		issue(0 * MS, DEV_A, 1000, 8, SS_RW_WRITE),                 /* first: no seek */
		issue(1 * MS, DEV_A, 1008, 8, SS_RW_WRITE),                 /* sequential */
		complete(2 * MS, DEV_A, 1000, 8, SS_RW_WRITE),              /* lat 2 ms */
		complete(4 * MS, DEV_A, 1008, 8, SS_RW_WRITE | SS_RW_FUA),  /* lat 3 ms */
		issue(5 * MS, DEV_A, 900000, 16, SS_RW_READ),               /* seek */
		issue(5 * MS, DEV_A, 0, 0, SS_RW_FLUSH | SS_RW_PREFLUSH),
		complete(7 * MS, DEV_A, 900000, 16, SS_RW_READ),            /* lat 2 ms */
		complete(8 * MS, DEV_A, SS_SECTOR_NONE, 0, SS_RW_FLUSH | SS_RW_PREFLUSH),
		complete(9 * MS, DEV_A, 77, 8, SS_RW_READ),                 /* unmatched */
		issue(10 * MS, DEV_A, 1024, 8, SS_RW_WRITE),                /* seek backwards */
	};

	ss_stats_opts_init(&o);
	errno = 0;
	o.bins = true;
	ok(!ss_stats_new(NULL, &o) && errno == EINVAL, "bins without a trace need a range");
	o.bin_start_ns = 0;
	o.bin_end_ns = 10 * MS;
	o.bin_width_ns = 5 * MS;
	st = ss_stats_new(NULL, &o);
	if (!ok(st != NULL, "stats over a bare event list"))
		return;
	is_int(ss_stats_feed(st, ev, 4), 0, "feed a first batch");
	is_int(ss_stats_feed(st, ev + 4, sizeof(ev) / sizeof(ev[0]) - 4), 0, "feed the rest");
	ss_stats_finish(st);
	s = ss_stats_total(st);
	is_int(s->events, 10, "events");
	is_int(s->ios, 4, "I/Os = completed data requests (the unmatched one too)");
	is_int(s->writes, 2, "writes");
	is_int(s->reads, 2, "reads");
	is_int(s->write_bytes, 16 * 512, "write bytes");
	is_int(s->read_bytes, 24 * 512, "read bytes");
	is_int(s->flushes, 1, "flushes");
	is_int(s->fua, 1, "FUA");
	is_int(s->issues, 4, "data issues");
	is_int(s->seeks, 2, "seeks: forward and backward jumps");
	is_int(s->unmatched, 1, "unmatched completion");
	is_int(s->lat.count, 3, "three latencies (the flush apart)");
	is_int(s->flush_lat.count, 1, "one flush latency");
	is_int(s->lat_max_ns, 3 * MS, "max latency");
	ok(llabs((long long)s->lat_p50_ns - (long long)(2 * MS)) < (long long)(2 * MS / 16),
	   "p50 latency ~2 ms (%llu)", (unsigned long long)s->lat_p50_ns);
	is_int(s->start_ns, 0, "period starts at the first event");
	is_int(s->end_ns, 10 * MS, "period ends at the last event");
	ok(fabs(s->duration_s - 0.010) < 1e-12, "duration 10 ms");
	ok(fabs(s->iops - 400.0) < 1e-9, "IOPS = 4 / 10 ms");
	ok(fabs(s->seeks_per_s - 200.0) < 1e-9, "seeks/s = 2 / 10 ms");
	ok(fabs(s->write_mb_s - 16 * 512 / 1e6 / 0.010) < 1e-9, "write MB/s");
	/* in flight: 1 on [0,1), 2 on [1,2), 1 on [2,4), 0 on [4,5), 2 on [5,7), 1 on [7,8), 0 */
	ok(fabs(s->mean_depth - (1 + 2 + 2 + 0 + 4 + 1) / 10.0) < 1e-9, "mean queue depth %.3f",
	   s->mean_depth);
	is_int(s->max_depth, 2, "max queue depth");
	is_int(s->seek_dist.count, 3, "three evaluated seek distances");
	is_int(s->seek_dist.pos[ss_seek_hist_bucket(900000 - 1016)], 1, "forward distance counted");
	is_int(s->seek_dist.neg[ss_seek_hist_bucket(900016 - 1024)], 1, "backward distance counted");
	b = ss_stats_bins(st);
	ok(b && b->n == 2, "two 5 ms bins");
	if (b) {
		is_int(b->bin[0].writes, 2, "bin 0: two writes");
		is_int(b->bin[1].reads, 2, "bin 1: two reads");
		is_int(b->bin[1].seeks, 2, "bin 1: two seeks (the one at 10 ms is in the last bin)");
		is_int(b->bin[1].flushes, 1, "bin 1: one flush");
		ok(fabs(ss_bins_value(b, 0, SS_BM_QUEUE_DEPTH) - 1.0) < 1e-9, "bin 0 depth 1.0");
		ok(fabs(ss_bins_value(b, 0, SS_BM_LAT_MEAN_US) - 2500.0) < 1e-9, "bin 0 mean latency");
	}
	ss_stats_free(st);
}

int main(void)
{
	test_seek_boundary();
	test_seek_two_devices();
	test_pairing();
	test_bins();
	test_lathist();
	test_stats_events();
	return done_testing();
}
