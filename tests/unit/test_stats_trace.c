// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Statistics over a real trace file (tests/unit/fixture.h): period, per-phase and per-zone
 * attribution, workload meta, bins over the capture, and the zone index agreeing with
 * ss_trace_zone_at() everywhere.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "testdir.h"
#include "fixture.h"
#include "trace_read.h"
#include "owner.h"
#include "stats.h"
#include "diskmodel.h"
#include "diskreplay.h"
#include "taskfilter.h"
#include "zone_index.h"

static int near(double got, double want)
{
	return fabs(got - want) <= 1e-9 * (fabs(want) > 1 ? fabs(want) : 1);
}

static void test_fixture(const char *path)
{
	char err[256];
	struct ss_trace *t = ss_trace_open(path, err, sizeof(err));
	struct ss_stats_opts o;
	struct ss_stats *st;
	const struct ss_summary *s;
	const struct ss_phase_stats *p;
	const struct ss_zone_stats *z;
	const struct ss_bins *b;

	if (!ok(t != NULL, "fixture opens (%s)", t ? "" : err))
		return;
	ss_stats_opts_init(&o);
	o.bins = true;
	o.zones = true;
	st = ss_stats_new(t, &o);
	if (!ok(st != NULL, "stats object"))
		goto out;
	is_int(ss_stats_run(st, t), 0, "one pass over the trace");
	s = ss_stats_total(st);
	is_int(s->start_ns, 1 * FX_S, "period starts at capture start");
	is_int(s->end_ns, 4 * FX_S, "period ends at capture end");
	ok(near(s->duration_s, 3.0), "duration 3 s");
	is_int(s->events, 13, "events");
	is_int(s->ios, 6, "I/Os");
	is_int(s->reads, 2, "reads");
	is_int(s->writes, 4, "writes");
	is_int(s->read_bytes, 16 * 512, "read bytes");
	is_int(s->write_bytes, 40 * 512, "write bytes");
	is_int(s->flushes, 1, "flushes");
	is_int(s->fua, 1, "FUA");
	is_int(s->seeks, 3, "seeks");
	is_int(s->unmatched, 1, "unmatched");
	ok(near(s->iops, 2.0), "IOPS 6 / 3 s");
	ok(near(s->seeks_per_s, 1.0), "seeks/s 3 / 3 s");
	is_int(s->lat_max_ns, 10 * FX_MS, "latency max");
	is_int(s->lat_p99_ns, 10 * FX_MS, "latency p99 = the 5th of 5 samples, clamped to max");
	ok(llabs((long long)s->lat_p50_ns - 2000000) < 2000000 / 16, "latency p50 ~2 ms");
	is_int(s->max_depth, 1, "max depth");

	is_int(ss_stats_nr_phases(st), 3, "three phases (the mark is not one)");
	p = ss_stats_phase(st, 0);
	is_str(p->name, "extract", "phase 0 name");
	ok(p->ended && p->s.start_ns == 1500 * FX_MS && p->s.end_ns == 2500 * FX_MS, "extract period");
	is_int(p->s.events, 6, "extract events");
	is_int(p->s.ios, 3, "extract I/Os");
	is_int(p->s.writes, 2, "extract writes");
	is_int(p->s.seeks, 2, "extract seeks");
	ok(near(p->s.seeks_per_s, 2.0), "extract seeks/s");
	ok(p->has_files && p->files == 200 && near(p->files_per_s, 200.0), "extract files/s");
	ok(p->has_bytes && near(p->kb_per_s, 4000.0), "extract KB/s");
	p = ss_stats_phase(st, 1);
	is_str(p->name, "sync", "phase 1 name");
	is_int(p->s.events, 4, "sync events");
	ok(p->s.ios == 1 && p->s.flushes == 1 && p->s.fua == 1 && p->s.seeks == 0, "sync figures");
	ok(!p->has_files, "a non-numeric files meta is ignored");
	is_int(p->s.flush_lat.max_ns, 10 * FX_MS, "flush latency in sync");
	ok(near(p->s.duration_s, 0.5), "sync duration");
	p = ss_stats_phase(st, 2);
	is_str(p->name, "delete", "phase 2 name");
	ok(!p->ended && p->s.end_ns == 4 * FX_S, "unended phase runs to the trace end");
	ok(p->s.events == 3 && p->s.ios == 2 && p->s.seeks == 1 && p->s.unmatched == 1,
	   "delete figures");
	ok(!p->has_files && !p->has_bytes, "no workload meta for delete");
	/* time to durable: extract's begin (1.5 s) to sync's end (3.0 s), both phases' events */
	p = ss_stats_durable(st);
	ok(p && !strcmp(p->name, SS_DURABLE_PHASE), "extract+sync span present");
	if (p) {
		ok(p->s.start_ns == 1500 * FX_MS && p->s.end_ns == 3000 * FX_MS &&
		   near(p->s.duration_s, 1.5), "extract+sync: 1.5 .. 3.0 s");
		ok(p->s.events == 10 && p->s.ios == 4 && p->s.seeks == 2 && p->s.flushes == 1,
		   "extract+sync: 10 events, 4 I/Os, 2 seeks, 1 flush");
		ok(p->has_files && p->files == 200 && near(p->files_per_s, 200 / 1.5),
		   "extract+sync: extract's 200 files over 1.5 s");
	}

	is_int(ss_stats_nr_zones(st), 5, "five zones");
	z = ss_stats_zone(st, 0);
	ok(z->write_ios == 1 && z->read_ios == 0 && z->bytes == 4096, "AG0: one 4 KiB write");
	z = ss_stats_zone(st, 1);
	ok(z->write_ios == 1 && z->bytes == 8192 && z->seeks == 1, "AG1: one 8 KiB write, one seek");
	z = ss_stats_zone(st, 2);
	ok(z->write_ios == 0 && z->read_ios == 0, "AG2: nothing (the log is more specific)");
	z = ss_stats_zone(st, 4);
	is_str(z->zone->label, "log", "zone 4 is the log");
	ok(z->read_ios == 1 && z->write_ios == 1 && z->bytes == 8192, "log: one read, one write");
	z = ss_stats_zone(st, 3);
	ok(z->read_ios == 1 && z->bytes == 4096, "AG3: the unmatched read still counts");
	is_int(ss_stats_unzoned_ios(st), 1, "one I/O outside every zone");
	{
		/* without opts.zones (a plot's pass): no per-zone rows, the same figures else */
		struct ss_stats_opts o2;
		struct ss_stats *st2;

		ss_stats_opts_init(&o2);
		o2.bins = true;
		st2 = ss_stats_new(t, &o2);
		ok(st2 && ss_stats_run(st2, t) == 0 && ss_stats_nr_zones(st2) == 0 &&
		   !ss_stats_zone(st2, 0) && ss_stats_unzoned_ios(st2) == 0 &&
		   ss_stats_total(st2)->ios == ss_stats_total(st)->ios &&
		   ss_stats_total(st2)->seeks == ss_stats_total(st)->seeks,
		   "without per-zone rows: none, and the same totals");
		ss_stats_free(st2);
	}

	is_int(ss_stats_nr_devices(st), 1, "one device");
	is_int(ss_stats_device(st, 0)->s.ios, 6, "device I/Os");

	b = ss_stats_bins(st);
	ok(b && b->width_ns == 10 * FX_MS && b->n == 300, "3 s capture: 300 bins of 10 ms");
	if (b) {
		long i = ss_bins_index(b, 1702 * FX_MS);

		is_int(b->bin[i].writes, 1, "write counted in its completion bin");
		is_int(b->bin[ss_bins_index(b, 1700 * FX_MS)].seeks, 1, "seek counted at issue time");
	}
	ss_stats_free(st);

	/* a larger threshold: only the 2,095,824-sector jump remains a seek */
	ss_stats_opts_init(&o);
	o.seek_threshold = 2000000;
	st = ss_stats_new(t, &o);
	ss_stats_run(st, t);
	is_int(ss_stats_total(st)->seeks, 1, "seek threshold 2,000,000 sectors: one seek");
	ss_stats_free(st);
out:
	ss_trace_close(t);
}

