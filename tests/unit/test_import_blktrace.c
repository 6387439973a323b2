// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blktrace import: per-CPU files written here (both byte orders, two CPUs interleaved, two
 * devices, notify records, pass-through records and unknown actions to skip), read back through
 * ss_trace_open() named by prefix, by one file and by directory; truncated files, bad magic,
 * bad version, corrupt records; all of it once with one thread and once with the threads of
 * SEEKSCOPE_READAHEAD=always.  Runs unprivileged in a mkdtemp() directory.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>

#include "tap.h"
#include "testdir.h"
#include "../tools/bt_write.h"
#include "seekscope/model.h"
#include "tasks.h"
#include "trace_read.h"
#include "import_merge.h"

#define NR_IOS   60
#define DEV_A    ((8u << 20) | 0u)      /* sda, kernel dev_t */
#define DEV_B    ((8u << 20) | 16u)     /* sdb */
#define MAX_EV   (NR_IOS * 4 + 8)

/* What the importer must deliver, in order. */
static struct ss_event want[MAX_EV];
static size_t nr_want;

static void expect(const struct btw_rec *r, uint16_t type, uint16_t flags)
{
	struct ss_event *e = &want[nr_want++];

	memset(e, 0, sizeof(*e));
	e->ts_ns = r->time;
	e->sector = r->sector;
	e->nr_sector = r->bytes / 512;
	e->bytes = r->bytes;
	e->dev = r->device;
	e->type = type;
	e->flags = flags;
	e->cpu = (uint16_t)r->cpu;
	e->pid = r->pid;
	if ((flags & SS_RW_FLUSH) && !r->bytes)
		e->sector = SS_SECTOR_NONE;
}

/*
 * Write DIR/NAME.blktrace.{0,1,2}: NR_IOS I/Os alternating between two devices, each queued on
 * one CPU, issued on the other and completed on the first; CPU 2 saw nothing (empty file).
 * Every few I/Os a skipped record (notify, plug, merge, pass-through) is mixed in.
 */
