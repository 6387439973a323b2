// SPDX-License-Identifier: GPL-2.0-or-later
/* The work a kworker runs, by pid, and kernel function names (see tasknames.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tasknames.h"

#define WORK_NAME_LEN 32          /* struct ss_rec_task.work */

struct pidwork {
	uint32_t pid;
	bool used;
	uint64_t function;
};

struct sym {
	uint64_t addr;
	uint32_t name;             /* offset into names */
};

struct resolved {
	uint64_t addr;
	char name[WORK_NAME_LEN];
};

struct ss_tasknames {
	char kallsyms[64];
	struct pidwork *slots;     /* open addressing, power of two */
	size_t nr_slots, used;
	struct resolved *cache;    /* names found so far: few distinct work functions */
	size_t nr_cache, cap_cache;
	bool loaded;               /* kallsyms read (successfully or not) */
	uint64_t pow_start, pow_end; /* process_one_work's text (0, 0: not found) */
	struct sym *syms;          /* text symbols, sorted by address */
	size_t nr_syms;
	char *names;
};

struct ss_tasknames *ss_tasknames_new(const char *kallsyms)
{
	struct ss_tasknames *n = calloc(1, sizeof(*n));

	if (n)
		snprintf(n->kallsyms, sizeof(n->kallsyms), "%s",
			 kallsyms ? kallsyms : "/proc/kallsyms");
	return n;
}

void ss_tasknames_free(struct ss_tasknames *n)
{
	if (!n)
		return;
	free(n->slots);
	free(n->cache);
	free(n->syms);
	free(n->names);
	free(n);
}

static struct pidwork *find(const struct ss_tasknames *n, uint32_t pid)
{
	if (!n->nr_slots)
		return NULL;
	for (size_t i = (pid * 0x9e3779b1u >> 7) & (n->nr_slots - 1);;
	     i = (i + 1) & (n->nr_slots - 1))
		if (!n->slots[i].used || n->slots[i].pid == pid)
			return &n->slots[i];
}

static int grow(struct ss_tasknames *n)
{
	size_t old_n = n->nr_slots, nn = old_n ? old_n * 2 : 256;
	struct pidwork *old = n->slots;

	if (!(n->slots = calloc(nn, sizeof(*n->slots)))) {
		n->slots = old;
		return -ENOMEM;
	}
	n->nr_slots = nn;
	for (size_t i = 0; i < old_n; i++)
		if (old[i].used)
			*find(n, old[i].pid) = old[i];
	free(old);
	return 0;
}

int ss_tasknames_work(struct ss_tasknames *n, uint32_t pid, uint64_t function)
{
	struct pidwork *w;

	if ((n->used + 1) * 2 > n->nr_slots && grow(n))
		return -ENOMEM;
	w = find(n, pid);
	if (!w->used) {
		w->used = true;
		w->pid = pid;
		n->used++;
	}
	w->function = function;
	return 0;
}

static int cmp_sym(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The text symbols of kallsyms; on any failure simply none (names then stay ""). */
static void load_kallsyms(struct ss_tasknames *n)
{
	size_t cap = 0, names_len = 0, names_cap = 0, len = 0;
	char *line = NULL;
	FILE *f;

	n->loaded = true;
	if (!(f = fopen(n->kallsyms, "re")))
		return;
	while (getline(&line, &len, f) > 0) {
		unsigned long long addr;
		char type, name[128];
		size_t nl;

		if (sscanf(line, "%llx %c %127s", &addr, &type, name) != 3 || !addr ||
		    (type != 't' && type != 'T'))
			continue;
		nl = strlen(name) + 1;
		if (n->nr_syms == cap) {
			size_t nc = cap ? cap * 2 : 4096;
			struct sym *p = reallocarray(n->syms, nc, sizeof(*p));

			if (!p)
				break;
			n->syms = p;
			cap = nc;
		}
		if (names_len + nl > names_cap) {
			size_t nc = names_cap ? names_cap * 2 : 65536;
			char *p = realloc(n->names, nc);

			if (!p)
				break;
			n->names = p;
			names_cap = nc;
		}
		memcpy(n->names + names_len, name, nl);
		n->syms[n->nr_syms++] = (struct sym){ addr, (uint32_t)names_len };
		names_len += nl;
	}
	free(line);
	fclose(f);
	if (n->nr_syms)
		qsort(n->syms, n->nr_syms, sizeof(*n->syms), cmp_sym);
	/* where the workqueue calls a work function: up to the next symbol */
	for (size_t i = 0; i < n->nr_syms; i++)
		if (!strcmp(n->names + n->syms[i].name, "process_one_work")) {
			size_t j = i + 1;

			n->pow_start = n->syms[i].addr;
			while (j < n->nr_syms && n->syms[j].addr == n->pow_start)
				j++;   /* an alias at the same address */
			n->pow_end = j < n->nr_syms ? n->syms[j].addr : UINT64_MAX;
			break;
		}
}

/* The function at ADDR (the symbol at or below it), "" if unknown. */
static const char *lookup_sym(struct ss_tasknames *n, uint64_t addr)
{
	size_t lo = 0, hi;

	if (!n->loaded)
		load_kallsyms(n);
	hi = n->nr_syms;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (n->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? n->names + n->syms[lo - 1].name : "";
}

uint64_t ss_tasknames_stack_work(struct ss_tasknames *n, const uint64_t *frames, size_t nr)
{
	if (!n->loaded)
		load_kallsyms(n);
	for (size_t i = 1; i < nr && n->pow_start; i++)
		if (frames[i] > n->pow_start && frames[i] <= n->pow_end)
			return frames[i - 1] ? frames[i - 1] - 1 : 0;
	return 0;
}

const char *ss_tasknames_work_of(struct ss_tasknames *n, uint32_t pid)
{
	struct pidwork *w = find(n, pid);
	struct resolved *r;

	if (!w || !w->used)
		return "";
	for (size_t i = 0; i < n->nr_cache; i++)
		if (n->cache[i].addr == w->function)
			return n->cache[i].name;
	if (n->nr_cache == n->cap_cache) {
		size_t nc = n->cap_cache ? n->cap_cache * 2 : 32;
		struct resolved *p = reallocarray(n->cache, nc, sizeof(*p));

		if (!p)
			return "";
		n->cache = p;
		n->cap_cache = nc;
	}
	r = &n->cache[n->nr_cache++];
	r->addr = w->function;
	snprintf(r->name, sizeof(r->name), "%s", lookup_sym(n, w->function));
	return r->name;
}
