// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Extraction workload against hostile archives: absolute paths, "..", symlinks and hard links
 * that lead out, device nodes, setuid bits, a symlink planted under a directory's fix-up,
 * self hard links, damaged archives: nothing may appear outside dest, and the phases still
 * end.  Runs unprivileged in a mkdtemp() directory
 * under /tmp, removed at exit whatever happened.  (The rest: test_untar.c.)
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

static void hostile(const char *what, const struct spec *s, size_t n, const char *entry)
{
	static unsigned seq;
	TP(archive, "hostile-%u.tar", seq);
	TP(dest, "h-%u", seq);
	char err[512];
	struct ss_untar_opts o;
	struct ss_untar_stats st;
	struct events ev;
	struct stat sb;
	int ret;

	seq++;
	mkdir(dest, 0755);
	if (!ok(write_specs(archive, s, n) == 0, "%s: archive built", what))
		return;
	untar_opts(&o, archive, dest, &ev);
	ret = ss_untar_run(&o, &st, err, sizeof(err));
	ok(ret == -EPERM || ret == -EINVAL, "%s: refused with -EPERM/-EINVAL (%d)", what, ret);
	ok(strstr(err, entry) != NULL, "%s: message names \"%s\": %s", what, entry, err);
	is_int(count_dir(tpath("outside")), 0, "%s: the outside directory stays empty", what);
	ok(stat(tpath("victim"), &sb) == 0 && sb.st_nlink == 1 && sb.st_size == 6 &&
	   crc_of(tpath("victim")) == crc32(0, (const Bytef *)"intact", 6),
	   "%s: the outside file is untouched", what);
	ok(access(tpath("x"), F_OK) && count_dir(dest) == 1 && access(tpath("h-%u/1", seq - 1), F_OK) == 0,
	   "%s: nothing in dest but dest/1, nothing next to dest", what);
	ok(phases_are(&ev, "extract+ extract-"), "%s: the failed phase still ends", what);
	rm_tree(dest);
}

static void test_hostile(void)
{
	char outside_abs[1024], victim[1024], outside_file[1024];
	int fd;

	mkdir(tpath("outside"), 0755);
	fd = open(tpath("victim"), O_CREAT | O_WRONLY | O_TRUNC, 0644);
	if (write(fd, "intact", 6) != 6)
		ok(0, "write victim");
	close(fd);
	snprintf(outside_abs, sizeof(outside_abs), "%s", tpath("outside"));
	snprintf(outside_file, sizeof(outside_file), "%s", tpath("outside/abs"));
	snprintf(victim, sizeof(victim), "%s", tpath("victim"));

	{
		const struct spec s[] = { { "ok.txt", AE_IFREG, 0, NULL, "fine" },
					  { "../x", AE_IFREG, 0, NULL, "evil" } };
		hostile("../x", s, 2, "../x");
	}
	{
		const struct spec s[] = { { "../../outside/x", AE_IFREG, 0, NULL, "evil" } };
		hostile("../../outside/x", s, 1, "../../outside/x");
	}
	{
		const struct spec s[] = { { outside_file, AE_IFREG, 0, NULL, "evil" } };
		hostile("absolute path", s, 1, outside_file);
	}
	{
		const struct spec s[] = { { "a/", AE_IFDIR, 0755, NULL, NULL },
					  { "a/../../x", AE_IFREG, 0, NULL, "evil" } };
		hostile("a/../../x", s, 2, "a/../../x");
	}
	{
		const struct spec s[] = { { "link", AE_IFLNK, 0777, outside_abs, NULL },
					  { "link/evil", AE_IFREG, 0, NULL, "evil" } };
		hostile("file through a symlink to outside", s, 2, "link/evil");
	}
	{
		const struct spec s[] = { { "d", AE_IFDIR, 0755, NULL, NULL },
					  { "d/up", AE_IFLNK, 0777, "../../..", NULL },
					  { "d/up/outside/evil", AE_IFREG, 0, NULL, "evil" } };
		hostile("file through a relative symlink", s, 3, "d/up/outside/evil");
	}
	{
		const struct spec s[] = { { "hl", 0, 0, victim, NULL } };
		hostile("hardlink to an absolute path", s, 1, "hl");
	}
	{
		const struct spec s[] = { { "hl", 0, 0, "../../victim", NULL } };
		hostile("hardlink to ../../victim", s, 1, "../../victim");
	}
	{
		const struct spec s[] = { { "vl", AE_IFLNK, 0777, victim, NULL },
					  { "vl", AE_IFREG, 0644, NULL, "evil" } };
		/* Replacing a symlink by a file must replace the link, not write through it:
		 * this one succeeds, so it is checked here rather than in hostile(). */
		TP(archive, "replace.tar");
		TP(dest, "h-replace");
		char err[512];
		struct ss_untar_opts o;
		struct ss_untar_stats st;
		struct events ev;
		struct stat sb;

		mkdir(dest, 0755);
		write_specs(archive, s, 2);
		untar_opts(&o, archive, dest, &ev);
		is_int(ss_untar_run(&o, &st, err, sizeof(err)), 0, "file over a symlink: extracts (%s)",
		       err);
		ok(lstat(tpath("h-replace/1/vl"), &sb) == 0 && S_ISREG(sb.st_mode) &&
		   crc_of(victim) == crc32(0, (const Bytef *)"intact", 6),
		   "... replacing the link; the link's target is untouched");
		rm_tree(dest);
	}
}

