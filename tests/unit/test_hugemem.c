// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Memory on huge pages (hugemem.h).  ss_huge_alloc: zeroed, writable to its last byte, big
 * blocks on a huge page's boundary, freed as allocated.  ss_huge_heap_reserve: with glibc's
 * allocator, the heap's free top grows by the size asked for, a block of several MiB (what
 * libtracecmd unpacks a section into) then comes from it, on memory advised for huge pages
 * (VmFlags "hg" in /proc/self/smaps), and the heap is not shrunk when it is freed; one the
 * free top already holds, or below a huge page, is refused, and so is one whose growing
 * request a free block elsewhere in the heap served (the break did not move).  Under another
 * allocator (ASan's, valgrind's: blocks not below the program break) it is refused.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "tap.h"
#include "hugemem.h"

#define MIB ((size_t)1 << 20)

static void check_alloc(void)
{
	static const size_t size[] = { 0, 1, 4096, MIB - 1, MIB, 3 * MIB + 5 };

	for (size_t k = 0; k < sizeof(size) / sizeof(size[0]); k++) {
		size_t n = size[k];
		unsigned char *p = ss_huge_alloc(n);
		bool zero = p != NULL;

		for (size_t i = 0; zero && i < n; i += 4096)
			zero = p[i] == 0;
		zero = zero && (!n || p[n - 1] == 0);
		if (p && n) {
			p[0] = 1;
			p[n - 1] = 2;
		}
		ok(zero && (n < MIB || ((uintptr_t)p & (2 * MIB - 1)) == 0),
		   "huge memory of %zu bytes: zeroed, written to its end%s", n,
		   n < MIB ? "" : ", on a 2 MiB boundary");
		ss_huge_free(p, n);
	}
	ss_huge_free(NULL, MIB);
}

/* Whether the block at P is one of the heap below the program break (glibc's allocator). */
static bool below_break(uintptr_t p)
{
	uintptr_t brk_end = (uintptr_t)sbrk(0);

	return p && p < brk_end && brk_end - p < ((size_t)4 << 30);
}

/* The VmFlags of the mapping holding ADDR in /proc/self/smaps into FLAGS ("" if none). */
static void vm_flags(uintptr_t addr, char *flags, size_t len)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	bool in = false;

	flags[0] = '\0';
	while (f && fgets(line, sizeof(line), f)) {
		uintptr_t lo, hi;

		/* a mapping's first line: "LO-HI perms ..."; its fields' lines are "Name: ..." */
		if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " ", &lo, &hi) == 2)
			in = lo <= addr && addr < hi;
		else if (in && !strncmp(line, "VmFlags:", 8)) {
			snprintf(flags, len, "%.*s", (int)(len - 1), line + 8);
			flags[strcspn(flags, "\n")] = '\0';
			break;
		}
	}
	if (f)
		fclose(f);
}

/* P seen by code the compiler cannot look into: a malloc() and free() of it are not elided. */
static void escape(void *p)
{
	__asm__ volatile("" : : "r"(p) : "memory");
}

static bool has_flag(const char *flags, const char *flag)
{
	char word[8];

	for (const char *s = flags; sscanf(s, " %7s", word) == 1; s = strstr(s, word) + strlen(word))
		if (!strcmp(word, flag))
			return true;
	return false;
}

static void check_heap(void)
{
	size_t want = 64 * MIB;
	void *probe = calloc(1, 64);
	bool glibc_heap = below_break((uintptr_t)probe);
	char flags[256];

	free(probe);
#ifdef __GLIBC__
	if (glibc_heap) {
		uintptr_t brk_before, mid;
		unsigned char *hole, *above, *q;
		int ret;

		/* a free block of 4 MiB in the heap, below one in use: it serves the growing
		 * request, the break does not move — no reservation */
		mallopt(M_MMAP_THRESHOLD, 32 << 20);
		hole = malloc(4 * MIB);
		above = malloc(256 << 10);       /* from the top, after it: not merged */
		escape(hole);
		escape(above);
		free(hole);
		brk_before = (uintptr_t)sbrk(0);
		ret = ss_huge_heap_reserve(want);
		ok(ret == -ENOTSUP && (uintptr_t)sbrk(0) == brk_before, "heap on huge pages: "
		   "refused when a free block elsewhere in the heap served the request (%d)", ret);
		hole = malloc(4 * MIB);         /* the free block in use again */
		escape(hole);

		ret = ss_huge_heap_reserve(want);
		ok(ret == 0 && mallinfo2().keepcost >= want, "heap on huge pages: %d, %zu MiB "
		   "free at its top (asked for %zu)", ret, mallinfo2().keepcost / MIB, want / MIB);
		brk_before = (uintptr_t)sbrk(0);
		/* what libtracecmd unpacks the kernel's symbols into: about 5 MiB */
		q = malloc(6 * MIB);
		mid = ((uintptr_t)q + 2 * MIB) & ~(uintptr_t)(2 * MIB - 1);
		if (q)
			memset(q, 0x5a, 6 * MIB);
		vm_flags(mid, flags, sizeof(flags));
		ok(q && below_break((uintptr_t)q) && (uintptr_t)sbrk(0) == brk_before,
		   "a block of 6 MiB comes from the reserved heap, not a mapping of its own");
		if (access("/sys/kernel/mm/transparent_hugepage/enabled", F_OK))
			skip(1, "no transparent huge pages in this kernel: the advice is ignored");
		else
			ok(has_flag(flags, "hg"), "... on memory advised for huge pages (VmFlags:%s)",
			   flags[0] ? flags : " none found");
		free(q);
		/* (stdio's buffer for smaps may sit between the block and the free top) */
		ok((uintptr_t)sbrk(0) == brk_before && mallinfo2().keepcost >= want - 8 * MIB,
		   "freed, the heap keeps the reservation (not trimmed): %zu MiB free at its top, "
		   "the break %+" PRIdPTR " bytes", mallinfo2().keepcost / MIB,
		   (intptr_t)((uintptr_t)sbrk(0) - brk_before));
		ok(ss_huge_heap_reserve(want / 2) == -ENOTSUP && ss_huge_heap_reserve(MIB) == -ENOTSUP,
		   "a reservation of what the free top already holds, and one below a huge page: "
		   "refused");
		free(hole);
		free(above);
		return;
	}
#endif
	ok(ss_huge_heap_reserve(want) == -ENOTSUP, "heap on huge pages: refused under an "
	   "allocator of its own (blocks not below the break)");
	skip(5, "not glibc's heap");
}

int main(void)
{
	plan(12);
	check_alloc();
	check_heap();
	return done_testing();
}
