// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Extraction workload (see untar.h): libarchive reads the archive, archive_write_disk creates
 * the objects, and this file adds what a benchmark needs around that: durability semantics
 * (none / fsync per file / syncfs at end), repetitions into dest/1..N, a delete phase, phase
 * markers on CLOCK_MONOTONIC, progress, and a path policy that keeps every write inside dest.
 *
 * How entries are kept inside dest:
 *  - dest is resolved with realpath() and opened; every entry name and hardlink target is
 *    vetted by ss_untar_path_check() (no absolute paths, no "..") and then prefixed with
 *    "<realpath>/<N>/".  The prefix must be absolute because libarchive resolves names
 *    against the process cwd and we must not chdir() (process-wide state; the recorder runs
 *    other threads).  That is also why ARCHIVE_EXTRACT_SECURE_NOABSOLUTEPATHS is not set: it
 *    would refuse every prefixed name.  Our own check on the unprefixed name does its job.
 *  - ARCHIVE_EXTRACT_SECURE_NODOTDOT stays on as a second line of defence, and
 *    ARCHIVE_EXTRACT_SECURE_SYMLINKS makes libarchive lstat every component of the final path
 *    (the realpath prefix has no symlinks, so only links created by the archive can trip it):
 *    "link -> /elsewhere" followed by "link/file" is refused.
 *  - Device nodes, fifos and sockets are never created; setuid/setgid bits are cleared.
 *  - Our own follow-up accesses (fsync per file, delete) are fd-relative to dest and never
 *    follow symlinks (openat2 RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS, O_NOFOLLOW, unlinkat).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "arlib.h"
#include "errbuf.h"
#include "fileio.h"
#include "rmtree.h"
#include "untar.h"

#define PROGRESS_INTERVAL_NS 100000000ull   /* at most ~10 progress calls a second */
#define READ_BLOCK (128 * 1024)
#define DROP_CACHES "/proc/sys/vm/drop_caches"

