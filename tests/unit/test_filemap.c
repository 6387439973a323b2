// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The file map on the render side and the inode arithmetic on the collector side:
 *  - fmapdata: corrupt, out-of-order and out-of-bounds FILEMAP/FILES/EXTENTS payloads are
 *    refused with -EINVAL (a trace carrying one fails to open with one line), never a crash,
 *    and what was accepted before stays usable;
 *  - the filemap index: adjacent and overlapping extents, lookups at their edges, a long
 *    extent covering later short ones, inode chunks;
 *  - groups (plot --color-by dir|file) and the per-directory rows (report), over two traces
 *    written with a map, every figure worked out by hand below;
 *  - ss_inode_sector against hand-worked XFS and ext4 geometry.
 *
 * The map (XFS-like: 512-byte inodes, 64 per chunk), entry: path, inode number @ sector:
 *   0 ""              dir  128 @ 10000    (DIR: the mapped directory)
 *   1 "1"             dir  129 @ 10001    lone directory: the groups' top is below it
 *   2 "1/src"         dir  130 @ 10002    the top (several entries)
 *   3 "1/src/a"       dir  131 @ 10003    blocks [3000, 3008)
 *   4 "1/src/b"       dir  132 @ 10004    blocks [10064, 10072), right after chunk 1
 *   5 "1/src/top.c"   reg  133 @ 10005    [1000, 1008)
 *   6 "1/src/a/x.c"   reg  200 @ 20008    [1008, 1016) adjacent to top.c; [5010, 5012) inside
 *                                         z.c's; [2000, 2016)
 *   7 "1/src/b/y.c"   reg  201 @ 20009    [1012, 1024) overlapping x.c's first
 *   8 "1/src/a/deep"  dir  202 @ 20010
 *   9 "1/src/a/deep/z.c" reg 203 @ 20011  [5000, 5100)
 * Inode chunks: inodes 128..191 at [10000, 10064), 192..255 at [20000, 20064).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "testdir.h"
#include "seekscope/codec.h"
#include "filemap.h"
#include "fmapdata.h"
#include "fsprobe.h"
#include "groups.h"
#include "groupstats.h"
#include "stats.h"
#include "trace_read.h"
#include "trace_write.h"

#define DEV SS_MKDEV(7, 5)
#define MS 1000000ull

static const struct { const char *name; uint32_t parent; uint16_t kind; uint64_t ino, isec; }
ents[] = {
	{ "", SS_FILE_NO_PARENT, SS_FILE_DIR, 128, 10000 },
	{ "1", 0, SS_FILE_DIR, 129, 10001 },
	{ "src", 1, SS_FILE_DIR, 130, 10002 },
	{ "a", 2, SS_FILE_DIR, 131, 10003 },
	{ "b", 2, SS_FILE_DIR, 132, 10004 },
	{ "top.c", 2, SS_FILE_REG, 133, 10005 },
	{ "x.c", 3, SS_FILE_REG, 200, 20008 },
	{ "y.c", 4, SS_FILE_REG, 201, 20009 },
	{ "deep", 3, SS_FILE_DIR, 202, 20010 },
	{ "z.c", 8, SS_FILE_REG, 203, 20011 },
};
#define NR_ENTS (sizeof(ents) / sizeof(ents[0]))

static const struct ss_rec_extent exts[] = {
	{ .sector = 3000, .nr_sectors = 8, .file = 3 },
	{ .sector = 1000, .nr_sectors = 8, .file = 5 },
	{ .sector = 1008, .nr_sectors = 8, .file = 6 },
	{ .logical = 4096, .sector = 5010, .nr_sectors = 2, .file = 6 },
	{ .logical = 5120, .sector = 2000, .nr_sectors = 16, .file = 6 },
	{ .sector = 1012, .nr_sectors = 12, .file = 7 },
	{ .sector = 5000, .nr_sectors = 100, .file = 9 },
	{ .sector = 10064, .nr_sectors = 8, .file = 4 },
};
#define NR_EXTS (sizeof(exts) / sizeof(exts[0]))

