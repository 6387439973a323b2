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
 * every record) or, should it ever happen later, as a read error.
 *
 * The parent opens the file and hands the reader its descriptor (and the memfd's) over the
 * socket, so that one reader process can serve several files one after another: a caller that
 * opens many small files in turn (the fuzz target) keeps one in a struct ss_tracecmd_server
 * (trace_read.h) instead of paying for a fork() and an exit of its whole address space per
 * file.  It is replaced when it dies (a file it crashed on is refused as above) or has grown
 * by SERVER_GROWTH; the files it served stay open in it, since libtracecmd's close is not
 * safe.  Commands read each file in a reader process of its own.
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
#include <sys/wait.h>

#include <trace-cmd.h>

#include "decode.h"
#include "import_merge.h"

#define TRACECMD_MAGIC "\027\010\104tracing"
/* libtracecmd's version as 10000 * major + 100 * minor + patch (the Makefile's, pkg-config's) */
#ifndef SS_LIBTRACECMD_VERSION
#define SS_LIBTRACECMD_VERSION 0
#endif
#define CRASHED "cannot read this trace-cmd file: corrupt or truncated (libtracecmd crashed " \
		"reading it)"
/* items in the shared memory: at most SLOTS_MAX in all, SLOT_MIN..SLOT_MAX a slot */
#define SLOTS_MAX (256u * 1024)
#define SLOT_MIN  256u
#define SLOT_MAX  8192u
/* the request that ends a file; its reply's ended says whether the reader retires */
#define END_RING UINT32_MAX
/* a kept reader process retires when its resident memory has grown by this much */
#define SERVER_GROWTH (128u << 20)

/* What the reader process hands over for one record: a block event with the task name it
 * carries ("" if none), or a span of events the ring buffer lost before the record. */
struct item {
	union {
		struct ss_event ev;
		struct ss_rec_lost lost;
	};
	char comm[SS_COMM_LEN];
	uint32_t is_lost;
	uint32_t reserved;
};

/* The reader process's first message, then nr_rings uint32_t: each ring's CPU. */
struct hello {
	int32_t ret;                    /* 0 or -errno (the reason in err) */
	uint32_t nr_rings;
	uint32_t slot;                  /* items a slot holds */
	char err[256];
	char buffers[512];              /* "top,NAME,...": trace-cmd.buffers */
};

/* A request: ring's next items (from its first record with first); the answer: struct reply.
 * Ring END_RING: done with the file (the reply's ended: the reader retires, ends). */
struct request {
	uint32_t ring;
	uint32_t first;
};

struct reply {
	int32_t n;                      /* items in the slot */
	uint32_t ended;                 /* the ring has no more records */
	uint32_t which;                 /* the ring's slot they are in: 0 or 1 */
	uint32_t damaged;               /* ended because its records went back in the file */
};

/* ---- the reader process: libtracecmd */

/* One per-CPU ring of one buffer. */
struct lib_ring {
	struct tracecmd_input *h;
	const struct ss_decoder *dec;
	int cpu;
	uint64_t last_ts;       /* of the last record read from it (0: none yet) */
	uint64_t last_offset;   /* ... its offset in the file (0: none yet) */
	bool damaged;           /* a record came from before the last one: the ring ended */
	uint64_t held_to;       /* records below this offset are on a page held (lib.hold) */
	unsigned handed;        /* the slot the parent reads */
	bool ahead;             /* the other slot holds the next run, read ahead: */
	bool ahead_ended;
	size_t ahead_n;
};

struct lib {
	struct tracecmd_input *top;
	struct tracecmd_input **inst;   /* instance buffers */
	int nr_inst;
	struct ss_decoder **dec;        /* per buffer: [0] top, [1 + i] instance i */
	struct lib_ring *rings;
	size_t nr_rings;
	uint32_t page_size;             /* of the file's ring buffer pages */
	bool hold;                      /* keep one record of every page (see release()) */
};

static bool tc_probe(const unsigned char *head, size_t len)
{
	return len >= sizeof(TRACECMD_MAGIC) - 1 &&
	       !memcmp(head, TRACECMD_MAGIC, sizeof(TRACECMD_MAGIC) - 1);
}

/*
 * From the file's first bytes (magic, version, endianness, long size, page size and, from
 * version 7, the compression's name): its page size and whether its CPU data is compressed.
 */
static void read_file_header(int fd, struct lib *l)
{
	unsigned char b[128];
	ssize_t n = pread(fd, b, sizeof(b) - 1, 0);
	size_t pos = sizeof(TRACECMD_MAGIC) - 1, ver_at = pos;
	unsigned long version;

	if (n < 0 || (size_t)n <= pos)
		return;
	b[n] = 0;
	while (pos < (size_t)n && b[pos])
		pos++;
	version = strtoul((const char *)b + ver_at, NULL, 10);
	if (pos + 7 > (size_t)n)
		return;
	pos++;
	l->page_size = b[pos] ? (uint32_t)b[pos + 2] << 24 | (uint32_t)b[pos + 3] << 16 |
				(uint32_t)b[pos + 4] << 8 | b[pos + 5] :
				(uint32_t)b[pos + 5] << 24 | (uint32_t)b[pos + 4] << 16 |
				(uint32_t)b[pos + 3] << 8 | b[pos + 2];
	pos += 6;
	l->hold = SS_LIBTRACECMD_VERSION < 10500 && version >= 7 && b[pos] &&
		  strcmp((const char *)b + pos, "none") &&
		  l->page_size >= 1024 && !(l->page_size & (l->page_size - 1));
}

/*
 * libtracecmd 3.1 reads every section of a .dat's headers when it opens one and has no flag to
 * skip any: the kernel's symbol table (kallsyms, some 150,000 lines through sscanf: most of the
 * time an open takes) and the saved command lines go into the tep handle, to name functions and
 * tasks when events are printed.  The reader names neither (task names come from the events'
 * comm fields), so these two take the place of libtraceevent's in the process: an executable's
 * symbols come first in the dynamic linker's lookup.  Nothing else in seekscope calls them (the
 * recorder parses only its events' formats, collector/capture/tracecap.c).
 */
int tep_parse_kallsyms(struct tep_handle *tep, const char *kallsyms)
{
	(void)tep, (void)kallsyms;
	return 0;
}

int tep_parse_saved_cmdlines(struct tep_handle *tep, const char *buf)
{
	(void)tep, (void)buf;
	return 0;
}

/* A decoder for buffer H's event formats; *known counts the block events it knows. */
static struct ss_decoder *make_decoder(struct tracecmd_input *h, size_t *known)
{
	struct ss_decoder *d = ss_decoder_new(tracecmd_get_tep(h));

	if (!d)
		return NULL;
	for (size_t i = 0; i < ss_nr_block_events; i++)
		if (!ss_decoder_add(d, ss_block_events[i].name, ss_block_events[i].type))
			(*known)++;
	return d;
}

/* Open the instance buffers and one ring per (buffer, CPU). */
static int setup_buffers(struct lib *l, size_t *known)
{
	int nb = tracecmd_buffer_instances(l->top);
	size_t nr = 0;

	if (nb < 0)
		nb = 0;
	l->inst = calloc((size_t)nb + 1, sizeof(*l->inst));
	l->dec = calloc((size_t)nb + 1, sizeof(*l->dec));
	if (!l->inst || !l->dec)
		return -ENOMEM;
	for (int i = 0; i < nb; i++) {
		l->inst[i] = tracecmd_buffer_instance_handle(l->top, i);
		if (!l->inst[i])
			return -EINVAL;
		l->nr_inst = i + 1;
	}
	for (int b = 0; b <= nb; b++) {
		struct tracecmd_input *h = b ? l->inst[b - 1] : l->top;
		int cpus = tep_get_cpus(tracecmd_get_tep(h));

		if (!(l->dec[b] = make_decoder(h, known)))
			return -ENOMEM;
		nr += cpus > 0 ? (size_t)cpus : 0;
	}
	l->rings = calloc(nr ? nr : 1, sizeof(*l->rings));
	if (!l->rings)
		return -ENOMEM;
	for (int b = 0; b <= nb; b++) {
		struct tracecmd_input *h = b ? l->inst[b - 1] : l->top;
		int cpus = tep_get_cpus(tracecmd_get_tep(h));

		for (int c = 0; c < cpus; c++)
			l->rings[l->nr_rings++] = (struct lib_ring){ .h = h, .dec = l->dec[b], .cpu = c };
	}
	return 0;
}

/* The buffers' names, "top,NAME,...", for the trace's metadata. */
static void buffer_names(const struct lib *l, char *buf, size_t size)
{
	size_t len = (size_t)snprintf(buf, size, "top");

	for (int i = 0; i < l->nr_inst && len < size; i++) {
		const char *name = tracecmd_buffer_instance_name(l->top, i);
		int n = snprintf(buf + len, size - len, ",%s", name ? name : "?");

		if (n > 0)
			len += (size_t)n;
	}
}

/* Open the file FD (the reader's: libtracecmd keeps it), its buffers and rings: 0 or -errno
 * with the reason in err. */
static int lib_open(struct lib *l, int fd, char *err, size_t errlen)
{
	size_t known = 0;
	int ret;

	/* library code prints nothing: silence libtracecmd and libtraceevent */
	tracecmd_set_loglevel(TEP_LOG_NONE);
	read_file_header(fd, l);
	errno = 0;
	l->top = tracecmd_open_fd(fd, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!l->top) {
		ret = errno && errno != ENOENT ? -errno : -EINVAL;
		ss_errf(err, errlen, "cannot read this trace-cmd file: %s",
			errno && errno != ENOENT && errno != EINVAL ? strerror(errno) :
			"truncated, corrupt or of an unsupported version");
		return ret;
	}
	ret = setup_buffers(l, &known);
	if (ret == -EINVAL)
		ss_errf(err, errlen, "cannot read an instance buffer of this trace-cmd file "
			"(truncated or corrupt)");
	if (ret)
		return ret;
	if (!known) {
		ss_errf(err, errlen, "trace-cmd file without block request events (record "
			"with -e block:block_rq_issue -e block:block_rq_complete)");
		return -ENOENT;
	}
	return 0;
}

/*
 * Done with REC of ring R.  libtracecmd before 1.5 (trace-cmd 3.3) never finds the decompressed
 * chunk of a page it frees (free_zpage() tests the address the wrong way round), so it keeps
 * every chunk until the file is closed anyway and walks all of them for each page it frees: a
 * read of a compressed file costs pages x chunks.  Holding one record of every page, no page
 * is freed (nor read again when the ring is read again); the memory held is a record a page.
 * From 1.5 it frees chunks and finds them in a tree: nothing is held.
 */
static void release(struct lib *l, struct lib_ring *r, struct tep_record *rec)
{
	if (l->hold && rec->offset >= r->held_to) {
		r->held_to = (rec->offset | (l->page_size - 1)) + 1;
		return;
	}
	tracecmd_free_record(rec);
}

/*
 * Ring R's next records (from its first with FIRST) into IT[], at most CAP items: its block
 * events and the spans the ring buffer reported lost, in record order.  Sets *ended when
 * the ring has no more records.  libtracecmd reports no read errors: a ring it cannot read
 * simply ends.
 */
static size_t fill(struct lib *l, struct lib_ring *r, bool first, struct item *it, size_t cap,
		   bool *ended)
{
	size_t n = 0;

	if (first) {
		r->last_ts = r->last_offset = 0;
		r->damaged = false;
	}
	*ended = false;
	while (n + 2 <= cap) {      /* a record makes at most two items */
		struct tep_record *rec = first ? tracecmd_read_cpu_first(r->h, r->cpu) :
					 tracecmd_read_data(r->h, r->cpu);

		first = false;
		if (!rec) {
			*ended = true;
			break;
		}
		/* a ring's records lie forward in the file: a damaged page can make libtracecmd
		 * hand out records it handed out before, for ever (found by fuzzing) */
		if (r->last_offset && rec->offset <= r->last_offset) {
			release(l, r, rec);
			r->damaged = *ended = true;
			break;
		}
		r->last_offset = rec->offset;
		if (ss_decoder_decode(r->dec, rec->data, rec->ts, (unsigned)r->cpu, &it[n].ev,
				      it[n].comm))
			it[n++].is_lost = 0;
		if (rec->missed_events)
			it[n++] = (struct item){
				.lost = { .from_ns = r->last_ts, .to_ns = rec->ts,
					  .cpu = (uint32_t)r->cpu,
					  .count = rec->missed_events > 0 ?
						   (uint64_t)rec->missed_events : 1 },
				.is_lost = 1,
			};
		r->last_ts = rec->ts;
		release(l, r, rec);
	}
	return n;
}

/* All of LEN bytes through socket FD (SEND: out, else in): 0, or -1 at its end or an error. */
static int xfer(int fd, void *buf, size_t len, bool send_it)
{
	char *p = buf;

	while (len) {
		ssize_t n = send_it ? send(fd, p, len, MSG_NOSIGNAL) : recv(fd, p, len, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Rid L of what it holds but libtracecmd's handles (their close is not safe on damaged files). */
static void lib_abandon(struct lib *l)
{
	for (int b = 0; l->dec && b <= l->nr_inst; b++)
		ss_decoder_free(l->dec[b]);
	free(l->dec);
	free(l->inst);
	free(l->rings);
}

/*
 * One file for the parent, FD (the trace) and MEMFD (the items it shares): open it, say how it
 * went, then answer requests until END_RING (0: the file is done) or the socket's end or a
 * request out of range (-1: the reader ends).
 */
static int serve_file(int sock, int fd, int memfd)
{
	struct lib l = { 0 };
	struct hello h = { 0 };
	struct item *items = NULL;
	uint32_t *cpus = NULL;
	size_t len = 0;
	struct request q;
	int ret = -1;

	h.ret = lib_open(&l, fd, h.err, sizeof(h.err));
	if (!h.ret) {
		size_t slot = l.nr_rings ? SLOTS_MAX / 2 / l.nr_rings : SLOT_MAX;

		h.slot = (uint32_t)(slot < SLOT_MIN ? SLOT_MIN : slot > SLOT_MAX ? SLOT_MAX : slot);
		h.nr_rings = (uint32_t)l.nr_rings;
		len = (l.nr_rings ? l.nr_rings : 1) * 2 * h.slot * sizeof(*items);
		buffer_names(&l, h.buffers, sizeof(h.buffers));
		cpus = calloc(l.nr_rings + 1, sizeof(*cpus));
		if (!cpus || ftruncate(memfd, (off_t)len) ||
		    (items = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, memfd, 0)) ==
		    MAP_FAILED) {
			items = NULL;
			h.ret = -(errno ? errno : ENOMEM);
			ss_errf(h.err, sizeof(h.err), "cannot share the trace-cmd reader's memory: %s",
				strerror(-h.ret));
		}
		for (size_t i = 0; cpus && i < l.nr_rings; i++)
			cpus[i] = (uint32_t)l.rings[i].cpu;
	}
	if (h.ret)
		h.nr_rings = 0;
	if (xfer(sock, &h, sizeof(h), true) || xfer(sock, cpus, h.nr_rings * sizeof(*cpus), true))
		goto out;
	while (!xfer(sock, &q, sizeof(q), false)) {
		struct lib_ring *r;
		struct reply p;
		struct item *slots;
		bool ended;

		if (q.ring == END_RING) {
			ret = 0;
			break;
		}
		if (q.ring >= h.nr_rings)
			break;
		r = &l.rings[q.ring];
		p = (struct reply){ .which = q.first ? 0 : !r->handed };
		slots = items + (size_t)q.ring * 2 * h.slot;
		ended = r->ahead_ended;
		if (r->ahead && !q.first)
			p.n = (int32_t)r->ahead_n;
		else
			p.n = (int32_t)fill(&l, r, q.first, slots + p.which * h.slot, h.slot, &ended);
		p.ended = ended;
		p.damaged = ended && r->damaged;
		r->handed = p.which;
		r->ahead = false;
		if (xfer(sock, &p, sizeof(p), true))
			break;
		/* the ring's next run into the other slot, while the parent reads this one */
		if (!ended) {
			r->ahead_n = fill(&l, r, false, slots + !r->handed * h.slot, h.slot,
					  &r->ahead_ended);
			r->ahead = true;
		}
	}
out:
	if (items)
		munmap(items, len);
	free(cpus);
	lib_abandon(&l);
	return ret;
}

/* What starts a file: one byte with two descriptors, the trace's and the memfd's.  0 or -1. */
static int send_fds(int sock, const int fds[2])
{
	union {
		char buf[CMSG_SPACE(2 * sizeof(int))];
		struct cmsghdr align;
	} ctl;
	char byte = 0;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf,
			    .msg_controllen = sizeof(ctl.buf) };
	struct cmsghdr *c;
	ssize_t n;

	memset(&ctl, 0, sizeof(ctl));
	c = CMSG_FIRSTHDR(&m);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(2 * sizeof(int));
	memcpy(CMSG_DATA(c), fds, 2 * sizeof(int));
	while ((n = sendmsg(sock, &m, MSG_NOSIGNAL)) < 0 && errno == EINTR)
		;
	return n == 1 ? 0 : -1;
}

/* The reader's side of send_fds(): 0 with both descriptors, or -1 (none kept). */
static int recv_fds(int sock, int fds[2])
{
	union {
		char buf[CMSG_SPACE(2 * sizeof(int))];
		struct cmsghdr align;
	} ctl;
	char byte;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf,
			    .msg_controllen = sizeof(ctl.buf) };
	struct cmsghdr *c;
	ssize_t n;
	int got = 0;

	while ((n = recvmsg(sock, &m, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR)
		;
	if (n <= 0)
		return -1;
	for (c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		for (size_t i = 0; i < (c->cmsg_len - CMSG_LEN(0)) / sizeof(int); i++) {
			int fd;

			memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(fd));
			if (got < 2)
				fds[got++] = fd;
			else
				close(fd);
		}
	}
	if (got == 2 && !(m.msg_flags & MSG_CTRUNC))
		return 0;
	while (got > 0)
		close(fds[--got]);
	return -1;
}

/* The reader process's resident memory in bytes (-1: unknown). */
static long long resident(void)
{
	char buf[128];
	long long pages = -1;
	int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

	if (fd >= 0)
		close(fd);
	if (n > 0) {
		buf[n] = 0;
		if (sscanf(buf, "%*s %lld", &pages) != 1)
			pages = -1;
	}
	return pages < 0 ? -1 : pages * sysconf(_SC_PAGESIZE);
}

/*
 * The reader process: files one after another until the socket ends; after each, the reply to
 * its END_RING says whether it goes on or retires (grown by SERVER_GROWTH, or its size
 * unknown).
 */
static void serve(int sock)
{
	long long base = resident();
	int fds[2];

	while (!recv_fds(sock, fds)) {
		int ret = serve_file(sock, fds[0], fds[1]);
		long long now = resident();
		struct reply p = { .ended = base < 0 || now < 0 || now - base > SERVER_GROWTH };

		close(fds[0]);
		close(fds[1]);
		if (ret || xfer(sock, &p, sizeof(p), true) || p.ended)
			return;
	}
}

/* Set when a sanitizer runtime is linked in (tests, fuzzing); NULL in a normal build. */
__attribute__((weak)) void __sanitizer_set_death_callback(void (*callback)(void));

/*
 * The reader process, forked: output to /dev/null (libtracecmd printf()s some complaints),
 * default actions for the signals of a crash, _exit so nothing of the parent's is flushed or
 * freed.  Interrupts are the parent's business: it ends the reader when it closes the trace.
 */
static __attribute__((noreturn)) void reader_main(int sock)
{
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGTRAP, SIGSYS };
	int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);

	if (fd >= 0) {
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
	}
	/* die of them, whoever (a sanitizer, a fuzzer) handles them in the parent, and without
	 * a fuzzer's death callback (it would save the input as a crash) */
	for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		signal(fatal[i], SIG_DFL);
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_DFL);
	if (__sanitizer_set_death_callback)
		__sanitizer_set_death_callback(NULL);
	serve(sock);
	_exit(0);
}

