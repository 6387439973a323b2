// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target for the trace-cmd reader's page-by-page reading of a version 7 file's rings
 * (render/readers/import_tracecmd_pages.c): the walk that finds where each buffer's CPU data
 * lies (ss_tc_walk_buffers), then every CPU of every buffer read to its end, its compressed
 * chunks unpacked one at a time and its pages walked record by record (import_tracecmd_rbpage.c,
 * which the `rbpage` target holds to libtraceevent's kbuffer).  In this
 * process, unlike the `tracecmd` target, whose reader process coverage does not reach
 * libFuzzer and whose crashes there read as libtracecmd's.
 *
 * Input: the file's bytes, in a memfd; its events' formats are not read (the reading needs
 * only the page header's: a 64-bit kernel's, or a 32-bit one's when the last byte is odd, in
 * the file's byte order); with the last byte's second bit, the walk defers what only
 * unpacking a chunk past a CPU's first would tell, as the reader's does.  Invariants: each
 * record read lies wholly in memory the reader owns (every byte read here, under ASan), and
 * further into the CPU's data than the one before (the reading's own check ends a ring whose
 * record does not: -ELOOP); reading ends with 0, -EINVAL, -ELOOP or -ENOMEM, or -EBADMSG at a
 * chunk past the first when the walk deferred, which failed with -EINVAL or -ENOMEM; read
 * from its first record again, a ring hands out the same first record; when the walk
 * deferred and every ring was read to its end with no chunk failing, the walk over every
 * chunk passes the file too (what the reader leaves to the reading is what that walk
 * would refuse).
 */
#include "fuzz.h"
#include "import_tracecmd_reader.h"

#include <traceevent/event-parse.h>

#define MAX_RECORDS 200000      /* read from a ring at most */
#define MAX_CLAIM (64u << 20)   /* a chunk unpacking to more is not read (the fuzzer's memory) */

/* a 64-bit kernel's page header, and a 32-bit one's */
static const char header_page8[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n";
static const char header_page4[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:12;\tsize:4084;\tsigned:1;\n";

static int memfd = -1;

static unsigned read_ring(struct ss_tc_pages *p, int *end)
{
	struct ss_tc_rec r, first = { 0 };
	uint64_t last = 0;
	unsigned sum = 0;
	int ret = 1;

	for (size_t n = 0; n < MAX_RECORDS && (ret = ss_tc_pages_next(p, &r)) == 1; n++) {
		const unsigned char *d = r.data;

		FUZZ_ASSERT(!n || r.offset > last, "record %zu at %llu after one at %llu", n,
			    (unsigned long long)r.offset, (unsigned long long)last);
		last = r.offset;
		if (!n)
			first = r;
		for (int i = 0; i < r.size; i++)
			sum += d[i];
	}
	FUZZ_ASSERT(ret == 1 || ret == 0 || ret == -EINVAL || ret == -ELOOP || ret == -ENOMEM ||
		    ret == -EBADMSG, "returned %d", ret);
	FUZZ_ASSERT(ret != -EBADMSG || ss_tc_pages_failure(p) == -EINVAL ||
		    ss_tc_pages_failure(p) == -ENOMEM, "a deferred chunk failed with %d",
		    ss_tc_pages_failure(p));
	*end = ret;
	ss_tc_pages_rewind(p);
	if (first.data) {
		ret = ss_tc_pages_next(p, &r);
		FUZZ_ASSERT(ret == 1 && r.ts == first.ts && r.size == first.size &&
			    r.offset == first.offset, "the first record differs read again (%d)", ret);
	}
	return sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ss_tc_layout lay;
	struct ss_tc_scratch *sc;
	struct tep_handle *tep;
	bool l4;
	struct file_head fh;
	char err[512];
	volatile unsigned sum = 0;
	bool whole = true, failed = false;

	if (size > (1u << 20))
		return 0;
	if (memfd < 0 && (memfd = memfd_create("tcpages", 0)) < 0)
		abort();
	if (ftruncate(memfd, 0) || pwrite(memfd, data, size, 0) != (ssize_t)size)
		abort();
	if (!ss_tc_read_file_head(memfd, &fh) || fh.endian > 1 || !ss_tc_page_size_ok(fh.page_size))
		return 0;
	if (ss_tc_walk_buffers(memfd, &fh, &lay, data[size - 1] & 2, err, sizeof(err)) ||
	    !lay.walked)
		return 0;
	if (lay.max_claim > MAX_CLAIM || !(tep = tep_alloc())) {
		ss_tc_layout_free(&lay);
		return 0;
	}
	if (!(sc = ss_tc_scratch_new(0)))
		abort();
	l4 = data[size - 1] & 1;
	tep_set_file_bigendian(tep, fh.endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, l4 ? 4 : 8);
	if (l4)
		tep_parse_header_page(tep, (char *)header_page4, sizeof(header_page4) - 1, 4);
	else
		tep_parse_header_page(tep, (char *)header_page8, sizeof(header_page8) - 1, 8);
	FUZZ_ASSERT(tep_get_header_page_size(tep) == (l4 ? 4 : 8), "the page header parsed to %d",
		    tep_get_header_page_size(tep));
	for (size_t b = 0; b < lay.nr_buf; b++) {
		for (uint32_t c = 0; c < lay.buf[b].nr_cpus; c++) {
			struct ss_tc_pages *p = ss_tc_pages_new(memfd, lay.algo, &lay.buf[b],
							 lay.buf[b].cpu[c].cpu, tep, sc,
							 lay.deferred);
			int end = 1;

			if (p)
				sum += read_ring(p, &end);
			failed |= end == -EBADMSG;
			whole &= end == 0 || end == -EBADMSG;
			ss_tc_pages_free(p);
		}
	}
	/* every chunk the walk left unchecked unpacked to its claim, page by page: the walk over
	 * every chunk passes the file too */
	FUZZ_ASSERT(!lay.deferred || !whole || failed || !ss_tc_check_buffers(memfd, &fh, err,
										 sizeof(err)),
		    "every ring read to its end, no chunk failed, yet the walk refuses: %s", err);
	(void)sum;
	ss_tc_scratch_free(sc);
	tep_free(tep);
	ss_tc_layout_free(&lay);
	return 0;
}
