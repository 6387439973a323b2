// SPDX-License-Identifier: GPL-2.0-or-later
/* Block device resolution through sysfs (see blockdev.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "errbuf.h"
#include "blockdev.h"

/* DIR/NAME into buf; -ENAMETOOLONG if it does not fit. */
static int join(char *buf, size_t len, const char *dir, const char *name)
{
	int n = snprintf(buf, len, "%s/%s", dir, name);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* Read a small sysfs file into buf, strip the newline.  0 or -errno. */
static int read_attr(const char *dir, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX];
	ssize_t n;
	int fd;

	if (join(path, sizeof(path), dir, name))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

static int read_u64(const char *dir, const char *name, unsigned long long *v)
{
	char buf[64], *end;
	int ret = read_attr(dir, name, buf, sizeof(buf));

	if (ret)
		return ret;
	errno = 0;
	*v = strtoull(buf, &end, 10);
	if (errno || end == buf)
		return -EINVAL;
	return 0;
}

static int read_devnum(const char *dir, unsigned *ma, unsigned *mi)
{
	char buf[64];
	int ret = read_attr(dir, "dev", buf, sizeof(buf));

	if (ret)
		return ret;
	if (sscanf(buf, "%u:%u", ma, mi) != 2)
		return -EINVAL;
	return 0;
}

/* DEVNAME from uevent: the node under /dev of the device holding the filesystem. */
static void devnode(const char *dir, char *out, size_t len)
{
	char path[PATH_MAX], line[256];
	FILE *f;

	out[0] = 0;
	if (join(path, sizeof(path), dir, "uevent"))
		return;
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "DEVNAME=", 8)) {
			line[strcspn(line, "\n")] = 0;
			if (strlen(line + 8) + 6 < len)
				snprintf(out, len, "/dev/%.*s", (int)(len - 6), line + 8);
			break;
		}
	}
	fclose(f);
}

int ss_blockdev_resolve(const char *path, const char *sysfs, struct ss_blockdev *out,
			char *err, size_t errlen)
{
	char link[PATH_MAX], dir[PATH_MAX], disk[PATH_MAX], real[PATH_MAX];
	unsigned long long v;
	struct stat st;
	unsigned ma, mi;
	int is_part;
	int ret;

	memset(out, 0, sizeof(*out));
	if (stat(path, &st) < 0) {
		ret = -errno;
		ss_errf(err, errlen, "%s: %s", path, strerror(errno));
		return ret;
	}
	if (S_ISBLK(st.st_mode)) {
		ma = major(st.st_rdev);
		mi = minor(st.st_rdev);
	} else if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) {
		ss_errf(err, errlen, "%s: not a block device, nor a path on a mounted filesystem", path);
		return -ENOTBLK;
	} else {
		ma = major(st.st_dev);
		mi = minor(st.st_dev);
	}
	snprintf(link, sizeof(link), "%s/dev/block/%u:%u", sysfs, ma, mi);
	if (!realpath(link, dir)) {
		if (errno == ENOENT) {
			ss_errf(err, errlen, "%s: %s is on device %u:%u, which is not a block device "
				"(tmpfs, overlay, network or virtual filesystem?)",
			    path, S_ISBLK(st.st_mode) ? "device" : "the filesystem", ma, mi);
			return -ENOTBLK;
		}
		ret = -errno;
		ss_errf(err, errlen, "%s: cannot resolve %s: %s", path, link, strerror(errno));
		return ret;
	}
	out->part_major = ma;
	out->part_minor = mi;
	devnode(dir, out->node, sizeof(out->node));
	/* a partition has a "partition" attribute; its parent directory is the whole disk */
	is_part = !join(real, sizeof(real), dir, "partition") && access(real, F_OK) == 0;
	if (is_part) {
		char *slash;

		snprintf(disk, sizeof(disk), "%s", dir);
		slash = strrchr(disk, '/');
		if (!slash) {
			ss_errf(err, errlen, "%s: malformed sysfs path %s", path, dir);
			return -EINVAL;
		}
		*slash = 0;
		if ((ret = read_u64(dir, "start", &v))) {
			ss_errf(err, errlen, "%s: cannot read partition start: %s", path, strerror(-ret));
			return ret;
		}
		out->rec.part_start = v;
		if (!read_u64(dir, "size", &v))
			out->rec.part_nr_sectors = v;
		snprintf(out->rec.part_name, sizeof(out->rec.part_name), "%s", strrchr(dir, '/') + 1);
		out->rec.flags |= SS_DEV_PARTITION;
	} else {
		snprintf(disk, sizeof(disk), "%s", dir);
	}
	if ((ret = read_devnum(disk, &ma, &mi))) {
		ss_errf(err, errlen, "%s: cannot read %s/dev: %s", path, disk, strerror(-ret));
		return ret;
	}
	out->rec.major = ma;
	out->rec.minor = mi;
	out->rec.dev = SS_MKDEV(ma, mi);
	snprintf(out->rec.name, sizeof(out->rec.name), "%s", strrchr(disk, '/') + 1);
	if (!read_u64(disk, "size", &v))
		out->rec.nr_sectors = v;
	if (!is_part)
		out->rec.part_nr_sectors = out->rec.nr_sectors;
	if (join(real, sizeof(real), disk, "queue"))
		real[0] = 0;
	if (!read_u64(real, "logical_block_size", &v))
		out->rec.logical_block_size = (uint32_t)v;
	if (!read_u64(real, "physical_block_size", &v))
		out->rec.physical_block_size = (uint32_t)v;
	if (!read_u64(real, "rotational", &v) && v)
		out->rec.flags |= SS_DEV_ROTATIONAL;
	snprintf(out->rec.path, sizeof(out->rec.path), "%s", path);
	if (out->rec.nr_sectors == 0) {
		ss_errf(err, errlen, "%s: device %s has size 0 (an unbound loop device?)", path,
		    out->rec.name);
		return -ENXIO;
	}
	return 0;
}
