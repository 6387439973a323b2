// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ext2/3/4 part of the filesystem probe: opens the filesystem read-only with libext2fs and
 * reports its block groups (or flex groups), inode table runs and internal journal extents.
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <ext2fs/ext2fs.h>

#include "fsprobe_int.h"

/*
 * Past this many block groups, one zone per group is too fine to label on a plot (a 1 TiB ext4
 * has 8192); flex groups are the unit the allocator actually spreads over, so use them.
 */
#define EXT_MAX_PLAIN_GROUPS 256

/* libext2fs returns errno values for system errors and com_err codes for everything else. */
static int ext_errno(errcode_t err)
{
	if (err > 0 && err < 4096)
		return -(int)err;
	switch (err) {
	case EXT2_ET_NO_MEMORY:
		return -ENOMEM;
	case EXT2_ET_SHORT_READ:
	case EXT2_ET_LLSEEK_FAILED:
		return -EIO;
	case EXT2_ET_UNSUPP_FEATURE:
	case EXT2_ET_RO_UNSUPP_FEATURE:
		return -EOPNOTSUPP;
	default:
		return -EUCLEAN;    /* bad magic, bad descriptors, checksum errors, ... */
	}
}

/*
 * Check the block count against the device before libext2fs sizes its group descriptor array
 * from it: a hostile image claiming 2^48 blocks must not get that far.
 */
static int check_size(int fd, uint64_t dev_bytes)
{
	struct ext2_super_block sb;
	uint64_t blocks;
	uint32_t log;
	ssize_t n;

	if (!dev_bytes)
		return 0;
	do
		n = pread(fd, &sb, sizeof(sb), SUPERBLOCK_OFFSET);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if (n != (ssize_t)sizeof(sb) || le16toh(sb.s_magic) != EXT2_SUPER_MAGIC)
		return -EUCLEAN;
	log = le32toh(sb.s_log_block_size);
	if (log > EXT2_MAX_BLOCK_LOG_SIZE - EXT2_MIN_BLOCK_LOG_SIZE)
		return -EUCLEAN;
	blocks = le32toh(sb.s_blocks_count);
	if (le32toh(sb.s_feature_incompat) & EXT4_FEATURE_INCOMPAT_64BIT)
		blocks |= (uint64_t)le32toh(sb.s_blocks_count_hi) << 32;
	if (blocks > dev_bytes >> (EXT2_MIN_BLOCK_LOG_SIZE + log))
		return -EUCLEAN;
	return 0;
}

/* Block groups, or flex groups when there are many: see EXT_MAX_PLAIN_GROUPS. */
static int add_groups(ext2_filsys fs, struct ss_zone_vec *zv)
{
	uint64_t groups = fs->group_desc_count, per = 1, bb = fs->blocksize / 512;
	unsigned log = fs->super->s_log_groups_per_flex;
	const char *fmt = "group %llu";
	char label[32];

	if (groups > EXT_MAX_PLAIN_GROUPS && ext2fs_has_feature_flex_bg(fs->super) &&
	    log > 0 && log < 32) {
		per = (uint64_t)1 << log;
		fmt = "flex %llu";
	}
	for (uint64_t z = 0; z * per < groups; z++) {
		uint64_t last = (z + 1) * per < groups ? (z + 1) * per - 1 : groups - 1;
		blk64_t start = ext2fs_group_first_block2(fs, (dgrp_t)(z * per));
		blk64_t end = ext2fs_group_last_block2(fs, (dgrp_t)last);
		int ret;

		if (end < start)
			return -EUCLEAN;
		snprintf(label, sizeof(label), fmt, (unsigned long long)z);
		ret = ss_zone_vec_push(zv, SS_ZONE_GROUP, (uint32_t)z, start * bb,
				       (end - start + 1) * bb, label);
		if (ret)
			return ret;
	}
	return 0;
}

static int push_itable_run(ext2_filsys fs, struct ss_zone_vec *zv, dgrp_t first, dgrp_t last,
			   blk64_t start, blk64_t end)
{
	uint64_t bb = fs->blocksize / 512;
	char label[32];

	if (first == last)
		snprintf(label, sizeof(label), "itable %u", first);
	else
		snprintf(label, sizeof(label), "itable %u-%u", first, last);
	return ss_zone_vec_push(zv, SS_ZONE_INODE_TABLE, first, start * bb, (end - start) * bb,
				label);
}

/* Inode tables, merged where they touch: flex_bg packs a flex group's tables back to back. */
static int add_itables(ext2_filsys fs, struct ss_zone_vec *zv)
{
	blk64_t nblocks = ext2fs_blocks_count(fs->super), per = fs->inode_blocks_per_group;
	blk64_t start = 0, end = 0;     /* current run, [start, end) in blocks */
	dgrp_t first = 0;
	int ret;

	if (!per)
		return 0;
	for (dgrp_t g = 0; g < fs->group_desc_count; g++) {
		blk64_t loc = ext2fs_inode_table_loc(fs, g);

		if (loc < fs->super->s_first_data_block || loc >= nblocks || per > nblocks - loc)
			return -EUCLEAN;
		if (end && loc == end) {
			end += per;
			continue;
		}
		if (end) {
			ret = push_itable_run(fs, zv, first, g - 1, start, end);
			if (ret)
				return ret;
		}
		first = g;
		start = loc;
		end = loc + per;
	}
	if (end)
		return push_itable_run(fs, zv, first, fs->group_desc_count - 1, start, end);
	return 0;
}

