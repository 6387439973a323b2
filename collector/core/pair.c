// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Request pairing (see pair.h): a chained hash table on (dev, sector) for requests with data,
 * a FIFO per device for data-less ones (flushes), both drawing entries from one pool of at most
 * max_inflight entries addressed by index, so growing the pool never invalidates a link.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lines.h"
#include "seekscope/model.h"
#include "pair.h"

#define NIL UINT32_MAX

struct entry {
	uint64_t sector;
	uint64_t ts;
	uint64_t tag;          /* the caller's (ss_pair_feed_tag) */
	uint32_t dev;
	uint32_t nr;
	uint32_t next;         /* chain in a hash bucket or a flush FIFO, or the free list */
	uint32_t pid;          /* of the issue: who the completion is attributed to */
	uint16_t flags;
};

struct devq {
	uint32_t dev;
	uint32_t fhead, ftail; /* data-less requests in issue order */
	size_t inflight;
};

struct ss_pair {
	size_t max;
	struct entry *e;
	uint32_t nr_e, cap_e;  /* entries ever used / allocated */
	uint32_t free;         /* free list */
	uint32_t *bucket;
	size_t nr_buckets;     /* power of two */
	struct devq *dq;
	size_t nr_dq, cap_dq;
	size_t inflight;
	struct ss_pair_stats st;
};

static size_t hash(uint32_t dev, uint64_t sector, size_t nb)
{
	uint64_t h = (sector ^ ((uint64_t)dev << 40) ^ dev) * 0x9e3779b97f4a7c15ull;

	return (size_t)(h >> 32) & (nb - 1);
}

struct ss_pair *ss_pair_new(size_t max_inflight)
{
	/* on lines of its own, as its tables: a read-ahead thread may pair while another thread
	 * writes what is allocated around them (lines.h) */
	struct ss_pair *p = ss_lines_alloc(sizeof(*p));

	if (!p)
		return NULL;
	p->max = max_inflight ? max_inflight : SS_PAIR_MAX_INFLIGHT_DEFAULT;
	if (p->max >= NIL)
		p->max = NIL - 1;
	p->nr_buckets = 256;
	p->bucket = ss_lines_alloc(p->nr_buckets * sizeof(*p->bucket));
	if (!p->bucket) {
		free(p);
		return NULL;
	}
	ss_pair_reset(p);
	return p;
}

void ss_pair_free(struct ss_pair *p)
{
	if (!p)
		return;
	free(p->e);
	free(p->bucket);
	free(p->dq);
	free(p);
}

void ss_pair_reset(struct ss_pair *p)
{
	for (size_t i = 0; i < p->nr_buckets; i++)
		p->bucket[i] = NIL;
	p->nr_e = 0;
	p->free = NIL;
	p->nr_dq = 0;
	p->inflight = 0;
	memset(&p->st, 0, sizeof(p->st));
}

/* A queue for device DEV, seen first (out of line: get_dq stays small enough to inline). */
static __attribute__((noinline)) struct devq *new_dq(struct ss_pair *p, uint32_t dev)
{
	if (p->nr_dq == p->cap_dq) {
		size_t cap = p->cap_dq ? p->cap_dq * 2 : 4;
		struct devq *d = ss_lines_grow(p->dq, p->cap_dq * sizeof(*d), cap * sizeof(*d));

		if (!d)
			return NULL;
		p->dq = d;
		p->cap_dq = cap;
	}
	p->dq[p->nr_dq] = (struct devq){ .dev = dev, .fhead = NIL, .ftail = NIL };
	return &p->dq[p->nr_dq++];
}

static struct devq *get_dq(struct ss_pair *p, uint32_t dev, bool create)
{
	for (size_t i = 0; i < p->nr_dq; i++)
		if (p->dq[i].dev == dev)
			return &p->dq[i];
	return create ? new_dq(p, dev) : NULL;
}

/* Double the bucket array once the load factor passes 1, so chains stay short. */
static void maybe_grow_buckets(struct ss_pair *p)
{
	size_t nb = p->nr_buckets * 2;
	uint32_t *b;

	if (p->inflight <= p->nr_buckets)
		return;
	b = ss_lines_alloc(nb * sizeof(*b));
	if (!b)
		return;             /* longer chains, still correct */
	for (size_t i = 0; i < nb; i++)
		b[i] = NIL;
	/* Re-link every chain keeping its order (FIFO among equal keys). */
	uint32_t *tail = malloc(nb * sizeof(*tail));
	if (!tail) {
		free(b);
		return;
	}
	for (size_t i = 0; i < p->nr_buckets; i++) {
		uint32_t x = p->bucket[i];

		while (x != NIL) {
			uint32_t nx = p->e[x].next;
			size_t h = hash(p->e[x].dev, p->e[x].sector, nb);

			p->e[x].next = NIL;
			if (b[h] == NIL)
				b[h] = x;
			else
				p->e[tail[h]].next = x;
			tail[h] = x;
			x = nx;
		}
	}
	free(tail);
	free(p->bucket);
	p->bucket = b;
	p->nr_buckets = nb;
}

