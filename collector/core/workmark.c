// SPDX-License-Identifier: GPL-2.0-or-later
/* The recorder's work markers among its pending events (workmark.h). */
#include "seekscope/format.h"
#include "workmark.h"

static struct ss_event *at(void *base, size_t i, size_t stride)
{
	return (struct ss_event *)((char *)base + i * stride);
}

/* Swaps entries I and I - 1, byte by byte (an entry is a few dozen bytes). */
static void swap_down(void *base, size_t i, size_t stride)
{
	unsigned char *a = (unsigned char *)base + (i - 1) * stride, *b = a + stride;

	for (size_t k = 0; k < stride; k++) {
		unsigned char t = a[k];

		a[k] = b[k];
		b[k] = t;
	}
}

size_t ss_workmark_place(void *base, size_t n, size_t stride)
{
	const struct ss_event *mark;
	size_t ev = n;

	if (n < 2)
		return n;
	mark = at(base, n - 1, stride);
	for (size_t back = 1; back <= SS_WORKMARK_LOOK_BACK && back < n; back++) {
		const struct ss_event *e = at(base, n - 1 - back, stride);

		if (e->ts_ns == mark->ts_ns && e->pid == mark->pid && e->cpu == mark->cpu &&
		    e->type != SS_WORK_MARK) {
			ev = n - 1 - back;
			break;
		}
	}
	if (ev == n)
		return n;
	if (ev > 0) {
		struct ss_event *before = at(base, ev - 1, stride);

		/* the event had a marker of no work (its stack was thought paused): this names
		 * it, in place — two markers of one stamp could change places in the merge */
		if (before->type == SS_WORK_MARK && !before->sector && before->ts_ns == mark->ts_ns &&
		    before->pid == mark->pid && before->cpu == mark->cpu) {
			before->sector = mark->sector;
			return n - 1;
		}
	}
	for (size_t i = n - 1; i > ev; i--)
		swap_down(base, i, stride);
	return n;
}
