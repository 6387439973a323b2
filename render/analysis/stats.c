// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Trace statistics in one streaming pass (definitions in stats.h).  Each event updates a small
 * set of "targets" — the trace total, the event's device and the phases open at its time — so
 * the cost per event is constant for the usual handful of phases.  Queue depth is integrated
 * over time between consecutive events ("advance"), clipped to each period.
 *
 * The periods an event counts in (the total, its phases, the time to durable) change only at
 * their boundaries, so their counts go to one scratch summary ("acc") that is added to each of
 * them when the set changes and at the end: one update per event instead of one per period.
 * The sums are of integers (counts, histograms, maxima), so the figures are the same; the
 * modelled times are sums of doubles, so with a disk model every period is counted directly.
 *
 * Each event is first judged — kept by the process filter, in the window, a seek or not,
 * paired with its issue, the queue depth around it (judge()) — and then counted (count())
 * and attributed (stats_attr.c).  The judgement is sequential and cheap; the counting and the
 * attribution are independent of each other and of everything but the judged events in
 * order, so on a machine with a free CPU they run in two threads of their own, fed through a
 * fan-out ring (fanout.h) while the main thread reads and judges: the figures are the same.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seekscope/model.h"
#include "cpus.h"
#include "fanout.h"
#include "groupstats.h"
#include "classes.h"
#include "procstats.h"
#include "stats.h"
#include "stats_attr.h"
#include "taskfilter.h"
#include "zone_index.h"

/* The named per-class counters are the arrays indexed by enum ss_op, in the same order. */
#define NAMED_AT(type, name, arr, op) \
	(offsetof(type, name) == offsetof(type, arr) + (op) * sizeof(uint64_t))
_Static_assert(NAMED_AT(struct ss_summary, reads, op_ios, SS_OP_READ) &&
	       NAMED_AT(struct ss_summary, writes, op_ios, SS_OP_WRITE) &&
	       NAMED_AT(struct ss_summary, discards, op_ios, SS_OP_DISCARD) &&
	       NAMED_AT(struct ss_summary, others, op_ios, SS_OP_OTHER) &&
	       NAMED_AT(struct ss_summary, other_bytes, op_bytes, SS_OP_OTHER) &&
	       NAMED_AT(struct ss_zone_stats, read_ios, op_ios, SS_OP_READ) &&
	       NAMED_AT(struct ss_zone_stats, other_ios, op_ios, SS_OP_OTHER) &&
	       NAMED_AT(struct ss_zone_stats, other_bytes, op_bytes, SS_OP_OTHER),
	       "the named counters follow enum ss_op");

/*
 * Events from which the counting and the attribution run in threads of their own, on a
 * machine of THREAD_MIN_CPUS or more with a CPU free: below, starting the threads costs more
 * than it saves.  On 2 CPUs they do not pay: the main thread, judging, and the two threads it
 * feeds share the 2 CPUs, and the judged events (128 bytes each) moved from one CPU's cache
 * to the other cost about as much as the work moved (paired runs on a 2-vCPU VM, a
 * 2M-I/O report: 1.11x the wall time and 1.38x the CPU time of one thread).
 */
#define THREAD_MIN_EVENTS 100000
#define THREAD_MIN_CPUS 4
#define FAN_SLOT 4096            /* judged events per slot of the ring: 512 KiB */
#define FAN_SLOTS 4

/* The pass's judgement of one event: all that counting and attributing it need. */
struct judged {
	struct ss_event ev;
	struct ss_io io;               /* ss_pair_feed's, when paired == 1 */
	int64_t dist;                  /* ss_seek_feed's */
	uint32_t depth, dev_depth;     /* requests in flight before it: all, its device's */
	uint32_t depth_after, dev_depth_after;   /* ... after it (issues) */
	int8_t verdict, paired;        /* ss_seek_feed's, ss_pair_feed's results */
	bool keep, in;                 /* kept by opts.only; in the window */
};

/*
 * A period's share of the queue-depth integral: the clock keeps one exact integral of the
 * requests in flight since it started (ss_stats.cum); a period's is its value where the period
 * ends minus its value where it begins, taken when the clock passes those instants -- two
 * look-ups per period instead of an overlap per period and event.
 */
struct depth_span {
	uint64_t start, stop;          /* [start, stop) */
	unsigned __int128 at_start;    /* the integral at start */
	double *out;                   /* the period's depth_ns, set when it closes */
	int state;                     /* 0: not begun, 1: open, 2: closed */
};

struct ss_stats {
	const struct ss_trace *t;
	struct ss_stats_opts o;
	struct ss_seek *seek;
	struct ss_pair *pair;
	struct ss_zone_index *zi;
	struct ss_zone_hint model_hint;     /* the modelled issues' last zone */
	struct ss_stats_attr *attr;    /* procs, dirs, causes and zones (stats_attr.h) */
	bool attr_idle;                /* ... none of them asked for */
	struct ss_fanout *fan;         /* the threads counting and attributing, if any */
	bool count_here, attr_here;    /* counted, attributed by the main thread */
	struct ss_bins *bins;
	struct ss_bins **dev_bins;     /* per device (opts.device_bins), nr_devs of them */
	long cur_dev;                  /* index of the current event's device, or -1 */
	struct ss_evfilter *filter;    /* opts.only */

	struct ss_summary total;
	bool auto_period;              /* no trace: the period follows the events */
	bool seen_event;

	struct ss_phase_stats *phases;
	uint64_t *phase_stop;          /* attribution end (exclusive) per phase */
	size_t nr_phases;
	size_t next_phase;             /* first phase not yet activated */
	size_t *active;                /* indexes of phases open now */
	size_t nr_active;
	uint64_t active_gen;           /* changes whenever the active phases do */
	uint64_t active_max_start;     /* the latest start_ns of the active phases */
	uint64_t active_stop;          /* the first phase_stop[] of the active phases */
	uint64_t next_open;            /* the next phase's start, or durable's (0: not known) */
	struct ss_phase_stats durable; /* time to durable (stats.h), when has_durable */
	bool has_durable, durable_open;

