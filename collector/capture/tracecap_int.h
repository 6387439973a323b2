// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Inside the tracefs capture, shared by its two files: tracecap.c sets the instance up and
 * tears it down, tracecap_read.c reads the ring buffers (splices, reads, decoding).
 */
#ifndef SS_TRACECAP_INT_H
#define SS_TRACECAP_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <event-parse.h>
#include <kbuffer.h>
#include <tracefs.h>

#include "decode.h"
#include "stackpace.h"
#include "tracecap.h"

/* Whole pages one splice may take (a pipe of 256 KiB with pages of 4 KiB). */
#define SS_SPLICE_PAGES 64
/* Splices that may fail in a row (each drain then reads instead) before splicing stops. */
#define SS_SPLICE_FAILURES 16

/* The names the stack trigger's filter and the reader both take for a kworker's. */
#define SS_WORKER_COMM "kworker"

/* Events awaiting their stacks that a CPU remembers (interrupts nest this deep at most). */
#define SS_STACK_WAIT 4

struct cpu_reader {
	struct tracefs_cpu *tcpu;
	int fd;                  /* its trace_pipe_raw, ours to close (-1: none) */
	void *page;
	int page_size;
	uint64_t events, missed, read_bytes;
	uint64_t last_ts;        /* of the last event read (0: none yet) */
	uint64_t pending_lost;   /* missed events not yet placed: wait for the next event */
	uint64_t caught_up;      /* NOW of its last read up to the writer (0: never) */
	/* the events that asked for a stack (a kworker's issue, insert or queue) and have not
	 * had it yet, the latest last: the kernel writes the stack right after its event, so
	 * the next stack belongs to the latest (an interrupt's event and stack may come between
	 * an event and its own) */
	struct { uint64_t ts; uint32_t pid; bool unnamed; } stack_for[SS_STACK_WAIT];
	unsigned nr_stack_for;
};

struct ss_tracecap {
	struct tracefs_instance *inst;
	/* The instance's directory and its parent (instances/), open from creation on: tracing
	 * is switched off, the ring buffers' statistics read and the instance removed through
	 * them, so that all of it still works when tracefs is unmounted (or mounted over)
	 * during the capture.  -1: not open. */
	int dir_fd, parent_fd;
	struct tep_handle *tep;
	struct kbuffer *kbuf;
	struct ss_decoder *dec;
	struct cpu_reader *cpus;
	unsigned nr_cpus;
	/* Whole pages are spliced from a ring buffer into this pipe, many in one call, and read
	 * from it into SPLICED in one more: the kernel hands over full pages without copying
	 * their events one by one, as it must for the page its writer is still filling.
	 * -1: no splicing (read() page by page). */
	int pipe[2];
	char *spliced;
	size_t pipe_bytes;
	bool splice_tried;              /* the pipe was asked for (once, whatever came of it) */
	unsigned splice_failures;       /* splices failed in a row: at SS_SPLICE_FAILURES, none more */
	size_t buffer_kb;
	bool on;
	uint64_t missed_total;
	int work_id;                    /* workqueue_execute_start's id, -1 if not recorded */
	struct tep_format_field *work_fn, *work_pid;
	/* Or the kernel's stack after each kworker's issue, insert or queue (a stacktrace
	 * trigger on those events): ftrace:kernel_stack's id (-1: none), its fields, and which
	 * of ss_block_events carry the trigger (a bit each) */
	int stack_id;
	struct tep_format_field *stack_nr, *stack_pid;
	unsigned stack_callers;         /* offset of caller[] in the record */
	unsigned triggered;
	/* The trigger's pauses (without SS_CAP_WORK_ALWAYS): whether they are paced (the stack method,
	 * the "mono" clock), the trigger's text, the two latest spans without it (from the
	 * drain that removed it to the return of the write that put it back; UINT64_MAX while
	 * paused; 0: none), and what they cost (struct ss_stack_pauses) */
	bool pacing;
	bool stopping;                  /* set by ss_tracecap_stop() (atomic: another thread) */
	/* The removal, which waits for the kernel's RCU grace period (about 110 ms), runs on a
	 * thread of its own (the drains go on): joined before the trigger is put back and on
	 * destroy */
	bool unarming;
	pthread_t unarm;
	struct ss_stackpace pace;
	char *trigger;
	struct { uint64_t from, to; } nostack[2];
	struct ss_stack_pauses pauses;
	uint64_t *frames;               /* one stack's frames, as the host's words */
	size_t cap_frames;
	ss_work_sink work_sink;
	ss_stack_sink stack_sink;
	ss_lost_sink lost_sink;
};

/* Whether a kworker's events of this block event type name the work behind them: the ones
 * made in the issuer's or submitter's context (a completion's or requeue's context is
 * whoever was running, not who asked for the I/O). */
static inline bool ss_tracecap_wants_stack(uint16_t type)
{
	return type != SS_EV_COMPLETE && type != SS_EV_REQUEUE;
}

/* After a drain that began at NOW: the trigger removed or put back (stackpace.h). */
void ss_tracecap_pace_stacks(struct ss_tracecap *c, uint64_t now);
/* Whether an event stamped TS came while the trigger was removed. */
static inline bool ss_tracecap_no_stack(const struct ss_tracecap *c, uint64_t ts)
{
	for (int i = 0; i < 2; i++)
		if (c->nostack[i].from && ts >= c->nostack[i].from && ts < c->nostack[i].to)
			return true;
	return false;
}

/* Ask for the pipe whole pages are spliced through; without one, pages are read one by one. */
void ss_tracecap_open_splice(struct ss_tracecap *c, size_t page_size);
void ss_tracecap_close_splice(struct ss_tracecap *c);

#endif
