// SPDX-License-Identifier: GPL-2.0-or-later
/* File attribution: sorted intervals + binary search over the trace's file maps (filemap.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "filemap.h"
#include "fmapdata.h"

struct ival {
	uint64_t start, end;        /* [start, end) absolute sectors */
	uint64_t maxend;            /* largest end of this and every earlier interval of its dev */
	uint32_t dev;
	uint32_t entry;
};

struct ivals {
	struct ival *v;
	size_t n;
};

struct ss_filemap {
	const struct ss_fmap_data *d;
	struct ivals data;          /* extents of files and directories */
	struct ivals inodes;        /* inodes (ext4) or inode chunks (XFS) of mapped entries */
	uint32_t *top;              /* per map: the entry groups are counted from */
};

static int by_dev_start(const void *a, const void *b)
{
	const struct ival *x = a, *y = b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->entry < y->entry ? -1 : x->entry > y->entry;
}

/* Sort, then the running maximum of ends per device, which makes the search exact even
 * where intervals overlap (shared extents, two names of one inode). */
static void finish(struct ivals *iv)
{
	qsort(iv->v, iv->n, sizeof(*iv->v), by_dev_start);
	for (size_t i = 0; i < iv->n; i++) {
		uint64_t prev = i && iv->v[i - 1].dev == iv->v[i].dev ? iv->v[i - 1].maxend : 0;

		iv->v[i].maxend = iv->v[i].end > prev ? iv->v[i].end : prev;
	}
}

