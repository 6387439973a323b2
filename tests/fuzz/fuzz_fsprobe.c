// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: the filesystem probe (collector/fsprobe*.c) on an untrusted image — libblkid's
 * identification, our own XFS superblock decoding and geometry checks, and the ext2/3/4 walk
 * through libext2fs (groups, inode tables, journal extents).
 *
 * The input is the start of an image; the harness extends it with zeros (sparse, in memory) to
 * the size its superblock declares (XFS dblocks, ext blocks_count), moved by a signed number
 * of 4 KiB blocks taken from the input's second-to-last byte (so filesystems a little larger
 * than their device are tried too) and capped at 1 GiB; an input without the XFS or ext magic
 * stays its own size.  So the small seeds (first blocks of real mkfs.xfs / mkfs.ext* images)
 * describe filesystems that fit their "device", and blkid, which reads a megabyte of ZFS
 * labels at both ends of a large device when no magic of ours is there, has little to read.
 * Checksums that random mutation cannot get right are recomputed first, so the geometry code
 * behind them is reached: the v5 XFS superblock CRC and the ext4 superblock checksum
 * (metadata_csum).  Bit 0 of the input's last byte set leaves them alone, so the mismatch
 * paths are fuzzed as well.  Invariant: every zone lies on the device.
 */
#include "fuzz.h"
#include "fuzz_fs.h"

#define FUZZ_MAX_IMAGE  ((uint64_t)1 << 30)   /* 1 GiB, sparse: declared sizes up to this pass */
#define FUZZ_MAX_INPUT  (256u << 10)

static int memfd = -1;

static uint64_t be_at(const uint8_t *d, unsigned n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | *d++;
	return v;
}

/* The device size for the image DATA (see the top of the file). */
static uint64_t image_size(const uint8_t *data, size_t size)
{
	struct ext2_super_block sb;
	unsigned __int128 bytes;
	int64_t slack;

	if (size >= 16 && !memcmp(data, "XFSB", 4)) {
		bytes = (unsigned __int128)be_at(data + 8, 8) * be_at(data + 4, 4);  /* dblocks, blocksize */
	} else if (size >= SUPERBLOCK_OFFSET + sizeof(sb) &&
		   (memcpy(&sb, data + SUPERBLOCK_OFFSET, sizeof(sb)),
		    le16toh(sb.s_magic) == EXT2_SUPER_MAGIC)) {
		uint64_t blocks = le32toh(sb.s_blocks_count);
		uint32_t log = le32toh(sb.s_log_block_size);

		if (le32toh(sb.s_feature_incompat) & EXT4_FEATURE_INCOMPAT_64BIT)
			blocks |= (uint64_t)le32toh(sb.s_blocks_count_hi) << 32;
		bytes = log < 32 ? (unsigned __int128)blocks << (10 + log) : FUZZ_MAX_IMAGE;
	} else {
		return size;
	}
	slack = (int8_t)(size >= 2 ? data[size - 2] : 0) * 4096;
	bytes = slack < 0 && bytes < (uint64_t)-slack ? 0 : bytes + (unsigned __int128)slack;
	if (bytes > FUZZ_MAX_IMAGE)
		bytes = FUZZ_MAX_IMAGE;
	return bytes > size ? (uint64_t)bytes : size;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ss_fsprobe p;
	char path[64];
	uint64_t dev_bytes;
	int ret;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	dev_bytes = image_size(data, size);
	if (fuzz_fs_image(&memfd, data, size, (off_t)dev_bytes, FUZZ_FIX_XFS | FUZZ_FIX_EXT, path,
			  sizeof(path)))
		return 0;

	ret = ss_fsprobe_path(path, &p);
	if (ret == 0) {
		fuzz_check_zones(p.zones, p.nr_zones, dev_bytes / 512);
		ss_fsprobe_release(&p);
	} else {
		FUZZ_ASSERT(ret < 0 && p.nr_zones == 0 && !p.zones, "error %d left zones behind", ret);
	}
	return 0;
}
