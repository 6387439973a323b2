// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The trace-cmd reader's look at a version 7 file's ring buffers before libtracecmd reads them
 * (ss_tc_check_buffers, import_tracecmd_chunks.c), on files built here in memory: honest
 * zstd and zlib chunks pass, in either byte order, with or without sizes in the zstd frames,
 * with skippable frames, in zstd's legacy v0.7 format (whose sizes libzstd does not check:
 * counted), in the top buffer and in an instance beside it or of another page size (an
 * instance's data read as compressed when the top buffer's is, whatever its own section
 * says, as libtracecmd reads it); a chunk that unpacks to less
 * than it claims, or to more, one that claims no whole number of pages or more than 2 GiB,
 * one that does not unpack, one that runs past the end of the file, an instance's page size
 * that is no power of two: each refused with -EINVAL and a message naming the CPU, buffer and
 * chunk.  The options are followed as libtracecmd follows them: from the file head's offset
 * through each section's DONE option, in compressed sections too; options without a DONE and a
 * chain of sections that loops are refused; version 6 files and uncompressed CPU data are not
 * looked at.  The reader's walk, which defers: a chunk past a CPU's first whose frame does not
 * say its size is left unchecked (the reading page by page holds it to its claim), the first
 * chunk and sized frames are still checked, and a file it refuses past a chunk it left is
 * refused for what the walk over every chunk finds first.  No libtracecmd here: the files
 * need not be readable by it.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <zlib.h>
#include <zstd.h>

#include "tap.h"
#include "import_tracecmd_reader.h"

#define PAGE 4096u

/* ---- a growing byte buffer in the file's byte order */
struct buf {
	unsigned char *p;
	size_t len, cap;
	bool big;
};

static void put(struct buf *b, const void *d, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 64;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			abort();
	}
	memcpy(b->p + b->len, d, n);
	b->len += n;
}

static void put_num(struct buf *b, uint64_t v, int bytes)
{
	unsigned char t[8];

	for (int i = 0; i < bytes; i++)
		t[b->big ? bytes - 1 - i : i] = (unsigned char)(v >> (8 * i));
	put(b, t, (size_t)bytes);
}

static void set_num(struct buf *b, size_t at, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		b->p[at + (size_t)(b->big ? bytes - 1 - i : i)] = (unsigned char)(v >> (8 * i));
}

static void put_str(struct buf *b, const char *s)
{
	put(b, s, strlen(s) + 1);
}

/* ---- packing */
enum pack { ZSTD_SIZED, ZSTD_UNSIZED, ZLIB, GARBAGE, LEGACY, SKIPPABLE };

/* A zstd v0.7 frame (the legacy format libzstd still reads) of SRC's N bytes in one raw
 * block, whose header says it holds DECLARED bytes, into OUT: its length. */
static size_t legacy_frame(const unsigned char *src, size_t n, uint64_t declared,
			   unsigned char *out)
{
	size_t len = 0;

	memcpy(out, "\x27\xb5\x2f\xfd", 4);                 /* magic 0xFD2FB527 */
	len = 4;
	out[len++] = 2 << 6 | 1 << 5;                       /* a 4-byte size, one segment */
	for (int i = 0; i < 4; i++)
		out[len++] = (unsigned char)(declared >> (8 * i));
	out[len++] = (unsigned char)(1 << 6 | n >> 16);     /* a raw block of N bytes */
	out[len++] = (unsigned char)(n >> 8);
	out[len++] = (unsigned char)n;
	memcpy(out + len, src, n);
	len += n;
	out[len++] = 3 << 6;                                /* the end */
	out[len++] = 0;
	out[len++] = 0;
	return len;
}

/* N bytes of pages packed as P into *OUT (malloc()ed): its length.  DECLARED: what a legacy
 * frame's header says. */