static struct ss_stats *windowed(struct ss_trace *t, uint64_t lo, uint64_t hi)
{
	struct ss_stats_opts o;
	struct ss_stats *st;

	ss_stats_opts_init(&o);
	o.window = true;
	o.window_start_ns = lo;
	o.window_end_ns = hi;
	st = ss_stats_new(t, &o);
	if (st && ss_stats_run(st, t)) {
		ss_stats_free(st);
		st = NULL;
	}
	ok(st != NULL, "stats over the window %.4f..%.4f s", (double)lo / 1e9, (double)hi / 1e9);
	return st;
}

/* The window (plot --x-range): only what happened in it, periods cut to it. */
static void test_window(const char *path)
{
	char err[256];
	struct ss_trace *t = ss_trace_open(path, err, sizeof(err));
	const struct ss_summary *s;
	const struct ss_phase_stats *p;
	struct ss_stats *st;

	if (!t)
		return;
	/* 1.6005 .. 2.65 s: the first write was issued before it and completes in it (1 ms,
	 * counted with its true latency); its end still positions the head, so the write at
	 * 1.700 is a seek and nothing else is: 2 seeks (1.7, 1.8); 3 I/Os; the WFUA at 2.7 is
	 * outside; the flush completes in it */
	st = windowed(t, 1600500000ull, 2650 * FX_MS);
	if (st) {
		s = ss_stats_total(st);
		ok(s->clipped && s->start_ns == 1600500000ull && s->end_ns == 2650 * FX_MS,
		   "the total is cut to the window");
		ok(s->ios == 3 && s->writes == 2 && s->reads == 1 && s->flushes == 1,
		   "3 I/Os and the flush in the window (%" PRIu64 ")", s->ios);
		ok(s->seeks == 2 && s->issues == 2, "2 issues in the window, both seeks");
		ok(s->lat.count == 3 && s->lat.max_ns == 4 * FX_MS,
		   "latency of the 3 completions, the one issued before the window too");
		is_int(ss_stats_nr_phases(st), 2, "delete (from 3.5 s) is outside: two phases");
		p = ss_stats_phase(st, 0);
		ok(p->s.clipped && p->s.start_ns == 1600500000ull && p->s.end_ns == 2500 * FX_MS,
		   "extract cut to 1.6005 .. 2.5 s");
		ok(!p->has_files, "a cut phase has no files/s: its files are not all in the window");
		p = ss_stats_phase(st, 1);
		ok(p->s.clipped && p->s.ios == 0 && p->s.flushes == 1, "sync cut: its flush only");
		ok(ss_stats_durable(st) && ss_stats_durable(st)->s.clipped &&
		   !ss_stats_durable(st)->has_files, "extract+sync cut too");
		is_int(ss_stats_device(st, 0)->s.ios, 3, "the device counts the window only");
	}
	ss_stats_free(st);
	/* past the end: nothing */
	st = windowed(t, 10 * FX_S, 20 * FX_S);
	if (st) {
		s = ss_stats_total(st);
		ok(s->clipped && s->ios == 0 && s->events == 0 && s->duration_s == 0,
		   "a window past the end: no events, no I/O, no time");
		ok(ss_stats_nr_phases(st) == 0 && !ss_stats_durable(st), "... and no phase");
	}
	ss_stats_free(st);
	/* a window that holds the whole trace changes nothing */
	st = windowed(t, 0, 100 * FX_S);
	if (st) {
		s = ss_stats_total(st);
		ok(!s->clipped && s->ios == 6 && s->seeks == 3 && ss_stats_nr_phases(st) == 3,
		   "a window around the whole trace: the whole trace, nothing cut");
	}
	ss_stats_free(st);
	ss_trace_close(t);
}