static uint32_t alloc_entry(struct ss_pair *p)
{
	uint32_t x;

	if (p->free != NIL) {
		x = p->free;
		p->free = p->e[x].next;
		return x;
	}
	if (p->nr_e == p->cap_e) {
		size_t cap = p->cap_e ? (size_t)p->cap_e * 2 : 256;
		struct entry *e;

		if (cap > p->max)
			cap = p->max;
		if (cap <= p->cap_e)
			return NIL;
		e = ss_lines_grow(p->e, p->cap_e * sizeof(*e), cap * sizeof(*e));
		if (!e)
			return NIL;
		p->e = e;
		p->cap_e = (uint32_t)cap;
	}
	return p->nr_e++;
}

static void free_entry(struct ss_pair *p, uint32_t x)
{
	p->e[x].next = p->free;
	p->free = x;
}

static void chain_append(uint32_t *head, struct entry *e, uint32_t x)
{
	uint32_t *link = head;

	while (*link != NIL)
		link = &e[*link].next;
	e[x].next = NIL;
	*link = x;
}

static int on_issue(struct ss_pair *p, const struct ss_event *ev, uint64_t tag)
{
	struct devq *dq;
	uint32_t x;

	p->st.issued++;
	dq = get_dq(p, ev->dev, true);
	if (!dq) {
		p->st.overflow++;
		return -ENOMEM;
	}
	if (p->inflight >= p->max || (x = alloc_entry(p)) == NIL) {
		p->st.overflow++;
		return p->inflight >= p->max ? 0 : -ENOMEM;
	}
	p->e[x] = (struct entry){ .sector = ev->sector, .ts = ev->ts_ns, .dev = ev->dev,
				  .nr = ev->nr_sector, .flags = ev->flags, .next = NIL,
				  .pid = ev->pid, .tag = tag };
	if (ss_event_has_data(ev)) {
		chain_append(&p->bucket[hash(ev->dev, ev->sector, p->nr_buckets)], p->e, x);
	} else {
		if (dq->ftail == NIL)
			dq->fhead = x;
		else
			p->e[dq->ftail].next = x;
		dq->ftail = x;
	}
	dq->inflight++;
	p->inflight++;
	if (p->inflight > p->st.max_depth)
		p->st.max_depth = p->inflight;
	maybe_grow_buckets(p);
	return 0;
}

/* Unlink the entry that *link points at from a hash chain; returns its index. */
static uint32_t unlink_at(struct ss_pair *p, uint32_t *link)
{
	uint32_t x = *link;

	*link = p->e[x].next;
	p->e[x].next = NIL;
	return x;
}

static void dec_inflight(struct ss_pair *p, uint32_t dev)
{
	struct devq *dq = get_dq(p, dev, false);

	if (dq && dq->inflight)
		dq->inflight--;
	if (p->inflight)
		p->inflight--;
}

/* Remove the newest data-less request of a device's FIFO; NIL if empty. */
static uint32_t flush_pop_newest(struct ss_pair *p, struct devq *dq)
{
	uint32_t x = dq->fhead, prev = NIL;

	if (x == NIL)
		return NIL;
	while (p->e[x].next != NIL) {
		prev = x;
		x = p->e[x].next;
	}
	if (prev == NIL)
		dq->fhead = NIL;
	else
		p->e[prev].next = NIL;
	dq->ftail = prev;
	return x;
}

static void on_requeue(struct ss_pair *p, const struct ss_event *ev)
{
	uint32_t x = NIL;

	if (ss_event_has_data(ev)) {
		uint32_t *link = &p->bucket[hash(ev->dev, ev->sector, p->nr_buckets)], *found = NULL;

		for (; *link != NIL; link = &p->e[*link].next)
			if (p->e[*link].dev == ev->dev && p->e[*link].sector == ev->sector &&
			    p->e[*link].nr == ev->nr_sector)
				found = link;       /* keep going: the newest one was requeued */
		if (found)
			x = unlink_at(p, found);
	} else {
		struct devq *dq = get_dq(p, ev->dev, false);

		if (dq)
			x = flush_pop_newest(p, dq);
	}
	if (x == NIL) {
		p->st.requeue_unmatched++;
		return;
	}
	free_entry(p, x);
	dec_inflight(p, ev->dev);
	p->st.requeued++;
}