static size_t pack(enum pack p, size_t n, uint64_t declared, unsigned char **out)
{
	unsigned char *src = malloc(n ? n : 1);
	size_t cap = ZSTD_compressBound(n) + compressBound((uLong)n) + n + 64, len = 0;

	*out = malloc(cap);
	if (!src || !*out)
		abort();
	for (size_t i = 0; i < n; i++)
		src[i] = (unsigned char)(i % 4096 < 64 ? i * 7 : 0);
	if (p == ZSTD_SIZED) {
		len = ZSTD_compress(*out, cap, src, n, 3);
	} else if (p == ZSTD_UNSIZED) {
		ZSTD_CCtx *c = ZSTD_createCCtx();

		ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, 0);
		len = ZSTD_compress2(c, *out, cap, src, n);
		ZSTD_freeCCtx(c);
	} else if (p == ZLIB) {
		uLongf l = (uLongf)cap;

		if (compress2(*out, &l, src, (uLong)n, 6) != Z_OK)
			abort();
		len = l;
	} else if (p == LEGACY) {
		len = legacy_frame(src, n, declared, *out);
	} else if (p == SKIPPABLE) {
		/* a skippable frame of 8 bytes, then today's frame */
		memcpy(*out, "\x53\x2a\x4d\x18\x08\x00\x00\x00skipthis", 16);
		len = 16 + ZSTD_compress(*out + 16, cap - 16, src, n, 3);
	} else {
		len = 40;
		memset(*out, 0x5a, len);
	}
	if (ZSTD_isError(len))
		abort();
	free(src);
	return len;
}

/* ---- the files */
struct chunk {
	size_t bytes;           /* unpacked */
	uint64_t claim;         /* 0: BYTES */
	bool zero_claim;        /* claims 0 */
	enum pack how;
	bool cut;               /* its packed size runs past the end of the file */
};

struct cpu {
	const struct chunk *chunks;
	size_t n;
};

struct file {
	bool big, v6, none;     /* byte order; version 6; compression "none" */
	bool zlib;              /* the compression's name: zlib (else zstd) */
	bool plain_data;        /* the flyrecord section not compressed */
	const char *inst;       /* an instance buffer's name, NULL: the top buffer */
	uint32_t inst_page;
	const struct cpu *evil; /* also an instance "evil" of one CPU, these chunks ... */
	bool evil_plain;        /* ... in a section that says it is not compressed */
	struct cpu cpus[2];
	int nr_cpus;
	int split;              /* the BUFFER option in a second options section */
	bool compressed_opts;   /* the options section (first) compressed with zstd */
	bool no_done;           /* the options end without their DONE option */
	bool loop;              /* the DONE option points back at its own section */
	bool no_offset;         /* the head ends before the options' offset */
};

/* C's chunk table: the count, then each chunk's packed size, claim and bytes. */
static void put_chunks(struct buf *b, const struct cpu *c)
{
	put_num(b, c->n, 4);
	for (size_t i = 0; i < c->n; i++) {
		const struct chunk *k = &c->chunks[i];
		unsigned char *z;
		uint64_t claim = k->zero_claim ? 0 : k->claim ? k->claim : k->bytes;
		size_t zl = pack(k->how, k->bytes, claim, &z);

		put_num(b, k->cut ? zl + 100 : zl, 4);
		put_num(b, claim, 4);
		put(b, z, zl);
		free(z);
	}
}

static void section_header(struct buf *b, unsigned id, unsigned flags, uint64_t size)
{
	put_num(b, id, 2);
	put_num(b, flags, 2);
	put_num(b, 0, 4);
	put_num(b, size, 8);
}