static struct ss_rec_filemap map_rec(uint32_t id)
{
	struct ss_rec_filemap m = { .id = id, .dev = DEV, .inode_size = 512, .chunk_inodes = 64 };

	strcpy(m.fstype, "xfs");
	strcpy(m.root, "/mnt");
	return m;
}

static struct ss_rec_file file_rec(size_t i)
{
	return (struct ss_rec_file){ .ino = ents[i].ino, .inode_sector = ents[i].isec,
				     .parent = ents[i].parent, .kind = ents[i].kind,
				     .name_len = (uint16_t)strlen(ents[i].name) };
}

/* A FILES payload: head, then each record and its name padded to 8 bytes. */
static size_t files_payload(unsigned char *buf, uint32_t map, uint32_t first,
			    const struct ss_rec_file *f, const char *const *names, size_t n)
{
	struct ss_rec_files_head h = { .map = map, .first = first };
	size_t off = sizeof(h);

	memcpy(buf, &h, sizeof(h));
	for (size_t i = 0; i < n; i++) {
		size_t nl = f[i].name_len, padded = (nl + 7) / 8 * 8;

		memcpy(buf + off, &f[i], sizeof(f[i]));
		off += sizeof(f[i]);
		memset(buf + off, 0, padded);
		memcpy(buf + off, names[i], strlen(names[i]) < nl ? strlen(names[i]) : nl);
		off += padded;
	}
	return off;
}

static size_t extents_payload(unsigned char *buf, uint32_t map, const struct ss_rec_extent *e,
			      size_t n)
{
	struct ss_rec_files_head h = { .map = map };

	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), e, n * sizeof(*e));
	return sizeof(h) + n * sizeof(*e);
}

/* Load the whole map of the comment into D. */
static int load_map(struct ss_fmap_data *d)
{
	struct ss_rec_filemap m = map_rec(0);
	struct ss_rec_file f[NR_ENTS];
	const char *names[NR_ENTS];
	unsigned char buf[4096];
	size_t len;
	int ret;

	for (size_t i = 0; i < NR_ENTS; i++) {
		f[i] = file_rec(i);
		names[i] = ents[i].name;
	}
	if ((ret = ss_fmap_data_add_map(d, &m, sizeof(m))))
		return ret;
	/* in two records, as the writer splits batches */
	len = files_payload(buf, 0, 0, f, names, 4);
	if ((ret = ss_fmap_data_add_files(d, buf, len)))
		return ret;
	len = files_payload(buf, 0, 4, f + 4, names + 4, NR_ENTS - 4);
	if ((ret = ss_fmap_data_add_files(d, buf, len)))
		return ret;
	len = extents_payload(buf, 0, exts, NR_EXTS);
	return ss_fmap_data_add_extents(d, buf, len);
}

