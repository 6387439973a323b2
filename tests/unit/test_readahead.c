// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Read-ahead (readahead.h, ss_trace_set_readahead): a pass read in a thread of its own gives
 * the caller the same events, the same end and the same errors as one read directly.  A
 * seekscope trace of several event records and a blktrace set of two per-CPU files are read
 * both ways; a pass is stopped half-way by a rewind and by a close; a record with a bad
 * checksum ends both passes at the same event with the same message; a trace cut in a record
 * reads as the same prefix; SEEKSCOPE_READAHEAD gives the default.  The ring itself, fed by a
 * backend of the test's own, is read by a slow caller (the thread finds the ring full and
 * sleeps until half of it is free) and from a slow backend (the caller waits for each slot),
 * ending in an error or the end, never more than the ring ahead of the caller nor touching the
 * slot it holds; stopped while the thread sleeps on a full ring or waits in the backend.  A
 * blktrace set damaged after its opening fails at the same event both ways.  A batch hook
 * sees the caller's events, in the thread that reads them.  Runs unprivileged in a mkdtemp()
 * directory.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "tap.h"
#include "testdir.h"
#include "../tools/bt_write.h"
#include "seekscope/model.h"
#include "readahead.h"
#include "trace_read.h"
#include "trace_write.h"

#define diag(...) (printf("# " __VA_ARGS__), printf("\n"))

#define NR_IOS  120000                 /* 240,000 events: four event records */
#define DEV     SS_MKDEV(8, 0)

static struct ss_event *ref;           /* the events as read without read-ahead */
static size_t nr_ref;

/* I/O I's issue and completion: runs of 8 sequential requests over 16 regions. */
static void io_events(size_t i, struct ss_event ev[2])
{
	uint64_t sector = (i % 16) * 10000000ull + (i / 16) * 8;

	ev[0] = (struct ss_event){ .ts_ns = 1000000000ull + i * 2000, .sector = sector,
				   .nr_sector = 8, .bytes = 4096, .dev = DEV,
				   .type = SS_EV_ISSUE, .flags = i % 3 ? SS_RW_WRITE : SS_RW_READ,
				   .cpu = (uint16_t)(i & 1), .pid = 100 + (uint32_t)(i % 7) };
	ev[1] = ev[0];
	ev[1].ts_ns += 1500;
	ev[1].type = SS_EV_COMPLETE;
}

static int write_native(const char *path)
{
	struct ss_rec_device d = { .dev = DEV, .major = 8, .minor = 0, .logical_block_size = 512,
				   .physical_block_size = 512, .nr_sectors = 1ull << 32,
				   .part_nr_sectors = 1ull << 32 };
	struct ss_event *ev = malloc(2 * (size_t)NR_IOS * sizeof(*ev));
	struct ss_writer *w = ev ? ss_writer_open(path, SS_OUT_INPLACE, NULL, 0) : NULL;
	int ret = 0;

	if (!w) {
		free(ev);
		return -ENOMEM;
	}
	strcpy(d.name, "sda");
	ret |= ss_writer_device(w, &d);
	for (size_t i = 0; i < NR_IOS; i++)
		io_events(i, ev + 2 * i);
	ret |= ss_writer_events(w, ev, 2 * (size_t)NR_IOS);
	ret |= ss_writer_close(w);
	free(ev);
	return ret ? -EIO : 0;
}

/* PREFIX.blktrace.{0,1} in the test directory: each I/O queued, issued and completed, on CPU i % 2. */
static int write_blktrace(const char *prefix)
{
	FILE *f[2];
	int ret = 0;

	for (int c = 0; c < 2; c++)
		if (!(f[c] = fopen(tpath("%s.blktrace.%d", prefix, c), "w")))
			return -1;
	for (size_t i = 0; i < NR_IOS / 4; i++) {
		struct ss_event ev[2];
		static const uint32_t act[3] = { BTW_TA_Q, BTW_TA_D, BTW_TA_C };

		io_events(i, ev);
		for (int k = 0; k < 3; k++) {
			struct btw_rec r = { .time = ev[0].ts_ns + (uint64_t)k * 700,
					     .sector = ev[0].sector, .bytes = 4096,
					     .action = act[k] | (i % 3 ? BTW_WRITE : 0),
					     .pid = ev[0].pid, .device = DEV, .cpu = (uint32_t)(i & 1) };

			ret |= btw_put(f[i & 1], &r, false, "");
		}
	}
	for (int c = 0; c < 2; c++)
		ret |= fclose(f[c]);
	return ret;
}