static void test_zone_index(const char *path)
{
	char err[256];
	struct ss_trace *t = ss_trace_open(path, err, sizeof(err));
	struct ss_zone_index *zi;
	uint64_t probes[] = { 0, 1, 1048575, 1048576, FX_LOG_START - 1, FX_LOG_START,
			      FX_LOG_START + 20479, FX_LOG_START + 20480, 3145728 + 999999,
			      3145728 + 1000000, 4194303, UINT64_MAX - 1 };
	int bad = 0;

	if (!t)
		return;
	zi = ss_zone_index_new(t->zones, t->nr_zones);
	for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
		const struct ss_rec_zone *want = ss_trace_zone_at(t, FX_DEV, probes[i]);
		long got = ss_zone_index_find(zi, FX_DEV, probes[i]);

		if ((want ? want - t->zones : -1) != got) {
			bad++;
			printf("# sector %llu: index %ld, zone_at %ld\n", (unsigned long long)probes[i],
			       got, want ? (long)(want - t->zones) : -1);
		}
	}
	srand(42);
	for (int i = 0; i < 20000; i++) {
		uint64_t s = ((uint64_t)rand() * 7919u) % 4300000u;
		const struct ss_rec_zone *want = ss_trace_zone_at(t, FX_DEV, s);

		bad += (want ? want - t->zones : -1) != ss_zone_index_find(zi, FX_DEV, s);
	}
	is_int(bad, 0, "zone index agrees with ss_trace_zone_at");
	/* through a hint: random probes, a sweep over every boundary and back, another device */
	{
		struct ss_zone_hint h = { 0 };
		int hbad = 0;

		srand(7);
		for (int i = 0; i < 20000; i++) {
			uint64_t s = ((uint64_t)rand() * 7919u) % 4300000u;

			hbad += ss_zone_index_find_hint(zi, FX_DEV, s, &h) != ss_zone_index_find(zi, FX_DEV, s);
		}
		for (uint64_t s = 0; s < 4300000u; s += 4099)
			hbad += ss_zone_index_find_hint(zi, FX_DEV, s, &h) != ss_zone_index_find(zi, FX_DEV, s);
		for (size_t i = sizeof(probes) / sizeof(probes[0]); i-- > 0;) {
			hbad += ss_zone_index_find_hint(zi, FX_DEV, probes[i], &h) !=
				ss_zone_index_find(zi, FX_DEV, probes[i]);
			hbad += ss_zone_index_find_hint(zi, SS_MKDEV(8, 0), probes[i], &h) != -1;
		}
		is_int(hbad, 0, "the hinted lookup answers as the plain one");
	}
	is_int(ss_zone_index_find(zi, SS_MKDEV(8, 0), 0), -1, "other device: no zone");
	ss_zone_index_free(zi);
	zi = ss_zone_index_new(NULL, 0);
	ok(zi && ss_zone_index_find(zi, FX_DEV, 0) == -1, "empty index finds nothing");
	ss_zone_index_free(zi);
	ss_trace_close(t);
}