static void test_fmapdata_refuses(void)
{
	struct ss_fmap_data d = { 0 };
	struct ss_rec_filemap m = map_rec(0), m1 = map_rec(1);
	struct ss_rec_file f[3] = { file_rec(0), file_rec(1), file_rec(5) };
	const char *names[3] = { "", "1", "top.c" };
	struct ss_rec_extent e = { .sector = 100, .nr_sectors = 8, .file = 1 };
	unsigned char buf[1024];
	size_t len;
	char path[64];

	len = files_payload(buf, 0, 0, f, names, 1);
	is_int(ss_fmap_data_add_files(&d, buf, len), -EINVAL, "FILES before any FILEMAP: refused");
	len = extents_payload(buf, 0, &e, 1);
	is_int(ss_fmap_data_add_extents(&d, buf, len), -EINVAL, "EXTENTS before any FILEMAP");
	is_int(ss_fmap_data_add_map(&d, &m1, sizeof(m1)), -EINVAL, "a map numbered 1 first");
	is_int(ss_fmap_data_add_map(&d, &m, sizeof(m) - 1), -EINVAL, "a short FILEMAP");
	is_int(ss_fmap_data_add_map(&d, &m, sizeof(m)), 0, "map 0");
	is_int(ss_fmap_data_add_map(&d, &m, sizeof(m)), -EINVAL, "map 0 again (out of order)");

	len = files_payload(buf, 0, 1, f, names, 1);
	is_int(ss_fmap_data_add_files(&d, buf, len), -EINVAL, "FILES starting at 1 before 0");
	len = files_payload(buf, 1, 0, f, names, 1);
	is_int(ss_fmap_data_add_files(&d, buf, len), -EINVAL, "FILES of map 1 (not open)");
	len = files_payload(buf, 0, 0, f + 1, names + 1, 1);
	is_int(ss_fmap_data_add_files(&d, buf, len), -EINVAL, "entry 0 with a parent");
	{
		struct ss_rec_file r = f[2];

		r.parent = SS_FILE_NO_PARENT;
		len = files_payload(buf, 0, 0, &r, names + 2, 1);
		is_int(ss_fmap_data_add_files(&d, buf, len), -EINVAL, "entry 0 a regular file");
	}
	len = files_payload(buf, 0, 0, f, names, 2);
	is_int(ss_fmap_data_add_files(&d, buf, len - 3), -EINVAL, "a payload cut inside a name");
	is_int(ss_fmap_data_add_files(&d, buf, sizeof(struct ss_rec_files_head) + 10), -EINVAL,
	       "a payload cut inside a record");
	is_int(ss_fmap_data_add_files(&d, buf, 3), -EINVAL, "a payload shorter than its head");
	len = files_payload(buf, 0, 0, f, names, 1);
	is_int(ss_fmap_data_add_files(&d, buf, len), 0, "DIR");
	{
		struct ss_rec_file r = f[1];

		r.parent = 5;
		len = files_payload(buf, 0, 1, &r, names + 1, 1);
		is_int(ss_fmap_data_add_files(&d, buf, len), -EINVAL,
		       "a parent that comes later (out of bounds)");
		r.parent = 0;
		r.kind = 7;
		len = files_payload(buf, 0, 1, &r, names + 1, 1);
		is_int(ss_fmap_data_add_files(&d, buf, len), -EINVAL, "an unknown kind");
		r.kind = SS_FILE_DIR;
		r.name_len = 3;
		len = files_payload(buf, 0, 1, &r, (const char *[]){ "a/b" }, 1);
		is_int(ss_fmap_data_add_files(&d, buf, len), -EINVAL, "a name with a slash");
		len = files_payload(buf, 0, 1, &r, (const char *[]){ "a" }, 1);
		is_int(ss_fmap_data_add_files(&d, buf, len), -EINVAL, "a name with a NUL");
		r.name_len = 200;
		len = files_payload(buf, 0, 1, &r, (const char *[]){ "a" }, 1);
		is_int(ss_fmap_data_add_files(&d, buf, len - 200), -EINVAL,
		       "a name longer than its payload");
	}
	len = files_payload(buf, 0, 1, f + 2, names + 2, 1);   /* top.c, parent 2: not yet */
	is_int(ss_fmap_data_add_files(&d, buf, len), -EINVAL, "a parent not yet seen");
	{
		struct ss_rec_file r = f[2];

		r.parent = 0;
		len = files_payload(buf, 0, 1, &r, names + 2, 1);
		is_int(ss_fmap_data_add_files(&d, buf, len), 0, "top.c under DIR");
		r.parent = 1;                                    /* a regular file as parent */
		len = files_payload(buf, 0, 2, &r, names + 2, 1);
		is_int(ss_fmap_data_add_files(&d, buf, len), -EINVAL, "a regular file's child");
	}
	len = extents_payload(buf, 0, &e, 1);
	is_int(ss_fmap_data_add_extents(&d, buf, len), 0, "an extent of entry 1");
	e.file = 2;
	len = extents_payload(buf, 0, &e, 1);
	is_int(ss_fmap_data_add_extents(&d, buf, len), -EINVAL, "an extent of entry 2 (no such)");
	e.file = 1;
	e.nr_sectors = 0;
	len = extents_payload(buf, 0, &e, 1);
	is_int(ss_fmap_data_add_extents(&d, buf, len), -EINVAL, "an empty extent");
	e.nr_sectors = 8;
	e.sector = UINT64_MAX - 4;
	len = extents_payload(buf, 0, &e, 1);
	is_int(ss_fmap_data_add_extents(&d, buf, len), -EINVAL, "an extent past the last sector");
	is_int(ss_fmap_data_add_extents(&d, buf, len - 1), -EINVAL, "a cut extent");
	is_int(ss_fmap_data_add_extents(&d, buf, len), -EINVAL, "... still refused");

	ok(d.nr_maps == 1 && d.nr_files == 2 && d.nr_extents == 1,
	   "what was accepted stays: 1 map, 2 entries, 1 extent (%zu, %zu, %zu)", d.nr_maps,
	   d.nr_files, d.nr_extents);
	ss_fmap_data_path(&d, 1, path, sizeof(path));
	is_str(path, "top.c", "... and its paths build");
	ss_fmap_data_free(&d);
}