/*
 * Directory fixups (modes and times are applied at the end, by name) must not follow a
 * symlink that replaced the directory meanwhile (CVE-2021-31566): the outside directory's
 * mode and mtime stay as they were, whether or not the archive is refused.
 */
static void test_fixup_through_symlink(void)
{
	TP(out, "outside");
	TP(archive, "fixup.tar");
	TP(dest, "fx");
	const struct spec s[] = { { "d/", AE_IFDIR, 0777, NULL, NULL },
				  { "d", AE_IFLNK, 0777, out, NULL } };
	struct ss_untar_opts o;
	struct ss_untar_stats st;
	struct events ev;
	struct stat before, after;
	char err[512];

	chmod(out, 0755);
	stat(out, &before);
	mkdir(dest, 0755);
	write_specs(archive, s, 2);
	untar_opts(&o, archive, dest, &ev);
	ss_untar_run(&o, &st, err, sizeof(err));
	stat(out, &after);
	ok((after.st_mode & 07777) == 0755 && after.st_mtime == before.st_mtime,
	   "dir fixup does not follow a symlink that replaced the dir (mode %o)",
	   (unsigned)after.st_mode & 07777);
	rm_tree(dest);
}

/* Entries that are neutralised rather than refused: devices, fifos, setuid bits; and benign
 * links inside the tree that must work. */