/* A stream of N issue/complete pairs over the fixture's device, depth 4, pids 1..3, every
 * fifth request queued first by pid 4 or 5 (its submitter), a few reads and flushes, sectors
 * jumping between the zones (deterministic). */
static struct ss_event *stream(size_t n, size_t *nr)
{
	struct ss_event *ev = calloc(3 * n, sizeof(*ev));
	size_t *at = calloc(n, sizeof(*at));
	uint64_t x = 12345, ts = 2 * FX_S;
	size_t k = 0;

	if (!ev || !at) {
		free(ev);
		free(at);
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		uint16_t fl = i % 7 == 0 ? SS_RW_READ : SS_RW_WRITE | (i % 11 == 0 ? SS_RW_META : 0);
		uint64_t sec;

		x = x * 6364136223846793005ull + 1442695040888963407ull;
		sec = i % 3 ? (x >> 20) % 4300000 : (i * 64) % 4194304;
		/* every fifth request queued first by another process (its submitter) */
		if (i % 5 == 0) {
			ev[k] = fx_ev(ts, SS_EV_QUEUE, sec, 8 + (uint32_t)(x % 64), fl);
			ev[k++].pid = 4 + (uint32_t)(i % 2);
			ts += 500;
		}
		at[i] = k;
		ev[k] = fx_ev(ts, SS_EV_ISSUE, sec, 8 + (uint32_t)(x % 64), fl);
		ev[k++].pid = 1 + (uint32_t)(i % 3);
		ts += 1000;
		if (i >= 4) {         /* complete the issue made four before */
			ev[k] = ev[at[i - 4]];
			ev[k].type = SS_EV_COMPLETE;
			ev[k++].ts_ns = ts;
			ts += 1000;
		}
	}
	free(at);
	*nr = k;
	return ev;
}

/* The summaries' counted figures (not the derived rates, computed from them at the end). */
static int summary_differs(const struct ss_summary *a, const struct ss_summary *b)
{
	return a->start_ns != b->start_ns || a->end_ns != b->end_ns || a->events != b->events ||
	       memcmp(a->op_ios, b->op_ios, sizeof(a->op_ios)) ||
	       memcmp(a->op_bytes, b->op_bytes, sizeof(a->op_bytes)) || a->flushes != b->flushes ||
	       a->fua != b->fua || a->issues != b->issues || a->seeks != b->seeks ||
	       a->unmatched != b->unmatched || a->lat_lost != b->lat_lost ||
	       a->errors != b->errors || a->max_depth != b->max_depth ||
	       a->depth_ns != b->depth_ns || memcmp(&a->lat, &b->lat, sizeof(a->lat)) ||
	       memcmp(&a->flush_lat, &b->flush_lat, sizeof(a->flush_lat)) ||
	       memcmp(&a->seek_dist, &b->seek_dist, sizeof(a->seek_dist)) ||
	       memcmp(&a->model, &b->model, sizeof(a->model));
}

static void count_hook(const struct ss_io *io, void *arg)
{
	uint64_t *n = arg;

	*n += io->nr_sector;
}

#define NR_FED 7        /* test_threads: the ways of feeding compared */

/* B's figures are A's: every period, device, bin, zone, seek cause and process row (ROWS of
 * them; HOOKS_DIFFER: their on_io hooks were not called alike).  HOW: B's way of feeding. */
