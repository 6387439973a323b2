// SPDX-License-Identifier: GPL-2.0-or-later
/* Groups of requests: per trace, ranked over traces, and their colour slots (see groups.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errbuf.h"
#include "filemap.h"
#include "fmapdata.h"
#include "seekscope/model.h"
#include "groups.h"
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

struct ss_group_keys {
	struct ss_group_spec spec;
	const struct ss_trace *t;
	struct ss_filemap *fm;      /* dir, file */
	uint32_t *of;               /* per key (process: task entry + 1; else mapped entry) */
	size_t nr_keys;
	char *pool;                 /* the names, NUL-terminated */
	size_t *name;               /* per group: offset in pool */
	size_t nr_groups;
};

/* Names being collected: a pool of strings and per key its offset. */
struct names {
	char *pool;
	size_t len, cap;
};

static long names_add(struct names *nm, const char *s)
{
	size_t l = strnlen(s, SS_GROUP_LEN - 1);

	if (nm->len + l + 1 > nm->cap) {
		size_t nc = nm->cap ? nm->cap * 2 : 4096;
		char *p;

		while (nc < nm->len + l + 1)
			nc *= 2;
		if (!(p = realloc(nm->pool, nc)))
			return -ENOMEM;
		nm->pool = p;
		nm->cap = nc;
	}
	memcpy(nm->pool + nm->len, s, l);
	nm->pool[nm->len + l] = 0;
	nm->len += l + 1;
	return (long)(nm->len - l - 1);
}

/* The name of key I into BUF. */
static void key_name(const struct ss_group_keys *k, size_t i, char *buf, size_t len)
{
	if (k->spec.by == SS_GROUP_PROCESS) {
		if (!i)
			snprintf(buf, len, "unknown");
		else
			ss_task_group(ss_tasks_entry(k->t->tasks, i - 1), buf, len);
	} else if (k->spec.by == SS_GROUP_DIR) {
		ss_filemap_group(k->fm, (long)i, k->spec.depth, buf, len);
	} else {
		ss_filemap_path_below_top(k->fm, (long)i, buf, len);
	}
}

struct named {
	size_t off;                 /* name in the pool */
	size_t key;                 /* key + fixed, or a fixed group */
};

static int by_name(const void *a, const void *b, void *pool)
{
	const struct named *x = a, *y = b;
	int c = strcmp((const char *)pool + x->off, (const char *)pool + y->off);

	return c ? c : (x->key > y->key) - (x->key < y->key);
}

/* Name every key, then number the distinct names: group 0 unknown, (files) 1 inodes, the
 * rest in name order; a key named like a fixed group joins it. */
static int build_groups(struct ss_group_keys *k)
{
	struct names nm = { 0 };
	size_t fixed = k->spec.by == SS_GROUP_PROCESS ? 1 : 2, total = k->nr_keys + fixed;
	struct named *v = malloc(total * sizeof(*v));
	char buf[SS_GROUP_LEN];

	k->of = malloc((k->nr_keys ? k->nr_keys : 1) * sizeof(*k->of));
	k->name = malloc(total * sizeof(*k->name));
	if (!v || !k->of || !k->name)
		goto nomem;
	for (size_t i = 0; i < total; i++) {
		long o;

		if (i < fixed)
			snprintf(buf, sizeof(buf), "%s", i ? SS_GROUP_INODES :
				 k->spec.by == SS_GROUP_PROCESS ? "unknown" : SS_GROUP_UNKNOWN_FILE);
		else
			key_name(k, i - fixed, buf, sizeof(buf));
		if ((o = names_add(&nm, buf)) < 0)
			goto nomem;
		v[i] = (struct named){ .off = (size_t)o, .key = i };
	}
	for (size_t i = 0; i < fixed; i++)
		k->name[k->nr_groups++] = v[i].off;
	qsort_r(v, total, sizeof(*v), by_name, nm.pool);
	for (size_t i = 0, g = 0; i < total; i++) {
		bool same = i && !strcmp(nm.pool + v[i].off, nm.pool + v[i - 1].off);

		if (!same) {
			g = k->nr_groups;
			/* a fixed group's name (sorted first among equals: lowest key) */
			if (v[i].key < fixed)
				g = v[i].key;
			else
				k->name[k->nr_groups++] = v[i].off;
		}
		if (v[i].key >= fixed)
			k->of[v[i].key - fixed] = (uint32_t)g;
	}
	k->pool = nm.pool;
	free(v);
	return 0;
nomem:
	free(nm.pool);
	free(v);
	return -ENOMEM;
}

