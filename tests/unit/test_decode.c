// SPDX-License-Identifier: GPL-2.0-or-later
/* Decoding block events by field name, with the formats of different kernels. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "tap.h"
#include "decode.h"
#include "tracecap.h"

/* block_rq_issue / block_rq_complete as a 6.x kernel describes them */
static const char issue_6x[] =
"name: block_rq_issue\nID: 2104\nformat:\n"
"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
"\tfield:dev_t dev;\toffset:8;\tsize:4;\tsigned:0;\n"
"\tfield:sector_t sector;\toffset:16;\tsize:8;\tsigned:0;\n"
"\tfield:unsigned int nr_sector;\toffset:24;\tsize:4;\tsigned:0;\n"
"\tfield:unsigned int bytes;\toffset:28;\tsize:4;\tsigned:0;\n"
"\tfield:unsigned short ioprio;\toffset:32;\tsize:2;\tsigned:0;\n"
"\tfield:char rwbs[10];\toffset:34;\tsize:10;\tsigned:0;\n"
"\tfield:char comm[16];\toffset:44;\tsize:16;\tsigned:0;\n"
"\tfield:__data_loc char[] cmd;\toffset:60;\tsize:4;\tsigned:0;\n\n"
"print fmt: \"%d,%d %s\", ((unsigned int) ((REC->dev) >> 20)), ((unsigned int) ((REC->dev) & ((1U << 20) - 1))), REC->rwbs\n";

static const char complete_6x[] =
"name: block_rq_complete\nID: 2107\nformat:\n"
"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
"\tfield:dev_t dev;\toffset:8;\tsize:4;\tsigned:0;\n"
"\tfield:sector_t sector;\toffset:16;\tsize:8;\tsigned:0;\n"
"\tfield:unsigned int nr_sector;\toffset:24;\tsize:4;\tsigned:0;\n"
"\tfield:int error;\toffset:28;\tsize:4;\tsigned:1;\n"
"\tfield:unsigned short ioprio;\toffset:32;\tsize:2;\tsigned:0;\n"
"\tfield:char rwbs[10];\toffset:34;\tsize:10;\tsigned:0;\n"
"\tfield:__data_loc char[] cmd;\toffset:44;\tsize:4;\tsigned:0;\n\n"
"print fmt: \"%d,%d %s\", ((unsigned int) ((REC->dev) >> 20)), ((unsigned int) ((REC->dev) & ((1U << 20) - 1))), REC->rwbs\n";

/* an older kernel: rwbs[8], `errors`, no ioprio, different offsets */
static const char complete_old[] =
"name: block_rq_complete\nID: 1207\nformat:\n"
"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
"\tfield:dev_t dev;\toffset:8;\tsize:4;\tsigned:0;\n"
"\tfield:sector_t sector;\toffset:16;\tsize:8;\tsigned:0;\n"
"\tfield:unsigned int nr_sector;\toffset:24;\tsize:4;\tsigned:0;\n"
"\tfield:int errors;\toffset:28;\tsize:4;\tsigned:1;\n"
"\tfield:char rwbs[8];\toffset:32;\tsize:8;\tsigned:1;\n"
"\tfield:__data_loc char[] cmd;\toffset:40;\tsize:4;\tsigned:1;\n\n"
"print fmt: \"%s\", REC->rwbs\n";

/* a hypothetical layout with rwbs as a dynamic string */
static const char issue_dyn[] =
"name: block_rq_issue\nID: 3104\nformat:\n"
"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
"\tfield:dev_t dev;\toffset:8;\tsize:4;\tsigned:0;\n"
"\tfield:sector_t sector;\toffset:16;\tsize:8;\tsigned:0;\n"
"\tfield:unsigned int nr_sector;\toffset:24;\tsize:4;\tsigned:0;\n"
"\tfield:__data_loc char[] rwbs;\toffset:28;\tsize:4;\tsigned:0;\n\n"
"print fmt: \"%s\", __get_str(rwbs)\n";

static const char no_sector[] =
"name: block_rq_insert\nID: 2105\nformat:\n"
"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
"\tfield:dev_t dev;\toffset:8;\tsize:4;\tsigned:0;\n"
"\tfield:char rwbs[8];\toffset:12;\tsize:8;\tsigned:1;\n\n"
"print fmt: \"%s\", REC->rwbs\n";

