// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The trace-cmd importer's two halves (import_tracecmd.c, the backend in the parent;
 * import_tracecmd_reader.c, the reader process that runs libtracecmd, with its budgets in
 * import_tracecmd_budget.c) and what they say to each other over their socket (its messages
 * in import_tracecmd_proto.c) and shared memory.  Private to the two.
 */
#ifndef SS_IMPORT_TRACECMD_PROTO_H
#define SS_IMPORT_TRACECMD_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "decode.h"
#include "seekscope/format.h"

#define TRACECMD_MAGIC "\027\010\104tracing"
/* items in the shared memory: at most SLOTS_MAX in all, SLOT_MIN..SLOT_MAX a slot */
#define SLOTS_MAX (256u * 1024)
#define SLOT_MIN  256u
#define SLOT_MAX  8192u
/* the request that ends a file; its reply's ended says whether the reader retires */
#define END_RING UINT32_MAX
/* a kept reader process retires when its resident memory has grown by this much */
#define SERVER_GROWTH (128u << 20)

/* What the reader process hands over for one record: a block event with the task name it
 * carries ("" if none), or a span of events the ring buffer lost before the record. */
struct item {
	union {
		struct ss_event ev;
		struct ss_rec_lost lost;
	};
	char comm[SS_COMM_LEN];
	uint32_t is_lost;
	uint32_t reserved;
};

/* The reader process's first message, then nr_rings uint32_t: each ring's CPU. */
struct hello {
	int32_t ret;                    /* 0 or -errno (the reason in err) */
	uint32_t nr_rings;
	uint32_t slot;                  /* items a slot holds */
	char err[256];
	char buffers[512];              /* "top,NAME,...": trace-cmd.buffers */
	uint32_t paged;                 /* the rings are read page by page, not by libtracecmd */
};

/* A request: ring's next items (from its first record with first); the answer: struct reply.
 * Ring END_RING: done with the file (the reply's ended: the reader retires, ends). */
struct request {
	uint32_t ring;
	uint32_t first;
};

struct reply {
	int32_t n;                      /* items in the slot; -ETIMEDOUT, -ENOMEM: a budget spent;
					 * -EBADMSG: corrupt, a char[256] saying why follows */
	uint32_t ended;                 /* the ring has no more records */
	uint32_t which;                 /* the ring's slot they are in: 0 or 1 */
	uint32_t damaged;               /* why it ended early: DAMAGED_* */
};

/* A ring that ends early (struct reply's damaged): read up to there, with a warning. */
enum {
	DAMAGED_NONE,
	DAMAGED_BACK,                   /* its records went back in the file */
	DAMAGED_UNREADABLE,             /* it could not be read on (a page's offset out of its
					 * CPU's data, a compressed chunk that does not unpack, a
					 * page or record past its bounds) */
	DAMAGED_FIELDS,                 /* a record shorter than its format's fields */
};
/* The warning for a ring that ended early so (DAMAGED, of CPU CPU) into BUF. */
void ss_tc_damaged_msg(char *buf, size_t size, uint32_t damaged, uint32_t cpu);

/* All of LEN bytes through socket FD (SEND_IT: out, else in): 0, or -1 at its end or an error. */
int ss_tc_xfer(int fd, void *buf, size_t len, bool send_it);
/* What a file's reading may take of the reader (ss_tc_cpu_budget, ss_tc_mem_budget): worked
 * out by the parent, which also names them when the reader refuses the file; and the heap a
 * reader of its own puts on huge pages before it opens the file (ss_tc_heap_budget). */
struct ss_tc_budget {
	double cpu;                     /* s of CPU time a pass over the file may take */
	long long mem;                  /* bytes its reading may add to the reader */
	long long heap;                 /* bytes of heap put on huge pages first (0: none) */
};
/* What starts a file: its budget with two descriptors, the trace's and the memfd's.  0 or -1. */
int ss_tc_send_fds(int sock, const int fds[2], const struct ss_tc_budget *b);
/* LEN bytes of DATA and NFDS (at most SS_TC_MAX_FDS) descriptors in one message: 0 or -1.
 * The other side: the number of descriptors that came with LEN bytes (at most NFDS kept,
 * close-on-exec); -1 at the socket's end or an error, -2 for a message refused (not LEN
 * bytes, or its descriptors did not all fit): none kept then. */