	struct ss_device_stats *devs;
	size_t nr_devs, last_dev;
	struct ss_zone_stats *zones;
	size_t nr_zones;

	struct ss_summary **targets;   /* scratch: summaries the current event counts in */
	size_t nr_targets;
	/* targets[0..nr_periods) were the last event's periods, for active_gen, in and durable
	 * as below: the next event with the same has the same (when every active phase began) */
	bool periods_known, periods_in, periods_durable;
	uint64_t periods_gen;
	size_t nr_periods;
	bool use_acc;                  /* the periods' counts go through acc (top of the file) */
	bool acc_dirty;                /* acc has counts not yet added to acc_key's periods */
	struct ss_summary acc;
	struct ss_summary **acc_key;   /* the periods acc counts for */
	size_t nr_acc_key;
	uint64_t now;                  /* time up to which depth has been integrated */
	unsigned __int128 cum;         /* the integral of requests in flight up to now, in ns */
	struct depth_span *spans;      /* the total, each phase, the durable span */
	size_t nr_spans;
	uint64_t next_edge;            /* the first start or stop of a span not yet passed */
	uint64_t *dev_now;             /* per device: time up to which its depth is integrated */
	bool finished;
	/* the bin the last event fell in (bin_of): [bin_lo, bin_hi]; depth over [from, to) with
	 * bin_lo <= from < to <= bin_stop all goes to it */
	bool bin_known;
	long bin_i;
	uint64_t bin_lo, bin_hi, bin_stop;
};

void ss_stats_opts_init(struct ss_stats_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->seek_threshold = SS_SEEK_THRESHOLD_DEFAULT;
}

void ss_stats_trace_period(const struct ss_trace *t, uint64_t *start_ns, uint64_t *end_ns)
{
	uint64_t s = t->first_ts, e = t->last_ts;

	if (t->has_capture && t->capture.start_ns &&
	    (!t->nr_events || t->capture.start_ns < s))
		s = t->capture.start_ns;
	if (t->has_capture && t->capture.end_ns > e)
		e = t->capture.end_ns;
	if (e < s)
		e = s;
	*start_ns = s;
	*end_ns = e;
}

static bool is_extract(const char *name)
{
	return !strncmp(name, "extract", 7) && (name[7] == '\0' || name[7] == '.');
}

bool ss_stats_durable_span(const struct ss_trace *t, uint64_t *start_ns, uint64_t *end_ns)
{
	bool begun = false, in_sync = false;
	uint64_t start = 0;

	for (size_t i = 0; i < t->nr_phases; i++) {
		const struct ss_rec_phase *m = &t->phases[i];
		bool sync = !strncmp(m->name, "sync", sizeof(m->name));

		if (!begun && m->kind == SS_PHASE_BEGIN && is_extract(m->name)) {
			begun = true;
			start = m->ts_ns;
		} else if (begun && sync && m->kind == SS_PHASE_BEGIN) {
			in_sync = true;
		} else if (in_sync && sync && m->kind == SS_PHASE_END) {
			*start_ns = start;
			*end_ns = m->ts_ns > start ? m->ts_ns : start;
			return true;
		}
	}
	return false;
}

static void summary_init(struct ss_summary *s, uint64_t start, uint64_t end)
{
	memset(s, 0, sizeof(*s));
	ss_lathist_init(&s->lat);
	ss_lathist_init(&s->discard_lat);
	ss_lathist_init(&s->other_lat);
	ss_lathist_init(&s->flush_lat);
	s->start_ns = start;
	s->end_ns = end;
}

void ss_summary_derive(struct ss_summary *s)
{
	uint64_t span = s->end_ns > s->start_ns ? s->end_ns - s->start_ns : 0;
	double d = (double)span / 1e9;

	s->duration_s = d;
	s->iops = s->seeks_per_s = s->read_mb_s = s->write_mb_s = s->mean_depth = 0;
	s->discard_mb_s = s->other_mb_s = 0;
	if (span) {
		s->iops = (double)s->ios / d;
		s->seeks_per_s = (double)s->seeks / d;
		s->read_mb_s = (double)s->read_bytes / 1e6 / d;
		s->write_mb_s = (double)s->write_bytes / 1e6 / d;
		s->discard_mb_s = (double)s->discard_bytes / 1e6 / d;
		s->other_mb_s = (double)s->other_bytes / 1e6 / d;
		s->mean_depth = s->depth_ns / (double)span;
	}
	s->lat_p50_ns = ss_lathist_percentile(&s->lat, 50);
	s->lat_p99_ns = ss_lathist_percentile(&s->lat, 99);
	s->lat_max_ns = s->lat.max_ns;
}

/* A decimal meta value "phase.<name>.<what>"; false if absent or not a number. */
static bool meta_u64(const struct ss_trace *t, const char *name, const char *what, uint64_t *out)
{
	char key[96], *end;
	const char *v;
	unsigned long long x;

	snprintf(key, sizeof(key), "phase.%s.%s", name, what);
	v = ss_trace_meta(t, key);
	if (!v || !*v || *v == '-')
		return false;
	errno = 0;
	x = strtoull(v, &end, 10);
	if (errno || *end)
		return false;
	*out = x;
	return true;
}

/* Cut S's period to the window; false when nothing of it is left. */
static bool clip(const struct ss_stats *st, struct ss_summary *s)
{
	uint64_t lo = st->o.window_start_ns, hi = st->o.window_end_ns;

	if (!st->o.window)
		return true;
	if (s->end_ns < lo || s->start_ns > hi || (s->end_ns == lo && s->end_ns > s->start_ns))
		return false;
	if (s->start_ns < lo || s->end_ns > hi)
		s->clipped = true;
	if (s->start_ns < lo)
		s->start_ns = lo;
	if (s->end_ns > hi)
		s->end_ns = hi;
	return true;
}

