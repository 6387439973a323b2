// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Deterministic source-tree-like archive generator (see gentree.h).  Everything random comes
 * from splitmix64 streams derived from the seed, and every size comes from integer
 * arithmetic on a fixed quantile table, so no libm rounding can make two machines disagree.
 * The tree is laid out first (directories, then files assigned to them), then written
 * depth-first the way `tar c` walks a directory: a directory, its files, its subdirectories.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "arlib.h"
#include "errbuf.h"
#include "outfile.h"
#include "gentree.h"

#define MAX_DEPTH   5                  /* directory levels below the top one */
#define CHUNK       (64 * 1024)
#define MTIME_BASE  1300000000         /* March 2011: around linux-2.6.38 */
#define MTIME_SPAN  (2 * 365 * 86400)
#define BIG_EVERY   1000               /* one 0.5-4 MiB file per this many files */

/*
 * Quantiles of a log-normal size distribution (median 8 KiB, sigma 0.7) at p = i/64, with
 * the ends pinned to 96 bytes and 128 KiB; sizes are interpolated linearly in between.
 * Mean ~11 KiB, so the default 6000 files give ~66 MB plus ~11 MB of big files.
 */
static const uint32_t size_quantiles[65] = {
	96, 1814, 2224, 2535, 2799, 3036, 3256, 3463, 3662,
	3853, 4040, 4222, 4402, 4580, 4757, 4933, 5109, 5285,
	5462, 5639, 5818, 5999, 6182, 6367, 6554, 6745, 6939,
	7136, 7338, 7544, 7754, 7970, 8192, 8420, 8654, 8896,
	9146, 9404, 9672, 9950, 10239, 10541, 10856, 11187, 11534,
	11900, 12287, 12698, 13135, 13603, 14107, 14651, 15244, 15893,
	16612, 17417, 18327, 19376, 20610, 22101, 23976, 26478, 30177,
	36998, 131072,
};

static const char *const top_names[] = {
	"arch", "block", "certs", "crypto", "drivers", "fs", "include", "init", "ipc", "kernel",
	"lib", "mm", "net", "samples", "scripts", "security", "sound", "tools", "usr", "virt",
	"firmware", "Documentation",
};

/* Distinct, without '_': names joined from them with '_' are then unique per ordinal. */
static const char *const words[] = {
	"core", "dev", "log", "inode", "alloc", "buf", "sync", "attr", "dir", "file", "super",
	"bmap", "trans", "quota", "acl", "xattr", "ioctl", "mount", "page", "cache", "map", "irq",
	"dma", "pci", "usb", "tcp", "udp", "eth", "phy", "mac", "spi", "i2c", "gpio", "clk",
	"power", "reset", "timer", "sched", "fork", "signal", "hash", "list", "rbtree", "bitmap",
	"crc", "raid", "blk", "scsi", "ata", "nvme", "tty", "serial", "drm", "pcm", "codec", "hid",
	"input", "mmc", "nand", "rtc", "hwmon", "thermal", "cpu", "smp", "slab", "swap", "numa",
	"kvm", "boot", "setup", "entry", "trace", "probe", "debug", "util", "main", "ops", "proc",
};
#define NWORDS (sizeof(words) / sizeof(words[0]))

static const char *const keywords[] = {
	"int", "struct", "return", "if", "static", "void", "unsigned", "long", "const", "char",
	"for", "while", "else", "break", "NULL", "sizeof", "goto", "u64", "u32", "bool", "err",
	"ret", "len", "flags", "count", "offset", "mutex_lock", "spin_unlock", "kfree", "-EINVAL",
};

static const struct { const char *ext; unsigned weight; bool exec; } exts[] = {
	{ ".c", 55, false }, { ".h", 30, false }, { ".S", 3, false }, { ".txt", 4, false },
	{ ".rst", 4, false }, { ".sh", 2, true }, { ".py", 2, true },
};

