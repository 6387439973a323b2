// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Trace statistics in one streaming pass (definitions in stats.h).  Each event updates a small
 * set of "targets" — the trace total, the event's device and the phases open at its time — so
 * the cost per event is constant for the usual handful of phases.  Queue depth is integrated
 * over time between consecutive events ("advance") into one exact running integral; each
 * period's share is its value where the period ends minus where it begins (struct
 * depth_span, stats_priv.h).
 *
 * The periods an event counts in (the total, its phases, the time to durable) change only at
 * their boundaries, so their counts go to one scratch summary ("acc") that is added to each of
 * them when the set changes and at the end: one update per event instead of one per period.
 * The sums are of integers (counts, histograms, maxima), so the figures are the same; the
 * modelled times are sums of doubles, so with a disk model every period is counted directly.
 *
 * Each event is first judged — kept by the process filter, in the window, a seek or not,
 * paired with its issue, the queue depth around it (stats_judge.h) — and then counted
 * (count()) and attributed (stats_attr.c).  The judgement is sequential and cheap; the
 * counting and the attribution are independent of each other and of everything but the judged
 * events in order, so on a machine of 4 CPUs or more with one free they run in two threads of
 * their own, fed through a fan-out ring (fanout.h) while the main thread reads and judges;
 * with two CPUs, the read-ahead thread may judge instead, beside the one that counts
 * (stats_note.c).  The figures are the same.
 *
 * The pass's state is stats_priv.h; stats_setup.c sets it up from the trace and frees it.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "fanout.h"
#include "owner.h"
#include "stats_judge.h"
#include "stats_priv.h"
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

static void dev_mirror_end(struct ss_stats *st);

static struct ss_device_stats *find_dev(struct ss_stats *st, uint32_t dev)
{
	/* the last one's number kept here: no pointer to follow to its record */
	if (st->last_dev < st->nr_devs && st->last_dev_no == dev)
		return &st->devs[st->last_dev];
	for (size_t i = 0; i < st->nr_devs; i++)
		if (st->devs[i].device->dev == dev) {
			st->last_dev = i;
			st->last_dev_no = dev;
			return &st->devs[i];
		}
	if (!st->deferred || st->deferred_err)
		return NULL;
	/* a second device: the first one's summary stops mirroring the total's, its depth so
	 * far the total's (dev_advance() sums it from now on) */
	if (st->nr_devs == 1 && st->dev_mirror)
		dev_mirror_end(st);
	return ss_stats_add_device(st, dev);
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
			sp->value = cum_at(sp->stop, from, ts, depth, at_from) - sp->at_start;
			*sp->out = (double)sp->value;
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
			st->spans[i].value = st->cum - st->spans[i].at_start;
			*st->spans[i].out = (double)st->spans[i].value;
			st->spans[i].state = 2;
		}
}

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

/* The queue depth, DEPTH requests, integrated over [FROM, TS) (FROM: now) into the total and
 * the bins, and the clock at TS; nothing when TS <= FROM. */
static inline void integrate(struct ss_stats *st, uint64_t from, uint64_t ts, uint64_t depth)
{
	if (ts > from) {
		if (depth) {
			st->cum += (unsigned __int128)depth * (ts - from);
			if (st->bins)
				bin_add_depth(st, from, ts, depth);
		}
		st->now = ts;
	}
}