static int setup_phases(struct ss_stats *st, uint64_t end)
{
	const struct ss_trace *t = st->t;
	size_t n = 0;

	for (size_t i = 0; i < t->nr_phases; i++)
		n += t->phases[i].kind == SS_PHASE_BEGIN;
	st->phases = calloc(n ? n : 1, sizeof(*st->phases));
	st->phase_stop = calloc(n ? n : 1, sizeof(*st->phase_stop));
	st->active = calloc(n ? n : 1, sizeof(*st->active));
	if (!st->phases || !st->phase_stop || !st->active)
		return -ENOMEM;
	for (size_t i = 0; i < t->nr_phases; i++) {
		const struct ss_rec_phase *m = &t->phases[i];

		if (m->kind == SS_PHASE_BEGIN) {
			struct ss_phase_stats *p = &st->phases[st->nr_phases++];

			memcpy(p->name, m->name, sizeof(p->name));
			p->name[sizeof(p->name) - 1] = '\0';
			summary_init(&p->s, m->ts_ns, UINT64_MAX);
		} else if (m->kind == SS_PHASE_END) {
			/* closes the most recent still-open phase of that name */
			for (size_t j = st->nr_phases; j-- > 0;) {
				struct ss_phase_stats *p = &st->phases[j];

				if (!p->ended && !strncmp(p->name, m->name, sizeof(m->name))) {
					p->ended = true;
					p->s.end_ns = m->ts_ns < p->s.start_ns ? p->s.start_ns : m->ts_ns;
					break;
				}
			}
		}
	}
	for (size_t i = 0, k = 0; i < n; i++) {
		struct ss_phase_stats *p = &st->phases[i];
		bool open_end = !p->ended;

		if (!p->ended)          /* runs to the end of the trace, end included */
			p->s.end_ns = end > p->s.start_ns ? end : p->s.start_ns;
		p->has_files = meta_u64(t, p->name, "files", &p->files);
		p->has_bytes = meta_u64(t, p->name, "bytes", &p->bytes);
		if (!clip(st, &p->s)) {         /* wholly outside the window: not a row */
			st->nr_phases--;
			continue;
		}
		if (p->s.clipped)               /* its files are not all in the window */
			p->has_files = p->has_bytes = false;
		/* a period's last instant belongs to it when nothing follows: the trace's end,
		 * the window's end */
		open_end |= p->s.clipped && p->s.end_ns == st->o.window_end_ns;
		st->phase_stop[k] = open_end ? p->s.end_ns + 1 : p->s.end_ns;
		st->phases[k++] = *p;
	}
	return 0;
}

/* The time-to-durable span as one more period, its workload figures summed over its phases. */
static void setup_durable(struct ss_stats *st)
{
	struct ss_phase_stats *d = &st->durable;
	uint64_t start, end;

	st->has_durable = ss_stats_durable_span(st->t, &start, &end);
	if (!st->has_durable)
		return;
	snprintf(d->name, sizeof(d->name), "%s", SS_DURABLE_PHASE);
	d->ended = true;
	summary_init(&d->s, start, end);
	st->has_durable = clip(st, &d->s);
	if (d->s.clipped)
		return;
	for (size_t i = 0; i < st->nr_phases; i++) {
		const struct ss_phase_stats *p = &st->phases[i];

		if (p->s.start_ns < start || p->s.end_ns > end)
			continue;
		d->has_files |= p->has_files;
		d->files += p->has_files ? p->files : 0;
		d->has_bytes |= p->has_bytes;
		d->bytes += p->has_bytes ? p->bytes : 0;
	}
}

static void add_span(struct ss_stats *st, uint64_t start, uint64_t stop, double *out)
{
	struct depth_span *sp = &st->spans[st->nr_spans++];

	sp->start = start;
	sp->stop = stop;
	sp->out = out;
	if (start < st->next_edge)
		st->next_edge = start;
}

/* The periods whose depth integral the clock keeps (struct depth_span), each device's clock. */
static int setup_spans(struct ss_stats *st, uint64_t start)
{
	st->spans = calloc(2 + st->nr_phases, sizeof(*st->spans));
	st->dev_now = calloc(st->nr_devs ? st->nr_devs : 1, sizeof(*st->dev_now));
	if (!st->spans || !st->dev_now)
		return -ENOMEM;
	st->next_edge = UINT64_MAX;
	/* without a trace the period is the events': it has begun before the first */
	if (st->auto_period)
		add_span(st, 0, UINT64_MAX, &st->total.depth_ns);
	else
		add_span(st, st->total.start_ns, st->total.end_ns, &st->total.depth_ns);
	for (size_t i = 0; i < st->nr_phases; i++)
		add_span(st, st->phases[i].s.start_ns, st->phase_stop[i], &st->phases[i].s.depth_ns);
	if (st->has_durable)
		add_span(st, st->durable.s.start_ns, st->durable.s.end_ns, &st->durable.s.depth_ns);
	for (size_t i = 0; i < st->nr_devs; i++)
		st->dev_now[i] = start;
	return 0;
}

/* Whether the counting and the attribution run in threads (stats.h: opts.threads). */
static bool use_threads(const struct ss_stats *st)
{
	if (st->o.threads == 1 || !st->t)
		return false;
	if (st->o.threads >= 2)
		return true;
	return st->t->nr_events >= THREAD_MIN_EVENTS && ss_cpus_online() >= THREAD_MIN_CPUS &&
	       ss_cpu_free();
}

static int count_items(void *arg, const void *items, size_t n);
static int attr_items(void *arg, const void *items, size_t n);

/*
 * The threads, when worth it: the counting (unless a hook must be called from the thread that
 * feeds) and the attribution (unless idle).  Else both are done by the thread that feeds.
 */
