// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Extraction workload: extraction in every fsync mode checked file by file against the
 * archive, phases, repeat/delete/stop, bad destinations, the pre-flight check and write
 * failures.  Runs unprivileged in a mkdtemp() directory under /tmp, removed at exit whatever
 * happened.  (Hostile and damaged archives: test_untar_hostile.c; the generator that makes
 * the test archives has its own tests in test_gentree.c, the delete walker in test_rmtree.c.)
 */
#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <zlib.h>

#include "tap.h"
#include "testdir.h"
#include "gentree.h"
#include "untar.h"
#include "untar_fixture.h"

static void test_names(void)
{
	enum ss_fsync_mode m = SS_FSYNC_NONE;

	is_int(ss_fsync_mode_parse("file", &m), 0, "fsync mode 'file' parses");
	is_int(m, SS_FSYNC_FILE, "... to SS_FSYNC_FILE");
	is_int(ss_fsync_mode_parse("none", &m), 0, "fsync mode 'none' parses");
	is_int(ss_fsync_mode_parse("end", &m), 0, "fsync mode 'end' parses");
	is_int(m, SS_FSYNC_END, "... to SS_FSYNC_END");
	is_int(ss_fsync_mode_parse("sometimes", &m), -EINVAL, "unknown fsync mode is -EINVAL");
	is_str(ss_fsync_mode_name(SS_FSYNC_NONE), "none", "SS_FSYNC_NONE is named none");

	is_int(ss_untar_path_check("linux/fs/xfs/xfs_log.c"), 0, "path check: plain relative path");
	is_int(ss_untar_path_check("./a/..b/c.."), 0, "path check: '..b' and 'c..' are names");
	is_int(ss_untar_path_check("../x"), -EPERM, "path check: ../x refused");
	is_int(ss_untar_path_check("a/../../x"), -EPERM, "path check: a/../../x refused");
	is_int(ss_untar_path_check("a/.."), -EPERM, "path check: trailing .. refused");
	is_int(ss_untar_path_check("a//..//b"), -EPERM, "path check: .. between double slashes");
	{
		/* as deep as the delete phase can remove, and one more ("" and "." not counted) */
		static char deep[4 * SS_UNTAR_MAX_DEPTH + 16];
		size_t n = 0;

		for (int i = 0; i < SS_UNTAR_MAX_DEPTH; i++)
			n += (size_t)sprintf(deep + n, i % 7 ? "d/" : "d/.//");
		is_int(ss_untar_path_check(deep), 0, "path check: %d directories", SS_UNTAR_MAX_DEPTH);
		strcpy(deep + n, "f");
		is_int(ss_untar_path_check(deep), -ENAMETOOLONG, "path check: one more refused");
		is_int(ss_untar_path_check(deep + 2), 0, "path check: %d with a file", SS_UNTAR_MAX_DEPTH);
	}
	is_int(ss_untar_path_check("/etc/passwd"), -EPERM, "path check: absolute refused");
	is_int(ss_untar_path_check(""), -EINVAL, "path check: empty is -EINVAL");
	ok(ss_untar_same_path("d/l", "d/l"), "same path: identical");
	ok(ss_untar_same_path("./d//./l/", "d/l"), "same path: \"\", \".\" and trailing / dropped");
	ok(!ss_untar_same_path("d/l", "d/l2") && !ss_untar_same_path("d/l", "d"),
	   "same path: a longer name or a parent differs");
	ok(!ss_untar_same_path("d/l", "d/l/x") && !ss_untar_same_path("dl", "d/l"),
	   "same path: a child or another split differs");
}