/* A trace whose EXTENTS record names a file its map does not have fails to open. */
static void test_corrupt_trace(void)
{
	struct ss_rec_filemap m = map_rec(0);
	struct ss_rec_file f = file_rec(0);
	struct ss_rec_extent e = { .sector = 8, .nr_sectors = 8, .file = 3 };
	struct ss_rec_device dv = { .dev = DEV, .major = 7, .minor = 5, .logical_block_size = 512,
				    .nr_sectors = 1 << 20, .part_nr_sectors = 1 << 20 };
	const char *nm[] = { "" };
	char err[256] = "";
	struct ss_writer *w = ss_writer_open(tpath("bad.sst"), SS_OUT_INPLACE, NULL, 0);
	struct ss_trace *t;
	int ret = 0;

	if (!ok(w != NULL, "writer for a corrupt map"))
		return;
	ret |= ss_writer_device(w, &dv);
	ret |= ss_writer_filemap(w, &m);
	ret |= ss_writer_files(w, 0, 0, &f, nm, 1);
	ret |= ss_writer_extents(w, 0, &e, 1);
	ret |= ss_writer_close(w);
	is_int(ret, 0, "written");
	t = ss_trace_open(tpath("bad.sst"), err, sizeof(err));
	ok(!t && strstr(err, "corrupt file map record at offset"),
	   "refused with one line (%s)", err);
	ss_trace_close(t);
}