static int start_threads(struct ss_stats *st)
{
	ss_fanout_fn fn[2];
	void *arg[2];
	size_t n = 0;

	st->count_here = st->attr_here = true;
	if (!use_threads(st))
		return 0;
	if (!st->o.on_io && !st->o.on_seek) {
		fn[n] = count_items;
		arg[n++] = st;
	}
	if (!st->attr_idle) {
		fn[n] = attr_items;
		arg[n++] = st->attr;
	}
	if (!n)
		return 0;
	if (!(st->fan = ss_fanout_new(sizeof(struct judged), FAN_SLOT, FAN_SLOTS, fn, arg, n)))
		return -errno;
	st->count_here = st->o.on_io || st->o.on_seek;
	st->attr_here = false;
	return 0;
}

struct ss_stats *ss_stats_new(const struct ss_trace *t, const struct ss_stats_opts *opts)
{
	struct ss_stats *st = calloc(1, sizeof(*st));
	uint64_t start = 0, end = 0;
	int err = ENOMEM;

	if (!st)
		return NULL;
	if (opts)
		st->o = *opts;
	else
		ss_stats_opts_init(&st->o);
	if (st->o.window && st->o.window_end_ns < st->o.window_start_ns) {
		err = EINVAL;
		goto error;
	}
	st->t = t;
	st->seek = ss_seek_new(st->o.seek_threshold);
	st->pair = ss_pair_new(st->o.max_inflight);
	if (!st->seek || !st->pair)
		goto error;
	if (t) {
		ss_stats_trace_period(t, &start, &end);
		if (setup_phases(st, end))
			goto error;
		setup_durable(st);
		st->nr_devs = t->nr_devices;
		st->devs = calloc(st->nr_devs ? st->nr_devs : 1, sizeof(*st->devs));
		st->nr_zones = t->nr_zones;
		st->zones = calloc(st->nr_zones ? st->nr_zones : 1, sizeof(*st->zones));
		st->zi = ss_zone_index_new(t->zones, t->nr_zones);
		if (!st->devs || !st->zones || !st->zi)
			goto error;
		for (size_t i = 0; i < st->nr_devs; i++) {
			st->devs[i].device = &t->devices[i];
			summary_init(&st->devs[i].s, start, end);
			clip(st, &st->devs[i].s);
		}
		for (size_t i = 0; i < st->nr_zones; i++)
			st->zones[i].zone = &t->zones[i];
		if (ss_task_spec_active(st->o.only) && !(st->filter = ss_evfilter_new(st->o.only, t)))
			goto error;
	} else {
		st->auto_period = true;
	}
	summary_init(&st->total, start, end);
	if (st->o.window && !clip(st, &st->total)) {
		/* the window misses the trace: an empty period at the window's start */
		st->total.start_ns = st->total.end_ns = st->o.window_start_ns;
		st->total.clipped = true;
	}
	st->now = start;
	st->active_stop = UINT64_MAX;
	if (setup_spans(st, start))
		goto error;
	if (!(st->attr = ss_stats_attr_new(t, &st->o, st->zi, st->zones, st->nr_zones))) {
		err = errno;
		goto error;
	}
	st->attr_idle = ss_stats_attr_idle(st->attr);
	st->targets = calloc(3 + st->nr_phases, sizeof(*st->targets));
	st->acc_key = calloc(3 + st->nr_phases, sizeof(*st->acc_key));
	/* worth it when an event may count in several periods */
	st->use_acc = !st->o.disk && (st->nr_phases || st->has_durable);
	summary_init(&st->acc, 0, 0);
	if (!st->targets || !st->acc_key)
		goto error;
	if (st->o.bins) {
		uint64_t bs = st->o.bin_start_ns, be = st->o.bin_end_ns;

		if (!bs && !be) {
			if (!t) {
				err = EINVAL;
				goto error;
			}
			bs = start;
			be = end;
		}
		if (be < bs) {
			err = EINVAL;
			goto error;
		}
		st->bins = ss_bins_new(bs, be, st->o.bin_width_ns ? st->o.bin_width_ns :
					   ss_bins_choose_width(be - bs, st->o.max_bins));
		if (!st->bins) {
			err = errno;
			goto error;
		}
		if (st->o.device_bins && st->nr_devs &&
		    !(st->dev_bins = calloc(st->nr_devs, sizeof(*st->dev_bins))))
			goto error;
		for (size_t i = 0; st->dev_bins && i < st->nr_devs; i++)
			if (!(st->dev_bins[i] = ss_bins_new(bs, be, st->bins->width_ns))) {
				err = errno;
				goto error;
			}
	}
	if ((err = -start_threads(st)))
		goto error;
	return st;
error:
	ss_stats_free(st);
	errno = err;
	return NULL;
}

void ss_stats_free(struct ss_stats *st)
{
	if (!st)
		return;
	ss_fanout_free(st->fan);          /* first: its threads use the rest */
	ss_seek_free(st->seek);
	ss_pair_free(st->pair);
	ss_zone_index_free(st->zi);
	ss_bins_free(st->bins);
	for (size_t i = 0; st->dev_bins && i < st->nr_devs; i++)
		ss_bins_free(st->dev_bins[i]);
	free(st->dev_bins);
	ss_stats_attr_free(st->attr);
	ss_evfilter_free(st->filter);
	free(st->phases);
	free(st->phase_stop);
	free(st->active);
	free(st->devs);
	free(st->zones);
	free(st->targets);
	free(st->acc_key);
	free(st->spans);
	free(st->dev_now);
	free(st);
}

static struct ss_device_stats *find_dev(struct ss_stats *st, uint32_t dev)
{
	if (st->last_dev < st->nr_devs && st->devs[st->last_dev].device->dev == dev)
		return &st->devs[st->last_dev];
	for (size_t i = 0; i < st->nr_devs; i++)
		if (st->devs[i].device->dev == dev) {
			st->last_dev = i;
			return &st->devs[i];
		}
	return NULL;
}

/*
 * ss_bins_index(st->bins, TS), remembering the bin's span: events come in time order, so the
 * last one's bin usually holds the next one too, and the division that finds a bin (several
 * per event before, a tenth of the pass) is seldom needed.
 */
