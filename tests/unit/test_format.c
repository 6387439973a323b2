// SPDX-License-Identifier: GPL-2.0-or-later
/* Trace format: writer/reader round trip, truncation, corruption and hostile headers. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>

#include "tap.h"
#include "testdir.h"
#include "seekscope/codec.h"
#include "seekscope/model.h"
#include "trace_write.h"
#include "trace_read.h"

static void make_events(struct ss_event *ev, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		memset(&ev[i], 0, sizeof(ev[i]));
		ev[i].ts_ns = 1000000000ull + i * 1000;
		ev[i].sector = 2048 + i * 8;
		ev[i].nr_sector = 8;
		ev[i].bytes = 4096;
		ev[i].dev = SS_MKDEV(7, 3);
		ev[i].type = (i & 1) ? SS_EV_COMPLETE : SS_EV_ISSUE;
		ev[i].flags = SS_RW_WRITE | ((i % 7) ? 0 : SS_RW_META);
		ev[i].cpu = (uint16_t)(i % 2);
		ev[i].pid = 42;
	}
}

/* Write a complete trace with N events and return the file size. */
static off_t write_trace(const char *path, size_t n, int close_cleanly)
{
	struct ss_writer *w = ss_writer_open(path, SS_OUT_INPLACE, NULL, 0);
	struct ss_rec_device d = { .dev = SS_MKDEV(7, 3), .major = 7, .minor = 3,
				   .logical_block_size = 512, .nr_sectors = 4194304,
				   .part_nr_sectors = 4194304 };
	struct ss_rec_zone z = { .dev = SS_MKDEV(7, 3), .kind = SS_ZONE_AG, .index = 1,
				 .start_sector = 1048576, .nr_sectors = 1048576 };
	struct ss_rec_cpu_stats st = { .cpu = 1, .events = n, .missed = 3, .overrun = 4 };
	struct ss_rec_capture cap = { .start_ns = 1, .end_ns = 2, .buffer_kb = 4096, .nr_cpus = 2 };
	struct ss_event *ev = calloc(n ? n : 1, sizeof(*ev));
	struct stat sb;

	strcpy(d.name, "loop3");
	strcpy(d.fstype, "xfs");
	strcpy(z.label, "AG1");
	strcpy(cap.clock, "mono");
	make_events(ev, n);
	ok(w != NULL, "writer opens %s", path);
	ss_writer_device(w, &d);
	ss_writer_zone(w, &z);
	ss_writer_meta(w, "cmdline", "tar xf linux.tar");
	ss_writer_meta(w, "hostname", "test");
	ss_writer_capture(w, &cap);
	ss_writer_phase(w, 1000000000ull, SS_PHASE_BEGIN, "extract");
	ss_writer_events(w, ev, n);
	ss_writer_phase(w, 2000000000ull, SS_PHASE_END, "extract");
	ss_writer_cpu_stats(w, &st);
	if (close_cleanly)
		is_int(ss_writer_close(w), 0, "writer closes cleanly");
	else
		ss_writer_abort(w);
	free(ev);
	stat(path, &sb);
	return sb.st_size;
}

static uint64_t count_events(struct ss_trace *t, int *status)
{
	const struct ss_event *ev;
	uint64_t total = 0;
	size_t n;
	int ret;

	while ((ret = ss_trace_next_batch(t, &ev, &n)) > 0)
		total += n;
	*status = ret;
	return total;
}

