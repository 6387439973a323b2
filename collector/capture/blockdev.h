// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Block device resolution: turns what the user names (a device node, a partition, or any path
 * on a mounted filesystem) into the whole disk that block request events report, plus the
 * partition's offset on it.  Reads sysfs only; library code (0/-errno, one-line reason).
 */
#ifndef SS_BLOCKDEV_H
#define SS_BLOCKDEV_H

#include <stddef.h>
#include "seekscope/format.h"

struct ss_blockdev {
	struct ss_rec_device rec;   /* ready for the trace file (fstype left empty) */
	char node[64];              /* /dev node of the partition (or whole disk) to probe, "" if none */
	unsigned part_major, part_minor;   /* dev of what holds the filesystem */
};

/*
 * Resolve PATH.  A block device node is taken as is (a partition resolves to its disk); any
 * other existing path resolves to the device holding its filesystem.  SYSFS is the sysfs root
 * ("/sys" normally; tests may point elsewhere).  Errors: -ENOENT (no such path), -ENOTBLK (the
 * path's filesystem has no block device, e.g. tmpfs), -errno otherwise; reason in err.
 */
int ss_blockdev_resolve(const char *path, const char *sysfs, struct ss_blockdev *out,
			char *err, size_t errlen);

#endif