static int write_set(const char *name, bool swap)
{
	FILE *f[3];
	int ret = 0;

	nr_want = 0;
	for (int c = 0; c < 3; c++)
		if (!(f[c] = fopen(tpath("%s.blktrace.%d", name, c), "w")))
			return -1;
	{
		static const char comm[16] = "tar";
		struct btw_rec r = { .time = 500, .action = BTW_TN_PROCESS, .pid = 77,
				     .device = DEV_A, .pdu_len = sizeof(comm) };
		uint64_t wall[2] = { 1700000000, 0 };

		ret |= btw_put(f[0], &r, swap, comm);
		r.action = BTW_TN_TIMESTAMP;
		r.pdu_len = sizeof(wall);
		ret |= btw_put(f[1], &r, swap, wall);
		{
			/* a process note of a kernel with cgroups: an 8-byte id before the comm */
			char pdu[8 + 16] = { 1, 2, 3, 4, 5, 6, 7, 8 };
			struct btw_rec c = { .time = 600, .action = BTW_TN_PROCESS | (1u << 8),
					     .pid = 78, .device = DEV_A, .pdu_len = sizeof(pdu) };

			memcpy(pdu + 8, "kworker/0:1", 11);
			ret |= btw_put(f[1], &c, swap, pdu);
		}
	}
	for (unsigned i = 0; i < NR_IOS; i++) {
		uint64_t t0 = 1000000 + i * 10000ull;
		unsigned qc = i % 2, dc = (i + 1) % 2;
		uint32_t dev = i % 2 ? DEV_B : DEV_A, cat, bytes = 4096 * (1 + i % 4);
		uint16_t flags;
		uint64_t sector = 2048 + i * 64;
		struct btw_rec r = { .sector = sector, .bytes = bytes, .device = dev, .pid = 100 + i };

		switch (i % 6) {
		case 0: cat = BTW_WRITE | BTW_SYNC; flags = SS_RW_WRITE | SS_RW_SYNC; break;
		case 1: cat = BTW_READ | BTW_AHEAD; flags = SS_RW_READ | SS_RW_AHEAD; break;
		case 2: cat = BTW_READ | BTW_FLUSH; flags = SS_RW_FLUSH | SS_RW_PREFLUSH;
			bytes = 0; sector = 0; break;
		case 3: cat = BTW_WRITE | BTW_FUA | BTW_FLUSH | BTW_META;
			flags = SS_RW_WRITE | SS_RW_FUA | SS_RW_PREFLUSH | SS_RW_META; break;
		case 4: cat = BTW_WRITE | BTW_DISCARD; flags = SS_RW_DISCARD; break;
		default: cat = BTW_READ | BTW_META; flags = SS_RW_READ | SS_RW_META; break;
		}
		r.bytes = bytes;
		r.sector = sector;
		r.time = t0;
		r.cpu = qc;
		r.action = BTW_TA_Q | cat;
		ret |= btw_put(f[qc], &r, swap, NULL);
		expect(&r, SS_EV_QUEUE, flags);
		if (i % 5 == 0) {           /* skipped: get request, plug, back merge */
			r.time = t0 + 10;
			r.action = BTW_TA_G | cat;
			ret |= btw_put(f[qc], &r, swap, NULL);
			r.action = BTW_TA_P;
			ret |= btw_put(f[qc], &r, swap, NULL);
			r.action = BTW_TA_M | cat;
			ret |= btw_put(f[qc], &r, swap, NULL);
		}
		if (i % 7 == 0) {           /* skipped: a message and a pass-through issue */
			static const char msg[] = "hello from the test";
			struct btw_rec m = { .time = t0 + 20, .action = BTW_TN_MESSAGE, .cpu = qc,
					     .device = dev, .pdu_len = sizeof(msg) };

			ret |= btw_put(f[qc], &m, swap, msg);
			m.action = BTW_TA_D | BTW_PC | BTW_READ;
			m.pdu_len = 0;
			ret |= btw_put(f[qc], &m, swap, NULL);
		}
		if (i == 9) {               /* a requeue and re-issue before the real issue */
			r.time = t0 + 100;
			r.cpu = dc;
			r.action = BTW_TA_D | cat;
			ret |= btw_put(f[dc], &r, swap, NULL);
			expect(&r, SS_EV_ISSUE, flags);
			r.time = t0 + 150;
			r.action = BTW_TA_R | cat;
			ret |= btw_put(f[dc], &r, swap, NULL);
			expect(&r, SS_EV_REQUEUE, flags);
		}
		r.time = t0 + 300;
		r.cpu = dc;
		r.action = BTW_TA_I | cat;
		ret |= btw_put(f[dc], &r, swap, NULL);
		expect(&r, SS_EV_INSERT, flags);
		r.action = BTW_TA_D | cat;
		ret |= btw_put(f[dc], &r, swap, NULL);   /* same time as the insert: tie */
		expect(&r, SS_EV_ISSUE, flags);
		r.time = t0 + 4000 + i;
		r.cpu = qc;
		r.action = BTW_TA_C | cat;
		r.error = i == 11 ? (uint16_t)-5 : 0;     /* -EIO, as the kernel stores it */
		ret |= btw_put(f[qc], &r, swap, NULL);
		expect(&r, SS_EV_COMPLETE, flags);
		want[nr_want - 1].error = i == 11 ? -5 : 0;
	}
	for (int c = 0; c < 3; c++)
		ret |= fclose(f[c]);
	return ret;
}

/* Read every event of T into OUT (at most MAX); returns the count, -1 on error/disorder. */
static long read_all(struct ss_trace *t, struct ss_event *out, size_t max)
{
	const struct ss_event *ev;
	uint64_t last = 0;
	size_t n, total = 0;
	int ret;

	while ((ret = ss_trace_next_batch(t, &ev, &n)) > 0)
		for (size_t i = 0; i < n; i++) {
			if (ev[i].ts_ns < last)
				return -1;
			last = ev[i].ts_ns;
			if (total < max)
				out[total] = ev[i];
			total++;
		}
	return ret < 0 ? -1 : (long)total;
}

/* Same events as want[], in order, except that ties may come in either order. */
static bool same_as_wanted(const struct ss_event *got, size_t n)
{
	if (n != nr_want)
		return false;
	for (size_t i = 0; i < n; i++) {
		bool found = false;

		/* look among the wanted events with the same timestamp */
		for (size_t j = i; j-- > 0 && want[j].ts_ns == got[i].ts_ns;)
			found |= !memcmp(&want[j], &got[i], sizeof(got[i]));
		for (size_t j = i; j < n && want[j].ts_ns == got[i].ts_ns; j++)
			found |= !memcmp(&want[j], &got[i], sizeof(got[i]));
		if (!found) {
			printf("#   event %zu differs: type %u ts %llu sector %llu flags %#x err %d\n",
			       i, got[i].type, (unsigned long long)got[i].ts_ns,
			       (unsigned long long)got[i].sector, got[i].flags, got[i].error);
			return false;
		}
	}
	return true;
}

