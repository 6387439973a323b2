// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One CPU's ring of a version 7 trace-cmd file read page by page, beside libtracecmd
 * (import_tracecmd_reader.c says when): its compressed chunks unpacked one at a time into one
 * buffer, or its pages read a run at a time, and each page's records walked in one pass
 * (import_tracecmd_rbpage.c) to the records libtracecmd hands out, walking them with
 * libtraceevent's kbuffer.
 *
 * Why: libtracecmd 3.1 keeps every chunk it unpacks until the file is closed (a compressed
 * 2M-I/O capture grew the reader by 395 MB, the size of its data unpacked, most of its time
 * spent clearing those fresh pages), and hands out each record through a peek that costs about
 * ten times the kbuffer walk under it.  Here the memory is a chunk and SS_TC_AHEAD_BYTES of the
 * file read ahead a ring, and the time the unpacking and the walk.  The layout (where each CPU's
 * chunks or pages lie) comes from the walk that checks the file's chunks before libtracecmd
 * reads them (import_tracecmd_chunks.c), which has held the zstd frames' headers to their
 * chunks' claims by then; this file still trusts nothing it reads (a chunk must unpack to its
 * claim, a page's data and each record lie within it, each event header takes the walk
 * further, each record lies beyond the one before).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>
#include <traceevent/event-parse.h>

#include "fileio.h"
#include "import_tracecmd_reader.h"

#define PAD 16                  /* bytes after a buffer's last page: the walk reads a word or two
				 * past a page's data (a stored count of lost events) */
#define RUN_BYTES (256u << 10)  /* of an uncompressed ring's pages read at once (a page at least) */
#define COMMIT_MASK ((1u << 27) - 1)    /* a page's data size in its commit word */

struct ss_tc_pages {
	int fd;
	uint64_t file_size;
	enum algo algo;                 /* ALGO_NONE: the pages lie in the file as they are */
	bool big_endian;
	unsigned lsize;                 /* bytes of a page header's commit word */
	uint32_t page;
	uint64_t off, size;             /* the CPU's chunk table or pages, and their bytes */
	/* where the reading stands */
	uint64_t chunks, chunk;         /* compressed: chunks in all, the next one's index */
	uint64_t next;                  /* the next chunk's header (or run of pages) in the file */
	uint64_t base;                  /* DATA[0]'s offset in the CPU's unpacked data */
	unsigned char *data;            /* the unpacked chunk or the run of pages (+ PAD) */
	size_t len, cap, pos;           /* its bytes, its room, the next page's offset in it */
	struct ss_tc_scratch *scratch;  /* a chunk's packed bytes and the unpacker, shared */
	struct ss_tc_ahead ahead;       /* compressed: the file's bytes read ahead */
	bool unchecked;                 /* the chunks past the first: the walk deferred */
	int failure;                    /* why an unchecked chunk failed (-EBADMSG) */
	uint64_t last;                  /* the offset of the last record handed out (+1; 0: none) */
	const unsigned char *cur;       /* the page being walked (NULL: none) */
	struct ss_rb_page walk;         /* ... its records */
};

/* What every ring of a file shares (the reader reads one ring at a time). */
struct ss_tc_scratch {
	unsigned char *packed;
	size_t cap;
	ZSTD_DCtx *zd;
	uint64_t limit;                 /* bytes a chunk may unpack to (0: no limit) */
};

struct ss_tc_scratch *ss_tc_scratch_new(uint64_t limit)
{
	struct ss_tc_scratch *sc = calloc(1, sizeof(*sc));

	if (sc)
		sc->limit = limit;
	return sc;
}

void ss_tc_scratch_free(struct ss_tc_scratch *sc)
{
	if (!sc)
		return;
	ZSTD_freeDCtx(sc->zd);
	free(sc->packed);
	free(sc);
}

static uint64_t num(const struct ss_tc_pages *p, const unsigned char *b, unsigned bytes)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < bytes; i++)
		v |= (uint64_t)b[p->big_endian ? bytes - 1 - i : i] << (8 * i);
	return v;
}

static int grow(unsigned char **buf, size_t *cap, size_t n)
{
	unsigned char *b;

	if (n <= *cap)
		return 0;
	if (!(b = realloc(*buf, n)))
		return -ENOMEM;
	*buf = b;
	*cap = n;
	return 0;
}

