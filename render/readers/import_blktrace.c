// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reader backend for blktrace binary traces: the per-CPU files NAME.blktrace.N that
 * `blktrace -o NAME` writes (or one stream such as `blkparse -d` output).  The layout is the
 * kernel's struct blk_io_trace (include/uapi/linux/blktrace_api.h): a fixed 48-byte record
 * whose first word is a magic with the format version in its low byte, followed by pdu_len
 * bytes of payload that we skip.  Records are in the byte order of the machine that traced;
 * the magic tells which.
 *
 * Opening reads every file once (devices, event count, time range, truncation), counting
 * the records' fields where they lie without building events; streaming then merges the files
 * by time (import_merge.h), so memory is one small buffer per file plus one batch.  Process
 * notes (the kernel writes one with the task's comm the first time a pid appears in a trace)
 * fill the trace's task table in the metadata pass; other notify records (timestamps,
 * messages), pass-through and driver-data records and actions other than Q, I, D, C and R
 * are skipped.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <byteswap.h>
#include <sys/stat.h>

#include "decode.h"
#include "fileio.h"
#include "import_blktrace_files.h"
#include "import_merge.h"

#define BT_MAGIC        0x65617400u      /* BLK_IO_TRACE_MAGIC; low byte = version */
#define BT_MAGIC_MASK   0xffffff00u
#define BT_VERSION      0x07u            /* BLK_IO_TRACE_VERSION */

/* Trace categories: the high 16 bits of the action word (enum blktrace_cat). */
#define TC_READ         (1u << 0)
#define TC_WRITE        (1u << 1)
#define TC_FLUSH        (1u << 2)
#define TC_SYNC         (1u << 3)
#define TC_PC           (1u << 9)
#define TC_NOTIFY       (1u << 10)
#define TC_AHEAD        (1u << 11)
#define TC_META         (1u << 12)
#define TC_DISCARD      (1u << 13)
#define TC_DRV_DATA     (1u << 14)
#define TC_FUA          (1u << 15)
/* Basic actions: the low byte (enum blktrace_act; bit 8 flags a cgroup id in the payload). */
#define TA_QUEUE        1u
#define TA_REQUEUE      6u
#define TA_ISSUE        7u
#define TA_COMPLETE     8u
#define TA_INSERT       12u
/* Notify actions (enum blktrace_notify) and the flag of a cgroup id before the payload. */
#define TN_PROCESS      0u
#define TA_CGROUP       (1u << 8)
#define BT_COMM_LEN     16u              /* TASK_COMM_LEN: the process note's payload */

#define FILE_BUF        (64 * 1024)

/* struct blk_io_trace, field for field. */
struct bt_raw {
	uint32_t magic, sequence;
	uint64_t time, sector;
	uint32_t bytes, action, pid, device, cpu;
	uint16_t error, pdu_len;
};
_Static_assert(sizeof(struct bt_raw) == 48, "struct blk_io_trace is 48 bytes");
#define BT_REC_SIZE     sizeof(struct bt_raw)

struct bt_file {
	char *path;
	int fd;
	bool swap;              /* file byte order differs from ours */
	uint64_t end;           /* complete records end here (found by the metadata pass) */
	uint64_t off;           /* next record */
	unsigned char *buf;     /* read-ahead window [boff, boff + blen) */
	uint64_t boff;
	size_t blen;
	bool cut;               /* reading stopped at a record cut short by end */
	uint64_t skipped;       /* records read since the start that map to no event */
};

struct file_scan;

struct bt_state {
	struct bt_file *files;
	size_t nr_files;
	struct ss_merge *merge; /* over the files, by index */
	uint16_t flags[256];    /* map_flags() by flags_index() */
	/* opened lazily (trace_backend.h: open_lazy): each file's metadata pass done by the
	 * stream as it decodes, until the stream first ends (lazy_end) */
	bool lazy;
	struct file_scan *scans;        /* nr_files of them */
	int broken;                     /* lazy_end failed: the trace is unusable, this error */
};

static bool magic_ok(uint32_t m)
{
	return (m & BT_MAGIC_MASK) == BT_MAGIC;
}