/* The extents the metadata pass found: per device, from the wanted issues with data. */
static void check_extents(const struct ss_trace *t, const char *how)
{
	size_t found = 0;

	ok(t->has_extents, "%s: the metadata pass gives where the data went", how);
	for (size_t x = 0; x < t->nr_extents; x++) {
		const struct ss_extent *e = &t->extents[x];
		uint64_t lo = UINT64_MAX, hi = 0;

		for (size_t i = 0; i < nr_want; i++)
			if (want[i].dev == e->dev && want[i].type == SS_EV_ISSUE &&
			    ss_event_has_data(&want[i])) {
				lo = want[i].sector < lo ? want[i].sector : lo;
				hi = want[i].sector + want[i].nr_sector > hi ?
				     want[i].sector + want[i].nr_sector : hi;
			}
		found += lo == e->lo && hi == e->hi;
	}
	is_int(found, t->nr_extents, "%s: each device's extent spans its data issues", how);
	is_int(t->nr_extents, 2, "%s: an extent per device", how);
}

static void check_set(const char *path, const char *how)
{
	static struct ss_event got[MAX_EV + 8];
	char err[256];
	struct ss_trace *t = ss_trace_open(path, err, sizeof(err));
	long n;

	if (!ok(t != NULL, "%s: opens (%s)", how, t ? "ok" : err))
		return;
	is_str(t->format, "blktrace", "%s: format is blktrace", how);
	is_str(ss_trace_meta(t, "source"), "blktrace", "%s: meta source", how);
	is_str(ss_trace_meta(t, "blktrace.files"), "2", "%s: two non-empty CPU files", how);
	ok(!t->truncated, "%s: not truncated", how);
	is_int(t->nr_events, nr_want, "%s: event count from the metadata pass", how);
	is_int(t->first_ts, want[0].ts_ns, "%s: first timestamp", how);
	is_int(t->last_ts, want[nr_want - 1].ts_ns, "%s: last timestamp", how);
	if (is_int(t->nr_devices, 2, "%s: two devices kept apart", how)) {
		is_int(t->devices[0].dev, SS_MKDEV(8, 0), "%s: device 8:0", how);
		is_int(t->devices[1].dev, SS_MKDEV(8, 16), "%s: device 8:16", how);
		is_int(t->devices[1].nr_sectors, 0, "%s: size unknown", how);
		is_str(t->devices[1].name, "8:16", "%s: named by number", how);
	}
	{
		char name[64];

		ok(ss_trace_task_name(t, 77, 1000000, name, sizeof(name)) && !strcmp(name, "tar"),
		   "%s: the process note names pid 77 tar (%s)", how, name);
		ok(ss_trace_task_name(t, 78, 1000000, name, sizeof(name)) &&
		   !strcmp(name, "kworker/0:1"), "%s: a note with a cgroup id names pid 78 (%s)",
		   how, name);
		ok(!ss_trace_task_name(t, 100, 1000000, name, sizeof(name)),
		   "%s: a pid without a note is unknown", how);
	}
	check_extents(t, how);
	n = read_all(t, got, MAX_EV + 8);
	ok(n >= 0 && same_as_wanted(got, (size_t)n),
	   "%s: Q/I/D/C/R events in time order, flags/errors/cpus mapped, others skipped (%ld)",
	   how, n);
	ss_trace_rewind(t);
	is_int(read_all(t, got, MAX_EV + 8), nr_want, "%s: rewind streams them again", how);
	ss_trace_close(t);
}

/* The same metadata: devices, extents in their order, events and times, truncation and its
 * warning, meta, task names. */
