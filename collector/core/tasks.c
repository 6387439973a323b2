// SPDX-License-Identifier: GPL-2.0-or-later
/* The task table: pid -> name over time (see tasks.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tasks.h"

/* One pid: the ids of its entries, sorted by time. */
struct slot {
	uint32_t pid;
	bool used;
	uint32_t n, cap;
	uint32_t *ids;
};

struct ss_tasks {
	struct ss_rec_task *ents;
	size_t nr, cap;
	struct slot *slots;        /* open addressing, linear probing; power of two */
	size_t nr_slots, used;
};

struct ss_tasks *ss_tasks_new(void)
{
	return calloc(1, sizeof(struct ss_tasks));
}

void ss_tasks_free(struct ss_tasks *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nr_slots; i++)
		free(t->slots[i].ids);
	free(t->slots);
	free(t->ents);
	free(t);
}

static size_t hash_pid(uint32_t pid, size_t nr_slots)
{
	return (size_t)((pid * 0x9e3779b1u) >> 7) & (nr_slots - 1);
}

static struct slot *lookup(const struct ss_tasks *t, uint32_t pid)
{
	if (!t->nr_slots)
		return NULL;
	for (size_t i = hash_pid(pid, t->nr_slots);; i = (i + 1) & (t->nr_slots - 1)) {
		struct slot *s = &t->slots[i];

		if (!s->used || s->pid == pid)
			return s;
	}
}

static int grow_slots(struct ss_tasks *t)
{
	size_t n = t->nr_slots ? t->nr_slots * 2 : 64;
	struct slot *old = t->slots, *ns = calloc(n, sizeof(*ns));
	size_t old_n = t->nr_slots;

	if (!ns)
		return -ENOMEM;
	t->slots = ns;
	t->nr_slots = n;
	for (size_t i = 0; i < old_n; i++)
		if (old[i].used)
			*lookup(t, old[i].pid) = old[i];
	free(old);
	return 0;
}

static bool same_name(const struct ss_rec_task *a, const struct ss_rec_task *b)
{
	return !strncmp(a->comm, b->comm, sizeof(a->comm)) &&
	       !strncmp(a->work, b->work, sizeof(a->work));
}

/* Entries of S with ts <= TS (the position of a new entry at TS). */
static uint32_t upper_bound(const struct ss_tasks *t, const struct slot *s, uint64_t ts)
{
	uint32_t lo = 0, hi = s->n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (t->ents[s->ids[mid]].ts_ns <= ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int ss_tasks_add(struct ss_tasks *t, const struct ss_rec_task *rec)
{
	struct ss_rec_task e = *rec;
	struct slot *s;
	uint32_t pos;

	e.comm[sizeof(e.comm) - 1] = 0;
	e.work[sizeof(e.work) - 1] = 0;
	e.reserved = 0;
	if ((t->used + 1) * 2 > t->nr_slots && grow_slots(t))
		return -ENOMEM;
	s = lookup(t, e.pid);
	if (s->used) {
		pos = upper_bound(t, s, e.ts_ns);
		if (!e.pid && s->n)
			return 0;             /* the idle tasks keep their first name */
		if (same_name(&t->ents[s->ids[pos ? pos - 1 : 0]], &e))
			return 0;
	} else {
		pos = 0;
	}
	if (t->nr == SS_TASKS_MAX)
		return -E2BIG;
	if (t->nr == t->cap) {
		size_t ncap = t->cap ? t->cap * 2 : 64;
		struct ss_rec_task *p = reallocarray(t->ents, ncap, sizeof(*p));

		if (!p)
			return -ENOMEM;
		t->ents = p;
		t->cap = ncap;
	}
	if (s->n == s->cap) {
		uint32_t ncap = s->cap ? s->cap * 2 : 2;
		uint32_t *p = reallocarray(s->ids, ncap, sizeof(*p));

		if (!p)
			return -ENOMEM;
		s->ids = p;
		s->cap = ncap;
	}
	if (!s->used) {
		s->used = true;
		s->pid = e.pid;
		t->used++;
	}
	memmove(s->ids + pos + 1, s->ids + pos, (s->n - pos) * sizeof(*s->ids));
	s->ids[pos] = (uint32_t)t->nr;
	s->n++;
	t->ents[t->nr++] = e;
	return 1;
}

int ss_tasks_add_name(struct ss_tasks *t, uint64_t ts, uint32_t pid, const char *comm,
		      size_t comm_len, const char *work, size_t work_len)
{
	struct ss_rec_task e = { .ts_ns = ts, .pid = pid };

	if (comm)
		memcpy(e.comm, comm, strnlen(comm, comm_len < sizeof(e.comm) - 1 ? comm_len :
						    sizeof(e.comm) - 1));
	if (work)
		memcpy(e.work, work, strnlen(work, work_len < sizeof(e.work) - 1 ? work_len :
						    sizeof(e.work) - 1));
	return ss_tasks_add(t, &e);
}

size_t ss_tasks_count(const struct ss_tasks *t)
{
	return t ? t->nr : 0;
}

const struct ss_rec_task *ss_tasks_entry(const struct ss_tasks *t, size_t id)
{
	return t && id < t->nr ? &t->ents[id] : NULL;
}

long ss_tasks_find(const struct ss_tasks *t, uint32_t pid, uint64_t ts)
{
	uint64_t from, until;

	return ss_tasks_find_span(t, pid, ts, &from, &until);
}

long ss_tasks_find_span(const struct ss_tasks *t, uint32_t pid, uint64_t ts, uint64_t *from,
			uint64_t *until)
{
	const struct slot *s = t ? lookup(t, pid) : NULL;
	uint32_t pos;

	*from = 0;
	*until = UINT64_MAX;
	if (!s || !s->used)
		return -1;
	/* the entry in force at ts: the last that began by then (the first before it begins) */
	pos = s->n == 1 ? 1 : upper_bound(t, s, ts);
	if (pos == 0)
		pos = 1;
	if (pos > 1)
		*from = t->ents[s->ids[pos - 1]].ts_ns;
	if (pos < s->n)
		*until = t->ents[s->ids[pos]].ts_ns;
	return s->ids[pos - 1];
}

void ss_task_name(const struct ss_rec_task *rec, char *buf, size_t len)
{
	if (rec->work[0])
		snprintf(buf, len, "%.16s-%.32s", rec->comm, rec->work);
	else
		snprintf(buf, len, "%.16s", rec->comm);
}

bool ss_task_is_worker(const char *comm, size_t len)
{
	return len >= 8 && !strncmp(comm, "kworker/", 8);
}

void ss_task_group(const struct ss_rec_task *rec, char *buf, size_t len)
{
	char comm[sizeof(rec->comm) + 1];

	if (ss_task_is_worker(rec->comm, strnlen(rec->comm, sizeof(rec->comm)))) {
		char work[sizeof(rec->work)];
		char *dash;

		if (!rec->work[0]) {
			snprintf(buf, len, "kworker");
			return;
		}
		/* "flush-254:0" -> "flush", "xfs-cil/loop0" -> "xfs-cil": the device goes */
		snprintf(work, sizeof(work), "%.31s", rec->work);
		work[strcspn(work, "/")] = 0;
		dash = strrchr(work, '-');
		if (dash && dash[1] >= '0' && dash[1] <= '9' &&
		    strspn(dash + 1, "0123456789:") == strlen(dash + 1))
			*dash = 0;
		snprintf(buf, len, "kworker:%s", work);
		return;
	}
	snprintf(comm, sizeof(comm), "%.16s", rec->comm);
	comm[strcspn(comm, "/")] = 0;
	snprintf(buf, len, "%s", comm);
}
