// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ss_workmark_place(): a stack's work marker, appended after the events read, goes just before
 * its event (the latest of the same stamp, pid and CPU among the last 8, not a marker), the
 * entries after it moved up whole (their payload too); where the event already has a marker
 * of no work (the trigger was thought paused), that marker is named and the appended one
 * dropped — but not a marker that already names a work, nor one of another pid, CPU or stamp;
 * an event out of reach or absent leaves the marker last; an event first of all takes the
 * marker at 0.
 */
#include <stdint.h>
#include <string.h>

#include "tap.h"
#include "seekscope/format.h"
#include "workmark.h"

struct entry {
	struct ss_event ev;
	char comm[16];      /* the recorder's pending entries carry a name after the event */
};

#define FN 0xffffffff81234560ull       /* a work function's address */

static struct entry event(uint64_t ts, uint32_t pid, uint16_t cpu, uint16_t type, const char *c)
{
	struct entry e;

	memset(&e, 0, sizeof(e));
	e.ev.ts_ns = ts;
	e.ev.pid = pid;
	e.ev.cpu = cpu;
	e.ev.type = type;
	e.ev.sector = 1000 + ts;
	snprintf(e.comm, sizeof(e.comm), "%s", c);
	return e;
}

static struct entry mark(uint64_t ts, uint32_t pid, uint16_t cpu, uint64_t fn)
{
	struct entry e = event(ts, pid, cpu, SS_WORK_MARK, "");

	e.ev.sector = fn;
	return e;
}

/* "T/type" for each entry: what the tests compare */
static const char *order(const struct entry *e, size_t n)
{
	static char buf[512];
	size_t len = 0;

	buf[0] = 0;
	for (size_t i = 0; i < n && len < sizeof(buf) - 32; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%llu/%s", i ? " " : "",
					(unsigned long long)e[i].ev.ts_ns,
					e[i].ev.type == SS_WORK_MARK ?
					(e[i].ev.sector ? "W" : "w") : e[i].comm);
	return buf;
}