static void same_figures(const struct ss_stats *a0, const struct ss_stats *a1, bool hooks_differ,
			 size_t rows, const char *how)
{
	int bad;

	bad = summary_differs(ss_stats_total(a0), ss_stats_total(a1));
	for (size_t i = 0; i < ss_stats_nr_phases(a0); i++)
		bad += summary_differs(&ss_stats_phase(a0, i)->s, &ss_stats_phase(a1, i)->s);
	bad += !ss_stats_durable(a0) != !ss_stats_durable(a1) ||
	       (ss_stats_durable(a0) && summary_differs(&ss_stats_durable(a0)->s,
							   &ss_stats_durable(a1)->s));
	for (size_t i = 0; i < ss_stats_nr_devices(a0); i++)
		bad += summary_differs(&ss_stats_device(a0, i)->s, &ss_stats_device(a1, i)->s);
	for (size_t d = 0; d <= ss_stats_nr_devices(a0); d++) {
		const struct ss_bins *a = d ? ss_stats_device_bins(a0, d - 1) : ss_stats_bins(a0);
		const struct ss_bins *b = d ? ss_stats_device_bins(a1, d - 1) : ss_stats_bins(a1);

		bad += !a != !b || (a && (a->n != b->n ||
					  memcmp(a->bin, b->bin, a->n * sizeof(*a->bin))));
	}
	bad += ss_stats_incomplete_ios(a0) != ss_stats_incomplete_ios(a1) || hooks_differ;
	is_int(bad, 0, "... %s: the same periods, devices, bins (%" PRIu64 " I/Os, %" PRIu64
	       " seeks, mean depth %.3f)", how, ss_stats_total(a0)->ios,
	       ss_stats_total(a0)->seeks, ss_stats_total(a0)->mean_depth);
	bad = 0;
	for (size_t z = 0; z < ss_stats_nr_zones(a0); z++) {
		const struct ss_zone_stats *a = ss_stats_zone(a0, z), *b = ss_stats_zone(a1, z);

		bad += memcmp(a->op_ios, b->op_ios, sizeof(a->op_ios)) || a->bytes != b->bytes ||
		       a->seeks != b->seeks || memcmp(&a->model, &b->model, sizeof(a->model));
	}
	bad += ss_stats_unzoned_ios(a0) != ss_stats_unzoned_ios(a1);
	is_int(bad, 0, "... %s: the same zone counts (%" PRIu64 " seeks in zone 0)",
	       how, ss_stats_zone(a0, 0)->seeks);
	const struct ss_cause_matrix *c0 = ss_seek_causes_total(ss_stats_causes(a0));
	const struct ss_cause_matrix *c1 = ss_seek_causes_total(ss_stats_causes(a1));
	ok(c0->seeks > 100 && !memcmp(c0, c1, sizeof(*c0)),
	   "... %s: the same seek causes (%" PRIu64 " seeks)", how, c0->seeks);
	const struct ss_procs *p0 = ss_stats_procs(a0), *p1 = ss_stats_procs(a1);
	bad = ss_procs_count(p0) != rows || ss_procs_count(p0) != ss_procs_count(p1);
	for (size_t r = 0; !bad && r < ss_procs_count(p0); r++) {
		const struct ss_proc_row *a = ss_procs_row(p0, r), *b = ss_procs_row(p1, r);

		bad += a->pid != b->pid || a->ios != b->ios || a->bytes != b->bytes ||
		       a->issues != b->issues || a->seeks != b->seeks || a->submitted != b->submitted;
	}
	is_int(bad, 0, "... %s: the same %zu process rows", how, rows);
}

/* The batch hook of a pass that reads ahead (feed_hooked): EV[0..N) noted by ss_stats_note
 * a batch at a time into NOTES (SIZE bytes an event), DONE events so far, at most AHEAD
 * batches ahead of the FED ones (a read-ahead's ring). */
struct hook_job {
	struct ss_stats *st;
	const struct ss_event *ev;
	char *notes;
	size_t n, size, batch;
	atomic_size_t done, fed;
};

#define AHEAD 4
static void *hook_ahead(void *arg)
{
	struct hook_job *j = arg;

	for (size_t i = 0; i < j->n; i += j->batch) {
		size_t k = j->n - i < j->batch ? j->n - i : j->batch;

		while (i >= atomic_load(&j->fed) + AHEAD * j->batch)
			sched_yield();
		ss_stats_note(j->st, j->ev + i, j->notes + i * j->size, k);
		atomic_store(&j->done, i + k);
	}
	return NULL;
}

/*
 * Feed ST EV[0..N) as a pass that reads ahead does (ss_stats_run): in batches of 4096, each
 * noted, and with JUDGE judged, by the hook before it is fed with its notes; with THREAD the
 * hook runs in a thread of its own, ahead of the feeding by up to AHEAD batches; from event
 * HAND_OVER on (SIZE_MAX: never) the pass takes the attribution's seek half back, and the
 * owners' notes too from HAND_OVER2 on (ss_stats_hand_over).  *SIZE: the notes' size an
 * event; *MARKED: the word notes whose top bit says the hook did that half, *UNNOTED those
 * it left to the pass to note.  0 or -errno.
 */
static int feed_hooked(struct ss_stats *st, const struct ss_event *ev, size_t n, bool judge,
		       bool thread, size_t hand_over, size_t hand_over2, size_t *size,
		       size_t *marked, size_t *unnoted)
{
	struct hook_job j = { .st = st, .ev = ev, .n = n, .batch = 4096 };
	pthread_t th;
	int ret = 0;

	*size = j.size = ss_stats_notes(st, judge);
	if (j.size && !(j.notes = malloc(n * j.size)))
		return -ENOMEM;
	if (j.size && thread && (ret = -pthread_create(&th, NULL, hook_ahead, &j))) {
		free(j.notes);
		return ret;
	}
	for (size_t i = 0; i < n && !ret; i += j.batch) {
		size_t k = n - i < j.batch ? n - i : j.batch;

		if (j.size && !thread)
			ss_stats_note(st, ev + i, j.notes + i * j.size, k);
		while (j.size && thread && atomic_load(&j.done) < i + k)
			sched_yield();
		if (i >= hand_over && i - j.batch < hand_over)
			ss_stats_hand_over(st);
		if (i >= hand_over2 && i - j.batch < hand_over2)
			ss_stats_hand_over(st);
		ret = ss_stats_feed_noted(st, ev + i, j.size ? j.notes + i * j.size : NULL, k);
		atomic_store(&j.fed, i + k);
	}
	if (j.size && thread)
		pthread_join(th, NULL);
	*marked = *unnoted = 0;
	for (size_t i = 0; j.size == sizeof(uint64_t) && i < n; i++) {
		*marked += ((const uint64_t *)j.notes)[i] >> 63;
		*unnoted += ((const uint64_t *)j.notes)[i] == SS_OWNER_UNNOTED;
	}
	free(j.notes);
	return ret;
}