static struct ss_trace *open_mode(const char *path, int mode)
{
	char err[256];
	struct ss_trace *t = ss_trace_open(path, err, sizeof(err));

	if (!t)
		diag("open %s: %s", path, err);
	else if (mode)
		ss_trace_set_readahead(t, mode);
	return t;
}

/* The batches of the last read_events(): how many, how many of SS_READAHEAD_SLOT_EVENTS
 * events exactly (the read-ahead's slots), and the first one's size. */
static size_t nr_batches, nr_slot_batches, first_batch;

/*
 * Read T's next events (at most LIMIT) into OUT[*n...]: the last next_batch's return (1 when
 * LIMIT stopped the reading).
 */
/* ... and the notes a batch hook (check_hook) gave with them: how many, how many not its;
 * NOTE_WORDS the hook's notes' size, in words of 8 bytes (word k of event i's note: k plus
 * its time xor its sector) */
static size_t nr_noted, nr_notes_wrong, note_words = 1;

static uint64_t note_word(const struct ss_event *ev, size_t k)
{
	return (ev->ts_ns ^ ev->sector) + k;
}

static int read_events(struct ss_trace *t, struct ss_event *out, size_t *n, size_t limit)
{
	const struct ss_event *ev;
	size_t k;
	int ret = 0;

	nr_batches = nr_slot_batches = nr_noted = nr_notes_wrong = 0;
	while (*n < limit && (ret = ss_trace_next_batch(t, &ev, &k)) > 0) {
		const uint64_t *notes = ss_trace_batch_notes(t);

		if (!nr_batches++)
			first_batch = k;
		nr_slot_batches += k == SS_READAHEAD_SLOT_EVENTS;
		for (size_t i = 0; notes && i < k; i++) {
			nr_noted++;
			for (size_t w = 0; w < note_words; w++)
				nr_notes_wrong += notes[i * note_words + w] != note_word(&ev[i], w);
		}
		for (size_t i = 0; i < k; i++)
			if ((*n)++ < limit)
				out[*n - 1] = ev[i];
	}
	return *n >= limit ? 1 : ret;
}

/* Whether the last read_events() came in the read-ahead's slots: all full but the last. */
static bool read_ahead(void)
{
	return nr_batches && nr_slot_batches + 1 >= nr_batches;
}

/* Read PATH through to its end or error without read-ahead into ref: the return. */
static int read_ref(const char *path, char *msg, size_t len)
{
	struct ss_trace *t = open_mode(path, -1);
	int ret = 0;

	nr_ref = 0;
	if (!t)
		return -EIO;
	ret = read_events(t, ref, &nr_ref, 4 * (size_t)NR_IOS);
	snprintf(msg, len, "%s", ss_trace_error(t));
	ss_trace_close(t);
	return ret;
}

static bool same_prefix(const struct ss_event *got, size_t n)
{
	if (n > nr_ref)
		return false;
	for (size_t i = 0; i < n; i++)
		if (memcmp(&got[i], &ref[i], sizeof(*got))) {
			diag("event %zu differs (ts %llu vs %llu)", i,
			     (unsigned long long)got[i].ts_ns, (unsigned long long)ref[i].ts_ns);
			return false;
		}
	return true;
}

