// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The trace-cmd importer's reader process (import_tracecmd.c says why there is one): libtracecmd
 * opens the files the parent hands over, and it or, for a version 7 file, the reading page by
 * page (import_tracecmd_pages.c) decodes their rings' records into the shared slots on
 * request.  The socket protocol both sides speak is in import_tracecmd_proto.c; the budgets a
 * file's reading may spend, and the reader's watch over them, in import_tracecmd_budget.c.
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

#include <trace-cmd.h>

#include "decode.h"
#include "errbuf.h"
#include "hugemem.h"
#include "import_tracecmd_proto.h"
#include "import_tracecmd_reader.h"

/* libtracecmd's version as 10000 * major + 100 * minor + patch (the Makefile's, pkg-config's) */
#ifndef SS_LIBTRACECMD_VERSION
#define SS_LIBTRACECMD_VERSION 0
#endif

/* ---- the reader process: libtracecmd */

/* One per-CPU ring of one buffer. */
struct lib_ring {
	struct tracecmd_input *h;
	const struct ss_decoder *dec;
	int buf;                /* its buffer: 0 the top one, 1 + i instance i */
	int cpu;
	struct ss_tc_pages *pages;      /* read page by page (attach_pages()), else libtracecmd */
	struct ss_tc_names *names;      /* the names it last gave its tasks (keep_name()) */
	uint64_t last_ts;       /* of the last record read from it (0: none yet) */
	uint64_t last_offset;   /* ... its offset in the file (0: none yet) */
	uint32_t damaged;       /* why the ring ended early (DAMAGED_*) */
	bool starved;           /* it ended because an allocation of libtracecmd's failed */
	uint64_t held_to;       /* records below this offset are on a page held (lib.hold) */
	unsigned handed;        /* the slot the parent reads */
	bool ahead;             /* the other slot holds the next run, read ahead: */
	bool ahead_ended;
	size_t ahead_n;
	bool in_pass;           /* read from its start since the pass's budget was set */
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
	struct ss_tc_scratch *scratch;  /* what the rings read page by page share */
	struct file_head fh;            /* the file's head, for the walk over it */
	bool deferred;                  /* the walk at the open left chunks unchecked */
	int checked;                    /* that walk done over the whole file: 1 passed, -errno */
	char check_err[256];            /* ... why it refused the file */
	const struct watch *watch;      /* the file's budgets, looked at while a ring is read */
};

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

		for (int c = 0; c < cpus; c++) {
			l->rings[l->nr_rings] = (struct lib_ring){ .h = h, .dec = l->dec[b], .buf = b,
								   .cpu = c };
			if (!(l->rings[l->nr_rings++].names = ss_tc_names_new()))
				return -ENOMEM;
		}
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

static void detach_pages(struct lib *l)
{
	for (size_t i = 0; i < l->nr_rings; i++) {
		ss_tc_pages_free(l->rings[i].pages);
		l->rings[i].pages = NULL;
	}
	ss_tc_scratch_free(l->scratch);
	l->scratch = NULL;
}

/* The walk over every chunk of file FD (once), whose walk at the open left some unchecked
 * (import_tracecmd_chunks.c): 0 when it passes, else -errno with why in L->check_err. */
static int check_all(struct lib *l, int fd)
{
	if (!l->checked &&
	    !(l->checked = ss_tc_check_buffers(fd, &l->fh, l->check_err, sizeof(l->check_err))))
		l->checked = 1;
	return l->checked < 0 ? l->checked : 0;
}

/* The first record of ring R read page by page is libtracecmd's (the ring read from its
 * first again after) — or its first page is damaged, which is then not shown to libtracecmd:
 * a page whose event headers do not take its walk further sends libtracecmd's round for ever
 * (tests/fuzz/regress/tcpages/padding-loop.partial), where the page by page reading ends the
 * ring there with a warning.  A first record past a chunk the walk left unchecked: every chunk
 * checked first (false, and L->checked < 0, when that refuses the file). */
static bool first_agrees(struct lib *l, int fd, struct lib_ring *r)
{
	struct ss_tc_rec mine;
	int ret = ss_tc_pages_next(r->pages, &mine);
	struct tep_record *rec;
	bool same;

	if (ret == -EBADMSG && check_all(l, fd))
		return false;
	if (ret == -EBADMSG)
		ret = ss_tc_pages_failure(r->pages);
	rec = ret == -EINVAL ? NULL : tracecmd_read_cpu_first(r->h, r->cpu);
	same = ret == -EINVAL ||
		    (rec ? ret == 1 && rec->ts == mine.ts && rec->size == mine.size &&
			   rec->missed_events == mine.missed &&
			   (rec->size <= 0 || !memcmp(rec->data, mine.data, (size_t)rec->size)) :
			   ret == 0);

	if (rec)
		tracecmd_free_record(rec);
	ss_tc_pages_rewind(r->pages);
	return same;
}

