// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: the extraction workload (collector/untar.c: libarchive reading any supported
 * format and filter, our path policy, archive_write_disk with the secure flags, and the
 * delete phase's ss_rmtree) on untrusted archive bytes, extracted into a fresh directory.
 *
 * Containment is checked, not assumed:
 *  - The harness works in a sandbox directory (mkdtemp in $FUZZ_SANDBOX_DIR, else $TMPDIR or
 *    /tmp) holding "outside/victim" and the extraction directory "dest".  After every
 *    input the sandbox must hold exactly those two, the victim must be unchanged (contents,
 *    mode, one link: a hard link to it from the archive would raise st_nlink) and nothing may
 *    remain in dest once the tree is removed.
 *  - Where the kernel allows it (root, or an unprivileged user namespace), the fuzzer first
 *    moves into a private mount namespace in which every mount is read-only except the
 *    sandbox and the current directory (libFuzzer's corpus and artifacts).  A write anywhere
 *    else then fails with EROFS instead of happening, and the harness aborts when it sees an
 *    EROFS come back.  Under libFuzzer the harness refuses to run without that protection
 *    unless FUZZ_UNTAR_UNSANDBOXED=1; the regression replayer (which only replays inputs the
 *    code already survives) falls back to the directory checks.
 *  - The sandbox's parent is read-only inside the namespace, so a helper process forked
 *    before entering it removes the sandbox once the fuzzer exits (crash included).
 *  - Inside the namespace the sandbox is also mounted on /mnt, and the harness works there:
 *    archive_write_disk checks every component of an entry's path from the root for symlinks
 *    (an lstat, an open and a close each), so the two components of /mnt/dest instead of the
 *    five to seven of $FUZZ_SANDBOX_DIR/untar-sandbox.XXXXXX/dest make each input about
 *    twice as fast with the same checks.
 */
#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "fuzz.h"
#include "rmtree.h"
#include "untar.h"

static int memfd = -1;
static char sandbox[4096], outside[4128], victim[4160], dest[4128];
static int sandbox_fd = -1;
static bool read_only_world;
static const char victim_text[] = "victim: must never change";

static void die(const char *what)
{
	fprintf(stderr, "fuzz_untar: %s: %s\n", what, strerror(errno));
	exit(1);
}

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0)
		return -1;
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
		close(fd);
		return -1;
	}
	return close(fd);
}

/* Private mount namespace, everything read-only but the sandbox and the cwd.  0 or -errno. */
static int seal_world(const char *cwd)
{
	struct mount_attr ro = { .attr_set = MOUNT_ATTR_RDONLY };
	struct mount_attr rw = { .attr_clr = MOUNT_ATTR_RDONLY };
	const char *writable[] = { sandbox, cwd };

	if (unshare(CLONE_NEWNS) < 0) {
		uid_t uid = getuid();
		gid_t gid = getgid();
		char map[64];

		if (unshare(CLONE_NEWUSER | CLONE_NEWNS) < 0)
			return -errno;
		/* map ourselves so that files keep our owner */
		write_file("/proc/self/setgroups", "deny");
		snprintf(map, sizeof(map), "%u %u 1", (unsigned)uid, (unsigned)uid);
		if (write_file("/proc/self/uid_map", map) < 0)
			return -errno;
		snprintf(map, sizeof(map), "%u %u 1", (unsigned)gid, (unsigned)gid);
		if (write_file("/proc/self/gid_map", map) < 0)
			return -errno;
	}
	/* nothing done in here may propagate back to the host's mounts */
	if (mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) < 0)
		return -errno;
	for (size_t i = 0; i < 2; i++)
		if (mount(writable[i], writable[i], "none", MS_BIND | MS_REC, NULL) < 0)
			return -errno;
	if (mount_setattr(-1, "/", AT_RECURSIVE, &ro, sizeof(ro)) < 0)
		return -errno;
	for (size_t i = 0; i < 2; i++)
		if (mount_setattr(-1, writable[i], AT_RECURSIVE, &rw, sizeof(rw)) < 0)
			return -errno;
	/* our cwd still names the directory on the mount below the new bind: step onto it */
	if (chdir(cwd) < 0)
		return -errno;
	return 0;
}

/* The sandbox, already sealed in, also on SHORT: work there (see the top of the file). */
static void use_short_path(const char *short_path)
{
	struct stat st;

	if (stat(short_path, &st) < 0 || !S_ISDIR(st.st_mode) ||
	    mount(sandbox, short_path, "none", MS_BIND, NULL) < 0)
		return;   /* the long path works too, only slower */
	snprintf(sandbox, sizeof(sandbox), "%s", short_path);
	snprintf(outside, sizeof(outside), "%s/outside", sandbox);
	snprintf(victim, sizeof(victim), "%s/victim", outside);
	snprintf(dest, sizeof(dest), "%s/dest", sandbox);
}

