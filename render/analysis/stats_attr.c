// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The attribution half of the statistics pass (stats_attr.h): whose request each one was, the
 * directory it touched, the classes around each seek and the zone it landed in.  It needs
 * none of the rest of the counting, so on a machine of 4 CPUs or more with one free the pass
 * hands it the events with its judgement of them in a thread of its own (stats.c).  Every
 * figure here depends only on the order of the events, which the hand-over keeps, so the
 * result is the same with or without the thread.
 */
#include <errno.h>
#include <stdlib.h>

#include "classes.h"
#include "filemap.h"
#include "lines.h"
#include "owner.h"
#include "stats_attr.h"

/* The per-directory rows: the directories right under the mapped DIR. */
static const struct ss_group_spec dir_groups = { .by = SS_GROUP_DIR, .depth = 1 };

/*
 * What the seek half (ss_stats_attr_seek) writes, on cache lines of its own: it may run in
 * another thread than the rest, and a line both wrote would travel between their CPUs at
 * every event (measured: twice the CPU time of a report).  The seek causes' state is an
 * allocation of its own too.
 */
struct seek_half {
	struct ss_zone_hint hint;      /* the issues' zones */
	uint64_t *zone_seeks;          /* per zone: seeks that landed there (zones[].seeks at finish) */
};

struct ss_stats_attr {
	/* read only while events are counted */
	const struct ss_trace *t;
	struct ss_stats_opts o;
	const struct ss_zone_index *zi;
	struct ss_zone_stats *zones;
	size_t nr_zones;
	struct ss_procs *procs;
	struct ss_group_stats *dirs;
	struct ss_seek_causes *causes;
	struct ss_filemap *fm;
	struct seek_half *sh;
	bool idle;                     /* nothing asked for: events are not even looked at */
	/* written by the rest (not the seek half), a line apart from the above */
	char line_apart[64];
	uint64_t unzoned;
	struct ss_zone_hint io_hint;   /* the completions' zones */
};

/* The class of an evaluated issue for the seek causes (the file map's verdict included) and
 * its zone; COUNT: its seek counts in the total. */
static int feed_cause(struct ss_stats_attr *a, const struct ss_event *ev, int verdict, bool count,
		      long *zone)
{
	enum ss_fm_kind fk = ss_filemap_lookup(a->fm, ev->dev, ev->sector, ev->nr_sector, NULL);
	enum ss_class cls = ss_class_lookup(a->zi, a->t ? a->t->zones : NULL, ev, fk, &a->sh->hint,
					   zone);

	return ss_seek_causes_feed(a->causes, ev, cls, *zone, verdict, count);
}

/* The zone a seek landed in, counted (of a kept request); ZONE when feed_cause found it. */
static void zone_seek(struct ss_stats_attr *a, const struct ss_event *ev, long zone, bool found)
{
	if (!a->nr_zones)
		return;
	if (!found)
		zone = ss_zone_index_find_hint(a->zi, ev->dev, ev->sector, &a->sh->hint);
	if (zone >= 0)
		a->sh->zone_seeks[zone]++;
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

int ss_stats_attr_seek(struct ss_stats_attr *a, const struct ss_event *ev, bool keep, bool in,
		       int verdict)
{
	long zone = -1;
	int ret;

	if (a->idle || verdict == SS_SEEK_IGNORED)
		return 0;
	if (a->causes && (ret = feed_cause(a, ev, verdict, keep && in, &zone)))
		return ret;
	if (keep && verdict == SS_SEEK_FAR)
		zone_seek(a, ev, zone, a->causes != NULL);
	return 0;
}

int ss_stats_attr_count(struct ss_stats_attr *a, const struct ss_event *ev, bool keep, bool in,
			int verdict, int paired, const struct ss_io *io, uint64_t note,
			bool seek_done)
{
	struct ss_req_owner who = { 0 };
	int ret;

	if (a->idle)
		return 0;
	/* whose request: the issue's note (stats.c), the completion's issue's (its tag) */
	if (a->procs && ev->type == SS_EV_ISSUE)
		who = ss_owner_of_issue(ev, note);
	if (verdict != SS_SEEK_IGNORED) {
		bool far = verdict == SS_SEEK_FAR;

		/* the seek half first, as it always came (its figures are its own) */
		if (!seek_done && (ret = ss_stats_attr_seek(a, ev, keep, in, verdict)))
			return ret;
		if (keep && a->procs && (ret = ss_procs_issue(a->procs, &who, far)))
			return ret;
		if (keep && a->dirs)
			ss_group_stats_issue(a->dirs, ev, far);
	}
	if (ev->type == SS_EV_COMPLETE && keep && io) {
		zone_io(a, io);
		if (a->procs && io->has_data && io->matched)
			who = ss_owner_of_io(io);
		if (a->procs && io->has_data &&
		    (ret = ss_procs_io(a->procs, paired == 1 && io->matched ? &who : NULL, io)))
			return ret;
		if (a->dirs && io->has_data)
			ss_group_stats_io(a->dirs, io->dev, io->sector, io->nr_sector);
	}
	return 0;
}

struct ss_stats_attr *ss_stats_attr_new(const struct ss_trace *t, const struct ss_stats_opts *o,
					const struct ss_zone_index *zi,
					struct ss_zone_stats *zones, size_t nr_zones)
{
	/* on lines of its own: the rest's writes at its end share no line with another object */
	struct ss_stats_attr *a = ss_lines_alloc(sizeof(*a));
	int err;

	if (!a)
		return NULL;
	a->t = t;
	a->o = *o;
	a->zi = zi;
	a->zones = zones;
	a->nr_zones = zi ? nr_zones : 0;
	if ((o->causes && (!(a->causes = ss_seek_causes_new()) || !(a->fm = ss_filemap_new(t)))) ||
	    (t && o->procs && !(a->procs = ss_procs_new(t))) ||
	    (t && o->dirs && !(a->dirs = ss_group_stats_new(&dir_groups, t))) ||
	    !(a->sh = ss_lines_alloc(sizeof(*a->sh))) ||
	    (a->nr_zones && !(a->sh->zone_seeks = ss_lines_alloc(a->nr_zones * sizeof(uint64_t)))))
		goto error;
	a->idle = !a->procs && !a->dirs && !a->causes && !a->nr_zones;
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
	ss_procs_free(a->procs);
	ss_group_stats_free(a->dirs);
	ss_seek_causes_free(a->causes);
	ss_filemap_free(a->fm);
	if (a->sh)
		free(a->sh->zone_seeks);
	free(a->sh);
	free(a);
}

bool ss_stats_attr_idle(const struct ss_stats_attr *a)
{
	return a->idle;
}

bool ss_stats_attr_noted(const struct ss_stats_attr *a)
{
	return a->procs != NULL;
}

int ss_stats_attr_finish(struct ss_stats_attr *a)
{
	int ret;

	if (a->procs && (ret = ss_procs_resolve(a->procs)))
		return ret;
	for (size_t i = 0; i < a->nr_zones; i++) {
		a->zones[i].seeks += a->sh->zone_seeks[i];
		a->sh->zone_seeks[i] = 0;
	}
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
