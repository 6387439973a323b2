// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target for one ring-buffer page walked record by record
 * (render/readers/import_tracecmd_rbpage.c), held to libtraceevent's kbuffer, which the
 * trace-cmd reader walked each page with before and libtracecmd still does.
 *
 * Input: byte 0's bit 0 says the page is big-endian, bit 1 that its commit word is 4 bytes
 * (a 32-bit kernel's), not 8; the rest is the page (4096 bytes, zeros past the input).  A page
 * whose commit word claims more than the page is not walked (the reading refuses it first,
 * import_tracecmd_pages.c).  Invariant: both walks refuse the page (an event header that
 * would not take the walk on), or both read the same records: each one's bytes, size (-4 on a
 * damaged page as well), time, header offset and lost events; every record's header lies
 * further into the page than the one before, and the walk reads nothing past the page's 16
 * bytes of padding (ASan: the page is allocated to its end).
 */
#include "fuzz.h"
#include "rbpage_walk.h"

#define PAGE 4096u
#define PAD 16u                 /* as the reading leaves after a buffer's last page */
#define MAX 2048u               /* more records than a page holds (one every 4 bytes at most) */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct walked_rec a[MAX], b[MAX];
	unsigned char *pg;
	bool be;
	unsigned lsize;
	uint64_t commit = 0;
	size_t n;
	char why[300];

	if (size < 1 || size > 1 + PAGE)
		return 0;
	be = data[0] & 1;
	lsize = data[0] & 2 ? 4 : 8;
	if (!(pg = calloc(1, PAGE + PAD)))
		abort();
	memcpy(pg, data + 1, size - 1);
	for (unsigned i = 0; i < lsize; i++)
		commit |= (uint64_t)pg[8 + (be ? lsize - 1 - i : i)] << (8 * i);
	if ((commit & ((1u << 27) - 1)) <= PAGE - 8 - lsize) {
		FUZZ_ASSERT(walks_agree(pg, be, lsize, a, b, MAX, why, sizeof(why)),
			    "the walks differ: %s", why);
		walk_ours(pg, be, lsize, b, MAX, &n);
		FUZZ_ASSERT(n < MAX, "%zu records, more than a page holds", n);
		for (size_t i = 1; i < n; i++)
			FUZZ_ASSERT(b[i].offset > b[i - 1].offset, "record %zu's header at %d, "
				    "the one before's at %d", i, b[i].offset, b[i - 1].offset);
	}
	free(pg);
	return 0;
}