/* The file F into a memfd: its descriptor. */
static int build(const struct file *f)
{
	struct buf b = { .big = f->big }, opt = { .big = f->big }, bufopt = { .big = f->big },
		   evilopt = { .big = f->big };
	size_t opt_at_pos, fly_at, cpu_at[2], cpu_len[2], first_opts;
	uint32_t page = f->inst ? f->inst_page : PAGE;
	int fd;

	put(&b, "\x17\x08" "Dtracing", 10);
	put_str(&b, f->v6 ? "6" : "7");
	put(&b, (unsigned char[]){ f->big, 8 }, 2);
	put_num(&b, PAGE, 4);
	put_str(&b, f->none ? "none" : f->zlib ? "zlib" : "zstd");
	put_str(&b, "1.0");
	opt_at_pos = b.len;
	if (f->no_offset) {
		/* the file ends where the options' offset would begin */
		fd = memfd_create("dat", 0);
		if (fd < 0 || write(fd, b.p, b.len) != (ssize_t)b.len)
			abort();
		free(b.p);
		return fd;
	}
	put_num(&b, 0, 8);

	/* the flyrecord section: each CPU's chunk count and chunks */
	fly_at = b.len;
	section_header(&b, 3, f->plain_data ? 0 : 1, 0);
	for (int c = 0; c < f->nr_cpus; c++) {
		cpu_at[c] = b.len;
		put_chunks(&b, &f->cpus[c]);
		cpu_len[c] = b.len - cpu_at[c];
	}
	if (f->evil) {
		/* the instance's section and its BUFFER option */
		size_t at = b.len, cpu;

		section_header(&b, 3, f->evil_plain ? 0 : 1, 0);
		cpu = b.len;
		put_chunks(&b, f->evil);
		put_num(&evilopt, at, 8);
		put_str(&evilopt, "evil");
		put_str(&evilopt, "mono");
		put_num(&evilopt, PAGE, 4);
		put_num(&evilopt, 1, 4);
		put_num(&evilopt, 0, 4);
		put_num(&evilopt, cpu, 8);
		put_num(&evilopt, b.len - cpu, 8);
	}

	/* the BUFFER option */
	put_num(&bufopt, fly_at, 8);
	put_str(&bufopt, f->inst ? f->inst : "");
	put_str(&bufopt, "mono");
	put_num(&bufopt, page, 4);
	put_num(&bufopt, (uint64_t)f->nr_cpus, 4);
	for (int c = 0; c < f->nr_cpus; c++) {
		put_num(&bufopt, (uint64_t)c, 4);
		put_num(&bufopt, cpu_at[c], 8);
		put_num(&bufopt, cpu_len[c], 8);
	}

	/* the options: CPUCOUNT, the BUFFER option (here or in a second section), DONE */
	put_num(&opt, 8, 2);
	put_num(&opt, 4, 4);
	put_num(&opt, (uint64_t)f->nr_cpus, 4);
	if (!f->split) {
		put_num(&opt, 3, 2);
		put_num(&opt, bufopt.len, 4);
		put(&opt, bufopt.p, bufopt.len);
	}
	if (f->evil) {
		put_num(&opt, 3, 2);
		put_num(&opt, evilopt.len, 4);
		put(&opt, evilopt.p, evilopt.len);
	}
	first_opts = b.len;
	if (!f->no_done) {
		put_num(&opt, 0, 2);
		put_num(&opt, 8, 4);
		put_num(&opt, f->loop ? first_opts : 0, 8);   /* the second's offset: set below */
	}
	set_num(&b, opt_at_pos, first_opts, 8);
	if (f->compressed_opts) {
		unsigned char *z = malloc(ZSTD_compressBound(opt.len));
		size_t zl = ZSTD_compress(z, ZSTD_compressBound(opt.len), opt.p, opt.len, 3);

		section_header(&b, 0, 1, zl + 8);
		put_num(&b, zl, 4);
		put_num(&b, opt.len, 4);
		put(&b, z, zl);
		free(z);
	} else {
		section_header(&b, 0, 0, opt.len);
		put(&b, opt.p, opt.len);
	}
	if (f->split) {
		/* the DONE option's offset (the last 8 bytes written) to a second section */
		set_num(&b, b.len - 8, b.len, 8);
		section_header(&b, 0, 0, 6 + bufopt.len + 14);
		put_num(&b, 3, 2);
		put_num(&b, bufopt.len, 4);
		put(&b, bufopt.p, bufopt.len);
		put_num(&b, 0, 2);
		put_num(&b, 8, 4);
		put_num(&b, 0, 8);
	}
	fd = memfd_create("dat", 0);
	if (fd < 0 || write(fd, b.p, b.len) != (ssize_t)b.len)
		abort();
	free(b.p);
	free(opt.p);
	free(bufopt.p);
	free(evilopt.p);
	return fd;
}