static bool same_meta(const struct ss_trace *a, const struct ss_trace *b)
{
	char n1[64], n2[64];
	bool same = a->nr_devices == b->nr_devices && a->nr_extents == b->nr_extents &&
		    a->nr_events == b->nr_events && a->first_ts == b->first_ts &&
		    a->last_ts == b->last_ts && a->truncated == b->truncated &&
		    a->has_extents == b->has_extents && a->nr_meta == b->nr_meta &&
		    !strcmp(a->warning, b->warning) &&
		    ss_tasks_count(a->tasks) == ss_tasks_count(b->tasks);

	for (size_t i = 0; same && i < a->nr_meta; i++)
		same = !strcmp(a->meta[i].key, b->meta[i].key) &&
		       !strcmp(a->meta[i].value, b->meta[i].value);
	for (size_t i = 0; same && i < a->nr_devices; i++)
		same = !memcmp(&a->devices[i], &b->devices[i], sizeof(a->devices[i]));
	for (size_t i = 0; same && i < a->nr_extents; i++)
		same = !memcmp(&a->extents[i], &b->extents[i], sizeof(a->extents[i]));
	for (size_t i = 0; same && i < ss_tasks_count(a->tasks); i++)
		same = !memcmp(ss_tasks_entry(a->tasks, i), ss_tasks_entry(b->tasks, i),
			       sizeof(struct ss_rec_task));
	for (uint32_t pid = 76; same && pid < 80; pid++) {
		bool k1 = ss_trace_task_name(a, pid, 10000, n1, sizeof(n1));
		bool k2 = ss_trace_task_name(b, pid, 10000, n2, sizeof(n2));

		same = k1 == k2 && !strcmp(n1, n2);
	}
	return same;
}

/* T's stream from its start: its events' count into *N and a hash of their bytes; -1 when
 * the stream fails. */
static int64_t stream_hash(struct ss_trace *t, uint64_t *n)
{
	const struct ss_event *ev;
	uint64_t h = 1469598103934665603ull;
	size_t k;
	int ret;

	*n = 0;
	ss_trace_rewind(t);
	while ((ret = ss_trace_next_batch(t, &ev, &k)) > 0) {
		const unsigned char *p = (const unsigned char *)ev;

		for (size_t i = 0; i < k * sizeof(*ev); i++)
			h = (h ^ p[i]) * 1099511628211ull;
		*n += k;
	}
	return ret < 0 ? -1 : (int64_t)(h >> 1);
}

/*
 * PATH opened lazily (ss_trace_open_lazy) with the read-ahead RA: the metadata pending until
 * its first stream has ended, then NORMAL's field for field (task table included), the
 * events NORMAL streams; a file NORMAL refused fails too, on opening or in the stream.
 */
static void same_lazily(const char *path, struct ss_trace *normal, const char *ra,
			const char *how)
{
	const char *was = getenv("SEEKSCOPE_READAHEAD");
	char keep[16], err[256] = "";
	bool had = was != NULL, pending;
	uint64_t n1 = 0, n2 = 0;
	int64_t h1 = 0, h2;
	struct ss_trace *t;

	snprintf(keep, sizeof(keep), "%s", was ? was : "");
	setenv("SEEKSCOPE_READAHEAD", ra, 1);
	t = ss_trace_open_lazy(path, err, sizeof(err));
	pending = t && ss_trace_meta_pending(t);
	h2 = t ? stream_hash(t, &n2) : -1;
	if (normal)
		h1 = stream_hash(normal, &n1);
	if (had)
		setenv("SEEKSCOPE_READAHEAD", keep, 1);
	else
		unsetenv("SEEKSCOPE_READAHEAD");
	if (!normal) {
		ok(!t || h2 < 0, "%s, lazily (read-ahead %s): refused too: %s", how, ra,
		   t ? ss_trace_error(t) : err);
	} else {
		ok(t && pending && h2 >= 0 && !ss_trace_meta_pending(t) && same_meta(normal, t) &&
		   n1 == n2 && h1 == h2,
		   "%s, lazily (read-ahead %s): pending until the stream ends, then the same "
		   "metadata and the same %llu events", how, ra, (unsigned long long)n2);
	}
	ss_trace_close(t);
}

/*
 * PATH opened with one thread and with the threads (SEEKSCOPE_READAHEAD): the same metadata —
 * devices, extents in their order, events and times, truncation and its warning, task names;
 * and the same opened lazily, with and without the read-ahead.
 */