static long bin_of(struct ss_stats *st, uint64_t ts)
{
	const struct ss_bins *b = st->bins;
	long i;

	if (st->bin_known && ts >= st->bin_lo && ts <= st->bin_hi)
		return st->bin_i;
	if ((i = ss_bins_index(b, ts)) < 0)
		return -1;
	st->bin_known = true;
	st->bin_i = i;
	st->bin_lo = ss_bins_bin_start(b, (size_t)i);
	/* bins before the last end where the next begins; the last one at end_ns, included */
	if ((size_t)i + 1 < b->n && ss_bins_bin_start(b, (size_t)i + 1) <= b->end_ns) {
		st->bin_stop = ss_bins_bin_start(b, (size_t)i + 1);
		st->bin_hi = st->bin_stop - 1;
	} else {
		st->bin_stop = st->bin_hi = b->end_ns;
	}
	return i;
}

/* ss_bins_add_depth(), without its division when the span is inside the last event's bin
 * (the same sum: one product added to that bin). */
static void bin_add_depth(struct ss_stats *st, uint64_t from, uint64_t to, uint64_t depth)
{
	if (st->bin_known && from >= st->bin_lo && to <= st->bin_stop && from < to)
		st->bins->bin[st->bin_i].depth_ns += (double)depth * (double)(to - from);
	else
		ss_bins_add_depth(st->bins, from, to, depth);
}

static uint64_t overlap(uint64_t a0, uint64_t a1, uint64_t b0, uint64_t b1)
{
	uint64_t lo = a0 > b0 ? a0 : b0, hi = a1 < b1 ? a1 : b1;

	return hi > lo ? hi - lo : 0;
}

/* The integral at T, FROM <= T <= TS, while DEPTH requests were in flight over [FROM, TS). */
static unsigned __int128 cum_at(uint64_t t, uint64_t from, uint64_t ts, uint64_t depth,
				unsigned __int128 at_from)
{
	if (t < from)
		t = from;
	if (t > ts)
		t = ts;
	return at_from + (unsigned __int128)depth * (t - from);
}

/* The clock moved from FROM to TS, past next_edge: open and close the spans it passed. */
static void spans_pass(struct ss_stats *st, uint64_t from, uint64_t ts, uint64_t depth,
		       unsigned __int128 at_from)
{
	st->next_edge = UINT64_MAX;
	for (size_t i = 0; i < st->nr_spans; i++) {
		struct depth_span *sp = &st->spans[i];

		if (sp->state == 0 && sp->start <= ts) {
			sp->at_start = cum_at(sp->start, from, ts, depth, at_from);
			sp->state = 1;
		}
		if (sp->state == 1 && sp->stop <= ts) {
			*sp->out = (double)(cum_at(sp->stop, from, ts, depth, at_from) - sp->at_start);
			sp->state = 2;
		}
		if (sp->state == 0 && sp->start < st->next_edge)
			st->next_edge = sp->start;
		if (sp->state == 1 && sp->stop < st->next_edge)
			st->next_edge = sp->stop;
	}
}

/* The end of the pass: the spans still open end now. */
static void spans_close(struct ss_stats *st)
{
	for (size_t i = 0; i < st->nr_spans; i++)
		if (st->spans[i].state == 1) {
			*st->spans[i].out = (double)(st->cum - st->spans[i].at_start);
			st->spans[i].state = 2;
		}
}

/*
 * Move the clock to ts: integrate the queue depth over [now, ts), open the phases that began by
 * ts and close those that ended by then.
 */
/* Open the phases that began by TS (and the time to durable), DEPTH requests in flight. */
static void open_periods(struct ss_stats *st, uint64_t ts, uint64_t depth)
{
	while (st->next_phase < st->nr_phases && st->phases[st->next_phase].s.start_ns <= ts) {
		/* requests already in flight when the phase begins count towards its depth */
		st->phases[st->next_phase].s.max_depth = depth;
		if (st->phase_stop[st->next_phase] < st->active_stop)
			st->active_stop = st->phase_stop[st->next_phase];
		if (st->phases[st->next_phase].s.start_ns > st->active_max_start)
			st->active_max_start = st->phases[st->next_phase].s.start_ns;
		st->active[st->nr_active++] = st->next_phase++;
		st->active_gen++;
	}
	if (st->has_durable && !st->durable_open && st->durable.s.start_ns <= ts) {
		st->durable.s.max_depth = depth;
		st->durable_open = true;
	}
	st->next_open = st->next_phase < st->nr_phases ? st->phases[st->next_phase].s.start_ns
						       : UINT64_MAX;
	if (st->has_durable && !st->durable_open && st->durable.s.start_ns < st->next_open)
		st->next_open = st->durable.s.start_ns;
}

static void advance(struct ss_stats *st, uint64_t ts, uint64_t depth)
{
	uint64_t from = st->now;
	unsigned __int128 at_from = st->cum;
	size_t k = 0;

	if (ts < from)
		ts = from;   /* events are in time order; tolerate equal or slightly older ones */
	if (ts >= st->next_open)
		open_periods(st, ts, depth);
	if (ts > from) {
		if (depth) {
			st->cum += (unsigned __int128)depth * (ts - from);
			if (st->bins)
				bin_add_depth(st, from, ts, depth);
		}
		st->now = ts;
	}
	if (ts >= st->next_edge)
		spans_pass(st, from, ts, depth, at_from);
	if (ts < st->active_stop)
		return;         /* no active phase has ended */
	st->active_stop = UINT64_MAX;
	st->active_max_start = 0;
	for (size_t i = 0; i < st->nr_active; i++)
		if (st->phase_stop[st->active[i]] > ts) {
			st->active[k++] = st->active[i];
			if (st->phase_stop[st->active[i]] < st->active_stop)
				st->active_stop = st->phase_stop[st->active[i]];
			if (st->phases[st->active[i]].s.start_ns > st->active_max_start)
				st->active_max_start = st->phases[st->active[i]].s.start_ns;
		}
	st->nr_active = k;
	st->active_gen++;
}

