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

/*
 * For a library's allocations, which this process does not make itself (libtracecmd's
 * unpacked sections and chunks in the trace-cmd reader process): the malloc heap grown by
 * SIZE bytes (at most SS_HUGE_HEAP_MAX) on memory advised for huge pages, allocations of up
 * to 32 MiB taken from it rather than from mappings of their own, and the heap not shrunk
 * (below about SS_HUGE_HEAP_MAX of free top).  For a process that ends after that work: the
 * allocator's settings stay so whatever the outcome, and what it frees stays its own.
 * glibc's allocator only (its glibc.malloc.hugetlb tunable does the like, but only when set
 * before the process starts).  0 (the advice is a hint: a kernel without transparent huge
 * pages ignores it); -ENOTSUP where the heap did not grow by SIZE — its free top already
 * holds as much, a free block elsewhere served the growing request, allocations do not come
 * from the program break (a sanitizer's or valgrind's allocator) or it could not move;
 * -ENOMEM.
 */
#define SS_HUGE_HEAP_MAX ((size_t)1 << 30)
int ss_huge_heap_reserve(size_t size);

#endif