static void same_both_ways(const char *path, const char *how)
{
	const char *was = getenv("SEEKSCOPE_READAHEAD");
	char keep[16], err1[256], err2[256];
	bool had = was != NULL;
	struct ss_trace *a, *b;
	bool same;

	snprintf(keep, sizeof(keep), "%s", was ? was : "");
	setenv("SEEKSCOPE_READAHEAD", "never", 1);
	a = ss_trace_open(path, err1, sizeof(err1));
	setenv("SEEKSCOPE_READAHEAD", "always", 1);
	b = ss_trace_open(path, err2, sizeof(err2));
	if (had)
		setenv("SEEKSCOPE_READAHEAD", keep, 1);
	else
		unsetenv("SEEKSCOPE_READAHEAD");
	if (!a || !b) {
		ok(!a && !b && !strcmp(err1, err2), "%s: both ways the same refusal: %s", how, err2);
		same_lazily(path, NULL, "never", how);
		same_lazily(path, NULL, "always", how);
		ss_trace_close(a);
		ss_trace_close(b);
		return;
	}
	same = same_meta(a, b);
	ok(same, "%s: the same metadata with the files scanned in two threads", how);
	same_lazily(path, a, "never", how);
	same_lazily(path, a, "always", how);
	ss_trace_close(a);
	ss_trace_close(b);
}

/*
 * More process notes in a file than a deferred scan keeps (SS_MERGE_DEFERRED_NOTES): the file
 * is scanned again straight into the trace; every name is there either way.
 */
static void test_many_notes(void)
{
	const uint32_t nr = SS_MERGE_DEFERRED_NOTES + 100;
	FILE *f[2] = { fopen(tpath("notes.blktrace.0"), "w"), fopen(tpath("notes.blktrace.1"), "w") };
	char name[64], want_name[32];
	struct ss_trace *t;
	int ret = 0;

	if (!f[0] || !f[1]) {
		ok(0, "many notes: files");
		return;
	}
	for (uint32_t i = 0; i < nr; i++) {
		char comm[16] = { 0 };
		struct btw_rec r = { .time = 100 + i, .action = BTW_TN_PROCESS, .pid = 1000 + i,
				     .device = DEV_A, .pdu_len = sizeof(comm) };

		snprintf(comm, sizeof(comm), "p%u", i);
		ret |= btw_put(f[0], &r, false, comm);
	}
	for (int c = 0; c < 2; c++) {
		struct btw_rec r = { .time = 1000000 + (uint64_t)c, .action = BTW_TA_D | BTW_WRITE,
				     .pid = 1000 + nr - 1, .device = DEV_A, .sector = 8,
				     .bytes = 4096, .cpu = (uint32_t)c };

		ret |= btw_put(f[c], &r, false, "");
		ret |= fclose(f[c]);
	}
	ok(!ret, "a set whose first file holds %u process notes", nr);
	for (int round = 0; round < 2; round++) {
		setenv("SEEKSCOPE_READAHEAD", round ? "always" : "never", 1);
		t = ss_trace_open(tpath("notes"), name, sizeof(name));
		snprintf(want_name, sizeof(want_name), "p%u", nr - 1);
		ok(t && ss_trace_task_name(t, 1000 + nr - 1, 2000000, name, sizeof(name)) &&
		   !strcmp(name, want_name) && t->nr_events == 2,
		   "%s: the last note names its pid (%s), the 2 events counted",
		   round ? "two threads" : "one thread", t ? name : "no trace");
		ss_trace_close(t);
	}
	unsetenv("SEEKSCOPE_READAHEAD");
	same_both_ways(tpath("notes"), "many notes");
}

static void test_sets(void)
{
	char sub[300];

	ok(write_set("host", false) == 0, "host-order set written (%zu events expected)", nr_want);
	check_set(tpath("host"), "prefix");
	same_both_ways(tpath("host"), "prefix");
	check_set(tpath("host.blktrace.1"), "one file of the set");
	ok(write_set("swapped", true) == 0, "byte-swapped set written");
	check_set(tpath("swapped"), "other byte order");
	same_both_ways(tpath("swapped"), "other byte order");
	/* a directory holding one set */
	snprintf(sub, sizeof(sub), "%s", tpath("d"));
	mkdir(sub, 0700);
	ok(write_set("d/sda", false) == 0, "set written into a directory");
	check_set(sub, "directory");
}