static void test_neutralised(void)
{
	const struct spec s[] = {
		{ "dev/", AE_IFDIR, 0755, NULL, NULL },
		{ "dev/null0", AE_IFCHR, 0666, NULL, NULL },
		{ "dev/fifo", AE_IFIFO, 0644, NULL, NULL },
		{ "bin/", AE_IFDIR, 0755, NULL, NULL },
		{ "bin/suid", AE_IFREG, 04755, NULL, "#!/bin/sh\n" },
		{ "bin/sgid", AE_IFREG, 02755, NULL, "#!/bin/sh\n" },
		{ "bin/sh", AE_IFLNK, 0777, "suid", NULL },
		{ "bin/hard", 0, 0, "bin/suid", NULL },
		{ "after", AE_IFREG, 0644, NULL, "still here" },
	};
	TP(archive, "neutral.tar");
	TP(dest, "n");
	char err[512];
	struct ss_untar_opts o;
	struct ss_untar_stats st;
	struct events ev;
	struct stat sb;
	char lnk[64] = "";

	mkdir(dest, 0755);
	ok(write_specs(archive, s, sizeof(s) / sizeof(s[0])) == 0, "neutral.tar built");
	untar_opts(&o, archive, dest, &ev);
	o.fsync_mode = SS_FSYNC_FILE;
	is_int(ss_untar_run(&o, &st, err, sizeof(err)), 0, "devices/setuid archive extracts (%s)",
	       err);
	ok(st.others == 2 && st.entries == 9 && st.files == 3 && st.dirs == 2 &&
	   st.symlinks == 1 && st.hardlinks == 1,
	   "counts: 2 others, 3 files, 2 dirs, 1 symlink, 1 hardlink, 9 entries");
	ok(lstat(tpath("n/1/dev/null0"), &sb) < 0 && errno == ENOENT, "device node not created");
	ok(lstat(tpath("n/1/dev/fifo"), &sb) < 0 && errno == ENOENT, "fifo not created");
	memset(&sb, 0, sizeof(sb));
	stat(tpath("n/1/bin/suid"), &sb);
	ok((sb.st_mode & 07777) == 0755, "setuid bit cleared, rest of the mode kept (%o)",
	   (unsigned)sb.st_mode & 07777);
	ok(stat(tpath("n/1/bin/sgid"), &sb) == 0 && !(sb.st_mode & S_ISGID), "setgid bit cleared");
	ok(stat(tpath("n/1/bin/hard"), &sb) == 0 && sb.st_nlink == 2, "hardlink inside works");
	ok(readlink(tpath("n/1/bin/sh"), lnk, sizeof(lnk) - 1) == 4 && !strcmp(lnk, "suid"),
	   "relative symlink inside kept as is");
	ok(access(tpath("n/1/after"), F_OK) == 0, "entries after the skipped ones extracted");
	rm_tree(dest);
}

/* One cpio "newc" entry: 110 header bytes, the name and its NUL padded to 4, the data padded. */
static void newc_entry(FILE *f, const char *name, unsigned mode, unsigned ino, unsigned nlink,
		       const char *data)
{
	size_t nlen = strlen(name) + 1, dlen = data ? strlen(data) : 0;
	static const char zeros[4];

	fprintf(f, "070701%08X%08X%08X%08X%08X%08X%08zX%08X%08X%08X%08X%08zX%08X", ino, mode,
		0u, 0u, nlink, 0u, dlen, 0u, 1u, 0u, 0u, nlen, 0u);
	fwrite(name, 1, nlen, f);
	fwrite(zeros, 1, (4 - (110 + nlen) % 4) % 4, f);
	if (dlen)
		fwrite(data, 1, dlen, f);
	fwrite(zeros, 1, (4 - dlen % 4) % 4, f);
}

/*
 * A hardlink to itself (cpio: a later entry with the same inode and name; "d/./l" is "d/l"):
 * libarchive answers the header with a warning but keeps waiting for a header, so writing
 * the entry's data would leave its writer in a fatal state (and leak its queued directory
 * fixups).  Skipped with a warning; the rest of the archive extracts.
 */