static void put16(unsigned char *b, size_t off, uint16_t v) { memcpy(b + off, &v, 2); }
static void put32(unsigned char *b, size_t off, uint32_t v) { memcpy(b + off, &v, 4); }
static void put64(unsigned char *b, size_t off, uint64_t v) { memcpy(b + off, &v, 8); }

static struct tep_handle *tep_with(const char *const *formats, size_t n)
{
	struct tep_handle *tep = tep_alloc();

	for (size_t i = 0; i < n; i++)
		if (tep_parse_event(tep, formats[i], strlen(formats[i]), "block") != 0)
			printf("# cannot parse format %zu\n", i);
	return tep;
}

static void test_current_kernel(void)
{
	const char *fmts[] = { issue_6x, complete_6x };
	struct tep_handle *tep = tep_with(fmts, 2);
	struct ss_decoder *d = ss_decoder_new(tep);
	unsigned char rec[80] = { 0 };
	char comm[SS_COMM_LEN];
	struct ss_event ev;

	is_int(ss_decoder_add(d, "block_rq_issue", SS_EV_ISSUE), 0, "6.x issue format accepted");
	is_int(ss_decoder_add(d, "block_rq_complete", SS_EV_COMPLETE), 0, "6.x complete accepted");
	is_int(ss_decoder_add(d, "block_rq_merge", SS_EV_INSERT), -ENOENT, "unknown event: -ENOENT");

	put16(rec, 0, 2104);
	put32(rec, 4, 4242);
	put32(rec, 8, SS_MKDEV(259, 3));
	put64(rec, 16, 123456789);
	put32(rec, 24, 16);
	put32(rec, 28, 8192);
	memcpy(rec + 34, "FWFSM", 5);
	memcpy(rec + 44, "kworker/u8:3abcdef", 16);     /* a full comm: 16 bytes, no NUL */
	is_int(ss_decoder_decode(d, rec, sizeof(rec), 777, 1, &ev, comm), 1, "issue decodes");
	is_str(comm, "kworker/u8:3abc", "the issue's comm, cut to 15 characters and terminated");
	memcpy(rec + 44, "fio\0junk-in-slot", 16);     /* bytes past its NUL */
	memset(comm, 'x', sizeof(comm));
	ss_decoder_decode(d, rec, sizeof(rec), 777, 1, &ev, comm);
	ok(!memcmp(comm, "fio\0\0\0\0\0\0\0\0\0\0\0\0\0", SS_COMM_LEN),
	   "a comm padded with NULs to its end, whatever followed its NUL in the record");
	ok(ev.type == SS_EV_ISSUE && ev.ts_ns == 777 && ev.cpu == 1 && ev.pid == 4242,
	   "type, time, cpu, pid");
	ok(ev.dev == SS_MKDEV(259, 3) && ev.sector == 123456789 && ev.nr_sector == 16,
	   "dev, sector, length");
	is_int(ev.bytes, 8192, "bytes from the issue event");
	is_int(ev.flags, SS_RW_PREFLUSH | SS_RW_WRITE | SS_RW_FUA | SS_RW_SYNC | SS_RW_META,
	       "rwbs FWFSM: preflush, write, FUA, sync, meta");

	/* a flush: issue at sector 0, length 0 */
	memset(rec + 34, 0, 10);
	memcpy(rec + 34, "FF", 2);
	put64(rec, 16, 0);
	put32(rec, 24, 0);
	put32(rec, 28, 0);
	ss_decoder_decode(d, rec, sizeof(rec), 1, 0, &ev, NULL);
	ok(ev.sector == SS_SECTOR_NONE && (ev.flags & SS_RW_FLUSH), "flush issue: no sector");

	/* its completion at (sector_t)-1, with an error */
	memset(rec, 0, sizeof(rec));
	put16(rec, 0, 2107);
	put32(rec, 8, SS_MKDEV(259, 3));
	put64(rec, 16, UINT64_MAX);
	put32(rec, 28, (uint32_t)-EIO);
	memcpy(rec + 34, "FF", 2);
	is_int(ss_decoder_decode(d, rec, sizeof(rec), 2, 0, &ev, comm), 1, "complete decodes");
	is_str(comm, "", "a completion has no comm");
	ok(ev.type == SS_EV_COMPLETE && ev.sector == SS_SECTOR_NONE, "flush completion: no sector");
	is_int(ev.error, -EIO, "completion error");

	/* a read completion: bytes derived from the length */
	memset(rec + 34, 0, 10);
	memcpy(rec + 34, "RA", 2);
	put64(rec, 16, 2048);
	put32(rec, 24, 8);
	put32(rec, 28, 0);
	ss_decoder_decode(d, rec, sizeof(rec), 3, 0, &ev, NULL);
	ok(ev.bytes == 4096 && ev.flags == (SS_RW_READ | SS_RW_AHEAD) && ev.error == 0,
	   "completion without a bytes field: bytes = sectors * 512");

	put16(rec, 0, 9999);
	is_int(ss_decoder_decode(d, rec, sizeof(rec), 4, 0, &ev, NULL), 0, "an unregistered event type is skipped");
	ss_decoder_free(d);
	tep_free(tep);
}