#define SS_TC_MAX_FDS 2
int ss_tc_send_msg(int sock, const void *data, size_t len, const int *fds, size_t nfds);
int ss_tc_recv_msg(int sock, void *data, size_t len, int *fds, size_t nfds);
/*
 * The CPU time a reader may spend on a pass over the file FD (its open and first read, or a
 * later read of its rings from their start), in seconds: SS_TC_CPU_BASE_S and one more per
 * SS_TC_CPU_BYTES of the file's data on disk (a hole adds nothing), SS_TC_CPU_UNZIP times as
 * many for compressed CPU data (a 2M-I/O .dat takes about 4 s), at most SS_TC_CPU_MAX_S; or
 * SEEKSCOPE_TRACECMD_CPU (seconds, seekscope(1)).  A pass that spends it is libtracecmd in an
 * endless loop on a damaged file: refused with ss_tc_budget_msg(), as the reply -ETIMEDOUT
 * after a request, or by the reader's exit with status SS_TC_EXIT_CPU inside one.
 */
#define SS_TC_CPU_BASE_S 10.0
#define SS_TC_CPU_BYTES (2.0 * 1024 * 1024)
#define SS_TC_CPU_UNZIP 8
#define SS_TC_CPU_MAX_S 3600.0
#define SS_TC_EXIT_CPU 3
double ss_tc_cpu_budget(int fd);
void ss_tc_budget_msg(char *err, size_t errlen, double budget);
/*
 * The memory the reading of the file FD may add to its reader, in bytes: SS_TC_MEM_BASE and
 * SS_TC_MEM_RATIO times its data on disk (libtracecmd 3.1 keeps every chunk of compressed data
 * it unpacks until the file is closed: a compressed 2M-I/O capture of 36 MB takes 390 MB), at
 * most half the machine's memory (but SS_TC_MEM_BASE); or SEEKSCOPE_TRACECMD_MEM (MiB,
 * seekscope(1)).  Looked at after each request and every SS_TC_CHECK_RECORDS records: a file
 * that unpacks to more (a bomb) is refused with ss_tc_mem_msg(), as the reply -ENOMEM; so is
 * one whose ring ended because an allocation of libtracecmd's failed (a chunk that claims more
 * than the data segment's limit, import_tracecmd_budget.c: it would read short).
 */
#define SS_TC_MEM_BASE (512ll << 20)
#define SS_TC_MEM_RATIO 32
#define SS_TC_CHECK_RECORDS 4096
long long ss_tc_mem_budget(int fd);
/*
 * The heap a reader of its own (a command's, not a kept one) puts on huge pages before it opens
 * the file FD (ss_huge_heap_reserve()), in bytes: what libtracecmd 3.1 is expected to allocate
 * for it — the sections it unpacks (the kernel's symbols: about 5 MiB) and, for compressed CPU
 * data, every chunk (SS_TC_HEAP_RATIO times the data on disk: 10.4 for a 2M-I/O capture) — at
 * most MEM, the file's memory budget.  (A version 7 file's rings read page by page leave most
 * of it untouched: it takes no memory until written.)  Each 4 KiB page of it would otherwise cost a fault of
 * 10 µs and more on a virtual machine: half of a small file's reading, a third of a big one's.
 */
#define SS_TC_HEAP_BASE (16ll << 20)
#define SS_TC_HEAP_RATIO 12
long long ss_tc_heap_budget(int fd, long long mem);
void ss_tc_mem_msg(char *err, size_t errlen, long long mem);
/* The watchdog: a timer on the process's CPU clock whose SIGXCPU _exits the process with
 * SS_TC_EXIT_CPU (its handler installed here): 0, or -1 when the timer cannot be had.  Armed
 * for SECONDS of CPU time from now on; 0 disarms it. */
int ss_tc_cpu_watch_new(timer_t *timer);
void ss_tc_cpu_watch_arm(timer_t timer, double seconds);
/* End child process PID (a reader or the spawner's reader: nothing in it is worth a clean
 * end): SIGKILL, then reaped. */
void ss_tc_end_child(pid_t pid);

/*
 * A kept reader's spawner (struct ss_tracecmd_server): a small process forked once, which
 * forks the readers, so that replacing one (libtracecmd crashes on many damaged files) does
 * not fork the caller, whose every page written afterwards would be copied (a fuzzer's,
 * sanitized: most of its time went there).  Requests and answers on its SOCK_SEQPACKET
 * socket: SS_TC_SPAWN, answered with the reader's pid (or err, an errno) and its socket's
 * end as a descriptor, the reader before it ended; SS_TC_END a reader by pid (no answer).
 */
enum { SS_TC_SPAWN = 1, SS_TC_END = 2 };
struct ss_tc_spawn {
	int32_t op;
	int32_t pid;
	int32_t err;
};
__attribute__((noreturn)) void ss_tc_spawner_main(int ctl);
/* The reader process, forked with its end SOCK of the socket: serves files until the socket
 * ends or it retires, then _exits. */
__attribute__((noreturn)) void ss_tc_reader_main(int sock);

#endif