static void test_index(void)
{
	struct ss_fmap_data d = { 0 };
	struct ss_trace t = { .files = &d };
	struct ss_filemap *fm;
	struct ss_fm_hit hit;
	long out[16];
	char buf[256];

	if (!ok(load_map(&d) == 0, "the map loads"))
		goto out;
	is_int(d.nr_files, NR_ENTS, "... every entry");
	if (!ok((fm = ss_filemap_new(&t)) != NULL, "indexed"))
		goto out;
	ok(ss_filemap_known(fm), "known");
#define LOOK(s, n, kind, ent, secs, what)                                                    \
	do {                                                                                 \
		enum ss_fm_kind k_ = ss_filemap_lookup(fm, DEV, s, n, &hit);                \
		ok(k_ == (kind) && hit.entry == (ent) && hit.sectors == (secs),              \
		   "%s: kind %d entry %ld, %llu sectors", what, k_, hit.entry,              \
		   (unsigned long long)hit.sectors);                                         \
	} while (0)
	LOOK(1000, 8, SS_FM_FILE, 5, 8, "top.c exactly");
	LOOK(1007, 1, SS_FM_FILE, 5, 1, "top.c's last sector");
	LOOK(1008, 1, SS_FM_FILE, 6, 1, "x.c's first sector, adjacent to top.c");
	LOOK(999, 1, SS_FM_NONE, -1, 0, "the sector before top.c");
	LOOK(1024, 1, SS_FM_NONE, -1, 0, "the sector after y.c");
	LOOK(999, 2, SS_FM_FILE, 5, 1, "a request straddling top.c's start: 1 sector in it");
	LOOK(1004, 8, SS_FM_FILE, 5, 4, "4 in top.c, 4 in x.c: the first by sector wins the tie");
	LOOK(1012, 4, SS_FM_FILE, 6, 4, "in x.c and y.c (overlapping): the tie to x.c");
	LOOK(1012, 12, SS_FM_FILE, 7, 12, "4 in x.c, 12 in y.c: y.c");
	LOOK(5090, 1, SS_FM_FILE, 9, 1, "z.c past the short extent inside it (running end)");
	LOOK(5099, 1, SS_FM_FILE, 9, 1, "z.c's last sector");
	LOOK(5010, 2, SS_FM_FILE, 9, 2, "x.c's extent inside z.c: the tie to z.c");
	LOOK(5011, 0, SS_FM_FILE, 9, 1, "nr 0 counts as one sector");
	LOOK(2015, 1, SS_FM_FILE, 6, 1, "x.c's third extent, last sector");
	LOOK(3000, 8, SS_FM_DIR, 3, 8, "directory a's block");
	LOOK(10000, 1, SS_FM_INODE, 0, 1, "the first inode chunk's first sector: inodes");
	LOOK(10063, 1, SS_FM_INODE, 0, 1, "... its last sector");
	LOOK(10064, 1, SS_FM_DIR, 4, 1, "... the sector after it: directory b");
	LOOK(10000, 72, SS_FM_INODE, 0, 64, "the chunk and b's block (merged): 64 in inodes, 8 in b");
	LOOK(10056, 16, SS_FM_DIR, 4, 8, "8 in the chunk, 8 in b: the tie to the directory");
	LOOK(10060, 12, SS_FM_DIR, 4, 8, "4 in the chunk, 8 in b: b");
	LOOK(10072, 1, SS_FM_NONE, -1, 0, "the sector after b's block");
	LOOK(19999, 2, SS_FM_INODE, 6, 1, "straddling the second chunk's start");
	LOOK(20010, 2, SS_FM_INODE, 8, 2, "the chunk's part with deep's inode: deep, not x.c");
	LOOK(20032, 32, SS_FM_INODE, 6, 32, "a part with no mapped inode: the chunk's first");
	LOOK(SS_SECTOR_NONE, 8, SS_FM_NONE, -1, 0, "no sector (a flush)");
	LOOK(UINT64_MAX - 2, 8, SS_FM_NONE, -1, 0, "a range wrapping past the last sector");
	ok(ss_filemap_lookup(fm, SS_MKDEV(7, 6), 1000, 8, NULL) == SS_FM_NONE,
	   "another device: nothing (HIT may be NULL)");
	is_int(ss_filemap_inodes_in(fm, DEV, 10000, 64, out, 16), 6,
	       "chunk 1 holds 6 mapped inodes");
	is_int(ss_filemap_inodes_in(fm, DEV, 20000, 8, out, 2), 4,
	       "chunk 2 holds 4 (counted past MAX)");
	ok(out[0] >= 6 && out[1] >= 6, "... the first two written are of entries 6..9");
	is_int(ss_filemap_inodes_in(fm, DEV, 10064, 9936, out, 16), 0, "between the chunks: none");
	is_int(ss_filemap_inodes_in(fm, DEV, 10063, 2, out, 16), 6, "the chunk's last sector: 6");

	ss_filemap_path(fm, 9, buf, sizeof(buf));
	is_str(buf, "1/src/a/deep/z.c", "path of z.c");
	ss_filemap_path_below_top(fm, 9, buf, sizeof(buf));
	is_str(buf, "a/deep/z.c", "... below the top (1/src)");
	ss_filemap_path_below_top(fm, 1, buf, sizeof(buf));
	is_str(buf, ".", "an entry above the top: .");
	ss_filemap_group(fm, 9, 1, buf, sizeof(buf));
	is_str(buf, "a", "z.c's group at depth 1: a");
	ss_filemap_group(fm, 9, 2, buf, sizeof(buf));
	is_str(buf, "a/deep", "... at depth 2: a/deep");
	ss_filemap_group(fm, 9, 5, buf, sizeof(buf));
	is_str(buf, "a/deep", "... deeper than it lies: its own directory");
	ss_filemap_group(fm, 5, 1, buf, sizeof(buf));
	is_str(buf, ".", "top.c (right in the top): .");
	ss_filemap_group(fm, 3, 1, buf, sizeof(buf));
	is_str(buf, "a", "directory a: a");
	ss_filemap_free(fm);
out:
	ss_fmap_data_free(&d);
}