/* Whole passes, a pass cut short by a rewind, by a close, and the end read twice. */
static void check_passes(const char *what, const char *path, size_t want_events)
{
	struct ss_event *got = malloc(4 * (size_t)NR_IOS * sizeof(*got));
	struct ss_trace *t;
	char msg[256];
	size_t n = 0;
	int ret = 0;

	ret = read_ref(path, msg, sizeof(msg));
	ok(ret == 0 && nr_ref == want_events, "%s: %zu events read directly (want %zu)", what,
	   nr_ref, want_events);
	if (!got || !(t = open_mode(path, 1))) {
		ok(0, "%s: open with read-ahead", what);
		free(got);
		return;
	}
	ret = read_events(t, got, &n, SIZE_MAX);
	ok(ret == 0 && n == nr_ref && same_prefix(got, n) && read_ahead(),
	   "%s: read ahead (%zu batches of %d), the same %zu events and the end", what,
	   nr_batches, SS_READAHEAD_SLOT_EVENTS, n);
	{
		const struct ss_event *ev;
		size_t k = 7;

		ok(ss_trace_next_batch(t, &ev, &k) == 0 && k == 0,
		   "%s: after the end, the end again", what);
	}
	/* a second pass, broken off after 10,001 events by a rewind, then a whole one */
	ok(ss_trace_rewind(t) == 0, "%s: rewind after a whole pass", what);
	n = 0;
	ret = read_events(t, got, &n, 10001);
	ok(ret == 1 && same_prefix(got, n), "%s: the first 10,001 events again", what);
	ok(ss_trace_rewind(t) == 0, "%s: rewind in the middle of a pass", what);
	n = 0;
	ret = read_events(t, got, &n, SIZE_MAX);
	ok(ret == 0 && n == nr_ref && same_prefix(got, n), "%s: then the whole pass again", what);
	/* read-ahead turned off for the next pass: the same */
	ss_trace_set_readahead(t, -1);
	ss_trace_rewind(t);
	n = 0;
	ret = read_events(t, got, &n, SIZE_MAX);
	ok(ret == 0 && n == nr_ref && same_prefix(got, n) && !read_ahead(),
	   "%s: turned off, the same (in the backend's %zu batches)", what, nr_batches);
	/* closed in the middle of a pass (the thread is stopped: no hang, no leak) */
	ss_trace_set_readahead(t, 1);
	ss_trace_rewind(t);
	n = 0;
	ret = read_events(t, got, &n, 5000);
	ok(ret == 1 && same_prefix(got, n), "%s: 5,000 events, then closed", what);
	ss_trace_close(t);
	free(got);
}

/* What a batch hook saw (ss_trace_set_batch_hook): its events in order, its calls, and
 * whether one came from another thread than the test's. */
struct hooked {
	struct ss_event *ev;
	size_t n, cap, calls;
	pthread_t main;
	bool other_thread, notes_null;
};

static void hook(void *arg, const struct ss_event *ev, void *notes, size_t n)
{
	struct hooked *h = arg;
	uint64_t *note = notes;

	h->notes_null |= !notes;
	for (size_t i = 0; notes && i < n; i++)
		for (size_t w = 0; w < note_words; w++)
			note[i * note_words + w] = note_word(&ev[i], w);
	h->calls++;
	h->other_thread |= !pthread_equal(pthread_self(), h->main);
	for (size_t i = 0; i < n && h->n < h->cap; i++)
		h->ev[h->n++] = ev[i];
}

/*
 * The batch hook of a pass, read ahead (MODE 1) and not (-1): it sees every event the caller
 * gets, in order, in the read-ahead thread or in the caller's; a pass broken off sees a
 * prefix, at most the ring ahead of the caller; a rewind unsets it.
 */