static void test_old_and_dynamic(void)
{
	const char *fmts[] = { complete_old, issue_dyn, no_sector };
	struct tep_handle *tep = tep_with(fmts, 3);
	struct ss_decoder *d = ss_decoder_new(tep);
	unsigned char rec[64] = { 0 };
	struct ss_event ev;

	is_int(ss_decoder_add(d, "block_rq_complete", SS_EV_COMPLETE), 0, "old complete format");
	is_int(ss_decoder_add(d, "block_rq_issue", SS_EV_ISSUE), 0, "dynamic rwbs format");
	is_int(ss_decoder_add(d, "block_rq_insert", SS_EV_INSERT), -EPROTO,
	       "a format without sector is refused");

	put16(rec, 0, 1207);
	put32(rec, 8, SS_MKDEV(8, 0));
	put64(rec, 16, 99);
	put32(rec, 24, 8);
	put32(rec, 28, (uint32_t)-ENOSPC);
	memcpy(rec + 32, "WSM", 3);
	ss_decoder_decode(d, rec, sizeof(rec), 5, 0, &ev, NULL);
	ok(ev.error == -ENOSPC && ev.flags == (SS_RW_WRITE | SS_RW_SYNC | SS_RW_META) &&
	   ev.sector == 99, "`errors` and rwbs[8] of older kernels");

	memset(rec, 0, sizeof(rec));
	put16(rec, 0, 3104);
	put32(rec, 8, SS_MKDEV(8, 0));
	put64(rec, 16, 7);
	put32(rec, 24, 1);
	put32(rec, 28, (3u << 16) | 40u);   /* __data_loc: length 3 at offset 40 */
	memcpy(rec + 40, "RSX", 3);
	ss_decoder_decode(d, rec, sizeof(rec), 6, 0, &ev, NULL);
	is_int(ev.flags, SS_RW_READ | SS_RW_SYNC, "dynamic rwbs decoded within its length");
	ss_decoder_free(d);
	tep_free(tep);
}

/* A minimal block event format named NAME with id ID (rwbs as char[10] at 24). */
static void minimal_format(char *buf, size_t len, const char *name, int id)
{
	snprintf(buf, len, "name: %s\nID: %d\nformat:\n"
		 "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		 "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
		 "\tfield:dev_t dev;\toffset:8;\tsize:4;\tsigned:0;\n"
		 "\tfield:sector_t sector;\toffset:12;\tsize:8;\tsigned:0;\n"
		 "\tfield:unsigned int nr_sector;\toffset:20;\tsize:4;\tsigned:0;\n"
		 "\tfield:char rwbs[10];\toffset:24;\tsize:10;\tsigned:0;\n\n"
		 "print fmt: \"%%s\", REC->rwbs\n", name, id);
}

/*
 * The one table of block events (recorder and trace-cmd importer): every event type once,
 * insert and queue opt-in with the recorder's flags, and a decoder takes all of them.
 */