/* Whether every CPU's compressed data in LAY is read by one of L's rings, which read BUFS. */
static bool all_read(const struct lib *l, const struct ss_tc_layout *lay,
		     const struct ss_tc_buffer **bufs)
{
	for (size_t i = 0; i < lay->nr_buf; i++) {
		for (uint32_t c = 0; c < lay->buf[i].nr_cpus; c++) {
			bool found = !lay->buf[i].cpu[c].size || !lay->buf[i].compressed;

			for (size_t k = 0; !found && k < l->nr_rings; k++)
				found = bufs[l->rings[k].buf] == &lay->buf[i] &&
					(uint32_t)l->rings[k].cpu == lay->buf[i].cpu[c].cpu;
			if (!found)
				return false;
		}
	}
	return true;
}

/*
 * Read the rings of a version 7 file page by page (import_tracecmd_pages.c) instead of through
 * libtracecmd 3.1, which keeps every compressed chunk it unpacks until the file is closed and
 * hands each record out through a costly peek: its rings' data where the walk over its chunks
 * found it (LAY), each page walked as libtracecmd walks it with kbuffer.  Only where
 * libtracecmd would hand the records out as they are: no option that moves their timestamps
 * (a date, an offset, a guest's time shift, a TSC's conversion), every ring's buffer found
 * (a CPU it lists no data for, or the top buffer when no option names it, is an empty ring)
 * and its first record the same both ways (else, or with SEEKSCOPE_TRACECMD_PAGES=libtracecmd,
 * libtracecmd reads every ring, as before).
 */
static bool attach_pages(struct lib *l, int fd, const struct ss_tc_layout *lay)
{
	static const struct ss_tc_buffer none = { .top = true };
	const char *v = getenv("SEEKSCOPE_TRACECMD_PAGES");
	const struct ss_tc_buffer **bufs;
	bool covered = false;
	int nb = 0;

	if ((v && !strcmp(v, "libtracecmd")) || !lay->walked || lay->moves_time)
		return false;
	if (!(bufs = calloc((size_t)l->nr_inst + 1, sizeof(*bufs))))
		return false;
	/* a chunk past the memory budget is refused before its memory is had: freed when its
	 * ring is read, it would pass the watch's looks unseen (and RLIMIT_DATA is not set
	 * under a sanitizer) */
	if (!(l->scratch = ss_tc_scratch_new(l->watch && l->watch->mem > 0 ?
					      (uint64_t)l->watch->mem : 0))) {
		free(bufs);
		return false;
	}
	/* libtracecmd's: the top buffer the last option naming it (none: no data, which its
	 * first records, none, confirm), the instances in order */
	bufs[0] = &none;
	for (size_t i = 0; i < lay->nr_buf; i++) {
		if (lay->buf[i].top)
			bufs[0] = &lay->buf[i];
		else if (nb < l->nr_inst)
			bufs[1 + nb++] = &lay->buf[i];
		else
			nb++;
	}
	for (size_t i = 0; nb == l->nr_inst && i < l->nr_rings; i++) {
		struct lib_ring *r = &l->rings[i];
		const struct ss_tc_buffer *b = bufs[r->buf];
		struct tep_handle *tep = tracecmd_get_tep(r->h);

		if (!b || !(r->pages = ss_tc_pages_new(fd, lay->algo, b, (uint32_t)r->cpu, tep,
						       l->scratch, lay->deferred)) ||
		    !first_agrees(l, fd, r)) {
			detach_pages(l);
			break;
		}
	}
	covered = nb == l->nr_inst && l->nr_rings && l->rings[0].pages && all_read(l, lay, bufs);
	free(bufs);
	return covered;
}

/* Open the file FD (the reader's, closed after the file: close_others()), its buffers and
 * rings: 0 or -errno with the reason in err. */
