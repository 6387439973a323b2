// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Big buffers on memory the kernel may back with huge pages (madvise MADV_HUGEPAGE: honoured
 * in the transparent huge pages' usual "madvise" mode).  A page fault costs 10 µs and more on
 * a virtual machine (measured here: 15 µs a page of 4 KiB, 0.3 µs a 4 KiB share of a huge
 * page), and a buffer of a few MiB touched once is hundreds of them.  From half a huge page
 * up (the last one partly unused, which costs less than its faults would); smaller ones come
 * from calloc.  Zeroed.
 */
#ifndef SS_HUGEMEM_H
#define SS_HUGEMEM_H

#include <stddef.h>

/* The smallest size put on huge pages (half of one of 2 MiB); below it, calloc. */
#define SS_HUGE_MIN ((size_t)1 << 20)

/* SIZE bytes, zeroed; NULL on ENOMEM. */
void *ss_huge_alloc(size_t size);
/* P, from ss_huge_alloc(SIZE) with this SIZE; NULL is fine. */
void ss_huge_free(void *p, size_t size);

#endif
