// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One ring-buffer page walked record by record (import_tracecmd_rbpage.c), on pages built here:
 * records of each length encoding (in the type, in a word of their own, rounded up to a word),
 * time deltas, time extends, absolute time stamps (their top bits kept from the time before),
 * padding stepped over, the events lost before a page (counted after its records, or not
 * counted: -1) on its first record only, and not on a record after a time extend (kbuffer's
 * own rule), a length word of 0 (a record of -4 bytes, handed on as kbuffer hands it on),
 * a padding length that would not move the walk on, or moves it back, refused; in either byte
 * order, with a 4- or 8-byte commit word.  Every page is also walked by libtraceevent's kbuffer
 * and must come out the same, as must 20,000 pages of random records and bytes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "rbpage_walk.h"

#define PAGE 4096u
#define PAD 16u
#define MAX 2048u

struct page {
	unsigned char b[PAGE + PAD];
	bool be;
	unsigned lsize, at;             /* the next record's offset in B */
};

static void put(struct page *p, unsigned off, uint64_t v, unsigned bytes)
{
	for (unsigned i = 0; i < bytes; i++)
		p->b[off + (p->be ? bytes - 1 - i : i)] = (unsigned char)(v >> (8 * i));
}

static void start(struct page *p, bool be, unsigned lsize, uint64_t ts)
{
	memset(p, 0, sizeof(*p));
	p->be = be;
	p->lsize = lsize;
	p->at = 8 + lsize;
	put(p, 0, ts, 8);
}

/* an event header: TYPE_LEN and DELTA in the byte order's bit layout */
static void header(struct page *p, unsigned type_len, uint32_t delta)
{
	uint32_t w = p->be ? type_len << 27 | (delta & ((1u << 27) - 1)) : delta << 5 | type_len;

	put(p, p->at, w, 4);
	p->at += 4;
}

static void word(struct page *p, uint32_t v)
{
	put(p, p->at, v, 4);
	p->at += 4;
}

/* a record of BYTES (a multiple of 4) whose first byte is TAG */
static void record(struct page *p, uint32_t delta, unsigned bytes, unsigned char tag)
{
	if (bytes <= 28 * 4 && bytes) {
		header(p, bytes / 4, delta);
	} else {
		header(p, 0, delta);
		word(p, bytes + 4);
	}
	p->b[p->at] = tag;
	p->at += bytes;
}

/* the commit word: the records written, with FLAGS above them */
static void finish(struct page *p, uint64_t flags)
{
	put(p, 8, (p->at - 8 - p->lsize) | flags, p->lsize);
}

static int walk(struct page *p, struct walked_rec *r, size_t *n)
{
	return walk_ours(p->b, p->be, p->lsize, r, MAX, n);
}

static bool same_as_kbuffer(struct page *p)
{
	static struct walked_rec a[MAX], b[MAX];
	char why[256];

	if (walks_agree(p->b, p->be, p->lsize, a, b, MAX, why, sizeof(why)))
		return true;
	printf("# %s\n", why);
	return false;
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 16);
}

static void random_page(struct page *p)
{
	unsigned lsize = rnd() & 1 ? 8 : 4;

	start(p, rnd() & 1, lsize, (uint64_t)rnd() << 32 | rnd());
	if (rnd() % 4 == 0) {           /* bytes */
		for (unsigned i = 8 + lsize; i < PAGE; i++)
			p->b[i] = (unsigned char)rnd();
		put(p, 8, (rnd() % (PAGE - 8 - lsize + 1)) | (uint64_t)(rnd() & 3) << 30, lsize);
		return;
	}
	while (p->at + 16 + 120 < PAGE - 64) {
		switch (rnd() % 8) {
		case 0:
			header(p, 30, rnd());
			word(p, rnd());
			break;
		case 1:
			header(p, 31, rnd());
			word(p, rnd());
			break;
		case 2:
			header(p, 29, rnd() % 3);
			word(p, rnd() % 5 ? 8 : rnd() % 32 - 8);        /* some go back */
			p->at += 4;
			break;
		case 3:
			header(p, 0, rnd());
			word(p, rnd() % 130);   /* some under 4, some not a whole word */
			p->at += 120;
			break;
		default:
			record(p, rnd() & 0xfff, (rnd() % 28 + 1) * 4, 0xaa);
		}
	}
	finish(p, (uint64_t)(rnd() & 3) << 30);
	put(p, p->at, rnd(), p->lsize);         /* a count of lost events, if stored */
}

