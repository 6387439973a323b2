// SPDX-License-Identifier: GPL-2.0-or-later
/* Big buffers on huge pages (hugemem.h). */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/mman.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "hugemem.h"

#define HUGE_PAGE ((size_t)2 << 20)
_Static_assert(SS_HUGE_MIN <= HUGE_PAGE, "the threshold is at most a huge page");

static size_t whole(size_t size)
{
	return (size + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
}

void *ss_huge_alloc(size_t size)
{
	size_t len, head;
	char *map, *p;

	if (size < SS_HUGE_MIN)
		return calloc(1, size ? size : 1);
	len = whole(size);
	if (len < size || len + HUGE_PAGE < len)
		return NULL;
	/* a huge page's worth more, to start on a boundary; the rest given back */
	map = mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		   -1, 0);
	if (map == MAP_FAILED)
		return NULL;
	p = (char *)(((uintptr_t)map + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
	head = (size_t)(p - map);        /* less than a huge page: some of the tail is extra */
	if (head)
		munmap(map, head);
	munmap(p + len, HUGE_PAGE - head);
	madvise(p, len, MADV_HUGEPAGE);          /* a hint: without it, pages of 4 KiB */
	return p;
}

void ss_huge_free(void *p, size_t size)
{
	if (!p)
		return;
	if (size < SS_HUGE_MIN)
		free(p);
	else
		munmap(p, whole(size));
}

#ifdef __GLIBC__
/* glibc's largest M_MMAP_THRESHOLD on a 64-bit machine (its DEFAULT_MMAP_THRESHOLD_MAX), and
 * its M_TOP_PAD by default (mallopt(3)) */
#define HEAP_MMAP_MAX ((size_t)32 << 20)
#define HEAP_TOP_PAD ((size_t)128 << 10)
#define HEAP_TRIM (SS_HUGE_HEAP_MAX + HEAP_MMAP_MAX + HUGE_PAGE)
_Static_assert(HEAP_TRIM <= INT_MAX, "mallopt() takes an int");

int ss_huge_heap_reserve(size_t size)
{
	uintptr_t brk0, brk1, lo, hi;
	size_t top, need;
	char *p;

	if (size > SS_HUGE_HEAP_MAX)
		size = SS_HUGE_HEAP_MAX;
	if (size < HUGE_PAGE)
		return -ENOTSUP;
	/* (each mallopt() first merges the small freed blocks, some into the free top) */
	if (!mallopt(M_MMAP_THRESHOLD, (int)HEAP_MMAP_MAX) ||
	    !mallopt(M_TRIM_THRESHOLD, (int)HEAP_TRIM) || !mallopt(M_TOP_PAD, (int)size))
		return -ENOTSUP;
	/* a block larger than the heap's free top: the heap grows, by SIZE more (M_TOP_PAD) */
	top = mallinfo2().keepcost;
	need = top + ((size_t)64 << 10);
	brk0 = (uintptr_t)sbrk(0);
	p = top < size && need < HEAP_MMAP_MAX ? malloc(need) : NULL;
	mallopt(M_TOP_PAD, (int)HEAP_TOP_PAD);
	brk1 = (uintptr_t)sbrk(0);
	/* the block is the old top's start and the break moved by SIZE at least, else the heap
	 * did not grow (a free block elsewhere served it, the break could not move, or another
	 * allocator's blocks lie elsewhere) */
	if (!p || (uintptr_t)p < brk0 - top || (uintptr_t)p >= brk0 || brk1 < brk0 ||
	    brk1 - brk0 < size) {
		free(p);
		return top >= size || need >= HEAP_MMAP_MAX || p ? -ENOTSUP : -ENOMEM;
	}
	lo = ((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
	hi = brk1 & ~(uintptr_t)(HUGE_PAGE - 1);
	free(p);                /* the heap's free top again, from P to the break */
	if (hi > lo)
		madvise((void *)lo, hi - lo, MADV_HUGEPAGE);   /* a hint, as in ss_huge_alloc() */
	return 0;
}
#else
int ss_huge_heap_reserve(size_t size)
{
	(void)size;
	return -ENOTSUP;
}
#endif
