// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: the fio iolog writer (render/report/iolog.c, `seekscope convert IN --to fio`)
 * on an untrusted trace (record CRCs recomputed as in fuzz_trace.c), written into memory.
 * Invariants: a failure has a one-line message; the log begins with the version 3 header;
 * every line is "0 FILE add", "0 FILE open", "TIME FILE close" or "TIME FILE ACTION OFFSET
 * LENGTH" with FILE a /dev path without blanks, ACTION read, write, trim or sync, TIME at least
 * 1 on action lines (fio reads 0 as "no time yet"); the lines of each action, and the bytes of
 * reads, writes and trims (a sync line carries its request's length), add up to the counts
 * the writer returns; FUA writes are writes.
 */
#include <inttypes.h>

#include "fuzz.h"
#include "fuzz_consume.h"
#include "iolog.h"

static int memfd = -1;

struct tally {
	uint64_t n[4], bytes[4];     /* read, write, trim, sync */
};

static void check_line(char *l, struct tally *t)
{
	static const char *const acts[] = { "read", "write", "trim", "sync" };
	char *field[6], *save = NULL;
	int nf = 0;
	uint64_t ts;

	for (char *f = strtok_r(l, " ", &save); f; f = strtok_r(NULL, " ", &save)) {
		FUZZ_ASSERT(nf < 5, "more than 5 fields in an iolog line");
		field[nf++] = f;
	}
	FUZZ_ASSERT(nf == 3 || nf == 5, "%d fields in an iolog line", nf);
	FUZZ_ASSERT(strspn(field[0], "0123456789") == strlen(field[0]) && field[0][0],
		    "time '%s'", field[0]);
	ts = strtoull(field[0], NULL, 10);
	FUZZ_ASSERT(!strncmp(field[1], "/dev/", 5) && !strpbrk(field[1], "\t\r\n"),
		    "file '%s'", field[1]);
	if (nf == 3) {
		FUZZ_ASSERT(!strcmp(field[2], "close") ||
			    (ts == 0 && (!strcmp(field[2], "add") || !strcmp(field[2], "open"))),
			    "file action '%s' at %" PRIu64, field[2], ts);
		return;
	}
	FUZZ_ASSERT(ts >= 1, "an action at time 0");
	for (int a = 0; a < 4; a++)
		if (!strcmp(field[2], acts[a])) {
			FUZZ_ASSERT(strspn(field[3], "0123456789") == strlen(field[3]) &&
				    strspn(field[4], "0123456789") == strlen(field[4]),
				    "offset '%s' length '%s'", field[3], field[4]);
			t->n[a]++;
			t->bytes[a] += strtoull(field[4], NULL, 10);
			return;
		}
	FUZZ_ASSERT(0, "action '%s'", field[2]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char head[] = "fio version 3 iolog\n";
	struct ss_iolog_counts c;
	struct tally t = { 0 };
	struct ss_trace *tr;
	char path[64], err[512] = "", *out = NULL, *save = NULL;
	size_t out_len = 0;
	FILE *f;
	int ret;

	if (size > (4u << 20))
		return 0;
	if (fuzz_sst_memfile(&memfd, data, size, path, sizeof(path)) ||
	    !(tr = ss_trace_open(path, err, sizeof(err))))
		return 0;
	f = open_memstream(&out, &out_len);
	if (!f) {
		ss_trace_close(tr);
		return 0;
	}
	ret = ss_iolog_write(f, tr, &c, err, sizeof(err));
	fclose(f);
	ss_trace_close(tr);
	if (ret) {
		FUZZ_ASSERT(ret < 0 && err[0] && !strchr(err, '\n'), "failure %d: '%s'", ret, err);
		free(out);
		return 0;
	}
	FUZZ_ASSERT(out && out_len >= sizeof(head) - 1 && !memcmp(out, head, sizeof(head) - 1) &&
		    out[out_len - 1] == '\n', "no iolog header or an unterminated last line");
	FUZZ_ASSERT(strlen(out) == out_len, "a NUL in the iolog");
	for (char *l = strtok_r(out + sizeof(head) - 1, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save))
		check_line(l, &t);
	FUZZ_ASSERT(t.n[0] == c.reads && t.n[1] == c.writes && t.n[2] == c.trims &&
		    t.n[3] == c.syncs, "lines %" PRIu64 "/%" PRIu64 "/%" PRIu64 "/%" PRIu64
		    " against counts %" PRIu64 "/%" PRIu64 "/%" PRIu64 "/%" PRIu64,
		    t.n[0], t.n[1], t.n[2], t.n[3], c.reads, c.writes, c.trims, c.syncs);
	FUZZ_ASSERT(t.bytes[0] == c.read_bytes && t.bytes[1] == c.write_bytes &&
		    t.bytes[2] == c.trim_bytes, "bytes do not add up");
	FUZZ_ASSERT(c.fua <= c.writes, "%" PRIu64 " FUA of %" PRIu64 " writes", c.fua, c.writes);
	free(out);
	return 0;
}