/* advance() when the clock passes a phase's or span's start or stop (FROM: now). */
static void advance_edge(struct ss_stats *st, uint64_t from, uint64_t ts, uint64_t depth)
{
	unsigned __int128 at_from = st->cum;
	size_t k = 0;

	if (ts >= st->next_open)
		open_periods(st, ts, depth);
	integrate(st, from, ts, depth);
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
 * Move the clock to ts: integrate the queue depth over [now, ts), open the phases that began by
 * ts and close those that ended by then.  Inline, the rest a call only at those instants: most
 * events pass none, and the call's saving and restoring of registers was half of this per
 * event.
 */
static inline void advance(struct ss_stats *st, uint64_t ts, uint64_t depth)
{
	uint64_t from = st->now;

	if (ts < from)
		ts = from;   /* events are in time order; tolerate equal or slightly older ones */
	if (ts >= st->next_open || ts >= st->next_edge || ts >= st->active_stop) {
		advance_edge(st, from, ts, depth);
		return;
	}
	integrate(st, from, ts, depth);
}

/*
 * The clock of device I, DD requests in flight on it since it was last moved (its depth
 * changes only at its own events, so it is integrated up to now when one of them comes, and
 * at the end): its clock's integral counts the time in the total period (its summary's
 * depth_ns when the pass ends), its bins all of it.
 */
static void dev_advance(struct ss_stats *st, size_t i, uint64_t dd)
{
	struct dev_clock *c = &st->dev_clk[i];
	uint64_t from = c->now, to = st->now;

	if (to <= from)
		return;
	c->now = to;
	if (!dd)
		return;
	c->cum += (unsigned __int128)dd * overlap(from, to, st->total.start_ns, st->total.end_ns);
	if (st->dev_bins)
		ss_bins_add_depth(st->dev_bins[i], from, to, dd);
}

/* The bins at TS an event counts in: the total's and its device's (opts.device_bins). */
static size_t bins_in(struct ss_stats *st, uint64_t ts, struct ss_bin *out[2])
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

/* bins_in() without a call when there are no bins (a report's pass) */
static inline size_t bins_at(struct ss_stats *st, uint64_t ts, struct ss_bin *out[2])
{
	return st->bins || st->dev_bins ? bins_in(st, ts, out) : 0;
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

/*
 * The one device's summary so far, from the total's (dev_mirror): the same events counted in
 * the same order, since every one was the device's and in the total exactly when in the
 * device's (both only inside the window); so was the queue, so its depth integral is the
 * total's too (unless the device has bins of its own, which dev_advance() fills as it goes).
 */
static void dev_mirror_end(struct ss_stats *st)
{
	struct ss_summary *d = &st->devs[0].s;

	acc_flush(st);
	st->periods_known = false;      /* the next event's periods set acc up again */
	summary_add(d, &st->total);
	d->model = st->total.model;
	st->dev_mirror = false;
	if (!st->dev_bins) {
		/* its depth so far: the total's integral (spans[0], the total's span) up to now,
		 * which dev_advance() would have summed event by event, exactly as this */
		const struct depth_span *sp = &st->spans[0];

		st->dev_clk[0].cum = sp->state == 0 ? 0 : sp->state == 1 ? st->cum - sp->at_start
								  : sp->value;
		st->dev_clk[0].now = st->now;
	}
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

/* Count an event as judged (J; IO: a completion's) in its periods, device, bins and the disk
 * model. */
static void count(struct ss_stats *st, const struct ss_event *ev, const struct judgement *j,
		  const struct ss_io *io)
{
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
	st->cur_dev = dev ? (long)st->last_dev : -1;      /* find_dev() returns devs[last_dev] */
	/* the one device's depth is the total's while it mirrors it (dev_mirror_end) */
	if (dev && (!st->dev_mirror || st->dev_bins))
		dev_advance(st, (size_t)st->cur_dev, j->dev_depth);
	if (st->dev_mirror && !dev)
		dev_mirror_end(st);             /* an event of no device: counted apart now */
	if (!j->in)
		dev = NULL;             /* outside the window: counts for no period */
	periods(st, ev->ts_ns, j->in);
	if (dev && !st->dev_mirror)
		st->targets[st->nr_targets++] = &dev->s;
	for (size_t i = 0; i < st->nr_targets && keep; i++)
		st->targets[i]->events++;

	if (j->verdict != SS_SEEK_IGNORED && keep) {
		count_seek(st, ev, j->verdict, j->is.dist);
		if (st->o.on_seek)
			st->o.on_seek(ev, j->verdict, j->is.dist, st->o.arg);
	}
	/* the model's arm follows every request too; the kept ones' cost is counted */
	if (j->verdict != SS_SEEK_IGNORED && st->o.disk)
		count_model(st, ev, keep);
	if (ev->type == SS_EV_COMPLETE && keep && io) {
		count_io(st, io);
		if (st->o.on_io)
			st->o.on_io(io, st->o.arg);
	}
	if (ev->type == SS_EV_ISSUE) {
		for (size_t i = 0; i < st->nr_targets; i++) {
			struct ss_summary *s = st->targets[i];
			uint64_t d = dev && s == &dev->s ? j->is.dev_depth_after : j->is.depth_after;

			if (d > s->max_depth)
				s->max_depth = d;
		}
	}
}

static int attr(struct ss_stats_attr *a, const struct ss_event *ev, const struct judgement *j,
		const struct ss_io *io)
{
	return ss_stats_attr_count(a, ev, j->keep, j->in, j->verdict, j->paired, io,
				   ev->type == SS_EV_ISSUE ? j->is.note : 0, j->seek_done);
}

/* The fan-out's consumers (stats_priv.h). */
int ss_stats_count_items(void *arg, const void *items, size_t n)
{
	const struct judged *j = items;

	struct ss_io io;

	for (size_t i = 0; i < n; i++)
		count(arg, &j[i].ev, &j[i].m, judgement_io(&j[i].ev, &j[i].m, &io));
	return 0;
}

int ss_stats_attr_items(void *arg, const void *items, size_t n)
{
	const struct judged *j = items;
	struct ss_io io;
	int ret;

	for (size_t i = 0; i < n; i++)
		if ((ret = attr(arg, &j[i].ev, &j[i].m, judgement_io(&j[i].ev, &j[i].m, &io))))
			return ret;
	return 0;
}

int ss_stats_feed(struct ss_stats *st, const struct ss_event *ev, size_t n)
{
	return ss_stats_feed_noted(st, ev, NULL, n);
}

/* Count and attribute EV as judged (J; IO, a completion's). */
static inline int take(struct ss_stats *st, const struct ss_event *ev, const struct judgement *j,
		       const struct ss_io *io)
{
	if (st->count_here)
		count(st, ev, j, io);
	/* the attribution counts issues and completions only (stats_attr.h) */
	if (st->attr_here && !st->attr_idle &&
	    (ev->type == SS_EV_ISSUE || ev->type == SS_EV_COMPLETE))
		return attr(st->attr, ev, j, io);
	return 0;
}

int ss_stats_feed_noted(struct ss_stats *st, const struct ss_event *ev, const void *notes,
			size_t n)
{
	const uint64_t *note = notes;
	struct judged here;
	struct ss_io io;
	int ret;

	if (st->noter && st->noter->idle)
		note = notes = NULL;    /* ss_stats_note left them to this thread */
	if (notes)
		ss_stats_balance(st);

	if (notes && st->noter && st->noter->judge) {
		/* judged by the hook (ss_stats_note): counted here */
		const struct judgement *m = notes;

		for (size_t i = 0; i < n; i++)
			if (m[i].counts &&
			    (ret = take(st, &ev[i], &m[i], judgement_io(&ev[i], &m[i], &io))))
				return ret;
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		struct judged *j = st->fan ? ss_fanout_push(st->fan) : &here;

		/* ss_stats_note's note (the only hook's whose notes a caller passes here) */
		j->m.is.note = note ? note[i] : 0;
		if ((ret = stats_judge(st, &ev[i], &j->m, note != NULL, &io)) <= 0) {
			if (st->fan)
				ss_fanout_unpush(st->fan);
			if (ret < 0)
				return ret;
			continue;
		}
		if (st->fan) {
			j->ev = ev[i];
			judgement_keep(&j->m, &io);
		}
		if ((ret = take(st, &ev[i], &j->m, j->m.paired == 1 ? &io : NULL)))
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
	/* the hook's error (ss_stats_note), now that the pass has ended */
	if ((ret = ss_stats_note_error(st)))
		return ret;
	/* the threads count what is queued and end: what they wrote is the main thread's now */
	if (st->fan && (ret = ss_fanout_finish(st->fan)))
		return ret;
	if (st->deferred && (ret = ss_stats_bind_devices(st)))
		return ret;
	acc_flush(st);
	if (st->dev_mirror)
		dev_mirror_end(st);
	if ((ret = ss_stats_attr_finish(st->attr)))
		return ret;
	advance(st, st->total.end_ns, ss_pair_inflight(st->pair));
	for (size_t i = 0; i < st->nr_devs; i++) {
		dev_advance(st, i, ss_pair_inflight_dev(st->pair, st->devs[i].device->dev));
		st->devs[i].s.depth_ns = (double)st->dev_clk[i].cum;
	}
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

static void note_hook(void *arg, const struct ss_event *ev, void *notes, size_t n)
{
	ss_stats_note(arg, ev, notes, n);
}

int ss_stats_run(struct ss_stats *st, struct ss_trace *t)
{
	const struct ss_event *ev;
	size_t n;
	int ret;

	size_t note_size;

	ss_trace_rewind(t);
	/* the events judged beside the pass, when it reads ahead (trace_read.h) */
	if ((note_size = ss_stats_notes(st, true)))
		ss_trace_set_batch_hook(t, note_hook, st, note_size);
	while ((ret = ss_trace_next_batch(t, &ev, &n)) > 0)
		if ((ret = ss_stats_feed_noted(st, ev, ss_trace_batch_notes(t), n))) {
			ss_trace_rewind(t);     /* the hook's thread stopped: ST may go */
			return ret;
		}
	/* the pass has ended (a read error ends it too): the hook's work is done and seen */
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
