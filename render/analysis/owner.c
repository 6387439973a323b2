// SPDX-License-Identifier: GPL-2.0-or-later
/* Whose request is it (see owner.h). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lines.h"
#include "owner.h"

/*
 * A submitter seen at (dev, sector).  32 bytes, two to a cache line and none across two: the
 * tables are written at random places once per request, a cache miss each (an issued
 * request's owner was kept in a third table, keyed by the issue's time, until it travelled
 * with the pairing: pair.h's tag) (was 40 bytes, with struct
 * ss_req_owner's padding inside, and calloc's 16-byte alignment; a 200,000-I/O blktrace
 * report's misses writing them in a simulated 1 MiB cache: 238,000 -> 98,000).
 */
struct slot {
	uint64_t key;              /* the sector */
	uint64_t ts;               /* when it submitted */
	uint32_t dev;
	uint32_t pid;
	bool used;
};

_Static_assert(sizeof(struct slot) == 32, "owner slots are 32 bytes");

enum { QUEUED, INSERTED, NR_TABLES };

struct ss_owner {
	struct slot *t[NR_TABLES];      /* in mem[], on a cache line's start */
	void *mem[NR_TABLES];
};

struct ss_owner *ss_owner_new(void)
{
	/* on lines of its own (lines.h): noted in a read-ahead thread */
	return ss_lines_alloc(sizeof(struct ss_owner));
}

void ss_owner_free(struct ss_owner *o)
{
	if (!o)
		return;
	for (int i = 0; i < NR_TABLES; i++)
		free(o->mem[i]);
	free(o);
}

void ss_owner_reset(struct ss_owner *o)
{
	for (int i = 0; i < NR_TABLES; i++)
		if (o->t[i])
			memset(o->t[i], 0, SS_OWNER_SLOTS * sizeof(struct slot));
}

static struct slot *slot_of(const struct ss_owner *o, int table, uint32_t dev, uint64_t key)
{
	uint64_t h = (key ^ ((uint64_t)dev << 32)) * 0x9e3779b97f4a7c15ull;

	return &o->t[table][(h >> 40) & (SS_OWNER_SLOTS - 1)];
}

/* Tables are allocated when first written: a trace without QUEUE and INSERT events costs
 * nothing (its requests belong to their issuers).  -ENOMEM when one cannot be. */
static int put(struct ss_owner *o, int table, uint32_t dev, uint64_t key,
	       const struct ss_req_owner *who)
{
	if (!o->t[table]) {
		/* calloc: 512 KiB come as fresh zero pages, each touched only when a slot on it
		 * is first written (a small trace touches few; aligned_alloc and memset touched
		 * them all) — as long as glibc maps them, which it stops doing for this size
		 * once a mapped block this big has been freed (its threshold rises): calloc then
		 * zeroes heap memory, as the memset did; aligned here to a cache line, so that no
		 * slot lies across two */
		if (!(o->mem[table] = calloc(1, SS_OWNER_SLOTS * sizeof(struct slot) + 64)))
			return -ENOMEM;
		o->t[table] = (struct slot *)(((uintptr_t)o->mem[table] + 63) & ~(uintptr_t)63);
	}
	*slot_of(o, table, dev, key) = (struct slot){ .key = key, .ts = who->ts, .dev = dev,
						      .pid = who->pid, .used = true };
	return 0;
}

static const struct slot *get(const struct ss_owner *o, int table, uint32_t dev, uint64_t key)
{
	const struct slot *s;

	if (!o->t[table])
		return NULL;
	s = slot_of(o, table, dev, key);

	return s->used && s->dev == dev && s->key == key ? s : NULL;
}

/* The submitter of a request issued at TS at DEV:SECTOR, if one was seen recently. */
static const struct slot *submitter(const struct ss_owner *o, int table, uint32_t dev,
				    uint64_t sector, uint64_t ts)
{
	const struct slot *s = get(o, table, dev, sector);

	return s && s->ts <= ts && ts - s->ts <= SS_OWNER_MAX_AGE_NS ? s : NULL;
}

/*
 * An ISSUE's note (ss_owner_note): the submitter found, if any — its pid and how long before
 * the issue it submitted (at most SS_OWNER_MAX_AGE_NS, under 2^30 ns).  0: the issuer's.
 */
#define NOTE_SUBMITTER (1ull << 62)
#define NOTE_AGE_SHIFT 32
#define NOTE_AGE_MASK  ((1ull << 30) - 1)
_Static_assert(SS_OWNER_MAX_AGE_NS <= NOTE_AGE_MASK, "a submitter's age fits its note");
_Static_assert((SS_OWNER_UNNOTED & NOTE_SUBMITTER) == 0 && SS_OWNER_UNNOTED != 0,
	       "no note is unnoted");

int ss_owner_note(struct ss_owner *o, const struct ss_event *ev, uint64_t *note)
{
	struct ss_req_owner me = { .pid = ev->pid, .ts = ev->ts_ns, .submitter = true };
	const struct slot *s;

	*note = 0;
	switch (ev->type) {
	case SS_EV_QUEUE:
	case SS_EV_INSERT:
		if (ev->sector != SS_SECTOR_NONE)
			return put(o, ev->type == SS_EV_QUEUE ? QUEUED : INSERTED, ev->dev,
				   ev->sector, &me);
		return 0;
	case SS_EV_ISSUE:
		/* no submitter seen yet (a trace without queue and insert events): the issuer's */
		if (!o->t[QUEUED] && !o->t[INSERTED])
			return 0;
		if (ev->sector != SS_SECTOR_NONE &&
		    ((s = submitter(o, QUEUED, ev->dev, ev->sector, ev->ts_ns)) ||
		     (s = submitter(o, INSERTED, ev->dev, ev->sector, ev->ts_ns))))
			*note = NOTE_SUBMITTER | (ev->ts_ns - s->ts) << NOTE_AGE_SHIFT | s->pid;
		return 0;
	default:
		return 0;
	}
}

/* The owner of a request issued by PID at TS with NOTE. */
static struct ss_req_owner owner_of(uint32_t pid, uint64_t ts, uint64_t note)
{
	if (!(note & NOTE_SUBMITTER))
		return (struct ss_req_owner){ .pid = pid, .ts = ts };
	return (struct ss_req_owner){ .pid = (uint32_t)note,
				      .ts = ts - ((note >> NOTE_AGE_SHIFT) & NOTE_AGE_MASK),
				      .submitter = true };
}

struct ss_req_owner ss_owner_of_issue(const struct ss_event *ev, uint64_t note)
{
	return owner_of(ev->pid, ev->ts_ns, note);
}

struct ss_req_owner ss_owner_of_io(const struct ss_io *io)
{
	return owner_of(io->issue_pid, io->issue_ts, io->issue_tag);
}

int ss_owner_feed(struct ss_owner *o, const struct ss_event *ev, struct ss_req_owner *out)
{
	uint64_t note;
	int ret;

	if ((ret = ss_owner_note(o, ev, &note)) || ev->type != SS_EV_ISSUE)
		return ret;
	*out = ss_owner_of_issue(ev, note);
	return 1;
}