static void remove_sandbox(void)
{
	struct ss_rmtree t = { 0 };
	char *slash = strrchr(sandbox, '/');
	int parent;

	if (!slash)
		return;
	*slash = 0;
	parent = open(*sandbox ? sandbox : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	*slash = '/';
	if (parent >= 0) {
		ss_rmtree_at(&t, parent, slash + 1);
		close(parent);
	}
}

/*
 * Fork a helper, still in the host's mount namespace, that waits until every copy of the
 * pipe's write end is gone (this process exited, however) and then removes the sandbox.
 */
static void start_janitor(void)
{
	int pfd[2];
	char c;
	pid_t pid;

	if (pipe2(pfd, O_CLOEXEC) < 0)
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		signal(SIGINT, SIG_IGN);
		signal(SIGTERM, SIG_IGN);
		close(pfd[1]);
		while (read(pfd[0], &c, 1) < 0 && errno == EINTR)
			;
		remove_sandbox();
		_exit(0);
	}
	close(pfd[0]);   /* the write end stays open, unused, until we exit */
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *base = getenv("FUZZ_SANDBOX_DIR");
	char cwd[4096];
	int ret;

	(void)argc, (void)argv;
	if (!getcwd(cwd, sizeof(cwd)))
		die("getcwd");
	if (!base || !*base)
		base = getenv("TMPDIR");
	if (!base || !*base)
		base = "/tmp";
	if (strlen(base) > sizeof(sandbox) - 64)
		die("sandbox directory path too long");
	snprintf(sandbox, sizeof(sandbox), "%.4000s/untar-sandbox.XXXXXX", base);
	if (!mkdtemp(sandbox))
		die("mkdtemp");
	snprintf(outside, sizeof(outside), "%s/outside", sandbox);
	snprintf(victim, sizeof(victim), "%s/victim", outside);
	snprintf(dest, sizeof(dest), "%s/dest", sandbox);
	if (mkdir(outside, 0755) < 0 || mkdir(dest, 0755) < 0 || write_file(victim, victim_text) < 0)
		die("setting up the sandbox");
	start_janitor();
	ret = seal_world(cwd);
	if (ret == 0) {
		/* prove the seal: next to the sandbox nothing can be created any more */
		char probe[4200];
		int fd;

		snprintf(probe, sizeof(probe), "%s.probe", sandbox);
		fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd >= 0 || errno != EROFS) {
			if (fd >= 0) {
				close(fd);
				unlink(probe);
			}
			errno = fd >= 0 ? EEXIST : errno;
			die("the read-only seal does not hold");
		}
		read_only_world = true;
		use_short_path("/mnt");
		/* libFuzzer's -jobs workers are children of this process, in this namespace:
		 * the only place they can make their own sandboxes is inside ours */
		setenv("FUZZ_SANDBOX_DIR", sandbox, 1);
	} else if (!ss_fuzz_replay && !getenv("FUZZ_UNTAR_UNSANDBOXED")) {
		errno = -ret;
		die("cannot make the rest of the system read-only (run as root, or set "
		    "FUZZ_UNTAR_UNSANDBOXED=1 to rely on the directory checks alone)");
	}
	sandbox_fd = open(sandbox, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (sandbox_fd < 0)
		die(sandbox);
	/* the sandbox is removed when the process ends normally (not after a crash: evidence) */
	return 0;
}

/*
 * After each input: nothing but outside/ and dest/ in the sandbox, the victim untouched.
 * (Not a search for "Read-only file system" in the message: entry names are in it, and the
 * fuzzer soon learnt to put that text in one.  The caller checks for -EROFS instead.)
 */
static void check_contained(void)
{
	struct stat st;
	char buf[sizeof(victim_text) + 8];
	ssize_t n;
	int fd;
	DIR *d;
	struct dirent *de;

	FUZZ_ASSERT(lstat(victim, &st) == 0 && S_ISREG(st.st_mode) && st.st_nlink == 1 &&
		    (st.st_mode & 07777) == 0644, "victim changed (mode %o, links %lu)",
		    (unsigned)st.st_mode, (unsigned long)st.st_nlink);
	fd = open(victim, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	FUZZ_ASSERT(fd >= 0, "victim cannot be opened");
	n = read(fd, buf, sizeof(buf));
	close(fd);
	FUZZ_ASSERT(n == (ssize_t)strlen(victim_text) && !memcmp(buf, victim_text, (size_t)n),
		    "victim contents changed");
	FUZZ_ASSERT(lstat(outside, &st) == 0 && S_ISDIR(st.st_mode) &&
		    (st.st_mode & 07777) == 0755, "outside/ changed");
	d = opendir(outside);
	FUZZ_ASSERT(d, "outside/ unreadable");
	while ((de = readdir(d)))
		FUZZ_ASSERT(!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
			    !strcmp(de->d_name, "victim"), "outside/%s appeared", de->d_name);
	closedir(d);
	d = opendir(sandbox);
	FUZZ_ASSERT(d, "sandbox unreadable");
	while ((de = readdir(d)))
		FUZZ_ASSERT(!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
			    !strcmp(de->d_name, "outside") || !strcmp(de->d_name, "dest"),
			    "%s appeared next to dest/", de->d_name);
	closedir(d);
	FUZZ_ASSERT(lstat(dest, &st) == 0 && S_ISDIR(st.st_mode), "dest/ replaced");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ss_untar_opts o = { 0 };
	struct ss_untar_stats st;
	struct ss_rmtree rt = { 0 };
	char path[64], err[512] = "";
	int ret, dfd;

	if (size > (1u << 20))
		return 0;
	if (fuzz_memfile(&memfd, data, size, 0, path, sizeof(path)) < 0)
		return 0;
	o.archive = path;
	o.dest = dest;
	o.fsync_mode = SS_FSYNC_NONE;
	o.delete_after = true;
	ret = ss_untar_run(&o, &st, err, sizeof(err));
	FUZZ_ASSERT(ret != -EROFS, "EROFS: a write outside the sandbox was attempted: %s", err);
	FUZZ_ASSERT(ret == 0 || err[0], "error %d without a message", ret);
	FUZZ_ASSERT(st.nr_phases <= sizeof(st.phases) / sizeof(st.phases[0]), "phases overflow");
	check_contained();

	/* empty dest for the next input; the delete phase did that already on success */
	dfd = open(dest, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	FUZZ_ASSERT(dfd >= 0, "dest/ cannot be opened");
	ret = ss_rmtree_at(&rt, dfd, "1");
	close(dfd);
	FUZZ_ASSERT(ret == 0 || ret == -ENOENT, "cannot clean dest/1: %s", strerror(-ret));
	return 0;
}
