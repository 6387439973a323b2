// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The task names a trace-cmd ring hands on (import_tracecmd_reader.c): only where a task's name
 * differs from the one the ring last gave it.  Every issue and queue event carries its task's
 * name, and each went into the task table, which keeps only changes anyway: a capture of 4M
 * fio requests named fio 4M times, and a report's one pass over the file (the lazy open, whose
 * deferred scan keeps each name it is given, up to SS_MERGE_DEFERRED_NOTES) overflowed and
 * read each ring again.  A ring's repeats are dropped before the parent sees them, so both of
 * the parent's ways of taking names (the usual open's scan, the lazy open's deferred one) take
 * the same ones, ring by ring, as before.  The one difference a table could show: a name that
 * another CPU's ring gave the task in between two of a ring's repeats no longer ends there (a
 * task named back and forth on two CPUs at once).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "import_tracecmd_reader.h"

struct slot {
	uint32_t pid;
	uint32_t used;
	char comm[SS_COMM_LEN];
};

struct ss_tc_names {
	struct slot *slots;
	size_t nr, cap;                 /* used, and a power of two */
};

struct ss_tc_names *ss_tc_names_new(void)
{
	return calloc(1, sizeof(struct ss_tc_names));
}

void ss_tc_names_free(struct ss_tc_names *n)
{
	if (n)
		free(n->slots);
	free(n);
}

void ss_tc_names_clear(struct ss_tc_names *n)
{
	if (n && n->slots)
		memset(n->slots, 0, n->cap * sizeof(*n->slots));
	if (n)
		n->nr = 0;
}

static struct slot *find(struct slot *slots, size_t cap, uint32_t pid)
{
	size_t i = (size_t)(pid * 0x9e3779b1u) & (cap - 1);

	while (slots[i].used && slots[i].pid != pid)
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

static int grow(struct ss_tc_names *n)
{
	size_t cap = n->cap ? n->cap * 2 : 64;
	struct slot *s = calloc(cap, sizeof(*s));

	if (!s)
		return -ENOMEM;
	for (size_t i = 0; i < n->cap; i++)
		if (n->slots[i].used)
			*find(s, cap, n->slots[i].pid) = n->slots[i];
	free(n->slots);
	n->slots = s;
	n->cap = cap;
	return 0;
}

bool ss_tc_names_repeat(struct ss_tc_names *n, uint32_t pid, const char comm[SS_COMM_LEN])
{
	struct slot *s;
	size_t len;

	if (!n || ((n->nr + 1) * 2 > n->cap && grow(n)))
		return false;   /* (no memory: every name handed on, as before) */
	s = find(n->slots, n->cap, pid);
	/* (the decoder pads its names with NULs: a repeat compares as 16 bytes) */
	if (s->used && (!memcmp(s->comm, comm, SS_COMM_LEN) ||
			!strncmp(s->comm, comm, SS_COMM_LEN)))
		return true;
	if (!s->used) {
		s->used = 1;
		s->pid = pid;
		n->nr++;
	}
	len = strnlen(comm, SS_COMM_LEN);
	memcpy(s->comm, comm, len);
	memset(s->comm + len, 0, SS_COMM_LEN - len);
	return false;
}