/* ---- the parent: the backend */

/* A reader process kept between opens (trace_read.h). */
struct ss_tracecmd_server {
	pid_t pid;                      /* 0: none (started at the next open) */
	int sock;                       /* to it */
	bool busy;                      /* reading a trace that is open */
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
};

/* Ask the reader for ring I's next items: 0, or -EBADMSG with the reason in err. */
static int fetch(struct tc_state *s, size_t i, bool first, char *err, size_t errlen)
{
	struct request q = { .ring = (uint32_t)i, .first = first };
	struct reply p;

	if (xfer(s->sock, &q, sizeof(q), true) || xfer(s->sock, &p, sizeof(p), false) ||
	    p.n < 0 || (size_t)p.n > s->slot || p.which > 1) {
		s->failed = true;
		ss_errf(err, errlen, CRASHED);
		return -EBADMSG;
	}
	s->rings[i].slot = s->items + (i * 2 + p.which) * s->slot;
	s->rings[i].pos = 0;
	s->rings[i].len = (size_t)p.n;
	s->rings[i].ended = p.ended;
	/* the rest of a damaged ring is not read: said once, as a cut file's end is */
	if (p.damaged && s->scanning && !s->scanning->truncated) {
		s->scanning->truncated = true;
		snprintf(s->scanning->warning, sizeof(s->scanning->warning),
			 "the records of CPU %u go back in the file (damaged); read up to there",
			 s->rings[i].cpu);
	}
	return 0;
}

