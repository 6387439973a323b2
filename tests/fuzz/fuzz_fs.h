// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Shared pieces of the filesystem-probe fuzz targets (fuzz_fsprobe.c, fuzz_xfs.c, fuzz_ext.c):
 * superblock checksums recomputed so that random mutation gets past them to the geometry code
 * behind (callers leave them alone for some inputs, so the mismatch paths are fuzzed too), and
 * the invariant every probe result must keep: each zone lies on the device.  Include after
 * fuzz.h.
 */
#ifndef SS_FUZZ_FS_H
#define SS_FUZZ_FS_H

#include <endian.h>
#include <ext2fs/ext2fs.h>

#include "fsprobe.h"

static inline uint32_t fuzz_crc32c(uint32_t crc, const uint8_t *p, size_t len)
{
	while (len--) {
		crc ^= *p++;
		for (int i = 0; i < 8; i++)
			crc = (crc >> 1) ^ (0x82f63b78u & (0u - (crc & 1)));
	}
	return crc;
}

/* The v5 XFS superblock CRC (sb_crc at byte 224, over one sector) when D looks like one. */
static inline void fuzz_fix_xfs_sb(uint8_t *d, size_t size)
{
	uint32_t sect, crc;

	if (size < 512 || (d[101] & 0xf) != 5)
		return;
	sect = (uint32_t)d[102] << 8 | d[103];
	if (sect < 512 || sect > 32768 || (sect & (sect - 1)) || sect > size)
		return;
	crc = fuzz_crc32c(~0u, d, 224);
	crc = fuzz_crc32c(crc, (const uint8_t *)"\0\0\0\0", 4);
	crc = ~fuzz_crc32c(crc, d + 228, sect - 228);
	d[224] = (uint8_t)crc, d[225] = (uint8_t)(crc >> 8);
	d[226] = (uint8_t)(crc >> 16), d[227] = (uint8_t)(crc >> 24);
}

/* The ext4 superblock checksum (metadata_csum) when D holds an ext superblock at 1024. */
static inline void fuzz_fix_ext_sb(uint8_t *d, size_t size)
{
	struct ext2_super_block sb;
	uint32_t crc;

	if (size < SUPERBLOCK_OFFSET + sizeof(sb))
		return;
	memcpy(&sb, d + SUPERBLOCK_OFFSET, sizeof(sb));
	if (le16toh(sb.s_magic) != EXT2_SUPER_MAGIC ||
	    !(le32toh(sb.s_feature_ro_compat) & EXT4_FEATURE_RO_COMPAT_METADATA_CSUM))
		return;
	/* ext2fs_superblock_csum(): crc32c_le(~0, sb up to s_checksum), stored as is */
	crc = fuzz_crc32c(~0u, (const uint8_t *)&sb, offsetof(struct ext2_super_block, s_checksum));
	sb.s_checksum = htole32(crc);
	memcpy(d + SUPERBLOCK_OFFSET, &sb, sizeof(sb));
}

#define FUZZ_FIX_XFS 1u
#define FUZZ_FIX_EXT 2u

/*
 * DATA as an image in the reused in-memory file *MEMFD (zero-extended to MIN_SIZE), named by
 * PATH: with the superblock checksums FIX names recomputed first, unless bit 0 of the last
 * byte is set (then they stay as they are and the mismatch paths are fuzzed).  0 or -1.
 */
static inline int fuzz_fs_image(int *memfd, const uint8_t *data, size_t size, off_t min_size,
				unsigned fix, char *path, size_t pathlen)
{
	uint8_t *copy = malloc(size ? size : 1);
	int ret;

	if (!copy)
		return -1;
	memcpy(copy, data, size);
	if (!size || !(data[size - 1] & 1)) {
		if (fix & FUZZ_FIX_XFS)
			fuzz_fix_xfs_sb(copy, size);
		if (fix & FUZZ_FIX_EXT)
			fuzz_fix_ext_sb(copy, size);
	}
	ret = fuzz_memfile(memfd, copy, size, min_size, path, pathlen);
	free(copy);
	return ret < 0 ? -1 : 0;
}

/* Every zone a probe returns lies on a device of DEV_SECTORS and has a terminated label. */
static inline void fuzz_check_zones(const struct ss_rec_zone *z, size_t n, uint64_t dev_sectors)
{
	FUZZ_ASSERT(n <= (1u << 20), "%zu zones", n);
	for (size_t i = 0; i < n; i++) {
		FUZZ_ASSERT(z[i].start_sector <= dev_sectors &&
			    z[i].nr_sectors <= dev_sectors - z[i].start_sector,
			    "zone %s %llu+%llu beyond %llu sectors", z[i].label,
			    (unsigned long long)z[i].start_sector,
			    (unsigned long long)z[i].nr_sectors, (unsigned long long)dev_sectors);
		FUZZ_ASSERT(memchr(z[i].label, 0, sizeof(z[i].label)), "label not terminated");
	}
}

#endif
