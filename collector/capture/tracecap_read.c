// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading the capture's ring buffers: whole pages spliced many at a time through a pipe, the
 * page being written read (read()), and each page's events decoded and passed on in order.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracecap_int.h"

void ss_tracecap_open_splice(struct ss_tracecap *c, size_t page_size)
{
	int size;

	c->splice_tried = true;
	if (pipe2(c->pipe, O_CLOEXEC | O_NONBLOCK) < 0) {
		c->pipe[0] = c->pipe[1] = -1;
		return;
	}
	size = fcntl(c->pipe[1], F_SETPIPE_SZ, (int)(SS_SPLICE_PAGES * page_size));
	if (size < 0)
		size = fcntl(c->pipe[1], F_GETPIPE_SZ);
	c->pipe_bytes = size > 0 ? (size_t)size / page_size * page_size : 0;
	if (!c->pipe_bytes || !(c->spliced = malloc(c->pipe_bytes)))
		ss_tracecap_close_splice(c);
}

void ss_tracecap_close_splice(struct ss_tracecap *c)
{
	if (c->pipe[0] >= 0) {
		close(c->pipe[0]);
		close(c->pipe[1]);
	}
	c->pipe[0] = c->pipe[1] = -1;
	free(c->spliced);
	c->spliced = NULL;
}

/* The events CPU lost since its last event, placed before TS (the first one read after). */
static int place_lost(struct ss_tracecap *c, unsigned cpu, uint64_t ts, void *ctx)
{
	struct cpu_reader *r = &c->cpus[cpu];
	struct ss_rec_lost l = { .from_ns = r->last_ts, .to_ns = ts, .count = r->pending_lost,
				 .cpu = cpu };

	r->pending_lost = 0;
	return c->lost_sink ? c->lost_sink(ctx, &l) : 0;
}

/* One kernel_stack entry of SIZE bytes at DATA, stamped TS: its frames to the stack sink. */
static int stack_entry(struct ss_tracecap *c, unsigned cpu, const char *data, size_t size,
		       uint64_t ts, void *ctx)
{
	struct cpu_reader *r = &c->cpus[cpu];
	unsigned long long nr = 0, pid = 0;
	size_t avail = 0, n;
	uint64_t at;

	tep_read_number_field(c->stack_nr, data, &nr);
	tep_read_number_field(c->stack_pid, data, &pid);
	if (size > c->stack_callers)
		avail = (size - c->stack_callers) / sizeof(unsigned long);
	n = nr < avail ? (size_t)nr : avail;
	if (n > c->cap_frames) {
		uint64_t *f = reallocarray(c->frames, n, sizeof(*f));

		if (!f)
			return -ENOMEM;
		c->frames = f;
		c->cap_frames = n;
	}
	for (size_t i = 0; i < n; i++) {
		unsigned long v;

		memcpy(&v, data + c->stack_callers + i * sizeof(v), sizeof(v));
		c->frames[i] = v;
	}
	/* the trigger writes the stack right after the event that asked for it: the work is
	 * that event's, from its stamp on (the stack's own if that event is not known) */
	at = ts;
	if (r->nr_stack_for && r->stack_for[r->nr_stack_for - 1].pid == pid) {
		--r->nr_stack_for;
		at = r->stack_for[r->nr_stack_for].ts;
		if (r->stack_for[r->nr_stack_for].unnamed)
			c->pauses.unnamed--;   /* taken as the trigger was being removed */
	}
	return c->stack_sink ? c->stack_sink(ctx, at, cpu, (uint32_t)pid, c->frames, n) : 0;
}

/*
 * A kworker's event stamped TS that the trigger follows with its stack, remembered until the
 * stack comes.  While the trigger is removed, a marker of no work (function 0, through the
 * work sink) goes just before the event, so that the work named last is not taken for this
 * one's; a stack that still comes names it after all (the recorder's stack sink then gives
 * that marker the work).  The count of unnamed events is exact unless events were lost: a
 * loss forgets which events wait for a stack, and a stack that comes after it for a counted
 * event is not taken off the count.
 */