/* Everything one ss_untar_run() call needs; lives on its stack. */
struct run {
	const struct ss_untar_opts *o;
	struct ss_untar_stats *st;
	char *err;
	size_t errlen;
	char dest[PATH_MAX];            /* realpath of o->dest */
	int destfd;
	struct stat archive_sb;
	struct ss_untar_phase *cur;     /* running phase, NULL between phases */
	struct ss_untar_progress prog;
	uint64_t last_progress_ns;
	char *name;                     /* copy of the current entry's archive name */
	size_t name_cap;
	char *path;                     /* scratch: prefixed path */
	size_t path_cap;
	struct ss_ar ar;                /* libarchive */
	int ar_ret;                     /* ... its loading's failure, told after the checks */
	char ar_err[256];
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* ---- phases and progress ---------------------------------------------------------------- */

static void phase_begin(struct run *r, const char *name)
{
	struct ss_untar_phase *ph = &r->st->phases[r->st->nr_phases++];   /* room checked up front */

	memset(ph, 0, sizeof(*ph));
	snprintf(ph->name, sizeof(ph->name), "%s", name);
	ph->start_ns = now_ns();
	r->cur = ph;
	r->last_progress_ns = ph->start_ns;
	if (r->o->phase_cb)
		r->o->phase_cb(r->o->ctx, ph->name, true, ph->start_ns);
}

static void progress(struct run *r, bool force)
{
	uint64_t t;

	if (!r->o->progress_cb || !r->cur)
		return;
	t = now_ns();
	if (!force && t - r->last_progress_ns < PROGRESS_INTERVAL_NS)
		return;
	r->last_progress_ns = t;
	r->prog.phase = r->cur->name;
	r->prog.entries = r->cur->entries;
	r->prog.bytes = r->cur->bytes;
	r->o->progress_cb(r->o->ctx, &r->prog);
}

static void phase_end(struct run *r)
{
	struct ss_untar_phase *ph = r->cur;

	if (!ph)
		return;
	progress(r, true);
	ph->end_ns = now_ns();
	r->cur = NULL;
	if (r->o->phase_cb)
		r->o->phase_cb(r->o->ctx, ph->name, false, ph->end_ns);
}

static bool stop_requested(const struct run *r)
{
	return r->o->stop && *r->o->stop;
}

/* ---- setup ------------------------------------------------------------------------------ */

static int open_dest(struct run *r)
{
	const char *d = r->o->dest;
	struct stat a, b;

	if (!d || !*d) {
		ss_errf(r->err, r->errlen, "no destination directory given");
		return -EINVAL;
	}
	if (!realpath(d, r->dest)) {
		ss_errf(r->err, r->errlen, "destination %s: %s", d, strerror(errno));
		return -EINVAL;
	}
	if (!strcmp(r->dest, "/")) {
		ss_errf(r->err, r->errlen, "destination %s resolves to \"/\"; refusing to extract "
			"there", d);
		return -EINVAL;
	}
	/* realpath() gave a path without symlinks; O_NOFOLLOW and the inode comparison make
	 * sure the directory we hold open is the one that path names now. */
	r->destfd = open(r->dest, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (r->destfd < 0) {
		int e = errno;

		ss_errf(r->err, r->errlen, "destination %s: %s", d,
			e == ENOTDIR ? "not a directory" : strerror(e));
		return -EINVAL;
	}
	if (fstat(r->destfd, &a) < 0 || lstat(r->dest, &b) < 0 || a.st_dev != b.st_dev ||
	    a.st_ino != b.st_ino) {
		ss_errf(r->err, r->errlen, "destination %s changed while it was being opened", d);
		return -EINVAL;
	}
	return 0;
}

static int drop_caches(struct run *r)
{
	static const char path[] = DROP_CACHES;
	int fd, ret = 0;

	phase_begin(r, "drop-caches");
	/* Open before sync() so that a non-root caller fails fast without side effects. */
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		if (e == EACCES || e == EPERM) {
			ss_errf(r->err, r->errlen, "drop-caches: writing %s needs root", path);
			ret = -EPERM;
		} else {
			ss_errf(r->err, r->errlen, "drop-caches: %s: %s", path, strerror(e));
			ret = -e;
		}
		goto out;
	}
	/* Dirty pages cannot be dropped: write them back first, as the kernel docs advise. */
	sync();
	if (write(fd, "3", 1) != 1) {
		ret = -errno;
		ss_errf(r->err, r->errlen, "drop-caches: writing %s: %s", path, strerror(-ret));
	}
	close(fd);
out:
	phase_end(r);
	return ret;
}

static int sync_phase(struct run *r, const char *name)
{
	int ret = 0;

	phase_begin(r, name);
	if (syncfs(r->destfd) < 0) {
		ret = -errno;
		ss_errf(r->err, r->errlen, "%s: syncfs %s: %s", name, r->dest, strerror(-ret));
	}
	phase_end(r);
	return ret;
}

/* ---- extraction ------------------------------------------------------------------------- */

static int grow(char **buf, size_t *cap, size_t need)
{
	char *n;

	if (need <= *cap)
		return 0;
	n = realloc(*buf, need);
	if (!n)
		return -ENOMEM;
	*buf = n;
	*cap = need;
	return 0;
}

/* "<dest>/<rep>/<rel>" into r->path. */
static int prefix_path(struct run *r, unsigned rep, const char *rel)
{
	size_t need = strlen(r->dest) + strlen(rel) + 16;

	if (grow(&r->path, &r->path_cap, need))
		return -ENOMEM;
	snprintf(r->path, r->path_cap, "%s/%u/%s", r->dest, rep, rel);
	return 0;
}

/* libarchive reports errno where it has one; its own refusals carry none (or -1). */
static int la_errno(const struct run *r, struct archive *a, int fallback)
{
	int e = r->ar.archive_errno(a);

	return e > 0 ? -e : fallback;
}

/* The message for a failed entry: errno text when there is a real one (ENOSPC, EIO, ...),
 * plus libarchive's own text, which says what it refused or found damaged. */
static int entry_fail(struct run *r, struct archive *a, int ret)
{
	const char *msg = r->ar.archive_error_string(a);
	int e = r->ar.archive_errno(a);

	if (e == EILSEQ)   /* ARCHIVE_ERRNO_FILE_FORMAT: strerror would say "multibyte" */
		e = 0;
	if (e > 0 && msg && *msg)
		ss_errf(r->err, r->errlen, "entry \"%s\": %s (%s)", r->name, strerror(e), msg);
	else if (msg && *msg)
		ss_errf(r->err, r->errlen, "entry \"%s\": %s", r->name, msg);
	else
		ss_errf(r->err, r->errlen, "entry \"%s\": %s", r->name, strerror(-ret));
	return ret;
}

/*
 * fsync a file archive_write_disk has just finished.  libarchive does not expose its fd, so
 * the file is reopened by name relative to dest, refusing any symlink on the way so that a
 * swapped-in link cannot make us open something outside.  Opening read-only suffices: fsync
 * flushes the inode, whichever descriptor names it.
 */
static int fsync_entry(struct run *r, unsigned rep, const char *rel)
{
	char *p;
	int fd, ret = 0;

	if (prefix_path(r, rep, rel)) {
		ss_errf(r->err, r->errlen, "out of memory");
		return -ENOMEM;
	}
	p = r->path + strlen(r->dest) + 1;           /* "<rep>/<rel>", relative to destfd */
	fd = ss_open_beneath(r->destfd, p, O_RDONLY | O_CLOEXEC);
	if (fd < 0 && errno == EACCES)               /* e.g. mode 0200 as non-root */
		fd = ss_open_beneath(r->destfd, p, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == EACCES || errno == ENAMETOOLONG) {
			r->st->fsync_skipped++;   /* the final syncfs covers it */
			return 0;
		}
		ret = -errno;
		ss_errf(r->err, r->errlen, "entry \"%s\": reopening for fsync: %s", r->name,
			strerror(-ret));
		return ret;
	}
	if (fsync(fd) < 0) {
		ret = -errno;
		ss_errf(r->err, r->errlen, "entry \"%s\": fsync: %s", r->name, strerror(-ret));
	}
	close(fd);
	return ret;
}