/*
 * The clock of device I, DD requests in flight on it since it was last moved (its depth
 * changes only at its own events, so it is integrated up to now when one of them comes, and
 * at the end): its summary counts the time in the total period, its bins all of it.
 */
static void dev_advance(struct ss_stats *st, size_t i, uint64_t dd)
{
	uint64_t from = st->dev_now[i], to = st->now;

	if (to <= from)
		return;
	st->dev_now[i] = to;
	if (!dd)
		return;
	st->devs[i].s.depth_ns += (double)dd *
		(double)overlap(from, to, st->total.start_ns, st->total.end_ns);
	if (st->dev_bins)
		ss_bins_add_depth(st->dev_bins[i], from, to, dd);
}

/* The bins at TS an event counts in: the total's and its device's (opts.device_bins). */
static size_t bins_at(struct ss_stats *st, uint64_t ts, struct ss_bin *out[2])
{
	struct ss_bins *d = st->dev_bins && st->cur_dev >= 0 ? st->dev_bins[st->cur_dev] : NULL;
	size_t n = 0;
	long i;

	if (st->bins && (i = bin_of(st, ts)) >= 0)
		out[n++] = &st->bins->bin[i];
	if (d && (i = ss_bins_index(d, ts)) >= 0)
		out[n++] = &d->bin[i];
	return n;
}

/* The histogram of S that an I/O of class OP belongs to (stats.h: latency). */
static struct ss_lathist *lat_hist(struct ss_summary *s, enum ss_op op)
{
	switch (op) {
	case SS_OP_DISCARD: return &s->discard_lat;
	case SS_OP_OTHER:   return &s->other_lat;
	case SS_OP_FLUSH:   return &s->flush_lat;
	default:            return &s->lat;
	}
}

static void count_io(struct ss_stats *st, const struct ss_io *io)
{
	uint64_t bytes = (uint64_t)io->nr_sector * 512, lat = ss_io_latency_ns(io);
	enum ss_op op = ss_op_of(io->flags, io->has_data);
	bool flush = op == SS_OP_FLUSH, data = io->has_data && !flush;
	/* in flight across lost events: the pairing may be wrong (stats.h) */
	bool lost = io->matched && st->t && st->t->nr_lost &&
		    ss_trace_lost_overlaps(st->t, io->issue_ts, io->complete_ts);
	bool timed = io->matched && !lost;
	struct ss_bin *bb[2];

	for (size_t i = 0; i < st->nr_targets; i++) {
		struct ss_summary *s = st->targets[i];

		if (data) {
			s->ios++;
			s->op_ios[op]++;
			s->op_bytes[op] += bytes;
		}
		s->flushes += flush;
		if ((data || flush) && timed)
			ss_lathist_add(lat_hist(s, op), lat);
		s->lat_lost += (data || flush) && lost;
		s->fua += (io->flags & SS_RW_FUA) != 0;
		s->unmatched += !io->matched;
		s->errors += io->error != 0;
	}
	for (size_t k = 0, n = bins_at(st, io->complete_ts, bb); k < n; k++) {
		struct ss_bin *b = bb[k];

		if (data) {
			b->op_ios[op]++;
			b->op_bytes[op] += bytes;
			if (timed && (op == SS_OP_READ || op == SS_OP_WRITE)) {
				b->lat_count++;
				b->lat_sum_ns += lat;
				if (lat > b->lat_max_ns)
					b->lat_max_ns = lat;
			}
		}
		b->flushes += flush;
		b->fua += (io->flags & SS_RW_FUA) != 0;
	}
}

static void count_seek(struct ss_stats *st, const struct ss_event *ev, int verdict, int64_t dist)
{
	bool far = verdict == SS_SEEK_FAR;
	struct ss_bin *bb[2];

	for (size_t i = 0; i < st->nr_targets; i++) {
		st->targets[i]->issues++;
		if (verdict >= SS_SEEK_NEAR)
			ss_seek_hist_add(&st->targets[i]->seek_dist, dist);
		st->targets[i]->seeks += far;
	}
	for (size_t k = 0, n = bins_at(st, ev->ts_ns, bb); k < n; k++) {
		bb[k]->issues++;
		bb[k]->seeks += far;
	}
}

/* The modelled cost of an issue, in every summary it counts in, its zone and its bin; a
 * request filtered out (not KEEP) only moves the model's arm. */
static void count_model(struct ss_stats *st, const struct ss_event *ev, int keep)
{
	struct ss_disk_cost c;
	long i;

	if (ss_disk_replay_feed(st->o.disk, ev, &c) != 1 || !keep)
		return;
	for (size_t k = 0; k < st->nr_targets; k++)
		ss_disk_cost_add(&st->targets[k]->model, &c);
	if (st->zi && st->nr_zones &&
	    (i = ss_zone_index_find_hint(st->zi, ev->dev, ev->sector, &st->model_hint)) >= 0)
		ss_disk_cost_add(&st->zones[i].model, &c);
	if (st->bins && (i = bin_of(st, ev->ts_ns)) >= 0)
		ss_disk_cost_add(&st->bins->bin[i].model, &c);
}

/* Add SRC's counts (not its period, depth integral or model) to DST. */
static void summary_add(struct ss_summary *dst, const struct ss_summary *src)
{
	dst->events += src->events;
	dst->ios += src->ios;
	for (int op = 0; op < SS_NR_DATA_OPS; op++) {
		dst->op_ios[op] += src->op_ios[op];
		dst->op_bytes[op] += src->op_bytes[op];
	}
	dst->flushes += src->flushes;
	dst->fua += src->fua;
	dst->issues += src->issues;
	dst->seeks += src->seeks;
	dst->unmatched += src->unmatched;
	dst->lat_lost += src->lat_lost;
	dst->errors += src->errors;
	if (src->max_depth > dst->max_depth)
		dst->max_depth = src->max_depth;
	ss_lathist_merge(&dst->lat, &src->lat);
	ss_lathist_merge(&dst->discard_lat, &src->discard_lat);
	ss_lathist_merge(&dst->other_lat, &src->other_lat);
	ss_lathist_merge(&dst->flush_lat, &src->flush_lat);
	for (int b = 0; b < SS_SEEK_HIST_BUCKETS; b++) {
		dst->seek_dist.pos[b] += src->seek_dist.pos[b];
		dst->seek_dist.neg[b] += src->seek_dist.neg[b];
	}
	dst->seek_dist.count += src->seek_dist.count;
}