/*
 * Ring I's next block event (with FIRST its first): 1, 0 at its end, -errno.  The ring
 * buffer's reports of lost events on the way add to its missed count (an unknown count counts
 * as one) and, while scanning, a lost span from its previous record to this one (format.h,
 * SS_REC_LOST); the events' task names go to the task table.
 */
static int next_event(void *ctx, size_t i, bool first, struct ss_event *ev, char *err,
		      size_t errlen)
{
	struct tc_state *s = ctx;
	struct ring *r = &s->rings[i];
	int ret;

	if (first)
		*r = (struct ring){ .cpu = r->cpu };
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
			continue;
		}
		*ev = it->ev;
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
	return ss_merge_rewind(((struct tc_state *)ss_trace_state(t))->merge, t);
}

static int tc_next_batch(struct ss_trace *t, const struct ss_event **ev, size_t *n)
{
	return ss_merge_next_batch(((struct tc_state *)ss_trace_state(t))->merge, t, ev, n);
}

/* Metadata pass: devices, counts, time range and lost events per CPU. */
static int scan(struct ss_trace *t, struct tc_state *s, char *err, size_t errlen)
{
	struct ss_rec_cpu_stats *st = NULL;
	size_t nr_st = 0;
	int ret = 0;

	for (size_t i = 0; i < s->nr_rings; i++)
		if ((size_t)s->rings[i].cpu + 1 > nr_st)
			nr_st = (size_t)s->rings[i].cpu + 1;
	if (nr_st && !(st = calloc(nr_st, sizeof(*st))))
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
	for (size_t c = 0; c < nr_st && !ret; c++) {
		st[c].cpu = (uint32_t)c;
		ret = ss_trace_add_cpu_stats(t, &st[c]);
	}
	free(st);
	return ret;
}

