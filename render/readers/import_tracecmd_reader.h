// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the trace-cmd reader process's two files share: import_tracecmd_reader.c, which opens
 * the files with libtracecmd and serves their rings, and import_tracecmd_budget.c, its watch
 * over the CPU time and memory a file's reading may take.  Private to the two (what the parent
 * sees of them is in import_tracecmd_proto.h).
 */
#ifndef SS_IMPORT_TRACECMD_READER_H
#define SS_IMPORT_TRACECMD_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "import_tracecmd_proto.h"

/* What a .dat's first bytes say (magic, version, endianness, long size, page size and, from
 * version 7, the compression's name). */
struct file_head {
	unsigned long version;
	int endian;                     /* 0: little, 1: big (trace-cmd writes no other) */
	uint32_t page_size;
	bool compressed;                /* its CPU data (version 7 with a compression) */
	char compression[16];           /* version 7: the compression's name ("" if cut) */
	uint64_t options_at;            /* version 7: its first options section (0: unknown) */
};

/* A version 7 file's compression of its CPU data. */
enum algo { ALGO_NONE, ALGO_ZSTD, ALGO_ZLIB };

/* One CPU's data in a buffer: its number, its chunk table (compressed) or its pages, and their
 * bytes. */
struct ss_tc_cpu_data {
	uint32_t cpu;
	uint64_t off, size;
};

/* A BUFFER option of a version 7 file, in the order of the file's options. */
struct ss_tc_buffer {
	bool top;                       /* the top buffer's (named ""), else an instance's */
	bool compressed;                /* its CPU data is in compressed chunks */
	uint32_t page;                  /* its page size */
	uint32_t nr_cpus;               /* CPUs listed (and held) */
	struct ss_tc_cpu_data *cpu;     /* [nr_cpus], as listed */
};

/* Where a version 7 file's ring buffers lie, as ss_tc_walk_buffers() found them. */
struct ss_tc_layout {
	bool walked;                    /* the walk got through every section: the rest is set */
	bool moves_time;                /* an option libtracecmd moves timestamps by (DATE,
					 * OFFSET, TIME_SHIFT, GUEST, TSC2NSEC) */
	enum algo algo;
	bool deferred;                  /* chunks left unchecked to the reading page by page */
	uint64_t max_claim;             /* the most bytes a compressed chunk unpacks to */
	struct ss_tc_buffer *buf;
	size_t nr_buf, cap;
};

/* One CPU's ring of a version 7 file read page by page (import_tracecmd_pages.c). */
struct tep_handle;
struct ss_tc_pages;
/* A record as libtracecmd would hand it out: its event's bytes, its time, its offset in the
 * CPU's unpacked data, and the events the ring buffer lost before it (-1: some). */
struct ss_tc_rec {
	const void *data;
	int size;
	unsigned long long ts;
	uint64_t offset;
	int missed;
};
/* A file's bytes read ahead, for reading a CPU's compressed chunks, which lie one after
 * another (import_tracecmd_chunks.c): reading each chunk's header and bytes on their own
 * cost two system calls a chunk, and trace-cmd's chunks are a few KiB packed. */
#define SS_TC_AHEAD_BYTES (64u << 10)
struct ss_tc_ahead {
	unsigned char *buf;             /* SS_TC_AHEAD_BYTES, had when first needed */
	uint64_t off;                   /* the file's offset of buf[0] */
	size_t len;                     /* bytes held */
};
/* The N bytes at offset OFF of the file FD of FILE_SIZE bytes, from A (read ahead from OFF
 * when it does not hold them): NULL when A cannot serve them (more than SS_TC_AHEAD_BYTES, no
 * memory, or the read-ahead's read failed: a file cut short since it was opened), which the
 * caller then reads on its own. */
const unsigned char *ss_tc_ahead_get(struct ss_tc_ahead *a, int fd, uint64_t file_size,
				     uint64_t off, size_t n);
/* A's memory goes (A reads again from the file when next asked). */
void ss_tc_ahead_drop(struct ss_tc_ahead *a);

/* One page of a ring buffer walked record by record as libtraceevent 1.7's kbuffer walks it
 * (import_tracecmd_rbpage.c).  The current record is DATA + INDEX, NEXT - INDEX bytes (less
 * than nothing on a damaged page, as kbuffer's), its header CURR bytes into the records, its
 * time TS, and the events lost before it LOST if CURR is 0 (-1: some); there is none once
 * CURR reaches SIZE. */
struct ss_rb_page {
	const unsigned char *data;      /* the page's records (past its header) */
	unsigned long long ts;
	long long lost;
	uint32_t size;                  /* bytes of records, the commit word's */
	uint32_t curr, index, next;
	uint8_t start;                  /* bytes of the page's header: 12 or 16 */
	bool be;                        /* big-endian */
};
/* Page PG (its header's commit word LSIZE bytes, 4 or 8; read up to 8 bytes past its
 * records), its first record current: 0, or -EINVAL where an event header would not take the
 * walk further into the page (a damaged length that would loop kbuffer for ever). */
int ss_rb_page_load(struct ss_rb_page *w, const unsigned char *pg, bool big_endian,
		    unsigned lsize);
/* The next record current (or none). */
void ss_rb_page_next(struct ss_rb_page *w);
/* What the rings of a file share (a chunk's packed bytes, the unpacker), a chunk unpacking to
 * more than LIMIT bytes (0: any) read as -ENOMEM: NULL on ENOMEM. */
