// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tracefs capture of block request events in a private tracing instance.  Creates and
 * configures the instance (events, per-device filter, clock, buffer size), reads the per-CPU
 * ring buffers without blocking (whole pages spliced), decodes events by field name and hands
 * them to a sink, and collects the ring buffer's lost-event counters.  Global tracing state is
 * never touched.
 * Library code: returns 0/-errno, one-line reasons in the caller's buffer, never prints.
 */
#ifndef SS_TRACECAP_H
#define SS_TRACECAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "seekscope/format.h"
#include "decode.h"

#define SS_INSTANCE_PREFIX "seekscope-"

/* Optional events beyond issue/complete/requeue (the opt-in bits of ss_block_events). */
#define SS_CAP_INSERT  SS_BLOCK_OPT_INSERT   /* block:block_rq_insert */
#define SS_CAP_QUEUE   SS_BLOCK_OPT_QUEUE    /* block:block_bio_queue */
/*
 * The work a kworker runs when it issues I/O: a stacktrace trigger on the issue, insert and
 * queue events, for a kworker's only (ss_tracecap_set_stack_sink: the work function is the
 * frame process_one_work called), so that the cost follows the kworkers' own requests; on a
 * kernel before 5.17 (whose trigger wrote into the top-level buffer) or one that refuses the
 * trigger, workqueue:workqueue_execute_start, which fires for every
 * work item of the machine (ss_tracecap_set_work_sink); neither, without a word, on a kernel
 * that has neither.
 */
#define SS_CAP_WORK    0x100u
/* With SS_CAP_WORK: the work event even where the trigger would be taken. */
#define SS_CAP_WORK_EVENT 0x200u
/* With SS_CAP_WORK: the stacks never paused.  Otherwise, with the "mono" clock, they pause
 * while a busy workload issues its own requests and no kworker any (stackpace.h), and the
 * first kworker's event read resumes them (ss_tracecap_stack_pauses() counts what that
 * costs). */
#define SS_CAP_WORK_ALWAYS 0x400u

struct ss_tracecap_opts {
	const uint32_t *devs;       /* devices to keep (SS_MKDEV encoding); none = all */
	size_t nr_devs;
	size_t buffer_kb;           /* per-CPU ring buffer; 0 = leave the kernel default */
	unsigned extra;             /* SS_CAP_* */
	const char *clock;          /* trace clock, "mono" if NULL */
};

struct ss_tracecap;

/* Called for each decoded event, in per-CPU order (not globally sorted), with the task name
 * of the event's context ("" for events that carry none: completions, requeues). */
typedef int (*ss_event_sink)(void *ctx, const struct ss_event *ev, const char *comm);

/* Called for each workqueue_execute_start (SS_CAP_WORK where the work comes from that event,
 * ss_tracecap_work_method()): kworker PID starts running the work function at kernel address
 * FUNCTION. */
typedef int (*ss_work_sink)(void *ctx, uint64_t ts, unsigned cpu, uint32_t pid,
			    uint64_t function);

/* Called for each stack the trigger of SS_CAP_WORK wrote: kworker PID's kernel stack (NR
 * return addresses, innermost first) at the event stamped TS that it follows. */
typedef int (*ss_stack_sink)(void *ctx, uint64_t ts, unsigned cpu, uint32_t pid,
			     const uint64_t *frames, size_t nr);

/* Called when a CPU's ring buffer lost events, placed in time (format.h, SS_REC_LOST): after
 * the last event read from that CPU (0: none yet) and before the first one read after them. */
typedef int (*ss_lost_sink)(void *ctx, const struct ss_rec_lost *lost);

/* Find (and if needed mount) tracefs and check that an instance could be created there
 * (root), creating nothing.  0, or -errno with the reason create would give. */
int ss_tracecap_check(char *err, size_t errlen);
/* The kernel lockdown mode ("none", "integrity", "confidentiality"; "" where the kernel has
 * no lockdown) into MODE; 1 when it restricts tracefs (integrity or confidentiality). */
