// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Filesystem probe: asks libblkid what is on a block device or image file, then hands XFS and
 * ext2/3/4 to their own modules (fsprobe_xfs.c, fsprobe_ext4.c) to turn the on-disk geometry
 * into zones.  Also holds the bounded zone array both modules fill.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <linux/fs.h>
#include <blkid/blkid.h>

#include "fsprobe_int.h"

int ss_zone_vec_reserve(struct ss_zone_vec *zv, size_t want)
{
	struct ss_rec_zone *nv;
	size_t cap;

	if (want > SS_FSPROBE_MAX_ZONES)
		return -EUCLEAN;
	if (want <= zv->cap)
		return 0;
	cap = zv->cap ? zv->cap : 16;
	while (cap < want)
		cap *= 2;
	if (cap > SS_FSPROBE_MAX_ZONES)
		cap = SS_FSPROBE_MAX_ZONES;
	nv = realloc(zv->v, cap * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	zv->v = nv;
	zv->cap = cap;
	return 0;
}

int ss_zone_vec_push(struct ss_zone_vec *zv, uint32_t kind, uint32_t index, uint64_t start_sector,
		     uint64_t nr_sectors, const char *label)
{
	struct ss_rec_zone *z;
	int ret = ss_zone_vec_reserve(zv, zv->n + 1);

	if (ret)
		return ret;
	z = &zv->v[zv->n++];
	memset(z, 0, sizeof(*z));
	z->kind = kind;
	z->index = index;
	z->start_sector = start_sector;
	z->nr_sectors = nr_sectors;
	snprintf(z->label, sizeof(z->label), "%s", label);
	return 0;
}

void ss_zone_vec_free(struct ss_zone_vec *zv)
{
	free(zv->v);
	zv->v = NULL;
	zv->n = zv->cap = 0;
}

void ss_fsprobe_release(struct ss_fsprobe *p)
{
	if (!p)
		return;
	free(p->zones);
	p->zones = NULL;
	p->nr_zones = 0;
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

/* blkid's TYPE for FD into TYPE (size LEN): "" when nothing (or something ambiguous) is found. */
static int blkid_type(int fd, char *type, size_t len)
{
	blkid_probe pr = blkid_new_probe();
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

static int is_ext(const char *type)
{
	return !strcmp(type, "ext2") || !strcmp(type, "ext3") || !strcmp(type, "ext4") ||
	       !strcmp(type, "ext4dev");
}

int ss_fsprobe_path(const char *path, struct ss_fsprobe *out)
{
	struct ss_fsprobe res;
	uint64_t bytes = 0;
	int fd, ret;

	memset(out, 0, sizeof(*out));
	memset(&res, 0, sizeof(res));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = dev_size(fd, &bytes);
	if (ret)
		goto out;
	ret = blkid_type(fd, res.fstype, sizeof(res.fstype));
	if (ret)
		goto out;
	if (!res.fstype[0]) {
		/*
		 * blkid rejects an XFS superblock with a bad CRC or geometry and then reports
		 * nothing; but a recognised-yet-inconsistent superblock must come back as
		 * -EUCLEAN, not as "no filesystem", so look at the magic ourselves.
		 */
		ret = ss_xfs_sniff(fd);
		if (ret < 0)
			goto out;
		if (ret == 1)
			snprintf(res.fstype, sizeof(res.fstype), "xfs");
		ret = 0;
	}
	if (!strcmp(res.fstype, "xfs"))
		ret = ss_xfs_probe(fd, bytes, &res);
	else if (is_ext(res.fstype))
		ret = ss_ext_probe(path, fd, bytes, &res);
	if (ret == 0)
		*out = res;
out:
	close(fd);
	return ret;
}
