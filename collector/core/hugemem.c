// SPDX-License-Identifier: GPL-2.0-or-later
/* Big buffers on huge pages (hugemem.h). */
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

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