static void test_extract_modes(void)
{
	static const enum ss_fsync_mode modes[] = { SS_FSYNC_END, SS_FSYNC_NONE, SS_FSYNC_FILE };
	TP(tree, "tree.tar.gz");
	struct ss_gentree_opts g = { .path = tree, .files = 300, .dirs = 30, .seed = 11,
				     .scale = 0.5 };
	struct ss_gentree_stats gst;
	char err[512];

	is_int(ss_gentree_write_stats(&g, &gst, err, sizeof(err)), 0, "generate tree.tar.gz");
	for (size_t i = 0; i < 3; i++) {
		const char *mode = ss_fsync_mode_name(modes[i]);
		TP(dest, "x-%s", mode);
		TP(root, "x-%s/1", mode);
		struct ss_untar_opts o;
		struct ss_untar_stats st;
		struct events ev;
		struct tree_count t;
		unsigned nfiles;
		int ret;

		mkdir(dest, 0755);
		untar_opts(&o, g.path, dest, &ev);
		o.fsync_mode = modes[i];
		ret = ss_untar_run(&o, &st, err, sizeof(err));
		is_int(ret, 0, "fsync=%s: extraction succeeds (%s)", mode, err);
		ok(st.files == 300 && st.dirs == 30 && st.entries == 330 && st.symlinks == 0 &&
		   st.others == 0, "fsync=%s: stats count 300 files, 30 dirs, 330 entries", mode);
		is_int(st.data_bytes, gst.data_bytes, "fsync=%s: data bytes match the generator", mode);
		is_int(st.archive_bytes, gst.archive_bytes, "fsync=%s: archive size reported", mode);
		t = count_tree(root);
		ok(t.files == 300 && t.dirs == 31 && !t.links && !t.others,
		   "fsync=%s: 300 files and 30 dirs on disk (%u, %u)", mode, t.files, t.dirs - 1);
		is_int(verify_extracted(g.path, root, &nfiles), 0,
		       "fsync=%s: every file's size and crc32 match the archive", mode);
		is_int(nfiles, 300, "fsync=%s: ... all 300 of them", mode);
		ok(phases_are(&ev, modes[i] == SS_FSYNC_NONE ? "extract+ extract-" :
				   "extract+ extract- sync+ sync-"),
		   "fsync=%s: phase callbacks in order", mode);
		ok(st.nr_phases == (modes[i] == SS_FSYNC_NONE ? 1u : 2u) &&
		   !strcmp(st.phases[0].name, "extract") && st.phases[0].files == 300 &&
		   st.phases[0].entries == 330 && st.phases[0].bytes == gst.data_bytes &&
		   st.phases[0].end_ns >= st.phases[0].start_ns,
		   "fsync=%s: st->phases records extract with its counts", mode);
		ok(ev.progress_calls >= 1 && ev.last.archive_total == gst.archive_bytes &&
		   ev.last.archive_read > 0 && ev.last.archive_read <= ev.last.archive_total,
		   "fsync=%s: progress reported (%u calls, %llu/%llu bytes read)", mode,
		   ev.progress_calls, (unsigned long long)ev.last.archive_read,
		   (unsigned long long)ev.last.archive_total);
		is_int(st.fsync_skipped, 0, "fsync=%s: no fsync skipped", mode);
	}
}

static void test_repeat_delete_stop(void)
{
	TP(archive, "tree.tar.gz");
	TP(dest, "rep");
	char err[512];
	struct ss_untar_opts o;
	struct ss_untar_stats st;
	struct events ev;
	volatile int stop = 0;
	int ret;

	mkdir(dest, 0755);
	untar_opts(&o, archive, dest, &ev);
	o.repeat = 3;
	o.delete_after = true;
	ev.count_at = "delete";
	ev.count_root = dest;
	ret = ss_untar_run(&o, &st, err, sizeof(err));
	is_int(ret, 0, "repeat=3 + delete succeeds (%s)", err);
	ok(phases_are(&ev, "extract.1+ extract.1- extract.2+ extract.2- extract.3+ extract.3- "
			   "sync+ sync- delete+ delete- delete-sync+ delete-sync-"),
	   "repeat=3: extract.1..3, sync, delete, delete-sync");
	ok(ev.at_phase.files == 900 && ev.at_phase.dirs == 1 + 3 * 31,
	   "repeat=3: three full trees existed before delete (%u files, %u dirs)",
	   ev.at_phase.files, ev.at_phase.dirs);
	is_int(count_dir(dest), 0, "delete leaves dest empty");
	ok(st.nr_phases == 6 && !strcmp(st.phases[4].name, "delete") &&
	   st.phases[4].files == 900 && st.phases[4].entries == 3 * 331,
	   "delete phase counts 900 files, %d entries (%llu, %llu)", 3 * 331,
	   (unsigned long long)st.phases[4].files, (unsigned long long)st.phases[4].entries);
	ok(st.files == 300 && st.phases[1].files == 300 && st.phases[2].files == 300,
	   "stats are per repetition, phases count each");

	/* Stop requested when the second repetition begins: the first stays, -EINTR. */
	untar_opts(&o, archive, dest, &ev);
	o.repeat = 3;
	o.stop = &stop;
	ev.stop = &stop;
	ev.stop_at = "extract.2";
	ret = ss_untar_run(&o, &st, err, sizeof(err));
	is_int(ret, -EINTR, "stop during extract.2 returns -EINTR");
	ok(phases_are(&ev, "extract.1+ extract.1- extract.2+ extract.2-"),
	   "... extract.2 still gets its end callback");
	ok(st.nr_phases == 2 && st.phases[1].end_ns >= st.phases[1].start_ns &&
	   st.phases[0].files == 300, "... and st->phases keeps what was done");
	ok(count_tree(tpath("rep/1")).files == 300, "... extract.1's tree is complete");
	ok(strstr(err, "stop") != NULL, "... message: %s", err);

	/* dest/1 exists now: never extract over an earlier run. */
	untar_opts(&o, archive, dest, &ev);
	is_int(ss_untar_run(&o, &st, err, sizeof(err)), -EEXIST, "existing dest/1 is -EEXIST: %s",
	       err);
	rm_tree(dest);
}

