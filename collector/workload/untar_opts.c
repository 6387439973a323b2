// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The extraction's small pure helpers (untar.h): the --fsync modes by name, and the path policy
 * an archive entry's name must pass (relative, no "..") before anything is created for it.
 * Kept apart from the run itself (untar.c) so that the option parser and the fuzz target use
 * them without the extraction machinery.
 */
#include <errno.h>
#include <string.h>

#include "untar.h"

const char *ss_fsync_mode_name(enum ss_fsync_mode m)
{
	switch (m) {
	case SS_FSYNC_END:  return "end";
	case SS_FSYNC_NONE: return "none";
	case SS_FSYNC_FILE: return "file";
	}
	return "?";
}

int ss_fsync_mode_parse(const char *s, enum ss_fsync_mode *m)
{
	static const enum ss_fsync_mode all[] = { SS_FSYNC_END, SS_FSYNC_NONE, SS_FSYNC_FILE };

	for (size_t i = 0; s && i < sizeof(all) / sizeof(all[0]); i++) {
		if (!strcmp(s, ss_fsync_mode_name(all[i]))) {
			*m = all[i];
			return 0;
		}
	}
	return -EINVAL;
}

int ss_untar_path_check(const char *path)
{
	size_t depth = 0;
	const char *p;

	if (!path || !*path)
		return -EINVAL;
	if (path[0] == '/')
		return -EPERM;
	for (p = path; *p; ) {
		size_t len = strcspn(p, "/");

		if (len == 2 && p[0] == '.' && p[1] == '.')
			return -EPERM;
		depth += len && !(len == 1 && p[0] == '.');
		p += len;
		while (*p == '/')
			p++;
	}
	return depth > SS_UNTAR_MAX_DEPTH ? -ENAMETOOLONG : 0;
}

/* The next component of *p (skipping "" and "." ones), its length in *len; NULL at the end. */
static const char *next_component(const char **p, size_t *len)
{
	for (;;) {
		const char *c = *p;

		while (*c == '/')
			c++;
		if (!*c)
			return NULL;
		*len = strcspn(c, "/");
		*p = c + *len;
		if (!(*len == 1 && c[0] == '.'))
			return c;
	}
}

bool ss_untar_same_path(const char *a, const char *b)
{
	const char *ca, *cb;
	size_t la = 0, lb = 0;

	if (!a || !b)
		return false;
	for (;;) {
		ca = next_component(&a, &la);
		cb = next_component(&b, &lb);
		if (!ca || !cb)
			return !ca && !cb;
		if (la != lb || memcmp(ca, cb, la))
			return false;
	}
}
