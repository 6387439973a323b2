// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A report of a blktrace trace opened lazily (trace_read.h: ss_trace_open_lazy, the files read
 * once, the metadata found by the pass; stats_priv.h: deferred) is the report of the trace
 * opened the usual way, byte for byte, text and JSON: over per-CPU files of several processes
 * named by process notes, a second device that appears late, a note that comes after its
 * pid's first requests, a request out of time order, a file cut in a record, no events at all,
 * each with and without the read-ahead thread.  A pid named twice over its requests makes the
 * lazy pass ask to be run again (-EAGAIN), which then, the names known, gives the same report.
 */
#include <unistd.h>

#include "tap.h"
#include "testdir.h"
#include "../tools/bt_write.h"
#include "report_bytes.h"

#define DEV_A 0x00800010u       /* 8:16 */
#define DEV_B 0x00800000u       /* 8:0: a lower number than A's, first seen later */

/* What a fixture holds: a few processes' requests, spread over two per-CPU files. */
struct fixture {
	const char *name;
	bool second_device;     /* DEV_B's requests from the middle on */
	bool late_note;         /* pid 302's note after its first requests */
	bool renamed;           /* pid 301 named again, differently, half-way */
	bool backwards;         /* one completion earlier than the record before it */
	bool cut;               /* the last file ends in half a record */
	bool empty;             /* notes only */
	int rerun;              /* the lazy pass asks to run again */
};

static int put(FILE *f, uint64_t ts, uint32_t action, uint32_t pid, uint32_t dev,
	       uint64_t sector, uint32_t bytes, uint32_t cpu)
{
	struct btw_rec r = { .time = ts, .action = action, .pid = pid, .device = dev,
			     .sector = sector, .bytes = bytes, .cpu = cpu };

	return btw_put(f, &r, false, NULL);
}

static int note(FILE *f, uint64_t ts, uint32_t pid, const char *comm, uint32_t cpu)
{
	char pdu[16] = "";
	struct btw_rec r = { .time = ts, .action = BTW_TN_PROCESS, .pid = pid, .cpu = cpu,
			     .pdu_len = sizeof(pdu) };

	snprintf(pdu, sizeof(pdu), "%s", comm);
	return btw_put(f, &r, false, pdu);
}

static int write_fixture(const struct fixture *x)
{
	static const char *const comm[] = { "tar", "kworker/u8:2", "xfsaild/loop0", "sync" };
	FILE *f[2] = { fopen(tpath("%s.blktrace.0", x->name), "w"),
		       fopen(tpath("%s.blktrace.1", x->name), "w") };
	uint64_t rnd = 42;
	int ret = !f[0] || !f[1];

	for (uint32_t p = 0; !ret && p < 4; p++)
		if (!(x->late_note && p == 2))
			ret |= note(f[p % 2], 1000 + p, 300 + p, comm[p], p % 2);
	for (uint32_t i = 0; !ret && !x->empty && i < 400; i++) {
		uint32_t pid = 300 + i % 4, cpu = i % 2, dev = DEV_A;
		uint32_t bytes = 4096u << (i % 3), action = i % 5 ? BTW_WRITE : BTW_READ;
		uint64_t t = 10000 + (uint64_t)i * 5000, sector;
		FILE *o = f[cpu];

		rnd = rnd * 6364136223846793005ull + 1442695040888963407ull;
		sector = i % 3 ? 2048 + (uint64_t)i * 64 : (rnd >> 33) % 2000000;
		if (x->second_device && i >= 200 && i % 3 == 0)
			dev = DEV_B;
		if (x->late_note && i == 40)
			ret |= note(f[0], t - 1, 302, "late-named", 0);
		if (x->renamed && i == 200)
			ret |= note(f[1], t - 1, 301, "renamed", 1);
		ret |= put(o, t, BTW_TA_Q | action, pid, dev, sector, bytes, cpu);
		ret |= put(o, t + 100, BTW_TA_D | action, i % 7 ? pid : 0, dev, sector, bytes, cpu);
		/* completions in the other CPU's file, a few out of time order */
		ret |= put(f[!cpu], x->backwards && i == 100 ? t - 6000 : t + 3000 + (i % 4) * 900,
			   BTW_TA_C | action, 0, dev, sector, bytes, !cpu);
	}
	if (!ret && x->cut)
		ret |= fwrite("\0\0\0\0\0\0\0\0\0\0", 10, 1, f[1]) != 1;
	for (int c = 0; c < 2; c++)
		if (f[c] && fclose(f[c]))
			ret = 1;
	return ret ? -1 : 0;
}

static void compare(const struct fixture *x, const char *ra)
{
	char *a = NULL, *b = NULL;
	size_t la, lb;
	bool r0, r1;
	int e0, e1;

	setenv("SEEKSCOPE_READAHEAD", ra, 1);
	e0 = report_bytes(tpath("%s", x->name), false, &a, &la, &r0);
	e1 = report_bytes(tpath("%s", x->name), true, &b, &lb, &r1);
	ok(!e0 && !e1 && a && b && !strcmp(a, b),
	   "%s (read-ahead %s): the same report lazily (%zu bytes; errors %d, %d)", x->name, ra,
	   a ? strlen(a) : 0, e0, e1);
	ok(r1 == (x->rerun != 0), "%s (read-ahead %s): %s", x->name, ra,
	   x->rerun ? "the lazy pass ran again (a pid named twice)" : "one pass");
	if (a && b && strcmp(a, b))
		printf("# usual:\n%s\n# lazily:\n%s\n", a, b);
	free(a);
	free(b);
}

int main(void)
{
	static const struct fixture fx[] = {
		{ .name = "plain" },
		{ .name = "two-devices", .second_device = true },
		{ .name = "late-note", .late_note = true },
		{ .name = "renamed", .renamed = true, .rerun = 1 },
		{ .name = "backwards", .backwards = true },
		{ .name = "cut", .cut = true },
		{ .name = "empty", .empty = true },
		{ .name = "all", .second_device = true, .late_note = true, .backwards = true,
		  .cut = true },
	};

	if (testdir_make("stats-lazy"))
		return done_testing();
	for (size_t i = 0; i < sizeof(fx) / sizeof(fx[0]); i++) {
		if (!ok(!write_fixture(&fx[i]), "%s: written", fx[i].name))
			continue;
		compare(&fx[i], "never");
		compare(&fx[i], "always");
	}
	unsetenv("SEEKSCOPE_READAHEAD");
	return done_testing();
}
