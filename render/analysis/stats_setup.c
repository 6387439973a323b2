// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The statistics pass set up (stats.h, stats_priv.h): its period from the trace, the phases
 * and the time to durable, the depth-integral spans, the devices, the zones, the seek rules,
 * the pairing, the filter, the attribution half and the threads, when they pay; and freed.
 * The pass itself is stats.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lines.h"
#include "cpus.h"
#include "fanout.h"
#include "owner.h"
#include "stats_priv.h"
#include "stats_attr.h"
#include "taskfilter.h"
#include "zone_index.h"

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
	st->dev_clk = calloc(st->nr_devs ? st->nr_devs : 1, sizeof(*st->dev_clk));
	if (!st->spans || !st->dev_clk)
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
		st->dev_clk[i].now = start;
	return 0;
}

/* Whether the counting and the attribution run in threads (stats.h: opts.threads). */
static bool use_threads(const struct ss_stats *st)
{
	if (st->o.threads == 1 || !st->t)
		return false;
	if (st->o.threads >= 2)
		return true;
	return ss_trace_events_hint(st->t) >= THREAD_MIN_EVENTS &&
	       ss_cpus_online() >= THREAD_MIN_CPUS &&
	       ss_cpu_free();
}

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
		fn[n] = ss_stats_count_items;
		arg[n++] = st;
	}
	if (!st->attr_idle) {
		fn[n] = ss_stats_attr_items;
		arg[n++] = st->attr;
	}
	if (!n)
		return 0;
	/* threads asked for (opts.threads 2) must start; chosen for speed, they may not (no
	 * memory for the ring, a limit on threads): one thread then, the same figures */
	if (!(st->fan = ss_fanout_new(sizeof(struct judged), FAN_SLOT, FAN_SLOTS, fn, arg, n)))
		return st->o.threads >= 2 ? -errno : 0;
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
	if (t && ss_trace_meta_pending(t)) {
		/* only what needs neither the devices nor the period nor the process names before
		 * the pass (a report's figures): the rest refuses such a trace */
		if (st->o.bins || st->o.device_bins || st->o.window || st->o.one_device ||
		    st->o.disk || ss_task_spec_active(st->o.only)) {
			err = EINVAL;
			goto error;
		}
		st->deferred = st->auto_period = true;
	}
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
		st->nr_zones = st->o.zones ? t->nr_zones : 0;
		st->zones = calloc(st->nr_zones ? st->nr_zones : 1, sizeof(*st->zones));
		st->zi = ss_zone_index_new(t->zones, t->nr_zones);
		if (!st->devs || !st->zones || !st->zi)
			goto error;
		for (size_t i = 0; i < st->nr_devs; i++) {
			st->devs[i].device = &t->devices[i];
			summary_init(&st->devs[i].s, start, end);
			clip(st, &st->devs[i].s);
		}
		st->last_dev_no = st->nr_devs ? t->devices[0].dev : 0;      /* last_dev: 0 */
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
	/* the hook's state (stats_note.c): it may judge the events, attributed or not */
	if (!(st->noter = ss_lines_alloc(sizeof(*st->noter))) ||
	    (!st->attr_idle && ss_stats_attr_noted(st->attr) &&
	     !(st->noter->owner = ss_owner_new())))
		goto error;
	st->noter->one_device = st->o.one_device;
	st->noter->device = st->o.device;
	st->targets = calloc(3 + st->nr_phases, sizeof(*st->targets));
	st->acc_key = calloc(3 + st->nr_phases, sizeof(*st->acc_key));
	/* worth it when an event may count in several periods */
	st->use_acc = !st->o.disk && (st->nr_phases || st->has_durable);
	st->dev_mirror = st->nr_devs == 1;
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
	if (st->noter) {
		ss_owner_free(st->noter->owner);
		ss_seek_free(st->noter->seek);
	}
	free(st->noter);
	ss_evfilter_free(st->filter);
	free(st->phases);
	free(st->phase_stop);
	free(st->active);
	free(st->devs);
	free(st->dev_recs);
	free(st->zones);
	free(st->targets);
	free(st->acc_key);
	free(st->spans);
	free(st->dev_clk);
	free(st);
}

