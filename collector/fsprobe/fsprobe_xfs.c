// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * XFS part of the filesystem probe: decodes and checks the primary superblock and turns the
 * geometry into zones (one per allocation group, plus the internal log).
 *
 * Layout of struct xfs_dsb (fs/xfs/libxfs/xfs_format.h), all big-endian except sb_crc:
 *   0 sb_magicnum "XFSB"   4 sb_blocksize   8 sb_dblocks (64)   48 sb_logstart (64)
 *  84 sb_agblocks         88 sb_agcount    96 sb_logblocks     100 sb_versionnum (16)
 * 102 sb_sectsize (16)   104 sb_inodesize (16)  123 sb_inopblog (8)   124 sb_agblklog (8)
 * 224 sb_crc (32, little-endian)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fileio.h"
#include "fsprobe_int.h"

#define XFS_SB_OFF_BLOCKSIZE  4
#define XFS_SB_OFF_DBLOCKS    8
#define XFS_SB_OFF_LOGSTART   48
#define XFS_SB_OFF_AGBLOCKS   84
#define XFS_SB_OFF_AGCOUNT    88
#define XFS_SB_OFF_LOGBLOCKS  96
#define XFS_SB_OFF_VERSIONNUM 100
#define XFS_SB_OFF_SECTSIZE   102
#define XFS_SB_OFF_INODESIZE  104
#define XFS_SB_OFF_INOPBLOG   123
#define XFS_SB_OFF_AGBLKLOG   124
#define XFS_INODES_PER_CHUNK  64
#define XFS_SB_OFF_CRC        224
#define XFS_SB_VERSION_5      5
#define XFS_SB_MAX_SECTSIZE   32768

static uint16_t get_be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t get_be64(const uint8_t *p)
{
	return (uint64_t)get_be32(p) << 32 | get_be32(p + 4);
}

static uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

/* CRC-32C (Castagnoli), as XFS checksums v5 metadata; bitwise because it runs once per probe. */
static uint32_t crc32c(uint32_t crc, const uint8_t *p, size_t len)
{
	while (len--) {
		crc ^= *p++;
		for (int i = 0; i < 8; i++)
			crc = (crc >> 1) ^ (0x82f63b78u & (0u - (crc & 1)));
	}
	return crc;
}

/* ceil(log2(v)) for v >= 1: how mkfs.xfs derives sb_agblklog from sb_agblocks. */
static unsigned log2_roundup(uint32_t v)
{
	unsigned r = 0;

	while (r < 32 && ((uint64_t)1 << r) < v)
		r++;
	return r;
}

/* Blocks in allocation group AGNO: all have agblocks except possibly the last, short one. */
static uint64_t ag_len(const struct ss_xfs_geom *g, uint32_t agno)
{
	if (agno + 1 < g->agcount)
		return g->agblocks;
	return g->dblocks - (uint64_t)(g->agcount - 1) * g->agblocks;
}

int ss_xfs_geom_check(const struct ss_xfs_geom *g)
{
	uint64_t full, min;

	if (g->blocksize < 512 || g->blocksize > 65536 || (g->blocksize & (g->blocksize - 1)))
		return -EUCLEAN;
	if (!g->agcount || !g->agblocks)
		return -EUCLEAN;
	if (g->agblklog != log2_roundup(g->agblocks))
		return -EUCLEAN;
	/* Both factors are below 2^32, so neither product can overflow 64 bits. */
	full = (uint64_t)g->agcount * g->agblocks;
	min = (uint64_t)(g->agcount - 1) * g->agblocks;
	if (g->dblocks > full || g->dblocks <= min)
		return -EUCLEAN;
	if (g->dblocks > UINT64_MAX / (g->blocksize / 512))
		return -EUCLEAN;
	if (g->logstart) {
		/* sb_logstart is an AG-relative fsblock: agno above agblklog, agbno below. */
		uint64_t agno = g->logstart >> g->agblklog;
		uint64_t agbno = g->logstart & (((uint64_t)1 << g->agblklog) - 1);

		if (agno >= g->agcount || !g->logblocks)
			return -EUCLEAN;
		if (agbno >= ag_len(g, (uint32_t)agno) ||
		    g->logblocks > ag_len(g, (uint32_t)agno) - agbno)
			return -EUCLEAN;
	}
	return 0;
}

int ss_xfs_zones(const struct ss_xfs_geom *g, struct ss_rec_zone **zones, size_t *nr)
{
	struct ss_zone_vec zv = { 0 };
	uint64_t bb = g->blocksize / 512;   /* 512-byte sectors per filesystem block */
	char label[32];
	int ret = ss_xfs_geom_check(g);

	if (ret)
		return ret;
	/* One zone per AG plus the log: refuse before allocating if that is beyond the cap. */
	ret = ss_zone_vec_reserve(&zv, (size_t)g->agcount + (g->logstart ? 1 : 0));
	if (ret)
		goto error;
	for (uint32_t agno = 0; agno < g->agcount; agno++) {
		snprintf(label, sizeof(label), "AG%u", agno);
		ret = ss_zone_vec_push(&zv, SS_ZONE_AG, agno, (uint64_t)agno * g->agblocks * bb,
				       ag_len(g, agno) * bb, label);
		if (ret)
			goto error;
	}
	if (g->logstart) {
		/*
		 * Not logstart * blocksize: fsblock numbers leave a gap of 2^agblklog - agblocks
		 * blocks after every AG, so the linear block is agno * agblocks + agbno.  They
		 * agree only when agblocks is a power of two or the log sits in AG 0.
		 */
		uint64_t agno = g->logstart >> g->agblklog;
		uint64_t agbno = g->logstart & (((uint64_t)1 << g->agblklog) - 1);

		ret = ss_zone_vec_push(&zv, SS_ZONE_LOG, 0, (agno * g->agblocks + agbno) * bb,
				       (uint64_t)g->logblocks * bb, "log");
		if (ret)
			goto error;
	}
	*zones = zv.v;
	*nr = zv.n;
	return 0;
error:
	ss_zone_vec_free(&zv);
	return ret;
}