struct ss_group_keys *ss_group_keys_new(const struct ss_group_spec *spec, const struct ss_trace *t)
{
	struct ss_group_keys *k = calloc(1, sizeof(*k));

	if (!k)
		return NULL;
	k->spec = *spec;
	k->t = t;
	if (spec->by == SS_GROUP_PROCESS) {
		k->nr_keys = ss_tasks_count(t->tasks) + 1;
	} else {
		if (!(k->fm = ss_filemap_new(t)))
			goto nomem;
		k->nr_keys = t->files->nr_files;
	}
	if (build_groups(k))
		goto nomem;
	return k;
nomem:
	ss_group_keys_free(k);
	errno = ENOMEM;
	return NULL;
}

void ss_group_keys_free(struct ss_group_keys *k)
{
	if (!k)
		return;
	ss_filemap_free(k->fm);
	free(k->of);
	free(k->pool);
	free(k->name);
	free(k);
}

size_t ss_group_keys_count(const struct ss_group_keys *k)
{
	return k->nr_groups;
}

const char *ss_group_keys_name(const struct ss_group_keys *k, size_t group)
{
	return group < k->nr_groups ? k->pool + k->name[group] : "?";
}

bool ss_group_keys_known(const struct ss_group_keys *k)
{
	return k->spec.by == SS_GROUP_PROCESS ? ss_tasks_count(k->t->tasks) > 0
					      : ss_filemap_known(k->fm);
}

bool ss_group_keys_constant(const struct ss_group_keys *k)
{
	return k->spec.by != SS_GROUP_PROCESS && ss_filemap_empty(k->fm);
}

size_t ss_group_keys_of(const struct ss_group_keys *k, const struct ss_event *ev,
			const struct ss_req_owner *who)
{
	struct ss_fm_hit hit;

	if (k->spec.by == SS_GROUP_PROCESS)
		return k->of[ss_tasks_find(k->t->tasks, who->pid, who->ts) + 1];
	switch (ss_filemap_lookup(k->fm, ev->dev, ev->sector, ev->nr_sector, &hit)) {
	case SS_FM_FILE:
	case SS_FM_DIR:
		return k->of[hit.entry];
	case SS_FM_INODE:
		return 1;
	default:
		return 0;
	}
}

/* Whether EV is inside SC (NULL: everything is). */
static bool in_scope(const struct ss_group_scope *sc, const struct ss_event *ev)
{
	return !sc || (ev->ts_ns >= sc->from_ns && ev->ts_ns <= sc->to_ns &&
		       (!sc->one_device || ev->dev == sc->device));
}