static void test_round_trip(void)
{
	const size_t n = SS_MAX_EVENTS_PER_RECORD + 1234;   /* forces two event records */
	const char *path = tpath("rt.sst");
	char err[256];
	struct ss_trace *t;
	const struct ss_event *ev;
	size_t got;
	int status;

	write_trace(path, n, 1);
	t = ss_trace_open(path, err, sizeof(err));
	if (!ok(t != NULL, "reader opens a clean trace (%s)", t ? "" : err))
		return;
	ok(!t->truncated, "clean trace is not truncated");
	is_int(t->nr_events, n, "event count from metadata pass");
	is_int(t->first_ts, 1000000000ull, "first timestamp");
	is_int(t->last_ts, 1000000000ull + (n - 1) * 1000, "last timestamp");
	is_int(t->nr_devices, 1, "one device");
	is_str(t->devices[0].name, "loop3", "device name");
	is_str(t->devices[0].fstype, "xfs", "device fstype");
	is_int(t->devices[0].nr_sectors, 4194304, "device size");
	is_int(t->nr_zones, 1, "one zone");
	is_str(t->zones[0].label, "AG1", "zone label");
	is_int(t->zones[0].start_sector, 1048576, "zone start");
	is_int(t->nr_phases, 2, "two phase markers");
	is_str(t->phases[0].name, "extract", "phase name");
	is_str(ss_trace_meta(t, "cmdline"), "tar xf linux.tar", "meta cmdline");
	ok(ss_trace_meta(t, "nothing") == NULL, "missing meta is NULL");
	ok(t->has_capture && !strcmp(t->capture.clock, "mono"), "capture record");
	is_int(ss_trace_lost_events(t), 7, "lost events from cpu stats");
	ok(ss_trace_zone_at(t, SS_MKDEV(7, 3), 1048576) != NULL, "zone lookup at start");
	ok(ss_trace_zone_at(t, SS_MKDEV(7, 3), 2097152) == NULL, "zone lookup past end");
	/* the backend's batches (a record each), not the read-ahead's slots */
	ss_trace_set_readahead(t, -1);
	is_int(ss_trace_next_batch(t, &ev, &got), 1, "first batch");
	is_int(got, SS_MAX_EVENTS_PER_RECORD, "first batch is a full record");
	ok(ev[7].sector == 2048 + 56 && ev[7].type == SS_EV_COMPLETE && ev[7].pid == 42 &&
	   ev[7].flags == (SS_RW_WRITE | SS_RW_META), "event fields survive");
	ss_trace_rewind(t);
	is_int(count_events(t, &status), n, "all events stream back");
	is_int(status, 0, "stream ends without error");
	ss_trace_close(t);
}

static void test_empty_and_aborted(void)
{
	const char *path = tpath("empty.sst");
	char err[256];
	struct ss_trace *t;
	int status;

	write_trace(path, 0, 1);
	t = ss_trace_open(path, err, sizeof(err));
	ok(t && t->nr_events == 0 && !t->truncated, "trace with no events opens");
	ss_trace_close(t);

	path = tpath("abort.sst");
	write_trace(path, 100, 0);
	t = ss_trace_open(path, err, sizeof(err));
	ok(t && t->truncated && t->nr_events == 100, "aborted trace opens as truncated, all events");
	ok(t && strstr(t->warning, "no end record"), "warning says why: %s", t ? t->warning : "");
	if (t)
		is_int(count_events(t, &status), 100, "aborted trace streams its events");
	ss_trace_close(t);
}

