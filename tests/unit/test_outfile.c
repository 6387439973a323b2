// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Output files that cannot be turned against their host (collector/core/outfile.c): no write
 * through a planted symbolic link, into a hard-linked file or into another user's file in a
 * sticky shared directory; REPLACE leaves the old file until the new one is complete.  Works in
 * a mkdtemp() directory, removed at exit.  The other-user checks need root (chown) and are
 * skipped without it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>

#include "tap.h"
#include "testdir.h"
#include "outfile.h"

#define VICTIM "precious contents\n"

static void put(const char *path, const char *text)
{
	int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);

	if (fd >= 0) {
		if (write(fd, text, strlen(text)) < 0)
			perror(path);
		close(fd);
	}
}

/* The file's whole content ("" if unreadable). */
static const char *slurp(const char *path)
{
	static char buf[256];
	int fd = open(path, O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = 0;
	return buf;
}

static int write_commit(const char *path, enum ss_out_mode mode, const char *text, char *err,
			size_t errlen)
{
	struct ss_outfile *o = ss_outfile_open(path, mode, 0644, err, errlen);

	if (!o)
		return -errno;
	if (write(ss_outfile_fd(o), text, strlen(text)) != (ssize_t)strlen(text)) {
		ss_outfile_discard(o);
		return -EIO;
	}
	return ss_outfile_commit(o, err, errlen);
}

static void test_modes(enum ss_out_mode mode, const char *m)
{
	TP(victim, "%s-victim", m);
	TP(slink, "%s-link", m);
	TP(hard, "%s-hard", m);
	TP(out, "%s-out", m);
	char err[256] = "";
	struct stat st;

	put(victim, VICTIM);
	is_int(write_commit(out, mode, "new\n", err, sizeof(err)), 0, "%s: a new file is created", m);
	is_str(slurp(out), "new\n", "%s: with what was written", m);
	is_int(stat(out, &st), 0, "%s: stat", m);
	is_int(st.st_mode & 0777, 0644, "%s: mode 0644 (umask 022)", m);
	is_int(write_commit(out, mode, "x\n", err, sizeof(err)), 0, "%s: an existing file", m);
	is_str(slurp(out), "x\n", "%s: is replaced by the new contents, not appended to", m);

	symlink(victim, slink);
	is_int(write_commit(slink, mode, "evil\n", err, sizeof(err)), -ELOOP,
	       "%s: a symbolic link is refused", m);
	ok(strstr(err, "symbolic link") != NULL, "%s: and the message says so: %s", m, err);
	is_str(slurp(victim), VICTIM, "%s: its target is untouched", m);
	ok(lstat(slink, &st) == 0 && S_ISLNK(st.st_mode), "%s: the link itself is still there", m);

	is_int(link(victim, hard), 0, "%s: hard link made", m);
	if (mode == SS_OUT_INPLACE) {
		is_int(write_commit(hard, mode, "evil\n", err, sizeof(err)), -EMLINK,
		       "%s: a file with other hard links is refused", m);
	} else {
		/* rename replaces the name only: the other link keeps the old file */
		is_int(write_commit(hard, mode, "mine\n", err, sizeof(err)), 0,
		       "%s: a hard-linked name is replaced", m);
		is_str(slurp(hard), "mine\n", "%s: the name holds the new file", m);
	}
	is_str(slurp(victim), VICTIM, "%s: the other link's contents are untouched", m);

	is_int(write_commit(dir, mode, "x", err, sizeof(err)), -EISDIR,
	       "%s: a directory is refused", m);
	is_int(write_commit("/dev/null", mode, "x", err, sizeof(err)), 0,
	       "%s: /dev/null is written into", m);
	ok(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode), "%s: and stays a device", m);
	is_int(write_commit(tpath("no/such/dir/f"), mode, "x", err, sizeof(err)), -ENOENT,
	       "%s: a missing directory is ENOENT", m);
}

static void test_replace_atomic(void)
{
	TP(out, "atomic");
	char err[256];
	struct ss_outfile *o;
	int n = 0;

	put(out, VICTIM);
	o = ss_outfile_open(out, SS_OUT_REPLACE, 0644, err, sizeof(err));
	ok(o != NULL, "replace: opened");
	if (!o)
		return;
	ok(write(ss_outfile_fd(o), "half", 4) == 4, "replace: half a result written");
	is_str(slurp(out), VICTIM, "replace: the old file is intact while the new one is written");
	ss_outfile_discard(o);
	is_str(slurp(out), VICTIM, "replace: discard leaves the old file");
	{
		char cmd[1200];
		FILE *p;

		snprintf(cmd, sizeof(cmd), "ls -A '%s' | grep -c '^\\.atomic' || true", dir);
		p = popen(cmd, "r");
		if (p) {
			if (fscanf(p, "%d", &n) != 1)
				n = -1;
			pclose(p);
		}
	}
	is_int(n, 0, "replace: and no temporary file behind");
}