int ss_tracecap_lockdown(char *mode, size_t len);
/*
 * Find (and if needed mount) tracefs, remove stale seekscope instances of dead recorders,
 * create and configure a new instance with tracing off.  NULL + errno and a reason on error.
 */
struct ss_tracecap *ss_tracecap_create(const struct ss_tracecap_opts *o, char *err, size_t errlen);
int ss_tracecap_start(struct ss_tracecap *c);
int ss_tracecap_stop(struct ss_tracecap *c);
/*
 * Read everything left in the ring buffers, the partially filled pages too (after
 * ss_tracecap_stop()), decode and pass to SINK.  Returns the number of events read, or -errno
 * (a sink error is returned as is).
 */
long ss_tracecap_drain(struct ss_tracecap *c, ss_event_sink sink, void *ctx);
/*
 * Read the whole pages of each CPU's ring buffer, not the one its writer is still filling
 * (spliced, many in one call: the kernel hands full pages over without copying their events
 * one by one), and that page too on a CPU that had no whole page, or whose last read up to its
 * writer began STALE_NS or longer before NOW (when this drain began, on the trace clock: with
 * "mono", CLOCK_MONOTONIC).  Returns the number of events read, or -errno.  Where the kernel
 * cannot splice the files, every page is read every time.  What is read is complete up to
 * ss_tracecap_read_to().
 */
long ss_tracecap_drain_pages(struct ss_tracecap *c, ss_event_sink sink, void *ctx, uint64_t now,
			     uint64_t stale_ns);
/* Every event stamped before this time has been read from every CPU (for each CPU the NOW of
 * its last read up to the writer, or the last event of a whole page read since), give or take
 * the microseconds between an event's stamp and its commit; 0 before the first drain. */
uint64_t ss_tracecap_read_to(const struct ss_tracecap *c);
/* Where drains send the work events and the kworkers' stacks (same CTX as the drain's); NULL:
 * dropped. */
void ss_tracecap_set_work_sink(struct ss_tracecap *c, ss_work_sink sink);
void ss_tracecap_set_stack_sink(struct ss_tracecap *c, ss_stack_sink sink);
void ss_tracecap_set_lost_sink(struct ss_tracecap *c, ss_lost_sink sink);
/* How the kworkers' work is recorded: "stack", "event" or NULL (not asked for, or neither
 * known to this kernel). */
const char *ss_tracecap_work_method(const struct ss_tracecap *c);
/* The stacks' pauses (without SS_CAP_WORK_ALWAYS) up to NOW (CLOCK_MONOTONIC); once no
 * drain runs any more (the drains change them). */
struct ss_stack_pauses {
	uint64_t pauses;         /* how many times the trigger was removed */
	uint64_t paused_ns;      /* for how long in all */
	uint64_t unnamed;        /* kworkers' issue, insert and queue events read with no stack
				  * because it was paused (their work unnamed) */
	int resume_error;        /* errno of the write that failed to put the trigger back (it
				  * stayed off to the end), 0 if none did */
};
void ss_tracecap_stack_pauses(const struct ss_tracecap *c, uint64_t now,
			      struct ss_stack_pauses *out);
/* Per-CPU counters into OUT (up to MAX entries); returns the count filled. */
size_t ss_tracecap_cpu_stats(struct ss_tracecap *c, struct ss_rec_cpu_stats *out, size_t max);
/* Events lost so far according to page headers (cheap; stats files are read at the end). */
uint64_t ss_tracecap_missed(const struct ss_tracecap *c);
const char *ss_tracecap_instance(const struct ss_tracecap *c);
unsigned ss_tracecap_nr_cpus(const struct ss_tracecap *c);
size_t ss_tracecap_buffer_kb(const struct ss_tracecap *c);
/* Disable, destroy the instance and free.  Accepts NULL.  Returns 0 or -errno of the rmdir. */
int ss_tracecap_destroy(struct ss_tracecap *c);

/* Remove instances named SS_INSTANCE_PREFIX<pid>-* whose recorder process is gone.
 * Returns how many were removed, or -errno. */
int ss_tracecap_remove_stale(void);

#endif