static void check_hook(const char *what, const char *path, int mode)
{
	struct ss_event *got = malloc(4 * (size_t)NR_IOS * sizeof(*got));
	struct hooked h = { .ev = malloc(4 * (size_t)NR_IOS * sizeof(*h.ev)),
			    .cap = 4 * (size_t)NR_IOS, .main = pthread_self() };
	const char *how = mode > 0 ? "read ahead" : "read directly";
	struct ss_trace *t;
	size_t n = 0;
	int ret;

	if (!got || !h.ev || !(t = open_mode(path, mode))) {
		ok(0, "%s, %s: open", what, how);
		free(got);
		free(h.ev);
		return;
	}
	ss_trace_rewind(t);
	ss_trace_set_batch_hook(t, hook, &h, note_words * sizeof(uint64_t));
	ret = read_events(t, got, &n, SIZE_MAX);
	ok(ret == 0 && n == nr_ref && same_prefix(got, n), "%s, %s: the whole pass", what, how);
	ok(h.n == n && same_prefix(h.ev, h.n), "%s, %s: the hook saw its %zu events in order "
	   "(%zu)", what, how, n, h.n);
	ok(h.calls == nr_batches, "%s, %s: once a batch (%zu calls, %zu batches)", what, how,
	   h.calls, nr_batches);
	ok(h.other_thread == (mode > 0), "%s, %s: %s", what, how,
	   mode > 0 ? "in the read-ahead thread" : "in the caller's thread");
	ok(nr_noted == n && !nr_notes_wrong, "%s, %s: each event came with the hook's note of it "
	   "(%zu noted, %zu wrong)", what, how, nr_noted, nr_notes_wrong);
	/* broken off after 10,001 events (N: those of the batches taken): read directly, the hook
	 * saw those batches; read ahead, at most the ring's more */
	h.n = h.calls = 0;
	ss_trace_rewind(t);
	ss_trace_set_batch_hook(t, hook, &h, note_words * sizeof(uint64_t));
	n = 0;
	ret = read_events(t, got, &n, 10001);
	ss_trace_rewind(t);     /* the thread stopped: h is the test's again */
	ok(ret == 1 && h.n >= n && same_prefix(h.ev, h.n) &&
	   h.n <= n + (mode > 0 ? (size_t)SS_READAHEAD_SLOTS * SS_READAHEAD_SLOT_EVENTS : 0),
	   "%s, %s: a pass broken off after %zu events, %zu hooked", what, how, n, h.n);
	/* the rewind unset it: a whole pass without a call */
	h.n = h.calls = 0;
	ss_trace_rewind(t);
	n = 0;
	ret = read_events(t, got, &n, SIZE_MAX);
	ok(ret == 0 && n == nr_ref && h.calls == 0 && !nr_noted,
	   "%s, %s: the next pass not hooked, without notes", what, how);
	/* notes of three words each; of none (the hook's NOTES NULL, none with the batches) */
	for (size_t words = 3; words != SIZE_MAX; words = words ? 0 : SIZE_MAX) {
		note_words = words;
		h.n = h.calls = 0;
		h.notes_null = false;
		ss_trace_rewind(t);
		ss_trace_set_batch_hook(t, hook, &h, words * sizeof(uint64_t));
		n = 0;
		ret = read_events(t, got, &n, SIZE_MAX);
		ok(ret == 0 && n == nr_ref && h.n == n && nr_noted == (words ? n : 0) &&
		   !nr_notes_wrong && h.notes_null == !words,
		   "%s, %s: notes of %zu bytes an event (%zu noted, %zu wrong)", what, how,
		   words * sizeof(uint64_t), nr_noted, nr_notes_wrong);
	}
	note_words = 1;
	ss_trace_close(t);
	free(got);
	free(h.ev);
}

/* A bad checksum in the third event record; then the file cut inside its last record. */
static void check_damage(const char *path)
{
	struct ss_event *got = malloc(4 * (size_t)NR_IOS * sizeof(*got));
	char msg[256];
	struct ss_trace *t;
	struct stat st;
	size_t n = 0;
	int ret, fd;

	TP(bad, "bad.sst");
	TP(cut, "cut.sst");
	ok(got && !stat(path, &st) && !write_native(bad) && !write_native(cut),
	   "damage: two more copies of the trace");
	if (!got) {
		free(got);
		return;
	}
	/* a byte flipped three fifths in: inside the third of four event records */
	fd = open(bad, O_RDWR);
	if (fd >= 0) {
		unsigned char b;
		off_t at = st.st_size / 5 * 3;

		if (pread(fd, &b, 1, at) == 1) {
			b ^= 0x40;
			if (pwrite(fd, &b, 1, at) != 1)
				diag("pwrite: %s", strerror(errno));
		}
		close(fd);
	}
	ret = read_ref(bad, msg, sizeof(msg));
	ok(ret < 0 && nr_ref > 0 && strstr(msg, "checksum"),
	   "bad checksum, read directly: %zu events, then \"%s\"", nr_ref, msg);
	if ((t = open_mode(bad, 1))) {
		int ret2 = read_events(t, got, &n, SIZE_MAX);

		ok(ret2 == ret && n == nr_ref && same_prefix(got, n) &&
		   !strcmp(ss_trace_error(t), msg),
		   "bad checksum, read ahead: the same %zu events, error %d, \"%s\"", n, ret2,
		   ss_trace_error(t));
		ss_trace_close(t);
	}
	if (truncate(cut, st.st_size - 1000))
		diag("truncate: %s", strerror(errno));
	ret = read_ref(cut, msg, sizeof(msg));
	ok(ret == 0 && nr_ref > 0 && nr_ref < 2 * (size_t)NR_IOS,
	   "cut in its last record, read directly: %zu events", nr_ref);
	if ((t = open_mode(cut, 1))) {
		n = 0;
		ret = read_events(t, got, &n, SIZE_MAX);
		ok(ret == 0 && n == nr_ref && same_prefix(got, n) && t->truncated,
		   "cut, read ahead: the same %zu events, truncated", n);
		ss_trace_close(t);
	}
	free(got);
}

