// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: our walk of ext2/3/4 filesystems through libext2fs (collector/fsprobe_ext4.c:
 * block groups, inode tables, the journal's extents) without libblkid in front, so that it
 * runs at full speed — fuzz_fsprobe.c covers the whole probe, blkid included, at about a
 * third of this target's speed.
 *
 * The input is the start of an image, zero-extended (sparse, in memory) to FUZZ_IMAGE_SIZE;
 * the superblock checksum is recomputed unless bit 0 of the last byte is set.  Invariants:
 * on success every zone lies on the image and the block size is one ext allows; on failure
 * nothing is left allocated in the result.
 */
#include "fsprobe_int.h"
#include "fuzz.h"
#include "fuzz_fs.h"

#define FUZZ_IMAGE_SIZE ((off_t)1 << 30)
#define FUZZ_MAX_INPUT  (256u << 10)

static int memfd = -1;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ss_fsprobe p = { 0 };
	char path[64];
	int ret;

	if (size > FUZZ_MAX_INPUT ||
	    fuzz_fs_image(&memfd, data, size, FUZZ_IMAGE_SIZE, FUZZ_FIX_EXT, path, sizeof(path)))
		return 0;

	ret = ss_ext_probe(path, memfd, (uint64_t)FUZZ_IMAGE_SIZE, &p);
	if (ret == 0) {
		FUZZ_ASSERT(p.block_size >= 1024 && p.block_size <= 65536 &&
			    !(p.block_size & (p.block_size - 1)), "block size %u", p.block_size);
		fuzz_check_zones(p.zones, p.nr_zones, (uint64_t)FUZZ_IMAGE_SIZE / 512);
		ss_fsprobe_release(&p);
	} else {
		FUZZ_ASSERT(ret < 0 && p.nr_zones == 0 && !p.zones, "error %d left zones behind", ret);
	}
	return 0;
}