struct gdir {
	uint32_t parent;
	uint32_t first_child, nchild;   /* into gen.child_idx */
	uint32_t first_file, nfiles;    /* into gen.file_idx */
	uint32_t child_ord;             /* children named so far */
	uint8_t depth;
	bool prefix_files;              /* files named "<dirname>_<word>..." like xfs_log.c */
	char *path;
};

struct gfile {
	uint32_t dir;
	uint32_t ord;                   /* position among its directory's files */
	uint64_t size;
	uint8_t ext;
};

struct gen {
	const struct ss_gentree_opts *o;
	unsigned nfiles, ndirs;
	double scale;
	uint64_t seed;
	struct gdir *d;
	struct gfile *f;
	uint32_t *child_idx, *file_idx;
	char *buf;
	struct archive *a;
	struct archive_entry *e;
	struct ss_gentree_stats st;
	char *err;
	size_t errlen;
	struct ss_ar ar;        /* libarchive */
	const struct format *format;
};

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t mix(uint64_t a, uint64_t b)
{
	uint64_t s = a ^ (b * 0xd1342543de82ef95ull);

	return splitmix64(&s);
}

static uint32_t below(uint64_t *s, uint32_t n)   /* uniform-enough in [0, n) for small n */
{
	return (uint32_t)((splitmix64(s) >> 32) * n >> 32);
}

/* Distinct ordinals give distinct names: base-NWORDS digits, each mapped by a per-directory
 * rotation (a bijection), joined with '_'. */
static void ordinal_name(char *out, size_t len, const char *prefix, uint32_t ord, uint64_t key)
{
	size_t n = 0;
	unsigned k = 0;

	out[0] = '\0';
	if (prefix)
		n = (size_t)snprintf(out, len, "%s", prefix);
	do {
		unsigned digit = ord % NWORDS, rot = (unsigned)((key >> (8 * (k % 8))) % NWORDS);

		if (n < len)
			n += (size_t)snprintf(out + n, len - n, "%s%s", n ? "_" : "",
					      words[(digit + rot) % NWORDS]);
		ord /= NWORDS;
		k++;
	} while (ord);
}

static uint64_t file_size(struct gen *g, uint64_t *s, bool big)
{
	uint64_t size;

	if (big) {   /* log-uniform-ish over 0.5-4 MiB: pick an octave, then uniform inside */
		unsigned octave = 19 + below(s, 3);

		size = (1ull << octave) + (splitmix64(s) % (1ull << octave));
	} else {
		uint32_t u = (uint32_t)(splitmix64(s) >> 32);
		unsigned i = u >> 26;               /* knot 0..63 */
		uint64_t frac = u & ((1u << 26) - 1), lo = size_quantiles[i], hi = size_quantiles[i + 1];

		size = lo + (((hi - lo) * frac) >> 26);
	}
	return g->scale == 1.0 ? size : (uint64_t)((double)size * g->scale);
}