/* nobody's files in a sticky world-writable directory: what `seekscope -o /tmp/x` meets. */
static void test_sticky(void)
{
	TP(shared, "shared");
	TP(victim, "root-owned");
	TP(theirs, "shared/theirs");
	TP(trap, "shared/trap");
	TP(mine, "shared/mine");
	char err[256];
	int m;

	if (!have(NEED_ROOT, NULL)) {
		skip_need(14, NEED_ROOT, NULL);
		return;
	}
	mkdir(shared, 0755);
	chmod(shared, 01777);
	put(victim, VICTIM);
	put(theirs, "theirs\n");
	is_int(chown(theirs, 65534, 65534), 0, "sticky: a file of uid 65534 planted");
	symlink(victim, trap);
	is_int(lchown(trap, 65534, 65534), 0, "sticky: and a link of uid 65534 to a root file");
	for (m = SS_OUT_INPLACE; m <= SS_OUT_REPLACE; m++) {
		const char *name = m == SS_OUT_INPLACE ? "inplace" : "replace";

		is_int(write_commit(theirs, (enum ss_out_mode)m, "root\n", err, sizeof(err)), -EPERM,
		       "sticky %s: another user's file is refused", name);
		ok(strstr(err, "another user") != NULL, "sticky %s: message: %s", name, err);
		is_str(slurp(theirs), "theirs\n", "sticky %s: and left as it was", name);
		is_int(write_commit(trap, (enum ss_out_mode)m, "root\n", err, sizeof(err)), -ELOOP,
		       "sticky %s: the planted link is refused", name);
		is_str(slurp(victim), VICTIM, "sticky %s: the root-owned target is untouched", name);
		is_int(write_commit(mine, (enum ss_out_mode)m, "root\n", err, sizeof(err)), 0,
		       "sticky %s: a file of our own is written", name);
	}
}

/* ss_outfile_check(): open's refusals for INPLACE, and nothing created or truncated. */
static void test_check(void)
{
	TP(victim, "chk-victim");
	TP(slink, "chk-link");
	TP(hard, "chk-hard");
	TP(fresh, "chk-new");
	char err[256] = "";
	struct stat st;

	put(victim, VICTIM);
	is_int(ss_outfile_check(fresh, err, sizeof(err)), 0, "check: a new file may be created");
	ok(lstat(fresh, &st) < 0 && errno == ENOENT, "check: but it is not created");
	is_int(ss_outfile_check(victim, err, sizeof(err)), 0, "check: an existing file may be replaced");
	is_str(slurp(victim), VICTIM, "check: but it is not truncated");
	symlink(victim, slink);
	is_int(ss_outfile_check(slink, err, sizeof(err)), -ELOOP, "check: symbolic link: %s", err);
	link(victim, hard);
	is_int(ss_outfile_check(hard, err, sizeof(err)), -EMLINK, "check: hard link: %s", err);
	is_int(ss_outfile_check(dir, err, sizeof(err)), -EISDIR, "check: directory: %s", err);
	is_int(ss_outfile_check(tpath("no/such/f"), err, sizeof(err)), -ENOENT,
	       "check: missing directory: %s", err);
	is_int(ss_outfile_check("/dev/null", err, sizeof(err)), 0, "check: /dev/null");
	if (geteuid() != 0) {
		TP(ro, "chk-ro");
		mkdir(ro, 0555);
		is_int(ss_outfile_check(tpath("chk-ro/f"), err, sizeof(err)), -EACCES,
		       "check: unwritable directory: %s", err);
	} else {
		skip(1, "an unwritable directory is checked as non-root (root: a read-only mount "
		     "in tests/integration/record-refusals.sh)");
	}
}

int main(void)
{
	if (testdir_make("outfile"))
		return 1;
	umask(022);
	test_modes(SS_OUT_INPLACE, "inplace");
	test_modes(SS_OUT_REPLACE, "replace");
	test_replace_atomic();
	test_check();
	test_sticky();
	return done_testing();
}