static int copy_data(struct run *r, struct archive *in, struct archive *out)
{
	for (;;) {
		const void *buf;
		size_t len;
		la_int64_t off;
		int rc = r->ar.archive_read_data_block(in, &buf, &len, &off);

		if (rc == ARCHIVE_EOF)
			return 0;
		if (rc < ARCHIVE_WARN) {
			/* say what it means: decompressors' own words can be cryptic ("Lzma
			 * library error: No progress is possible" for a cut .xz) */
			const char *msg = r->ar.archive_error_string(in);
			int e = r->ar.archive_errno(in);

			if (e > 0 && e != EILSEQ)      /* a real read error on the archive file */
				return entry_fail(r, in, -e);
			ss_errf(r->err, r->errlen, "entry \"%s\": archive damaged or truncated: %s",
				r->name, msg && *msg ? msg : "read error");
			return -EILSEQ;
		}
		/* Not "< ARCHIVE_WARN": archive_write_disk reports a failed write() (ENOSPC,
		 * EIO) as ARCHIVE_WARN, and finish_entry would then ftruncate() the file up to
		 * its full size, so a full filesystem would pass unnoticed.  Without an errno
		 * the archive held more data than its header declared. */
		if (r->ar.archive_write_data_block(out, buf, len, off) != ARCHIVE_OK)
			return entry_fail(r, out, la_errno(r, out, -EILSEQ));
		r->cur->bytes += len;
		r->prog.archive_read = (uint64_t)r->ar.archive_filter_bytes(in, -1);
		progress(r, false);
	}
}

enum kind { K_FILE, K_DIR, K_SYMLINK, K_HARDLINK, K_OTHER };

static enum kind entry_kind(const struct run *r, struct archive_entry *e)
{
	if (r->ar.archive_entry_hardlink(e))
		return K_HARDLINK;
	switch (r->ar.archive_entry_filetype(e)) {
	case AE_IFREG: return K_FILE;
	case AE_IFDIR: return K_DIR;
	case AE_IFLNK: return K_SYMLINK;
	default:       return K_OTHER;   /* devices, fifos, sockets, unknown: never created */
	}
}

/* Vet, count and rewrite one entry; then write it (and its data) to disk. */
static int extract_entry(struct run *r, unsigned rep, struct archive *in, struct archive *out,
			 struct archive_entry *e)
{
	const char *name = r->ar.archive_entry_pathname(e);
	const char *link = r->ar.archive_entry_hardlink(e);
	enum kind k = entry_kind(r, e);
	bool first = rep == 1;
	int ret, rc;

