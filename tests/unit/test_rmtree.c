// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The delete walker: removes a whole tree, through read-only and mode-0 directories, never
 * through a symlink, stops on request.  Works in a mkdtemp() directory under /tmp, removed
 * at exit whatever happened.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>

#include "tap.h"
#include "testdir.h"
#include "rmtree.h"

static void test_rmtree(void)
{
	TP(top, "rm");
	TP(keep, "rm-keep");
	char err[256];
	struct ss_rmtree t = { .err = err, .errlen = sizeof(err) };
	volatile int stop = 1;
	int fd, dfd;

	mkdir(top, 0755);
	mkdir(keep, 0755);
	fd = open(tpath("rm-keep/precious"), O_CREAT | O_WRONLY, 0644);
	close(fd);
	mkdir(tpath("rm/a"), 0755);
	mkdir(tpath("rm/a/b"), 0755);
	fd = open(tpath("rm/a/b/f"), O_CREAT | O_WRONLY, 0644);
	close(fd);
	symlink(keep, tpath("rm/a/link"));
	symlink("/", tpath("rm/a/root"));
	mkdir(tpath("rm/ro"), 0755);
	fd = open(tpath("rm/ro/f"), O_CREAT | O_WRONLY, 0644);
	close(fd);
	chmod(tpath("rm/ro"), 0555);
	mkdir(tpath("rm/none"), 0700);
	mkdir(tpath("rm/none/sub"), 0755);
	chmod(tpath("rm/none"), 0);

	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	t.stop = &stop;
	is_int(ss_rmtree_at(&t, dfd, "rm"), -EINTR, "rmtree: stop is -EINTR (%s)", err);
	t.stop = NULL;
	is_int(ss_rmtree_at(&t, dfd, "rm"), 0, "rmtree: removes the tree (%s)", err);
	ok(access(top, F_OK) != 0, "rmtree: top directory gone");
	ok(access(tpath("rm-keep/precious"), F_OK) == 0, "rmtree: symlink target left alone");
	is_int(t.files, 2, "rmtree: counted 2 regular files");
	is_int(t.entries, 10, "rmtree: counted 10 entries");
	is_int(ss_rmtree_at(&t, dfd, "rm"), -ENOENT, "rmtree: missing name is -ENOENT");
	close(dfd);
}

int main(void)
{
	if (testdir_make("rmtree"))
		return done_testing();
	test_rmtree();
	return done_testing();
}