int main(void)
{
	struct entry e[16];
	size_t n;

	/* the stack right after its event: the marker goes before it */
	e[0] = event(10, 7, 0, SS_EV_ISSUE, "fio");
	e[1] = event(20, 9, 0, SS_EV_ISSUE, "kw");
	e[2] = mark(20, 9, 0, FN);
	n = ss_workmark_place(e, 3, sizeof(e[0]));
	is_int(n, 3, "the marker kept");
	is_str(order(e, n), "10/fio 20/W 20/kw", "the marker before its event");

	/* the event three back, other events of the CPU after it: they move up, whole */
	e[0] = event(10, 7, 0, SS_EV_ISSUE, "fio");
	e[1] = event(20, 9, 0, SS_EV_ISSUE, "kw");
	e[2] = event(21, 7, 0, SS_EV_COMPLETE, "ksoftirqd");
	e[3] = event(22, 7, 0, SS_EV_ISSUE, "fio2");
	e[4] = mark(20, 9, 0, FN);
	n = ss_workmark_place(e, 5, sizeof(e[0]));
	is_str(order(e, n), "10/fio 20/W 20/kw 21/ksoftirqd 22/fio2",
	       "three back: before it, the later entries moved up with their names");
	ok(e[4].ev.sector == 1022 && e[3].ev.type == SS_EV_COMPLETE && e[1].ev.sector == FN,
	   "the moved entries keep their fields");

	/* of two events of the same stamp, pid and CPU, the later one (the stack follows it) */
	e[0] = event(20, 9, 0, SS_EV_INSERT, "kwI");
	e[1] = event(20, 9, 0, SS_EV_ISSUE, "kwD");
	e[2] = mark(20, 9, 0, FN);
	n = ss_workmark_place(e, 3, sizeof(e[0]));
	is_str(order(e, n), "20/kwI 20/W 20/kwD", "the latest match takes the marker");

	/* an event first of all: the marker at 0 */
	e[0] = event(20, 9, 1, SS_EV_ISSUE, "kw");
	e[1] = event(25, 7, 1, SS_EV_COMPLETE, "x");
	e[2] = mark(20, 9, 1, FN);
	n = ss_workmark_place(e, 3, sizeof(e[0]));
	is_str(order(e, n), "20/W 20/kw 25/x", "the event first of all: the marker at 0");

	/* 8 back is in reach, 9 back is not */
	for (int far = 8; far <= 9; far++) {
		e[0] = event(20, 9, 0, SS_EV_ISSUE, "kw");
		for (int i = 1; i < far; i++)
			e[i] = event(20 + (uint64_t)i, 7, 0, SS_EV_ISSUE, "fio");
		e[far] = mark(20, 9, 0, FN);
		n = ss_workmark_place(e, (size_t)far + 1, sizeof(e[0]));
		ok(n == (size_t)far + 1 && (far == 8 ? e[0].ev.type == SS_WORK_MARK :
					      e[far].ev.type == SS_WORK_MARK),
		   "the event %d back: %s", far, far == 8 ? "found, the marker before it" :
		   "out of reach, the marker stays last");
	}

	/* no event of that pid, CPU or stamp: the marker stays last */
	e[0] = event(20, 9, 1, SS_EV_ISSUE, "kw-cpu1");
	e[1] = event(20, 8, 0, SS_EV_ISSUE, "kw-pid8");
	e[2] = event(19, 9, 0, SS_EV_ISSUE, "kw-ts19");
	e[3] = mark(20, 9, 0, FN);
	n = ss_workmark_place(e, 4, sizeof(e[0]));
	is_str(order(e, n), "20/kw-cpu1 20/kw-pid8 19/kw-ts19 20/W",
	       "another CPU, pid or stamp: not its event, the marker stays last");

	/* a marker is not an event: a stack's marker never goes before another marker */
	e[0] = mark(20, 9, 0, FN);
	e[1] = mark(20, 9, 0, FN + 16);
	n = ss_workmark_place(e, 2, sizeof(e[0]));
	is_str(order(e, n), "20/W 20/W", "only markers: left as they are");

	/* the event has a marker of no work: named in place, the appended one dropped */
	e[0] = event(10, 7, 0, SS_EV_ISSUE, "fio");
	e[1] = mark(20, 9, 0, 0);
	e[2] = event(20, 9, 0, SS_EV_ISSUE, "kw");
	e[3] = event(21, 7, 0, SS_EV_COMPLETE, "c");
	e[4] = mark(20, 9, 0, FN);
	n = ss_workmark_place(e, 5, sizeof(e[0]));
	is_int(n, 4, "a marker of no work before the event: one entry fewer");
	is_str(order(e, n), "10/fio 20/W 20/kw 21/c", "that marker names the work");
	ok(e[1].ev.sector == FN, "with the stack's work function");

	/* a marker before the event that already names a work, or is another kworker's: kept,
	 * and the stack's own marker goes between it and the event */
	e[0] = mark(20, 9, 0, FN + 16);
	e[1] = event(20, 9, 0, SS_EV_ISSUE, "kw");
	e[2] = mark(20, 9, 0, FN);
	n = ss_workmark_place(e, 3, sizeof(e[0]));
	ok(n == 3 && e[0].ev.sector == FN + 16 && e[1].ev.sector == FN &&
	   e[2].ev.type == SS_EV_ISSUE, "a marker already naming a work is not renamed");
	e[0] = mark(20, 8, 0, 0);
	e[1] = event(20, 9, 0, SS_EV_ISSUE, "kw");
	e[2] = mark(20, 9, 0, FN);
	n = ss_workmark_place(e, 3, sizeof(e[0]));
	ok(n == 3 && e[0].ev.pid == 8 && !e[0].ev.sector && e[1].ev.sector == FN,
	   "another pid's marker of no work is not named by this stack");
	e[0] = mark(19, 9, 0, 0);
	e[1] = event(20, 9, 0, SS_EV_ISSUE, "kw");
	e[2] = mark(20, 9, 0, FN);
	n = ss_workmark_place(e, 3, sizeof(e[0]));
	ok(n == 3 && !e[0].ev.sector && e[1].ev.sector == FN,
	   "a marker of no work of another stamp is not named by this stack");

	/* too few entries to move anything */
	e[0] = mark(20, 9, 0, FN);
	is_int(ss_workmark_place(e, 1, sizeof(e[0])), 1, "the marker alone: kept");
	is_int(ss_workmark_place(e, 0, sizeof(e[0])), 0, "no entry: nothing");
	return done_testing();
}