	if (grow(&r->name, &r->name_cap, (name ? strlen(name) : 0) + 1)) {
		ss_errf(r->err, r->errlen, "out of memory");
		return -ENOMEM;
	}
	strcpy(r->name, name ? name : "");
	/* From here on use the copy: rewriting the pathname below frees the entry's string. */
	if (!name) {
		ss_errf(r->err, r->errlen, "entry %llu: name cannot be represented in this locale",
			(unsigned long long)r->cur->entries + 1);
		return -EILSEQ;
	}
	name = r->name;
	r->cur->entries++;
	if (first)
		r->st->entries++;

	ret = ss_untar_path_check(name);
	if (ret == -ENAMETOOLONG) {
		ss_errf(r->err, r->errlen, "entry \"%.200s...\": deeper than %d directories (the "
			"delete phase could not remove it); refusing to extract", name,
			SS_UNTAR_MAX_DEPTH);
		return ret;
	}
	if (ret) {
		ss_errf(r->err, r->errlen, "entry \"%s\": %s; refusing to extract", name,
			ret == -EPERM ? "absolute path or \"..\" component" : "empty name");
		return ret == -EPERM ? -EPERM : -EINVAL;
	}
	if (k == K_OTHER) {
		if (first)
			r->st->others++;
		return 0;
	}
	if (k == K_HARDLINK) {
		ret = ss_untar_path_check(link);
		if (ret) {
			ss_errf(r->err, r->errlen, "entry \"%.200s\": hard link target \"%.200s\" %s; "
				"refusing to extract", name, link, ret == -ENAMETOOLONG ?
				"is deeper than any entry can be" : "is outside the destination");
			return ret == -ENAMETOOLONG ? ret : -EPERM;
		}
		/* A link to itself: skipped with a warning, as libarchive would; asked to write
		 * it, libarchive says ARCHIVE_WARN but stays in the header state, so the data
		 * that follows would put the writer in its fatal state (and leak its deferred
		 * directory fixups). */
		if (ss_untar_same_path(name, link)) {
			r->st->warnings++;
			return 0;
		}
		if (prefix_path(r, rep, link)) {
			ss_errf(r->err, r->errlen, "out of memory");
			return -ENOMEM;
		}
		r->ar.archive_entry_copy_hardlink(e, r->path);
	}
	if (prefix_path(r, rep, name)) {
		ss_errf(r->err, r->errlen, "out of memory");
		return -ENOMEM;
	}
	r->ar.archive_entry_copy_pathname(e, r->path);
	r->ar.archive_entry_set_perm(e, r->ar.archive_entry_perm(e) &
				     ~(mode_t)(S_ISUID | S_ISGID));

	/* Refusals by the secure flags come without errno: -EPERM. */
	rc = r->ar.archive_write_header(out, e);
	if (rc < ARCHIVE_WARN)
		return entry_fail(r, out, la_errno(r, out, -EPERM));
	r->st->warnings += rc == ARCHIVE_WARN;
	/* Data only for files (hardlinks may carry it in pax/cpio); not by size, which zip
	 * entries written in streaming mode do not have; never for directories, which GNU
	 * incremental archives give data that is not file content. */
	if (k == K_FILE || k == K_HARDLINK) {
		ret = copy_data(r, in, out);
		if (ret)
			return ret;
	}
	/* WARN here means times or mode could not be set: counted, not fatal. */
	rc = r->ar.archive_write_finish_entry(out);
	if (rc < ARCHIVE_WARN)
		return entry_fail(r, out, la_errno(r, out, -EIO));
	r->st->warnings += rc == ARCHIVE_WARN;

	if (k == K_FILE) {
		r->cur->files++;
		if (r->o->fsync_mode == SS_FSYNC_FILE && (ret = fsync_entry(r, rep, name)))
			return ret;
	}
	if (first) {
		switch (k) {
		case K_FILE:     r->st->files++; break;
		case K_DIR:      r->st->dirs++; break;
		case K_SYMLINK:  r->st->symlinks++; break;
		case K_HARDLINK: r->st->hardlinks++; break;
		case K_OTHER:    break;
		}
	}
	return 0;
}

