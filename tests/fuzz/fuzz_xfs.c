// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: our own XFS superblock parser (collector/fsprobe_xfs.c) without libblkid in
 * front of it, so that it runs at full speed: ss_xfs_probe() on the input as a device of
 * FUZZ_DEV_BYTES, then ss_xfs_geom_check()/ss_xfs_zones() directly on a geometry taken from
 * the input's first 29 bytes (catching anything the superblock route cannot express).
 * The v5 superblock CRC is recomputed unless bit 0 of the input's last byte is set (see
 * fuzz_fsprobe.c, which covers the whole probe including blkid and libext2fs).
 */
#include "fsprobe_int.h"
#include "fuzz.h"
#include "fuzz_fs.h"

#define FUZZ_DEV_BYTES ((uint64_t)1 << 30)

static int memfd = -1;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ss_fsprobe p = { 0 };
	struct ss_xfs_geom g;
	struct ss_rec_zone *zones = NULL;
	size_t nr = 0;
	char path[64];
	int ret;

	if (size > 65536)
		return 0;
	/* 1: the superblock as the probe reads it; at most 4096 AGs (the big-endian field at
	 * byte 88): a 1 GiB device of 512-byte blocks holds 32,768 legal ones, each a zone with a
	 * printed label, and inputs like that had slowed the campaign from ~50,000 to ~1,000
	 * executions a second (more AGs take the same paths, as part 2's cap) */
	if ((size < 92 || ((uint32_t)data[88] << 24 | (uint32_t)data[89] << 16 |
			   (uint32_t)data[90] << 8 | data[91]) <= 4096) &&
	    fuzz_fs_image(&memfd, data, size, 0, FUZZ_FIX_XFS, path, sizeof(path)) == 0 &&
	    ss_xfs_probe(memfd, FUZZ_DEV_BYTES, &p) == 0) {
		FUZZ_ASSERT(p.block_size >= 512 && p.block_size <= 65536, "block size %u", p.block_size);
		fuzz_check_zones(p.zones, p.nr_zones, FUZZ_DEV_BYTES / 512);
		ss_fsprobe_release(&p);
	}

	/* 2: the geometry arithmetic on raw values */
	if (size >= 29) {
		memcpy(&g.blocksize, data, 4);
		memcpy(&g.dblocks, data + 4, 8);
		memcpy(&g.agblocks, data + 12, 4);
		memcpy(&g.agcount, data + 16, 4);
		g.agblklog = data[20];
		memcpy(&g.logstart, data + 21, 8);
		g.logblocks = size >= 33 ? (uint32_t)data[29] | (uint32_t)data[30] << 8 |
					   (uint32_t)data[31] << 16 | (uint32_t)data[32] << 24 : 0;
		/* cap the work: a valid geometry with 1M AGs is legal but costs 64 MiB */
		if (g.agcount > 4096)
			g.agcount = 4096 + (g.agcount & 0xff);
		ret = ss_xfs_zones(&g, &zones, &nr);
		if (ret == 0) {
			FUZZ_ASSERT(ss_xfs_geom_check(&g) == 0, "zones for a geometry that fails the check");
			FUZZ_ASSERT(nr == g.agcount + (g.logstart ? 1u : 0u), "%zu zones for %u AGs",
				    nr, g.agcount);
			fuzz_check_zones(zones, nr, g.dblocks * (g.blocksize / 512));
			free(zones);
		}
	}
	return 0;
}
