// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The attribution half of the statistics pass (stats_attr.h): whose request each one was, the
 * directory it touched, the classes around each seek and the zone it landed in.  A third of
 * the pass's work that needs none of the rest, so on a machine with a second CPU it runs
 * there: the pass copies the events into one of two slots while the thread counts the other.
 * Every figure here depends only on the order of the events, which the slots keep, so the
 * result is the same with or without the thread.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "classes.h"
#include "filemap.h"
#include "owner.h"
#include "stats_attr.h"

#define SLOT 16384          /* events per slot: 768 KiB, a few hundred hand-overs a second */

/* The per-directory rows: the directories right under the mapped DIR. */
static const struct ss_group_spec dir_groups = { .by = SS_GROUP_DIR, .depth = 1 };

struct ss_stats_attr {
	const struct ss_trace *t;
	struct ss_stats_opts o;
	const struct ss_zone_index *zi;
	struct ss_zone_stats *zones;
	size_t nr_zones;
	uint64_t unzoned;
	struct ss_seek *seek;
	struct ss_pair *pair;
	struct ss_evfilter *filter;
	struct ss_owner *owner;
	struct ss_procs *procs;
	struct ss_group_stats *dirs;
	struct ss_seek_causes *causes;
	struct ss_filemap *fm;
	struct ss_zone_hint cause_hint, io_hint;   /* the issues' zones, the completions' */
	bool idle;                     /* nothing asked for: events are not even looked at */
	int err;                       /* the first error of the counting (the thread's: mu) */

	/* the thread: main fills slot[fill]; the thread counts the slots marked ready in turn */
	bool threaded, started;
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct ss_event *slot[2];
	size_t slot_n[2];
	bool ready[2];
	bool done;                     /* nothing more will be queued */
	int fill;
};

/* The class of an evaluated issue for the seek causes (the file map's verdict included) and
 * its zone; COUNT: its seek counts in the total. */
static int feed_cause(struct ss_stats_attr *a, const struct ss_event *ev, int verdict, bool count,
		      long *zone)
{
	enum ss_fm_kind fk = ss_filemap_lookup(a->fm, ev->dev, ev->sector, ev->nr_sector, NULL);
	enum ss_class cls = ss_class_lookup(a->zi, a->t ? a->t->zones : NULL, ev, fk, &a->cause_hint,
					   zone);

	return ss_seek_causes_feed(a->causes, ev, cls, *zone, verdict, count);
}

/* The zone a seek landed in, counted (of a kept request); ZONE when feed_cause found it. */
static void zone_seek(struct ss_stats_attr *a, const struct ss_event *ev, long zone, bool found)
{
	if (!a->nr_zones)
		return;
	if (!found)
		zone = ss_zone_index_find_hint(a->zi, ev->dev, ev->sector, &a->cause_hint);
	if (zone >= 0)
		a->zones[zone].seeks++;
}

static void zone_io(struct ss_stats_attr *a, const struct ss_io *io)
{
	enum ss_op op = ss_op_of(io->flags, io->has_data);
	uint64_t bytes = (uint64_t)io->nr_sector * 512;
	long z;

	if (!io->has_data || op == SS_OP_FLUSH || !a->nr_zones)
		return;
	z = ss_zone_index_find_hint(a->zi, io->dev, io->sector, &a->io_hint);
	if (z < 0) {
		a->unzoned++;
	} else {
		a->zones[z].op_ios[op]++;
		a->zones[z].op_bytes[op] += bytes;
		a->zones[z].bytes += bytes;
	}
}