static int open_reader(struct run *r, struct archive **ap)
{
	struct archive *a = r->ar.archive_read_new();
	int ret;

	*ap = NULL;
	if (!a) {
		ss_errf(r->err, r->errlen, "out of memory");
		return -ENOMEM;
	}
	r->ar.archive_read_support_filter_all(a);
	/* Not archive_read_support_format_all(): it includes mtree, whose entries can name
	 * arbitrary host files as their contents ("contents=/etc/shadow") -- a text file posing
	 * as an archive would copy them into dest.  Every real archive format is listed. */
	r->ar.archive_read_support_format_tar(a);
	r->ar.archive_read_support_format_cpio(a);
	r->ar.archive_read_support_format_zip(a);
	r->ar.archive_read_support_format_7zip(a);
	r->ar.archive_read_support_format_ar(a);
	r->ar.archive_read_support_format_iso9660(a);
	r->ar.archive_read_support_format_xar(a);
	r->ar.archive_read_support_format_rar(a);
	r->ar.archive_read_support_format_rar5(a);
	r->ar.archive_read_support_format_lha(a);
	r->ar.archive_read_support_format_cab(a);
	r->ar.archive_read_support_format_warc(a);
	r->ar.archive_read_support_format_empty(a);
	if (r->ar.archive_read_open_filename(a, r->o->archive, READ_BLOCK) != ARCHIVE_OK) {
		ret = la_errno(r, a, -EILSEQ);
		ss_errf(r->err, r->errlen, "%s: %s", r->o->archive, r->ar.archive_error_string(a));
		r->ar.archive_read_free(a);
		return ret;
	}
	*ap = a;
	return 0;
}

static struct archive *open_writer(struct run *r)
{
	struct archive *a = r->ar.archive_write_disk_new();

	if (!a)
		return NULL;
	/* TIME and PERM like `tar xp` as a user; no OWNER/ACL/XATTR/FFLAGS: a benchmark
	 * should not depend on who runs it, and those add I/O a source tarball never needs. */
	r->ar.archive_write_disk_set_options(a, ARCHIVE_EXTRACT_TIME | ARCHIVE_EXTRACT_PERM |
				       ARCHIVE_EXTRACT_SECURE_SYMLINKS |
				       ARCHIVE_EXTRACT_SECURE_NODOTDOT);
	/* Never overwrite the archive we are reading (a hardlink entry could name it). */
	r->ar.archive_write_disk_set_skip_file(a, r->archive_sb.st_dev, r->archive_sb.st_ino);
	return a;
}

/* One repetition: read the whole archive into dest/<rep>. */
static int extract_once(struct run *r, unsigned rep)
{
	struct archive *in = NULL, *out = NULL;
	struct archive_entry *e;
	char name[32], dir[16];
	int ret = 0, rc;

	if (r->o->repeat > 1)
		snprintf(name, sizeof(name), "extract.%u", rep);
	else
		snprintf(name, sizeof(name), "extract");
	phase_begin(r, name);
	snprintf(dir, sizeof(dir), "%u", rep);
	if (mkdirat(r->destfd, dir, 0755) < 0) {
		ret = -errno;
		if (ret == -EEXIST)
			ss_errf(r->err, r->errlen, "%s/%s already exists; extraction never overwrites, "
				"remove it or use an empty directory", r->dest, dir);
		else
			ss_errf(r->err, r->errlen, "mkdir %s/%s: %s", r->dest, dir, strerror(-ret));
		goto out;
	}
	ret = open_reader(r, &in);
	if (ret)
		goto out;
	out = open_writer(r);
	if (!out) {
		ss_errf(r->err, r->errlen, "out of memory");
		ret = -ENOMEM;
		goto out;
	}
	for (;;) {
		if (stop_requested(r)) {
			ss_errf(r->err, r->errlen, "stopped after %llu entries of %s",
				(unsigned long long)r->cur->entries, name);
			ret = -EINTR;
			goto out;
		}
		rc = r->ar.archive_read_next_header(in, &e);
		if (rc == ARCHIVE_EOF)
			break;
		if (rc < ARCHIVE_WARN) {
			ret = la_errno(r, in, -EILSEQ);
			if (r->cur->entries)
				ss_errf(r->err, r->errlen, "%s: damaged after entry \"%s\": %s",
					r->o->archive, r->name, r->ar.archive_error_string(in));
			else
				ss_errf(r->err, r->errlen, "%s: %s", r->o->archive,
					r->ar.archive_error_string(in));
			goto out;
		}
		ret = extract_entry(r, rep, in, out, e);
		if (ret)
			goto out;
		r->prog.archive_read = (uint64_t)r->ar.archive_filter_bytes(in, -1);
		progress(r, false);
	}
	/* Directory modes and times are applied here (libarchive defers them). */
	rc = r->ar.archive_write_close(out);
	if (rc < ARCHIVE_WARN) {
		ret = la_errno(r, out, -EIO);
		ss_errf(r->err, r->errlen, "%s: %s", name, r->ar.archive_error_string(out));
	}
	r->st->warnings += rc == ARCHIVE_WARN;
out:
	if (rep == 1)
		r->st->data_bytes = r->cur->bytes;
	if (out)
		r->ar.archive_write_free(out);
	if (in)
		r->ar.archive_read_free(in);
	phase_end(r);
	return ret;
}