/* F checked (walked with DEFER, *LEFT set when it left chunks unchecked, if LEFT): the
 * return value; its message in ERR. */
static int walk(const struct file *f, bool defer, bool *left, char *err, size_t len)
{
	struct file_head fh;
	struct ss_tc_layout lay;
	int fd = build(f), ret;

	err[0] = 0;
	if (!ss_tc_read_file_head(fd, &fh)) {
		close(fd);
		return 1;
	}
	ret = ss_tc_walk_buffers(fd, &fh, left ? &lay : NULL, defer, err, len);
	if (left)
		*left = !ret && lay.deferred;
	if (left && !ret)
		ss_tc_layout_free(&lay);
	close(fd);
	return ret;
}

static int check(const struct file *f, char *err, size_t len)
{
	return walk(f, false, NULL, err, len);
}

/* F with the walk that defers: passes, with chunks left to the reading (DEFERS) or not. */
static void deferred(const struct file *f, bool defers, const char *what)
{
	char err[512];
	bool d = false;
	int ret = walk(f, true, &d, err, sizeof(err));

	ok(ret == 0 && d == defers, "%s: passes the walk that defers, %s (%d %s)", what,
	   defers ? "leaving chunks unchecked" : "every chunk checked", ret, err);
}

static void refused(const struct file *f, const char *want, const char *what)
{
	char err[512];
	int ret = check(f, err, sizeof(err));

	ok(ret == -EINVAL && strstr(err, "cannot read this trace-cmd file: corrupt (") &&
	   strstr(err, want), "%s: refused (%d: %s)", what, ret, err);
}

static void passes(const struct file *f, const char *what)
{
	char err[512];
	int ret = check(f, err, sizeof(err));

	ok(ret == 0 && !err[0], "%s: passes (%d %s)", what, ret, err);
}