static void test_block_event_table(void)
{
	static const uint16_t types[] = { SS_EV_ISSUE, SS_EV_COMPLETE, SS_EV_REQUEUE,
					  SS_EV_INSERT, SS_EV_QUEUE };
	struct tep_handle *tep = tep_alloc();
	struct ss_decoder *d = ss_decoder_new(tep);
	unsigned char rec[40] = { 0 };
	size_t added = 0, decoded = 0;

	is_int(ss_nr_block_events, sizeof(types) / sizeof(types[0]), "five block events");
	for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
		size_t seen = 0;
		unsigned opt = 0;

		for (size_t i = 0; i < ss_nr_block_events; i++)
			if (ss_block_events[i].type == types[t]) {
				seen++;
				opt = ss_block_events[i].opt_in;
			}
		is_int(seen, 1, "event type %u in the table once", types[t]);
		is_int(opt, types[t] == SS_EV_INSERT ? SS_CAP_INSERT :
		       types[t] == SS_EV_QUEUE ? SS_CAP_QUEUE : 0,
		       "event type %u: recorded %s", types[t],
		       types[t] == SS_EV_INSERT || types[t] == SS_EV_QUEUE ? "on request" : "always");
	}
	ok(SS_CAP_INSERT != SS_CAP_QUEUE && SS_CAP_INSERT && SS_CAP_QUEUE,
	   "distinct opt-in bits for insert and queue");
	for (size_t i = 0; i < ss_nr_block_events; i++) {
		char fmt[1024];

		minimal_format(fmt, sizeof(fmt), ss_block_events[i].name, 4000 + (int)i);
		if (tep_parse_event(tep, fmt, strlen(fmt), "block") != 0)
			printf("# cannot parse format of %s\n", ss_block_events[i].name);
		if (!ss_decoder_add(d, ss_block_events[i].name, ss_block_events[i].type))
			added++;
	}
	is_int(added, ss_nr_block_events, "a decoder registers every event of the table");
	for (size_t i = 0; i < ss_nr_block_events; i++) {
		struct ss_event ev;

		put16(rec, 0, (uint16_t)(4000 + i));
		memcpy(rec + 24, "W", 2);
		if (ss_decoder_decode(d, rec, sizeof(rec), i, 0, &ev, NULL) == 1 && ev.type == ss_block_events[i].type)
			decoded++;
	}
	is_int(decoded, ss_nr_block_events, "each decodes as its table type");
	ss_decoder_free(d);
	tep_free(tep);
}

