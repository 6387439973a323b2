// SPDX-License-Identifier: GPL-2.0-or-later
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
#include "fuzz.h"
#include "fuzz_fs.h"

#define FUZZ_IMAGE_SIZE ((off_t)1 << 30)   /* 1 GiB, sparse: declared sizes up to this pass */
#define FUZZ_MAX_INPUT  (256u << 10)

static int memfd = -1;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ss_fsprobe p;
	char path[64];
	int ret;

	if (size > FUZZ_MAX_INPUT ||
	    fuzz_fs_image(&memfd, data, size, FUZZ_IMAGE_SIZE, FUZZ_FIX_XFS | FUZZ_FIX_EXT, path,
			  sizeof(path)))
		return 0;

	ret = ss_fsprobe_path(path, &p);
	if (ret == 0) {
		fuzz_check_zones(p.zones, p.nr_zones, (uint64_t)FUZZ_IMAGE_SIZE / 512);
		ss_fsprobe_release(&p);
	} else {
		FUZZ_ASSERT(ret < 0 && p.nr_zones == 0 && !p.zones, "error %d left zones behind", ret);
	}
	return 0;
}