/* SEEKSCOPE_READAHEAD=always and =never give the same events as the default. */
static void check_env(const char *path)
{
	static const char *const modes[] = { "always", "never", "auto", "bogus" };
	struct ss_event *got = malloc(4 * (size_t)NR_IOS * sizeof(*got));
	char msg[256];

	read_ref(path, msg, sizeof(msg));
	for (size_t i = 0; got && i < sizeof(modes) / sizeof(modes[0]); i++) {
		struct ss_trace *t;
		size_t n = 0;
		int ret = -1;

		setenv("SEEKSCOPE_READAHEAD", modes[i], 1);
		if ((t = open_mode(path, 0))) {
			ret = read_events(t, got, &n, SIZE_MAX);
			ss_trace_close(t);
		}
		ok(ret == 0 && n == nr_ref && same_prefix(got, n) &&
		   (i > 1 || read_ahead() == (i == 0)),
		   "SEEKSCOPE_READAHEAD=%s: the same %zu events%s", modes[i], n,
		   i == 0 ? ", read ahead" : i == 1 ? ", not read ahead" : "");
	}
	unsetenv("SEEKSCOPE_READAHEAD");
	free(got);
}

/* A backend of the test's own: NR events numbered by ts in batches of BATCH, then END. */
struct fake {
	struct ss_event buf[1000];
	size_t next, nr, batch;
	int end;
	long sleep_ns;          /* before each batch: a slow backend */
	atomic_size_t made;     /* events handed to the ring so far (read by the test) */
	atomic_size_t calls;    /* calls begun */
};