static void test_self_hardlink(void)
{
	TP(archive, "self.cpio");
	TP(dest, "self");
	char err[512];
	struct ss_untar_opts o;
	struct ss_untar_stats st;
	struct events ev;
	struct stat sb;
	FILE *f = fopen(archive, "w");

	mkdir(dest, 0755);
	if (!f) {
		ok(0, "self.cpio created: %s", strerror(errno));
		return;
	}
	newc_entry(f, "d", 040755, 1, 2, NULL);
	newc_entry(f, "d/l", 0100644, 9, 3, NULL);
	newc_entry(f, "d/l", 0100644, 9, 3, "hello\n");
	newc_entry(f, "d/./l", 0100644, 9, 3, "again\n");
	newc_entry(f, "after", 0100644, 10, 1, "still here\n");
	newc_entry(f, "TRAILER!!!", 0, 0, 1, NULL);
	ok(fclose(f) == 0, "self.cpio written");
	untar_opts(&o, archive, dest, &ev);
	is_int(ss_untar_run(&o, &st, err, sizeof(err)), 0, "self hardlinks are skipped (%s)", err);
	ok(st.entries == 5 && st.files == 2 && st.dirs == 1 && st.hardlinks == 0,
	   "counts: 5 entries, 2 files, 1 dir, no hardlink (%llu %llu %llu %llu)",
	   (unsigned long long)st.entries, (unsigned long long)st.files,
	   (unsigned long long)st.dirs, (unsigned long long)st.hardlinks);
	ok(st.warnings >= 2, "one warning per skipped link (%llu)",
	   (unsigned long long)st.warnings);
	ok(stat(tpath("self/1/d/l"), &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_nlink == 1,
	   "d/l extracted once");
	ok(stat(tpath("self/1/after"), &sb) == 0 && sb.st_size == 11,
	   "the entry after them extracted");
	rm_tree(dest);
}

static void test_damaged(void)
{
	TP(good, "tree.tar.gz");
	TP(trunc, "trunc.tar.gz");
	TP(junk, "junk.tar");
	TP(tdir, "t");
	TP(jdir, "j");
	char err[512];
	struct ss_untar_opts o;
	struct ss_untar_stats st;
	struct events ev;
	struct stat sb;
	char *buf;
	int fd, ret;

	{
		/* the archive to damage: as test_untar.c's extraction tests make it */
		struct ss_gentree_opts g = { .path = good, .files = 300, .dirs = 30, .seed = 11,
					     .scale = 0.5 };
		struct ss_gentree_stats gst;

		is_int(ss_gentree_write_stats(&g, &gst, err, sizeof(err)), 0,
		       "generate tree.tar.gz");
	}
	stat(good, &sb);
	buf = malloc((size_t)sb.st_size);
	fd = open(good, O_RDONLY);
	ok(read(fd, buf, (size_t)sb.st_size) == sb.st_size, "read tree.tar.gz");
	close(fd);
	fd = open(trunc, O_CREAT | O_WRONLY | O_TRUNC, 0644);
	ok(write(fd, buf, (size_t)sb.st_size / 2) == sb.st_size / 2, "write half of it");
	close(fd);
	free(buf);
	fd = open(junk, O_CREAT | O_WRONLY | O_TRUNC, 0644);
	ok(write(fd, "this is not an archive, just text\n", 34) == 34, "write a text file");
	close(fd);

	mkdir(tdir, 0755);
	untar_opts(&o, trunc, tdir, &ev);
	ret = ss_untar_run(&o, &st, err, sizeof(err));
	ok(ret == -EILSEQ || ret == -EINVAL || ret == -EIO, "truncated .tar.gz fails (%d)", ret);
	ok(err[0] && (strstr(err, "entry") || strstr(err, "trunc.tar.gz")),
	   "... with a message naming the entry or archive: %s", err);
	ok(st.files > 0 && st.files < 300, "... after extracting part of it (%llu files)",
	   (unsigned long long)st.files);
	ok(phases_are(&ev, "extract+ extract-"), "... the extract phase ends, no sync");

	mkdir(jdir, 0755);
	untar_opts(&o, junk, jdir, &ev);
	ret = ss_untar_run(&o, &st, err, sizeof(err));
	is_int(ret, -EILSEQ, "a text file is not an archive: %s", err);
}

/*
 * A failing write() must stop the extraction.  A full filesystem needs root and a loop
 * device (integration tests); RLIMIT_FSIZE makes write() fail with EFBIG the same way, in a
 * child so that the limit does not reach the test's own files.
 */

int main(void)
{
	if (testdir_make("untar-hostile"))
		return done_testing();
	test_hostile();
	test_fixup_through_symlink();
	test_neutralised();
	test_self_hardlink();
	test_damaged();
	return done_testing();
}
