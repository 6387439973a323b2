/*
 * Fuzz target: the filesystem probe (collector/fsprobe*.c) on an untrusted image — libblkid's
 * identification, our own XFS superblock decoding and geometry checks, and the ext2/3/4 walk
 * through libext2fs (groups, inode tables, journal extents).
 *
 * The input is the start of an image; the harness extends it with zeros to FUZZ_IMAGE_SIZE
 * (sparse, in memory), so the small seeds (first blocks of real mkfs.xfs / mkfs.ext* images)
 * describe filesystems whose declared size fits the "device".  Checksums that random mutation
 * cannot get right are recomputed first, so the geometry code behind them is reached: the v5
 * XFS superblock CRC and the ext4 superblock checksum (metadata_csum).  Bit 0 of the input's
 * last byte set leaves them alone, so the mismatch paths are fuzzed as well.
 */
#include <ext2fs/ext2fs.h>

#include "fsprobe.h"
#include "fuzz.h"

#define FUZZ_IMAGE_SIZE ((off_t)1 << 30)   /* 1 GiB, sparse: declared sizes up to this pass */
#define FUZZ_MAX_INPUT  (256u << 10)

static int memfd = -1;

static uint32_t crc32c(uint32_t crc, const uint8_t *p, size_t len)
{
	while (len--) {
		crc ^= *p++;
		for (int i = 0; i < 8; i++)
			crc = (crc >> 1) ^ (0x82f63b78u & (0u - (crc & 1)));
	}
	return crc;
}

static void fix_xfs(uint8_t *d, size_t size)
{
	uint32_t sect, crc;

	if (size < 512 || memcmp(d, "XFSB", 4) || (d[101] & 0xf) != 5)
		return;
	sect = (uint32_t)d[102] << 8 | d[103];
	if (sect < 512 || sect > 32768 || (sect & (sect - 1)) || sect > size)
		return;
	crc = crc32c(~0u, d, 224);
	crc = crc32c(crc, (const uint8_t *)"\0\0\0\0", 4);
	crc = ~crc32c(crc, d + 228, sect - 228);
	d[224] = (uint8_t)crc, d[225] = (uint8_t)(crc >> 8);
	d[226] = (uint8_t)(crc >> 16), d[227] = (uint8_t)(crc >> 24);
}

static void fix_ext(uint8_t *d, size_t size)
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
	crc = crc32c(~0u, (const uint8_t *)&sb, offsetof(struct ext2_super_block, s_checksum));
	sb.s_checksum = htole32(crc);
	memcpy(d + SUPERBLOCK_OFFSET, &sb, sizeof(sb));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ss_fsprobe p;
	char path[64];
	uint8_t *copy;
	int ret;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	if (!size || !(data[size - 1] & 1)) {
		fix_xfs(copy, size);
		fix_ext(copy, size);
	}
	ret = fuzz_memfile(&memfd, copy, size, FUZZ_IMAGE_SIZE, path, sizeof(path));
	free(copy);
	if (ret < 0)
		return 0;

	ret = ss_fsprobe_path(path, &p);
	if (ret == 0) {
		uint64_t dev_sectors = (uint64_t)FUZZ_IMAGE_SIZE / 512;

		FUZZ_ASSERT(p.nr_zones <= (1u << 20), "%zu zones", p.nr_zones);
		/* every zone the probe accepts lies on the device */
		for (size_t i = 0; i < p.nr_zones; i++) {
			const struct ss_rec_zone *z = &p.zones[i];

			FUZZ_ASSERT(z->start_sector <= dev_sectors &&
				    z->nr_sectors <= dev_sectors - z->start_sector,
				    "zone %s %llu+%llu beyond the %llu-sector image", z->label,
				    (unsigned long long)z->start_sector,
				    (unsigned long long)z->nr_sectors,
				    (unsigned long long)dev_sectors);
			FUZZ_ASSERT(memchr(z->label, 0, sizeof(z->label)), "label not terminated");
		}
		ss_fsprobe_release(&p);
	} else {
		FUZZ_ASSERT(ret < 0 && p.nr_zones == 0 && !p.zones, "error %d left zones behind", ret);
	}
	return 0;
}
