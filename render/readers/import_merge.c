// SPDX-License-Identifier: GPL-2.0-or-later
/* Metadata pass and time-ordered merge of an importer's event sources (see import_merge.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "import_merge.h"
#include "seekscope/model.h"

#define BATCH 2048   /* events per batch: 96 KiB, amortises the merge's calls */
#define RUN   128    /* events decoded from a source at a time: 6 KiB a source */

/* A source's decoded events not yet delivered: run[pos..len). */
struct source {
	struct ss_event run[RUN];
	size_t pos, len;
	bool ended;             /* the last read came back short: nothing follows */
};

struct ss_merge {
	ss_merge_next_fn next;
	void *ctx;
	size_t nr_src;
	struct source *src;
	size_t *heap;           /* sources with a pending event, min-heap on (ts, index) */
	size_t nr_heap;
	uint64_t last_ts;       /* delivered so far: keeps the output non-decreasing */
	uint64_t delivered;     /* events streamed since the last rewind */
	int (*end)(void *ctx, struct ss_trace *t);   /* ss_merge_set_end(), until it is done */
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
	m->src = calloc(nr_src ? nr_src : 1, sizeof(*m->src));
	m->heap = calloc(nr_src ? nr_src : 1, sizeof(*m->heap));
	if (!m->src || !m->heap) {
		ss_merge_free(m);
		return NULL;
	}
	return m;
}

void ss_merge_free(struct ss_merge *m)
{
	if (!m)
		return;
	free(m->src);
	free(m->heap);
	free(m);
}

/* Decode source I's next run (from its start with FIRST): its length, 0 at the end, -errno. */
static long refill(struct ss_merge *m, size_t i, bool first, char *err, size_t errlen)
{
	struct source *s = &m->src[i];
	long n = 0;

	s->pos = s->len = 0;
	if (first)
		s->ended = false;
	if (!s->ended) {
		n = m->next(m->ctx, i, first, s->run, RUN, err, errlen);
		if (n < 0)
			return n;
		s->len = (size_t)n;
		s->ended = n < RUN;
	}
	return n;
}

/* ---- the heap */

static const struct ss_event *head(const struct ss_merge *m, size_t i)
{
	return &m->src[i].run[m->src[i].pos];
}

