// SPDX-License-Identifier: GPL-2.0-or-later
/* Process groups ranked over traces, and their colour slots (see procgroups.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errbuf.h"
#include "seekscope/model.h"
#include "procgroups.h"
#include "tasks.h"

void ss_proc_group_of(const struct ss_trace *t, const struct ss_req_owner *who, char *buf,
		      size_t len)
{
	long id = ss_tasks_find(t->tasks, who->pid, who->ts);

	if (id < 0)
		snprintf(buf, len, "unknown");
	else
		ss_task_group(ss_tasks_entry(t->tasks, (size_t)id), buf, len);
}

/* Groups met while ranking: names and counts, found through a per-task-entry cache. */
struct tally {
	char (*name)[SS_PROC_GROUP_LEN];
	uint64_t *count;
	size_t n, cap;
};

static long tally_index(struct tally *ty, const char *name)
{
	for (size_t i = 0; i < ty->n; i++)
		if (!strcmp(ty->name[i], name))
			return (long)i;
	if (ty->n == ty->cap) {
		size_t nc = ty->cap ? ty->cap * 2 : 32;
		void *a = reallocarray(ty->name, nc, sizeof(*ty->name));

		if (!a)
			return -ENOMEM;
		ty->name = a;
		if (!(a = reallocarray(ty->count, nc, sizeof(*ty->count))))
			return -ENOMEM;
		ty->count = a;
		ty->cap = nc;
	}
	snprintf(ty->name[ty->n], SS_PROC_GROUP_LEN, "%s", name);
	ty->count[ty->n] = 0;
	return (long)ty->n++;
}

/* The tally index of WHO's group in T; CACHE[entry id + 1] remembers it (slot 0: unknown). */
static long group_index(struct tally *ty, long *cache, const struct ss_trace *t,
			const struct ss_req_owner *who)
{
	long id = ss_tasks_find(t->tasks, who->pid, who->ts) + 1;
	char name[SS_PROC_GROUP_LEN];

	if (cache[id] < 0) {
		ss_proc_group_of(t, who, name, sizeof(name));
		cache[id] = tally_index(ty, name);
	}
	return cache[id];
}

/* Whether EV is inside SC (NULL: everything is). */
static bool in_scope(const struct ss_proc_scope *sc, const struct ss_event *ev)
{
	return !sc || (ev->ts_ns >= sc->from_ns && ev->ts_ns <= sc->to_ns &&
		       (!sc->one_device || ev->dev == sc->device));
}

static int count_trace(struct ss_trace *t, const struct ss_proc_scope *sc,
		       const struct ss_task_spec *only, struct tally *ty, char *err, size_t errlen)
{
	size_t nc = ss_tasks_count(t->tasks) + 1;
	long *cache = malloc(nc * sizeof(*cache));
	struct ss_evfilter *f = ss_task_spec_active(only) ? ss_evfilter_new(only, t) : NULL;
	struct ss_owner *o = ss_owner_new();
	const struct ss_event *ev;
	size_t n;
	int ret = -ENOMEM;

	if (!cache || !o || (ss_task_spec_active(only) && !f))
		goto out;
	for (size_t i = 0; i < nc; i++)
		cache[i] = -1;
	ss_trace_rewind(t);
	while ((ret = ss_trace_next_batch(t, &ev, &n)) > 0) {
		for (size_t i = 0; i < n && ret > 0; i++) {
			struct ss_req_owner who;
			int keep = f ? ss_evfilter_keep(f, &ev[i]) : 1, r = 0;
			long gi;

			/* the owner table sees every event but completions (issues need none) */
			if (keep >= 0 && ev[i].type != SS_EV_COMPLETE)
				r = ss_owner_feed(o, &ev[i], NULL, &who);
			if (keep < 0 || r < 0) {
				ret = keep < 0 ? keep : r;
				continue;
			}
			if (!keep || r != 1 || !ss_event_has_data(&ev[i]) || !in_scope(sc, &ev[i]))
				continue;
			if ((gi = group_index(ty, cache, t, &who)) < 0)
				ret = (int)gi;
			else
				ty->count[gi]++;
		}
		if (ret < 0)
			break;
	}
	if (ret < 0)
		ss_errf(err, errlen, "%s: %s", t->path,
			ret == -ENOMEM ? "out of memory" : ss_trace_error(t));
out:
	if (ret == -ENOMEM && !err[0])
		ss_errf(err, errlen, "%s: out of memory", t->path);
	free(cache);
	ss_evfilter_free(f);
	ss_owner_free(o);
	return ret < 0 ? ret : 0;
}

int ss_proc_groups_rank(struct ss_trace *const *t, const struct ss_proc_scope *scope, int nr,
			const struct ss_task_spec *only, unsigned top, struct ss_proc_groups *out,
			char *err, size_t errlen)
{
	struct tally ty = { 0 };
	int ret = 0;

	memset(out, 0, sizeof(*out));
	if (errlen)
		err[0] = 0;
	if (top < 1 || top > SS_PROC_GROUPS_MAX)
		top = SS_PROC_GROUPS_MAX;
	for (int i = 0; i < nr && !ret; i++)
		ret = count_trace(t[i], scope ? &scope[i] : NULL, only, &ty, err, errlen);
	/* the biggest TOP by selection (few groups), ties by name so the order is stable */
	while (!ret && out->n < top) {
		long best = -1;

		for (size_t i = 0; i < ty.n; i++)
			if (ty.count[i] && (best < 0 || ty.count[i] > ty.count[best] ||
					    (ty.count[i] == ty.count[best] &&
					     strcmp(ty.name[i], ty.name[best]) < 0)))
				best = (long)i;
		if (best < 0)
			break;
		memcpy(out->name[out->n], ty.name[best], SS_PROC_GROUP_LEN);
		out->issues[out->n++] = ty.count[best];
		ty.count[best] = 0;
	}
	for (size_t i = 0; i < ty.n; i++)
		out->other += ty.count[i];
	free(ty.name);
	free(ty.count);
	return ret;
}

size_t ss_proc_groups_slot(const struct ss_proc_groups *g, const char *group)
{
	for (size_t i = 0; i < g->n; i++)
		if (!strcmp(g->name[i], group))
			return i;
	return g->n;
}

struct ss_proc_slots {
	const struct ss_proc_groups *g;
	const struct ss_trace *t;
	long *cache;               /* per task entry id + 1 (0: unknown pids): slot, -1 unseen */
	size_t nr;
};

struct ss_proc_slots *ss_proc_slots_new(const struct ss_proc_groups *g, const struct ss_trace *t)
{
	struct ss_proc_slots *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->g = g;
	s->t = t;
	s->nr = ss_tasks_count(t->tasks) + 1;
	if (!(s->cache = malloc(s->nr * sizeof(*s->cache)))) {
		free(s);
		return NULL;
	}
	for (size_t i = 0; i < s->nr; i++)
		s->cache[i] = -1;
	return s;
}

void ss_proc_slots_free(struct ss_proc_slots *s)
{
	if (!s)
		return;
	free(s->cache);
	free(s);
}

size_t ss_proc_slots_get(struct ss_proc_slots *s, const struct ss_req_owner *who)
{
	long id = ss_tasks_find(s->t->tasks, who->pid, who->ts) + 1;
	char name[SS_PROC_GROUP_LEN];

	if (s->cache[id] < 0) {
		ss_proc_group_of(s->t, who, name, sizeof(name));
		s->cache[id] = (long)ss_proc_groups_slot(s->g, name);
	}
	return (size_t)s->cache[id];
}
