// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Filesystem probe: looks for the magic of the filesystems we know, asks libblkid what is on a
 * block device or image file (about those filesystems only when their magic is there), then
 * hands it to the module that knows that filesystem (the table below: fsprobe_xfs.c, fsprobe_ext4.c) to
 * turn the on-disk geometry into zones.
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <linux/fs.h>
#include <blkid/blkid.h>

#include "fileio.h"

#include "fsprobe_int.h"

void ss_fsprobe_release(struct ss_fsprobe *p)
{
	if (!p)
		return;
	free(p->zones);
	p->zones = NULL;
	p->nr_zones = 0;
	free(p->inodes.itable);
	memset(&p->inodes, 0, sizeof(p->inodes));
}

uint64_t ss_inode_sector(const struct ss_inode_geom *g, uint64_t ino)
{
	uint64_t byte;

	if (!g->inode_size || !g->block_size)
		return SS_SECTOR_NONE;
	if (g->chunk_inodes) {
		/* XFS: agno | agbno (agblklog bits) | slot (inopblog bits) */
		unsigned shift = (unsigned)g->agblklog + g->inopblog;
		uint64_t agno, agbno, slot;

		if (shift >= 64)
			return SS_SECTOR_NONE;
		agno = ino >> shift;
		agbno = (ino >> g->inopblog) & ((1ull << g->agblklog) - 1);
		slot = ino & ((1ull << g->inopblog) - 1);
		if (agbno >= g->agblocks)
			return SS_SECTOR_NONE;
		byte = (agno * g->agblocks + agbno) * g->block_size + slot * g->inode_size;
	} else {
		/* ext2/3/4: inode 1 is the first of group 0's table */
		uint64_t grp, idx;

		if (!ino || !g->inodes_per_group || !g->itable)
			return SS_SECTOR_NONE;
		grp = (ino - 1) / g->inodes_per_group;
		idx = (ino - 1) % g->inodes_per_group;
		if (grp >= g->nr_groups)
			return SS_SECTOR_NONE;
		byte = g->itable[grp] * g->block_size + idx * g->inode_size;
	}
	return byte / 512;
}

/* Size in bytes of what FD refers to; 0 when the kernel cannot tell (then nothing is capped). */
static int dev_size(int fd, uint64_t *bytes)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (S_ISREG(st.st_mode)) {
		*bytes = (uint64_t)st.st_size;
		return 0;
	}
	if (!S_ISBLK(st.st_mode))
		return -ENOTBLK;
	if (ioctl(fd, BLKGETSIZE64, bytes) < 0)
		return -errno;
	return 0;
}

/* The filesystems we know the layout of, each defined in its own file as ss_fs_prober_<id>:
 * the registry, one line each (fsprobe_int.h says what a prober is). */
#define PROBERS(X) \
	X(xfs)     \
	X(ext)

#define DECLARE(id) extern const struct ss_fs_prober ss_fs_prober_##id;
PROBERS(DECLARE)
#undef DECLARE
#define ENTRY(id) &ss_fs_prober_##id,
static const struct ss_fs_prober *const probers[] = { PROBERS(ENTRY) };
#undef ENTRY
#define NR_PROBERS (sizeof(probers) / sizeof(probers[0]))

int ss_fs_magic_at(int fd, off_t off, const void *magic, size_t len)
{
	uint8_t buf[16];
	ssize_t n;

	if (len > sizeof(buf))
		return -EINVAL;
	n = ss_pread_full(fd, buf, len, off);
	if (n < 0)
		return (int)n;
	return (size_t)n == len && !memcmp(buf, magic, len);
}

/* Room for the blkid types of the filter: ours, their kin and every RAID member type. */
#define MAX_FILTER 160

/*
 * The blkid types worth asking about when one of our filesystems' magic is on the device:
 * the probers' types and kin, and every RAID member type blkid knows (an md 1.0 or a
 * firmware RAID member holds a filesystem at offset 0 and must still be reported as a member).
 * Into NAMES (MAX_FILTER + 1 slots, NULL-ended).
 */