static int stack_wanted(struct ss_tracecap *c, struct cpu_reader *r, unsigned cpu, uint64_t ts,
			uint32_t pid, void *ctx)
{
	bool unnamed = ss_tracecap_no_stack(c, ts);

	if (r->nr_stack_for == SS_STACK_WAIT) {   /* the oldest never had one */
		memmove(r->stack_for, r->stack_for + 1,
			(SS_STACK_WAIT - 1) * sizeof(r->stack_for[0]));
		r->nr_stack_for--;
	}
	r->stack_for[r->nr_stack_for].ts = ts;
	r->stack_for[r->nr_stack_for].unnamed = unnamed;
	r->stack_for[r->nr_stack_for++].pid = pid;
	if (!unnamed)
		return 0;
	c->pauses.unnamed++;
	return c->work_sink ? c->work_sink(ctx, ts, cpu, pid, 0) : 0;
}

/* Decodes one page of CPU's ring buffer and passes its events on: their count, or -errno. */
static long read_page(struct ss_tracecap *c, unsigned cpu, void *page, ss_event_sink sink,
		      void *ctx)
{
	struct cpu_reader *r = &c->cpus[cpu];
	unsigned long long ts;
	long count = 0;
	void *data;
	int missed;

	if (kbuffer_load_subbuffer(c->kbuf, page) < 0)
		return 0;
	missed = kbuffer_missed_events(c->kbuf);
	if (missed) {
		/* -1: the kernel knows events were lost here but not how many */
		uint64_t m = missed < 0 ? 1 : (uint64_t)missed;

		r->missed += m;
		r->pending_lost += m;
		c->missed_total += m;
		r->nr_stack_for = 0;   /* their stacks may be among the lost */
	}
	for (data = kbuffer_read_event(c->kbuf, &ts); data; data = kbuffer_next_event(c->kbuf, &ts)) {
		char comm[SS_COMM_LEN];
		struct ss_event ev;
		uint16_t id;
		int dr;

		if (r->pending_lost) {
			int ret = place_lost(c, cpu, ts, ctx);

			if (ret < 0)
				return ret;
		}
		r->last_ts = ts;
		r->events++;
		memcpy(&id, data, sizeof(id));
		if (id == c->work_id) {
			unsigned long long fn = 0, pid = 0;
			int ret = 0;

			tep_read_number_field(c->work_fn, data, &fn);
			tep_read_number_field(c->work_pid, data, &pid);
			if (c->work_sink)
				ret = c->work_sink(ctx, ts, cpu, (uint32_t)pid, fn);
			if (ret < 0)
				return ret;
			continue;
		}
		if (id == c->stack_id) {
			int ret = stack_entry(c, cpu, data, (size_t)kbuffer_event_size(c->kbuf), ts,
					      ctx);

			if (ret < 0)
				return ret;
			continue;
		}
		dr = ss_decoder_decode(c->dec, data, (size_t)kbuffer_event_size(c->kbuf), ts, cpu,
				       &ev, comm);
		if (dr < 0)
			return -EPROTO; /* the kernel's record shorter than its format */
		if (dr > 0) {
			int ret;

			/* an event the trigger follows with a stack (setup_stacks) */
			if (c->stack_id >= 0 && ss_tracecap_wants_stack(ev.type)) {
				bool kworker = !strncmp(comm, SS_WORKER_COMM,
							sizeof(SS_WORKER_COMM) - 1);

				/* the rate in requests (issues); a kworker's any event */
				if (c->pacing && (kworker || ev.type == SS_EV_ISSUE))
					ss_stackpace_event(&c->pace, ts, kworker);
				if (kworker && (ret = stack_wanted(c, r, cpu, ts, ev.pid, ctx)) < 0)
					return ret;
			}
			ret = sink(ctx, &ev, comm);

			if (ret < 0)
				return ret;
			count++;
		}
	}
	return count;
}

enum read_mode {
	READ_ALL,       /* page by page up to the writer */
	READ_FLUSH,     /* the last page, after tracing stopped */
};

static long drain_cpu(struct ss_tracecap *c, unsigned cpu, ss_event_sink sink, void *ctx,
		      enum read_mode mode)
{
	struct cpu_reader *r = &c->cpus[cpu];
	long count = 0;

	for (;;) {
		long k;
		int n = mode == READ_FLUSH ? tracefs_cpu_flush(r->tcpu, r->page)
					   : tracefs_cpu_read(r->tcpu, r->page, true);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n < 0 && errno != EAGAIN && errno != ENODATA)
				return -errno;
			return count;
		}
		r->read_bytes += (uint64_t)n;
		k = read_page(c, cpu, r->page, sink, ctx);
		if (k < 0)
			return k;
		count += k;
		if (mode != READ_ALL)
			return count;
	}
}

