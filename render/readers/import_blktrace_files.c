// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Which files make a blktrace trace (import_blktrace_files.h): a prefix, one file and its
 * per-CPU siblings, or a directory; PREFIX.blktrace.N sorted by prefix and CPU, empty ones
 * (CPUs that saw no I/O) left out.
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "errbuf.h"
#include "import_blktrace_files.h"
#include "trace_backend.h"

#define BT_SUFFIX       ".blktrace."
#define MAX_FILES       1024

/* If NAME is PREFIX.blktrace.N, the length of PREFIX and N; else -1. */
static long split_name(const char *name, unsigned long *cpu)
{
	const char *s = NULL, *p;
	char *end;

	for (p = strstr(name, BT_SUFFIX); p; p = strstr(p + 1, BT_SUFFIX))
		s = p;
	if (!s || s == name)
		return -1;
	p = s + strlen(BT_SUFFIX);
	if (*p < '0' || *p > '9')
		return -1;
	errno = 0;
	*cpu = strtoul(p, &end, 10);
	if (*end || errno)
		return -1;
	return (long)(s - name);
}

struct name_ent {
	char *path;
	size_t plen;            /* prefix length within the base name */
	const char *base;
	unsigned long cpu;
};

static int cmp_names(const void *a, const void *b)
{
	const struct name_ent *x = a, *y = b;
	int c = strncmp(x->base, y->base, x->plen < y->plen ? x->plen : y->plen);

	if (c)
		return c;
	if (x->plen != y->plen)
		return x->plen < y->plen ? -1 : 1;
	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

/*
 * The files to read, sorted by prefix and CPU: in DIR those named PREFIX.blktrace.N (any
 * prefix if PREFIX is NULL), skipping empty ones (CPUs that saw no I/O).
 */
static int scan_dir(const char *dir, const char *prefix, struct name_ent **out, size_t *nr,
		    char *err, size_t errlen)
{
	struct name_ent *v = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	DIR *d = opendir(dir);
	int ret = 0;

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		struct name_ent e;
		struct stat st;
		long plen = split_name(de->d_name, &e.cpu);

		if (plen < 0 || (prefix && (strlen(prefix) != (size_t)plen ||
					    strncmp(prefix, de->d_name, (size_t)plen))))
			continue;
		if (n == MAX_FILES) {
			ss_errf(err, errlen, "more than %d blktrace files", MAX_FILES);
			ret = -E2BIG;
			break;
		}
		if (asprintf(&e.path, "%s/%s", dir, de->d_name) < 0) {
			ret = -ENOMEM;
			break;
		}
		if (stat(e.path, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size == 0) {
			free(e.path);
			continue;
		}
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 8;
			struct name_ent *q = reallocarray(v, ncap, sizeof(*q));

			if (!q) {
				free(e.path);
				ret = -ENOMEM;
				break;
			}
			v = q;
			cap = ncap;
		}
		e.plen = (size_t)plen;
		e.base = strrchr(e.path, '/') + 1;
		v[n++] = e;
	}
	closedir(d);
	if (!ret && n)
		qsort(v, n, sizeof(*v), cmp_names);
	*out = v;
	*nr = n;
	return ret;
}

static int list_files(const char *path, struct name_ent **files, size_t *nr, char *err,
		      size_t errlen)
{
	char *dir = NULL, *base, *prefix = NULL;
	unsigned long cpu;
	struct stat st;
	bool exists;
	long plen;
	int ret;

	*files = NULL;
	*nr = 0;
	exists = stat(path, &st) == 0;
	if (exists && S_ISDIR(st.st_mode)) {
		ret = scan_dir(path, NULL, files, nr, err, errlen);
		if (!ret && !*nr) {
			ss_trace_unknown_format(err, errlen, ": a directory without blktrace "
						"files (NAME.blktrace.N)");
			ret = -ENOENT;
		}
		return ret;
	}
	if (!(dir = strdup(path)))
		return -ENOMEM;
	base = strrchr(dir, '/');
	if (base) {
		*base++ = 0;
		if (!*dir)
			strcpy(dir, "/");   /* fits: "/" is shorter than what was there */
	} else {
		base = dir;
	}
	plen = split_name(base, &cpu);
	if (exists && plen < 0) {
		/* one stream with another name (e.g. blkparse -d output): just that file */
		struct name_ent *e = calloc(1, sizeof(*e));

		ret = -ENOMEM;
		if (e && (e->path = strdup(path))) {
			*files = e;
			*nr = 1;
			ret = 0;
		} else {
			free(e);
		}
		free(dir);
		return ret;
	}
	/* PREFIX.blktrace.N: all of PREFIX's CPUs; a name that is no file: a prefix */
	ret = -ENOMEM;
	prefix = exists ? strndup(base, (size_t)plen) : strdup(base);
	if (prefix) {
		const char *d = base == dir ? "." : dir;

		ret = scan_dir(d, prefix, files, nr, err, errlen);
		if (!ret && !*nr)
			ret = -ENOENT;
	}
	free(prefix);
	free(dir);
	return ret;
}

int ss_bt_list_files(const char *path, char ***paths, size_t *nr, char *err, size_t errlen)
{
	struct name_ent *names = NULL;
	char **p;
	int ret = list_files(path, &names, nr, err, errlen);

	*paths = NULL;
	p = ret ? NULL : calloc(*nr ? *nr : 1, sizeof(*p));
	if (!ret && !p)
		ret = -ENOMEM;
	for (size_t i = 0; i < *nr; i++) {
		if (p)
			p[i] = names[i].path;
		else
			free(names[i].path);
	}
	free(names);
	if (ret)
		*nr = 0;
	else
		*paths = p;
	return ret;
}