static int lib_open(struct lib *l, int fd, char *err, size_t errlen)
{
	size_t known = 0;
	int ret;
	struct file_head fh;
	struct ss_tc_layout lay = { 0 };
	bool covered;

	/* library code prints nothing: silence libtracecmd and libtraceevent */
	tracecmd_set_loglevel(TEP_LOG_NONE);
	if (ss_tc_read_file_head(fd, &fh)) {
		if (fh.endian > 1) {
			ss_errf(err, errlen, "cannot read this trace-cmd file: corrupt (its byte "
				"order, %d, is neither 0 nor 1)", fh.endian);
			return -EINVAL;
		}
		if (!ss_tc_page_size_ok(fh.page_size)) {
			ss_errf(err, errlen, "cannot read this trace-cmd file: corrupt (its page "
				"size, %u bytes, is no power of two from 1 KiB to 1 GiB)",
				fh.page_size);
			return -EINVAL;
		}
		l->page_size = fh.page_size;
		l->hold = SS_LIBTRACECMD_VERSION < 10500 && fh.compressed;
	}
	errno = 0;
	l->top = tracecmd_open_fd(fd, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!l->top) {
		ret = errno && errno != ENOENT ? -errno : -EINVAL;
		ss_errf(err, errlen, "cannot read this trace-cmd file: %s",
			errno && errno != ENOENT && errno != EINVAL ? strerror(errno) :
			"truncated, corrupt or of an unsupported version");
		return ret;
	}
	/* before any ring is read: its chunks (but what only the reading page by page reads,
	 * the first chunk of each CPU's data aside), its instances' page sizes */
	if (l->page_size && (ret = ss_tc_walk_buffers(fd, &fh, &lay, true, err, errlen)))
		return ret;
	l->fh = fh;
	l->deferred = lay.deferred;
	ret = setup_buffers(l, &known);
	covered = !ret && attach_pages(l, fd, &lay);
	ss_tc_layout_free(&lay);
	/* every chunk looked at now, as the walk would have before, when what the walk left is
	 * not all read page by page (libtracecmd reads the rings, or some CPU's data is no
	 * ring's), when a ring's first record lay past it, or when the buffers could not be had */
	if (l->deferred && !covered && check_all(l, fd)) {
		ss_errf(err, errlen, "%s", l->check_err);
		return l->checked;
	}
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

/* The span ring R's buffer reported MISSED events lost in (-1 or less: some), up to TS. */
static struct item lost_item(const struct lib_ring *r, unsigned long long ts, long long missed)
{
	return (struct item){
		.lost = { .from_ns = r->last_ts, .to_ns = ts, .cpu = (uint32_t)r->cpu,
			  .count = missed > 0 ? (uint64_t)missed : 1 },
		.is_lost = 1,
	};
}

/* IT, the block event just decoded from ring R: handed on, its task's name only where the ring
 * names the task anew (import_tracecmd_names.c). */
static void keep_name(struct lib_ring *r, struct item *it)
{
	it->is_lost = 0;
	if (it->comm[0] && ss_tc_names_repeat(r->names, it->ev.pid, it->comm))
		it->comm[0] = 0;
}

/* fill() for a ring read page by page. */
static size_t fill_pages(struct lib *l, struct lib_ring *r, bool first, struct item *it,
			 size_t cap, bool *ended)
{
	size_t n = 0, records = 0;
	struct ss_tc_rec rec;
	int ret, dr;

	if (first)
		ss_tc_pages_rewind(r->pages);
	while (n + 2 <= cap) {
		if (++records % SS_TC_CHECK_RECORDS == 0 && l->watch && ss_tc_watch_check(l->watch))
			break;
		if ((ret = ss_tc_pages_next(r->pages, &rec)) <= 0) {
			/* (a chunk the walk left unchecked: ends the ring as damaged or
			 * starved, which serve_file() has the walk over every chunk judge) */
			if (ret == -EBADMSG)
				ret = ss_tc_pages_failure(r->pages);
			r->starved = ret == -ENOMEM;
			if (ret == -EINVAL)
				r->damaged = DAMAGED_UNREADABLE;
			else if (ret == -ELOOP)
				r->damaged = DAMAGED_BACK;
			*ended = true;
			break;
		}
		dr = rec.size < 2 ? 0 :
		     ss_decoder_decode(r->dec, rec.data, (size_t)rec.size, rec.ts, (unsigned)r->cpu,
				       &it[n].ev, it[n].comm);
		if (dr < 0) {
			r->damaged = DAMAGED_FIELDS;
			*ended = true;
			ss_tc_pages_rewind(r->pages);   /* (its buffer goes: read no more) */
			break;
		}
		if (dr)
			keep_name(r, &it[n++]);
		if (rec.missed)
			it[n++] = lost_item(r, rec.ts, rec.missed);
		r->last_ts = rec.ts;
	}
	return n;
}

/*
 * Ring R's next records (from its first with FIRST) into IT[], at most CAP items: its block
 * events and the spans the ring buffer reported lost, in record order.  Sets *ended when
 * the ring has no more records.  libtracecmd reports no read errors: a ring it cannot read
 * simply ends.
 *
 * But for one that ends because libtracecmd could not allocate what it needed: R->starved.
 * libtracecmd 3.1 allocates a compressed chunk at its full size before it unpacks it (a chunk
 * whose claim is not what it unpacks to never gets here: import_tracecmd_chunks.c), and when
 * that fails (RLIMIT_DATA, import_tracecmd_budget.c) the ring ends there, its later records
 * lost without a word.  The failed malloc() leaves errno at ENOMEM, and nothing on the way
 * back out sets it again (free() keeps errno from glibc 2.33; libtracecmd sets none but
 * -EINVAL): errno is cleared before each call and looked at when a ring ends.  What the
 * allocation would have added is seen nowhere else: the data segment did not grow, and where
 * a ring's data ends in the file is libtracecmd's private knowledge (its last pages may hold
 * no record anyway).
 */
static size_t fill(struct lib *l, struct lib_ring *r, bool first, struct item *it, size_t cap,
		   bool *ended)
{
	size_t n = 0, records = 0;
	int dr;

	if (first) {
		r->last_ts = r->last_offset = 0;
		r->damaged = DAMAGED_NONE;
		r->starved = false;
		ss_tc_names_clear(r->names);
	}
	*ended = false;
	if (r->pages)
		return fill_pages(l, r, first, it, cap, ended);
	while (n + 2 <= cap) {      /* a record makes at most two items */
		struct tep_record *rec;

		/* records that make no item (other events) do not end a run: the budgets are
		 * looked at as it goes, and a run that spent one ends (the caller refuses it) */
		if (++records % SS_TC_CHECK_RECORDS == 0 && l->watch && ss_tc_watch_check(l->watch))
			break;
		errno = 0;
		rec = first ? tracecmd_read_cpu_first(r->h, r->cpu) : tracecmd_read_data(r->h, r->cpu);
		first = false;
		if (!rec) {
			r->starved = errno == ENOMEM;
			/* libtracecmd 3.1's own word for damaged data: a page's offset outside its
			 * CPU's data, a compressed chunk zstd cannot unpack (its errno, negated) */
			if (errno == -EINVAL)
				r->damaged = DAMAGED_UNREADABLE;
			*ended = true;
			break;
		}
		/* a ring's records lie forward in the file: a damaged page can make libtracecmd
		 * hand out records it handed out before, for ever (found by fuzzing) */
		if (r->last_offset && rec->offset <= r->last_offset) {
			release(l, r, rec);
			r->damaged = DAMAGED_BACK;
			*ended = true;
			break;
		}
		r->last_offset = rec->offset;
		/* a record too small to hold an event's type (a damaged page's: libtracecmd
		 * hands out sizes of -4) is no block event: skipped, unread */
		dr = rec->size < 2 ? 0 :
		     ss_decoder_decode(r->dec, rec->data, (size_t)rec->size, rec->ts,
				       (unsigned)r->cpu, &it[n].ev, it[n].comm);
		if (dr < 0) {
			/* its format places fields past its end: nothing read there, the ring
			 * read up to it */
			release(l, r, rec);
			r->damaged = DAMAGED_FIELDS;
			*ended = true;
			break;
		}
		if (dr)
			keep_name(r, &it[n++]);
		if (rec->missed_events)
			it[n++] = lost_item(r, rec->ts, rec->missed_events);
		r->last_ts = rec->ts;
		release(l, r, rec);
	}
	return n;
}

/* Rid L of what it holds but libtracecmd's handles (their close is not safe on damaged files). */
static void lib_abandon(struct lib *l)
{
	detach_pages(l);
	for (int b = 0; l->dec && b <= l->nr_inst; b++)
		ss_decoder_free(l->dec[b]);
	free(l->dec);
	free(l->inst);
	for (size_t i = 0; i < l->nr_rings; i++)
		ss_tc_names_free(l->rings[i].names);
	free(l->rings);
}

/*
 * One file for the parent, FD (the trace) and MEMFD (the items it shares): open it, say how it
 * went, then answer requests until END_RING (0: the file is done) or the socket's end or a
 * request out of range or a pass that has spent W's budget (-1: the reader ends).
 */
static int serve_file(int sock, int fd, int memfd, struct watch *w)
{
	struct lib l = { 0 };
	struct hello h = { 0 };
	struct item *items = NULL;
	uint32_t *cpus = NULL;
	size_t len = 0;
	struct request q;
	int ret = -1;

	l.watch = w;
	/* the open's CPU time and memory count in the first pass's, looked at with its first
	 * request below (an open that never ends: the timer) */
	h.ret = lib_open(&l, fd, h.err, sizeof(h.err));
	if (!h.ret) {
		size_t slot = l.nr_rings ? SLOTS_MAX / 2 / l.nr_rings : SLOT_MAX;

		h.slot = (uint32_t)(slot < SLOT_MIN ? SLOT_MIN : slot > SLOT_MAX ? SLOT_MAX : slot);
		h.nr_rings = (uint32_t)l.nr_rings;
		len = (l.nr_rings ? l.nr_rings : 1) * 2 * h.slot * sizeof(*items);
		buffer_names(&l, h.buffers, sizeof(h.buffers));
		h.paged = l.nr_rings && l.rings[0].pages;
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
	if (ss_tc_xfer(sock, &h, sizeof(h), true) ||
	    ss_tc_xfer(sock, cpus, h.nr_rings * sizeof(*cpus), true))
		goto out;
	while (!ss_tc_xfer(sock, &q, sizeof(q), false)) {
		struct lib_ring *r;
		struct reply p;
		struct item *slots;
		bool ended;
		int budget;

		if (q.ring == END_RING) {
			ret = 0;
			break;
		}
		if (q.ring >= h.nr_rings)
			break;
		r = &l.rings[q.ring];
		if (q.first && r->in_pass) {
			/* a ring read from its start again: a new pass, with a budget of its own */
			for (size_t i = 0; i < l.nr_rings; i++)
				l.rings[i].in_pass = false;
			ss_tc_watch_start(w);
		}
		r->in_pass |= q.first;
		p = (struct reply){ .which = q.first ? 0 : !r->handed };
		slots = items + (size_t)q.ring * 2 * h.slot;
		ended = r->ahead_ended;
		if (r->ahead && !q.first)
			p.n = (int32_t)r->ahead_n;
		else
			p.n = (int32_t)fill(&l, r, q.first, slots + p.which * h.slot, h.slot, &ended);
		p.ended = ended;
		p.damaged = ended ? r->damaged : DAMAGED_NONE;
		r->handed = p.which;
		r->ahead = false;
		/* a ring that ended early or at a chunk the walk at the open left to the reading
		 * page by page: the walk over every chunk (once) says whether the file is refused,
		 * as it was at the open before (budgets spent by the rings read before aside); if
		 * not, the ring ends as it did */
		if (ended && l.deferred && (r->damaged || r->starved) &&
		    check_all(&l, fd)) {
			p = (struct reply){ .n = -EBADMSG };
			if (!ss_tc_xfer(sock, &p, sizeof(p), true))
				ss_tc_xfer(sock, l.check_err, sizeof(l.check_err), true);
			break;
		}
		if ((budget = ss_tc_watch_check(w)) || (ended && r->starved && (budget = -ENOMEM))) {
			/* this run (or the one read ahead before it) spent a budget, or ended for
			 * want of memory (fill()): refused, the parent says why (ss_tc_budget_msg,
			 * ss_tc_mem_msg) */
			p = (struct reply){ .n = budget };
			ss_tc_xfer(sock, &p, sizeof(p), true);
			break;
		}
		if (ss_tc_xfer(sock, &p, sizeof(p), true))
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

/* The reader's side of ss_tc_send_fds(): 0 with both descriptors and *B, or -1 (none kept). */
static int recv_fds(int sock, int fds[2], struct ss_tc_budget *b)
{
	int got = ss_tc_recv_msg(sock, b, sizeof(*b), fds, 2);

	if (got == 2)
		return 0;
	while (got > 0)
		close(fds[--got]);
	return -1;
}

/*
 * Close every descriptor but stdio and KEEP: those the reader inherited from the parent at
 * fork (its open files, an earlier trace's memfd), and after each file the file's, its
 * memfd's and the copies libtracecmd made of the file's (one per instance buffer), which it
 * keeps in the handles the reader abandons (their close is not safe).
 */
static void close_others(int keep)
{
	if (keep > 3)
		close_range(3, (unsigned)keep - 1, 0);
	close_range(keep >= 3 ? (unsigned)keep + 1 : 3, ~0U, 0);
}

/*
 * The reader process: files one after another until the socket ends; after each, the reply to
 * its END_RING says whether it goes on or retires (grown by SERVER_GROWTH, or its size
 * unknown).  Each pass over a file (its open; its rings read from their start) runs under the
 * file's CPU budget: a pass that has spent it is refused at the next request (-ETIMEDOUT), and
 * a reader stuck in libtracecmd that spends it _exits with SS_TC_EXIT_CPU (the timer: none
 * when it cannot be had); the parent reports either.
 */
static void serve(int sock)
{
	long long base = ss_tc_resident();
	struct watch w = { 0 };
	struct ss_tc_budget b;
	int fds[2];

	w.timed = !ss_tc_cpu_watch_new(&w.timer);
	while (!recv_fds(sock, fds, &b)) {
		struct reply p = { 0 };
		long long now;
		int ret;

		/* before the budgets' bases are taken: the heap's growth is not the file's */
		if (b.heap > 0)
			ss_huge_heap_reserve((size_t)b.heap);
		ss_tc_watch_file(&w, &b);
		ret = serve_file(sock, fds[0], fds[1], &w);
		if (w.timed)
			ss_tc_cpu_watch_arm(w.timer, 0);
		now = ss_tc_resident();
		p.ended = base < 0 || now < 0 || now - base > SERVER_GROWTH;
		close_others(sock);
		if (ret || ss_tc_xfer(sock, &p, sizeof(p), true) || p.ended)
			return;
	}
}

/* A process forked from the parent's that must not act as the parent: output to /dev/null,
 * no descriptor but stdio and KEEP, default actions for the signals of a crash (whoever, a
 * sanitizer or a fuzzer, handles them in the parent, and without a fuzzer's death callback:
 * it would save the input as a crash), interrupts ignored (the parent's business). */
static void detach_from_parent(int keep)
{
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGTRAP, SIGSYS };
	int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	sigset_t none;

	if (fd >= 0) {
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
	}
	close_others(keep);
	for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		signal(fatal[i], SIG_DFL);
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_DFL);
	/* children are reaped by waitpid() alone: a pid named is always still ours */
	signal(SIGCHLD, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (__sanitizer_set_death_callback)
		__sanitizer_set_death_callback(NULL);
}

/*
 * The reader process, forked: output to /dev/null (libtracecmd printf()s some complaints),
 * default actions for the signals of a crash, _exit so nothing of the parent's is flushed or
 * freed.  Interrupts are the parent's business: it ends the reader when it closes the trace.
 */
void ss_tc_reader_main(int sock)
{
	detach_from_parent(sock);
	serve(sock);
	_exit(0);
}

/*
 * The spawner: forks a reader for each SS_TC_SPAWN request on CTL (a SOCK_SEQPACKET socket)
 * and answers with its pid and, as a descriptor, its end of a new socket pair; ends (kills
 * and reaps) it at SS_TC_END, or at the next SS_TC_SPAWN (a server keeps one reader).  Its
 * readers are reaped only then, so that a pid the parent names is never another process's.
 * At the socket's end it ends the one left, and itself.
 */
void ss_tc_spawner_main(int ctl)
{
	pid_t live = 0;                 /* the reader forked last and not yet ended, if any */
	struct ss_tc_spawn q;

	detach_from_parent(ctl);
	while (ss_tc_recv_msg(ctl, &q, sizeof(q), NULL, 0) == 0) {
		struct ss_tc_spawn r = { .op = q.op, .pid = -1 };
		int sv[2] = { -1, -1 };

		if (q.op == SS_TC_END) {
			if (live > 0 && live == q.pid) {
				ss_tc_end_child(live);
				live = 0;
			}
			continue;
		}
		if (q.op != SS_TC_SPAWN)
			break;
		/* a server keeps one reader: an earlier one is one it is done with */
		if (live > 0) {
			ss_tc_end_child(live);
			live = 0;
		}
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
			r.err = errno;
		else if ((r.pid = fork()) < 0)
			r.err = errno;
		else if (r.pid == 0)
			ss_tc_reader_main(sv[1]);
		if (r.pid > 0)
			live = r.pid;
		if (ss_tc_send_msg(ctl, &r, sizeof(r), sv, r.pid > 0 ? 1 : 0))
			break;
		if (sv[0] >= 0) {
			close(sv[0]);
			close(sv[1]);
		}
	}
	if (live > 0)
		ss_tc_end_child(live);
	_exit(0);
}
