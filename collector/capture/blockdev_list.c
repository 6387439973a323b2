// SPDX-License-Identifier: GPL-2.0-or-later
/* The block devices of this machine and the loop devices behind a file (blockdev_list.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <sys/stat.h>

#include "blockdev_list.h"
#include "errbuf.h"

/* Did snprintf's N characters fit into LEN? */
static bool fits(int n, size_t len)
{
	return n >= 0 && (size_t)n < len;
}

/* DIR/NAME's first line into BUF ("" when it cannot be read). */
static void attr(const char *dir, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX];
	FILE *f;

	buf[0] = 0;
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
		return;
	f = fopen(path, "re");
	if (!f)
		return;
	if (!fgets(buf, (int)len, f))
		buf[0] = 0;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	/* models are padded with blanks */
	for (size_t n = strlen(buf); n > 0 && buf[n - 1] == ' '; n--)
		buf[n - 1] = 0;
}

static unsigned long long attr_u64(const char *dir, const char *name)
{
	char buf[32];

	attr(dir, name, buf, sizeof(buf));
	return strtoull(buf, NULL, 10);
}

/* "MAJ:MIN" -> the first mount point and type of that device in MOUNTINFO (proc(5)). */
static void find_mount(const char *mountinfo, struct ss_blockdev_info *d)
{
	char *line = NULL;
	size_t cap = 0;
	FILE *f = fopen(mountinfo, "re");

	if (!f)
		return;
	while (getline(&line, &cap, f) > 0) {
		unsigned ma, mi;
		char mnt[512], type[32];
		const char *dash;

		/* id parent MAJ:MIN root MOUNTPOINT options ... - TYPE SOURCE SUPEROPTS */
		if (sscanf(line, "%*u %*u %u:%u %*s %511s", &ma, &mi, mnt) != 3 || ma != d->major ||
		    mi != d->minor || !(dash = strstr(line, " - ")) ||
		    sscanf(dash + 3, "%31s", type) != 1)
			continue;
		/* mountinfo escapes blanks as \040: shown as they are */
		snprintf(d->mount, sizeof(d->mount), "%s", mnt);
		snprintf(d->fstype, sizeof(d->fstype), "%s", type);
		break;
	}
	free(line);
	fclose(f);
}

static int by_name(const void *a, const void *b)
{
	const struct ss_blockdev_info *x = a, *y = b;

	return strcmp(x->name, y->name);
}

int ss_blockdev_list(const char *sysfs, const char *mountinfo, struct ss_blockdev_info **out,
		     size_t *nr, char *err, size_t errlen)
{
	char cls[PATH_MAX], path[PATH_MAX], real[PATH_MAX], disk[PATH_MAX], buf[64];
	struct ss_blockdev_info *v = NULL, *d;
	size_t n = 0, cap = 0;
	struct dirent *de;
	DIR *dir;

	*out = NULL;
	*nr = 0;
	snprintf(cls, sizeof(cls), "%s/class/block", sysfs);
	dir = opendir(cls);
	if (!dir) {
		int e = errno;

		ss_errf(err, errlen, "%s: %s", cls, strerror(e));
		return -e;
	}
	while ((de = readdir(dir))) {
		char *slash;

		if (de->d_name[0] == '.' || strlen(de->d_name) >= sizeof(v->name))
			continue;
		if (!fits(snprintf(path, sizeof(path), "%s/%s", cls, de->d_name), sizeof(path)) ||
		    !realpath(path, real) || !attr_u64(real, "size"))
			continue;
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 32;
			void *p = reallocarray(v, ncap, sizeof(*v));

			if (!p) {
				closedir(dir);
				free(v);
				ss_errf(err, errlen, "out of memory");
				return -ENOMEM;
			}
			v = p;
			cap = ncap;
		}
		d = &v[n++];
		memset(d, 0, sizeof(*d));
		snprintf(d->name, sizeof(d->name), "%.*s", (int)sizeof(d->name) - 1, de->d_name);
		d->nr_sectors = attr_u64(real, "size");
		d->read_only = attr_u64(real, "ro") != 0;
		attr(real, "dev", buf, sizeof(buf));
		if (sscanf(buf, "%u:%u", &d->major, &d->minor) != 2)
			d->major = d->minor = 0;
		d->partition = fits(snprintf(path, sizeof(path), "%s/partition", real), sizeof(path)) &&
			       access(path, F_OK) == 0;
		strcpy(disk, real);   /* the same size */
		if (d->partition && (slash = strrchr(disk, '/')))
			*slash = 0;
		slash = strrchr(disk, '/');
		snprintf(d->disk, sizeof(d->disk), "%.*s", (int)sizeof(d->disk) - 1,
			 slash ? slash + 1 : disk);
		d->rotational = fits(snprintf(path, sizeof(path), "%s/queue", disk), sizeof(path)) &&
				attr_u64(path, "rotational") != 0;
		attr(disk, "device/model", d->model, sizeof(d->model));
		attr(real, "loop/backing_file", d->backing, sizeof(d->backing));
		find_mount(mountinfo, d);
	}
	closedir(dir);
	if (n)
		qsort(v, n, sizeof(*v), by_name);
	*out = v;
	*nr = n;
	return 0;
}

/* Is loop device NAME (its sysfs directory DIR) backed by the file ST? */
static bool loop_backs(const char *name, const char *dir, const struct stat *st)
{
	struct loop_info64 info;
	char node[64], back[PATH_MAX];
	struct stat bs;
	int fd;

	fd = fits(snprintf(node, sizeof(node), "/dev/%s", name), sizeof(node)) ?
	     open(node, O_RDONLY | O_CLOEXEC) : -1;
	if (fd >= 0) {
		int ret = ioctl(fd, LOOP_GET_STATUS64, &info);

		close(fd);
		if (ret == 0)
			return info.lo_device == st->st_dev && info.lo_inode == st->st_ino;
	}
	/* not ours to open (or no /dev node): the name sysfs keeps */
	attr(dir, "loop/backing_file", back, sizeof(back));
	return back[0] && stat(back, &bs) == 0 && bs.st_dev == st->st_dev &&
	       bs.st_ino == st->st_ino;
}

int ss_blockdev_loops_of(const char *file, const char *sysfs, char *names, size_t len,
			 char *err, size_t errlen)
{
	char cls[PATH_MAX], dir[PATH_MAX];
	struct dirent *de;
	struct stat st;
	size_t used = 0;
	int count = 0;
	DIR *d;

	names[0] = 0;
	if (stat(file, &st) < 0) {
		int e = errno;

		ss_errf(err, errlen, "%s: %s", file, strerror(e));
		return -e;
	}
	snprintf(cls, sizeof(cls), "%s/block", sysfs);
	d = opendir(cls);
	if (!d) {
		int e = errno;

		ss_errf(err, errlen, "%s: %s", cls, strerror(e));
		return -e;
	}
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "loop", 4))
			continue;
		if (!fits(snprintf(dir, sizeof(dir), "%s/%s", cls, de->d_name), sizeof(dir)) ||
		    !attr_u64(dir, "size") || !loop_backs(de->d_name, dir, &st))
			continue;
		if (used < len)
			used += (size_t)snprintf(names + used, len - used, "%s%s", count ? "," : "",
						 de->d_name);
		count++;
	}
	closedir(d);
	return count;
}