/* 1 for our byte order, 2 for the other, 0 if not a blktrace magic. */
static int magic_order(const unsigned char *p)
{
	uint32_t m;

	memcpy(&m, p, sizeof(m));
	if (magic_ok(m))
		return 1;
	return magic_ok(bswap_32(m)) ? 2 : 0;
}

static bool bt_probe(const unsigned char *head, size_t len)
{
	return len >= 4 && magic_order(head);
}

/* A field of the record at P in the file's byte order (SWAP: the other one). */
static inline uint16_t ld16(const unsigned char *p, size_t off, bool swap)
{
	uint16_t v;

	memcpy(&v, p + off, sizeof(v));
	return swap ? bswap_16(v) : v;
}

static inline uint32_t ld32(const unsigned char *p, size_t off, bool swap)
{
	uint32_t v;

	memcpy(&v, p + off, sizeof(v));
	return swap ? bswap_32(v) : v;
}

static inline uint64_t ld64(const unsigned char *p, size_t off, bool swap)
{
	uint64_t v;

	memcpy(&v, p + off, sizeof(v));
	return swap ? bswap_64(v) : v;
}

#define FIELD(p, name, swap) \
	_Generic(((struct bt_raw *)0)->name, \
		 uint16_t: ld16, uint32_t: ld32, uint64_t: ld64)((p), offsetof(struct bt_raw, name), \
								  (swap))

/*
 * Make the 48 bytes at f->off readable at f->buf + (f->off - f->boff): FILE_BUF bytes read
 * from there.  0, or -errno with a reason.  (Mapping the files instead saves the copy out of
 * the page cache but costs about as much in page-table work, and a mapped file that another
 * process truncates raises SIGBUS: measured, it was not worth it.)
 */
static int fill_window(struct bt_file *f, char *err, size_t errlen)
{
	ssize_t n = ss_pread_full(f->fd, f->buf, FILE_BUF, (off_t)f->off);

	if (n < 0) {
		ss_errf(err, errlen, "%s: read error: %s", f->path, strerror((int)-n));
		return (int)n;
	}
	f->boff = f->off;
	f->blen = (size_t)n;
	if (f->blen < BT_REC_SIZE) {
		ss_errf(err, errlen, "%s: file shrank while reading", f->path);
		return -EIO;
	}
	return 0;
}

/* The reason a record with magic word MAGIC (in our byte order) at f->off is refused. */
static int bad_magic(const struct bt_file *f, uint32_t magic, char *err, size_t errlen)
{
	if (!magic_ok(magic)) {
		ss_errf(err, errlen, "%s: corrupt blktrace record at offset %llu (bad magic)",
			f->path, (unsigned long long)f->off);
		return -EINVAL;
	}
	ss_errf(err, errlen, "%s: unsupported blktrace version %#x (seekscope reads %#x)",
		f->path, magic & 0xff, BT_VERSION);
	return -EPROTONOSUPPORT;
}

/* rwbs flags from the categories, as the kernel's rwbs string would show the same request. */
static uint16_t map_flags(uint32_t cat, uint32_t bytes)
{
	uint16_t f;

	if (cat & TC_DISCARD)
		f = SS_RW_DISCARD;
	else if (cat & TC_WRITE)
		f = SS_RW_WRITE;
	else if ((cat & TC_FLUSH) && !bytes)
		f = SS_RW_FLUSH;        /* the flush op: blktrace files it under READ */
	else if (bytes)
		f = SS_RW_READ;
	else
		f = SS_RW_NONE;
	/* blktrace has one bit for preflush and the flush op; tracefs shows flush requests "FF" */
	if (cat & TC_FLUSH)
		f |= SS_RW_PREFLUSH;
	if (cat & TC_FUA)
		f |= SS_RW_FUA;
	if (cat & TC_AHEAD)
		f |= SS_RW_AHEAD;
	if (cat & TC_SYNC)
		f |= SS_RW_SYNC;
	if (cat & TC_META)
		f |= SS_RW_META;
	return f;
}

/*
 * map_flags() depends on seven category bits and whether there are bytes: those eight bits
 * index a table of its results (struct bt_state's flags, filled at open).
 */