static void pause_ns(long ns)
{
	struct timespec ts = { ns / 1000000000, ns % 1000000000 };

	while (ns && nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static int fake_next(struct ss_trace *t, const struct ss_event **ev, size_t *n)
{
	struct fake *f = (struct fake *)(void *)t;
	size_t k = f->nr - f->next < f->batch ? f->nr - f->next : f->batch;

	atomic_fetch_add(&f->calls, 1);
	pause_ns(f->sleep_ns);
	*n = 0;
	if (!k)
		return f->end;
	for (size_t i = 0; i < k; i++)
		f->buf[i] = (struct ss_event){ .ts_ns = f->next + i, .type = SS_EV_ISSUE,
					       .dev = DEV, .sector = f->next + i, .nr_sector = 8 };
	f->next += k;
	atomic_fetch_add(&f->made, k);
	*ev = f->buf;
	*n = k;
	return 1;
}

static struct fake *fake_new(size_t nr, size_t batch, int end, long sleep_ns)
{
	struct fake *f = batch <= 1000 ? calloc(1, sizeof(*f)) : NULL;

	if (f) {
		f->nr = nr;
		f->batch = batch;
		f->end = end;
		f->sleep_ns = sleep_ns;
	}
	return f;
}

/* The events of a batch starting at event FIRST, as the fake made them. */
static bool in_order(const struct ss_event *ev, size_t n, size_t first)
{
	for (size_t i = 0; i < n; i++)
		if (ev[i].ts_ns != first + i || ev[i].sector != first + i)
			return false;
	return true;
}

/*
 * Read NR events through the ring from a fake backend; the caller sleeps CALLER_NS after each
 * of its batches, the backend BACKEND_NS before each of its.  Each batch is checked again
 * after the caller's pause (the thread must not refill the slot the caller holds), and the
 * thread must never be more than the ring ahead of the caller.
 */
static void check_ring(const char *what, size_t nr, size_t batch, int end, long caller_ns,
		       long backend_ns)
{
	struct fake *f = fake_new(nr, batch, end, backend_ns);
	struct ss_readahead *ra;
	const struct ss_event *ev;
	size_t n, seen = 0, batches = 0, full = 0, ahead = 0;
	unsigned taken, waited;
	bool order = true, held = true;
	int ret;

	if (!f || !(ra = ss_readahead_start((struct ss_trace *)(void *)f, fake_next, NULL, NULL, 0))) {
		ok(0, "%s: start", what);
		free(f);
		return;
	}
	while ((ret = ss_readahead_next(ra, &ev, &n)) > 0) {
		size_t made = atomic_load(&f->made);

		/* made beyond what the caller was given before this slot */
		if (made - seen > ahead)
			ahead = made - seen;
		order &= in_order(ev, n, seen);
		if (caller_ns)
			pause_ns(caller_ns);
		held &= in_order(ev, n, seen);
		seen += n;
		batches++;
		full += n == SS_READAHEAD_SLOT_EVENTS;
	}
	/* the end is kept: asked again, the same */
	ok(ret == end && seen == nr && order && full == nr / SS_READAHEAD_SLOT_EVENTS &&
	   batches == (nr + SS_READAHEAD_SLOT_EVENTS - 1) / SS_READAHEAD_SLOT_EVENTS &&
	   ss_readahead_next(ra, &ev, &n) == end && n == 0,
	   "%s: %zu events in order in %zu batches, then %d (want %zu, %d)", what, seen, batches,
	   ret, nr, end);
	ok(held && ahead <= SS_READAHEAD_SLOTS * SS_READAHEAD_SLOT_EVENTS + batch,
	   "%s: the slot held intact, the thread at most %zu events ahead (ring %u slots)", what,
	   ahead, SS_READAHEAD_SLOTS);
	/* the slots taken: every batch's, and the end's when it came in a slot of its own */
	ss_readahead_waits(ra, &taken, &waited);
	ok(taken >= batches && taken <= batches + 1 && waited <= taken,
	   "%s: %u slots taken for %zu batches, %u of them waited for", what, taken, batches,
	   waited);
	ss_readahead_stop(ra);
	free(f);
}

/*
 * A blktrace set damaged after it was opened (a record's magic overwritten in the second
 * file, past three fifths of it): read directly and read ahead, the same events up to the
 * damage (the merge's batch that meets it left out both ways), then the same error and
 * message.
 */
static void check_bt_damage(void)
{
	struct ss_event *got = malloc(4 * (size_t)NR_IOS * sizeof(*got));
	struct ss_trace *direct, *ahead;
	char msg[256];
	size_t n = 0;
	int ret, ret2, fd;

	TP(bad, "btbad");
	TP(file, "btbad.blktrace.1");
	if (!got || write_blktrace("btbad")) {
		ok(0, "damaged blktrace set: written");
		free(got);
		return;
	}
	direct = open_mode(bad, -1);
	ahead = open_mode(bad, 1);
	fd = open(file, O_RDWR);
	if (fd >= 0) {
		static const unsigned char junk[4] = { 0xff, 0xff, 0xff, 0xff };
		struct stat st;

		/* every record is 48 bytes (no payloads): the magic of the record 1,024 after the
		 * three-fifths mark, about the merged stream's 56,000th event: in a read-ahead
		 * slot's second half, where a slot filled a batch at a time must not lose more */
		if (fstat(fd, &st) ||
		    pwrite(fd, junk, sizeof(junk), (st.st_size / 48 / 5 * 3 + 1024) * 48) !=
			    (ssize_t)sizeof(junk))
			diag("damage: %s", strerror(errno));
		close(fd);
	}
	nr_ref = 0;
	ret = direct ? read_events(direct, ref, &nr_ref, 4 * (size_t)NR_IOS) : -1;
	snprintf(msg, sizeof(msg), "%s", direct ? ss_trace_error(direct) : "");
	ret2 = ahead ? read_events(ahead, got, &n, 4 * (size_t)NR_IOS) : -2;
	ok(ret < 0 && nr_ref > 0 && nr_ref < 3 * (size_t)NR_IOS / 4 && strstr(msg, "bad magic") &&
	   nr_ref % SS_READAHEAD_SLOT_EVENTS,
	   "damaged blktrace set, read directly: %zu events, then %d \"%s\"", nr_ref, ret, msg);
	ok(ret2 == ret && n == nr_ref && same_prefix(got, n) && ahead &&
	   !strcmp(ss_trace_error(ahead), msg) && read_ahead(),
	   "... read ahead: the same %zu events, error %d, \"%s\"", n, ret2,
	   ahead ? ss_trace_error(ahead) : "");
	ss_trace_close(direct);
	ss_trace_close(ahead);
	free(got);
}

/*
 * Stopped while the thread sleeps on a full ring, after TAKE batches (0: none taken), or
 * while it is inside a slow backend call (SLOW_NS): ss_readahead_stop() returns (the test's
 * alarm says otherwise), and the backend is not called again after it.
 */
static void check_stop(const char *what, size_t take, long slow_ns)
{
	struct fake *f = fake_new(SIZE_MAX / 2, 1000, 0, slow_ns);
	struct ss_readahead *ra;
	const struct ss_event *ev;
	size_t n, calls;
	bool full = true;

	if (!f || !(ra = ss_readahead_start((struct ss_trace *)(void *)f, fake_next, NULL, NULL, 0))) {
		ok(0, "%s: start", what);
		free(f);
		return;
	}
	for (size_t i = 0; i < take; i++)
		ss_readahead_next(ra, &ev, &n);
	if (!slow_ns) {
		/* the ring full: the thread sleeps now (having filled it before the caller gave
		 * back any slot, it waits for half of it, more than TAKE - 1 slots) */
		size_t want = SS_READAHEAD_SLOTS * SS_READAHEAD_SLOT_EVENTS;

		for (int i = 0; i < 5000 && atomic_load(&f->made) < want; i++)
			pause_ns(1000000);
		full = atomic_load(&f->made) >= want;
		pause_ns(20000000);
	} else {
		while (!atomic_load(&f->calls))
			pause_ns(100000);
	}
	ss_readahead_stop(ra);
	calls = atomic_load(&f->calls);
	pause_ns(20000000);
	/* in a slow call: that call ends, no other begins */
	ok(full && atomic_load(&f->calls) == calls && (!slow_ns || calls == 1),
	   "%s: stopped, %zu events made in %zu calls, none after", what, atomic_load(&f->made),
	   calls);
	free(f);
}

int main(void)
{
	plan(88);
	alarm(120);             /* a lost wake-up hangs: end the test instead */
	/* 40 slots' worth: the ring fills and drains many times */
	check_ring("a slow caller", 40 * SS_READAHEAD_SLOT_EVENTS + 123, 1000, 0, 200000, 0);
	check_ring("a slow backend", 40 * SS_READAHEAD_SLOT_EVENTS + 5, 700, 0, 0, 50000);
	check_ring("a slow backend ending in an error", 9 * SS_READAHEAD_SLOT_EVENTS, 1000, -EIO,
		   0, 20000);
	check_ring("an error after part of a slot", 9 * SS_READAHEAD_SLOT_EVENTS + 5, 1000, -EIO,
		   100000, 0);
	check_ring("neither slow", 100 * SS_READAHEAD_SLOT_EVENTS + 1, 999, 0, 0, 0);
	check_ring("nothing at all", 0, 1000, 0, 0, 0);
	check_stop("stopped on a full ring, nothing taken", 0, 0);
	check_stop("stopped on a full ring, 3 slots taken", 3, 0);
	check_stop("stopped in a slow backend call", 0, 200000000);
	if (testdir_make("readahead"))
		return done_testing();
	ref = malloc(4 * (size_t)NR_IOS * sizeof(*ref));
	if (!ref)
		return 1;
	{
		TP(sst, "t.sst");
		ok(write_native(sst) == 0, "a seekscope trace of %d I/Os", NR_IOS);
		check_passes("seekscope", sst, 2 * (size_t)NR_IOS);
		check_hook("seekscope", sst, 1);
		check_hook("seekscope", sst, -1);
		check_damage(sst);
		check_env(sst);
	}
	{
		TP(bt, "bt");
		ok(write_blktrace("bt") == 0, "a blktrace set of %d I/Os in two files", NR_IOS / 4);
		check_passes("blktrace", bt, 3 * (size_t)NR_IOS / 4);
		check_hook("blktrace", bt, 1);
		check_hook("blktrace", bt, -1);
		check_bt_damage();
	}
	free(ref);
	return done_testing();
}