/* The whole region or an error: a short device cut the superblock off. */
static int read_at(int fd, void *buf, size_t len, off_t off)
{
	ssize_t n = ss_pread_full(fd, buf, len, off);

	if (n < 0)
		return (int)n;
	return (size_t)n == len ? 0 : -EIO;
}

int ss_xfs_sniff(int fd)
{
	return ss_fs_magic_at(fd, 0, "XFSB", 4);
}

/* A v5 superblock carries a CRC over its whole sector; check it like the kernel does. */
static int check_crc(int fd, const uint8_t *sb512)
{
	uint32_t sectsize = get_be16(sb512 + XFS_SB_OFF_SECTSIZE);
	uint8_t *sect;
	uint32_t crc;
	int ret;

	if ((get_be16(sb512 + XFS_SB_OFF_VERSIONNUM) & 0xf) != XFS_SB_VERSION_5)
		return 0;
	if (sectsize < 512 || sectsize > XFS_SB_MAX_SECTSIZE || (sectsize & (sectsize - 1)))
		return -EUCLEAN;
	sect = malloc(sectsize);
	if (!sect)
		return -ENOMEM;
	ret = read_at(fd, sect, sectsize, 0);
	if (ret)
		goto out;
	crc = crc32c(~0u, sect, XFS_SB_OFF_CRC);
	crc = crc32c(crc, (const uint8_t *)"\0\0\0\0", 4);
	crc = ~crc32c(crc, sect + XFS_SB_OFF_CRC + 4, sectsize - XFS_SB_OFF_CRC - 4);
	ret = crc == get_le32(sect + XFS_SB_OFF_CRC) ? 0 : -EUCLEAN;
out:
	free(sect);
	return ret;
}

int ss_xfs_probe(int fd, uint64_t dev_bytes, struct ss_fsprobe *out)
{
	uint8_t sb[512];
	struct ss_xfs_geom g;
	struct ss_rec_zone *zones = NULL;
	size_t nr = 0;
	int ret;

	ret = read_at(fd, sb, sizeof(sb), 0);
	if (ret)
		return ret;
	if (memcmp(sb, "XFSB", 4))
		return -EUCLEAN;    /* blkid said xfs but the magic is gone: changed under us */
	g = (struct ss_xfs_geom){
		.blocksize = get_be32(sb + XFS_SB_OFF_BLOCKSIZE),
		.dblocks = get_be64(sb + XFS_SB_OFF_DBLOCKS),
		.agblocks = get_be32(sb + XFS_SB_OFF_AGBLOCKS),
		.agcount = get_be32(sb + XFS_SB_OFF_AGCOUNT),
		.agblklog = sb[XFS_SB_OFF_AGBLKLOG],
		.logstart = get_be64(sb + XFS_SB_OFF_LOGSTART),
		.logblocks = get_be32(sb + XFS_SB_OFF_LOGBLOCKS),
		.inodesize = get_be16(sb + XFS_SB_OFF_INODESIZE),
		.inopblog = sb[XFS_SB_OFF_INOPBLOG],
	};
	ret = ss_xfs_geom_check(&g);
	if (ret)
		return ret;
	/* A filesystem larger than its device is corrupt (or the device was shrunk under it). */
	if (dev_bytes && g.dblocks > dev_bytes / g.blocksize)
		return -EUCLEAN;
	ret = check_crc(fd, sb);
	if (ret)
		return ret;
	ret = ss_xfs_zones(&g, &zones, &nr);
	if (ret)
		return ret;
	out->block_size = g.blocksize;
	out->zones = zones;
	out->nr_zones = nr;
	/* inode numbers locate inodes only when slot and size agree with the block size (at most
	 * 2^8 inodes of 256 bytes in a 64 KiB block: a larger log would shift past 32 bits) */
	if (g.inodesize >= 256 && (g.inodesize & (g.inodesize - 1)) == 0 &&
	    g.inopblog <= 8 && ((uint32_t)g.inodesize << g.inopblog) == g.blocksize)
		out->inodes = (struct ss_inode_geom){
			.inode_size = g.inodesize,
			.chunk_inodes = XFS_INODES_PER_CHUNK,
			.block_size = g.blocksize,
			.agblocks = g.agblocks,
			.agblklog = g.agblklog,
			.inopblog = g.inopblog,
		};
	return 0;
}

static int xfs_probe(const char *path, int fd, uint64_t dev_bytes, struct ss_fsprobe *out)
{
	(void)path;
	return ss_xfs_probe(fd, dev_bytes, out);
}

static const char *const xfs_types[] = { "xfs", NULL };

const struct ss_fs_prober ss_fs_prober_xfs = {
	.name = "xfs", .types = xfs_types, .magic = ss_xfs_sniff, .magic_claims = true,
	.probe = xfs_probe,
};