static inline unsigned flags_index(uint32_t cat, uint32_t bytes)
{
	return ((cat >> 1) & 0x07u) | ((cat >> 8) & 0x38u) | ((cat >> 9) & 0x40u) |
	       (bytes ? 0x80u : 0);
}

static void fill_flags(uint16_t flags[256])
{
	for (unsigned i = 0; i < 256; i++) {
		uint32_t cat = (i & 0x07u) << 1 | (i & 0x38u) << 8 | (i & 0x40u) << 9;

		flags[i] = map_flags(cat, i & 0x80u);
	}
}

/* The event type of each basic action; 0 for the actions that are skipped.  A table rather
 * than a switch: Q, D and C alternate, which a jump table mispredicts. */
static const uint8_t action_type[256] = {
	[TA_QUEUE] = SS_EV_QUEUE, [TA_INSERT] = SS_EV_INSERT, [TA_ISSUE] = SS_EV_ISSUE,
	[TA_COMPLETE] = SS_EV_COMPLETE, [TA_REQUEUE] = SS_EV_REQUEUE,
};

/* ---- the sources of the merge: one per file */

/*
 * A process note of PID at TS with a payload of PDU_LEN bytes that ends at f->off: its comm
 * to the metadata pass's scanner (for the task table).  The payload is the comm, after an
 * 8-byte cgroup id when the action has TA_CGROUP.
 */
static int take_process_note(struct ss_merge_scanner *sc, struct bt_file *f, uint32_t action,
			     uint32_t pid, uint64_t ts, uint16_t pdu_len, char *err, size_t errlen)
{
	size_t skip = (action & TA_CGROUP) ? 8 : 0;
	char comm[BT_COMM_LEN];
	ssize_t n;
	int ret;

	if (pdu_len <= skip)
		return 0;
	n = ss_pread_full(f->fd, comm, pdu_len - skip < sizeof(comm) ? pdu_len - skip :
				       sizeof(comm), (off_t)(f->off - pdu_len + skip));
	if (n < 0) {
		ss_errf(err, errlen, "%s: read error: %s", f->path, strerror((int)-n));
		return (int)n;
	}
	ret = ss_merge_scan_task_name(sc, ts, pid, comm, (size_t)n);
	if (ret)
		ss_errf(err, errlen, "%s: task names: %s", f->path, strerror(-ret));
	return ret;
}

static bool is_process_note(uint32_t action)
{
	return ((action >> 16) & TC_NOTIFY) && (action & 0xffu) == TN_PROCESS;
}

/* One file's metadata pass, kept until it is taken into the trace. */
struct file_scan {
	struct ss_merge_scanner sc;
	uint64_t size;
	int ret;                /* -EOVERFLOW: more notes than it keeps, the file to scan again */
	char err[256];
};

/*
 * Up to MAX of F's next events into EV, up to f->end (a record cut short there sets f->cut):
 * their count, or -errno with a reason.  With SC, the metadata pass: every event to the end
 * goes to ss_merge_scan_event() instead (0 or -errno).  With ALSO, both: the events go into
 * EV and, with the file's notes, into ALSO's scanner (a lazy open's pass).  One loop for each
 * byte order and purpose (SWAP, SC and ALSO's presence are constants where it is inlined),
 * the fields read where they lie in the window, the position kept in locals.
 */
static inline __attribute__((always_inline)) long
decode(struct bt_state *s, struct bt_file *f, struct ss_event *ev, size_t max, bool swap,
       struct ss_merge_scanner *sc, struct file_scan *also, char *err, size_t errlen)
{
	const uint64_t end = f->end;
	uint64_t off = f->off, lo = f->boff, hi = f->boff + f->blen;
	const unsigned char *buf = f->buf;
	size_t n = 0;
	int ret;