/*
 * Counting and attribution in threads of their own give the one thread's figures: every
 * period, device, bin, zone, seek cause and process row; whole and in a window; fed in big
 * batches and one event at a time; with bins, with a disk model, with a hook (which keeps the
 * counting in the feeding thread).  So do the passes that read ahead (feed_hooked): the
 * events judged by the batch hook in another thread, in the feeding one, or only noted there.
 */
static void test_threads(const char *path)
{
	static const char *const mode_name[] = { "plain", "bins", "disk model", "hook",
						 "pid filter" };
	struct ss_task_spec only = { 0 };
	static const char *const how[NR_FED] = {
		"", "threads", "judged in a hook's thread", "a judging hook in the feeding thread",
		"noted in a hook's thread", "noted in a hook's thread, the seek half taken back",
		"noted in a hook's thread, the seek half and the notes taken back"
	};
	char err[256];
	struct ss_trace *t = ss_trace_open(path, err, sizeof(err));
	struct ss_event *ev;
	size_t n = 0;

	if (!t)
		return;
	ev = stream(60000, &n);
	if (ss_task_spec_add_pid(&only, "2", err, sizeof(err)))
		ok(0, "--pid 2: %s", err);
	for (int run = 0; ev && run < 10; run++) {
		int w = run & 1, mode = run >> 1, bad = 0;
		struct ss_stats *st[NR_FED] = { NULL };
		struct ss_disk_replay *dr[NR_FED] = { NULL };
		uint64_t hooked[NR_FED] = { 0 };
		size_t note_size[NR_FED] = { 0 }, marked[NR_FED] = { 0 }, unnoted[NR_FED] = { 0 };

		for (int i = 0; i < NR_FED && !bad; i++) {
			struct ss_stats_opts o;
			struct ss_disk_params dp;

			ss_stats_opts_init(&o);
			o.procs = o.dirs = o.causes = o.zones = true;
			o.threads = i == 1 ? 2 : 1;
			o.window = w;
			o.window_start_ns = 2 * FX_S + 20 * FX_MS;
			o.window_end_ns = 2 * FX_S + 90 * FX_MS;
			o.bins = o.device_bins = mode == 1;
			if (mode == 2 && !ss_disk_params_preset("hdd7200", &dp))
				o.disk = dr[i] = ss_disk_replay_new(&dp, t, err, sizeof(err));
			if (mode == 3) {
				o.on_io = count_hook;
				o.arg = &hooked[i];
			}
			/* pid 2's requests counted, the others still judged (seeks, queue) */
			if (mode == 4)
				o.only = &only;
			st[i] = ss_stats_new(t, &o);
			if (!st[i])
				break;
			if (i >= 2)
				bad = feed_hooked(st[i], ev, n, i < 4, i != 3,
						  i >= 5 ? n / 4 : SIZE_MAX,
						  i == 6 ? n / 2 : SIZE_MAX, &note_size[i],
						  &marked[i], &unnoted[i]);
			else if (w)
				for (size_t k = 0; k < n && !bad; k++)
					bad = ss_stats_feed(st[i], &ev[k], 1);
			else
				bad = ss_stats_feed(st[i], ev, n);
			bad = bad || ss_stats_finish(st[i]);
		}
		if (!ok(st[NR_FED - 1] && !bad && (mode != 2 || dr[NR_FED - 1]),
			"%s, %s, one thread and more: fed", w ? "windowed" : "whole", mode_name[mode]))
			goto next;
		if (mode == 1)
			ok(ss_stats_bins(st[0]) && ss_stats_device_bins(st[0], 0), "... bins were counted");
		if (mode == 2)
			ok(ss_stats_total(st[0])->model.total_s > 0, "... the model was fed (%.3f s)",
			   ss_stats_total(st[0])->model.total_s);
		if (mode == 3)
			ok(hooked[0] > 0, "... the hook was called");
		/* a seekscope trace decodes cheaply: judged in the hook when asked, a judgement
		 * an event; else a word (whose request) */
		ok(note_size[2] > sizeof(uint64_t) && note_size[3] == note_size[2] &&
		   note_size[4] == sizeof(uint64_t) && note_size[5] == note_size[4] &&
		   note_size[6] == note_size[4],
		   "... the hook judged when asked (notes of %zu bytes), else noted (%zu)",
		   note_size[2], note_size[4]);
		/* the seek half in the hook's thread (no process filter): all of the issues, or
		 * those before the pass took it back, and only they */
		if (mode != 4)
			ok(marked[4] > 0 && marked[5] > 0 && marked[5] < marked[4] &&
			   marked[6] > 0 && marked[6] < marked[4] && !unnoted[4] && !unnoted[5] && unnoted[6] > 0 &&
			   unnoted[6] < n - marked[6],
			   "... the hook did the seek half of %zu events, and of %zu when the pass "
			   "took it back a quarter in; left %zu unnoted when the pass took the "
			   "notes back too, half-way", marked[4], marked[5], unnoted[6]);
		for (int k = 1; k < NR_FED; k++)
			same_figures(st[0], st[k], hooked[0] != hooked[k], mode == 4 ? 1 : 5, how[k]);
next:
		for (int i = 0; i < NR_FED; i++) {
			ss_stats_free(st[i]);
			ss_disk_replay_free(dr[i]);
		}
	}
	free(ev);
	ss_trace_close(t);
}

