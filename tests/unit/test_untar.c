// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Extraction workload: extraction in every fsync mode checked file by file against the
 * archive, phases, repeat/delete/stop, hostile archives (nothing may appear outside dest),
 * damaged ones and write failures.  Runs unprivileged in a mkdtemp()
 * directory under /tmp, removed at exit whatever happened.  (The generator that makes the
 * test archives has its own tests in test_gentree.c, the delete walker in test_rmtree.c.)
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

/* ---- helpers ---------------------------------------------------------------------------- */

static uint32_t crc_file(const char *p, int64_t *size)
{
	unsigned char buf[65536];
	uLong c = crc32(0L, Z_NULL, 0);
	ssize_t n;
	int fd = open(p, O_RDONLY);

	*size = -1;
	if (fd < 0)
		return 0;
	*size = 0;
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		c = crc32(c, buf, (uInt)n);
		*size += n;
	}
	close(fd);
	return (uint32_t)c;
}

struct tree_count { unsigned files, dirs, links, others; };
static struct tree_count counted;

static int count_one(const char *p, const struct stat *sb, int flag, struct FTW *f)
{
	(void)p; (void)f;
	if (flag == FTW_SL)
		counted.links++;
	else if (flag == FTW_D || flag == FTW_DP)
		counted.dirs++;
	else if (S_ISREG(sb->st_mode))
		counted.files++;
	else
		counted.others++;
	return 0;
}

static struct tree_count count_tree(const char *p)
{
	memset(&counted, 0, sizeof(counted));
	nftw(p, count_one, 16, FTW_PHYS);
	return counted;
}