	while (n < max) {
		uint64_t left = end - off;
		const unsigned char *p;
		uint32_t magic, action, cat;
		uint16_t pdu_len, type;

		if (left < BT_REC_SIZE) {
			f->cut = left != 0;
			break;
		}
		if (off < lo || off + BT_REC_SIZE > hi) {
			f->off = off;
			if ((ret = fill_window(f, err, errlen)))
				return ret;
			lo = f->boff;
			hi = lo + f->blen;
		}
		p = buf + (off - lo);
		magic = FIELD(p, magic, swap);
		if (magic != (BT_MAGIC | BT_VERSION)) {
			f->off = off;
			return bad_magic(f, magic, err, errlen);
		}
		pdu_len = FIELD(p, pdu_len, swap);
		if (left - BT_REC_SIZE < pdu_len) {
			f->cut = true;
			break;
		}
		off += BT_REC_SIZE + pdu_len;
		action = FIELD(p, action, swap);
		cat = action >> 16;
		type = action_type[action & 0xffu];
		if (!(cat & (TC_NOTIFY | TC_PC | TC_DRV_DATA)) && type) {
			/* field by field where it goes: an event built aside and copied costs a
			 * stall per event (narrow stores read back as wide loads) */
			struct ss_event scanned, *e = sc ? &scanned : &ev[n];
			uint32_t bytes = FIELD(p, bytes, swap);
			int16_t error = (int16_t)FIELD(p, error, swap);

			e->ts_ns = FIELD(p, time, swap);
			e->sector = FIELD(p, sector, swap);
			e->nr_sector = bytes >> 9;
			e->bytes = bytes;
			e->dev = FIELD(p, device, swap);
			e->error = error > 0 ? -error : error;  /* the kernel stores -errno */
			e->type = type;
			e->flags = s->flags[flags_index(cat, bytes)];
			e->cpu = (uint16_t)FIELD(p, cpu, swap);
			e->reserved = 0;
			e->pid = FIELD(p, pid, swap);
			e->reserved2 = 0;
			ss_event_flush_sector(e);
			if (sc) {
				if ((ret = ss_merge_scan_event(sc, e)))
					return ret;
				continue;
			}
			if (also && !also->ret && (ret = ss_merge_scan_event(&also->sc, e))) {
				f->off = off;
				return ret;
			}
			n++;
			continue;
		}
		f->off = off;
		if (sc && is_process_note(action) &&
		    (ret = take_process_note(sc, f, action, FIELD(p, pid, swap),
					     FIELD(p, time, swap), pdu_len, err, errlen)))
			return ret;
		if (also && !also->ret && is_process_note(action) &&
		    (ret = take_process_note(&also->sc, f, action, FIELD(p, pid, swap),
					     FIELD(p, time, swap), pdu_len, err, errlen))) {
			if (ret != -EOVERFLOW)
				return ret;
			also->ret = ret;        /* lazy_end scans the file again */
			err[0] = '\0';
		}
		f->skipped++;
	}
	f->off = off;
	return (long)n;
}

/* Read F from its start again (the window too: the file may have changed). */
static void restart(struct bt_file *f)
{
	f->blen = 0;
	f->off = 0;
	f->skipped = 0;
	f->cut = false;
}

/* ss_merge_next_fn: file I's next events. */
static long next_events(void *ctx, size_t i, bool first, struct ss_event *ev, size_t max,
			char *err, size_t errlen)
{
	struct bt_state *s = ctx;
	struct bt_file *f = &s->files[i];

	if (first)
		restart(f);
	if (s->lazy) {
		struct file_scan *fs = &s->scans[i];

		if (first) {            /* the pass starts over */
			ss_merge_scan_free(&fs->sc);
			ss_merge_scan_begin_deferred(&fs->sc);
			fs->ret = 0;
		}
		return f->swap ? decode(s, f, ev, max, true, NULL, fs, err, errlen) :
				 decode(s, f, ev, max, false, NULL, fs, err, errlen);
	}
	return f->swap ? decode(s, f, ev, max, true, NULL, NULL, err, errlen) :
			 decode(s, f, ev, max, false, NULL, NULL, err, errlen);
}

/* The metadata pass over F: its events and its notes into SC (the merge's bookkeeping).
 * 0 or -errno with a reason. */
static int scan_events(struct bt_state *s, struct bt_file *f, struct ss_merge_scanner *sc,
		       char *err, size_t errlen)
{
	restart(f);
	return (int)(f->swap ? decode(s, f, NULL, SIZE_MAX, true, sc, NULL, err, errlen) :
			       decode(s, f, NULL, SIZE_MAX, false, sc, NULL, err, errlen));
}