static void test_bad_dest(void)
{
	TP(archive, "tree.tar.gz");
	struct ss_untar_opts o;
	struct ss_untar_stats st;
	struct events ev;
	char err[512];
	int fd;

	untar_opts(&o, archive, "/", &ev);
	is_int(ss_untar_run(&o, &st, err, sizeof(err)), -EINVAL, "dest \"/\" is -EINVAL: %s", err);
	symlink("/", tpath("rootlink"));
	TP(rootlink, "rootlink");
	TP(nosuch, "no-such-dir");
	TP(plain, "plainfile");
	TP(drep, "d-rep");
	TP(missing, "missing.tar");
	untar_opts(&o, archive, rootlink, &ev);
	is_int(ss_untar_run(&o, &st, err, sizeof(err)), -EINVAL,
	       "dest symlink to \"/\" is -EINVAL: %s", err);
	unlink(rootlink);
	untar_opts(&o, archive, nosuch, &ev);
	is_int(ss_untar_run(&o, &st, err, sizeof(err)), -EINVAL, "missing dest is -EINVAL: %s",
	       err);
	fd = open(tpath("plainfile"), O_CREAT | O_WRONLY, 0644);
	close(fd);
	untar_opts(&o, archive, plain, &ev);
	is_int(ss_untar_run(&o, &st, err, sizeof(err)), -EINVAL, "dest a file is -EINVAL: %s", err);
	ok(ev.n == 0, "no phase started for a bad dest");
	mkdir(tpath("d-rep"), 0755);
	untar_opts(&o, archive, drep, &ev);
	o.repeat = SS_UNTAR_MAX_REPEAT + 1;
	is_int(ss_untar_run(&o, &st, err, sizeof(err)), -EINVAL, "repeat too large: %s", err);
	untar_opts(&o, missing, drep, &ev);
	is_int(ss_untar_run(&o, &st, err, sizeof(err)), -ENOENT, "missing archive: %s", err);
	if (geteuid() != 0) {
		untar_opts(&o, archive, drep, &ev);
		o.drop_caches = true;
		is_int(ss_untar_run(&o, &st, err, sizeof(err)), -EPERM,
		       "drop-caches as non-root is -EPERM: %s", err);
		ok(phases_are(&ev, "drop-caches+ drop-caches-"), "... and ends its phase");
	} else {
		skip(2, "drop-caches refusal is checked as non-root only");
	}
}