struct ss_tc_scratch;
struct ss_tc_scratch *ss_tc_scratch_new(uint64_t limit);
void ss_tc_scratch_free(struct ss_tc_scratch *sc);
/* CPU CPU of buffer B of a file read through FD (a CPU B lists no data for, or no bytes of
 * it: an empty ring), its data compressed with ALGO when B says so, its page headers' format
 * in TEP, sharing SC with the file's other rings (one read at a time), its chunks past the
 * first UNCHECKED when the walk over them deferred (struct ss_tc_layout): NULL if it cannot be
 * read so (B lists the CPU twice, a page size or a header's word that no kernel writes, an
 * old format's pages, ENOMEM). */
struct ss_tc_pages *ss_tc_pages_new(int fd, enum algo algo, const struct ss_tc_buffer *b,
				    uint32_t cpu, struct tep_handle *tep, struct ss_tc_scratch *sc,
				    bool unchecked);
/* Its next record into *R: 1; 0 after the last; -EINVAL where its data is damaged (a chunk
 * that does not unpack to its claim, a page or a record past its bounds), -ELOOP where a
 * record lies no further into it than the one before (a damaged page's), -ENOMEM; -EBADMSG
 * where an unchecked chunk failed so (-EINVAL or -ENOMEM: ss_tc_pages_failure()), which only
 * the walk over the whole file can judge (ss_tc_check_buffers()). */
int ss_tc_pages_next(struct ss_tc_pages *p, struct ss_tc_rec *r);
int ss_tc_pages_failure(const struct ss_tc_pages *p);
/* Read from the first record again. */
void ss_tc_pages_rewind(struct ss_tc_pages *p);
void ss_tc_pages_free(struct ss_tc_pages *p);

/* The names a ring last gave its tasks (import_tracecmd_names.c): NULL on ENOMEM. */
struct ss_tc_names;
struct ss_tc_names *ss_tc_names_new(void);
void ss_tc_names_free(struct ss_tc_names *n);           /* accepts NULL */
void ss_tc_names_clear(struct ss_tc_names *n);          /* the ring read from its start */
/* COMM (SS_COMM_LEN bytes, terminated) is the name the ring last gave PID: true (drop it);
 * else it is from now on, false (a NULL N, or no memory: false). */
bool ss_tc_names_repeat(struct ss_tc_names *n, uint32_t pid, const char comm[SS_COMM_LEN]);

/* FD's first bytes into *FH: false when the file is too short to hold them. */
bool ss_tc_read_file_head(int fd, struct file_head *fh);
/* SIZE is a ring buffer page size the reader accepts (a power of two, 1 KiB to 1 GiB). */
bool ss_tc_page_size_ok(uint32_t size);
/* A version 7 file's ring buffers looked at before libtracecmd reads them
 * (import_tracecmd_chunks.c): each instance's page size, and each compressed chunk of its
 * CPUs' data unpacking to exactly what it claims, a whole number of pages.  0, or -EINVAL
 * with the corruption named in ERR (-ENOMEM, -EIO with their message). */
int ss_tc_check_buffers(int fd, const struct file_head *fh, char *err, size_t errlen);
/* The same, and where the buffers' data lies into *LAY (with LAY; lay->walked set when the
 * walk got through, the layout freed otherwise); with DEFER (and LAY), a chunk past its CPU's
 * first whose size only unpacking it tells is left to the reading page by page
 * (lay->deferred). */
int ss_tc_walk_buffers(int fd, const struct file_head *fh, struct ss_tc_layout *lay, bool defer,
		       char *err, size_t errlen);
void ss_tc_layout_free(struct ss_tc_layout *lay);

/* The reader's watch over a file's budgets (struct ss_tc_budget): the timer for a loop inside
 * libtracecmd, the deadline of the pass on the CPU clock and the memory the reading may add,
 * looked at after each request and every SS_TC_CHECK_RECORDS records (ss_tc_watch_check). */
struct watch {
	timer_t timer;
	bool timed;                     /* the timer could be had */
	double budget;                  /* s of CPU time a pass may take */
	double until;                   /* the CPU clock's reading at which the pass has spent it */
	long long mem;                  /* bytes the file's reading may add to the reader */
	long long mem_base;             /* the reader's own memory when the file came */
	long long data_max;             /* bytes its data segment may grow by (the hard stop) */
	long long data_base;            /* its data segment when the file came (-1: unknown) */
};

/* A file comes with budget B (0: the defaults): W's budgets and memory base for it, the data
 * segment's hard stop behind them (RLIMIT_DATA, but under a sanitizer), and its first pass
 * begins (ss_tc_watch_start). */
void ss_tc_watch_file(struct watch *w, const struct ss_tc_budget *b);
/* A pass (the open, or the rings read from their start) begins: W's budget from now on. */
void ss_tc_watch_start(struct watch *w);
/* 0 while the pass is within W's budgets; -ETIMEDOUT once it has spent its CPU time, -ENOMEM
 * once the file's reading has grown the reader by more than its memory, or its data segment
 * past the hard stop. */
int ss_tc_watch_check(const struct watch *w);
/* The reader process's resident memory in bytes (-1: unknown). */
long long ss_tc_resident(void);

/* Set when a sanitizer runtime is linked in (tests, fuzzing); NULL in a normal build. */
__attribute__((weak)) void __sanitizer_set_death_callback(void (*callback)(void));

#endif