int ss_stats_attr_count(struct ss_stats_attr *a, const struct ss_event *ev, bool keep, bool in,
			int verdict, int paired, const struct ss_io *io)
{
	struct ss_req_owner who;
	long zone = -1;
	int ret = paired;

	if (a->idle)
		return 0;
	if (a->owner && ev->type != SS_EV_COMPLETE &&
	    (ret = ss_owner_feed(a->owner, ev, NULL, &who)) < 0)
		return ret;
	if (verdict != SS_SEEK_IGNORED) {
		bool far = verdict == SS_SEEK_FAR;

		if (a->causes && (ret = feed_cause(a, ev, verdict, keep && in, &zone)))
			return ret;
		if (keep && far)
			zone_seek(a, ev, zone, a->causes != NULL);
		if (keep && a->procs && (ret = ss_procs_issue(a->procs, &who, far)))
			return ret;
		if (keep && a->dirs)
			ss_group_stats_issue(a->dirs, ev, far);
	}
	ret = paired;
	if (ret == 1 && a->owner && (ret = ss_owner_feed(a->owner, ev, io, &who)) < 0)
		return ret;
	if (ev->type == SS_EV_COMPLETE && keep) {
		zone_io(a, io);
		if (a->procs && io->has_data &&
		    (ret = ss_procs_io(a->procs, ret == 1 ? &who : NULL, io)))
			return ret;
		if (a->dirs && io->has_data)
			ss_group_stats_io(a->dirs, io->dev, io->sector, io->nr_sector);
	}
	return 0;
}

/* The thread's own judgement of EV (filter, window, seek, pairing), then its counts. */
static int attr_one(struct ss_stats_attr *a, const struct ss_event *ev)
{
	bool in = !a->o.window || (ev->ts_ns >= a->o.window_start_ns &&
				   ev->ts_ns <= a->o.window_end_ns);
	struct ss_io io;
	int64_t dist;
	int verdict, paired, keep = 1;

	if (a->o.one_device && ev->dev != a->o.device)
		return 0;
	/* a filtered-out request still moves the head: fed to the seek and pairing rules */
	if (a->filter && (keep = ss_evfilter_keep(a->filter, ev)) < 0)
		return keep;
	verdict = ss_seek_feed(a->seek, ev, &dist);
	if (verdict < 0)
		return verdict;
	paired = ss_pair_feed(a->pair, ev, &io);
	if (paired < 0)
		return paired;
	return ss_stats_attr_count(a, ev, keep, in, verdict, paired, &io);
}

static int count(struct ss_stats_attr *a, const struct ss_event *ev, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int ret = attr_one(a, &ev[i]);

		if (ret)
			return ret;
	}
	return 0;
}

static void *run(void *arg)
{
	struct ss_stats_attr *a = arg;
	int err = 0;

	for (int i = 0;; i ^= 1) {
		pthread_mutex_lock(&a->mu);
		while (!a->ready[i] && !a->done)
			pthread_cond_wait(&a->cv, &a->mu);
		if (!a->ready[i]) {
			pthread_mutex_unlock(&a->mu);
			return NULL;
		}
		pthread_mutex_unlock(&a->mu);
		if (!err)
			err = count(a, a->slot[i], a->slot_n[i]);
		pthread_mutex_lock(&a->mu);
		if (err && !a->err)
			a->err = err;
		a->ready[i] = false;
		pthread_cond_broadcast(&a->cv);
		pthread_mutex_unlock(&a->mu);
	}
}

/* Hand the slot being filled to the thread and wait until the other one is free. */
static int hand_over(struct ss_stats_attr *a)
{
	int err;

	pthread_mutex_lock(&a->mu);
	a->ready[a->fill] = true;
	pthread_cond_broadcast(&a->cv);
	a->fill ^= 1;
	while (a->ready[a->fill])
		pthread_cond_wait(&a->cv, &a->mu);
	err = a->err;
	pthread_mutex_unlock(&a->mu);
	a->slot_n[a->fill] = 0;
	return err;
}

static int start(struct ss_stats_attr *a)
{
	int err;

	if (!(a->slot[0] = malloc(SLOT * sizeof(struct ss_event))) ||
	    !(a->slot[1] = malloc(SLOT * sizeof(struct ss_event))))
		return -ENOMEM;
	if ((err = pthread_mutex_init(&a->mu, NULL)))
		return -err;
	if ((err = pthread_cond_init(&a->cv, NULL))) {
		pthread_mutex_destroy(&a->mu);
		return -err;
	}
	if ((err = pthread_create(&a->th, NULL, run, a))) {
		pthread_cond_destroy(&a->cv);
		pthread_mutex_destroy(&a->mu);
		return -err;
	}
	a->started = true;
	return 0;
}