/* Add acc's counts to the periods it counted for and empty it. */
static void acc_flush(struct ss_stats *st)
{
	if (!st->acc_dirty)
		return;
	for (size_t i = 0; i < st->nr_acc_key; i++)
		summary_add(st->acc_key[i], &st->acc);
	summary_init(&st->acc, 0, 0);
	st->acc_dirty = false;
}

/* The event's periods, targets[0..n): counted through acc from now on (a new set first adds
 * what acc holds to the old one). */
static void acc_use(struct ss_stats *st, size_t n)
{
	bool same = n == st->nr_acc_key;

	/* a handful of pointers: a loop, not a call to memcmp per event */
	for (size_t i = 0; same && i < n; i++)
		same = st->targets[i] == st->acc_key[i];
	if (!same) {
		acc_flush(st);
		memcpy(st->acc_key, st->targets, n * sizeof(*st->targets));
		st->nr_acc_key = n;
	}
	if (n) {
		st->targets[0] = &st->acc;
		st->nr_targets = 1;
		st->acc_dirty = true;
	}
}

/*
 * The main thread's part: judge EV into J.  1: count it; 0: not (another device's, with
 * opts.one_device); or a negative errno.
 */
static int judge(struct ss_stats *st, const struct ss_event *ev, struct judged *j)
{
	int keep = 1, ret;

	if (st->o.one_device && ev->dev != st->o.device)
		return 0;
	/* a filtered-out request still moves the head and fills the queue: it is fed to the
	 * seek and pairing rules, only not counted */
	if (st->filter && (keep = ss_evfilter_keep(st->filter, ev)) < 0)
		return keep;
	j->ev = *ev;
	j->keep = keep;
	j->in = !st->o.window || (ev->ts_ns >= st->o.window_start_ns &&
				  ev->ts_ns <= st->o.window_end_ns);
	j->depth = (uint32_t)ss_pair_inflight(st->pair);
	j->dev_depth = (uint32_t)ss_pair_inflight_dev(st->pair, ev->dev);
	if ((ret = ss_seek_feed(st->seek, ev, &j->dist)) < 0)
		return ret;
	j->verdict = (int8_t)ret;
	if ((ret = ss_pair_feed(st->pair, ev, &j->io)) < 0)
		return ret;
	j->paired = (int8_t)ret;
	if (ev->type == SS_EV_ISSUE) {
		j->depth_after = (uint32_t)ss_pair_inflight(st->pair);
		j->dev_depth_after = (uint32_t)ss_pair_inflight_dev(st->pair, ev->dev);
	}
	return 1;
}

/*
 * The periods an event at TS counts in (IN: inside the window) into targets[0..nr_targets):
 * the total, the active phases that began by TS, the time to durable; through acc when it is
 * used.  They change only at the periods' boundaries: the last event's list is kept.
 */
static void periods(struct ss_stats *st, uint64_t ts, bool in)
{
	bool durable = st->has_durable && st->durable.s.start_ns <= ts && ts < st->durable.s.end_ns;

	if (st->periods_known && st->periods_gen == st->active_gen && st->periods_in == in &&
	    st->periods_durable == durable && ts >= st->active_max_start) {
		st->nr_targets = st->nr_periods;
		return;
	}
	st->nr_targets = 0;
	if (in)
		st->targets[st->nr_targets++] = &st->total;
	for (size_t i = 0; i < st->nr_active; i++)
		if (st->phases[st->active[i]].s.start_ns <= ts)
			st->targets[st->nr_targets++] = &st->phases[st->active[i]].s;
	if (durable)
		st->targets[st->nr_targets++] = &st->durable.s;
	if (st->use_acc)
		acc_use(st, st->nr_targets);
	/* kept only when every active phase counted (an event older than one's start is not
	 * in it: the next may be) */
	st->periods_known = ts >= st->active_max_start;
	st->periods_gen = st->active_gen;
	st->periods_in = in;
	st->periods_durable = durable;
	st->nr_periods = st->nr_targets;
}

/* Count a judged event in its periods, device, bins and the disk model. */
static void count(struct ss_stats *st, const struct judged *j)
{
	const struct ss_event *ev = &j->ev;
	struct ss_device_stats *dev;
	bool keep = j->keep;

	if (st->auto_period) {
		if (!st->seen_event) {
			st->total.start_ns = st->now = ev->ts_ns;
			st->seen_event = true;
		}
		if (ev->ts_ns > st->total.end_ns)
			st->total.end_ns = ev->ts_ns;
	}
	advance(st, ev->ts_ns, j->depth);
	dev = find_dev(st, ev->dev);
	st->cur_dev = dev ? dev - st->devs : -1;
	if (dev)
		dev_advance(st, (size_t)st->cur_dev, j->dev_depth);
	if (!j->in)
		dev = NULL;             /* outside the window: counts for no period */
	periods(st, ev->ts_ns, j->in);
	if (dev)
		st->targets[st->nr_targets++] = &dev->s;
	for (size_t i = 0; i < st->nr_targets && keep; i++)
		st->targets[i]->events++;

	if (j->verdict != SS_SEEK_IGNORED && keep) {
		count_seek(st, ev, j->verdict, j->dist);
		if (st->o.on_seek)
			st->o.on_seek(ev, j->verdict, j->dist, st->o.arg);
	}
	/* the model's arm follows every request too; the kept ones' cost is counted */
	if (j->verdict != SS_SEEK_IGNORED && st->o.disk)
		count_model(st, ev, keep);
	if (ev->type == SS_EV_COMPLETE && keep) {
		count_io(st, &j->io);
		if (st->o.on_io)
			st->o.on_io(&j->io, st->o.arg);
	}
	if (ev->type == SS_EV_ISSUE) {
		for (size_t i = 0; i < st->nr_targets; i++) {
			struct ss_summary *s = st->targets[i];
			uint64_t d = dev && s == &dev->s ? j->dev_depth_after : j->depth_after;

			if (d > s->max_depth)
				s->max_depth = d;
		}
	}
}

