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
#include "rmtree.h"

static char dir[] = "/tmp/ss-test-rmtree-XXXXXX";

static char *tpath(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *tpath(const char *fmt, ...)
{
	static char bufs[8][1024];
	static unsigned next;
	char *buf = bufs[next++ % 8];
	va_list ap;
	int n = snprintf(buf, sizeof(bufs[0]), "%s/", dir);

	va_start(ap, fmt);
	vsnprintf(buf + n, sizeof(bufs[0]) - (size_t)n, fmt, ap);
	va_end(ap);
	return buf;
}

#define TP(var, ...) char var[1024]; snprintf(var, sizeof(var), "%s", tpath(__VA_ARGS__))

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *f)
{
	(void)f;
	/* chmod() follows symlinks: only ever on a directory, or a leftover link to "/"
	 * would chmod the root */
	if ((flag == FTW_DP || flag == FTW_D) && S_ISDIR(sb->st_mode))
		fchmodat(AT_FDCWD, p, 0700, AT_SYMLINK_NOFOLLOW);
	return remove(p);
}

static void cleanup(void)
{
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

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
	if (!mkdtemp(dir)) {
		printf("not ok 1 - mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	atexit(cleanup);
	test_rmtree();
	return done_testing();
}
