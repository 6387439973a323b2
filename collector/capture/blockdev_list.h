// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The block devices of this machine as `seekscope list` shows them (sysfs and mountinfo), and
 * the loop devices that back a regular file (record -d IMAGE).  SYSFS is the sysfs root and
 * MOUNTINFO a mountinfo file ("/sys", "/proc/self/mountinfo"; tests point elsewhere).
 * Library code: 0/-errno with one line in the caller's buffer; never prints.
 */
#ifndef SS_BLOCKDEV_LIST_H
#define SS_BLOCKDEV_LIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ss_blockdev_info {
	char name[32];              /* kernel name: sda, sda2, loop0, nvme0n1p1 */
	char disk[32];              /* the whole disk: itself, or a partition's parent */
	unsigned major, minor;
	uint64_t nr_sectors;        /* 512-byte sectors */
	bool partition;
	bool rotational;            /* the whole disk's queue/rotational */
	bool read_only;
	char model[64];             /* the disk's device/model, "" if none */
	char backing[512];          /* a loop device's backing file, "" otherwise */
	char mount[512];            /* first mount point, "" if not mounted */
	char fstype[32];            /* of that mount, "" if not mounted */
};

/*
 * Every block device and partition with a size (unbound loop devices and empty drives are
 * left out), sorted by name, into a malloc'd *OUT (free()) of *NR.  0 or -errno.
 */
int ss_blockdev_list(const char *sysfs, const char *mountinfo, struct ss_blockdev_info **out,
		     size_t *nr, char *err, size_t errlen);

/*
 * The loop devices whose backing file is FILE (a regular file; compared by device and inode,
 * also once it was renamed): their kernel names, comma-separated, into NAMES.  Returns how
 * many (0: none), or -errno.
 */
int ss_blockdev_loops_of(const char *file, const char *sysfs, char *names, size_t len,
			 char *err, size_t errlen);

#endif