/* One hostile archive: extraction must fail naming the entry, nothing outside dest changes. */
static void test_write_failure(void)
{
	TP(archive, "tree.tar.gz");
	TP(dest, "fsize");
	struct { int ret; uint64_t files; char err[500]; } res = { 1, 0, "" };
	int pfd[2];
	pid_t pid;

	mkdir(dest, 0755);
	if (pipe(pfd) < 0 || (pid = fork()) < 0) {
		ok(0, "pipe/fork: %s", strerror(errno));
		return;
	}
	if (pid == 0) {
		struct rlimit rl = { 16384, 16384 };
		struct ss_untar_opts o;
		struct ss_untar_stats st;
		struct events ev;

		signal(SIGXFSZ, SIG_IGN);
		setrlimit(RLIMIT_FSIZE, &rl);
		untar_opts(&o, archive, dest, &ev);
		res.ret = ss_untar_run(&o, &st, res.err, sizeof(res.err));
		res.files = st.files;
		if (write(pfd[1], &res, sizeof(res)) != sizeof(res))
			_exit(1);
		_exit(0);
	}
	close(pfd[1]);
	if (read(pfd[0], &res, sizeof(res)) != sizeof(res))
		res.ret = 1;
	close(pfd[0]);
	waitpid(pid, NULL, 0);
	is_int(res.ret, -EFBIG, "write failure (EFBIG) stops extraction: %s", res.err);
	ok(strstr(res.err, "entry \"") && strstr(res.err, "too large"),
	   "... the message names the entry and the error");
	/* Caught at the failing write itself: libarchive reports that as a mere warning and
	 * then ftruncate()s the file to full size, which on a full filesystem succeeds, so
	 * only the write can tell.  (Under RLIMIT_FSIZE the ftruncate fails too.) */
	ok(strstr(res.err, "Write failed") != NULL, "... at the write, not at the size restore");
	ok(res.files > 0 && res.files < 300, "... after %llu complete files",
	   (unsigned long long)res.files);
}

/* ss_untar_check(): every refusal ss_untar_run() would make, without writing anything. */
static void test_check(void)
{
	TP(archive, "tree.tar.gz");
	TP(dest, "chk");
	TP(junk, "junk.tar");
	TP(missing, "missing.tar");
	struct ss_untar_opts o;
	struct ss_untar_stats st;
	struct events ev;
	char err[512];
	int fd;

	mkdir(dest, 0755);
	untar_opts(&o, archive, dest, &ev);
	o.repeat = 3;
	is_int(ss_untar_check(&o, err, sizeof(err)), 0, "check: a good run passes (%s)", err);
	ok(count_dir(dest) == 0 && ev.n == 0, "check: and writes nothing, starts no phase");
	untar_opts(&o, missing, dest, &ev);
	is_int(ss_untar_check(&o, err, sizeof(err)), -ENOENT, "check: missing archive: %s", err);
	fd = open(junk, O_CREAT | O_WRONLY | O_TRUNC, 0644);
	ok(fd >= 0 && write(fd, "not an archive at all\n", 22) == 22, "check: junk file made");
	close(fd);
	untar_opts(&o, junk, dest, &ev);
	ok(ss_untar_check(&o, err, sizeof(err)) < 0 && strstr(err, "junk.tar"),
	   "check: an unreadable archive is refused: %s", err);
	untar_opts(&o, archive, "/", &ev);
	is_int(ss_untar_check(&o, err, sizeof(err)), -EINVAL, "check: dest \"/\": %s", err);
	untar_opts(&o, archive, tpath("chk/none"), &ev);
	is_int(ss_untar_check(&o, err, sizeof(err)), -EINVAL, "check: missing dest: %s", err);
	mkdir(tpath("chk/2"), 0755);
	untar_opts(&o, archive, dest, &ev);
	o.repeat = 3;
	is_int(ss_untar_check(&o, err, sizeof(err)), -EEXIST, "check: existing dest/2: %s", err);
	ok(strstr(err, "chk/2 already exists") != NULL, "check: the message names it");
	/* the run refuses it too, before extracting into dest/1 */
	is_int(ss_untar_run(&o, &st, err, sizeof(err)), -EEXIST, "run: existing dest/2 refused first");
	ok(count_dir(dest) == 1 && ev.n == 0, "run: nothing extracted, no phase started");
	if (geteuid() != 0) {
		rmdir(tpath("chk/2"));
		chmod(dest, 0555);
		untar_opts(&o, archive, dest, &ev);
		is_int(ss_untar_check(&o, err, sizeof(err)), -EACCES, "check: unwritable dest: %s",
		       err);
		chmod(dest, 0755);
		o.drop_caches = true;
		is_int(ss_untar_check(&o, err, sizeof(err)), -EPERM, "check: drop-caches as non-root");
	} else {
		skip(2, "permission refusals are checked as non-root (a read-only mount: record tests)");
	}
	rm_tree(dest);
}

int main(void)
{
	if (testdir_make("untar"))
		return done_testing();
	test_names();
	test_extract_modes();
	test_repeat_delete_stop();
	test_bad_dest();
	test_check();
	test_write_failure();
	return done_testing();
}