/*
 * Splices CPU's whole pages — never the one its writer is still filling — into the pipe, as
 * many as it holds at a time, and decodes them.  The count of events, or -errno (of the pipe's
 * read or the sink).  *FAILED when a splice failed: the kernel allocates a page for each page
 * it hands over, and a transient failure leaves the pages where they are, for read() to take.
 * Where the kernel cannot splice the file at all, or SS_SPLICE_FAILURES splices fail in a row,
 * the pipe is closed (page by page from then on).
 */
static long splice_cpu(struct ss_tracecap *c, unsigned cpu, ss_event_sink sink, void *ctx,
		       bool *failed)
{
	struct cpu_reader *r = &c->cpus[cpu];
	size_t psize = (size_t)r->page_size;
	long count = 0;

	for (;;) {
		ssize_t n = splice(r->fd, NULL, c->pipe[1], NULL, c->pipe_bytes, SPLICE_F_NONBLOCK);
		size_t got = 0;

		if (n < 0 && errno != EAGAIN) {
			/* EINVAL: this kernel cannot splice the file; others: a failure of the
			 * moment, unless they keep coming */
			if (errno == EINVAL || ++c->splice_failures >= SS_SPLICE_FAILURES)
				ss_tracecap_close_splice(c);
			else
				*failed = true;
			return count;
		}
		c->splice_failures = 0;
		if (n <= 0)
			return count;
		while (got < (size_t)n) {
			ssize_t m = read(c->pipe[0], c->spliced + got, (size_t)n - got);

			if (m <= 0) {
				if (m < 0 && errno == EINTR)
					continue;
				return m < 0 ? -errno : -EIO;
			}
			got += (size_t)m;
		}
		r->read_bytes += got;
		for (size_t off = 0; off + psize <= got; off += psize) {
			long k = read_page(c, cpu, c->spliced + off, sink, ctx);

			if (k < 0)
				return k;
			count += k;
		}
		if ((size_t)n < c->pipe_bytes)
			return count;   /* up to the page being written */
	}
}

long ss_tracecap_drain(struct ss_tracecap *c, ss_event_sink sink, void *ctx)
{
	long total = 0;

	for (unsigned i = 0; i < c->nr_cpus; i++) {
		long n;

		if (!c->cpus[i].tcpu)
			continue;
		n = drain_cpu(c, i, sink, ctx, READ_ALL);
		if (n >= 0) {
			long m = drain_cpu(c, i, sink, ctx, READ_FLUSH);

			n = m < 0 ? m : n + m;
		}
		if (n < 0)
			return n;
		total += n;
	}
	return total;
}

long ss_tracecap_drain_pages(struct ss_tracecap *c, ss_event_sink sink, void *ctx, uint64_t now,
			     uint64_t stale_ns)
{
	long total = 0;

	for (unsigned i = 0; i < c->nr_cpus; i++) {
		struct cpu_reader *r = &c->cpus[i];
		uint64_t before = r->read_bytes;
		bool failed = false;
		long n = 0;

		if (!r->tcpu)
			continue;
		if (c->pipe[0] >= 0)
			n = splice_cpu(c, i, sink, ctx, &failed);
		if (n >= 0 && (c->pipe[0] < 0 || failed || r->read_bytes == before ||
			       now - r->caught_up >= stale_ns)) {
			/*
			 * Up to the writer, the page it is filling too: without splicing; on a CPU
			 * with no whole page this time (whose last read holds back the time up to
			 * which every CPU is read), or not read that far for STALE_NS.
			 */
			long m = drain_cpu(c, i, sink, ctx, READ_ALL);

			if (m >= 0)
				r->caught_up = now;
			n = m < 0 ? m : n + m;
		}
		if (n < 0)
			return n;
		total += n;
	}
	if (c->pacing && !__atomic_load_n(&c->stopping, __ATOMIC_ACQUIRE))
		ss_tracecap_pace_stacks(c, now);
	return total;
}

uint64_t ss_tracecap_read_to(const struct ss_tracecap *c)
{
	uint64_t to = UINT64_MAX;

	for (unsigned i = 0; i < c->nr_cpus; i++) {
		const struct cpu_reader *r = &c->cpus[i];
		uint64_t t = r->caught_up > r->last_ts ? r->caught_up : r->last_ts;

		if (r->tcpu && t < to)
			to = t;
	}
	return to == UINT64_MAX ? 0 : to;
}