int main(void)
{
	static const struct chunk one = { PAGE, 0, false, ZSTD_SIZED, false },
		two = { 2 * PAGE, 0, false, ZSTD_SIZED, false },
		liar[] = { { PAGE, 0, false, ZSTD_SIZED, false },
			   { PAGE, 4 * PAGE, false, ZSTD_SIZED, false },
			   { PAGE, 0, false, ZSTD_SIZED, false } },
		over = { 4 * PAGE, 2 * PAGE, false, ZSTD_SIZED, false },
		odd = { PAGE * 3 / 2, 0, false, ZSTD_SIZED, false },
		zero = { PAGE, 0, true, ZSTD_SIZED, false },
		huge = { PAGE, 1u << 31, false, ZSTD_SIZED, false },
		unsized = { 3 * PAGE, 0, false, ZSTD_UNSIZED, false },
		unsized_liar = { PAGE, 3 * PAGE, false, ZSTD_UNSIZED, false },
		unsized_over = { 3 * PAGE, PAGE, false, ZSTD_UNSIZED, false },
		garbage = { PAGE, 0, false, GARBAGE, false },
		cut = { PAGE, 0, false, ZSTD_SIZED, true },
		zl = { 2 * PAGE, 0, false, ZLIB, false },
		zl_liar = { PAGE, 2 * PAGE, false, ZLIB, false },
		zl_over = { 2 * PAGE, PAGE, false, ZLIB, false },
		zl_garbage = { PAGE, 0, false, GARBAGE, false },
		big_pages = { 2 * 8192, 0, false, ZSTD_SIZED, false },
		legacy = { PAGE, 0, false, LEGACY, false },
		legacy_liar = { PAGE, 4 * PAGE, false, LEGACY, false },
		skippable = { 2 * PAGE, 0, false, SKIPPABLE, false };
	struct chunk pair[2] = { one, two };
	struct file f;
	char err[512];

	plan(39);

	f = (struct file){ .nr_cpus = 2, .cpus = { { pair, 2 }, { &one, 1 } } };
	passes(&f, "honest zstd chunks of 1 and 2 pages on two CPUs");
	f.big = true;
	passes(&f, "... big-endian");
	f = (struct file){ .nr_cpus = 2, .cpus = { { &one, 1 }, { liar, 3 } } };
	refused(&f, "CPU 1 of the top buffer: compressed chunk 2 says it unpacks to 16384 bytes, "
		"but it unpacks to 4096)", "a chunk that claims 4 pages and holds 1");
	f.big = true;
	refused(&f, "compressed chunk 2 says it unpacks to 16384 bytes, but it unpacks to 4096",
		"... big-endian");
	f = (struct file){ .nr_cpus = 1, .cpus = { { &over, 1 } } };
	refused(&f, "CPU 0 of the top buffer: compressed chunk 1 says it unpacks to 8192 bytes, "
		"but it unpacks to 16384", "a chunk that unpacks to more than its claim");
	f.cpus[0].chunks = &odd;
	refused(&f, "compressed chunk 1 says it unpacks to 6144 bytes, not a whole number of "
		"4096-byte pages", "a page and a half");
	f.cpus[0].chunks = &zero;
	refused(&f, "compressed chunk 1 says it unpacks to 0 bytes, not a whole number",
		"a chunk that claims nothing");
	f.cpus[0].chunks = &huge;
	refused(&f, "says it unpacks to 2147483648 bytes, more than libtracecmd 3.1 can unpack a "
		"chunk to (2 GiB)", "a claim of 2 GiB");
	f.cpus[0].chunks = &unsized;
	passes(&f, "a zstd frame without its size, honest (unpacked and counted)");
	f.cpus[0].chunks = &unsized_liar;
	refused(&f, "says it unpacks to 12288 bytes, but it unpacks to 4096",
		"... that unpacks to less than its claim");
	f.cpus[0].chunks = &unsized_over;
	refused(&f, "says it unpacks to 4096 bytes, but it unpacks to", "... to more");
	/* the reader's walk: what only unpacking tells, past a CPU's first chunk, is left to
	 * the reading page by page (which holds each chunk to its claim) */
	{
		struct chunk later_liar[2] = { unsized, unsized_liar };
		struct chunk later_sized[2] = { unsized, liar[1] };

		bool d = false;

		ok(walk(&f, true, &d, err, sizeof(err)) == -EINVAL &&
		   strstr(err, "chunk 1 says it unpacks to 4096 bytes, but it unpacks to"),
		   "... a CPU's first chunk, unpacked whatever the walk: refused by the walk that "
		   "defers (%s)", err);
		f.cpus[0] = (struct cpu){ later_liar, 2 };
		refused(&f, "compressed chunk 2 says it unpacks to 12288 bytes, but it unpacks to 4096",
			"a second chunk without its size that holds less than its claim");
		deferred(&f, true, "... left to the reading page by page");
		f.cpus[0] = (struct cpu){ later_sized, 2 };
		ok(walk(&f, true, &d, err, sizeof(err)) == -EINVAL &&
		   strstr(err, "compressed chunk 2 says it unpacks to 16384 bytes, but it unpacks to "
			  "4096"), "... one whose frame says its size: refused by it too (%s)", err);
		f.cpus[0] = (struct cpu){ later_liar, 2 };
		f.cpus[1] = (struct cpu){ &odd, 1 };
		f.nr_cpus = 2;
		ok(walk(&f, true, &d, err, sizeof(err)) == -EINVAL &&
		   strstr(err, "CPU 0 of the top buffer: compressed chunk 2 says it unpacks to 12288 "
			  "bytes, but it unpacks to 4096"), "... refused past it (CPU 1's chunk "
		   "claims no whole number of pages): named as the walk over every chunk names it, "
		   "the first found (%s)", err);
		f.nr_cpus = 1;
		f.cpus[0] = (struct cpu){ pair, 2 };
		deferred(&f, false, "honest chunks whose frames say their size");
		f.cpus[0] = (struct cpu){ &unsized, 1 };
	}
	f.cpus[0].chunks = &garbage;
	refused(&f, "CPU 0 of the top buffer: compressed chunk 1 of 1 does not unpack",
		"a chunk that is no zstd data");
	f.cpus[0].chunks = &cut;
	refused(&f, "compressed chunk 1 of 1 runs past the end of the file",
		"a chunk that runs past the end of the file");

	f = (struct file){ .zlib = true, .nr_cpus = 1, .cpus = { { &zl, 1 } } };
	passes(&f, "an honest zlib chunk");
	f.cpus[0].chunks = &zl_liar;
	refused(&f, "says it unpacks to 8192 bytes, but it unpacks to 4096", "a lying zlib chunk");
	f.cpus[0].chunks = &zl_over;
	refused(&f, "says it unpacks to 4096 bytes, but it unpacks to", "... one that unpacks to more");
	f.cpus[0].chunks = &zl_garbage;
	refused(&f, "does not unpack", "a chunk that is no zlib data");

	f = (struct file){ .inst = "disk\x01io", .inst_page = 8192, .nr_cpus = 1,
			   .cpus = { { &big_pages, 1 } } };
	passes(&f, "an instance of 8 KiB pages, an honest chunk of two");
	f.cpus[0].chunks = &one;
	refused(&f, "CPU 0 of buffer \"disk?io\": compressed chunk 1 says it unpacks to 4096 "
		"bytes, not a whole number of 8192-byte pages", "... a 4 KiB chunk is no whole page "
		"there (its name's control character shown as ?)");
	f.inst_page = 0;
	refused(&f, "buffer \"disk?io\": its page size, 0 bytes, is no power of two from 1 KiB to "
		"1 GiB", "an instance whose page size is 0");
	f.inst_page = 3000;
	refused(&f, "its page size, 3000 bytes, is no power of two", "... or 3000");

	f = (struct file){ .nr_cpus = 1, .cpus = { { &legacy, 1 } } };
	passes(&f, "a zstd v0.7 (legacy) frame, honest (unpacked and counted)");
	f.cpus[0].chunks = &legacy_liar;
	refused(&f, "says it unpacks to 16384 bytes, but it unpacks to 4096",
		"... one whose header says 4 pages and holds 1 (libzstd does not hold it to that)");
	f.cpus[0].chunks = &skippable;
	passes(&f, "a skippable frame before today's frame");
	f = (struct file){ .nr_cpus = 1, .cpus = { { pair, 2 } }, .evil = &(struct cpu){ pair, 2 } };
	passes(&f, "the top buffer and an instance, both honest");
	f.evil = &(struct cpu){ liar, 3 };
	f.evil_plain = true;
	refused(&f, "CPU 0 of buffer \"evil\": compressed chunk 2 says it unpacks to 16384",
		"an instance whose section says it is not compressed is, when the top buffer's is: "
		"its liar found");
	f = (struct file){ .nr_cpus = 2, .cpus = { { &one, 1 }, { liar, 3 } }, .split = 1 };
	refused(&f, "compressed chunk 2 says it unpacks to 16384", "the liar's BUFFER option in a "
		"second options section (DONE's offset followed)");
	f = (struct file){ .nr_cpus = 2, .cpus = { { &one, 1 }, { liar, 3 } },
			   .compressed_opts = true };
	refused(&f, "compressed chunk 2 says it unpacks to 16384", "... in a compressed options "
		"section");
	f = (struct file){ .nr_cpus = 1, .cpus = { { &garbage, 1 } }, .plain_data = true };
	passes(&f, "CPU data in an uncompressed section: no chunks looked at");
	f = (struct file){ .nr_cpus = 1, .cpus = { { &garbage, 1 } }, .v6 = true };
	ok(check(&f, err, sizeof(err)) == 0, "a version 6 file: not looked at (%s)", err);
	f = (struct file){ .nr_cpus = 1, .cpus = { { &one, 1 } }, .no_done = true };
	refused(&f, "its options end without a DONE option", "options without their DONE");
	f = (struct file){ .nr_cpus = 1, .cpus = { { &one, 1 } }, .loop = true };
	refused(&f, "more than 4096 options sections", "a DONE option pointing back at its section");
	f = (struct file){ .nr_cpus = 1, .cpus = { { &one, 1 } }, .no_offset = true };
	refused(&f, "no options section's offset in its first 4 KiB",
		"a head that ends before the options' offset");
	return done_testing();
}