/* ---- delete ----------------------------------------------------------------------------- */

static void delete_tick(void *ctx, const struct ss_rmtree *t)
{
	struct run *r = ctx;

	r->cur->entries = t->entries;
	r->cur->files = t->files;
	progress(r, false);
}

static int delete_phase(struct run *r, unsigned reps)
{
	char msg[256] = "";
	struct ss_rmtree t = { .stop = r->o->stop, .tick = delete_tick, .ctx = r,
			       .err = msg, .errlen = sizeof(msg) };
	int ret = 0;

	phase_begin(r, "delete");
	for (unsigned rep = 1; rep <= reps && !ret; rep++) {
		char dir[16];

		snprintf(dir, sizeof(dir), "%u", rep);
		ret = ss_rmtree_at(&t, r->destfd, dir);
		if (ret)
			ss_errf(r->err, r->errlen, "delete %s/%s: %s", r->dest, dir, msg);
	}
	phase_end(r);
	return ret;
}

/* ---- the workload ----------------------------------------------------------------------- */

static int stopped_before(struct run *r, const char *phase)
{
	if (!stop_requested(r))
		return 0;
	ss_errf(r->err, r->errlen, "stopped before %s", phase);
	return -EINTR;
}

/* What ss_untar_run() and ss_untar_check() both refuse: options, the archive file, and the
 * destination (opened into r->destfd). */
static int prepare(struct run *r)
{
	const struct ss_untar_opts *o = r->o;
	int ret;

	if (o->repeat > SS_UNTAR_MAX_REPEAT) {
		ss_errf(r->err, r->errlen, "repeat %u is more than the %d supported", o->repeat,
			SS_UNTAR_MAX_REPEAT);
		return -EINVAL;
	}
	if (o->fsync_mode != SS_FSYNC_END && o->fsync_mode != SS_FSYNC_NONE &&
	    o->fsync_mode != SS_FSYNC_FILE) {
		ss_errf(r->err, r->errlen, "unknown fsync mode %d", (int)o->fsync_mode);
		return -EINVAL;
	}
	if (!o->archive || !*o->archive) {
		ss_errf(r->err, r->errlen, "no archive given");
		return -EINVAL;
	}
	if (stat(o->archive, &r->archive_sb) < 0) {
		ret = -errno;
		ss_errf(r->err, r->errlen, "%s: %s", o->archive, strerror(-ret));
		return ret;
	}
	if (!S_ISREG(r->archive_sb.st_mode)) {
		ss_errf(r->err, r->errlen, "%s: not a regular file", o->archive);
		return -EINVAL;
	}
	return open_dest(r);
}

/* DIR writable and DIR/1..N free, before anything is written: a run never overwrites; then
 * whether libarchive could be loaded. */
static int check_targets(struct run *r, unsigned reps)
{
	struct stat sb;

	if (faccessat(r->destfd, ".", W_OK | X_OK, AT_EACCESS) < 0) {
		int e = errno;

		ss_errf(r->err, r->errlen, "destination %s: %s", r->dest, strerror(e));
		return -e;
	}
	for (unsigned rep = 1; rep <= reps; rep++) {
		char dir[16];

		snprintf(dir, sizeof(dir), "%u", rep);
		if (fstatat(r->destfd, dir, &sb, AT_SYMLINK_NOFOLLOW) == 0) {
			ss_errf(r->err, r->errlen, "%s/%s already exists; extraction never "
				"overwrites, remove it or use an empty directory", r->dest, dir);
			return -EEXIST;
		}
		if (errno != ENOENT) {
			int e = errno;

			ss_errf(r->err, r->errlen, "%s/%s: %s", r->dest, dir, strerror(e));
			return -e;
		}
	}
	if (r->ar_ret)
		ss_errf(r->err, r->errlen, "%s", r->ar_err);
	return r->ar_ret;
}