struct ss_tc_pages *ss_tc_pages_new(int fd, enum algo algo, const struct ss_tc_buffer *b,
				    uint32_t cpu, struct tep_handle *tep, struct ss_tc_scratch *sc,
				    bool unchecked)
{
	const struct ss_tc_cpu_data *d = NULL;
	struct ss_tc_pages *p;
	struct stat st;
	int hps = tep_get_header_page_size(tep);

	/* libtracecmd finds a CPU's data by its number */
	for (uint32_t i = 0; i < b->nr_cpus; i++) {
		if (b->cpu[i].cpu != cpu)
			continue;
		if (d)
			return NULL;
		d = &b->cpu[i];
	}
	if (d && !d->size)
		d = NULL;       /* no data, as libtracecmd reads it (its chunks unchecked) */
	/* (the page walk, as kbuffer's, knows today's event headers only) */
	if ((d && !ss_tc_page_size_ok(b->page)) || (hps != 4 && hps != 8) || fstat(fd, &st) ||
	    st.st_size < 0 || (d && b->compressed && algo == ALGO_NONE) || tep_is_old_format(tep) ||
	    !sc)
		return NULL;
	if (!(p = calloc(1, sizeof(*p))))
		return NULL;
	*p = (struct ss_tc_pages){
		.fd = fd, .file_size = (uint64_t)st.st_size,
		.algo = b->compressed && d ? algo : ALGO_NONE,
		.big_endian = tep_is_file_bigendian(tep), .lsize = (unsigned)hps,
		.page = d ? b->page : 4096,     /* (no data: no page is read) */
		.off = d ? d->off : 0, .size = d ? d->size : 0, .scratch = sc,
		.unchecked = unchecked,
	};
	ss_tc_pages_rewind(p);
	return p;
}

/* P's buffer goes (read again as the reading needs it). */
static void drop_data(struct ss_tc_pages *p)
{
	free(p->data);
	p->data = NULL;
	ss_tc_ahead_drop(&p->ahead);
	p->cap = p->len = p->pos = 0;
	p->cur = NULL;
}

void ss_tc_pages_rewind(struct ss_tc_pages *p)
{
	drop_data(p);
	p->chunks = (uint64_t)-1;       /* not read yet */
	p->chunk = 0;
	p->next = p->off;
	p->base = 0;
	p->last = 0;
	p->failure = 0;
}

void ss_tc_pages_free(struct ss_tc_pages *p)
{
	if (!p)
		return;
	free(p->data);
	ss_tc_ahead_drop(&p->ahead);
	free(p);
}

static bool file_read(struct ss_tc_pages *p, uint64_t off, void *dst, size_t n)
{
	return off <= p->file_size && n <= p->file_size - off &&
	       ss_pread_full(p->fd, dst, n, (off_t)off) == (ssize_t)n;
}

/* *B: the N bytes at the file's offset OFF, from the ring's read-ahead, or read alone into the
 * scratch where it cannot serve them: 0, -EINVAL (past the file's end, a read error),
 * -ENOMEM. */
static int file_bytes(struct ss_tc_pages *p, uint64_t off, size_t n, const unsigned char **b)
{
	struct ss_tc_scratch *sc = p->scratch;

	if (off > p->file_size || n > p->file_size - off)
		return -EINVAL;
	if ((*b = ss_tc_ahead_get(&p->ahead, p->fd, p->file_size, off, n)))
		return 0;
	if (grow(&sc->packed, &sc->cap, n ? n : 1))
		return -ENOMEM;
	if (!file_read(p, off, sc->packed, n))
		return -EINVAL;
	*b = sc->packed;
	return 0;
}

/* The next chunk unpacked into P->data: 1, 0 after the last, -EINVAL (it does not unpack to
 * its claim, or lies past the file's end), -ENOMEM (also for a chunk past the scratch's
 * limit). */
static int unpack_chunk(struct ss_tc_pages *p)
{
	struct ss_tc_scratch *sc = p->scratch;
	const unsigned char *h, *src;
	uint64_t packed, claim;
	size_t got;
	int ret;

	if (p->chunks == (uint64_t)-1) {
		if ((ret = file_bytes(p, p->next, 4, &h)))
			return ret;
		p->chunks = num(p, h, 4);
		p->next += 4;
	}
	if (p->chunk == p->chunks)
		return 0;
	if ((ret = file_bytes(p, p->next, 8, &h)))
		return ret;
	packed = num(p, h, 4);
	claim = num(p, h + 4, 4);
	if (!claim || claim % p->page || claim > INT32_MAX || packed > p->file_size - p->next - 8)
		return -EINVAL;
	if (sc->limit && claim > sc->limit)
		return -ENOMEM;         /* the memory budget, before the chunk's memory is had */
	if (grow(&p->data, &p->cap, claim + PAD))
		return -ENOMEM;
	if ((ret = file_bytes(p, p->next + 8, packed, &src)))
		return ret;
	if (p->algo == ALGO_ZSTD) {
		if (!sc->zd && !(sc->zd = ZSTD_createDCtx()))
			return -ENOMEM;
		got = ZSTD_decompressDCtx(sc->zd, p->data, claim, src, packed);
		if (ZSTD_isError(got))
			return ZSTD_getErrorCode(got) == ZSTD_error_memory_allocation ? -ENOMEM : -EINVAL;
	} else {
		uLongf n = (uLongf)claim;
		int z = uncompress(p->data, &n, src, (uLong)packed);

		if (z != Z_OK)
			return z == Z_MEM_ERROR ? -ENOMEM : -EINVAL;
		got = (size_t)n;
	}
	if (got != claim)
		return -EINVAL;
	p->next += 8 + packed;
	p->chunk++;
	p->base += p->len;
	p->len = (size_t)claim;
	p->pos = 0;
	memset(p->data + claim, 0, PAD);
	return 1;
}