static void copy_cut(const char *from, const char *to, off_t cut)
{
	char buf[65536];
	int in = open(from, O_RDONLY), out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ssize_t n = read(in, buf, sizeof(buf));

	if (n > 0 && write(out, buf, cut < n ? (size_t)cut : (size_t)n) < 0)
		perror("write");
	close(in);
	close(out);
}

static void test_truncated(void)
{
	static struct ss_event got[MAX_EV + 8];
	char err[256];
	struct ss_trace *t;
	struct stat st;
	long n;

	write_set("cut", false);
	stat(tpath("cut.blktrace.0"), &st);
	/* cut CPU 0's file in the middle of its last record (a completion) */
	copy_cut(tpath("cut.blktrace.0"), tpath("cutx.blktrace.0"), st.st_size - 20);
	rename(tpath("cut.blktrace.1"), tpath("cutx.blktrace.1"));
	unlink(tpath("cut.blktrace.0"));
	unlink(tpath("cut.blktrace.2"));
	t = ss_trace_open(tpath("cutx"), err, sizeof(err));
	if (!ok(t != NULL, "truncated set opens (%s)", t ? "ok" : err))
		return;
	ok(t->truncated, "flagged as truncated");
	ok(strstr(t->warning, "partial record") && strstr(t->warning, "cutx.blktrace.0"),
	   "warning names the file: %s", t->warning);
	is_int(t->nr_events, nr_want - 1, "every complete record kept");
	n = read_all(t, got, MAX_EV + 8);
	is_int(n, nr_want - 1, "streaming delivers the complete records");
	ss_trace_close(t);
	same_both_ways(tpath("cutx"), "truncated set");

	/* a payload cut short counts as a partial record too */
	{
		FILE *f = fopen(tpath("pdu.blktrace.0"), "w");
		struct btw_rec r = { .time = 5, .action = BTW_TA_Q | BTW_WRITE, .bytes = 4096,
				     .sector = 8 };
		static const char msg[64] = "a message";

		btw_put(f, &r, false, NULL);
		r.action = BTW_TN_MESSAGE;
		r.pdu_len = sizeof(msg);
		btw_put(f, &r, false, msg);
		fclose(f);
		stat(tpath("pdu.blktrace.0"), &st);
		if (truncate(tpath("pdu.blktrace.0"), st.st_size - 10))
			perror("truncate");
	}
	t = ss_trace_open(tpath("pdu.blktrace.0"), err, sizeof(err));
	ok(t && t->truncated && t->nr_events == 1, "payload cut short: truncated, 1 event kept");
	ss_trace_close(t);
}

static void write_raw(const char *path, const void *p, size_t len)
{
	FILE *f = fopen(path, "w");

	fwrite(p, len, 1, f);
	fclose(f);
}

/* PATH: GOOD queue records, then one with a broken magic (at offset GOOD * 48). */
static void write_corrupt(const char *path, int good)
{
	FILE *f = fopen(path, "w");
	struct btw_rec r = { .action = BTW_TA_Q | BTW_READ, .bytes = 512 };

	if (!f)
		return;
	for (int i = 0; i < good; i++) {
		r.time = 1 + (uint64_t)i;
		btw_put(f, &r, false, NULL);
	}
	r.magic = 0x12345607;
	btw_put(f, &r, false, NULL);
	fclose(f);
}