/* First interval of DEV whose running end passes SECTOR: where overlaps can begin. */
static size_t first_after(const struct ivals *iv, uint32_t dev, uint64_t sector)
{
	size_t lo = 0, hi = iv->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct ival *m = &iv->v[mid];

		if (m->dev < dev || (m->dev == dev && m->maxend <= sector))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int build_data(struct ss_filemap *fm)
{
	const struct ss_fmap_data *d = fm->d;

	fm->data.v = calloc(d->nr_extents ? d->nr_extents : 1, sizeof(*fm->data.v));
	if (!fm->data.v)
		return -ENOMEM;
	for (size_t i = 0; i < d->nr_extents; i++) {
		const struct ss_rec_extent *e = &d->extents[i];

		fm->data.v[fm->data.n++] = (struct ival){
			.start = e->sector, .end = e->sector + e->nr_sectors,
			.dev = d->maps[e->reserved].rec.dev, .entry = e->file,
		};
	}
	finish(&fm->data);
	return 0;
}

static int build_inodes(struct ss_filemap *fm)
{
	const struct ss_fmap_data *d = fm->d;

	fm->inodes.v = calloc(d->nr_files ? d->nr_files : 1, sizeof(*fm->inodes.v));
	if (!fm->inodes.v)
		return -ENOMEM;
	for (size_t i = 0; i < d->nr_files; i++) {
		const struct ss_fmap_file *f = &d->files[i];
		const struct ss_rec_filemap *m = &d->maps[f->map].rec;
		uint64_t per = m->inode_size / 512 ? m->inode_size / 512 : 1;
		uint64_t start = f->inode_sector, len = per;

		if (start == SS_SECTOR_NONE || !m->inode_size)
			continue;
		if (m->chunk_inodes) {
			/* XFS: the chunk of chunk_inodes consecutive inodes this one is in */
			uint64_t slot = f->ino % m->chunk_inodes;
			uint64_t back = slot * m->inode_size / 512;

			if (back > start)
				continue;
			start -= back;
			len = ((uint64_t)m->chunk_inodes * m->inode_size + 511) / 512;
		}
		fm->inodes.v[fm->inodes.n++] = (struct ival){
			.start = start, .end = start + len, .dev = m->dev, .entry = (uint32_t)i,
		};
	}
	finish(&fm->inodes);
	return 0;
}

/* Per map, the top that groups count from: DIR, or down a chain of lone directories. */
static int build_tops(struct ss_filemap *fm)
{
	const struct ss_fmap_data *d = fm->d;
	uint32_t *children = calloc(d->nr_files ? d->nr_files : 1, sizeof(*children));
	uint32_t *only = calloc(d->nr_files ? d->nr_files : 1, sizeof(*only));

	fm->top = calloc(d->nr_maps ? d->nr_maps : 1, sizeof(*fm->top));
	if (!children || !only || !fm->top) {
		free(children);
		free(only);
		return -ENOMEM;
	}
	for (size_t i = 0; i < d->nr_files; i++)
		if (d->files[i].parent != SS_FILE_NO_PARENT) {
			children[d->files[i].parent]++;
			only[d->files[i].parent] = (uint32_t)i;
		}
	for (size_t m = 0; m < d->nr_maps; m++) {
		uint32_t t = d->maps[m].first_file;

		if (!d->maps[m].nr_files)
			continue;
		while (children[t] == 1 && d->files[only[t]].kind == SS_FILE_DIR)
			t = only[t];
		fm->top[m] = t;
	}
	free(children);
	free(only);
	return 0;
}

struct ss_filemap *ss_filemap_new(const struct ss_trace *t)
{
	struct ss_filemap *fm = calloc(1, sizeof(*fm));

	if (!fm)
		return NULL;
	fm->d = t->files;
	if (build_data(fm) || build_inodes(fm) || build_tops(fm)) {
		ss_filemap_free(fm);
		errno = ENOMEM;
		return NULL;
	}
	return fm;
}

void ss_filemap_free(struct ss_filemap *fm)
{
	if (!fm)
		return;
	free(fm->data.v);
	free(fm->inodes.v);
	free(fm->top);
	free(fm);
}

bool ss_filemap_known(const struct ss_filemap *fm)
{
	return fm && fm->d->nr_maps > 0;
}

bool ss_filemap_empty(const struct ss_filemap *fm)
{
	return !fm || (!fm->data.n && !fm->inodes.n);
}

#define MAX_SPLIT 16     /* entries a merged request is scored over */

/* ss_filemap_lookup over a map with intervals; HIT set to none by the caller */
static __attribute__((noinline)) enum ss_fm_kind
lookup(const struct ss_filemap *fm, uint32_t dev, uint64_t sector,
			      uint32_t nr, struct ss_fm_hit *hit)
{
	uint64_t end = sector + (nr ? nr : 1);
	struct ss_fm_hit cand[MAX_SPLIT], best = { .entry = -1 }, ino = { .entry = -1 };
	bool ino_inside = false;
	size_t nc = 0;

	if (end < sector)
		return SS_FM_NONE;
	/* sectors per entry: one file may have several extents in the range */
	for (size_t i = first_after(&fm->data, dev, sector);
	     i < fm->data.n && fm->data.v[i].dev == dev && fm->data.v[i].start < end; i++) {
		const struct ival *v = &fm->data.v[i];
		uint64_t lo = v->start > sector ? v->start : sector;
		uint64_t hi = v->end < end ? v->end : end;
		size_t k;

		if (hi <= lo)
			continue;
		for (k = 0; k < nc && cand[k].entry != v->entry; k++)
			;
		if (k == nc) {
			if (nc == MAX_SPLIT)
				continue;
			cand[nc++] = (struct ss_fm_hit){ .entry = v->entry };
		}
		cand[k].sectors += hi - lo;
	}
	for (size_t k = 0; k < nc; k++)
		if (cand[k].sectors > best.sectors)
			best = cand[k];
	/* the inodes, when they hold more of the range: the block layer merges an inode
	 * cluster's write with the directory block next to it */
	for (size_t i = first_after(&fm->inodes, dev, sector);
	     i < fm->inodes.n && fm->inodes.v[i].dev == dev && fm->inodes.v[i].start < end; i++) {
		const struct ival *v = &fm->inodes.v[i];
		uint64_t lo = v->start > sector ? v->start : sector;
		uint64_t hi = v->end < end ? v->end : end;

		uint64_t own = fm->d->files[v->entry].inode_sector;
		bool inside = own >= sector && own < end;

		/* every inode of a chunk has the chunk's interval: the first whose own inode
		 * the range holds, else the first */
		if (hi > lo && (hi - lo > ino.sectors || (hi - lo == ino.sectors && inside &&
							  !ino_inside))) {
			ino = (struct ss_fm_hit){ .entry = v->entry, .sectors = hi - lo };
			ino_inside = inside;
		}
	}
	if (ino.entry >= 0 && ino.sectors > best.sectors) {
		if (hit)
			*hit = ino;
		return SS_FM_INODE;
	}
	if (best.entry >= 0) {
		if (hit)
			*hit = best;
		return fm->d->files[best.entry].kind == SS_FILE_DIR ? SS_FM_DIR : SS_FM_FILE;
	}
	return SS_FM_NONE;
}

enum ss_fm_kind ss_filemap_lookup(const struct ss_filemap *fm, uint32_t dev, uint64_t sector,
				  uint32_t nr, struct ss_fm_hit *hit)
{
	if (hit)
		*hit = (struct ss_fm_hit){ .entry = -1 };
	/* an empty map (a trace without one) answers here, without the search's frame: this
	 * runs twice per request */
	if (ss_filemap_empty(fm) || sector == SS_SECTOR_NONE)
		return SS_FM_NONE;
	return lookup(fm, dev, sector, nr, hit);
}

size_t ss_filemap_inodes_in(const struct ss_filemap *fm, uint32_t dev, uint64_t sector,
			    uint32_t nr, long *out, size_t max)
{
	uint64_t end = sector + (nr ? nr : 1);
	size_t count = 0;

	if (!fm || sector == SS_SECTOR_NONE || end < sector)
		return 0;
	for (size_t i = first_after(&fm->inodes, dev, sector);
	     i < fm->inodes.n && fm->inodes.v[i].dev == dev && fm->inodes.v[i].start < end; i++) {
		if (fm->inodes.v[i].end <= sector)
			continue;
		if (count < max)
			out[count] = fm->inodes.v[i].entry;
		count++;
	}
	return count;
}

size_t ss_filemap_path(const struct ss_filemap *fm, long entry, char *buf, size_t len)
{
	return ss_fmap_data_path(fm->d, (uint32_t)entry, buf, len);
}

unsigned ss_filemap_kind(const struct ss_filemap *fm, long entry)
{
	return fm->d->files[entry].kind;
}

/* The path of E below TOP (of depth TOP_DEPTH) into BUF, "." when E is not below it. */
static size_t below(const struct ss_fmap_data *d, uint32_t top, uint32_t e, char *buf,
		    size_t len)
{
	char tmp[4096];
	size_t tl, pl;

	if (d->files[e].depth <= d->files[top].depth)
		return (size_t)snprintf(buf, len, ".");
	tl = ss_fmap_data_path(d, top, tmp, sizeof(tmp));
	pl = ss_fmap_data_path(d, e, tmp, sizeof(tmp));
	if (pl >= sizeof(tmp) || !pl)
		return (size_t)snprintf(buf, len, "?");
	/* the path below the top: drop "TOP/" */
	return (size_t)snprintf(buf, len, "%s", tmp + (tl ? tl + 1 : 0));
}

size_t ss_filemap_path_below_top(const struct ss_filemap *fm, long entry, char *buf,
				 size_t len)
{
	return below(fm->d, fm->top[fm->d->files[entry].map], (uint32_t)entry, buf, len);
}

size_t ss_filemap_group(const struct ss_filemap *fm, long entry, unsigned depth, char *buf,
			size_t len)
{
	const struct ss_fmap_data *d = fm->d;
	const struct ss_fmap_file *f = &d->files[entry];
	uint32_t top = fm->top[f->map], e = (uint32_t)entry;
	unsigned top_depth = d->files[top].depth;

	if (!depth)
		depth = 1;
	if (f->kind != SS_FILE_DIR)
		e = f->parent;
	/* an entry above the top (on the lone chain) belongs to the top */
	if (d->files[e].depth <= top_depth)
		return (size_t)snprintf(buf, len, ".");
	while (d->files[e].depth > top_depth + depth)
		e = d->files[e].parent;
	return below(d, top, e, buf, len);
}
