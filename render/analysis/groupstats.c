// SPDX-License-Identifier: GPL-2.0-or-later
/* Per-group figures (see groupstats.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "groupstats.h"

struct ss_group_stats {
	struct ss_group_keys *k;
	struct ss_group_row *rows;  /* per group of k until finished, then the sorted rows */
	size_t nr;
	bool constant;              /* every request in row 0: no lookup (a trace without map) */
	bool finished;
};

struct ss_group_stats *ss_group_stats_new(const struct ss_group_spec *spec,
					  const struct ss_trace *t)
{
	struct ss_group_stats *g;

	if (spec->by == SS_GROUP_PROCESS) {    /* per process: procstats.h */
		errno = EINVAL;
		return NULL;
	}
	g = calloc(1, sizeof(*g));
	if (!g || !(g->k = ss_group_keys_new(spec, t)))
		goto nomem;
	g->nr = ss_group_keys_count(g->k);
	g->constant = ss_group_keys_constant(g->k);
	if (!(g->rows = calloc(g->nr, sizeof(*g->rows))))
		goto nomem;
	for (size_t i = 0; i < g->nr; i++)
		g->rows[i] = (struct ss_group_row){ .name = ss_group_keys_name(g->k, i), .group = i };
	return g;
nomem:
	ss_group_stats_free(g);
	errno = ENOMEM;
	return NULL;
}

void ss_group_stats_free(struct ss_group_stats *g)
{
	if (!g)
		return;
	ss_group_keys_free(g->k);
	free(g->rows);
	free(g);
}

void ss_group_stats_issue(struct ss_group_stats *g, const struct ss_event *ev, bool seek)
{
	struct ss_group_row *r;

	if (g->finished)
		return;
	r = &g->rows[g->constant ? 0 : ss_group_keys_of(g->k, ev, NULL)];
	r->issues++;
	r->seeks += seek;
}

void ss_group_stats_io(struct ss_group_stats *g, uint32_t dev, uint64_t sector,
		       uint32_t nr_sector)
{
	struct ss_event ev = { .dev = dev, .sector = sector, .nr_sector = nr_sector };
	struct ss_group_row *r;

	if (g->finished)
		return;
	r = &g->rows[g->constant ? 0 : ss_group_keys_of(g->k, &ev, NULL)];
	r->ios++;
	r->bytes += (uint64_t)nr_sector * 512;
}

static int cmp_rows(const void *a, const void *b)
{
	const struct ss_group_row *x = a, *y = b;

	if (x->ios != y->ios)
		return x->ios > y->ios ? -1 : 1;
	if (x->seeks != y->seeks)
		return x->seeks > y->seeks ? -1 : 1;
	return strcmp(x->name, y->name);
}

void ss_group_stats_finish(struct ss_group_stats *g)
{
	size_t n = 0;

	if (g->finished)
		return;
	g->finished = true;
	for (size_t i = 0; i < g->nr; i++)
		if (g->rows[i].ios || g->rows[i].issues)
			g->rows[n++] = g->rows[i];
	g->nr = n;
	if (n)
		qsort(g->rows, n, sizeof(*g->rows), cmp_rows);
}

size_t ss_group_stats_count(const struct ss_group_stats *g)
{
	return g->finished ? g->nr : 0;
}

const struct ss_group_row *ss_group_stats_row(const struct ss_group_stats *g, size_t i)
{
	return i < ss_group_stats_count(g) ? &g->rows[i] : NULL;
}

bool ss_group_stats_mapped(const struct ss_group_stats *g)
{
	return ss_group_keys_known(g->k);
}