static void test_bad(void)
{
	char err[256];
	struct ss_trace *t;

	write_raw(tpath("junk"), "hello, this is not a trace at all\n", 34);
	t = ss_trace_open(tpath("junk"), err, sizeof(err));
	ok(!t && strstr(err, "not a seekscope, blktrace or trace-cmd file"),
	   "bad magic rejected: %s", err);

	/* right magic, unknown version */
	{
		FILE *f = fopen(tpath("v6.blktrace.0"), "w");
		struct btw_rec r = { .magic = BTW_MAGIC | 0x06, .action = BTW_TA_Q };

		btw_put(f, &r, false, NULL);
		fclose(f);
	}
	t = ss_trace_open(tpath("v6"), err, sizeof(err));
	ok(!t && strstr(err, "unsupported blktrace version 0x6"), "version 6 rejected: %s", err);

	/* one CPU file of a set is junk */
	write_set("mixed", false);
	write_raw(tpath("mixed.blktrace.1"), "garbage garbage garbage garbage garbage garbage"
		  "garbage garbage", 60);
	t = ss_trace_open(tpath("mixed"), err, sizeof(err));
	ok(!t && strstr(err, "mixed.blktrace.1: not a blktrace file (bad magic)"),
	   "junk CPU file rejected: %s", err);
	/* two bad files: the first in the set's order is named, however they were scanned */
	write_set("two-bad", false);
	write_raw(tpath("two-bad.blktrace.1"), "garbage garbage garbage garbage garbage garbage"
		  "garbage garbage", 60);
	write_corrupt(tpath("two-bad.blktrace.2"), 1);
	t = ss_trace_open(tpath("two-bad"), err, sizeof(err));
	ok(!t && strstr(err, "two-bad.blktrace.1: not a blktrace file (bad magic)"),
	   "two bad CPU files: the first named: %s", err);
	same_both_ways(tpath("two-bad"), "two bad CPU files");
	/* the first file fails late (a bad record after 30,000 good ones), the second at once:
	 * still the first is named */
	write_corrupt(tpath("late.blktrace.0"), 30000);
	write_raw(tpath("late.blktrace.1"), "garbage garbage garbage garbage garbage garbage"
		  "garbage garbage", 60);
	t = ss_trace_open(tpath("late"), err, sizeof(err));
	ok(!t && strstr(err, "late.blktrace.0: corrupt blktrace record at offset 1440000"),
	   "the first file fails late, the second at once: the first named: %s", err);
	same_both_ways(tpath("late"), "the first file fails late");

	/* a record in the middle with a broken magic */
	write_corrupt(tpath("mid.blktrace.0"), 1);
	t = ss_trace_open(tpath("mid"), err, sizeof(err));
	ok(!t && strstr(err, "corrupt blktrace record at offset 48"), "corrupt record: %s", err);

	t = ss_trace_open(tpath("nothing-here"), err, sizeof(err));
	ok(!t && errno == ENOENT, "prefix without files: %s", err);
	mkdir(tpath("empty-dir"), 0700);
	t = ss_trace_open(tpath("empty-dir"), err, sizeof(err));
	ok(!t && strstr(err, "directory without blktrace files"), "empty directory: %s", err);
	write_raw(tpath("zero"), "", 0);
	t = ss_trace_open(tpath("zero"), err, sizeof(err));
	ok(!t && strstr(err, "empty file"), "empty file: %s", err);
}

/* A file that changes between the metadata pass and streaming: an error, not another trace. */
static void test_changed(void)
{
	struct btw_rec r = { .time = 1, .action = BTW_TA_Q | BTW_READ, .bytes = 512 };
	const struct ss_event *ev;
	char err[256];
	struct ss_trace *t;
	FILE *f;
	size_t n;
	int ret;

	f = fopen(tpath("chg.blktrace.0"), "w");
	btw_put(f, &r, false, NULL);
	r.time = 2;
	btw_put(f, &r, false, NULL);
	fclose(f);
	t = ss_trace_open(tpath("chg"), err, sizeof(err));
	if (!ok(t && t->nr_events == 2, "two events counted (%s)", t ? "ok" : err))
		return;
	/* the second record becomes a message (same size): streaming finds one event */
	f = fopen(tpath("chg.blktrace.0"), "r+");
	fseek(f, 48, SEEK_SET);
	r.action = BTW_TN_MESSAGE;
	btw_put(f, &r, false, NULL);
	fclose(f);
	is_int(ss_trace_rewind(t), 0, "rewind");
	ret = ss_trace_next_batch(t, &ev, &n);
	ok(ret == 1 && n == 1, "the event still there streams");
	ret = ss_trace_next_batch(t, &ev, &n);
	is_int(ret, -EIO, "then -EIO");
	is_str(ss_trace_error(t), "damaged blktrace file: 1 events on the second read, 2 on the "
	       "first", "the message counts both reads");
	ss_trace_close(t);
}

/* Every device is listed, 0:0 too: a second CPU's file whose events are all on 0:0 after the
 * first file's were on sda (a per-file scan once took 0:0 for "no device yet" and missed it). */