/* The archive opens and its first header reads (an empty archive is fine). */
static int probe_archive(struct run *r)
{
	struct archive_entry *e;
	struct archive *a;
	int ret = open_reader(r, &a);

	if (ret)
		return ret;
	if (r->ar.archive_read_next_header(a, &e) < ARCHIVE_WARN) {
		ret = la_errno(r, a, -EILSEQ);
		ss_errf(r->err, r->errlen, "%s: %s", r->o->archive, r->ar.archive_error_string(a));
	}
	r->ar.archive_read_free(a);
	return ret;
}

int ss_untar_check(const struct ss_untar_opts *o, char *err, size_t errlen)
{
	struct run r = { .o = o, .err = err, .errlen = errlen, .destfd = -1 };
	struct ss_runas_saved sv;
	int ret;

	if (err && errlen)
		err[0] = '\0';
	if (!o) {
		ss_errf(err, errlen, "no options given");
		return -EINVAL;
	}
	/* loaded here, before a capture starts (the run's opening then only looks it up), and
	 * as the caller; a failure is told after what the options and files get wrong */
	r.ar_ret = ss_ar_open(&r.ar, r.ar_err, sizeof(r.ar_err));
	ret = ss_runas_fs_enter(o->as, &sv, err, errlen);
	if (ret) {
		ss_ar_close(&r.ar);
		return ret;
	}
	ret = prepare(&r);
	if (!ret)
		ret = check_targets(&r, o->repeat ? o->repeat : 1);
	if (!ret)
		ret = probe_archive(&r);
	ss_runas_fs_leave(o->as, &sv);
	if (!ret && o->drop_caches && access(DROP_CACHES, W_OK) < 0) {
		ss_errf(err, errlen, "drop-caches: writing %s needs root", DROP_CACHES);
		ret = -EPERM;
	}
	if (r.destfd >= 0)
		close(r.destfd);
	ss_ar_close(&r.ar);
	return ret;
}

int ss_untar_run(const struct ss_untar_opts *o, struct ss_untar_stats *st, char *err, size_t errlen)
{
	struct run r = { .o = o, .st = st, .err = err, .errlen = errlen, .destfd = -1 };
	unsigned reps = o && o->repeat ? o->repeat : 1;
	struct ss_runas_saved sv;
	bool entered = false;
	int ret;

	if (err && errlen)
		err[0] = '\0';
	if (!o || !st) {
		ss_errf(r.err, r.errlen, "no options or statistics given");
		return -EINVAL;
	}
	memset(st, 0, sizeof(*st));
	r.ar_ret = ss_ar_open(&r.ar, r.ar_err, sizeof(r.ar_err));   /* as ss_untar_check() */
	ret = prepare(&r);
	if (!ret)
		ret = check_targets(&r, reps);
	if (ret)
		goto out;
	st->archive_bytes = (uint64_t)r.archive_sb.st_size;
	r.prog.archive_total = st->archive_bytes;

	/* the page cache is the system's: dropped as the caller; the rest is the workload */
	if (o->drop_caches && (ret = drop_caches(&r)))
		goto out;
	if ((ret = ss_runas_fs_enter(o->as, &sv, err, errlen)))
		goto out;
	entered = true;
	for (unsigned rep = 1; rep <= reps; rep++) {
		r.prog.archive_read = 0;
		ret = extract_once(&r, rep);
		if (ret)
			goto out;
	}
	/* Later phases keep reporting the archive as fully read.  A stop that arrived during
	 * the last entries is honoured before each of them, too. */
	if (o->fsync_mode != SS_FSYNC_NONE) {
		if ((ret = stopped_before(&r, "sync")) || (ret = sync_phase(&r, "sync")))
			goto out;
	}
	if (o->extracted_cb)
		o->extracted_cb(o->ctx);
	if (o->delete_after) {
		if ((ret = stopped_before(&r, "delete")) || (ret = delete_phase(&r, reps)))
			goto out;
		if (o->fsync_mode != SS_FSYNC_NONE)
			ret = stopped_before(&r, "delete-sync") ?: sync_phase(&r, "delete-sync");
	}
out:
	if (entered)
		ss_runas_fs_leave(o->as, &sv);
	if (r.destfd >= 0)
		close(r.destfd);
	free(r.name);
	free(r.path);
	ss_ar_close(&r.ar);
	return ret;
}