/* Entries directly in directory p ("." and ".." not counted), or -1u if unreadable. */
static unsigned count_dir(const char *p)
{
	DIR *d = opendir(p);
	struct dirent *de;
	unsigned n = 0;

	if (!d)
		return -1u;
	while ((de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return n;
}

/* Compare every regular file of the archive with <root>/<its path>. */
static int verify_extracted(const char *archive, const char *root, unsigned *nfiles)
{
	struct archive *a = archive_read_new();
	struct archive_entry *e;
	int bad = 0;

	*nfiles = 0;
	archive_read_support_filter_all(a);
	archive_read_support_format_all(a);
	if (archive_read_open_filename(a, archive, 65536) != ARCHIVE_OK) {
		archive_read_free(a);
		return -1;
	}
	while (archive_read_next_header(a, &e) == ARCHIVE_OK) {
		const void *buf;
		size_t len;
		la_int64_t off;
		uLong c = crc32(0L, Z_NULL, 0);
		int64_t size = 0, got_size;
		char p[2048];

		if (archive_entry_filetype(e) != AE_IFREG)
			continue;
		while (archive_read_data_block(a, &buf, &len, &off) == ARCHIVE_OK) {
			c = crc32(c, buf, (uInt)len);
			size += (int64_t)len;
		}
		snprintf(p, sizeof(p), "%s/%s", root, archive_entry_pathname(e));
		if (crc_file(p, &got_size) != (uint32_t)c || got_size != size) {
			if (bad++ < 3)
				printf("# mismatch: %s (size %lld, want %lld)\n", p,
				       (long long)got_size, (long long)size);
		}
		(*nfiles)++;
	}
	archive_read_free(a);
	return bad;
}

struct events {
	char names[80][32];
	bool begin[80];
	uint64_t ts[80];
	unsigned n;
	unsigned progress_calls;
	struct ss_untar_progress last;
	const char *stop_at;          /* set *stop when this phase begins */
	volatile int *stop;
	const char *count_at;         /* count the tree under count_root when this phase begins */
	const char *count_root;
	struct tree_count at_phase;
};

static void on_phase(void *ctx, const char *name, bool begin, uint64_t ns)
{
	struct events *ev = ctx;

	if (ev->n < 80) {
		snprintf(ev->names[ev->n], sizeof(ev->names[0]), "%s", name);
		ev->begin[ev->n] = begin;
		ev->ts[ev->n++] = ns;
	}
	if (begin && ev->stop_at && !strcmp(name, ev->stop_at))
		*ev->stop = 1;
	if (begin && ev->count_at && !strcmp(name, ev->count_at))
		ev->at_phase = count_tree(ev->count_root);
}

static void on_progress(void *ctx, const struct ss_untar_progress *p)
{
	struct events *ev = ctx;

	ev->progress_calls++;
	ev->last = *p;
}

/* "extract+ extract- sync+ sync-" against what the callbacks saw; also checks time order. */
static int phases_are(const struct events *ev, const char *want)
{
	char got[2048] = "";
	size_t n = 0;
	bool ordered = true;

	for (unsigned i = 0; i < ev->n; i++) {
		n += (size_t)snprintf(got + n, sizeof(got) - n, "%s%s%c", i ? " " : "", ev->names[i],
				      ev->begin[i] ? '+' : '-');
		if (i && ev->ts[i] < ev->ts[i - 1])
			ordered = false;
	}
	if (strcmp(got, want) || !ordered) {
		printf("#   phases: got \"%s\"%s\n#   want \"%s\"\n", got,
		       ordered ? "" : " (timestamps out of order)", want);
		return 0;
	}
	return 1;
}

static void untar_opts(struct ss_untar_opts *o, const char *archive, const char *dest,
		       struct events *ev)
{
	memset(o, 0, sizeof(*o));
	memset(ev, 0, sizeof(*ev));
	o->archive = archive;
	o->dest = dest;
	o->repeat = 1;
	o->phase_cb = on_phase;
	o->progress_cb = on_progress;
	o->ctx = ev;
}

/* ---- hand-built archives ---------------------------------------------------------------- */

struct spec {
	const char *path;
	mode_t type;            /* AE_IFREG, AE_IFDIR, AE_IFLNK, AE_IFCHR, AE_IFIFO; 0: hardlink */
	mode_t perm;
	const char *target;     /* symlink or hardlink target */
	const char *data;
};

static int write_specs(const char *path, const struct spec *s, size_t n)
{
	struct archive *a = archive_write_new();
	struct archive_entry *e = archive_entry_new();
	int ret = 0;

	archive_write_set_format_pax_restricted(a);
	if (archive_write_open_filename(a, path) != ARCHIVE_OK)
		ret = -1;
	for (size_t i = 0; i < n && !ret; i++) {
		size_t len = s[i].data ? strlen(s[i].data) : 0;

		archive_entry_clear(e);
		archive_entry_copy_pathname(e, s[i].path);
		if (s[i].type) {
			archive_entry_set_filetype(e, s[i].type);
		} else {
			archive_entry_set_filetype(e, AE_IFREG);
			archive_entry_copy_hardlink(e, s[i].target);
		}
		if (s[i].type == AE_IFLNK)
			archive_entry_copy_symlink(e, s[i].target);
		if (s[i].type == AE_IFCHR)
			archive_entry_set_rdev(e, makedev(1, 3));
		archive_entry_set_perm(e, s[i].perm ? s[i].perm : 0644);
		archive_entry_set_size(e, (la_int64_t)len);
		if (archive_write_header(a, e) != ARCHIVE_OK ||
		    (len && archive_write_data(a, s[i].data, len) != (la_ssize_t)len))
			ret = -1;
	}
	if (archive_write_close(a) != ARCHIVE_OK)
		ret = -1;
	archive_write_free(a);
	archive_entry_free(e);
	return ret;
}

/* ---- tests ------------------------------------------------------------------------------ */

static uint32_t crc_of(const char *p)
{
	int64_t size;

	return crc_file(p, &size);
}

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
	test_hostile();
	test_fixup_through_symlink();
	test_neutralised();
	test_self_hardlink();
	test_damaged();
	test_write_failure();
	return done_testing();
}
