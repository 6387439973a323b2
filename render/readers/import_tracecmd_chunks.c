// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The trace-cmd reader's look at a version 7 file's ring buffers before libtracecmd reads
 * them (import_tracecmd_reader.h): each buffer's page size, and each compressed chunk of its
 * CPUs' data against what its header claims; and the file's head, read before libtracecmd
 * opens it (ss_tc_read_file_head, ss_tc_page_size_ok).
 *
 * libtracecmd 3.1 unpacks a compressed chunk into memory malloc()ed at the size the chunk's
 * header claims and never looks at how much zstd or zlib wrote there.  A chunk that unpacks
 * to less than it claims leaves pages of whatever the heap held before (the reader's earlier
 * chunks, another file's in a kept reader, the parent's freed memory in a forked one), and
 * they are read as ring buffer pages: events that are not in the file, different from run to
 * run (`trace-cmd report` itself reads them).  A claim that is not a whole number of pages
 * makes a page run past the chunk's memory.  A chunk whose data runs past the end of the
 * file ends its CPU's ring without a word.  trace-cmd writes none of these (its chunks are
 * whole pages, each unpacking to its claim), so such a file is refused as corrupt.
 *
 * The walk follows libtracecmd's: the options sections from the offset in the file's head,
 * one after another through each section's DONE option; in them every BUFFER option (the top
 * buffer's, named "", and each instance's) with its CPUs' data offsets; at each offset, when
 * the buffer's flyrecord section is compressed, the chunk table (a count, then each chunk's
 * packed and unpacked sizes and its bytes).  libtracecmd makes an instance's handle a copy of
 * the top buffer's, so an instance's data is read as compressed chunks when the top buffer's
 * section is compressed, whatever its own says: a first walk finds the top buffer's section
 * (the last BUFFER or latency BUFFER_TEXT option named "", as libtracecmd keeps the last).
 *
 * A zstd chunk's unpacked size is read from its frames' headers: zstd checks a frame of
 * today's format against its header when it unpacks it, so the chunk unpacks to that or not
 * at all.  A chunk whose headers hold but whose blocks are damaged is not unpacked here (that
 * would double the work of reading a compressed file): libtracecmd fails on it, says so in
 * errno, and the reader reads the ring up to there with a warning (import_tracecmd_reader.c).
 * A zstd frame without its size or of a legacy format (v0.5-v0.7, which libzstd reads
 * without checking their sizes), and a zlib chunk, are unpacked and counted in a small window,
 * never kept (a frame asking for a window over 8 MiB, which trace-cmd never writes, does not
 * unpack in it and is refused; so is an options section that says it unpacks to more than
 * 16 MiB: trace-cmd writes its options uncompressed, a few KiB).  trace-cmd 3.1 writes its
 * frames without their size, so that counting came to unpacking the whole file once more, a
 * tenth of the time of a report of it: a walk that may DEFER (the reader's) counts only the
 * first chunk of each CPU's data, which libtracecmd reads when it opens the file's rings, and
 * whatever is not zstd frames of today's format within the window counted here; the rest are
 * unpacked by the reading page by page, which holds each chunk to its claim.  The reader
 * walks over every chunk after all (ss_tc_check_buffers), and that walk's verdict stands,
 * when such a chunk fails, when a ring ends early (before its later chunks) or a ring's first
 * record lies past its first chunk, when some CPU's data is no ring's, or when libtracecmd
 * reads the rings (import_tracecmd_reader.c): so a file is refused or read as it was when
 * everything was counted here, with the same message.  The top buffer's pages are the file
 * head's size (checked before libtracecmd sees the file); an instance's come from its BUFFER
 * option, so they are checked here.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <zlib.h>
#define ZSTD_STATIC_LINKING_ONLY        /* ZSTD_getFrameHeader (libzstd.so exports it) */
#include <zstd.h>

#include "errbuf.h"
#include "fileio.h"
#include "import_tracecmd_reader.h"

enum { OPTION_DONE = 0, OPTION_DATE = 1, OPTION_BUFFER = 3, OPTION_OFFSET = 7,  /* libtracecmd's ids */
       OPTION_TIME_SHIFT = 12, OPTION_GUEST = 13, OPTION_TSC2NSEC = 14, OPTION_BUFFER_TEXT = 22 };
#define SECTION_COMPRESSED 1u                      /* a section header's flag */
#define MAX_SECTIONS 4096                          /* options sections followed at most */
#define WINDOW (64u << 10)                         /* bytes unpacked at a time to count */
#define MAX_OPTIONS (16u << 20)                    /* an options section unpacked, at most */
#define WINDOW_LOG_MAX 23                          /* a zstd frame's window counted, at most */

struct walk {
	int fd;
	const struct file_head *fh;
	uint64_t file_size;
	enum algo algo;
	ZSTD_DCtx *zd;
	ZSTD_DStream *zs;
	unsigned char *buf;             /* a chunk's packed bytes */
	size_t cap;
	struct ss_tc_ahead ahead;       /* the file's bytes read ahead (chunk_read()) */
	unsigned char *window;          /* unpacked bytes counted and dropped */
	bool finding_top;               /* the first walk: where the top buffer's data is */
	bool have_top;
	uint64_t top_at;                /* the top buffer's data section (the last option's) */
	bool top_compressed;            /* ... is compressed: so is every buffer's, to it */
	struct ss_tc_layout *lay;       /* where the buffers' data lies (NULL: not asked for) */
	bool defer;                     /* the chunks past a CPU's first need not be unpacked */
	uint64_t *seen;                 /* CPU data offsets checked (+1; 0: a free slot) */
	size_t nr_seen, seen_cap;       /* a hash set's count and size (a power of two) */
	char *err;
	size_t errlen;
};

/*
 * A ring buffer page size a kernel writes: a power of two from 1 KiB to 1 GiB.  libtracecmd
 * 3.1 takes the file's word for it, and maps the data in pieces of a multiple of it, halving
 * a piece whose map fails until it is smaller than a page: with a negative page size it
 * never is, and the open never ends (a fuzzed .dat found it).  The page sizes a version 7
 * file gives its instance buffers (in its options) are looked at in import_tracecmd_chunks.c.
 */
bool ss_tc_page_size_ok(uint32_t size)
{
	return size >= 1024 && size <= (1u << 30) && !(size & (size - 1));
}

/* FD's first bytes into *FH: false when the file is too short to hold them. */
bool ss_tc_read_file_head(int fd, struct file_head *fh)
{
	unsigned char b[4096];          /* a version 7 head past it: no options found */
	ssize_t n = pread(fd, b, sizeof(b) - 1, 0);
	size_t pos = sizeof(TRACECMD_MAGIC) - 1, ver_at = pos;

	if (n < 0 || (size_t)n <= pos)
		return false;
	b[n] = 0;
	while (pos < (size_t)n && b[pos])
		pos++;
	fh->version = strtoul((const char *)b + ver_at, NULL, 10);
	if (pos + 7 > (size_t)n)
		return false;
	pos++;
	fh->endian = b[pos];
	fh->page_size = b[pos] ? (uint32_t)b[pos + 2] << 24 | (uint32_t)b[pos + 3] << 16 |
				 (uint32_t)b[pos + 4] << 8 | b[pos + 5] :
				 (uint32_t)b[pos + 5] << 24 | (uint32_t)b[pos + 4] << 16 |
				 (uint32_t)b[pos + 3] << 8 | b[pos + 2];
	pos += 6;
	fh->compressed = fh->version >= 7 && b[pos] && strcmp((const char *)b + pos, "none");
	fh->compression[0] = 0;
	fh->options_at = 0;
	if (fh->version >= 7 && pos < (size_t)n) {
		/* the compression's name and version, then the first options section's offset */
		size_t name = pos, len = strlen((const char *)b + pos);

		pos += len + 1;
		if (pos < (size_t)n)
			pos += strlen((const char *)b + pos) + 1;
		if (len < sizeof(fh->compression))
			memcpy(fh->compression, b + name, len + 1);
		for (int i = 0; pos + 8 <= (size_t)n && i < 8; i++)
			fh->options_at |= (uint64_t)b[pos + (fh->endian ? 7 - i : i)] << (8 * i);
	}
	return true;
}

/* A source of bytes: the file from OFF on, or an unpacked options section. */
struct src {
	const unsigned char *mem;       /* NULL: the file */
	uint64_t len;                   /* of MEM */
	uint64_t off;
};

static uint64_t num(const struct walk *w, const unsigned char *p, int bytes)
{
	uint64_t v = 0;

	for (int i = 0; i < bytes; i++)
		v |= (uint64_t)p[w->fh->endian ? bytes - 1 - i : i] << (8 * i);
	return v;
}

/* N bytes at the file's offset OFF into DST: false past its end or on a read error (errno
 * set; EIO for a file that shrank). */
static bool file_read(const struct walk *w, uint64_t off, void *dst, size_t n)
{
	ssize_t r;

	if (off > w->file_size || n > w->file_size - off)
		return false;
	r = ss_pread_full(w->fd, dst, n, (off_t)off);
	if (r == (ssize_t)n)
		return true;
	errno = r < 0 ? (int)-r : EIO;
	return false;
}

const unsigned char *ss_tc_ahead_get(struct ss_tc_ahead *a, int fd, uint64_t file_size,
				     uint64_t off, size_t n)
{
	size_t want;

	if (off > file_size || n > file_size - off || n > SS_TC_AHEAD_BYTES)
		return NULL;
	if (a->buf && off >= a->off && n <= a->len && off - a->off <= a->len - n)
		return a->buf + (off - a->off);
	if (!a->buf && !(a->buf = malloc(SS_TC_AHEAD_BYTES)))
		return NULL;
	want = file_size - off < SS_TC_AHEAD_BYTES ? (size_t)(file_size - off) : SS_TC_AHEAD_BYTES;
	a->len = 0;
	if (ss_pread_full(fd, a->buf, want, (off_t)off) != (ssize_t)want)
		return NULL;
	a->off = off;
	a->len = want;
	return a->buf;
}

void ss_tc_ahead_drop(struct ss_tc_ahead *a)
{
	free(a->buf);
	*a = (struct ss_tc_ahead){ 0 };
}

/* file_read() for a CPU's chunks: through W's read-ahead where it can serve them. */
static bool chunk_read(struct walk *w, uint64_t off, void *dst, size_t n)
{
	const unsigned char *b = ss_tc_ahead_get(&w->ahead, w->fd, w->file_size, off, n);

	if (!b)
		return file_read(w, off, dst, n);
	memcpy(dst, b, n);
	return true;
}

static bool take(const struct walk *w, struct src *s, void *dst, size_t n)
{
	if (s->mem) {
		if (s->off > s->len || n > s->len - s->off)
			return false;
		memcpy(dst, s->mem + s->off, n);
	} else if (!file_read(w, s->off, dst, n)) {
		return false;
	}
	s->off += n;
	return true;
}

static int corrupt(struct walk *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int corrupt(struct walk *w, const char *fmt, ...)
{
	char detail[224];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	ss_errf(w->err, w->errlen, "cannot read this trace-cmd file: corrupt (%s)", detail);
	return -EINVAL;
}

/* W->buf holds at least N bytes: 0 or -ENOMEM. */
static int reserve(struct walk *w, size_t n)
{
	unsigned char *p;

	if (n <= w->cap)
		return 0;
	if (!(p = realloc(w->buf, n)))
		return -ENOMEM;
	w->buf = p;
	w->cap = n;
	return 0;
}

/* What W->buf's N packed bytes unpack to, counted up to LIMIT + 1 bytes in a window; -1: they
 * do not unpack (as libtracecmd's one-call unpacking would not). */
static long long unpacked_size(struct walk *w, size_t n, uint64_t limit)
{
	unsigned long long total = 0;

	if (!w->window && !(w->window = malloc(WINDOW)))
		return -2;
	if (w->algo == ALGO_ZSTD) {
		ZSTD_inBuffer in = { w->buf, n, 0 };
		size_t ret = 1;

		if (!w->zs && (!(w->zs = ZSTD_createDStream()) ||
			       ZSTD_isError(ZSTD_DCtx_setParameter(w->zs, ZSTD_d_windowLogMax,
								   WINDOW_LOG_MAX))))
			return -2;
		ZSTD_DCtx_reset(w->zs, ZSTD_reset_session_only);
		while (total <= limit && (in.pos < in.size || ret)) {
			ZSTD_outBuffer out = { w->window, WINDOW, 0 };

			ret = ZSTD_decompressStream(w->zs, &out, &in);
			if (ZSTD_isError(ret) || (!out.pos && in.pos == in.size && ret))
				return -1;      /* damaged, or its last frame cut short */
			total += out.pos;
		}
		return (long long)total;
	} else {
		z_stream z = { .next_in = w->buf, .avail_in = (uInt)n };
		int ret = Z_OK;

		if (n > UINT32_MAX)
			return -1;
		if ((ret = inflateInit(&z)) != Z_OK)
			return ret == Z_MEM_ERROR ? -2 : -1;
		while (ret == Z_OK && total <= limit) {
			z.next_out = w->window;
			z.avail_out = WINDOW;
			ret = inflate(&z, Z_NO_FLUSH);
			total += WINDOW - z.avail_out;
			if (ret == Z_BUF_ERROR && z.avail_out)
				break;          /* the input ended before the stream did */
		}
		inflateEnd(&z);
		return ret == Z_STREAM_END || total > limit ? (long long)total : -1;
	}
}

/* What the zstd frames of SRC (N bytes) say they unpack to; -1: not zstd frames, one cut
 * short; -3: a frame does not say, or is of a legacy format (whose size is not checked). */
static long long zstd_sizes(const unsigned char *src, size_t n)
{
	unsigned long long total = 0;

	while (n) {
		uint32_t magic = n < 4 ? 0 : (uint32_t)src[0] | (uint32_t)src[1] << 8 |
					     (uint32_t)src[2] << 16 | (uint32_t)src[3] << 24;
		size_t len = ZSTD_findFrameCompressedSize(src, n);
		unsigned long long size = ZSTD_getFrameContentSize(src, n);

		if (ZSTD_isError(len) || size == ZSTD_CONTENTSIZE_ERROR)
			return -1;
		/* only a frame of today's format is held to its header when unpacked; the
		 * legacy formats (v0.5-v0.7) libzstd still reads are not: counted */
		if ((magic & 0xfffffff0u) == 0x184d2a50u)
			size = 0;       /* a skippable frame */
		else if (magic != 0xfd2fb528u || size == ZSTD_CONTENTSIZE_UNKNOWN)
			return -3;
		if (size > (1ull << 40) || (total += size) > (1ull << 40))
			return -1;      /* no chunk's claim (32 bits) can match */
		src += len;
		n -= len;
	}
	return (long long)total;
}

/* Whether the N bytes of zstd frames at SRC may be left to the reading page by page, which
 * unpacks a chunk in one call and holds it to its claim: frames of today's format (legacy ones
 * are counted here) whose windows are at most what the count here allows (a bigger one is
 * refused here, where the one call would unpack it); skippable frames. */
static bool deferrable(const unsigned char *src, size_t n)
{
	while (n) {
		ZSTD_frameHeader zfh;
		size_t len = ZSTD_findFrameCompressedSize(src, n);

		if (ZSTD_isError(len) || ZSTD_getFrameHeader(&zfh, src, n) ||
		    (zfh.frameType == ZSTD_frame &&
		     (zfh.windowSize > (1ull << WINDOW_LOG_MAX) ||
		      (n >= 4 && (src[0] | src[1] << 8 | src[2] << 16 | (uint32_t)src[3] << 24) !=
		       0xfd2fb528u))))
			return false;
		src += len;
		n -= len;
	}
	return true;
}

/* Whether the CPU data at OFF (with pages of PAGE bytes) was checked before, and if not,
 * remember it (several CPUs, buffers or options may name the same data: checked once): 1,
 * 0, or -ENOMEM. */
static int seen_before(struct walk *w, uint64_t off, uint32_t page)
{
	uint64_t key = (off ^ (uint64_t)page << 40) + 1, h;

	if (!key)
		key = 1;
	if (2 * (w->nr_seen + 1) > w->seen_cap) {
		size_t cap = w->seen_cap ? 2 * w->seen_cap : 64;
		uint64_t *n = calloc(cap, sizeof(*n));

		if (!n)
			return -ENOMEM;
		for (size_t i = 0; i < w->seen_cap; i++) {
			if (!w->seen[i])
				continue;
			for (h = w->seen[i] * 0x9e3779b97f4a7c15ull >> 20; n[h & (cap - 1)]; h++)
				;
			n[h & (cap - 1)] = w->seen[i];
		}
		free(w->seen);
		w->seen = n;
		w->seen_cap = cap;
	}
	for (h = key * 0x9e3779b97f4a7c15ull >> 20; w->seen[h & (w->seen_cap - 1)]; h++)
		if (w->seen[h & (w->seen_cap - 1)] == key)
			return 1;
	w->seen[h & (w->seen_cap - 1)] = key;
	w->nr_seen++;
	return 0;
}

/* The chunks of a CPU's data at OFF in a buffer of PAGE-byte pages (WHAT names the CPU). */
static int check_chunks(struct walk *w, uint64_t off, uint32_t page, const char *what)
{
	unsigned char b[8];
	uint64_t count;

	if (!file_read(w, off, b, 4))
		return corrupt(w, "%s: its chunk table lies past the end of the file", what);
	count = num(w, b, 4);
	off += 4;
	for (uint64_t i = 0; i < count; i++) {
		uint64_t packed, claim;
		long long size;
		bool counted;
		int ret;

		if (!chunk_read(w, off, b, 8))
			return corrupt(w, "%s: compressed chunk %llu of %llu lies past the end of the "
				       "file", what, (unsigned long long)i + 1, (unsigned long long)count);
		packed = num(w, b, 4);
		claim = num(w, b + 4, 4);
		off += 8;
		if (!claim || claim % page)
			return corrupt(w, "%s: compressed chunk %llu says it unpacks to %llu bytes, not "
				       "a whole number of %u-byte pages", what, (unsigned long long)i + 1,
				       (unsigned long long)claim, page);
		if (claim > INT32_MAX)
			return corrupt(w, "%s: compressed chunk %llu says it unpacks to %llu bytes, "
				       "more than libtracecmd 3.1 can unpack a chunk to (2 GiB)", what,
				       (unsigned long long)i + 1, (unsigned long long)claim);
		if (packed > w->file_size - off)
			return corrupt(w, "%s: compressed chunk %llu of %llu runs past the end of the "
				       "file", what, (unsigned long long)i + 1, (unsigned long long)count);
		if ((ret = reserve(w, packed ? packed : 1)))
			return ret;
		if (!chunk_read(w, off, w->buf, packed))
			return -EIO;
		off += packed;
		counted = w->algo != ALGO_ZSTD;
		size = counted ? -3 : zstd_sizes(w->buf, packed);
		if (size == -3 && w->defer && i && !counted && deferrable(w->buf, packed)) {
			/* left to the reading page by page (ss_tc_walk_buffers()) */
			w->lay->deferred = true;
			size = (long long)claim;
		} else if (size == -3) {
			counted = true;
			size = unpacked_size(w, packed, claim);
		}
		if (size == -2)
			return -ENOMEM;
		if (w->lay && claim > w->lay->max_claim)
			w->lay->max_claim = claim;
		if (size < 0)
			return corrupt(w, "%s: compressed chunk %llu of %llu does not unpack", what,
				       (unsigned long long)i + 1, (unsigned long long)count);
		if ((uint64_t)size != claim)
			/* (counted in a window, a chunk is unpacked only a window past its claim) */
			return corrupt(w, "%s: compressed chunk %llu says it unpacks to %llu bytes, but "
				       "it unpacks to %s%lld", what, (unsigned long long)i + 1,
				       (unsigned long long)claim, counted && (uint64_t)size > claim ?
				       "at least " : "", size);
	}
	return 0;
}

/* A BUFFER option (the top buffer's with TOP) of PAGE-byte pages listing CPUS CPUs' data, in
 * W's layout: 0 or -ENOMEM.  Its CPUs are filled in as they are read. */
static int note_buffer(struct walk *w, bool top, uint32_t page, uint64_t cpus)
{
	struct ss_tc_layout *lay = w->lay;
	struct ss_tc_buffer *b;

	if (lay->nr_buf == lay->cap) {
		size_t cap = lay->cap ? 2 * lay->cap : 4;

		if (!(b = realloc(lay->buf, cap * sizeof(*b))))
			return -ENOMEM;
		lay->buf = b;
		lay->cap = cap;
	}
	b = &lay->buf[lay->nr_buf];
	*b = (struct ss_tc_buffer){ .top = top, .page = page };
	if (!(b->cpu = calloc(cpus ? cpus : 1, sizeof(*b->cpu))))
		return -ENOMEM;
	lay->nr_buf++;
	return 0;
}

/* A BUFFER option's DATA (LEN bytes), as libtracecmd reads it. */
static int check_buffer(struct walk *w, const unsigned char *data, uint64_t len)
{
	const unsigned char *name, *clock, *end = data + len, *p;
	char what[96], label[48];
	unsigned char head[16];
	uint64_t at, cpus;
	uint32_t page;
	bool compressed;
	int ret;

	if (len < 8 || !(name = memchr(data + 8, 0, len - 8)) ||
	    !(clock = memchr(name + 1, 0, (size_t)(end - name - 1))) || end - clock - 1 < 8)
		return corrupt(w, "a BUFFER option cut short");
	at = num(w, data, 8);
	name = data + 8;
	p = clock + 1;
	page = (uint32_t)num(w, p, 4);
	cpus = num(w, p + 4, 4);
	p += 8;
	if (*name) {
		ss_errf(label, sizeof(label), "%s", (const char *)name);
		for (char *c = label; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				*c = '?';
		ss_errf(what, sizeof(what), "buffer \"%s\"", label);
	} else {
		ss_errf(what, sizeof(what), "the top buffer");
		page = w->fh->page_size;        /* the reader refused another before: not here */
	}
	if (!ss_tc_page_size_ok(page))
		return corrupt(w, "%s: its page size, %u bytes, is no power of two from 1 KiB to 1 "
			       "GiB", what, page);
	/* (room for the CPUs the option can hold: one listing more is refused below) */
	if (w->lay && (ret = note_buffer(w, !*name, page,
					 cpus < (uint64_t)(end - p) / 20 ? cpus : (uint64_t)(end - p) / 20)))
		return ret;
	if (!cpus)
		return 0;
	if (!file_read(w, at, head, sizeof(head)))
		return corrupt(w, "%s: its data section lies past the end of the file", what);
	/* an instance's handle is a copy of the top buffer's, compressed when that is */
	compressed = (num(w, head + 2, 2) & SECTION_COMPRESSED) || w->top_compressed;
	if (w->lay)
		w->lay->buf[w->lay->nr_buf - 1].compressed = compressed;
	if (compressed && w->algo == ALGO_NONE)
		return 0;               /* libtracecmd cannot read it either: its open failed */
	for (uint64_t c = 0; c < cpus; c++) {
		uint64_t off, size;
		char cpu[128];

		if (end - p < 20)
			return corrupt(w, "%s: its BUFFER option lists %llu CPUs and holds %llu",
				       what, (unsigned long long)cpus, (unsigned long long)c);
		ss_errf(cpu, sizeof(cpu), "CPU %u of %s", (unsigned)num(w, p, 4), what);
		off = num(w, p + 4, 8);
		size = num(w, p + 12, 8);
		p += 20;
		if (w->lay) {
			struct ss_tc_buffer *b = &w->lay->buf[w->lay->nr_buf - 1];

			b->cpu[c] = (struct ss_tc_cpu_data){ .cpu = (uint32_t)num(w, p - 20, 4),
							     .off = off, .size = size };
			b->nr_cpus = (uint32_t)c + 1;
		}
		if (!compressed || !size)
			continue;
		if ((ret = seen_before(w, off, page)) < 0)
			return ret;
		if (!ret && (ret = check_chunks(w, off, page, cpu)))
			return ret;
	}
	return 0;
}

/* The options from S on, to their DONE option: *NEXT is the next section's offset (0: none). */
static int walk_options(struct walk *w, struct src *s, uint64_t *next)
{
	unsigned char oh[6], *data = NULL;
	int ret = 0;

	for (;;) {
		uint64_t id, len;
		uint64_t left = s->mem ? s->len - s->off : w->file_size - s->off;

		if (!take(w, s, oh, sizeof(oh)))
			return corrupt(w, "its options end without a DONE option");
		id = num(w, oh, 2);
		len = num(w, oh + 2, 4);
		if (len > left - sizeof(oh))
			return corrupt(w, "option %llu (%llu bytes) runs past the end of its section",
				       (unsigned long long)id, (unsigned long long)len);
		if (w->lay && !w->finding_top &&
		    (id == OPTION_DATE || id == OPTION_OFFSET || id == OPTION_TIME_SHIFT ||
		     id == OPTION_GUEST || id == OPTION_TSC2NSEC))
			w->lay->moves_time = true;
		if (id != OPTION_DONE && id != OPTION_BUFFER &&
		    !(id == OPTION_BUFFER_TEXT && w->finding_top)) {
			s->off += len;
			continue;
		}
		if (!(data = malloc(len ? len : 1)))
			return -ENOMEM;
		if (!take(w, s, data, len)) {
			free(data);
			return -EIO;
		}
		if (id == OPTION_DONE) {
			*next = len >= 8 ? num(w, data, 8) : 0;
			free(data);
			return 0;
		}
		if (w->finding_top) {
			/* the top buffer: a BUFFER (or latency BUFFER_TEXT) option named "" */
			if (len > 8 && !data[8]) {
				w->have_top = true;
				w->top_at = num(w, data, 8);
			}
			ret = 0;
		} else {
			ret = check_buffer(w, data, len);
		}
		free(data);
		if (ret)
			return ret;
	}
}

/* An options section at OFF: its options walked, *NEXT the next section's offset. */
static int walk_section(struct walk *w, uint64_t off, uint64_t *next)
{
	unsigned char h[16], *mem = NULL;
	struct src s = { .off = off + sizeof(h) };
	int ret;

	if (!file_read(w, off, h, sizeof(h)) || num(w, h, 2) != OPTION_DONE)
		return corrupt(w, "no options section at offset %llu", (unsigned long long)off);
	if (num(w, h + 2, 2) & SECTION_COMPRESSED) {
		unsigned char zh[8];
		uint64_t packed, size, cap;
		size_t got;

		if (!file_read(w, s.off, zh, sizeof(zh)) || w->algo == ALGO_NONE)
			return corrupt(w, "a compressed options section cut short");
		packed = num(w, zh, 4);
		size = num(w, zh + 4, 4);
		cap = size > packed ? size : packed;
		if (cap > MAX_OPTIONS)
			return corrupt(w, "a compressed options section says it unpacks to %llu "
				       "bytes, more than %u MiB", (unsigned long long)cap,
				       MAX_OPTIONS >> 20);
		if ((ret = reserve(w, packed ? packed : 1)))
			return ret;
		if (!file_read(w, s.off + sizeof(zh), w->buf, packed))
			return corrupt(w, "a compressed options section cut short");
		if (!(mem = malloc(cap ? cap : 1)))
			return -ENOMEM;
		if (w->algo == ALGO_ZSTD) {
			if (!w->zd && !(w->zd = ZSTD_createDCtx())) {
				free(mem);
				return -ENOMEM;
			}
			got = ZSTD_decompressDCtx(w->zd, mem, cap, w->buf, packed);
			if (ZSTD_isError(got))
				got = (size_t)-1;
		} else {
			uLongf n = (uLongf)cap;

			got = uncompress(mem, &n, w->buf, (uLong)packed) == Z_OK ? (size_t)n : (size_t)-1;
		}
		if (got == (size_t)-1) {
			free(mem);
			return corrupt(w, "a compressed options section does not unpack");
		}
		s = (struct src){ .mem = mem, .len = got };
	}
	ret = walk_options(w, &s, next);
	free(mem);
	return ret;
}

void ss_tc_layout_free(struct ss_tc_layout *lay)
{
	for (size_t i = 0; i < lay->nr_buf; i++)
		free(lay->buf[i].cpu);
	free(lay->buf);
	*lay = (struct ss_tc_layout){ 0 };
}

int ss_tc_check_buffers(int fd, const struct file_head *fh, char *err, size_t errlen)
{
	return ss_tc_walk_buffers(fd, fh, NULL, false, err, errlen);
}

int ss_tc_walk_buffers(int fd, const struct file_head *fh, struct ss_tc_layout *lay, bool defer,
		       char *err, size_t errlen)
{
	struct walk w = { .fd = fd, .fh = fh, .lay = lay, .defer = defer && lay, .err = err,
			  .errlen = errlen };
	uint64_t off = fh->options_at;
	struct stat st;
	bool deferred;
	int ret = 0, again;

	if (lay)
		*lay = (struct ss_tc_layout){ 0 };
	if (fh->version < 7)
		return 0;
	if (!off)
		return corrupt(&w, "no options section's offset in its first 4 KiB");
	if (fstat(fd, &st))
		return -errno;
	w.file_size = (uint64_t)st.st_size;
	w.algo = !fh->compressed ? ALGO_NONE : !strcmp(fh->compression, "zstd") ? ALGO_ZSTD :
		 !strcmp(fh->compression, "zlib") ? ALGO_ZLIB : ALGO_NONE;
	if (lay)
		lay->algo = w.algo;
	if (fh->compressed && w.algo == ALGO_NONE)
		return 0;               /* a compression libtracecmd 3.1 has none of */
	errno = 0;
	/* twice: where the top buffer's data is (the last option naming it wins, as in
	 * libtracecmd), then every buffer's chunks */
	for (int pass = 0; pass < 2 && !ret; pass++) {
		w.finding_top = !pass;
		off = fh->options_at;
		for (int n = 0; off && !ret; n++) {
			if (n == MAX_SECTIONS) {
				ret = corrupt(&w, "more than %d options sections", MAX_SECTIONS);
				break;
			}
			ret = walk_section(&w, off, &off);
		}
		if (!pass && !ret && w.have_top) {
			unsigned char head[16];

			w.top_compressed = file_read(&w, w.top_at, head, sizeof(head)) &&
					   (num(&w, head + 2, 2) & SECTION_COMPRESSED);
		}
	}
	deferred = lay && lay->deferred;
	if (lay) {
		lay->walked = !ret;
		if (ret)
			ss_tc_layout_free(lay);
	}
	if (ret == -ENOMEM)
		ss_errf(err, errlen, "out of memory checking the trace-cmd file's compressed data");
	else if (ret == -EIO)
		ss_errf(err, errlen, "cannot read this trace-cmd file: %s",
			errno ? strerror(errno) : "short read");
	free(w.buf);
	ss_tc_ahead_drop(&w.ahead);
	free(w.window);
	free(w.seen);
	ZSTD_freeDCtx(w.zd);
	ZSTD_freeDStream(w.zs);
	/* a file refused past a chunk left unchecked: refused for what the walk over every
	 * chunk finds first (a chunk whose packed size is damaged reads as the next one's) */
	if (ret == -EINVAL && deferred && (again = ss_tc_check_buffers(fd, fh, err, errlen)))
		ret = again;
	return ret;
}