static int bt_rewind(struct ss_trace *t)
{
	struct bt_state *s = ss_trace_state(t);

	return s->broken ? s->broken : ss_merge_rewind(s->merge, t);
}

static int bt_next_batch(struct ss_trace *t, const struct ss_event **ev, size_t *n)
{
	struct bt_state *s = ss_trace_state(t);

	*n = 0;
	return s->broken ? s->broken : ss_merge_next_batch(s->merge, t, ev, n);
}

/* ---- open: the metadata pass */

/*
 * A set of files is scanned in two threads, the files shared out one at a time, when
 * ss_trace_want_thread() says a second thread pays for its records; each file's
 * findings are kept apart (a deferred scanner) and go into the trace in the files' order, so
 * the trace is the same as scanned one file after the other (which is how it is scanned
 * otherwise, straight into the trace).  A file of more process notes than a deferred scanner
 * keeps is scanned again, straight into the trace, when its turn comes.
 */
struct scan_totals {
	uint64_t skipped, backwards;
	unsigned orders;        /* bit 0: our byte order seen, bit 1: the other */
};

struct scan_job {
	struct bt_state *s;
	struct file_scan *fs;
	atomic_size_t next;     /* the next file to scan */
};

static int open_file(struct bt_file *f, uint64_t *size, char *err, size_t errlen)
{
	unsigned char head[4];
	struct stat st;
	int order;

	f->fd = open(f->path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0 || fstat(f->fd, &st) < 0) {
		int e = errno;

		ss_errf(err, errlen, "%s: %s", f->path, strerror(e));
		return -e;
	}
	*size = (uint64_t)st.st_size;
	if (ss_pread_full(f->fd, head, sizeof(head), 0) != (ssize_t)sizeof(head) ||
	    !(order = magic_order(head))) {
		ss_errf(err, errlen, "%s: not a blktrace file (bad magic)", f->path);
		return -EINVAL;
	}
	f->swap = order == 2;
	if (!(f->buf = malloc(FILE_BUF)))
		return -ENOMEM;
	posix_fadvise(f->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	return 0;
}

/* Open file I and scan it: straight into T, or with T NULL into fs->sc, deferred (then it
 * touches nothing but the file and FS). */
static void scan_one(struct ss_trace *t, struct bt_state *s, size_t i, struct file_scan *fs)
{
	struct bt_file *f = &s->files[i];

	if (t)
		ss_merge_scan_begin(&fs->sc, t);
	else
		ss_merge_scan_begin_deferred(&fs->sc);
	if ((fs->ret = open_file(f, &fs->size, fs->err, sizeof(fs->err))))
		return;
	f->end = fs->size;
	fs->ret = scan_events(s, f, &fs->sc, fs->err, sizeof(fs->err));
}

static void *scan_files(void *arg)
{
	struct scan_job *job = arg;
	size_t i;

	while ((i = atomic_fetch_add(&job->next, 1)) < job->s->nr_files)
		scan_one(NULL, job->s, i, &job->fs[i]);
	return NULL;
}

/* File I's pass into T (the files in order): its error, or its findings; its complete
 * records end where a cut one starts.  0 or -errno with a reason. */
static int take_scan(struct ss_trace *t, struct bt_state *s, size_t i, struct file_scan *fs,
		     struct scan_totals *tot, char *err, size_t errlen)
{
	struct bt_file *f = &s->files[i];
	struct ss_merge_count c;
	bool in_notes;
	int ret;

	if (fs->ret == -EOVERFLOW && !fs->sc.t) {
		/* more notes than a deferred scan keeps: this file again, straight into T */
		ss_merge_scan_free(&fs->sc);
		ss_merge_scan_begin(&fs->sc, t);
		f->end = fs->size;
		fs->ret = scan_events(s, f, &fs->sc, fs->err, sizeof(fs->err));
	}
	if (fs->ret) {
		ss_errf(err, errlen, "%s", fs->err);
		return fs->ret;
	}
	tot->orders |= f->swap ? 2u : 1u;
	if ((ret = ss_merge_scan_replay(&fs->sc, t, &in_notes))) {
		if (in_notes)   /* as take_process_note() says it */
			ss_errf(err, errlen, "%s: task names: %s", f->path, strerror(-ret));
		return ret;
	}
	if ((ret = ss_merge_scan_end(&fs->sc, &c)))
		return ret;
	tot->skipped += f->skipped;
	tot->backwards += c.backwards;
	f->end = f->off;
	if (f->cut && !t->truncated) {
		t->truncated = true;
		ss_errf(t->warning, sizeof(t->warning),
			"truncated: %s ends in a partial record at offset %llu (%llu bytes ignored)",
			f->path, (unsigned long long)f->off, (unsigned long long)(fs->size - f->off));
	}
	return 0;
}

/* Whether to scan S's files in two threads (by their size now: a guess, the pass reads what
 * it finds). */
static bool scan_in_threads(const struct ss_trace *t, const struct bt_state *s)
{
	uint64_t bytes = 0;

	if (s->nr_files < 2)
		return false;
	for (size_t i = 0; i < s->nr_files; i++) {
		struct stat st;

		if (!stat(s->files[i].path, &st))
			bytes += (uint64_t)st.st_size;
	}
	return ss_trace_want_thread(t, bytes / BT_REC_SIZE);
}

/* The metadata pass over S's files into T: 0, or the first failing file's -errno and reason. */
static int scan_all(struct ss_trace *t, struct bt_state *s, struct scan_totals *tot, char *err,
		    size_t errlen)
{
	struct file_scan *fs = calloc(s->nr_files ? s->nr_files : 1, sizeof(*fs));
	int ret = 0;

	if (!fs)
		return -ENOMEM;
	if (scan_in_threads(t, s)) {
		struct scan_job job = { .s = s, .fs = fs };
		sigset_t all, old;
		pthread_t th;
		bool two;

		/* signals stay with the caller's thread */
		sigfillset(&all);
		pthread_sigmask(SIG_SETMASK, &all, &old);
		two = !pthread_create(&th, NULL, scan_files, &job);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		scan_files(&job);       /* alone if the thread could not start */
		if (two)
			pthread_join(th, NULL);
		for (size_t i = 0; !ret && i < s->nr_files; i++)
			ret = take_scan(t, s, i, &fs[i], tot, err, errlen);
	} else {
		for (size_t i = 0; !ret && i < s->nr_files; i++) {
			scan_one(t, s, i, &fs[i]);
			ret = take_scan(t, s, i, &fs[i], tot, err, errlen);
		}
	}
	for (size_t i = 0; i < s->nr_files; i++)
		ss_merge_scan_free(&fs[i].sc);
	free(fs);
	return ret;
}

static int add_summary_meta(struct ss_trace *t, const struct bt_state *s,
			    const struct scan_totals *tot)
{
	static const char *const orders[] = { "-", "host", "swapped", "mixed" };
	char buf[32];
	int ret = 0;

	ret |= ss_trace_add_meta(t, "source", "blktrace");
	ret |= ss_trace_add_meta(t, "source.path", t->path);
	snprintf(buf, sizeof(buf), "%zu", s->nr_files);
	ret |= ss_trace_add_meta(t, "blktrace.files", buf);
	ret |= ss_trace_add_meta(t, "blktrace.byte_order", orders[tot->orders & 3]);
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)tot->skipped);
	ret |= ss_trace_add_meta(t, "blktrace.skipped_records", buf);
	if (tot->backwards) {
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)tot->backwards);
		ret |= ss_trace_add_meta(t, "blktrace.out_of_order", buf);
	}
	return ret ? -ENOMEM : 0;
}