static int build_tree(struct gen *g)
{
	uint64_t s = mix(g->seed, 0x7472656500000001ull);   /* the tree's own stream */
	uint32_t *eligible = malloc(sizeof(*eligible) * g->ndirs);
	uint32_t neligible = 0, ntop = g->ndirs - 1;
	uint32_t *fill = calloc(g->ndirs, sizeof(*fill));
	unsigned nbig = g->nfiles / BIG_EVERY;
	bool *big = calloc(g->nfiles, sizeof(*big));
	int ret = 0;

	if (!eligible || !fill || !big) {
		ss_errf(g->err, g->errlen, "out of memory");
		ret = -ENOMEM;
		goto out;
	}
	if (ntop > sizeof(top_names) / sizeof(top_names[0]))
		ntop = sizeof(top_names) / sizeof(top_names[0]);
	g->d[0].path = strdup(g->o->top ? g->o->top : "srctree");
	if (!g->d[0].path) {
		ss_errf(g->err, g->errlen, "out of memory");
		ret = -ENOMEM;
		goto out;
	}
	for (uint32_t i = 1; i < g->ndirs; i++) {
		struct gdir *d = &g->d[i], *p;
		char name[128];
		size_t len;

		if (i <= ntop) {
			d->parent = 0;
			snprintf(name, sizeof(name), "%s", top_names[i - 1]);
		} else {
			d->parent = eligible[below(&s, neligible)];
			ordinal_name(name, sizeof(name), NULL, g->d[d->parent].child_ord++,
				     mix(g->seed, d->parent));
		}
		p = &g->d[d->parent];
		d->depth = (uint8_t)(p->depth + 1);
		d->prefix_files = !strchr(name, '_') && strlen(name) <= 5 && below(&s, 10) < 3;
		len = strlen(p->path) + 1 + strlen(name) + 1;
		d->path = malloc(len);
		if (!d->path) {
			ss_errf(g->err, g->errlen, "out of memory");
			ret = -ENOMEM;
			goto out;
		}
		snprintf(d->path, len, "%s/%s", p->path, name);
		p->nchild++;
		if (d->depth < MAX_DEPTH)
			eligible[neligible++] = i;
		if (d->depth > g->st.max_depth)
			g->st.max_depth = d->depth;
	}
	/* Exactly nfiles/BIG_EVERY big files, so small trees stay small and large ones get some. */
	for (unsigned k = 0; k < nbig; ) {
		uint32_t j = below(&s, g->nfiles);

		if (!big[j]) {
			big[j] = true;
			k++;
		}
	}
	for (uint32_t j = 0; j < g->nfiles; j++) {
		struct gfile *f = &g->f[j];
		unsigned w = below(&s, 100), x = 0;

		f->dir = below(&s, g->ndirs);
		f->ord = g->d[f->dir].nfiles++;
		while (x + 1 < sizeof(exts) / sizeof(exts[0]) && w >= exts[x].weight)
			w -= exts[x++].weight;
		f->ext = (uint8_t)x;
		f->size = file_size(g, &s, big[j]);
		g->st.data_bytes += f->size;
	}
	/* Index files and children per directory (counting sort keeps creation order). */
	for (uint32_t i = 0, cf = 0, cc = 0; i < g->ndirs; i++) {
		g->d[i].first_file = cf;
		g->d[i].first_child = cc;
		cf += g->d[i].nfiles;
		cc += g->d[i].nchild;
	}
	for (uint32_t j = 0; j < g->nfiles; j++)
		g->file_idx[g->d[g->f[j].dir].first_file + g->f[j].ord] = j;
	for (uint32_t i = 1; i < g->ndirs; i++) {
		struct gdir *p = &g->d[g->d[i].parent];

		g->child_idx[p->first_child + fill[g->d[i].parent]++] = i;
	}
out:
	free(eligible);
	free(fill);
	free(big);
	return ret;
}

/* One line of C-looking text into out (at most 160 bytes); returns its length. */
static size_t text_line(uint64_t *s, char *out)
{
	unsigned kind = below(s, 100), n = 2 + below(s, 7);
	size_t len = 0;

	if (kind < 8) {
		out[0] = '\n';
		return 1;
	}
	if (kind < 22)
		len += (size_t)sprintf(out, " *");
	else
		for (unsigned t = below(s, 4); t; t--)
			out[len++] = '\t';
	for (unsigned i = 0; i < n; i++) {
		const char *w = below(s, 2) ? keywords[below(s, sizeof(keywords) / sizeof(keywords[0]))]
					    : words[below(s, NWORDS)];

		len += (size_t)sprintf(out + len, "%s%s", len && out[len - 1] != '\t' ? " " : "", w);
		if (kind >= 22 && i == 1 && below(s, 3) == 0)
			len += (size_t)sprintf(out + len, "(%s)", words[below(s, NWORDS)]);
	}
	if (kind >= 22)
		out[len++] = kind < 80 ? ';' : kind < 90 ? '{' : '}';
	out[len++] = '\n';
	return len;
}