/* One trace's issued data requests per group into COUNT (k's groups). */
static int count_trace(struct ss_trace *t, const struct ss_group_scope *sc,
		       const struct ss_group_keys *k, const struct ss_task_spec *only,
		       uint64_t *count, char *err, size_t errlen)
{
	struct ss_evfilter *f = ss_task_spec_active(only) ? ss_evfilter_new(only, t) : NULL;
	struct ss_owner *o = ss_owner_new();
	const struct ss_event *ev;
	size_t n;
	int ret = -ENOMEM;

	if (!o || (ss_task_spec_active(only) && !f))
		goto out;
	ss_trace_rewind(t);
	while ((ret = ss_trace_next_batch(t, &ev, &n)) > 0) {
		for (size_t i = 0; i < n && ret > 0; i++) {
			struct ss_req_owner who = { .pid = ev[i].pid, .ts = ev[i].ts_ns };
			int keep = f ? ss_evfilter_keep(f, &ev[i]) : 1, r = 0;

			/* the owner table sees every event but completions (issues need none) */
			if (keep >= 0 && ev[i].type != SS_EV_COMPLETE)
				r = ss_owner_feed(o, &ev[i], &who);
			if (keep < 0 || r < 0) {
				ret = keep < 0 ? keep : r;
				continue;
			}
			if (!keep || r != 1 || !ss_event_has_data(&ev[i]) || !in_scope(sc, &ev[i]))
				continue;
			count[ss_group_keys_of(k, &ev[i], &who)]++;
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
	ss_evfilter_free(f);
	ss_owner_free(o);
	return ret < 0 ? ret : 0;
}

/* A group's count in one trace, for the merge over traces by name. */
struct tally {
	const char *name;
	uint64_t count;
};

static int by_tally_name(const void *a, const void *b)
{
	return strcmp(((const struct tally *)a)->name, ((const struct tally *)b)->name);
}

int ss_groups_rank(const struct ss_group_spec *spec, struct ss_trace *const *t,
		   const struct ss_group_scope *scope, int nr, const struct ss_task_spec *only,
		   unsigned top, struct ss_groups *out, char *err, size_t errlen)
{
	struct ss_group_keys **keys = calloc(nr > 0 ? (size_t)nr : 1, sizeof(*keys));
	struct tally *ty = NULL;
	size_t nt = 0, total = 0;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	out->spec = *spec;
	out->unknown_slot = spec->by != SS_GROUP_PROCESS;
	if (errlen)
		err[0] = 0;
	if (!keys) {
		ss_errf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	if (top < 1 || top > SS_GROUPS_MAX)
		top = SS_GROUPS_MAX;
	for (int i = 0; i < nr; i++) {
		if (!(keys[i] = ss_group_keys_new(spec, t[i]))) {
			ss_errf(err, errlen, "%s: out of memory", t[i]->path);
			ret = -ENOMEM;
			goto out;
		}
		total += ss_group_keys_count(keys[i]);
	}
	if (!(ty = calloc(total ? total : 1, sizeof(*ty)))) {
		ss_errf(err, errlen, "out of memory");
		ret = -ENOMEM;
		goto out;
	}
	for (int i = 0; i < nr && !ret; i++) {
		size_t ng = ss_group_keys_count(keys[i]);
		uint64_t *count = calloc(ng, sizeof(*count));

		if (!count) {
			ss_errf(err, errlen, "%s: out of memory", t[i]->path);
			ret = -ENOMEM;
			break;
		}
		ret = count_trace(t[i], scope ? &scope[i] : NULL, keys[i], only, count, err, errlen);
		for (size_t g = 0; g < ng && !ret; g++) {
			if (!count[g])
				continue;
			if (!g && out->unknown_slot)
				out->unknown += count[g];
			else
				ty[nt++] = (struct tally){ ss_group_keys_name(keys[i], g), count[g] };
		}
		free(count);
	}
	if (ret)
		goto out;
	/* the same name in several traces is one group */
	qsort(ty, nt, sizeof(*ty), by_tally_name);
	{
		size_t m = 0;

		for (size_t i = 0; i < nt; i++) {
			if (m && !strcmp(ty[m - 1].name, ty[i].name))
				ty[m - 1].count += ty[i].count;
			else
				ty[m++] = ty[i];
		}
		nt = m;
	}
	/* the biggest TOP by selection (few groups), ties by name so the order is stable */
	while (out->n < top) {
		long best = -1;

		for (size_t i = 0; i < nt; i++)
			if (ty[i].count && (best < 0 || ty[i].count > ty[best].count))
				best = (long)i;     /* sorted by name: the first of equals wins */
		if (best < 0)
			break;
		snprintf(out->name[out->n], SS_GROUP_LEN, "%s", ty[best].name);
		out->issues[out->n++] = ty[best].count;
		ty[best].count = 0;
	}
	for (size_t i = 0; i < nt; i++)
		out->other += ty[i].count;
out:
	free(ty);
	for (int i = 0; i < nr; i++)
		ss_group_keys_free(keys[i]);
	free(keys);
	return ret;
}

size_t ss_groups_slot(const struct ss_groups *g, const char *name)
{
	if (g->unknown_slot && !strcmp(name, SS_GROUP_UNKNOWN_FILE))
		return g->n + 1;
	for (size_t i = 0; i < g->n; i++)
		if (!strcmp(g->name[i], name))
			return i;
	return g->n;
}

size_t ss_groups_nr_slots(const struct ss_groups *g)
{
	return g->n + 1 + g->unknown_slot;
}

struct ss_group_slots {
	struct ss_group_keys *k;
	size_t *slot;               /* per group of k */
};

struct ss_group_slots *ss_group_slots_new(const struct ss_groups *g, const struct ss_trace *t)
{
	struct ss_group_slots *s = calloc(1, sizeof(*s));

	if (!s || !(s->k = ss_group_keys_new(&g->spec, t)) ||
	    !(s->slot = malloc(ss_group_keys_count(s->k) * sizeof(*s->slot)))) {
		ss_group_slots_free(s);
		errno = ENOMEM;
		return NULL;
	}
	for (size_t i = 0; i < ss_group_keys_count(s->k); i++)
		s->slot[i] = ss_groups_slot(g, ss_group_keys_name(s->k, i));
	return s;
}

void ss_group_slots_free(struct ss_group_slots *s)
{
	if (!s)
		return;
	ss_group_keys_free(s->k);
	free(s->slot);
	free(s);
}

size_t ss_group_slots_get(const struct ss_group_slots *s, const struct ss_event *ev,
			  const struct ss_req_owner *who)
{
	return s->slot[ss_group_keys_of(s->k, ev, who)];
}