/* T's files listed, their state made and stored (nothing opened yet): 0 or -errno. */
static int new_state(struct ss_trace *t, struct bt_state **sp, char *err, size_t errlen)
{
	struct bt_state *s;
	char **names = NULL;
	size_t nr = 0;
	int ret;

	if ((ret = ss_bt_list_files(t->path, &names, &nr, err, errlen)))
		return ret;
	s = calloc(1, sizeof(*s));
	if (s) {
		s->files = calloc(nr ? nr : 1, sizeof(*s->files));
		s->merge = ss_merge_new(nr, next_events, s);
	}
	if (!s || !s->files || !s->merge) {
		if (s) {
			free(s->files);
			ss_merge_free(s->merge);
			free(s);
		}
		for (size_t i = 0; i < nr; i++)
			free(names[i]);
		free(names);
		return -ENOMEM;
	}
	/* the state owns the paths from here on, so close frees everything */
	for (size_t i = 0; i < nr; i++) {
		s->files[i].path = names[i];
		s->files[i].fd = -1;
	}
	s->nr_files = nr;
	free(names);
	fill_flags(s->flags);
	ss_trace_set_state(t, s);
	*sp = s;
	return 0;
}

static int bt_open(struct ss_trace *t, char *err, size_t errlen)
{
	struct scan_totals tot = { 0 };
	struct bt_state *s;
	int ret;

	if ((ret = new_state(t, &s, err, errlen)))
		return ret;
	if ((ret = scan_all(t, s, &tot, err, errlen)))
		return ret;
	if ((ret = add_summary_meta(t, s, &tot)))
		return ret;
	return ss_merge_start(s->merge, t, err, errlen);
}