/* Queue what is left, let the thread count it and end. */
static int stop(struct ss_stats_attr *a)
{
	int err;

	if (!a->started)
		return 0;
	pthread_mutex_lock(&a->mu);
	if (a->slot_n[a->fill])
		a->ready[a->fill] = true;
	a->done = true;
	pthread_cond_broadcast(&a->cv);
	pthread_mutex_unlock(&a->mu);
	pthread_join(a->th, NULL);
	pthread_cond_destroy(&a->cv);
	pthread_mutex_destroy(&a->mu);
	a->started = false;
	err = a->err;
	return err;
}

struct ss_stats_attr *ss_stats_attr_new(const struct ss_trace *t, const struct ss_stats_opts *o,
					const struct ss_zone_index *zi,
					struct ss_zone_stats *zones, size_t nr_zones, bool thread)
{
	struct ss_stats_attr *a = calloc(1, sizeof(*a));
	int err;

	if (!a)
		return NULL;
	a->t = t;
	a->o = *o;
	a->zi = zi;
	a->zones = zones;
	a->nr_zones = zi ? nr_zones : 0;
	a->threaded = thread;
	if ((o->causes && (!(a->causes = ss_seek_causes_new()) || !(a->fm = ss_filemap_new(t)))) ||
	    (t && o->procs && (!(a->procs = ss_procs_new(t)) || !(a->owner = ss_owner_new()))) ||
	    (t && o->dirs && !(a->dirs = ss_group_stats_new(&dir_groups, t))))
		goto error;
	a->idle = !a->procs && !a->dirs && !a->causes && !a->nr_zones;
	if (!thread || a->idle)
		return a;
	/* the thread judges the events itself: its own filter, seek and pairing state */
	if (!(a->seek = ss_seek_new(o->seek_threshold)) || !(a->pair = ss_pair_new(o->max_inflight)) ||
	    (t && ss_task_spec_active(o->only) && !(a->filter = ss_evfilter_new(o->only, t))))
		goto error;
	if ((err = start(a))) {
		errno = -err;
		goto error;
	}
	return a;
error:
	err = errno;
	ss_stats_attr_free(a);
	errno = err;
	return NULL;
}

void ss_stats_attr_free(struct ss_stats_attr *a)
{
	if (!a)
		return;
	stop(a);
	free(a->slot[0]);
	free(a->slot[1]);
	ss_seek_free(a->seek);
	ss_pair_free(a->pair);
	ss_evfilter_free(a->filter);
	ss_owner_free(a->owner);
	ss_procs_free(a->procs);
	ss_group_stats_free(a->dirs);
	ss_seek_causes_free(a->causes);
	ss_filemap_free(a->fm);
	free(a);
}

int ss_stats_attr_feed(struct ss_stats_attr *a, const struct ss_event *ev, size_t n)
{
	if (!a->started)
		return 0;
	while (n) {
		size_t k = SLOT - a->slot_n[a->fill];
		int err;

		if (k > n)
			k = n;
		memcpy(a->slot[a->fill] + a->slot_n[a->fill], ev, k * sizeof(*ev));
		a->slot_n[a->fill] += k;
		ev += k;
		n -= k;
		if (a->slot_n[a->fill] == SLOT && (err = hand_over(a)))
			return err;
	}
	return 0;
}

bool ss_stats_attr_threaded(const struct ss_stats_attr *a)
{
	return a->started;
}

int ss_stats_attr_finish(struct ss_stats_attr *a)
{
	int err = a->started ? stop(a) : a->err;

	if (err)
		return err;
	if (a->procs)
		ss_procs_finish(a->procs);
	if (a->dirs)
		ss_group_stats_finish(a->dirs);
	if (a->causes)
		ss_seek_causes_finish(a->causes);
	return 0;
}

const struct ss_procs *ss_stats_attr_procs(const struct ss_stats_attr *a) { return a->procs; }
const struct ss_group_stats *ss_stats_attr_dirs(const struct ss_stats_attr *a) { return a->dirs; }
const struct ss_seek_causes *ss_stats_attr_causes(const struct ss_stats_attr *a)
{
	return a->causes;
}
uint64_t ss_stats_attr_unzoned(const struct ss_stats_attr *a) { return a->unzoned; }
