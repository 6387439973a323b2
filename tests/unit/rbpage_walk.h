// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One ring-buffer page walked two ways, for tests/unit/test_tracecmd_rbpage.c and the `rbpage`
 * fuzz target: with libtraceevent's kbuffer, as the page-by-page reading walked it before
 * (kbuffer_raw_get() over the event headers first, a page that would loop refused, then
 * kbuffer_load_subbuffer(), kbuffer_read_event() and the rest a record), and with
 * ss_rb_page_load()/ss_rb_page_next() (import_tracecmd_rbpage.c), which must give the same.
 */
#ifndef SS_RBPAGE_WALK_H
#define SS_RBPAGE_WALK_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <traceevent/kbuffer.h>

#include "import_tracecmd_reader.h"

struct walked_rec {
	long data;                      /* the record's bytes, from the page's start */
	int size;
	unsigned long long ts;
	int offset;                     /* its header, from the page's start */
	int missed;
};

/* Page PG's records into R (at most MAX; their number in *N): 0, or -EINVAL where the
 * page's event headers do not take the walk on (nothing read then). */
static inline int walk_kbuffer(const unsigned char *pg, bool be, unsigned lsize,
			       struct walked_rec *r, size_t max, size_t *n)
{
	struct kbuffer *kb = kbuffer_alloc(lsize == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
					   be ? KBUFFER_ENDIAN_BIG : KBUFFER_ENDIAN_LITTLE);
	struct kbuffer_raw_info info = { .next = (void *)(pg + 8 + lsize) };
	uint64_t commit = 0;
	int64_t stop, at = 8 + (int64_t)lsize;
	unsigned long long ts;
	void *data;

	*n = 0;
	if (!kb)
		return -ENOMEM;
	for (unsigned i = 0; i < lsize; i++)
		commit |= (uint64_t)pg[8 + (be ? lsize - 1 - i : i)] << (8 * i);
	stop = 8 + (int64_t)lsize + (int64_t)(commit & ((1u << 27) - 1));
	/* (where kbuffer_raw_get() moves the walk to, as an offset from the page: a length
	 * that goes back further than the page's address wraps the pointer round, and compared
	 * as addresses the check would pass it where the page lies low, as under valgrind) */
	while (at < stop) {
		int64_t next;

		if (!kbuffer_raw_get(kb, (void *)pg, &info) ||
		    (next = (int64_t)((uintptr_t)info.next - (uintptr_t)pg)) <= at) {
			kbuffer_free(kb);
			return -EINVAL;
		}
		at = next;
	}
	kbuffer_load_subbuffer(kb, (void *)pg);
	while (*n < max && (data = kbuffer_read_event(kb, &ts))) {
		r[*n] = (struct walked_rec){
			.data = (long)((const unsigned char *)data - pg),
			.size = kbuffer_event_size(kb), .ts = ts,
			.offset = kbuffer_curr_offset(kb), .missed = kbuffer_missed_events(kb),
		};
		(*n)++;
		kbuffer_next_event(kb, NULL);
	}
	kbuffer_free(kb);
	return 0;
}

/* The same with ss_rb_page_load() and ss_rb_page_next(). */
static inline int walk_ours(const unsigned char *pg, bool be, unsigned lsize,
			    struct walked_rec *r, size_t max, size_t *n)
{
	struct ss_rb_page w;
	int ret = ss_rb_page_load(&w, pg, be, lsize);

	*n = 0;
	if (ret < 0)
		return ret;
	while (*n < max && w.curr < w.size) {
		r[*n] = (struct walked_rec){
			.data = (long)(w.data + w.index - pg), .size = (int)(w.next - w.index),
			.ts = w.ts, .offset = (int)(w.start + w.curr),
			.missed = w.curr ? 0 : (int)w.lost,
		};
		(*n)++;
		ss_rb_page_next(&w);
	}
	return 0;
}

/* Whether the two walks agree; where not, what differs first in WHY. */
static inline bool walks_agree(const unsigned char *pg, bool be, unsigned lsize,
			       struct walked_rec *a, struct walked_rec *b, size_t max,
			       char *why, size_t why_len)
{
	size_t na, nb;
	int ra = walk_kbuffer(pg, be, lsize, a, max, &na);
	int rb = walk_ours(pg, be, lsize, b, max, &nb);

	if (ra != rb || na != nb) {
		snprintf(why, why_len, "kbuffer %d with %zu records, ours %d with %zu", ra, na,
			 rb, nb);
		return false;
	}
	for (size_t i = 0; i < na; i++)
		if (a[i].data != b[i].data || a[i].size != b[i].size || a[i].ts != b[i].ts ||
		    a[i].offset != b[i].offset || a[i].missed != b[i].missed) {
			snprintf(why, why_len,
				 "record %zu: kbuffer at %ld size %d ts %llu header %d missed %d, "
				 "ours at %ld size %d ts %llu header %d missed %d", i, a[i].data,
				 a[i].size, a[i].ts, a[i].offset, a[i].missed, b[i].data, b[i].size,
				 b[i].ts, b[i].offset, b[i].missed);
			return false;
		}
	return true;
}

#endif
