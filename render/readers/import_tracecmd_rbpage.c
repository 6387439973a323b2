// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One page of a kernel ring buffer, as a trace-cmd file stores it, walked record by record for
 * the page-by-page reading (import_tracecmd_pages.c): the same records, times, sizes, offsets
 * and lost-event counts that libtraceevent 1.7's kbuffer gives for the page (its
 * kbuffer_load_subbuffer(), kbuffer_read_event() and kbuffer_next_event(), as libtracecmd
 * walks a page), in one pass with no call per word.
 *
 * Why not kbuffer: it reads every word through a function pointer and takes five calls a
 * record (the record, its size, offset and lost events, the step on), and the check that a
 * damaged page cannot loop it walked each page once more through kbuffer_raw_get(): a third of
 * the reader's time on a 2M-I/O capture (docs/performance.md, twenty-second round).  The page
 * format is the kernel's (include/linux/ring_buffer.h, kernel/trace/ring_buffer.c): a header
 * of a 64-bit time and a commit word of a long's size (the bytes of records, two flags of
 * lost events above them), then records, each a 32-bit word of a 5-bit type-and-length and a
 * 27-bit time delta.  kbuffer stays the measure: tests/unit/test_tracecmd_rbpage.c and the
 * `rbpage` fuzz target hold this walk to kbuffer's, page for page, damaged pages included
 * (where kbuffer hands out a record of size -4, so does this).
 */
#include <errno.h>
#include <string.h>

#include "import_tracecmd_reader.h"

#define COMMIT_MASK ((1u << 27) - 1)
#define MISSING_EVENTS (1ull << 31)     /* the commit word's flags */
#define MISSING_STORED (1ull << 30)     /* ... their count after the records, a long */
#define TS_SHIFT 27
#define TS_MSB (0xf8ull << 56)          /* an absolute time's bits its event cannot hold */
enum { TYPE_PADDING = 29, TYPE_TIME_EXTEND = 30, TYPE_TIME_STAMP = 31 };

/* A word of the page in its byte order BE (big-endian) on this host, whichever it is. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define HOST_BE true
#else
#define HOST_BE false
#endif

static inline uint32_t rd4(const unsigned char *b, bool be)
{
	uint32_t v;

	memcpy(&v, b, 4);
	return be != HOST_BE ? __builtin_bswap32(v) : v;
}

static inline uint64_t rd8(const unsigned char *b, bool be)
{
	uint64_t v;

	memcpy(&v, b, 8);
	return be != HOST_BE ? __builtin_bswap64(v) : v;
}

/*
 * The event whose header is at W->data + AT: its type (kbuffer's type_len), *DELTA the time it
 * adds (or, TYPE_TIME_STAMP, the time it sets), *DATA its data's offset, *LEN its length,
 * which a padding event and a damaged one's header may make negative (kbuffer's
 * translate_data()).
 */
static inline unsigned translate(const struct ss_rb_page *w, uint32_t at, unsigned long long *delta,
				 uint32_t *data, int *len)
{
	const unsigned char *p = w->data + at;
	uint32_t word = rd4(p, w->be);
	unsigned type = w->be ? word >> 27 : word & 31;
	unsigned long long extend;

	*delta = w->be ? word & ((1u << 27) - 1) : word >> 5;
	*data = at + 4;
	switch (type) {
	case TYPE_PADDING:
		*len = (int)rd4(p + 4, w->be);
		break;
	case TYPE_TIME_STAMP:
	case TYPE_TIME_EXTEND:
		extend = (unsigned long long)rd4(p + 4, w->be) << TS_SHIFT;
		*delta = (extend + *delta) | (type == TYPE_TIME_STAMP ? w->ts & TS_MSB : 0);
		*data = at + 8;
		*len = 0;
		break;
	case 0:
		*len = (int)(rd4(p + 4, w->be) - 4);
		*len = (int)(((unsigned)*len + 3) & ~3u);
		*data = at + 8;
		break;
	default:
		*len = (int)type * 4;
		break;
	}
	return type;
}

/* Whether each event header takes the walk further into the page: a padding event's length
 * comes from the page, and one that does not move the walk on (-4) or moves it back would
 * loop kbuffer for ever (and libtracecmd over it). */
static bool advances(const struct ss_rb_page *w)
{
	for (uint32_t at = 0; at < w->size;) {
		unsigned long long delta;
		uint32_t data;
		int len;

		translate(w, at, &delta, &data, &len);
		if ((int64_t)data + len <= (int64_t)at)
			return false;
		if ((int64_t)data + len >= (int64_t)w->size)
			break;
		at = (uint32_t)((int64_t)data + len);
	}
	return true;
}

void ss_rb_page_next(struct ss_rb_page *w)
{
	unsigned type;

	do {
		unsigned long long delta;
		uint32_t data;
		int len;

		w->curr = w->next;
		if (w->next >= w->size)
			return;
		type = translate(w, w->curr, &delta, &data, &len);
		w->ts = type == TYPE_TIME_STAMP ? delta : w->ts + delta;
		w->index = data;
		w->next = data + (uint32_t)len;
	} while (type >= TYPE_PADDING);
}

int ss_rb_page_load(struct ss_rb_page *w, const unsigned char *pg, bool big_endian,
		    unsigned lsize)
{
	uint64_t flags;

	*w = (struct ss_rb_page){ .be = big_endian, .start = lsize == 8 ? 16 : 12 };
	w->data = pg + w->start;
	w->ts = rd8(pg, big_endian);
	flags = lsize == 8 ? rd8(pg + 8, big_endian) : rd4(pg + 8, big_endian);
	w->size = (uint32_t)flags & COMMIT_MASK;
	if (!advances(w))
		return -EINVAL;
	if (flags & MISSING_EVENTS) {
		if (flags & MISSING_STORED)
			w->lost = lsize == 8 ? (long long)rd8(w->data + w->size, big_endian) :
					       (long long)rd4(w->data + w->size, big_endian);
		else
			w->lost = -1;
	}
	ss_rb_page_next(w);
	return 0;
}
