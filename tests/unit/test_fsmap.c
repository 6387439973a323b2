// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The file mapper (collector/fsprobe/fsmap.c) on a tree that changes while it is mapped, as a
 * workload running beside it (as another user) can change it: a directory is swapped for a
 * symlink to a directory outside the tree right after the mapper has recorded it and before
 * fts lists it, and a file is swapped for another one.  Nothing outside the tree may be
 * recorded (the mapper used to open every entry by its path, which followed the swapped-in
 * symlink on the way and mapped the outside file as if it were inside), the changed entries
 * are counted, and the rest of the tree is mapped as before.  Also: the plain walk numbers
 * the entries parents first and maps every regular file of the tree (no FIEMAP needed to say
 * so: a file with data may lack extents only where the filesystem cannot map).
 */
#include <string.h>

#include "tap.h"
#include "testdir.h"
#include "fsmap.h"

struct seen {
	char names[64][64];
	uint32_t parents[64];
	int n;
	const char *swap_dir;        /* swap this directory for a symlink once it is recorded */
	const char *swap_file;       /* ... and this file for another one */
};

static int on_file(void *ctx, const struct ss_rec_file *f, const char *name)
{
	struct seen *s = ctx;

	if (s->n < 64) {
		snprintf(s->names[s->n], sizeof(s->names[0]), "%s", name);
		s->parents[s->n] = f->parent;
		s->n++;
	}
	if (s->swap_dir && !strcmp(name, "sub")) {
		/* the directory fts is about to list becomes a symlink to the outside */
		if (rename(tpath("tree/sub"), tpath("tree/sub.moved")) ||
		    symlink(tpath("outside"), tpath("tree/sub")))
			return -errno;
		s->swap_dir = NULL;
	}
	if (s->swap_file && !strcmp(name, "a")) {
		/* "b", listed already, is replaced by another file before the mapper opens it */
		if (rename(tpath("tree/b"), tpath("tree/b.old")) ||
		    link(tpath("tree/z"), tpath("tree/b")))
			return -errno;
		s->swap_file = NULL;
	}
	return 0;
}

static int on_extent(void *ctx, const struct ss_rec_extent *e)
{
	(void)ctx, (void)e;
	return 0;
}

static int has(const struct seen *s, const char *name)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->names[i], name))
			return 1;
	return 0;
}

static int write_file(const char *path, size_t len)
{
	char buf[4096];
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	int ret = 0;

	memset(buf, 'x', sizeof(buf));
	if (fd < 0)
		return -1;
	for (size_t done = 0; done < len && !ret; done += sizeof(buf))
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			ret = -1;
	if (fsync(fd))
		ret = -1;
	close(fd);
	return ret;
}

static int make_tree(void)
{
	return mkdir(tpath("tree"), 0755) || mkdir(tpath("tree/sub"), 0755) ||
	       mkdir(tpath("outside"), 0755) || write_file(tpath("tree/a"), 8192) ||
	       write_file(tpath("tree/b"), 8192) || write_file(tpath("tree/z"), 4096) ||
	       write_file(tpath("tree/sub/in"), 4096) || write_file(tpath("outside/secret"), 4096);
}

static int walk(struct seen *s, struct ss_fsmap_stats *st, char *err, size_t errlen)
{
	char root[1024];
	struct ss_fsmap_opts o = { .dir = root, .file = on_file, .extent = on_extent, .ctx = s };

	snprintf(root, sizeof(root), "%s", tpath("tree"));
	return ss_fsmap_walk(&o, st, err, errlen);
}

int main(void)
{
	struct ss_fsmap_stats st;
	struct seen s;
	char err[256] = "";
	int ret, sorted = 1;

	plan(11);
	if (testdir_make("fsmap") || make_tree()) {
		skip_all("cannot make the test tree");
		return 0;
	}

	/* the plain walk */
	memset(&s, 0, sizeof(s));
	ret = walk(&s, &st, err, sizeof(err));
	is_int(ret, 0, "a plain walk succeeds (%s)", err);
	is_int(s.n, 6, "every entry recorded: the root, a, b, sub, sub/in, z");
	for (int i = 1; i < s.n; i++)
		sorted &= s.parents[i] < (uint32_t)i;
	ok(sorted && s.parents[0] == SS_FILE_NO_PARENT, "parents before children");
	ok(st.files == 4 && st.dirs == 2 && st.changed == 0 && st.errors == 0,
	   "4 files, 2 directories, nothing changed (%llu, %llu, %llu)",
	   (unsigned long long)st.files, (unsigned long long)st.dirs,
	   (unsigned long long)st.changed);

	/* a directory swapped for a symlink to the outside between its record and its listing */
	memset(&s, 0, sizeof(s));
	s.swap_dir = "sub";
	ret = walk(&s, &st, err, sizeof(err));
	is_int(ret, 0, "the walk with a directory swapped for a symlink succeeds (%s)", err);
	ok(!has(&s, "secret"), "nothing outside the tree recorded (the symlink not followed)");
	ok(st.changed >= 1, "the swapped entries counted as changed (%llu)",
	   (unsigned long long)st.changed);
	ok(has(&s, "a") && has(&s, "b") && has(&s, "z"), "the rest of the tree still mapped");
	if (rename(tpath("tree/sub"), tpath("tree/sub.link")) ||
	    rename(tpath("tree/sub.moved"), tpath("tree/sub")))
		ok(0, "restoring the tree: %s", strerror(errno));

	/* a file replaced by another one after fts looked at it */
	memset(&s, 0, sizeof(s));
	s.swap_file = "b";
	unlink(tpath("tree/sub.link"));
	ret = walk(&s, &st, err, sizeof(err));
	is_int(ret, 0, "the walk with a file replaced succeeds (%s)", err);
	ok(!has(&s, "b"), "the replaced file is left out (not mapped under its old name)");
	ok(st.changed == 1 && st.files == 3,
	   "... counted as changed, the others mapped (changed %llu, files %llu)",
	   (unsigned long long)st.changed, (unsigned long long)st.files);
	return done_testing();
}