/* A trace with the map and these data writes (issue at i ms, completion 1 ms later). */
static int write_trace(const char *path, const uint64_t (*req)[2], size_t n)
{
	struct ss_rec_device dv = { .dev = DEV, .major = 7, .minor = 5, .logical_block_size = 512,
				    .nr_sectors = 1 << 21, .part_nr_sectors = 1 << 21 };
	struct ss_rec_filemap m = map_rec(0);
	struct ss_rec_file f[NR_ENTS];
	const char *names[NR_ENTS];
	struct ss_writer *w = ss_writer_open(path, SS_OUT_INPLACE, NULL, 0);
	int ret = 0;

	if (!w)
		return -errno;
	for (size_t i = 0; i < NR_ENTS; i++) {
		f[i] = file_rec(i);
		names[i] = ents[i].name;
	}
	strcpy(dv.name, "loop5");
	ret |= ss_writer_device(w, &dv);
	for (size_t i = 0; i < n; i++) {
		struct ss_event ev[2];

		for (int k = 0; k < 2; k++)
			ev[k] = (struct ss_event){ .ts_ns = (2 * i + 1 + k) * MS, .sector = req[i][0],
						   .nr_sector = (uint32_t)req[i][1],
						   .bytes = (uint32_t)req[i][1] * 512, .dev = DEV,
						   .type = k ? SS_EV_COMPLETE : SS_EV_ISSUE,
						   .flags = SS_RW_WRITE, .pid = 42 };
		ret |= ss_writer_events(w, ev, 2);
	}
	ret |= ss_writer_filemap(w, &m);
	ret |= ss_writer_files(w, 0, 0, f, names, NR_ENTS);
	ret |= ss_writer_extents(w, 0, exts, NR_EXTS);
	ret |= ss_writer_close(w);
	return ret ? -EIO : 0;
}

/*
 * Trace A: top.c, x.c (contiguous), z.c (seek), dir a (seek), inode chunk 1 (seek), a sector
 * the map does not know (seek), x.c's third extent (seek).  Trace B: y.c five times (1024
 * back to 1012 is within the seek threshold: no seeks).
 *  by dir, A: a 4 (x.c twice, z.c, the directory), "." 1, inodes 1, unknown 1; B: b 5.
 */
static const uint64_t reqs_a[][2] = {
	{ 1000, 8 }, { 1008, 8 }, { 5000, 100 }, { 3000, 8 }, { 10000, 8 }, { 900000, 8 },
	{ 2000, 16 },
};
static const uint64_t reqs_b[][2] = {
	{ 1012, 12 }, { 1012, 12 }, { 1012, 12 }, { 1012, 12 }, { 1012, 12 },
};