/* The one flush rule, used by the decoder and the blktrace importer. */
static void test_flush_rule(void)
{
	static const struct {
		uint16_t flags;
		uint32_t nr_sector;
		uint64_t sector, want;
		const char *what;
	} cases[] = {
		{ SS_RW_FLUSH, 0, 0, SS_SECTOR_NONE, "flush issue at sector 0: none" },
		{ SS_RW_FLUSH | SS_RW_PREFLUSH, 0, 0, SS_SECTOR_NONE, "flush op \"FF\" at 0: none" },
		{ SS_RW_FLUSH, 0, UINT64_MAX, SS_SECTOR_NONE, "flush completion at -1: none" },
		{ SS_RW_FLUSH, 0, 2048, 2048, "flush at a real sector keeps it" },
		{ SS_RW_FLUSH, 8, 0, 0, "flush with a length keeps sector 0" },
		{ SS_RW_WRITE | SS_RW_PREFLUSH, 0, 0, 0, "preflush write keeps sector 0" },
		{ SS_RW_READ, 0, 0, 0, "empty read keeps sector 0" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ss_event ev = { .flags = cases[i].flags, .nr_sector = cases[i].nr_sector,
				       .sector = cases[i].sector };

		ss_event_flush_sector(&ev);
		ok(ev.sector == cases[i].want && ev.flags == cases[i].flags &&
		   ev.nr_sector == cases[i].nr_sector, "%s", cases[i].what);
	}
}

/*
 * A trace-cmd file's formats and records are its word: a record shorter than the fields its
 * format places in it, or a dynamic rwbs past its end, is -1 and nothing past it is read
 * (the records here are allocated at their exact size, so a sanitizer or valgrind would see
 * a read past one).
 */
static void test_bounds(void)
{
	static const char far[] =
		"name: block_rq_complete\nID: 4107\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
		"\tfield:dev_t dev;\toffset:8;\tsize:4;\tsigned:0;\n"
		"\tfield:sector_t sector;\toffset:12;\tsize:8;\tsigned:0;\n"
		"\tfield:unsigned int nr_sector;\toffset:20;\tsize:4;\tsigned:0;\n"
		"\tfield:char rwbs[10];\toffset:4000;\tsize:10;\tsigned:0;\n\n"
		"print fmt: \"%s\", REC->rwbs\n";
	const char *fmts[] = { issue_6x, far }, *dyn[] = { issue_dyn };
	struct tep_handle *tep, *tep_dyn;
	struct ss_decoder *d6, *dd, *df;
	unsigned char *rec;
	char comm[SS_COMM_LEN];
	struct ss_event ev;

	tep = tep_with(fmts, 2);
	tep_dyn = tep_with(dyn, 1);
	d6 = ss_decoder_new(tep);
	dd = ss_decoder_new(tep_dyn);
	df = ss_decoder_new(tep);
	ss_decoder_add(d6, "block_rq_issue", SS_EV_ISSUE);
	is_int(ss_decoder_add(dd, "block_rq_issue", SS_EV_ISSUE), 0, "an issue format with a "
	       "dynamic rwbs");
	is_int(ss_decoder_add(df, "block_rq_complete", SS_EV_COMPLETE), 0, "a format with rwbs "
	       "4,000 bytes in is accepted");

	/* 6.x issue: its last field (comm) ends at 60 */
	rec = calloc(1, 60);
	put16(rec, 0, 2104);
	memcpy(rec + 34, "W", 1);
	is_int(ss_decoder_decode(d6, rec, 60, 1, 0, &ev, comm), 1, "a record as long as its "
	       "format's fields decodes");
	is_int(ss_decoder_decode(d6, rec, 59, 1, 0, &ev, comm), -1, "one byte shorter: -1");
	is_int(ss_decoder_decode(d6, rec, 1, 1, 0, &ev, comm), -1, "too short for its type: -1");
	put16(rec, 0, 9999);
	is_int(ss_decoder_decode(d6, rec, 20, 1, 0, &ev, comm), 0, "an unregistered type: 0, "
	       "whatever its size");
	free(rec);

	/* a dynamic rwbs: its location and length within the record, or -1 */
	rec = calloc(1, 44);
	put16(rec, 0, 3104);
	put32(rec, 28, (3u << 16) | 40u);
	memcpy(rec + 40, "RS", 2);
	is_int(ss_decoder_decode(dd, rec, 44, 1, 0, &ev, NULL), 1, "a dynamic rwbs inside");
	put32(rec, 28, (8u << 16) | 40u);
	is_int(ss_decoder_decode(dd, rec, 44, 1, 0, &ev, NULL), -1, "... its length past the end: "
	       "-1");
	put32(rec, 28, (1u << 16) | 0xfff0u);
	is_int(ss_decoder_decode(dd, rec, 44, 1, 0, &ev, NULL), -1, "... its offset past it: -1");
	free(rec);

	rec = calloc(1, 64);
	put16(rec, 0, 4107);
	is_int(ss_decoder_decode(df, rec, 64, 1, 0, &ev, NULL), -1, "rwbs 4,000 bytes into a "
	       "record of 64: -1");
	free(rec);
	ss_decoder_free(d6);
	ss_decoder_free(dd);
	ss_decoder_free(df);
	tep_free(tep);
	tep_free(tep_dyn);
}

/* A trace of the other byte order (a big-endian machine's .dat read here): its type too. */
static void test_other_byte_order(void)
{
	const char *fmts[] = { issue_6x };
	struct tep_handle *tep = tep_with(fmts, 1);
	struct ss_decoder *d;
	unsigned char rec[60] = { 0 };
	struct ss_event ev;
	uint16_t t = 2104;
	uint64_t sector = 123456789;

	tep_set_file_bigendian(tep, tep_is_local_bigendian(tep) ? TEP_LITTLE_ENDIAN :
								 TEP_BIG_ENDIAN);
	d = ss_decoder_new(tep);
	ss_decoder_add(d, "block_rq_issue", SS_EV_ISSUE);
	t = (uint16_t)(t >> 8 | t << 8);
	memcpy(rec, &t, 2);
	for (int i = 0; i < 8; i++)
		rec[16 + i] = (unsigned char)(sector >> (8 * (7 - i)));   /* big-endian */
	rec[27] = 16;
	memcpy(rec + 34, "R", 1);
	is_int(ss_decoder_decode(d, rec, sizeof(rec), 1, 0, &ev, NULL), 1,
	       "a record of the other byte order: its type known");
	ok(ev.sector == sector && ev.nr_sector == 16 && ev.flags == SS_RW_READ,
	   "... its fields read in its order (sector %llu, %u sectors)",
	   (unsigned long long)ev.sector, ev.nr_sector);
	ss_decoder_free(d);
	tep_free(tep);
}

int main(void)
{
	test_other_byte_order();
	test_bounds();
	test_current_kernel();
	test_old_and_dynamic();
	test_block_event_table();
	test_flush_rule();
	return done_testing();
}