static int write_data(struct gen *g, uint32_t j, const char *path)
{
	uint64_t s = mix(g->seed ^ 0x636f6e74656e7400ull, j), left = g->f[j].size;
	char line[192];
	size_t lpos = 0, llen = 0;   /* line[lpos..llen) is still to be emitted */

	while (left) {
		size_t want = left < CHUNK ? (size_t)left : CHUNK, used = 0;

		/* A line cut at a chunk boundary continues in the next chunk, so the text does
		 * not depend on CHUNK; the file's last line is simply cut at its size. */
		while (used < want) {
			size_t c;

			if (lpos == llen) {
				llen = text_line(&s, line);
				lpos = 0;
			}
			c = llen - lpos < want - used ? llen - lpos : want - used;
			memcpy(g->buf + used, line + lpos, c);
			lpos += c;
			used += c;
		}
		if (g->ar.archive_write_data(g->a, g->buf, want) != (la_ssize_t)want) {
			ss_errf(g->err, g->errlen, "%s: writing \"%s\": %s", g->o->path, path,
				g->ar.archive_error_string(g->a));
			return g->ar.archive_errno(g->a) > 0 ? -g->ar.archive_errno(g->a) : -EIO;
		}
		left -= want;
	}
	return 0;
}

static int write_header(struct gen *g, const char *path, mode_t type, mode_t perm,
			uint64_t size, uint64_t *s)
{
	g->ar.archive_entry_clear(g->e);
	g->ar.archive_entry_copy_pathname(g->e, path);
	g->ar.archive_entry_set_filetype(g->e, type);
	g->ar.archive_entry_set_perm(g->e, perm);
	g->ar.archive_entry_set_size(g->e, (la_int64_t)size);
	g->ar.archive_entry_set_mtime(g->e, MTIME_BASE + (time_t)below(s, MTIME_SPAN), 0);
	if (g->ar.archive_write_header(g->a, g->e) < ARCHIVE_WARN) {
		ss_errf(g->err, g->errlen, "%s: entry \"%s\": %s", g->o->path, path,
			g->ar.archive_error_string(g->a));
		return g->ar.archive_errno(g->a) > 0 ? -g->ar.archive_errno(g->a) : -EIO;
	}
	return 0;
}