static void filter_types(const char *names[])
{
	size_t n = 0;
	const char *name;
	int usage;

	for (size_t i = 0; i < NR_PROBERS; i++) {
		for (const char *const *t = probers[i]->types; *t && n < MAX_FILTER; t++)
			names[n++] = *t;
		for (const char *const *t = probers[i]->kin; t && *t && n < MAX_FILTER; t++)
			names[n++] = *t;
	}
	for (size_t i = 0; n < MAX_FILTER && blkid_superblocks_get_name(i, &name, &usage) == 0; i++)
		if (usage & BLKID_USAGE_RAID)
			names[n++] = name;
	names[n] = NULL;
}

/*
 * blkid's TYPE for FD into TYPE (size LEN): "" when nothing (or something ambiguous) is found.
 * OURS: one of our filesystems' magic is there, so only our types, their kin and RAID members
 * are probed (blkid otherwise reads a megabyte and more looking for every filesystem it knows,
 * ZFS labels at both ends of the device among them).
 */
static int blkid_type(int fd, bool ours, char *type, size_t len)
{
	blkid_probe pr = blkid_new_probe();
	const char *names[MAX_FILTER + 1];
	const char *val = NULL;
	int ret;

	type[0] = '\0';
	if (!pr)
		return -ENOMEM;
	ret = -EIO;
	if (blkid_probe_set_device(pr, fd, 0, 0) < 0)
		goto out;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE);
	if (ours) {
		filter_types(names);
		/* blkid does not write through the array it is handed */
		if (blkid_probe_filter_superblocks_type(pr, BLKID_FLTR_ONLYIN, (char **)names) < 0)
			goto out;
	}
	switch (blkid_do_safeprobe(pr)) {
	case 0:
		if (blkid_probe_lookup_value(pr, "TYPE", &val, NULL) == 0 && val)
			snprintf(type, len, "%s", val);
		ret = 0;
		break;
	case 1:     /* nothing found */
	case -2:    /* several signatures: we cannot tell which is live, so claim none */
		ret = 0;
		break;
	default:
		break;
	}
out:
	blkid_free_probe(pr);
	return ret;
}

static bool is_type(const struct ss_fs_prober *p, const char *type)
{
	for (const char *const *t = p->types; *t; t++)
		if (!strcmp(*t, type))
			return true;
	return false;
}

int ss_fsprobe_path(const char *path, struct ss_fsprobe *out)
{
	struct ss_fsprobe res;
	uint64_t bytes = 0;
	unsigned magic = 0;
	int fd, ret;

	memset(out, 0, sizeof(*out));
	memset(&res, 0, sizeof(res));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = dev_size(fd, &bytes);
	if (ret)
		goto out;
	/* which of our filesystems' magic is on the device (bit i: probers[i]) */
	for (size_t i = 0; i < NR_PROBERS; i++) {
		ret = probers[i]->magic(fd);
		if (ret < 0)
			goto out;
		magic |= (unsigned)ret << i;
	}
	ret = blkid_type(fd, magic != 0, res.fstype, sizeof(res.fstype));
	if (ret)
		goto out;
	/*
	 * blkid rejects e.g. an XFS superblock with a bad CRC or geometry and then reports
	 * nothing; but a recognised-yet-inconsistent superblock must come back as -EUCLEAN, not
	 * as "no filesystem", so the probers whose magic claims their filesystem take it.
	 */
	for (size_t i = 0; i < NR_PROBERS && !res.fstype[0]; i++)
		if (probers[i]->magic_claims && (magic >> i & 1))
			snprintf(res.fstype, sizeof(res.fstype), "%s", probers[i]->name);
	for (size_t i = 0; i < NR_PROBERS; i++)
		if (is_type(probers[i], res.fstype)) {
			ret = probers[i]->probe(path, fd, bytes, &res);
			break;
		}
	if (ret == 0)
		*out = res;
out:
	close(fd);
	return ret;
}