/* The stream's first end, of a lazy open: every file's findings into T, in the files' order,
 * as bt_open() takes them (ss_merge_set_end). */
static int lazy_end(void *ctx, struct ss_trace *t)
{
	struct bt_state *s = ctx;
	struct scan_totals tot = { 0 };
	char err[256] = "";
	int ret = 0;

	for (size_t i = 0; !ret && i < s->nr_files; i++)
		ret = take_scan(t, s, i, &s->scans[i], &tot, err, sizeof(err));
	if (!ret && (ret = add_summary_meta(t, s, &tot)))
		snprintf(err, sizeof(err), "%s", strerror(-ret));
	if (ret) {
		/* part of the metadata taken already: no stream may take it again */
		ss_trace_set_error(t, "%s", err[0] ? err : strerror(-ret));
		s->broken = ret;
		return ret;
	}
	for (size_t i = 0; i < s->nr_files; i++)
		ss_merge_scan_free(&s->scans[i].sc);
	free(s->scans);
	s->scans = NULL;
	s->lazy = false;
	ss_merge_sort_devices(t);
	ss_trace_meta_done(t);
	return 0;
}

static int bt_open_lazy(struct ss_trace *t, char *err, size_t errlen)
{
	uint64_t hint = 0;
	struct bt_state *s;
	int ret;

	if ((ret = new_state(t, &s, err, errlen)))
		return ret;
	if (!(s->scans = calloc(s->nr_files ? s->nr_files : 1, sizeof(*s->scans))))
		return -ENOMEM;
	for (size_t i = 0; i < s->nr_files; i++) {
		struct file_scan *fs = &s->scans[i];

		ss_merge_scan_begin_deferred(&fs->sc);
		if ((ret = open_file(&s->files[i], &fs->size, err, errlen)))
			return ret;
		s->files[i].end = fs->size;
		hint += fs->size / BT_REC_SIZE;
	}
	s->lazy = true;
	ss_trace_set_events_hint(t, hint);
	ss_merge_set_end(s->merge, lazy_end);
	if ((ret = ss_merge_rewind(s->merge, t)))
		ss_errf(err, errlen, "%s", ss_trace_error(t));
	return ret;
}

static void bt_close(struct ss_trace *t)
{
	struct bt_state *s = ss_trace_state(t);

	if (!s)
		return;
	for (size_t i = 0; s->scans && i < s->nr_files; i++)
		ss_merge_scan_free(&s->scans[i].sc);
	free(s->scans);
	for (size_t i = 0; i < s->nr_files; i++) {
		if (s->files[i].fd >= 0)
			close(s->files[i].fd);
		free(s->files[i].buf);
		free(s->files[i].path);
	}
	free(s->files);
	ss_merge_free(s->merge);
	free(s);
}

const struct ss_trace_backend ss_trace_backend_blktrace = {
	.name = "blktrace",
	.probe = bt_probe,
	.opens_sets = true,
	.open = bt_open,
	.open_lazy = bt_open_lazy,
	.next_batch = bt_next_batch,
	.costly_decode = true,
	.rewind = bt_rewind,
	.close = bt_close,
};