static int write_dir(struct gen *g, uint32_t i)
{
	struct gdir *d = &g->d[i];
	uint64_t s = mix(g->seed ^ 0x6d6574610000ull, i);
	bool kconfig = below(&s, 2) == 0;
	char path[4096];
	int ret;

	ret = write_header(g, d->path, AE_IFDIR, 0755, 0, &s);
	if (ret)
		return ret;
	g->st.dirs++;
	for (uint32_t k = 0; k < d->nfiles; k++) {
		uint32_t j = g->file_idx[d->first_file + k], ord = g->f[j].ord;
		const char *base = strrchr(d->path, '/');
		char name[256];

		if (ord == 0 && d->nfiles > 1) {
			snprintf(name, sizeof(name), "Makefile");
		} else if (ord == 1 && kconfig) {
			snprintf(name, sizeof(name), "Kconfig");
		} else {
			ordinal_name(name, sizeof(name), d->prefix_files && base ? base + 1 : NULL,
				     ord, mix(g->seed, ((uint64_t)i << 32) | 0x66));
			strncat(name, exts[g->f[j].ext].ext, sizeof(name) - strlen(name) - 1);
		}
		snprintf(path, sizeof(path), "%s/%s", d->path, name);
		ret = write_header(g, path, AE_IFREG, exts[g->f[j].ext].exec ? 0755 : 0644,
				  g->f[j].size, &s);
		if (!ret)
			ret = write_data(g, j, path);
		if (ret)
			return ret;
		g->st.files++;
		if (g->o->progress)
			g->o->progress(g->o->progress_ctx, g->st.files, g->nfiles);
	}
	for (uint32_t k = 0; k < d->nchild; k++) {
		ret = write_dir(g, g->child_idx[d->first_child + k]);   /* depth <= MAX_DEPTH */
		if (ret)
			return ret;
	}
	return 0;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

/* Explicit table rather than archive_write_set_format_filter_by_ext(): it decides the tar
 * flavour, and gzip needs its timestamp turned off for byte-identical output. */
static const struct format { const char *ext; int filter; bool zip, cpio; } formats[] = {
	{ ".tar", ARCHIVE_FILTER_NONE, false, false },
	{ ".tar.gz", ARCHIVE_FILTER_GZIP, false, false },
	{ ".tgz", ARCHIVE_FILTER_GZIP, false, false },
	{ ".tar.xz", ARCHIVE_FILTER_XZ, false, false },
	{ ".txz", ARCHIVE_FILTER_XZ, false, false },
	{ ".tar.bz2", ARCHIVE_FILTER_BZIP2, false, false },
	{ ".tbz2", ARCHIVE_FILTER_BZIP2, false, false },
	{ ".tar.zst", ARCHIVE_FILTER_ZSTD, false, false },
	{ ".tzst", ARCHIVE_FILTER_ZSTD, false, false },
	{ ".zip", ARCHIVE_FILTER_NONE, true, false },
	{ ".cpio", ARCHIVE_FILTER_NONE, false, true },
};

/* The format PATH's name asks for, or NULL. */
static const struct format *format_of(const char *path)
{
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (ends_with(path, formats[i].ext))
			return &formats[i];
	return NULL;
}

static int set_format(struct gen *g)
{
	const struct format *f = g->format;
	int r = f->zip ? g->ar.archive_write_set_format_zip(g->a) :
		f->cpio ? g->ar.archive_write_set_format_cpio_newc(g->a) :
		g->ar.archive_write_set_format_pax_restricted(g->a);

	if (r == ARCHIVE_OK)
		r = g->ar.archive_write_add_filter(g->a, f->filter);
	if (r == ARCHIVE_OK && f->filter == ARCHIVE_FILTER_GZIP)
		r = g->ar.archive_write_set_filter_option(g->a, "gzip", "timestamp", NULL);
	if (r != ARCHIVE_OK) {
		ss_errf(g->err, g->errlen, "%s: %s", g->o->path, g->ar.archive_error_string(g->a));
		return -ENOTSUP;
	}
	return 0;
}

unsigned ss_gentree_default_dirs(unsigned files)
{
	uint64_t d = ((uint64_t)files * SS_GENTREE_DEFAULT_DIRS + SS_GENTREE_DEFAULT_FILES / 2) /
		     SS_GENTREE_DEFAULT_FILES;

	return d < 1 ? 1 : d > SS_GENTREE_MAX_DIRS ? SS_GENTREE_MAX_DIRS : (unsigned)d;
}

static int check_opts(struct gen *g)
{
	const struct ss_gentree_opts *o = g->o;

	if (!o->path || !*o->path) {
		ss_errf(g->err, g->errlen, "no output file given");
		return -EINVAL;
	}
	if (!(g->format = format_of(o->path))) {
		ss_errf(g->err, g->errlen, "%s: unknown archive type; use .tar, .tar.gz, .tar.xz, "
			".tar.bz2, .tar.zst, .zip or .cpio", o->path);
		return -EINVAL;
	}
	g->nfiles = o->files ? o->files : SS_GENTREE_DEFAULT_FILES;
	g->ndirs = o->dirs ? o->dirs : ss_gentree_default_dirs(g->nfiles);
	g->scale = o->scale == 0.0 ? 1.0 : o->scale;
	g->seed = o->seed;
	if (g->nfiles > SS_GENTREE_MAX_FILES) {
		ss_errf(g->err, g->errlen, "%u files: at most %u", g->nfiles, SS_GENTREE_MAX_FILES);
		return -EINVAL;
	}
	if (g->ndirs > SS_GENTREE_MAX_DIRS) {
		ss_errf(g->err, g->errlen, "%u directories: at most %u", g->ndirs,
			SS_GENTREE_MAX_DIRS);
		return -EINVAL;
	}
	if (!(g->scale > 0.0 && g->scale <= SS_GENTREE_MAX_SCALE)) {   /* also refuses NaN */
		ss_errf(g->err, g->errlen, "scale %g: must be > 0 and <= %g", g->scale,
			SS_GENTREE_MAX_SCALE);
		return -EINVAL;
	}
	if (o->top && (!*o->top || strchr(o->top, '/') || !strcmp(o->top, ".") ||
		       !strcmp(o->top, "..") || strlen(o->top) > 64)) {
		ss_errf(g->err, g->errlen, "top directory name \"%s\": one path component please",
			o->top);
		return -EINVAL;
	}
	return 0;
}

int ss_gentree_write_stats(const struct ss_gentree_opts *o, struct ss_gentree_stats *st,
			   char *err, size_t errlen)
{
	struct gen g = { .o = o, .err = err, .errlen = errlen };
	struct ss_outfile *out = NULL;
	struct stat sb;
	int ret;

	if (err && errlen)
		err[0] = '\0';
	if (!o) {
		ss_errf(g.err, g.errlen, "no options given");
		return -EINVAL;
	}
	ret = check_opts(&g);
	if (ret)
		return ret;
	if ((ret = ss_ar_open(&g.ar, g.err, g.errlen)))
		return ret;
	g.d = calloc(g.ndirs, sizeof(*g.d));
	g.f = calloc(g.nfiles ? g.nfiles : 1, sizeof(*g.f));
	g.child_idx = calloc(g.ndirs, sizeof(*g.child_idx));
	g.file_idx = calloc(g.nfiles ? g.nfiles : 1, sizeof(*g.file_idx));
	g.buf = malloc(CHUNK);
	g.a = g.ar.archive_write_new();
	g.e = g.ar.archive_entry_new();
	if (!g.d || !g.f || !g.child_idx || !g.file_idx || !g.buf || !g.a || !g.e) {
		ss_errf(g.err, g.errlen, "out of memory");
		ret = -ENOMEM;
		goto out;
	}
	ret = build_tree(&g);
	if (!ret)
		ret = set_format(&g);
	if (ret)
		goto out;
	/* a temporary file renamed into place when complete (collector/core/outfile.h) */
	out = ss_outfile_open(o->path, SS_OUT_REPLACE, 0644, g.err, g.errlen);
	if (!out) {
		ret = -errno;
		goto out;
	}
	if (g.ar.archive_write_open_fd(g.a, ss_outfile_fd(out)) != ARCHIVE_OK) {
		int e = g.ar.archive_errno(g.a);

		ret = e > 0 ? -e : -EIO;
		ss_errf(g.err, g.errlen, "%s: %s", o->path,
			e > 0 ? strerror(e) : g.ar.archive_error_string(g.a));
		goto out;
	}
	ret = write_dir(&g, 0);
	if (!ret && g.ar.archive_write_close(g.a) != ARCHIVE_OK) {
		ret = g.ar.archive_errno(g.a) > 0 ? -g.ar.archive_errno(g.a) : -EIO;
		ss_errf(g.err, g.errlen, "%s: %s", o->path, g.ar.archive_error_string(g.a));
	}
	if (!ret && fstat(ss_outfile_fd(out), &sb) == 0)
		g.st.archive_bytes = (uint64_t)sb.st_size;
	if (!ret) {
		ret = ss_outfile_commit(out, g.err, g.errlen);
		out = NULL;
	}
out:
	if (g.a)
		g.ar.archive_write_free(g.a);   /* closes if still open (not the descriptor) */
	ss_outfile_discard(out);           /* on failure: nothing is left under the name */
	if (g.e)
		g.ar.archive_entry_free(g.e);
	ss_ar_close(&g.ar);
	for (uint32_t i = 0; g.d && i < g.ndirs; i++)
		free(g.d[i].path);
	free(g.d);
	free(g.f);
	free(g.child_idx);
	free(g.file_idx);
	free(g.buf);
	if (st)
		*st = g.st;
	return ret;
}

int ss_gentree_write(const struct ss_gentree_opts *o, char *err, size_t errlen)
{
	return ss_gentree_write_stats(o, NULL, err, errlen);
}
