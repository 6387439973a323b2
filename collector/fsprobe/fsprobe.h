// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Filesystem probe: identifies the filesystem on a block device or image file and returns its
 * zones (XFS allocation groups and internal log; ext4 block groups, inode tables and journal
 * extents).  Sectors in the returned zones are 512-byte units counted from the start of the
 * probed device/file (i.e. relative to the filesystem); the caller adds the partition offset
 * and fills in ->dev.  Library code: returns 0/-errno, prints nothing.
 */
#ifndef SS_FSPROBE_H
#define SS_FSPROBE_H

#include <stddef.h>
#include <stdint.h>
#include "seekscope/format.h"

/*
 * Where inodes lie, from an inode number: XFS encodes AG, AG block and slot in the number
 * (agblklog, inopblog); ext4 numbers inodes by block group into each group's inode table.
 */
struct ss_inode_geom {
	uint32_t inode_size;        /* bytes; 0 when inode locations are unknown */
	uint32_t chunk_inodes;      /* XFS: 64 inodes per chunk; ext4: 0 (tables are zones) */
	uint32_t block_size;
	/* XFS */
	uint32_t agblocks;
	uint8_t  agblklog, inopblog;
	/* ext2/3/4 */
	uint32_t inodes_per_group;
	uint64_t *itable;           /* malloc'd: first block of each group's inode table */
	size_t nr_groups;
};

struct ss_fsprobe {
	char fstype[16];            /* "xfs", "ext4", "ext3", "ext2", other blkid type, or "" */
	uint32_t block_size;        /* filesystem block size in bytes, 0 if unknown */
	struct ss_rec_zone *zones;  /* malloc'd array, owned by the caller: ss_fsprobe_release() */
	size_t nr_zones;
	struct ss_inode_geom inodes;  /* inode_size 0 when the filesystem is not one we know */
};

/*
 * The sector (512 bytes, counted from the start of the filesystem) where inode INO begins,
 * or SS_SECTOR_NONE when G does not say (unknown filesystem, number out of range).
 */
uint64_t ss_inode_sector(const struct ss_inode_geom *g, uint64_t ino);

/*
 * Probe PATH (block device or regular file).  An unknown or absent filesystem is not an error:
 * fstype is "" (or the blkid name) and there are no zones.  Errors: -errno for I/O or
 * allocation failures, -EUCLEAN for a superblock that is recognised but inconsistent.
 * -EISDIR / -ENOTBLK if PATH is neither a block device nor a regular file.  *out is zeroed
 * first and holds nothing to release after an error.
 */
int ss_fsprobe_path(const char *path, struct ss_fsprobe *out);
void ss_fsprobe_release(struct ss_fsprobe *p);   /* frees zones; accepts zeroed struct */

/* XFS geometry as read from the superblock; exposed for unit tests of the arithmetic. */
struct ss_xfs_geom {
	uint32_t blocksize;         /* sb_blocksize */
	uint64_t dblocks;           /* sb_dblocks */
	uint32_t agblocks;          /* sb_agblocks */
	uint32_t agcount;           /* sb_agcount */
	uint8_t  agblklog;          /* sb_agblklog */
	uint64_t logstart;          /* sb_logstart (fsblock, 0 = external log) */
	uint32_t logblocks;         /* sb_logblocks */
	uint16_t inodesize;         /* sb_inodesize */
	uint8_t  inopblog;          /* sb_inopblog */
};
/*
 * Zones for G: one SS_ZONE_AG per AG (last may be short) and SS_ZONE_LOG if internal.  On success
 * *zones is a malloc'd array the caller frees; on error (-EUCLEAN for a geometry that fails
 * ss_xfs_geom_check() or needs more than the probe's zone cap, -ENOMEM) nothing is allocated and
 * *zones, *nr are left untouched.
 */
int ss_xfs_zones(const struct ss_xfs_geom *g, struct ss_rec_zone **zones, size_t *nr);
/*
 * 0 if G is self-consistent, else -EUCLEAN: block size a power of two in 512..65536, agcount and
 * agblocks non-zero, agblklog = ceil(log2(agblocks)), (agcount-1)*agblocks < dblocks <=
 * agcount*agblocks, and an internal log that lies inside one AG.
 */
int ss_xfs_geom_check(const struct ss_xfs_geom *g);

#endif