static int attr(struct ss_stats_attr *a, const struct judged *j)
{
	return ss_stats_attr_count(a, &j->ev, j->keep, j->in, j->verdict, j->paired, &j->io);
}

/* The fan-out's consumers (start_threads). */
static int count_items(void *arg, const void *items, size_t n)
{
	const struct judged *j = items;

	for (size_t i = 0; i < n; i++)
		count(arg, &j[i]);
	return 0;
}

static int attr_items(void *arg, const void *items, size_t n)
{
	const struct judged *j = items;
	int ret;

	for (size_t i = 0; i < n; i++)
		if ((ret = attr(arg, &j[i])))
			return ret;
	return 0;
}

int ss_stats_feed(struct ss_stats *st, const struct ss_event *ev, size_t n)
{
	struct judged here;
	int ret;

	for (size_t i = 0; i < n; i++) {
		struct judged *j = st->fan ? ss_fanout_push(st->fan) : &here;

		if ((ret = judge(st, &ev[i], j)) <= 0) {
			if (st->fan)
				ss_fanout_unpush(st->fan);
			if (ret < 0)
				return ret;
			continue;
		}
		if (st->count_here)
			count(st, j);
		if (st->attr_here && !st->attr_idle && (ret = attr(st->attr, j)))
			return ret;
	}
	return st->fan ? ss_fanout_error(st->fan) : 0;
}

static void phase_derive(struct ss_phase_stats *p)
{
	ss_summary_derive(&p->s);
	p->files_per_s = p->has_files && p->s.duration_s > 0 ?
			 (double)p->files / p->s.duration_s : 0;
	p->kb_per_s = p->has_bytes && p->s.duration_s > 0 ?
		      (double)p->bytes / 1e3 / p->s.duration_s : 0;
}

int ss_stats_finish(struct ss_stats *st)
{
	int ret;

	if (st->finished)
		return 0;
	st->finished = true;
	/* the threads count what is queued and end: what they wrote is the main thread's now */
	if (st->fan && (ret = ss_fanout_finish(st->fan)))
		return ret;
	acc_flush(st);
	ss_stats_attr_finish(st->attr);
	advance(st, st->total.end_ns, ss_pair_inflight(st->pair));
	for (size_t i = 0; i < st->nr_devs; i++)
		dev_advance(st, i, ss_pair_inflight_dev(st->pair, st->devs[i].device->dev));
	spans_close(st);
	ss_summary_derive(&st->total);
	for (size_t i = 0; i < st->nr_devs; i++)
		ss_summary_derive(&st->devs[i].s);
	for (size_t i = 0; i < st->nr_phases; i++)
		phase_derive(&st->phases[i]);
	if (st->has_durable)
		phase_derive(&st->durable);
	return 0;
}

int ss_stats_run(struct ss_stats *st, struct ss_trace *t)
{
	const struct ss_event *ev;
	size_t n;
	int ret;

	ss_trace_rewind(t);
	while ((ret = ss_trace_next_batch(t, &ev, &n)) > 0)
		if ((ret = ss_stats_feed(st, ev, n)))
			return ret;
	if (ret < 0)
		return ret;
	return ss_stats_finish(st);
}

const struct ss_summary *ss_stats_total(const struct ss_stats *st) { return &st->total; }
size_t ss_stats_nr_phases(const struct ss_stats *st) { return st->nr_phases; }
size_t ss_stats_nr_devices(const struct ss_stats *st) { return st->nr_devs; }
size_t ss_stats_nr_zones(const struct ss_stats *st) { return st->nr_zones; }
uint64_t ss_stats_unzoned_ios(const struct ss_stats *st) { return ss_stats_attr_unzoned(st->attr); }
const struct ss_bins *ss_stats_bins(const struct ss_stats *st) { return st->bins; }

const struct ss_bins *ss_stats_device_bins(const struct ss_stats *st, size_t i)
{
	return st->dev_bins && i < st->nr_devs ? st->dev_bins[i] : NULL;
}
const struct ss_disk_replay *ss_stats_disk(const struct ss_stats *st) { return st->o.disk; }

const struct ss_phase_stats *ss_stats_phase(const struct ss_stats *st, size_t i)
{
	return i < st->nr_phases ? &st->phases[i] : NULL;
}

const struct ss_phase_stats *ss_stats_durable(const struct ss_stats *st)
{
	return st->has_durable ? &st->durable : NULL;
}

const struct ss_device_stats *ss_stats_device(const struct ss_stats *st, size_t i)
{
	return i < st->nr_devs ? &st->devs[i] : NULL;
}

const struct ss_zone_stats *ss_stats_zone(const struct ss_stats *st, size_t i)
{
	return i < st->nr_zones ? &st->zones[i] : NULL;
}

uint64_t ss_stats_incomplete_ios(const struct ss_stats *st)
{
	return ss_pair_inflight(st->pair);
}

bool ss_stats_filtered(const struct ss_stats *st)
{
	return st->filter != NULL;
}

const struct ss_group_stats *ss_stats_dirs(const struct ss_stats *st)
{
	return ss_stats_attr_dirs(st->attr);
}

const struct ss_seek_causes *ss_stats_causes(const struct ss_stats *st)
{
	return ss_stats_attr_causes(st->attr);
}

const struct ss_procs *ss_stats_procs(const struct ss_stats *st)
{
	return ss_stats_attr_procs(st->attr);
}

const struct ss_pair_stats *ss_stats_pairing(const struct ss_stats *st)
{
	return ss_pair_stats(st->pair);
}