/* unpack_chunk(), but -EBADMSG for a chunk the walk left unchecked that fails (why in
 * P->failure): only the walk over the whole file can say whether the file is refused
 * (import_tracecmd_chunks.c). */
static int next_chunk(struct ss_tc_pages *p)
{
	int ret = unpack_chunk(p);

	if (ret < 0 && p->unchecked && p->chunk > 0) {
		p->failure = ret;
		return -EBADMSG;
	}
	return ret;
}

int ss_tc_pages_failure(const struct ss_tc_pages *p)
{
	return p->failure;
}

/* The next run of an uncompressed ring's whole pages into P->data: 1, 0 at its end, -EINVAL
 * (its data lies past the file's end, or ends in part of a page), -ENOMEM. */
static int next_run(struct ss_tc_pages *p)
{
	uint64_t done = p->next - p->off, left = p->size - done;
	size_t run = RUN_BYTES / p->page ? RUN_BYTES / p->page : 1;
	size_t n = left / p->page < run ? (size_t)(left / p->page) : run;

	if (!n)
		return left ? -EINVAL : 0;      /* a last partial page (no kernel writes one) */
	n *= p->page;
	/* (the bytes are in the file before their memory is had, within the budget) */
	if (p->next > p->file_size || n > p->file_size - p->next)
		return -EINVAL;
	if (p->scratch->limit && n > p->scratch->limit)
		return -ENOMEM;
	if (grow(&p->data, &p->cap, n + PAD))
		return -ENOMEM;
	if (!file_read(p, p->next, p->data, n))
		return -EINVAL;
	p->next += n;
	p->base = done;
	p->len = n;
	p->pos = 0;
	memset(p->data + n, 0, PAD);
	return 1;
}

/* The next page with records loaded into P->walk: 1, 0 at the ring's end, -errno. */
static int next_page(struct ss_tc_pages *p)
{
	unsigned hdr = 8 + p->lsize;

	for (;;) {
		const unsigned char *pg;
		uint64_t commit;
		int ret;

		if (p->pos + p->page > p->len) {
			ret = p->algo == ALGO_NONE ? next_run(p) : next_chunk(p);
			if (ret <= 0)
				return ret;
			continue;
		}
		pg = p->data + p->pos;
		p->pos += p->page;
		commit = num(p, pg + 8, p->lsize) & COMMIT_MASK;
		if (commit > p->page - hdr)
			return -EINVAL;         /* data past its page */
		if (!commit)
			continue;
		if (ss_rb_page_load(&p->walk, pg, p->big_endian, p->lsize) < 0)
			return -EINVAL;
		p->cur = pg;
		return 1;
	}
}

/* The ring ends (RET: 0, or why): its buffer goes (a rewind reads it again). */
static int end_ring(struct ss_tc_pages *p, int ret)
{
	drop_data(p);
	return ret;
}

int ss_tc_pages_next(struct ss_tc_pages *p, struct ss_tc_rec *r)
{
	struct ss_rb_page *w = &p->walk;

	for (;;) {
		const unsigned char *data;
		size_t end;
		int ret;

		if (!p->cur && (ret = next_page(p)) <= 0)
			return end_ring(p, ret);
		if (w->curr >= w->size) {
			p->cur = NULL;
			continue;
		}
		data = w->data + w->index;
		end = (size_t)w->start + w->size;       /* the page's data's end */
		*r = (struct ss_tc_rec){
			.data = data,
			.size = (int)(w->next - w->index),
			.ts = w->ts,
			.offset = p->base + (uint64_t)(p->cur - p->data) + w->start + w->curr,
			.missed = w->curr ? 0 : (int)w->lost,
		};
		/* a record whose length runs past its page's data: damaged (one of less than
		 * nothing, a damaged page's too, is handed on as libtracecmd hands it on) */
		if ((uintptr_t)data < (uintptr_t)p->cur ||
		    (uintptr_t)data > (uintptr_t)p->cur + end ||
		    (r->size > 0 && (size_t)r->size >
		     end - (size_t)((uintptr_t)data - (uintptr_t)p->cur)))
			return end_ring(p, -EINVAL);
		/* each record's header lies further into the page than the one before
		 * (ss_rb_page_load()'s check): a record handed out again would be a fault of the
		 * walk's, and the ring ends there, as libtracecmd's "go back" */
		if (p->last && r->offset < p->last)
			return end_ring(p, -ELOOP);
		p->last = r->offset + 1;
		ss_rb_page_next(w);
		return 1;
	}
}
