// SPDX-License-Identifier: GPL-2.0-or-later
/* The recorder's file map: walk, batch, write (mapwrite.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errbuf.h"
#include "fsprobe.h"
#include "mapwrite.h"

#define FILE_BATCH   4096
#define EXTENT_BATCH 8192
#define NAME_POOL    (FILE_BATCH * 64)

struct batch {
	const struct ss_mapwrite_req *q;
	struct ss_rec_file files[FILE_BATCH];
	const char *names[FILE_BATCH];
	size_t nr_files;
	uint32_t first;                  /* number of files[0] */
	char *pool;                      /* the names, NUL-terminated */
	size_t pool_used, pool_cap;
	struct ss_rec_extent ext[EXTENT_BATCH];
	size_t nr_ext;
};

static int flush_files(struct batch *b)
{
	int ret;

	if (!b->nr_files)
		return 0;
	pthread_mutex_lock(b->q->lock);
	ret = ss_writer_files(b->q->w, b->q->id, b->first, b->files, b->names, b->nr_files);
	pthread_mutex_unlock(b->q->lock);
	b->first += (uint32_t)b->nr_files;
	b->nr_files = 0;
	b->pool_used = 0;
	return ret;
}

/* Extents name files by number: the files go first. */
static int flush_extents(struct batch *b)
{
	int ret = flush_files(b);

	if (ret || !b->nr_ext)
		return ret;
	pthread_mutex_lock(b->q->lock);
	ret = ss_writer_extents(b->q->w, b->q->id, b->ext, b->nr_ext);
	pthread_mutex_unlock(b->q->lock);
	b->nr_ext = 0;
	return ret;
}

static int on_file(void *ctx, const struct ss_rec_file *f, const char *name)
{
	struct batch *b = ctx;
	size_t len = strlen(name) + 1;
	int ret;

	if (b->nr_files == FILE_BATCH || b->pool_used + len > b->pool_cap) {
		ret = flush_files(b);
		if (ret)
			return ret;
	}
	if (len > b->pool_cap) {
		char *p = realloc(b->pool, len);

		if (!p)
			return -ENOMEM;
		b->pool = p;
		b->pool_cap = len;
	}
	memcpy(b->pool + b->pool_used, name, len);
	/* the pool does not move between flushes: names stay valid */
	b->names[b->nr_files] = b->pool + b->pool_used;
	b->files[b->nr_files++] = *f;
	b->pool_used += len;
	return 0;
}

static int on_extent(void *ctx, const struct ss_rec_extent *e)
{
	struct batch *b = ctx;

	if (b->nr_ext == EXTENT_BATCH) {
		int ret = flush_extents(b);

		if (ret)
			return ret;
	}
	b->ext[b->nr_ext++] = *e;
	return 0;
}

static void put_u64(const struct ss_mapwrite_req *q, const char *key, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	ss_writer_meta(q->w, key, buf);
}

/* The walk's figures, for the report and for tests. */
static int put_stats(const struct ss_mapwrite_req *q, const struct ss_fsmap_stats *st)
{
	char buf[32];

	pthread_mutex_lock(q->lock);
	ss_writer_meta(q->w, "filemap.root", q->dir);
	put_u64(q, "filemap.files", st->files);
	put_u64(q, "filemap.dirs", st->dirs);
	put_u64(q, "filemap.extents", st->extents);
	put_u64(q, "filemap.no_location", st->no_location);
	put_u64(q, "filemap.skipped", st->skipped);
	put_u64(q, "filemap.changed", st->changed);
	put_u64(q, "filemap.dirs_unmapped", st->dirs_unmapped);
	put_u64(q, "filemap.errors", st->errors);
	if (st->first_error[0])
		ss_writer_meta(q->w, "filemap.first_error", st->first_error);
	snprintf(buf, sizeof(buf), "%.3f", (double)st->elapsed_ns / 1e9);
	ss_writer_meta(q->w, "filemap.seconds", buf);
	if (q->flags & SS_FMAP_AT_END)
		ss_writer_meta(q->w, "filemap.note", "mapped when the workload ended: files it "
			       "deleted are not in the map");
	pthread_mutex_unlock(q->lock);
	return 0;
}

int ss_mapwrite(const struct ss_mapwrite_req *q, struct ss_fsmap_stats *st, char *err,
		size_t errlen)
{
	struct ss_rec_filemap m = {
		.ts_ns = q->ts_ns, .id = q->id, .dev = q->bd->rec.dev, .flags = q->flags,
	};
	struct ss_fsprobe probe = { 0 };
	struct ss_fsmap_opts o = {
		.dir = q->dir, .part_start = q->bd->rec.part_start,
		.file = on_file, .extent = on_extent,
		.no_sync = q->flags & SS_FMAP_NO_SYNC,
	};
	struct batch *b = calloc(1, sizeof(*b));
	int ret;

	memset(st, 0, sizeof(*st));
	if (b)
		b->pool = malloc(NAME_POOL);
	if (!b || !b->pool) {
		if (b)
			free(b);
		ss_errf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	b->q = q;
	b->pool_cap = NAME_POOL;
	o.ctx = b;
	/* where inodes lie: without it the map still has the files and their extents */
	if (q->bd->node[0] && ss_fsprobe_path(q->bd->node, &probe) == 0) {
		o.inodes = &probe.inodes;
		m.inode_size = probe.inodes.inode_size;
		m.chunk_inodes = probe.inodes.chunk_inodes;
		snprintf(m.fstype, sizeof(m.fstype), "%s", probe.fstype);
	}
	snprintf(m.root, sizeof(m.root), "%s", q->dir);
	pthread_mutex_lock(q->lock);
	ret = ss_writer_filemap(q->w, &m);
	pthread_mutex_unlock(q->lock);
	if (!ret)
		ret = ss_fsmap_walk(&o, st, err, errlen);
	if (!ret)
		ret = flush_extents(b);
	if (ret && errlen && !err[0])
		ss_errf(err, errlen, "file map of %s: %s", q->dir, strerror(-ret));
	if (!ret)
		ret = put_stats(q, st);
	ss_fsprobe_release(&probe);
	free(b->pool);
	free(b);
	return ret;
}