/* Source A's next event comes before source B's. */
static bool less(const struct ss_merge *m, size_t a, size_t b)
{
	uint64_t x = head(m, a)->ts_ns, y = head(m, b)->ts_ns;

	return x < y || (x == y && a < b);
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

void ss_merge_scan_begin(struct ss_merge_scanner *sc, struct ss_trace *t)
{
	*sc = (struct ss_merge_scanner){ .t = t, .min = UINT64_MAX };
	t->has_extents = true;
}

void ss_merge_scan_begin_deferred(struct ss_merge_scanner *sc)
{
	*sc = (struct ss_merge_scanner){ .min = UINT64_MAX };
}

void ss_merge_scan_free(struct ss_merge_scanner *sc)
{
	free(sc->devs);
	free(sc->exts);
	free(sc->notes);
	sc->devs = NULL;
	sc->exts = NULL;
	sc->notes = NULL;
	sc->nr_devs = sc->nr_exts = sc->nr_notes = 0;
	sc->cap_devs = sc->cap_exts = sc->cap_notes = 0;
}

/* Room for one more of *NR items of SIZE in *ARR: 0 or -ENOMEM. */
static int grow(void *arrp, size_t nr, size_t *cap, size_t size)
{
	void **arr = arrp;
	size_t want = *cap ? *cap * 2 : 16;
	void *p;

	if (nr < *cap)
		return 0;
	if (!(p = reallocarray(*arr, want, size)))
		return -ENOMEM;
	*arr = p;
	*cap = want;
	return 0;
}

int ss_merge_scan_device(struct ss_merge_scanner *sc, uint32_t dev)
{
	sc->last_dev = dev;
	sc->has_dev = true;
	if (sc->t)
		return ss_trace_add_bare_device(sc->t, dev);
	for (size_t i = 0; i < sc->nr_devs; i++)
		if (sc->devs[i] == dev)
			return 0;
	if (grow(&sc->devs, sc->nr_devs, &sc->cap_devs, sizeof(*sc->devs)))
		return -ENOMEM;
	sc->devs[sc->nr_devs++] = dev;
	return 0;
}

/* The extent kept here, into the trace's (or the deferred list, widened as the trace's). */
static int add_extent(struct ss_merge_scanner *sc, const struct ss_extent *e)
{
	size_t i = 0;

	if (sc->t)
		return ss_trace_add_extent(sc->t, e);
	while (i < sc->nr_exts && sc->exts[i].dev != e->dev)
		i++;
	if (i == sc->nr_exts) {
		if (grow(&sc->exts, sc->nr_exts, &sc->cap_exts, sizeof(*sc->exts)))
			return -ENOMEM;
		sc->exts[sc->nr_exts++] = *e;
		return 0;
	}
	if (e->lo < sc->exts[i].lo)
		sc->exts[i].lo = e->lo;
	if (e->hi > sc->exts[i].hi)
		sc->exts[i].hi = e->hi;
	return 0;
}

/* Widen the trace's extents by the one kept here. */
static int flush_extent(struct ss_merge_scanner *sc)
{
	int ret = sc->has_ext ? add_extent(sc, &sc->ext) : 0;

	sc->has_ext = false;
	return ret;
}

int ss_merge_scan_task_name(struct ss_merge_scanner *sc, uint64_t ts, uint32_t pid,
			    const char *comm, size_t len)
{
	struct ss_merge_note *n;

	if (sc->t)
		return ss_trace_add_task_name(sc->t, ts, pid, comm, len);
	if (sc->nr_notes >= SS_MERGE_DEFERRED_NOTES)
		return -EOVERFLOW;
	if (grow(&sc->notes, sc->nr_notes, &sc->cap_notes, sizeof(*sc->notes)))
		return -ENOMEM;
	n = &sc->notes[sc->nr_notes++];
	n->ts = ts;
	n->pid = pid;
	n->len = (uint16_t)(len < sizeof(n->comm) ? len : sizeof(n->comm));
	memcpy(n->comm, comm, n->len);
	return 0;
}

int ss_merge_scan_replay(struct ss_merge_scanner *sc, struct ss_trace *t, bool *in_notes)
{
	int ret = 0;

	*in_notes = false;
	/* as a direct scan: the devices as they came, then the extents (a device's first
	 * extent follows its first event), then the notes; each kind keeps its order */
	t->has_extents = true;
	for (size_t i = 0; !ret && i < sc->nr_devs; i++)
		ret = ss_trace_add_bare_device(t, sc->devs[i]);
	for (size_t i = 0; !ret && i < sc->nr_exts; i++)
		ret = ss_trace_add_extent(t, &sc->exts[i]);
	for (size_t i = 0; !ret && i < sc->nr_notes; i++)
		*in_notes = (ret = ss_trace_add_task_name(t, sc->notes[i].ts, sc->notes[i].pid,
							  sc->notes[i].comm, sc->notes[i].len));
	ss_merge_scan_free(sc);
	sc->t = t;
	return ret;
}

int ss_merge_scan_extent(struct ss_merge_scanner *sc, uint32_t dev, uint64_t lo, uint64_t hi)
{
	int ret = flush_extent(sc);

	sc->ext = (struct ss_extent){ dev, lo, hi };
	sc->has_ext = true;
	return ret;
}

int ss_merge_scan_end(struct ss_merge_scanner *sc, struct ss_merge_count *c)
{
	struct ss_trace *t = sc->t;

	if (sc->events) {
		if (!t->nr_events || sc->min < t->first_ts)
			t->first_ts = sc->min;
		if (sc->max > t->last_ts)
			t->last_ts = sc->max;
		t->nr_events += sc->events;
	}
	c->events = sc->events;
	c->backwards = sc->backwards;
	return flush_extent(sc);
}

int ss_merge_scan(struct ss_merge *m, size_t src, struct ss_trace *t, struct ss_merge_count *c,
		  char *err, size_t errlen)
{
	struct source *s = &m->src[src];
	struct ss_merge_scanner sc;
	long n;
	int ret;

	ss_merge_scan_begin(&sc, t);
	for (n = refill(m, src, true, err, errlen); n > 0; n = refill(m, src, false, err, errlen))
		for (size_t i = 0; i < (size_t)n; i++)
			if ((ret = ss_merge_scan_event(&sc, &s->run[i])))
				return ret;
	return n < 0 ? (int)n : ss_merge_scan_end(&sc, c);
}

static int cmp_devices(const void *a, const void *b)
{
	const struct ss_rec_device *x = a, *y = b;

	return x->dev < y->dev ? -1 : x->dev > y->dev;
}

void ss_merge_set_end(struct ss_merge *m, int (*end)(void *ctx, struct ss_trace *t))
{
	m->end = end;
}

void ss_merge_sort_devices(struct ss_trace *t)
{
	if (t->nr_devices)
		qsort(t->devices, t->nr_devices, sizeof(*t->devices), cmp_devices);
}

int ss_merge_start(struct ss_merge *m, struct ss_trace *t, char *err, size_t errlen)
{
	int ret;

	ss_merge_sort_devices(t);
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
		long n = refill(m, i, true, err, sizeof(err));

		if (n < 0) {
			ss_trace_set_error(t, "%s", err);
			return (int)n;
		}
		if (n)
			m->heap[m->nr_heap++] = i;
	}
	for (size_t i = m->nr_heap / 2; i-- > 0;)
		sift_down(m, i);
	return 0;
}

