// SPDX-License-Identifier: GPL-2.0-or-later
/* Metadata pass and time-ordered merge of an importer's event sources (see import_merge.h). */
#include <errno.h>
#include <stdlib.h>

#include "import_merge.h"
#include "seekscope/model.h"

#define BATCH 2048   /* events per batch: 96 KiB, amortises the merge's calls */

struct ss_merge {
	ss_merge_next_fn next;
	void *ctx;
	size_t nr_src;
	struct ss_event *cur;   /* per source: its pending event, if it is in the heap */
	size_t *heap;           /* sources with a pending event, min-heap on (ts, index) */
	size_t nr_heap;
	uint64_t last_ts;       /* delivered so far: keeps the output non-decreasing */
	uint64_t delivered;     /* events streamed since the last rewind */
	struct ss_event out[BATCH];
};

struct ss_merge *ss_merge_new(size_t nr_src, ss_merge_next_fn next, void *ctx)
{
	struct ss_merge *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->next = next;
	m->ctx = ctx;
	m->nr_src = nr_src;
	m->cur = calloc(nr_src ? nr_src : 1, sizeof(*m->cur));
	m->heap = calloc(nr_src ? nr_src : 1, sizeof(*m->heap));
	if (!m->cur || !m->heap) {
		ss_merge_free(m);
		return NULL;
	}
	return m;
}

void ss_merge_free(struct ss_merge *m)
{
	if (!m)
		return;
	free(m->cur);
	free(m->heap);
	free(m);
}

/* ---- the heap */

static bool less(const struct ss_merge *m, size_t a, size_t b)
{
	const struct ss_event *x = &m->cur[a], *y = &m->cur[b];

	return x->ts_ns < y->ts_ns || (x->ts_ns == y->ts_ns && a < b);
}

static void sift_down(struct ss_merge *m, size_t pos)
{
	size_t *heap = m->heap, n = m->nr_heap;

	for (;;) {
		size_t l = 2 * pos + 1, s = pos, tmp;

		if (l < n && less(m, heap[l], heap[s]))
			s = l;
		if (l + 1 < n && less(m, heap[l + 1], heap[s]))
			s = l + 1;
		if (s == pos)
			return;
		tmp = heap[pos];
		heap[pos] = heap[s];
		heap[s] = tmp;
		pos = s;
	}
}

/* ---- the metadata pass */

int ss_merge_scan(struct ss_merge *m, size_t src, struct ss_trace *t, struct ss_merge_count *c,
		  char *err, size_t errlen)
{
	uint64_t last = 0;
	uint32_t last_dev = 0;
	struct ss_event ev;
	int ret;

	c->events = c->backwards = 0;
	t->has_extents = true;
	for (ret = m->next(m->ctx, src, true, &ev, err, errlen); ret > 0;
	     ret = m->next(m->ctx, src, false, &ev, err, errlen)) {
		if (ev.ts_ns < last)
			c->backwards++;
		last = ev.ts_ns;
		if (!t->nr_events || ev.ts_ns < t->first_ts)
			t->first_ts = ev.ts_ns;
		if (ev.ts_ns > t->last_ts)
			t->last_ts = ev.ts_ns;
		t->nr_events++;
		c->events++;
		if ((!t->nr_devices || ev.dev != last_dev) &&
		    (ret = ss_trace_add_bare_device(t, ev.dev)))
			return ret;
		last_dev = ev.dev;
		/* where the data went, so that a plot need not read the trace to find out */
		if (ev.type == SS_EV_ISSUE && ss_event_has_data(&ev) &&
		    (ret = ss_trace_add_extent(t, &ev)))
			return ret;
	}
	return ret;
}

static int cmp_devices(const void *a, const void *b)
{
	const struct ss_rec_device *x = a, *y = b;

	return x->dev < y->dev ? -1 : x->dev > y->dev;
}

int ss_merge_start(struct ss_merge *m, struct ss_trace *t, char *err, size_t errlen)
{
	int ret;

	if (t->nr_devices)
		qsort(t->devices, t->nr_devices, sizeof(*t->devices), cmp_devices);
	ret = ss_merge_rewind(m, t);
	if (ret)
		ss_errf(err, errlen, "%s", ss_trace_error(t));
	return ret;
}

/* ---- streaming */

int ss_merge_rewind(struct ss_merge *m, struct ss_trace *t)
{
	char err[200] = "";

	m->nr_heap = 0;
	m->last_ts = 0;
	m->delivered = 0;
	for (size_t i = 0; i < m->nr_src; i++) {
		int ret = m->next(m->ctx, i, true, &m->cur[i], err, sizeof(err));

		if (ret < 0) {
			ss_trace_set_error(t, "%s", err);
			return ret;
		}
		if (ret)
			m->heap[m->nr_heap++] = i;
	}
	for (size_t i = m->nr_heap / 2; i-- > 0;)
		sift_down(m, i);
	return 0;
}

int ss_merge_next_batch(struct ss_merge *m, struct ss_trace *t, const struct ss_event **ev,
			size_t *n)
{
	size_t k = 0;
	char err[200] = "";

	while (k < BATCH && m->nr_heap) {
		size_t src = m->heap[0];
		int ret;

		m->out[k] = m->cur[src];
		/* a source that steps back in time, or clocks of different buffers: keep order */
		if (m->out[k].ts_ns < m->last_ts)
			m->out[k].ts_ns = m->last_ts;
		m->last_ts = m->out[k].ts_ns;
		k++;
		ret = m->next(m->ctx, src, false, &m->cur[src], err, sizeof(err));
		if (ret < 0) {
			ss_trace_set_error(t, "%s", err);
			return ret;
		}
		if (!ret)
			m->heap[0] = m->heap[--m->nr_heap];
		sift_down(m, 0);
	}
	if (!k) {
		/*
		 * The merge reads the sources interleaved, the metadata pass one after the other.
		 * Both see the same events, unless the input changed in between or a library
		 * reads a damaged file differently the second time (libtracecmd, when it cannot
		 * mmap, reads pages through one shared file position): say so rather than hand
		 * out a silently different trace.
		 */
		if (m->delivered != t->nr_events) {
			ss_trace_set_error(t, "damaged %s file: %llu events on the second read, %llu "
					   "on the first", t->format,
					   (unsigned long long)m->delivered,
					   (unsigned long long)t->nr_events);
			return -EIO;
		}
		return 0;
	}
	m->delivered += k;
	*ev = m->out;
	*n = k;
	return 1;
}