/* Cut a clean trace at every length: never a crash, always a clear result. */
static void test_truncation(void)
{
	const char *path = tpath("full.sst"), *cut = tpath("cut.sst");
	off_t size = write_trace(path, 300, 1);
	char *buf = malloc((size_t)size), err[256];
	int fd = open(path, O_RDONLY), bad = 0, opened = 0, status;
	uint64_t last_events = 0, monotonic = 1;

	if (read(fd, buf, (size_t)size) != size)
		bad++;
	close(fd);
	for (off_t len = 0; len < size; len++) {
		struct ss_trace *t;

		fd = open(cut, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (write(fd, buf, (size_t)len) != len)
			bad++;
		close(fd);
		t = ss_trace_open(cut, err, sizeof(err));
		if (!t) {
			if (!err[0])
				bad++;
			continue;
		}
		opened++;
		if (!t->truncated)
			bad++;
		if (count_events(t, &status) != t->nr_events || status != 0)
			bad++;
		if (t->nr_events < last_events)
			monotonic = 0;
		last_events = t->nr_events;
		ss_trace_close(t);
	}
	is_int(bad, 0, "every truncated prefix either opens as truncated or fails with a message");
	ok(opened > 0, "prefixes past the header open (%d)", opened);
	ok(monotonic, "a longer prefix never yields fewer events");
	is_int(last_events, 300, "the prefix missing only the end record keeps all events");
	free(buf);
}

static void corrupt_at(const char *src, const char *dst, off_t off, const void *bytes, size_t n)
{
	char cmd[600];
	int fd;

	snprintf(cmd, sizeof(cmd), "cp %s %s", src, dst);
	if (system(cmd) != 0)
		return;
	fd = open(dst, O_WRONLY);
	if (pwrite(fd, bytes, n, off) != (ssize_t)n)
		perror("pwrite");
	close(fd);
}

static void test_corruption(void)
{
	const char *path = tpath("good.sst"), *bad = tpath("bad.sst");
	char err[256];
	struct ss_trace *t;
	uint32_t huge = 0xffffffffu, v99 = 99;
	int status;

	write_trace(path, 500, 1);

	corrupt_at(path, bad, 0, "XXXX", 4);
	t = ss_trace_open(bad, err, sizeof(err));
	ok(!t && strstr(err, "bad magic"), "bad magic rejected: %s", err);

	corrupt_at(path, bad, 8, &v99, 4);
	t = ss_trace_open(bad, err, sizeof(err));
	ok(!t && strstr(err, "version 99"), "unknown version rejected: %s", err);

	/* first record's length field: a hostile size must be refused before any allocation */
	corrupt_at(path, bad, SS_FILE_HEADER_SIZE + 4, &huge, 4);
	t = ss_trace_open(bad, err, sizeof(err));
	ok(!t && strstr(err, "corrupt record"), "hostile record length rejected: %s", err);

	/* flip a byte inside the device record payload: CRC catches it */
	corrupt_at(path, bad, SS_FILE_HEADER_SIZE + SS_RECORD_HEADER_SIZE + 40, "\x55", 1);
	t = ss_trace_open(bad, err, sizeof(err));
	ok(!t && strstr(err, "checksum"), "corrupt payload rejected: %s", err);

	/* flip a byte in the event payload near the end: detected while streaming */
	{
		struct stat sb;

		stat(path, &sb);
		corrupt_at(path, bad, sb.st_size - 200, "\x55\x55", 2);
	}
	t = ss_trace_open(bad, err, sizeof(err));
	if (ok(t != NULL, "corrupt event payload still opens (metadata is fine)")) {
		count_events(t, &status);
		ok(status < 0 && strstr(ss_trace_error(t), "checksum"),
		   "streaming reports the corrupt event record: %s", ss_trace_error(t));
		ss_trace_close(t);
	}

	t = ss_trace_open(tpath("does-not-exist"), err, sizeof(err));
	ok(!t && errno == ENOENT, "missing file: %s", err);
	t = ss_trace_open(dir, err, sizeof(err));
	ok(!t && err[0], "directory rejected: %s", err);
}

/* Stream T checking every event against make_events(); the number of events that match, in
 * order, before the first that does not or the end (status: the last call's result). */
static size_t check_stream(struct ss_trace *t, int *status)
{
	const struct ss_event *ev;
	struct ss_event want;
	size_t i = 0, n;
	int ret;

	while ((ret = ss_trace_next_batch(t, &ev, &n)) > 0)
		for (size_t k = 0; k < n; k++, i++) {
			make_events(&want, 1);
			want.ts_ns += i * 1000;
			want.sector += i * 8;
			want.type = (i & 1) ? SS_EV_COMPLETE : SS_EV_ISSUE;
			want.flags = SS_RW_WRITE | ((i % 7) ? 0 : SS_RW_META);
			want.cpu = (uint16_t)(i % 2);
			if (memcmp(&ev[k], &want, sizeof(want))) {
				*status = ret;
				return i;
			}
		}
	*status = ret;
	return i;
}

/* Big records stream one after another: every record arrives intact and in order, also after
 * a rewind half-way, and a corrupt record is reported when its turn comes. */
static void test_big_records(void)
{
	const size_t n = 3 * SS_MAX_EVENTS_PER_RECORD + 10;
	const char *path = tpath("ahead.sst"), *bad = tpath("ahead-bad.sst");
	const struct ss_event *ev;
	char err[256];
	struct ss_trace *t;
	size_t got;
	int status;

	write_trace(path, n, 1);
	t = ss_trace_open(path, err, sizeof(err));
	if (!ok(t != NULL, "a trace of four event records opens (%s)", t ? "" : err))
		return;
	is_int(check_stream(t, &status), n, "every event of the four records, in order");
	is_int(status, 0, "... and the end");
	ss_trace_rewind(t);
	ss_trace_next_batch(t, &ev, &got);
	ss_trace_next_batch(t, &ev, &got);
	ss_trace_rewind(t);           /* half-way */
	is_int(check_stream(t, &status), n, "a rewind half-way: every event again");
	ss_trace_close(t);

	/* a byte of the third record's events (each record: a 16-byte header, then events) */
	{
		struct stat sb;

		stat(path, &sb);
		/* the last record holds 10 events: the third ends that far before the tail records */
		corrupt_at(path, bad, (off_t)sb.st_size / 4 * 3 - 4096, "\x55\x55", 2);
	}
	t = ss_trace_open(bad, err, sizeof(err));
	if (ok(t != NULL, "a corrupt event record opens (the metadata is fine)")) {
		size_t good = check_stream(t, &status);

		ok(status < 0 && strstr(ss_trace_error(t), "checksum") &&
		   good == 2 * SS_MAX_EVENTS_PER_RECORD,
		   "the events of two records, then the third's checksum (%zu events: %s)", good,
		   ss_trace_error(t));
		ss_trace_close(t);
	}
}

static void test_rwbs(void)
{
	char buf[16];
	static const struct { const char *s; uint16_t f; } cases[] = {
		{ "W", SS_RW_WRITE },
		{ "R", SS_RW_READ },
		{ "RA", SS_RW_READ | SS_RW_AHEAD },
		{ "WS", SS_RW_WRITE | SS_RW_SYNC },
		{ "WM", SS_RW_WRITE | SS_RW_META },
		{ "FWFS", SS_RW_PREFLUSH | SS_RW_WRITE | SS_RW_FUA | SS_RW_SYNC },
		{ "WFS", SS_RW_WRITE | SS_RW_FUA | SS_RW_SYNC },
		{ "FWS", SS_RW_PREFLUSH | SS_RW_WRITE | SS_RW_SYNC },
		{ "F", SS_RW_FLUSH },
		{ "FF", SS_RW_PREFLUSH | SS_RW_FLUSH },
		{ "FFS", SS_RW_PREFLUSH | SS_RW_FLUSH | SS_RW_SYNC },
		{ "D", SS_RW_DISCARD },
		{ "DE", SS_RW_DISCARD | SS_RW_SECURE },
		{ "N", SS_RW_NONE },
		{ "RSM", SS_RW_READ | SS_RW_SYNC | SS_RW_META },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		is_int(ss_rwbs_parse(cases[i].s, 10), cases[i].f, "rwbs %s parses", cases[i].s);
		is_str(ss_rwbs_format(cases[i].f, buf, sizeof(buf)), cases[i].s,
		       "rwbs %s formats back", cases[i].s);
	}
	is_int(ss_rwbs_parse("", 10), 0, "empty rwbs");
	is_int(ss_rwbs_parse("WSxyz", 2), SS_RW_WRITE | SS_RW_SYNC, "length bound respected");
	{
		struct ss_event flush = { .sector = SS_SECTOR_NONE, .flags = SS_RW_FLUSH };
		struct ss_event fua0 = { .sector = 0, .nr_sector = 0,
					 .flags = SS_RW_PREFLUSH | SS_RW_FLUSH };
		struct ss_event w = { .sector = 0, .nr_sector = 8, .flags = SS_RW_WRITE };

		ok(!ss_event_has_data(&flush), "flush completion carries no data");
		ok(!ss_event_has_data(&fua0), "flush issue at sector 0 carries no data");
		ok(ss_event_has_data(&w), "write at sector 0 with length carries data");
	}
}

int main(void)
{
	if (testdir_make("format"))
		return done_testing();
	test_round_trip();
	test_big_records();
	test_empty_and_aborted();
	test_truncation();
	test_corruption();
	test_rwbs();
	return done_testing();
}
