// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A scratch directory for unit tests that write files: made with mkdtemp() under /tmp,
 * removed at exit.  tpath() builds paths inside it (rotating buffers, for use within one
 * statement); TP() copies one into a local for longer use.  Removal never follows a symlink
 * and only ever chmods real directories (chmod() follows links: a link to "/" must not make it
 * chmod the root).  KEEP=1 in the environment keeps it (its path is printed).  An interrupted
 * test (SIGINT, SIGTERM, SIGHUP, SIGABRT) removes it too.  Include once per test program, after
 * tap.h.
 */
#ifndef SS_TESTDIR_H
#define SS_TESTDIR_H

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sys/wait.h>

static char dir[96];
static pid_t testdir_owner;   /* a forked child never removes the directory */

static char *tpath(const char *fmt, ...) __attribute__((format(printf, 1, 2), unused));
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

static int testdir_rm_one(const char *p, const struct stat *sb, int flag, struct FTW *f)
{
	(void)f;
	if ((flag == FTW_DP || flag == FTW_D) && S_ISDIR(sb->st_mode))
		fchmodat(AT_FDCWD, p, 0700, AT_SYMLINK_NOFOLLOW);
	return remove(p);
}

/* Remove the tree at P (a path inside the scratch directory, or the directory itself). */
__attribute__((unused))
static void rm_tree(const char *p)
{
	nftw(p, testdir_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void testdir_cleanup(void)
{
	if (!dir[0] || getpid() != testdir_owner)
		return;
	if (getenv("KEEP"))
		printf("# kept %s\n", dir);
	else
		rm_tree(dir);
}

/* nftw() is not async-signal-safe; fork() and execve() are: a shell removes the directory. */
static void testdir_on_signal(int sig)
{
	char *argv[] = { "sh", "-c", "chmod -R u+rwx -- \"$1\" 2>/dev/null; rm -rf -- \"$1\"",
			 "sh", dir, NULL };
	char *envp[] = { NULL };
	pid_t pid = getpid() == testdir_owner ? fork() : -1;

	if (pid == 0) {
		execve("/bin/sh", argv, envp);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Make /tmp/ss-test-NAME-XXXXXX and register its removal; 0, or -1 after a TAP "not ok". */
__attribute__((unused))
static int testdir_make(const char *name)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGABRT };

	snprintf(dir, sizeof(dir), "/tmp/ss-test-%s-XXXXXX", name);
	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp %s: %s", dir, strerror(errno));
		dir[0] = 0;
		return -1;
	}
	testdir_owner = getpid();
	atexit(testdir_cleanup);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], testdir_on_signal);
	return 0;
}

#endif