int main(void)
{
	static struct walked_rec r[MAX];
	static struct page p;
	size_t n;
	int ret;
	unsigned bad = 0, refused = 0;
	size_t records = 0;

	plan(22);

	for (int v = 0; v < 4; v++) {
		bool be = v & 1;
		unsigned lsize = v & 2 ? 4 : 8;
		char what[64];

		snprintf(what, sizeof(what), "%s-endian, a %u-byte commit word",
			 be ? "big" : "little", lsize);
		start(&p, be, lsize, 1000);
		record(&p, 5, 8, 1);                    /* ts 1005 */
		header(&p, 30, 3);                      /* + (1 << 27) + 3 */
		word(&p, 1);
		record(&p, 2, 200, 2);                  /* in a word of its own: + 2 */
		header(&p, 0, 1);                       /* 13 bytes, rounded up to 16 */
		word(&p, 13 + 4);
		p.b[p.at] = 3;
		p.at += 16;
		header(&p, 29, 1);                      /* padding of 8 */
		word(&p, 8);
		p.at += 4;
		record(&p, 1, 4, 4);
		finish(&p, 0);
		ret = walk(&p, r, &n);
		ok(!ret && n == 4 && r[0].ts == 1005 && r[0].size == 8 && r[0].offset == 8 + (int)lsize &&
		   r[0].data == 12 + (long)lsize && p.b[r[0].data] == 1 &&
		   r[1].ts == 1005 + (1ull << 27) + 3 + 2 && r[1].size == 200 && p.b[r[1].data] == 2 &&
		   r[2].ts == r[1].ts + 1 && r[2].size == 16 && p.b[r[2].data] == 3 &&
		   r[3].ts == r[2].ts + 1 + 1 && r[3].size == 4 && p.b[r[3].data] == 4 &&
		   !r[0].missed && !r[3].missed,
		   "%s: four records, their lengths, times, offsets and bytes", what);
		ok(same_as_kbuffer(&p), "... as kbuffer walks them");
	}

	/* an absolute time stamp: the top 5 bits from the time before */
	start(&p, false, 8, 0xf8ull << 56 | 77);
	header(&p, 31, 9);
	word(&p, 2);
	record(&p, 1, 4, 1);
	finish(&p, 0);
	ret = walk(&p, r, &n);
	ok(!ret && n == 1 && r[0].ts == ((0xf8ull << 56) | ((2ull << 27) + 9)) + 1,
	   "an absolute time stamp sets the time, its top bits kept");
	ok(same_as_kbuffer(&p), "... as kbuffer");

	/* events lost before the page, counted after its records */
	start(&p, false, 8, 10);
	record(&p, 1, 8, 1);
	record(&p, 1, 8, 2);
	finish(&p, 3ull << 30);
	put(&p, p.at, 4242, 8);
	ret = walk(&p, r, &n);
	ok(!ret && n == 2 && r[0].missed == 4242 && r[1].missed == 0,
	   "events lost before a page: counted on its first record only");
	ok(same_as_kbuffer(&p), "... as kbuffer");
	finish(&p, 1ull << 31);
	ret = walk(&p, r, &n);
	ok(!ret && n == 2 && r[0].missed == -1 && r[1].missed == 0, "... lost but not counted: -1");
	start(&p, true, 4, 10);
	header(&p, 30, 1);
	word(&p, 0);
	record(&p, 1, 8, 1);
	finish(&p, 3ull << 30);
	put(&p, p.at, 9, 4);
	ret = walk(&p, r, &n);
	ok(!ret && n == 1 && r[0].missed == 0,
	   "... not on the first record when a time extend comes before it (kbuffer's rule)");
	ok(same_as_kbuffer(&p), "... as kbuffer");

	/* a length word of 0: a record of -4 bytes, the walk going on from its length word */
	start(&p, false, 8, 10);
	header(&p, 0, 1);
	word(&p, 0);
	record(&p, 1, 4, 9);
	finish(&p, 0);
	ret = walk(&p, r, &n);
	ok(!ret && n >= 1 && r[0].size == -4, "a length word of 0: a record of -4 bytes");
	ok(same_as_kbuffer(&p), "... as kbuffer hands it on");

	/* padding that would loop */
	start(&p, false, 8, 10);
	record(&p, 1, 8, 1);
	header(&p, 29, 1);
	word(&p, (uint32_t)-4);
	finish(&p, 0);
	ok(walk(&p, r, &n) == -EINVAL && n == 0 && same_as_kbuffer(&p),
	   "a padding length of -4 (no step on): refused, no record read");
	start(&p, false, 8, 10);
	record(&p, 1, 8, 1);
	header(&p, 29, 1);
	word(&p, (uint32_t)-64);
	record(&p, 1, 8, 1);
	finish(&p, 0);
	ok(walk(&p, r, &n) == -EINVAL && same_as_kbuffer(&p), "a padding length back: refused");
	start(&p, false, 8, 10);
	finish(&p, 0);
	ok(!walk(&p, r, &n) && n == 0 && same_as_kbuffer(&p), "an empty page: no record");

	for (int i = 0; i < 20000; i++) {
		random_page(&p);
		if (!same_as_kbuffer(&p) && ++bad > 3)
			break;
		if (walk(&p, r, &n))
			refused++;
		else
			records += n;
	}
	ok(!bad, "20,000 random pages walked as kbuffer walks them");
	ok(refused > 1000 && refused < 19000 && records > 100000,
	   "... %u of them refused, %zu records read from the others", refused, records);
	return done_testing();
}