/*
 * The time up to which (inclusive) the top source's events go out before another source's
 * next one is due: that of the smaller of the heap's second level, less one where that
 * source wins ties (a lower index); the end of time when no other source is left.
 */
static uint64_t top_until(const struct ss_merge *m)
{
	size_t top = m->heap[0], other;
	uint64_t until;

	if (m->nr_heap < 2)
		return UINT64_MAX;
	other = m->heap[1];
	if (m->nr_heap > 2 && less(m, m->heap[2], other))
		other = m->heap[2];
	until = head(m, other)->ts_ns;
	/* the top comes before OTHER, so its next event is earlier when OTHER wins ties */
	return top < other ? until : until - 1;
}

int ss_merge_next_batch(struct ss_merge *m, struct ss_trace *t, const struct ss_event **ev,
			size_t *n)
{
	struct ss_event *out = m->out;
	uint64_t last = m->last_ts;
	size_t k = 0;
	char err[200] = "";

	while (k < BATCH && m->nr_heap) {
		size_t top = m->heap[0];
		struct source *s = &m->src[top];
		const struct ss_event *run = s->run;
		uint64_t until = top_until(m);
		size_t pos = s->pos, stop = s->len;

		if (stop - pos > BATCH - k)
			stop = pos + BATCH - k;
		/* the top source's events until another's is due (its first one is) */
		do {
			struct ss_event *o = &out[k++];

			*o = run[pos++];
			/* a source that steps back in time, or clocks of different buffers */
			if (o->ts_ns < last)
				o->ts_ns = last;
			last = o->ts_ns;
		} while (pos < stop && run[pos].ts_ns <= until);
		s->pos = pos;
		if (pos == s->len) {
			long got = refill(m, top, false, err, sizeof(err));

			if (got < 0) {
				m->last_ts = last;
				ss_trace_set_error(t, "%s", err);
				return (int)got;
			}
			if (!got)
				m->heap[0] = m->heap[--m->nr_heap];
		}
		if (m->nr_heap == 2) {          /* two sources (or two left): no heap walk */
			size_t a = m->heap[0], b = m->heap[1];

			if (less(m, b, a)) {
				m->heap[0] = b;
				m->heap[1] = a;
			}
		} else {
			sift_down(m, 0);
		}
	}
	m->last_ts = last;
	if (!k && m->end) {
		int ret = m->end(m->ctx, t);

		if (ret)
			return ret;
		m->end = NULL;
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
