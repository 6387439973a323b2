// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reader backend for trace-cmd .dat files, through libtracecmd: the block request events
 * (block_rq_issue, _complete, _requeue, _insert and block_bio_queue) of the top-level buffer and
 * of every instance buffer (`trace-cmd record -B NAME`), decoded by field name with the event
 * formats stored in the file (collector/core/decode.h: the same decoder and event table the
 * recorder uses).  The task names (pid -> comm) come from the events that carry `comm`
 * (issue, insert, queue), read in the metadata pass into the trace's task table.
 *
 * Each (buffer, CPU) ring is already in time order; streaming merges them (import_merge.h)
 * with a heap over one pending event per ring.  Opening reads the file once for the devices,
 * the event count, the time range and the events the ring buffers reported lost.
 *
 * libtracecmd 3.1 is not safe on damaged files: its error paths crash (NULL dereferences in
 * tracecmd_close() after a failed tracecmd_open() or tracecmd_buffer_instance_handle(), e.g.
 * when an instance buffer's CPU data lies beyond the end of a .dat cut short).  So libtracecmd
 * runs only in a child process, the reader process, which opens the file once and decodes the
 * rings' records into events on request: the parent asks for ring I's next run over a socket
 * and finds it in memory both share (a memfd, two slots of items per ring: while the parent
 * reads one, the reader fills the other with the run after it).  A file the reader
 * process does not survive is refused with one line, during the open (the metadata pass reads
 * every record) or, should it ever happen later, as a read error; so is one on which
 * libtracecmd loops for ever, or which it unpacks to far more memory than the file's size:
 * each pass over a file has a budget of CPU time and its reading one of memory, worked out
 * here and handed to the reader with the file (ss_tc_cpu_budget, ss_tc_mem_budget,
 * import_tracecmd_proto.h), which refuses the file when it has spent either.
 *
 * The parent opens the file and hands the reader its descriptor (and the memfd's) over the
 * socket, so that one reader process can serve several files one after another: a caller that
 * opens many small files in turn (the fuzz target) keeps one in a struct ss_tracecmd_server
 * (trace_read.h) instead of paying for a fork() and an exit of its whole address space per
 * file.  It is replaced when it dies (a file it crashed on is refused as above; one that died
 * between files is replaced before the next) or has grown by SERVER_GROWTH; libtracecmd's
 * handles of the files it served are abandoned, not closed (their close is not safe), their
 * descriptors closed.  A server's readers are forked by a small spawner process forked when
 * the server is made (import_tracecmd_proto.h), not by the caller: a fork of the caller makes
 * every page it writes afterwards a copy, and a fuzzer replaces its reader for about a
 * quarter of its inputs (24 % more inputs a second with the spawner).  Commands read each file
 * in a reader process of its own, forked by them.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "errbuf.h"
#include "import_merge.h"
#include "import_tracecmd_proto.h"

#define CRASHED "cannot read this trace-cmd file: corrupt or truncated (the trace-cmd reader " \
		"crashed reading it)"

struct tc_state;
static int reader_lost(struct tc_state *s, char *err, size_t errlen);
static int add_summary_meta(struct ss_trace *t, const struct tc_state *s);

/* ---- the parent: the backend */

static bool tc_probe(const unsigned char *head, size_t len)
{
	return len >= sizeof(TRACECMD_MAGIC) - 1 &&
	       !memcmp(head, TRACECMD_MAGIC, sizeof(TRACECMD_MAGIC) - 1);
}


/* A reader process kept between opens (trace_read.h), forked by a spawner of its own
 * (import_tracecmd_proto.h) when there is one. */
struct ss_tracecmd_server {
	pid_t pid;                      /* 0: none (started at the next open) */
	int sock;                       /* to it */
	bool busy;                      /* reading a trace that is open */
	pid_t spawner;                  /* 0: none (the readers are forked here) */
	int ctl;                        /* to the spawner */
};

/* One ring as the parent sees it: its items in one of its shared slots, slot[pos..len). */
struct ring {
	uint32_t cpu;
	const struct item *slot;
	size_t pos, len;
	bool ended;             /* the reader said the ring has no more records */
	uint64_t missed;        /* events the ring buffer reported lost since its start */
};

struct tc_state {
	pid_t pid;                      /* the reader process of its own; 0: none */
	int sock;                       /* to the reader; -1: none */
	struct ss_tracecmd_server *srv; /* the kept reader it uses instead; NULL: none */
	bool failed;                    /* the reader died or broke the protocol */
	struct ss_tc_budget budget;     /* what its reading may take of the reader */
	int memfd;
	const struct item *items;       /* nr_rings x 2 slots of slot items */
	size_t map_len;
	size_t slot;
	struct ring *rings;
	size_t nr_rings;
	struct ss_merge *merge;         /* over the rings, by index */
	struct ss_trace *scanning;      /* during the metadata pass: the trace whose task table
					 * takes the events' comms */
	int task_error;                 /* the first error adding to it (names, lost spans) */
	char buffers[512];
	bool paged;                     /* the reader reads the rings page by page */
	struct ring_scan *scans;        /* a lazy open's pass: what each ring's stream found */
	int broken;                     /* lazy_end failed: the trace is unusable, this error */
};

/* What a lazily opened trace's first pass found in one ring (ss_trace_open_lazy): its events
 * and task names in a deferred scan, its lost spans, both taken into the trace in the rings'
 * order when the stream first ends (lazy_end), as scan() takes them. */
struct ring_scan {
	struct ss_merge_scanner sc;
	int ret;                        /* the first error (-EOVERFLOW: names past the scan's) */
	uint32_t damaged;               /* why the ring ended early (DAMAGED_*) */
	struct ss_rec_lost *lost;
	size_t nr_lost, cap_lost;
};

/* The rest of a damaged ring (DAMAGED, of CPU CPU) is not read: said in T once, as a cut file's
 * end is. */
static void damaged_warning(struct ss_trace *t, uint32_t damaged, uint32_t cpu)
{
	if (!t->truncated) {
		t->truncated = true;
		ss_tc_damaged_msg(t->warning, sizeof(t->warning), damaged, cpu);
	}
}

/* Ask the reader for ring I's next items: 0, or -errno with the reason in err (-EBADMSG the
 * reader lost, -ETIMEDOUT or -ENOMEM a budget spent, -EINVAL the file refused as corrupt). */
static int fetch(struct tc_state *s, size_t i, bool first, char *err, size_t errlen)
{
	struct request q = { .ring = (uint32_t)i, .first = first };
	struct reply p;

	if (ss_tc_xfer(s->sock, &q, sizeof(q), true) || ss_tc_xfer(s->sock, &p, sizeof(p), false))
		return reader_lost(s, err, errlen);
	if (p.n == -ETIMEDOUT || p.n == -ENOMEM) {
		/* a budget spent: the reader stops serving this file */
		s->failed = true;
		if (p.n == -ETIMEDOUT)
			ss_tc_budget_msg(err, errlen, s->budget.cpu);
		else
			ss_tc_mem_msg(err, errlen, s->budget.mem);
		return p.n;
	}
	if (p.n == -EBADMSG) {
		/* the walk over every compressed chunk refused the file: why follows */
		char why[256];

		if (ss_tc_xfer(s->sock, why, sizeof(why), false))
			return reader_lost(s, err, errlen);
		s->failed = true;
		ss_errf(err, errlen, "%.*s", (int)sizeof(why) - 1, why);
		return -EINVAL;
	}
	if (p.n < 0 || (size_t)p.n > s->slot || p.which > 1)
		return reader_lost(s, err, errlen);
	s->rings[i].slot = s->items + (i * 2 + p.which) * s->slot;
	s->rings[i].pos = 0;
	s->rings[i].len = (size_t)p.n;
	s->rings[i].ended = p.ended;
	if (p.damaged && s->scanning)
		damaged_warning(s->scanning, p.damaged, s->rings[i].cpu);
	if (p.damaged && s->scans && !s->scans[i].damaged)
		s->scans[i].damaged = p.damaged;        /* said at the pass's end */
	return 0;
}

/* A lost span into RS, kept for the end of the pass: 0 or -ENOMEM. */
static int keep_lost(struct ring_scan *rs, const struct ss_rec_lost *l)
{
	if (rs->nr_lost == rs->cap_lost) {
		size_t cap = rs->cap_lost ? 2 * rs->cap_lost : 16;
		struct ss_rec_lost *n = realloc(rs->lost, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		rs->lost = n;
		rs->cap_lost = cap;
	}
	rs->lost[rs->nr_lost++] = *l;
	return 0;
}

/*
 * Ring I's next block event (with FIRST its first): 1, 0 at its end, -errno.  The ring
 * buffer's reports of lost events on the way add to its missed count (an unknown count counts
 * as one) and, while scanning, a lost span from its previous record to this one (format.h,
 * SS_REC_LOST); the events' task names go to the task table (or, in a lazy open's pass, the
 * events, their names and the lost spans to the ring's struct ring_scan).
 */
static int next_event(void *ctx, size_t i, bool first, struct ss_event *ev, char *err,
		      size_t errlen)
{
	struct tc_state *s = ctx;
	struct ring *r = &s->rings[i];
	struct ring_scan *rs = s->scans ? &s->scans[i] : NULL;
	int ret;

	if (first)
		*r = (struct ring){ .cpu = r->cpu };
	if (first && rs) {              /* the pass starts over */
		ss_merge_scan_free(&rs->sc);
		ss_merge_scan_begin_deferred(&rs->sc);
		rs->ret = 0;
		rs->damaged = DAMAGED_NONE;
		rs->nr_lost = 0;
	}
	for (;;) {
		const struct item *it;

		if (r->pos == r->len) {
			if (r->ended)
				break;
			if ((ret = fetch(s, i, first, err, errlen)))
				return ret;
			first = false;
			continue;
		}
		it = &r->slot[r->pos++];
		if (it->is_lost) {
			r->missed += it->lost.count;
			if (s->scanning && !s->task_error)
				s->task_error = ss_trace_add_lost(s->scanning, &it->lost);
			if (rs && !rs->ret)
				rs->ret = keep_lost(rs, &it->lost);
			continue;
		}
		*ev = it->ev;
		if (rs && !rs->ret) {
			rs->ret = ss_merge_scan_event(&rs->sc, ev);
			if (it->comm[0] && !rs->ret)
				rs->ret = ss_merge_scan_task_name(&rs->sc, ev->ts_ns, ev->pid, it->comm,
								  sizeof(it->comm));
		}
		/* the events name their tasks (issue, insert, queue carry comm) */
		if (it->comm[0] && s->scanning && !s->task_error)
			s->task_error = ss_trace_add_task_name(s->scanning, ev->ts_ns, ev->pid,
							       it->comm, sizeof(it->comm));
		return 1;
	}
	if (s->task_error) {
		ss_errf(err, errlen, "task names, lost spans: %s", strerror(-s->task_error));
		return s->task_error;
	}
	return 0;
}

/* ss_merge_next_fn: ring I's next events. */
static long next_events(void *ctx, size_t i, bool first, struct ss_event *ev, size_t max,
			char *err, size_t errlen)
{
	size_t n = 0;
	int ret = 0;

	while (n < max && (ret = next_event(ctx, i, first && !n, &ev[n], err, errlen)) > 0)
		n++;
	return n == max || ret >= 0 ? (long)n : ret;
}

static int tc_rewind(struct ss_trace *t)
{
	struct tc_state *s = ss_trace_state(t);

	return s->broken ? s->broken : ss_merge_rewind(s->merge, t);
}

static int tc_next_batch(struct ss_trace *t, const struct ss_event **ev, size_t *n)
{
	struct tc_state *s = ss_trace_state(t);

	return s->broken ? s->broken : ss_merge_next_batch(s->merge, t, ev, n);
}

/* The events per CPU of S's rings, counted into ST[] (NR_ST CPUs) by the pass: into T. */
static int add_cpu_stats(struct ss_trace *t, struct ss_rec_cpu_stats *st, size_t nr_st)
{
	int ret = 0;

	for (size_t c = 0; c < nr_st && !ret; c++) {
		st[c].cpu = (uint32_t)c;
		ret = ss_trace_add_cpu_stats(t, &st[c]);
	}
	return ret;
}

/* The per-CPU counts of S's rings: calloc()ed, *NR CPUs (NULL with *NR 0: none, or ENOMEM). */
static struct ss_rec_cpu_stats *cpu_stats_new(const struct tc_state *s, size_t *nr)
{
	*nr = 0;
	for (size_t i = 0; i < s->nr_rings; i++)
		if ((size_t)s->rings[i].cpu + 1 > *nr)
			*nr = (size_t)s->rings[i].cpu + 1;
	return *nr ? calloc(*nr, sizeof(struct ss_rec_cpu_stats)) : NULL;
}

/* Metadata pass: devices, counts, time range and lost events per CPU. */
static int scan(struct ss_trace *t, struct tc_state *s, char *err, size_t errlen)
{
	size_t nr_st;
	struct ss_rec_cpu_stats *st = cpu_stats_new(s, &nr_st);
	int ret = 0;

	if (nr_st && !st)
		return -ENOMEM;
	s->scanning = t;
	for (size_t i = 0; i < s->nr_rings && !ret; i++) {
		struct ss_rec_cpu_stats *cs = &st[s->rings[i].cpu];
		struct ss_merge_count c = { 0 };

		ret = ss_merge_scan(s->merge, i, t, &c, err, errlen);
		cs->events += c.events;
		cs->missed += s->rings[i].missed;
	}
	s->scanning = NULL;
	if (!ret)
		ret = add_cpu_stats(t, st, nr_st);
	free(st);
	return ret;
}

static void free_scans(struct tc_state *s)
{
	for (size_t i = 0; s->scans && i < s->nr_rings; i++) {
		ss_merge_scan_free(&s->scans[i].sc);
		free(s->scans[i].lost);
	}
	free(s->scans);
	s->scans = NULL;
}

/* Ring I's findings in RS, of a lazy open's pass, into T as scan() puts them; a ring whose task
 * names overflowed its deferred scan is scanned again, straight into T. */
static int take_scan(struct ss_trace *t, struct tc_state *s, size_t i, struct ring_scan *rs,
		     struct ss_rec_cpu_stats *cs, char *err, size_t errlen)
{
	struct ss_merge_count c = { 0 };
	bool in_notes;
	int ret;

	if (rs->ret == -EOVERFLOW) {
		ss_merge_scan_free(&rs->sc);
		s->scanning = t;
		ret = ss_merge_scan(s->merge, i, t, &c, err, errlen);
		s->scanning = NULL;
	} else if (!(ret = rs->ret)) {
		for (size_t k = 0; k < rs->nr_lost && !ret; k++)
			ret = ss_trace_add_lost(t, &rs->lost[k]);
		if (!ret && (ret = ss_merge_scan_replay(&rs->sc, t, &in_notes)) && in_notes)
			ss_errf(err, errlen, "task names, lost spans: %s", strerror(-ret));
		if (!ret)
			ret = ss_merge_scan_end(&rs->sc, &c);
	}
	if (!ret && rs->damaged)
		damaged_warning(t, rs->damaged, s->rings[i].cpu);
	cs->events += c.events;
	cs->missed += s->rings[i].missed;
	return ret;
}

/* The stream's first end, of a lazy open: every ring's findings into T, in the rings' order,
 * as tc_open() takes them (ss_merge_set_end). */
static int lazy_end(void *ctx, struct ss_trace *t)
{
	struct tc_state *s = ctx;
	struct ring_scan *scans = s->scans;
	size_t nr_st;
	struct ss_rec_cpu_stats *st = cpu_stats_new(s, &nr_st);
	char err[256] = "";
	int ret = nr_st && !st ? -ENOMEM : 0;

	s->scans = NULL;                /* (a ring scanned again feeds no deferred scan) */
	for (size_t i = 0; i < s->nr_rings && !ret; i++)
		ret = take_scan(t, s, i, &scans[i], &st[s->rings[i].cpu], err, sizeof(err));
	s->scans = scans;
	free_scans(s);
	if (!ret)
		ret = add_cpu_stats(t, st, nr_st);
	if (!ret)
		ret = add_summary_meta(t, s);
	free(st);
	if (ret) {
		/* part of the metadata taken already: no stream may take it again (the caller
		 * opens the trace again) */
		ss_trace_set_error(t, "%s", err[0] ? err : strerror(-ret));
		s->broken = ret;
		return ret;
	}
	ss_merge_sort_devices(t);
	ss_trace_meta_done(t);
	return 0;
}

static int add_summary_meta(struct ss_trace *t, const struct tc_state *s)
{
	int ret = 0;

	ret |= ss_trace_add_meta(t, "source", "trace-cmd");
	ret |= ss_trace_add_meta(t, "source.path", t->path);
	ret |= ss_trace_add_meta(t, "trace-cmd.buffers", s->buffers);
	ret |= ss_trace_add_meta(t, "trace-cmd.reader", s->paged ? "pages" : "libtracecmd");
	return ret ? -ENOMEM : 0;
}

/* Fork a reader process: 0 with its pid and socket, or -errno with the reason in err. */
static int spawn(pid_t *pid, int *sock, char *err, size_t errlen)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
		int e = errno;

		ss_errf(err, errlen, "cannot start the trace-cmd reader process: %s", strerror(e));
		return -e;
	}
	fflush(NULL);
	*pid = fork();
	if (*pid < 0) {
		int e = errno;

		*pid = 0;
		close(sv[0]);
		close(sv[1]);
		ss_errf(err, errlen, "cannot start the trace-cmd reader process: %s", strerror(e));
		return -e;
	}
	if (*pid == 0) {
		close(sv[0]);
		ss_tc_reader_main(sv[1]);
	}
	close(sv[1]);
	*sock = sv[0];
	return 0;
}

/* End reader process PID: its socket SOCK closed, killed, reaped. */
static void end_reader(pid_t pid, int sock)
{
	if (sock >= 0)
		close(sock);
	if (pid > 0)
		ss_tc_end_child(pid);
}

/* SRV's spawner ended: at its socket's end it ends what it forked, then itself. */
static void end_spawner(struct ss_tracecmd_server *srv)
{
	if (!srv->spawner)
		return;
	/* its end of file now, even if a child of the caller holds a copy of the socket */
	shutdown(srv->ctl, SHUT_RDWR);
	close(srv->ctl);
	srv->ctl = -1;
	while (waitpid(srv->spawner, NULL, 0) < 0 && errno == EINTR)
		;
	srv->spawner = 0;
}

/* A kept reader for SRV: from its spawner, or forked here when it has none (or it is gone). */
static int spawn_kept(struct ss_tracecmd_server *srv, char *err, size_t errlen)
{
	struct ss_tc_spawn q = { .op = SS_TC_SPAWN }, r = { 0 };

	if (srv->spawner) {
		int fd = -1, got = -1;

		if (!ss_tc_send_msg(srv->ctl, &q, sizeof(q), NULL, 0))
			got = ss_tc_recv_msg(srv->ctl, &r, sizeof(r), &fd, 1);
		if (got == 1 && r.op == SS_TC_SPAWN && r.pid > 0) {
			srv->pid = r.pid;
			srv->sock = fd;
			return 0;
		}
		if (got == 1)
			close(fd);
		if (got == -2 || (got == 0 && r.err > 0)) {
			/* the spawner lives: its fork failed, or its answer's descriptor could
			 * not be taken here (at the limit of descriptors) */
			int e = got == -2 ? EMFILE : r.err;

			if (got == -2 && r.pid > 0) {
				struct ss_tc_spawn end = { .op = SS_TC_END, .pid = r.pid };

				ss_tc_send_msg(srv->ctl, &end, sizeof(end), NULL, 0);
			}
			ss_errf(err, errlen, "cannot start the trace-cmd reader process: %s",
				strerror(e));
			return -e;
		}
		/* no answer, or one that makes no sense: the spawner is gone; the readers are
		 * forked here from now on */
		end_spawner(srv);
	}
	return spawn(&srv->pid, &srv->sock, err, errlen);
}

/* End SRV's kept reader (through its spawner when it has one). */
static void end_kept(struct ss_tracecmd_server *srv)
{
	if (srv->spawner && srv->pid > 0) {
		struct ss_tc_spawn q = { .op = SS_TC_END, .pid = srv->pid };

		if (srv->sock >= 0)
			close(srv->sock);
		ss_tc_send_msg(srv->ctl, &q, sizeof(q), NULL, 0);
	} else {
		end_reader(srv->pid, srv->sock);
	}
	srv->pid = 0;
	srv->sock = -1;
}

/*
 * A reader for T's file (the kept one of T's server when it is free, else one of its own),
 * handed the file: 0, or -errno with the reason in err.
 */
static int connect_reader(struct tc_state *s, struct ss_trace *t, char *err, size_t errlen)
{
	struct ss_tracecmd_server *srv = ss_trace_tracecmd_server(t);
	int fds[2], ret;

	fds[0] = open(ss_trace_source(t), O_RDONLY | O_CLOEXEC);
	if (fds[0] < 0) {
		int e = errno;

		ss_errf(err, errlen, "cannot read this trace-cmd file: %s", strerror(e));
		return -e;
	}
	fds[1] = s->memfd;
	s->budget = (struct ss_tc_budget){ ss_tc_cpu_budget(fds[0]), ss_tc_mem_budget(fds[0]), 0 };
	if (srv && !srv->busy) {
		bool kept = srv->pid != 0;

		if (!kept && (ret = spawn_kept(srv, err, errlen))) {
			close(fds[0]);
			return ret;
		}
		ret = ss_tc_send_fds(srv->sock, fds, &s->budget);
		if (ret && kept) {
			/* the kept reader died since its last file (not of this one): replaced */
			end_kept(srv);
			if ((ret = spawn_kept(srv, err, errlen))) {
				close(fds[0]);
				return ret;
			}
			ret = ss_tc_send_fds(srv->sock, fds, &s->budget);
		}
		srv->busy = true;
		s->srv = srv;
		s->sock = srv->sock;
	} else if ((ret = spawn(&s->pid, &s->sock, err, errlen))) {
		close(fds[0]);
		return ret;
	} else {
		/* a reader of its own, for this file alone: its heap on huge pages */
		s->budget.heap = ss_tc_heap_budget(fds[0], s->budget.mem);
		ret = ss_tc_send_fds(s->sock, fds, &s->budget);
	}
	close(fds[0]);
	if (ret)
		return reader_lost(s, err, errlen);
	return 0;
}

/*
 * S's reader is gone, or broke the protocol: S failed, -errno with the reason in err.  A reader
 * of S's own is ended and reaped here, for its status: one that spent the pass's CPU budget
 * inside libtracecmd (an endless loop) says so; a kept one's is its spawner's to reap, and
 * reads as a crash (only the fuzz target keeps one).
 */
static int reader_lost(struct tc_state *s, char *err, size_t errlen)
{
	int status = 0;

	s->failed = true;
	if (s->pid > 0) {
		/* a reader that has exited keeps its status; one that broke the protocol ends */
		kill(s->pid, SIGKILL);
		while (waitpid(s->pid, &status, 0) < 0 && errno == EINTR)
			;
		s->pid = 0;
		if (WIFEXITED(status) && WEXITSTATUS(status) == SS_TC_EXIT_CPU) {
			ss_tc_budget_msg(err, errlen, s->budget.cpu);
			return -ETIMEDOUT;
		}
	}
	ss_errf(err, errlen, CRASHED);
	return -EBADMSG;
}

/*
 * Start reading T's file in a reader process and take its first message: 0, or -errno with
 * the reason in err (the reader's own when it could not open the file).
 */
static int start_reader(struct tc_state *s, struct ss_trace *t, char *err, size_t errlen)
{
	struct hello h;
	uint32_t *cpus = NULL;
	void *map;
	int ret;

	s->memfd = memfd_create("seekscope-tracecmd", MFD_CLOEXEC);
	if (s->memfd < 0) {
		int e = errno;

		ss_errf(err, errlen, "cannot create the trace-cmd reader's shared memory: %s",
			strerror(e));
		return -e;
	}
	if ((ret = connect_reader(s, t, err, errlen)))
		return ret;
	if (ss_tc_xfer(s->sock, &h, sizeof(h), false))
		return reader_lost(s, err, errlen);
	if (h.ret) {
		h.err[sizeof(h.err) - 1] = 0;
		ss_errf(err, errlen, "%s", h.err);
		return h.ret < 0 ? h.ret : -EIO;
	}
	h.buffers[sizeof(h.buffers) - 1] = 0;
	memcpy(s->buffers, h.buffers, sizeof(s->buffers));
	s->paged = h.paged;
	s->slot = h.slot;
	s->map_len = (h.nr_rings ? h.nr_rings : 1) * 2 * (size_t)h.slot * sizeof(*s->items);
	s->rings = calloc(h.nr_rings ? h.nr_rings : 1, sizeof(*s->rings));
	cpus = calloc(h.nr_rings ? h.nr_rings : 1, sizeof(*cpus));
	if (!s->rings || !cpus) {
		/* the reader's CPU list is left unread: it cannot serve another file */
		free(cpus);
		s->failed = true;
		ss_errf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	if (ss_tc_xfer(s->sock, cpus, h.nr_rings * sizeof(*cpus), false)) {
		free(cpus);
		return reader_lost(s, err, errlen);
	}
	s->nr_rings = h.nr_rings;
	for (size_t i = 0; i < s->nr_rings; i++)
		s->rings[i].cpu = cpus[i];
	free(cpus);
	map = mmap(NULL, s->map_len, PROT_READ, MAP_SHARED, s->memfd, 0);
	if (map == MAP_FAILED) {
		int e = errno;

		ss_errf(err, errlen, "cannot share the trace-cmd reader's memory: %s", strerror(e));
		return -e;
	}
	s->items = map;
	close(s->memfd);        /* the mapping keeps the memory */
	s->memfd = -1;
	return 0;
}

/* Both opens' start: T's state, its reader with the file and the merge over its rings in *SP.
 * 0 or -errno (the reason in ERR). */
static int open_state(struct ss_trace *t, struct tc_state **sp, char *err, size_t errlen)
{
	struct tc_state *s = calloc(1, sizeof(*s));
	int ret;

	if (!(*sp = s))
		return -ENOMEM;
	s->sock = s->memfd = -1;
	ss_trace_set_state(t, s);
	if ((ret = start_reader(s, t, err, errlen)))
		return ret;
	return (s->merge = ss_merge_new(s->nr_rings, next_events, s)) ? 0 : -ENOMEM;
}

static int tc_open(struct ss_trace *t, char *err, size_t errlen)
{
	struct tc_state *s;
	int ret;

	if ((ret = open_state(t, &s, err, errlen)) || (ret = scan(t, s, err, errlen)) ||
	    (ret = add_summary_meta(t, s)))
		return ret;
	return ss_merge_start(s->merge, t, err, errlen);
}

/*
 * Opened lazily (trace_backend.h: open_lazy, for a report): no metadata pass; the first pass
 * of the stream finds it (lazy_end), so that the file is read once.  Only a file whose rings
 * are read page by page: libtracecmd can read a damaged file differently twice, which the
 * usual open's two passes catch (tests/fuzz/regress/tracecmd/reread-differs.dat); the rest is
 * refused here, and opened the usual way (a reader started again, the file's options and
 * chunks checked again: a few milliseconds, more for a file whose chunks the check unpacks,
 * zlib's).  The
 * events' count is guessed from the file's size
 * (a compressed file's events take 6 bytes or so, a plain one's 64): only a hint for the
 * read-ahead's rule.
 */
static int tc_open_lazy(struct ss_trace *t, char *err, size_t errlen)
{
	struct tc_state *s;
	struct stat sb;
	int ret;

	if ((ret = open_state(t, &s, err, errlen)))
		return ret;
	if (!s->paged)
		return -EOPNOTSUPP;     /* before any metadata (a refusal must add none) */
	if (!(s->scans = calloc(s->nr_rings ? s->nr_rings : 1, sizeof(*s->scans))))
		return -ENOMEM;
	for (size_t i = 0; i < s->nr_rings; i++)
		ss_merge_scan_begin_deferred(&s->scans[i].sc);
	if (!stat(ss_trace_source(t), &sb) && sb.st_size > 0)
		ss_trace_set_events_hint(t, (uint64_t)sb.st_size / 16);
	ss_merge_set_end(s->merge, lazy_end);
	if ((ret = ss_merge_rewind(s->merge, t)))
		ss_errf(err, errlen, "%s", ss_trace_error(t));
	return ret;
}

static void tc_close(struct ss_trace *t)
{
	struct tc_state *s = ss_trace_state(t);

	if (!s)
		return;
	free_scans(s);
	if (s->srv) {
		/* done with the file: the kept reader goes on unless it broke or retires */
		struct request q = { .ring = END_RING };
		struct reply p;

		if (s->failed || ss_tc_xfer(s->sock, &q, sizeof(q), true) ||
		    ss_tc_xfer(s->sock, &p, sizeof(p), false) || p.ended)
			end_kept(s->srv);
		s->srv->busy = false;
	} else {
		end_reader(s->pid, s->sock);
	}
	if (s->items)
		munmap((void *)s->items, s->map_len);
	if (s->memfd >= 0)
		close(s->memfd);
	free(s->rings);
	ss_merge_free(s->merge);
	free(s);
}

const struct ss_trace_backend ss_trace_backend_tracecmd = {
	.name = "trace-cmd",
	.probe = tc_probe,
	.open = tc_open,
	.open_lazy = tc_open_lazy,
	.next_batch = tc_next_batch,
	.costly_decode = true,
	.rewind = tc_rewind,
	.close = tc_close,
};

struct ss_tracecmd_server *ss_tracecmd_server_new(void)
{
	struct ss_tracecmd_server *srv = calloc(1, sizeof(*srv));
	int sv[2];

	if (!srv)
		return NULL;
	srv->sock = srv->ctl = -1;
	/* the spawner, forked now while this process is small (without one the readers are
	 * forked here, as a command's are) */
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return srv;
	fflush(NULL);
	srv->spawner = fork();
	if (srv->spawner == 0) {
		close(sv[0]);
		ss_tc_spawner_main(sv[1]);
	}
	close(sv[1]);
	if (srv->spawner < 0) {
		srv->spawner = 0;
		close(sv[0]);
	} else {
		srv->ctl = sv[0];
	}
	return srv;
}

void ss_tracecmd_server_free(struct ss_tracecmd_server *srv)
{
	if (!srv)
		return;
	end_kept(srv);
	end_spawner(srv);
	free(srv);
}