static void test_groups(void)
{
	const struct ss_group_spec by_dir = { .by = SS_GROUP_DIR, .depth = 1 };
	const struct ss_group_spec by_file = { .by = SS_GROUP_FILE };
	struct ss_trace *t[2] = { NULL, NULL };
	struct ss_groups g;
	struct ss_group_slots *s;
	struct ss_stats_opts o;
	struct ss_stats *st;
	const struct ss_group_stats *gs;
	char err[256] = "";
	uint64_t ios = 0, seeks = 0, bytes = 0;

	if (!ok(write_trace(tpath("a.sst"), reqs_a, 7) == 0 &&
		write_trace(tpath("b.sst"), reqs_b, 5) == 0, "two traces with a map written"))
		return;
	t[0] = ss_trace_open(tpath("a.sst"), err, sizeof(err));
	t[1] = ss_trace_open(tpath("b.sst"), err, sizeof(err));
	if (!ok(t[0] && t[1], "they open (%s)", err))
		goto out;

	is_int(ss_groups_rank(&by_dir, t, NULL, 1, NULL, 8, &g, err, sizeof(err)), 0, "A ranked by dir");
	ok(g.n == 3 && !strcmp(g.name[0], "a") && g.issues[0] == 4 && !strcmp(g.name[1], ".") &&
	   !strcmp(g.name[2], SS_GROUP_INODES), "a 4, then the ties by name: '.', inodes");
	ok(g.unknown_slot && g.unknown == 1 && g.other == 0, "unknown: 1, its own slot, not ranked");
	is_int(ss_groups_slot(&g, SS_GROUP_UNKNOWN_FILE), 4, "unknown's slot: n + 1");
	is_int(ss_groups_nr_slots(&g), 5, "5 colour slots");
	ss_groups_rank(&by_dir, t, NULL, 1, NULL, 1, &g, err, sizeof(err));
	ok(g.n == 1 && g.other == 2 && g.unknown == 1, "top 1: '.' and inodes are other");

	is_int(ss_groups_rank(&by_dir, t, NULL, 2, NULL, 8, &g, err, sizeof(err)), 0, "A and B ranked");
	ok(g.n == 4 && !strcmp(g.name[0], "b") && g.issues[0] == 5 && !strcmp(g.name[1], "a"),
	   "over both: b 5 first, then a 4");
	for (int i = 0; i < 2; i++) {
		struct ss_event ev = { .dev = DEV, .sector = 1008, .nr_sector = 8,
				       .type = SS_EV_ISSUE };

		s = ss_group_slots_new(&g, t[i]);
		if (!ok(s != NULL, "slots of trace %d", i))
			continue;
		is_int(ss_group_slots_get(s, &ev, NULL), 1, "trace %d: x.c's request is a's slot 1", i);
		ev.sector = 7;
		is_int(ss_group_slots_get(s, &ev, NULL), 5, "trace %d: an unmapped one unknown's", i);
		ss_group_slots_free(s);
	}

	is_int(ss_groups_rank(&by_file, t, NULL, 1, NULL, 8, &g, err, sizeof(err)), 0, "A by file");
	ok(g.n == 5 && !strcmp(g.name[0], "a/x.c") && g.issues[0] == 2 && !strcmp(g.name[1], "a") &&
	   !strcmp(g.name[2], "a/deep/z.c") && !strcmp(g.name[3], SS_GROUP_INODES) &&
	   !strcmp(g.name[4], "top.c"), "x.c 2, then by name: a (its blocks), a/deep/z.c, "
	   "inodes, top.c (%s %s %s %s %s)", g.name[0], g.name[1], g.name[2], g.name[3], g.name[4]);

	/* the per-directory rows of report */
	ss_stats_opts_init(&o);
	o.dirs = true;
	st = ss_stats_new(t[0], &o);
	if (!ok(st && ss_stats_run(st, t[0]) == 0, "statistics with per-directory rows"))
		goto nostats;
	gs = ss_stats_dirs(st);
	ok(gs && ss_group_stats_mapped(gs), "rows, mapped");
	is_int(ss_group_stats_count(gs), 4, "four rows: a, ., inodes, unknown");
	{
		const struct ss_group_row *r = ss_group_stats_row(gs, 0);

		ok(r && !strcmp(r->name, "a") && r->ios == 4 && r->seeks == 3 &&
		   r->bytes == (8 + 100 + 8 + 16) * 512, "a: 4 I/Os, 132 sectors, 3 seeks");
	}
	for (size_t i = 0; i < ss_group_stats_count(gs); i++) {
		const struct ss_group_row *r = ss_group_stats_row(gs, i);

		ios += r->ios;
		seeks += r->seeks;
		bytes += r->bytes;
		if (r->group == 0)
			ok(r->ios == 1 && r->seeks == 1, "unknown: 1 I/O, 1 seek");
		if (r->group == 1)
			ok(r->ios == 1 && r->bytes == 4096, "inodes: 1 I/O, 4096 bytes");
	}
	ok(ios == ss_stats_total(st)->ios && seeks == ss_stats_total(st)->seeks &&
	   bytes == ss_stats_total(st)->write_bytes,
	   "the rows add up to the trace's I/Os, seeks and bytes (%llu, %llu)",
	   (unsigned long long)ios, (unsigned long long)seeks);
nostats:
	ss_stats_free(st);
out:
	ss_trace_close(t[0]);
	ss_trace_close(t[1]);
}