static int add_summary_meta(struct ss_trace *t, const struct tc_state *s)
{
	int ret = 0;

	ret |= ss_trace_add_meta(t, "source", "trace-cmd");
	ret |= ss_trace_add_meta(t, "source.path", t->path);
	ret |= ss_trace_add_meta(t, "trace-cmd.buffers", s->buffers);
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
		reader_main(sv[1]);
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
	if (pid > 0) {
		/* the reader holds nothing worth a clean end */
		kill(pid, SIGKILL);
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
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
	if (srv && !srv->busy) {
		if (!srv->pid && (ret = spawn(&srv->pid, &srv->sock, err, errlen))) {
			close(fds[0]);
			return ret;
		}
		srv->busy = true;
		s->srv = srv;
		s->sock = srv->sock;
	} else if ((ret = spawn(&s->pid, &s->sock, err, errlen))) {
		close(fds[0]);
		return ret;
	}
	ret = send_fds(s->sock, fds);
	close(fds[0]);
	if (ret) {
		s->failed = true;
		ss_errf(err, errlen, CRASHED);
		return -EBADMSG;
	}
	return 0;
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

		ss_errf(err, errlen, "cannot start the trace-cmd reader process: %s", strerror(e));
		return -e;
	}
	if ((ret = connect_reader(s, t, err, errlen)))
		return ret;
	if (xfer(s->sock, &h, sizeof(h), false)) {
		s->failed = true;
		ss_errf(err, errlen, CRASHED);
		return -EBADMSG;
	}
	if (h.ret) {
		h.err[sizeof(h.err) - 1] = 0;
		ss_errf(err, errlen, "%s", h.err);
		return h.ret < 0 ? h.ret : -EIO;
	}
	h.buffers[sizeof(h.buffers) - 1] = 0;
	memcpy(s->buffers, h.buffers, sizeof(s->buffers));
	s->slot = h.slot;
	s->map_len = (h.nr_rings ? h.nr_rings : 1) * 2 * (size_t)h.slot * sizeof(*s->items);
	s->rings = calloc(h.nr_rings ? h.nr_rings : 1, sizeof(*s->rings));
	cpus = calloc(h.nr_rings ? h.nr_rings : 1, sizeof(*cpus));
	if (!s->rings || !cpus) {
		free(cpus);
		return -ENOMEM;
	}
	if (xfer(s->sock, cpus, h.nr_rings * sizeof(*cpus), false)) {
		free(cpus);
		s->failed = true;
		ss_errf(err, errlen, CRASHED);
		return -EBADMSG;
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

static int tc_open(struct ss_trace *t, char *err, size_t errlen)
{
	struct tc_state *s = calloc(1, sizeof(*s));
	int ret;

	if (!s)
		return -ENOMEM;
	s->sock = s->memfd = -1;
	ss_trace_set_state(t, s);
	if ((ret = start_reader(s, t, err, errlen)))
		return ret;
	if (!(s->merge = ss_merge_new(s->nr_rings, next_events, s)))
		return -ENOMEM;
	if ((ret = scan(t, s, err, errlen)) || (ret = add_summary_meta(t, s)))
		return ret;
	return ss_merge_start(s->merge, t, err, errlen);
}

static void tc_close(struct ss_trace *t)
{
	struct tc_state *s = ss_trace_state(t);

	if (!s)
		return;
	if (s->srv) {
		/* done with the file: the kept reader goes on unless it broke or retires */
		struct request q = { .ring = END_RING };
		struct reply p;

		if (s->failed || xfer(s->sock, &q, sizeof(q), true) ||
		    xfer(s->sock, &p, sizeof(p), false) || p.ended) {
			end_reader(s->srv->pid, s->srv->sock);
			s->srv->pid = 0;
			s->srv->sock = -1;
		}
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
	.next_batch = tc_next_batch,
	.rewind = tc_rewind,
	.close = tc_close,
};

struct ss_tracecmd_server *ss_tracecmd_server_new(void)
{
	struct ss_tracecmd_server *srv = calloc(1, sizeof(*srv));

	if (srv)
		srv->sock = -1;
	return srv;
}

void ss_tracecmd_server_free(struct ss_tracecmd_server *srv)
{
	if (!srv)
		return;
	end_reader(srv->pid, srv->sock);
	free(srv);
}