/* ---- the queue-depth integrals against a reference ------------------------------------- */

#define DX_DEV2 SS_MKDEV(8, 16)

/* Requests on two devices, up to 9 in flight, 1.2 .. ~3.95 s; sectors never reused. */
static struct ss_event *depth_events(size_t *nr)
{
	size_t cap = 20000, n = 0, nout = 0;
	struct ss_event *ev = calloc(cap, sizeof(*ev)), out[16];
	uint64_t x = 99, ts = 1200 * FX_MS, sector = 0;

	if (!ev)
		return NULL;
	while (n + 1 < cap) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		ts += 1 + (x >> 33) % 900000;
		if (ts >= 3950 * FX_MS)
			break;
		if (nout < 9 && (nout == 0 || (x >> 20) % 3)) {
			out[nout] = fx_ev(ts, SS_EV_ISSUE, sector += 64, 8, SS_RW_WRITE);
			out[nout].dev = (x >> 40) % 3 ? FX_DEV : DX_DEV2;
			ev[n++] = out[nout++];
		} else {
			size_t k = (x >> 24) % nout;

			ev[n] = out[k];
			ev[n].type = SS_EV_COMPLETE;
			ev[n++].ts_ns = ts;
			out[k] = out[--nout];
		}
	}
	*nr = n;
	return ev;
}

/* The fixture's phases (extract [1.5, 2.5), sync [2.5, 3.0), delete from 3.5), two devices. */
static int depth_write(const char *path, const struct ss_event *ev, size_t n)
{
	struct ss_rec_device d[2] = {
		{ .dev = FX_DEV, .major = 7, .minor = 3, .logical_block_size = 512,
		  .physical_block_size = 512, .nr_sectors = 1ull << 30, .part_nr_sectors = 1ull << 30 },
		{ .dev = DX_DEV2, .major = 8, .minor = 16, .logical_block_size = 512,
		  .physical_block_size = 512, .nr_sectors = 1ull << 30, .part_nr_sectors = 1ull << 30 },
	};
	struct { uint64_t ts; uint32_t kind; const char *name; } ph[] = {
		{ 1500 * FX_MS, SS_PHASE_BEGIN, "extract" }, { 2500 * FX_MS, SS_PHASE_END, "extract" },
		{ 2500 * FX_MS, SS_PHASE_BEGIN, "sync" }, { 3000 * FX_MS, SS_PHASE_END, "sync" },
		{ 3500 * FX_MS, SS_PHASE_BEGIN, "delete" },
	};
	struct ss_rec_capture cap = { .start_ns = 1 * FX_S, .buffer_kb = 8192, .nr_cpus = 2 };
	struct ss_writer *w = ss_writer_open(path, SS_OUT_INPLACE, NULL, 0);
	size_t k = 0, from = 0;
	int ret = 0;

	if (!w)
		return -errno;
	strcpy(d[0].name, "loop3");
	strcpy(d[1].name, "sdb");
	strcpy(cap.clock, "mono");
	ret |= ss_writer_device(w, &d[0]) | ss_writer_device(w, &d[1]);
	ret |= ss_writer_capture(w, &cap);
	for (size_t i = 0; i <= n; i++) {
		if (i < n && (k == sizeof(ph) / sizeof(ph[0]) || ev[i].ts_ns < ph[k].ts))
			continue;
		if (i > from)
			ret |= ss_writer_events(w, ev + from, i - from);
		from = i;
		while (k < sizeof(ph) / sizeof(ph[0]) && (i == n || ph[k].ts <= ev[i].ts_ns)) {
			ret |= ss_writer_phase(w, ph[k].ts, ph[k].kind, ph[k].name);
			k++;
		}
	}
	cap.end_ns = 4 * FX_S;
	ret |= ss_writer_capture(w, &cap);
	ret |= ss_writer_close(w);
	return ret ? -EIO : 0;
}