static void test_inode_sector(void)
{
	/* XFS, 4 KiB blocks, 512-byte inodes (8 per block: inopblog 3), 65500 blocks per AG
	 * (agblklog 16): ino = agno << 19 | agbno << 3 | slot */
	struct ss_inode_geom x = { .inode_size = 512, .chunk_inodes = 64, .block_size = 4096,
				   .agblocks = 65500, .agblklog = 16, .inopblog = 3 };
	uint64_t itable[3] = { 1058, 1058 + 32768 + 2, 1058 + 2 * 32768 + 4 };
	struct ss_inode_geom e = { .inode_size = 256, .block_size = 4096,
				   .inodes_per_group = 8192, .itable = itable, .nr_groups = 3 };

	/* 128: AG 0, block 16, slot 0 -> byte 65536 (the root inode of a default mkfs.xfs) */
	is_int(ss_inode_sector(&x, 128), 128, "XFS inode 128: sector 128");
	/* 2 << 19 | 100 << 3 | 5 = 1049381: byte (2 * 65500 + 100) * 4096 + 5 * 512 =
	 * 536988160 -> sector 1048805 (not the inode number: agblocks is no power of 2) */
	is_int(ss_inode_sector(&x, 1049381), 1048805, "XFS inode 1049381 (AG 2): sector 1048805");
	/* 1 << 19 | 65499 << 3 | 7: the last inode of AG 1: ((65500 + 65499) * 4096 + 3584) / 512 */
	is_int(ss_inode_sector(&x, (1ull << 19) | (65499u << 3) | 7), 1047999,
	       "XFS: the last inode of AG 1: sector 1047999");
	is_int(ss_inode_sector(&x, 65500u << 3), SS_SECTOR_NONE, "XFS: block 65500 is past the AG");
	x.agblklog = 60;
	x.inopblog = 4;
	is_int(ss_inode_sector(&x, 128), SS_SECTOR_NONE, "XFS: a 64-bit shift is refused");
	x.inode_size = 0;
	is_int(ss_inode_sector(&x, 128), SS_SECTOR_NONE, "no inode size: unknown");

	/* ext4, 4 KiB blocks, 256-byte inodes, 8192 per group */
	is_int(ss_inode_sector(&e, 1), 1058 * 8, "ext4 inode 1: the table's first sector 8464");
	/* 12: index 11 -> 1058 * 4096 + 2816 = 4336384 -> sector 8469 (and a half) */
	is_int(ss_inode_sector(&e, 12), 8469, "ext4 inode 12: sector 8469");
	is_int(ss_inode_sector(&e, 8192), (1058 * 4096 + 8191 * 256) / 512,
	       "ext4 inode 8192: group 0's last");
	is_int(ss_inode_sector(&e, 8193), (1058 + 32768 + 2) * 8, "ext4 inode 8193: group 1's first");
	is_int(ss_inode_sector(&e, 3 * 8192), (itable[2] * 4096 + 8191 * 256) / 512,
	       "ext4: the last inode of the last group");
	is_int(ss_inode_sector(&e, 3 * 8192 + 1), SS_SECTOR_NONE, "ext4: past the last group");
	is_int(ss_inode_sector(&e, 0), SS_SECTOR_NONE, "ext4: inode 0 does not exist");
}

int main(void)
{
	test_fmapdata_refuses();
	test_index();
	test_inode_sector();
	if (testdir_make("filemap"))
		return done_testing();
	test_corrupt_trace();
	test_groups();
	return done_testing();
}