void ss_io_unmatched(struct ss_io *io, const struct ss_event *ev)
{
	*io = (struct ss_io){ .dev = ev->dev, .flags = ev->flags, .sector = ev->sector,
			      .nr_sector = ev->nr_sector, .error = ev->error,
			      .complete_ts = ev->ts_ns, .has_data = ss_event_has_data(ev) };
}

void ss_io_match(struct ss_io *io, uint64_t issue_ts, uint32_t pid, uint64_t tag,
		 uint16_t flags)
{
	io->matched = true;
	io->issue_ts = issue_ts;
	io->issue_pid = pid;
	io->issue_tag = tag;
	if (!io->flags)
		io->flags = flags;
}

static void on_complete(struct ss_pair *p, const struct ss_event *ev, struct ss_io *io)
{
	uint32_t x = NIL;
	bool keep = false;

	p->st.completed++;
	ss_io_unmatched(io, ev);
	if (io->has_data) {
		uint32_t *head = &p->bucket[hash(ev->dev, ev->sector, p->nr_buckets)];
		uint32_t *link, *partial = NULL;

		for (link = head; *link != NIL; link = &p->e[*link].next) {
			struct entry *e = &p->e[*link];

			if (e->dev != ev->dev || e->sector != ev->sector)
				continue;
			if (e->nr == ev->nr_sector)
				break;
			if (e->nr > ev->nr_sector && !partial)
				partial = link;
		}
		if (*link != NIL) {
			x = unlink_at(p, link);
		} else if (partial) {
			/* the rest of the request stays in flight under its new start sector */
			x = unlink_at(p, partial);
			keep = true;
		}
	} else {
		struct devq *dq = get_dq(p, ev->dev, false);

		if (dq && dq->fhead != NIL) {
			x = dq->fhead;
			dq->fhead = p->e[x].next;
			if (dq->fhead == NIL)
				dq->ftail = NIL;
		}
	}
	if (x == NIL) {
		p->st.unmatched++;
		return;
	}
	ss_io_match(io, p->e[x].ts, p->e[x].pid, p->e[x].tag, p->e[x].flags);
	p->st.matched++;
	if (keep) {
		struct entry *e = &p->e[x];

		p->st.partial++;
		e->sector += ev->nr_sector;
		e->nr -= ev->nr_sector;
		chain_append(&p->bucket[hash(e->dev, e->sector, p->nr_buckets)], p->e, x);
		return;
	}
	free_entry(p, x);
	dec_inflight(p, ev->dev);
}

int ss_pair_feed(struct ss_pair *p, const struct ss_event *ev, struct ss_io *io)
{
	return ss_pair_feed_tag(p, ev, 0, io);
}

int ss_pair_feed_tag(struct ss_pair *p, const struct ss_event *ev, uint64_t tag,
		     struct ss_io *io)
{
	switch (ev->type) {
	case SS_EV_ISSUE:
		return on_issue(p, ev, tag);
	case SS_EV_REQUEUE:
		on_requeue(p, ev);
		return 0;
	case SS_EV_COMPLETE:
		on_complete(p, ev, io);
		return 1;
	default:
		return 0;
	}
}

size_t ss_pair_inflight(const struct ss_pair *p)
{
	return p->inflight;
}

size_t ss_pair_inflight_dev(const struct ss_pair *p, uint32_t dev)
{
	for (size_t i = 0; i < p->nr_dq; i++)
		if (p->dq[i].dev == dev)
			return p->dq[i].inflight;
	return 0;
}

/* The entries of the chain from X whose issue is stamped in (AFTER, UPTO]. */
static size_t count_issued(const struct ss_pair *p, uint32_t x, uint64_t after, uint64_t upto)
{
	size_t n = 0;

	for (; x != NIL; x = p->e[x].next)
		n += p->e[x].ts > after && p->e[x].ts <= upto;
	return n;
}

size_t ss_pair_inflight_issued(const struct ss_pair *p, uint64_t after, uint64_t upto)
{
	size_t n = 0;

	for (size_t b = 0; b < p->nr_buckets; b++)
		n += count_issued(p, p->bucket[b], after, upto);
	for (size_t i = 0; i < p->nr_dq; i++)
		n += count_issued(p, p->dq[i].fhead, after, upto);
	return n;
}

const struct ss_pair_stats *ss_pair_stats(const struct ss_pair *p)
{
	return &p->st;
}