/*
 * The integral over [a, b) of the requests in flight (of DEV, or all for 0), the way the
 * definition reads: the depth after each event holds until the next one, after the last one
 * until END.
 */
static double depth_ref(const struct ss_event *ev, size_t n, uint32_t dev, uint64_t a, uint64_t b,
			uint64_t end)
{
	double sum = 0;
	uint64_t depth = 0;

	for (size_t i = 0; i < n; i++) {
		uint64_t t0 = ev[i].ts_ns, t1 = i + 1 < n ? ev[i + 1].ts_ns : end;
		uint64_t lo = t0 > a ? t0 : a, hi = t1 < b ? t1 : b;

		if (!dev || ev[i].dev == dev)
			depth += ev[i].type == SS_EV_ISSUE ? 1 : -1;
		if (hi > lo)
			sum += (double)depth * (double)(hi - lo);
	}
	return sum;
}

/* Each period's mean depth (total, phases, extract+sync, devices; whole and windowed) equals
 * the reference integral over it. */
static void test_depth(void)
{
	TP(path, "depth.sst");
	char err[256];
	size_t n = 0;
	struct ss_event *ev = depth_events(&n);
	struct ss_trace *t = NULL;
	const uint64_t win[][2] = { { 0, 0 }, { 1600 * FX_MS, 2750 * FX_MS },
				    { 2500 * FX_MS, 3700 * FX_MS }, { 3 * FX_S, 9 * FX_S } };

	if (!ok(ev && n > 4000, "%zu events on two devices", n) ||
	    !ok(depth_write(path, ev, n) == 0, "depth.sst written"))
		goto out;
	t = ss_trace_open(path, err, sizeof(err));
	if (!ok(t != NULL, "depth.sst opens (%s)", t ? "" : err))
		goto out;
	for (size_t w = 0; w < sizeof(win) / sizeof(win[0]); w++) {
		struct ss_stats_opts o;
		struct ss_stats *st;
		const struct ss_summary *s;
		uint64_t end, we = win[w][1];
		int bad = 0, periods = 0;

		ss_stats_opts_init(&o);
		o.bins = o.device_bins = true;
		o.threads = 1 + w % 2;          /* counted in threads of their own, or not */
		o.window = w > 0;
		o.window_start_ns = win[w][0];
		o.window_end_ns = we;
		if (!(st = ss_stats_new(t, &o)) || ss_stats_run(st, t)) {
			ok(0, "stats over window %zu", w);
			ss_stats_free(st);
			continue;
		}
		s = ss_stats_total(st);
		end = s->end_ns > ev[n - 1].ts_ns ? s->end_ns : ev[n - 1].ts_ns;
		bad += s->depth_ns != depth_ref(ev, n, 0, s->start_ns, s->end_ns, end);
		periods++;
		for (size_t i = 0; i < ss_stats_nr_phases(st); i++, periods++) {
			const struct ss_summary *p = &ss_stats_phase(st, i)->s;
			/* a period's last instant is its own when nothing follows (stats.h) */
			bool open_end = !ss_stats_phase(st, i)->ended || (p->clipped && p->end_ns == we);

			bad += p->depth_ns != depth_ref(ev, n, 0, p->start_ns, p->end_ns + open_end, end);
		}
		if (ss_stats_durable(st)) {
			const struct ss_summary *p = &ss_stats_durable(st)->s;

			bad += p->depth_ns != depth_ref(ev, n, 0, p->start_ns, p->end_ns, end);
			periods++;
		}
		for (size_t i = 0; i < ss_stats_nr_devices(st); i++, periods++)
			bad += ss_stats_device(st, i)->s.depth_ns !=
			       depth_ref(ev, n, ss_stats_device(st, i)->device->dev, s->start_ns,
					 s->end_ns, end);
		/* the bins count every instant of theirs, the devices' too */
		for (size_t d = 0; d <= ss_stats_nr_devices(st); d++) {
			const struct ss_bins *b = d ? ss_stats_device_bins(st, d - 1) : ss_stats_bins(st);
			uint32_t dev = d ? ss_stats_device(st, d - 1)->device->dev : 0;

			for (size_t i = 0; b && i < b->n; i++) {
				uint64_t lo = ss_bins_bin_start(b, i), hi = lo + ss_bins_bin_width(b, i);

				bad += b->bin[i].depth_ns != depth_ref(ev, n, dev, lo, hi, end);
			}
			periods += b != NULL;
		}
		is_int(bad, 0, "window %zu: %d periods' and bin sets' depth integrals as the reference's (total "
		       "mean %.3f)", w, periods, s->mean_depth);
		ss_stats_free(st);
	}
out:
	ss_trace_close(t);
	free(ev);
}

int main(void)
{
	if (testdir_make("stats"))
		return done_testing();
	TP(path, "fixture.sst");
	is_int(fx_write(path, 0, 1), 0, "fixture written");
	test_fixture(path);
	test_zone_index(path);
	test_window(path);
	test_threads(path);
	test_depth();
	return done_testing();
}