struct journal_walk {
	struct ss_zone_vec *zv;
	blk64_t start, end;             /* current extent, [start, end) in blocks */
	blk64_t min, max;               /* valid block numbers, [min, max) */
	uint32_t index;                 /* extents emitted so far */
	uint64_t bb;
	int err;
};

static int journal_flush(struct journal_walk *w)
{
	int ret;

	if (w->end == w->start)
		return 0;
	ret = ss_zone_vec_push(w->zv, SS_ZONE_JOURNAL, w->index++, w->start * w->bb,
			       (w->end - w->start) * w->bb, "journal");
	w->start = w->end = 0;
	return ret;
}

/*
 * Called for every block of the journal inode, mapping blocks (ext3's indirect blocks, extent
 * tree blocks) included: they sit inside the journal area, so leaving them out would cut the
 * journal of an ext3 into a thousand slivers.
 */
static int journal_block(ext2_filsys fs, blk64_t *blocknr, e2_blkcnt_t blockcnt, blk64_t ref_blk,
			 int ref_offset, void *priv)
{
	struct journal_walk *w = priv;
	blk64_t b = *blocknr;

	(void)fs, (void)blockcnt, (void)ref_blk, (void)ref_offset;
	if (b < w->min || b >= w->max) {
		w->err = -EUCLEAN;
		return BLOCK_ABORT;
	}
	if (w->end != w->start && b == w->end) {
		w->end++;
		return 0;
	}
	w->err = journal_flush(w);
	if (w->err)
		return BLOCK_ABORT;
	w->start = b;
	w->end = b + 1;
	return 0;
}

/* The internal journal's physical extents; an external journal (or none) adds nothing. */
static int add_journal(ext2_filsys fs, struct ss_zone_vec *zv)
{
	struct journal_walk w = {
		.zv = zv,
		.min = fs->super->s_first_data_block,
		.max = ext2fs_blocks_count(fs->super),
		.bb = fs->blocksize / 512,
	};
	ext2_ino_t ino = fs->super->s_journal_inum;
	errcode_t err;

	if (!ext2fs_has_feature_journal(fs->super) || !ino)
		return 0;
	err = ext2fs_block_iterate3(fs, ino, BLOCK_FLAG_READ_ONLY, NULL, journal_block, &w);
	if (w.err)
		return w.err;
	if (err)
		return ext_errno(err);
	return journal_flush(&w);
}

/* Where each group's inode table starts: inode numbers count through them (ss_inode_sector). */
static int inode_geom(ext2_filsys fs, struct ss_inode_geom *g)
{
	uint64_t *itable = calloc(fs->group_desc_count ? fs->group_desc_count : 1,
				  sizeof(*itable));

	if (!itable)
		return -ENOMEM;
	for (dgrp_t grp = 0; grp < fs->group_desc_count; grp++)
		itable[grp] = ext2fs_inode_table_loc(fs, grp);
	*g = (struct ss_inode_geom){
		.inode_size = (uint32_t)EXT2_INODE_SIZE(fs->super),
		.block_size = fs->blocksize,
		.inodes_per_group = fs->super->s_inodes_per_group,
		.itable = itable,
		.nr_groups = fs->group_desc_count,
	};
	return 0;
}

int ss_ext_probe(const char *path, int fd, uint64_t dev_bytes, struct ss_fsprobe *out)
{
	struct ss_zone_vec zv = { 0 };
	struct ss_inode_geom out_inodes = { 0 };
	ext2_filsys fs = NULL;
	errcode_t err;
	int ret;

	ret = check_size(fd, dev_bytes);
	if (ret)
		return ret;
	/* No EXT2_FLAG_RW: libext2fs then opens the device O_RDONLY and writes nothing back. */
	err = ext2fs_open(path, EXT2_FLAG_64BITS, 0, 0, unix_io_manager, &fs);
	if (err)
		return ext_errno(err);
	ret = add_groups(fs, &zv);
	if (!ret)
		ret = add_itables(fs, &zv);
	if (!ret)
		ret = add_journal(fs, &zv);
	if (!ret)
		ret = inode_geom(fs, &out_inodes);
	if (ret)
		goto error;
	out->inodes = out_inodes;
	out->block_size = fs->blocksize;
	out->zones = zv.v;
	out->nr_zones = zv.n;
	ext2fs_close_free(&fs);
	return 0;
error:
	ss_zone_vec_free(&zv);
	ext2fs_close_free(&fs);
	return ret;
}

/* s_magic, 0xEF53 little-endian, in the superblock at 1024 */
static int ext_magic(int fd)
{
	return ss_fs_magic_at(fd, SUPERBLOCK_OFFSET + offsetof(struct ext2_super_block, s_magic), "\x53\xef", 2);
}

static const char *const ext_types[] = { "ext2", "ext3", "ext4", "ext4dev", NULL };
/* an external journal device (mke2fs -O journal_dev) carries an ext superblock */
static const char *const ext_kin[] = { "jbd", NULL };

/* The magic does not claim: blkid recognises every ext superblock libext2fs could open. */
const struct ss_fs_prober ss_fs_prober_ext = {
	.name = "ext4", .types = ext_types, .kin = ext_kin, .magic = ext_magic,
	.magic_claims = false, .probe = ss_ext_probe,
};