static void test_dev_zero(void)
{
	struct btw_rec r = { .time = 1, .action = BTW_TA_Q | BTW_READ, .bytes = 512,
			     .device = DEV_A };
	char err[256];
	struct ss_trace *t;
	bool a = false, zero = false;
	FILE *f;

	f = fopen(tpath("dz.blktrace.0"), "w");
	btw_put(f, &r, false, NULL);
	fclose(f);
	f = fopen(tpath("dz.blktrace.1"), "w");
	r.time = 2;
	r.device = 0;
	r.cpu = 1;
	btw_put(f, &r, false, NULL);
	fclose(f);
	t = ss_trace_open(tpath("dz"), err, sizeof(err));
	if (!ok(t != NULL, "two files, sda then 0:0, open (%s)", t ? "ok" : err))
		return;
	for (size_t i = 0; i < t->nr_devices; i++) {
		a |= t->devices[i].dev == DEV_A;
		zero |= t->devices[i].dev == 0;
	}
	ok(t->nr_devices == 2 && a && zero, "both devices listed (%zu)", t->nr_devices);
	ss_trace_close(t);
}

/*
 * A file cut after open (the metadata pass), before streaming and between two passes: a read
 * error that says so, after no more than the records left.  The file spans many read windows.
 */
static void test_shrunk(void)
{
	const size_t nr = 3 * 65536;                    /* 9 MiB of records */
	const struct ss_event *ev;
	char err[256];
	struct ss_trace *t;
	FILE *f = fopen(tpath("big.blktrace.0"), "w");
	size_t n;
	long total;
	int ret = f ? 0 : -1;

	for (size_t i = 0; i < nr && !ret; i++) {
		struct btw_rec r = { .time = 1000 + i, .action = BTW_TA_Q | BTW_WRITE,
				     .bytes = 4096, .sector = 8 * i, .device = DEV_A };

		ret = btw_put(f, &r, false, NULL);
	}
	if (f && fclose(f))
		ret = -1;
	if (!ok(!ret, "wrote %zu records", nr))
		return;
	t = ss_trace_open(tpath("big"), err, sizeof(err));
	if (!ok(t != NULL, "opens (%s)", t ? "ok" : err))
		return;
	is_int(t->nr_events, nr, "every record counted");
	ok(truncate(tpath("big.blktrace.0"), (off_t)(nr / 2 * 48 + 20)) == 0, "cut in half");
	for (total = 0; (ret = ss_trace_next_batch(t, &ev, &n)) > 0;)
		total += (long)n;
	is_int(ret, -EIO, "streaming fails with -EIO");
	ok(strstr(ss_trace_error(t), "big.blktrace.0: file shrank while reading") != NULL,
	   "and says the file shrank: %s", ss_trace_error(t));
	ok(total <= (long)nr / 2, "after no more than the records left (%ld)", total);
	ss_trace_close(t);

	/* cut between two passes: the first one read everything (its windows are mapped) */
	t = ss_trace_open(tpath("big"), err, sizeof(err));
	if (!ok(t != NULL, "opens again (%s)", t ? "ok" : err))
		return;
	for (total = 0; (ret = ss_trace_next_batch(t, &ev, &n)) > 0;)
		total += (long)n;
	ok(ret == 0 && total == (long)(nr / 2), "first pass: %ld events", total);
	ok(truncate(tpath("big.blktrace.0"), 48 * 1000) == 0, "cut to 1000 records");
	is_int(ss_trace_rewind(t), 0, "rewind");
	for (total = 0; (ret = ss_trace_next_batch(t, &ev, &n)) > 0;)
		total += (long)n;
	is_int(ret, -EIO, "second pass fails with -EIO after %ld events", total);
	ss_trace_close(t);
	unlink(tpath("big.blktrace.0"));
}

int main(void)
{
	if (testdir_make("blktrace"))
		return done_testing();
	/* each file read as it comes, then (SEEKSCOPE_READAHEAD=always) the files of a set
	 * scanned in two threads at open and the events decoded in a thread of their own: the
	 * same results */
	for (int round = 0; round < 2; round++) {
		printf("# %s\n", round ? "threads: SEEKSCOPE_READAHEAD=always" : "one thread");
		setenv("SEEKSCOPE_READAHEAD", round ? "always" : "never", 1);
		test_sets();
		test_truncated();
		test_bad();
		test_changed();
		test_dev_zero();
		test_shrunk();
	}
	test_many_notes();
	unsetenv("SEEKSCOPE_READAHEAD");
	return done_testing();
}
