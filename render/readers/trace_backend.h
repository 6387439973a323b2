// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Internal interface between the trace reader (trace_read.c) and its format backends: the
 * seekscope format itself (trace_native.c), blktrace binary traces (import_blktrace.c) and
 * trace-cmd .dat files (import_tracecmd.c).  trace_read.c detects the format from the content,
 * then calls the backend's open, which fills the metadata of struct ss_trace and keeps its own
 * streaming state; consumers only ever see trace_read.h.  Not for use outside the reader.
 *
 * A new importer is one file that defines its ss_trace_backend (import_merge.h does the merge
 * of per-CPU sources, the metadata pass and batching) plus its line in trace_read.c's table
 * of backends.
 * Messages use ss_errf() (errbuf.h) and keep the errno of the failure.
 */
#ifndef SS_TRACE_BACKEND_H
#define SS_TRACE_BACKEND_H

#include <stdarg.h>
#include "errbuf.h"
#include "trace_read.h"

struct ss_trace_backend {
	const char *name;        /* "seekscope", "blktrace", "trace-cmd": also ss_trace.format */
	/* True if the first LEN bytes of a regular file (LEN may be short) are this format's. */
	bool (*probe)(const unsigned char *head, size_t len);
	/* Also opens a directory, or a name that is no file: a set of files (blktrace). */
	bool opens_sets;
	/* Decoding an event costs about what counting it does (a merge of per-CPU files): the
	 * read-ahead thread has less room for other work (ss_trace_costly_decode). */
	bool costly_decode;
	/*
	 * Open ss_trace_source(t) (a file that passed probe; for blktrace also a directory or a prefix
	 * that names no file), fill the metadata (devices, zones, meta, nr_events, first/last_ts,
	 * truncated + warning) and store the streaming state with ss_trace_set_state().  Returns
	 * 0 or -errno with a one-line reason in err.  On failure close is still called.
	 */
	int (*open)(struct ss_trace *t, char *err, size_t errlen);
	/*
	 * Optional: open without the metadata (ss_trace_open_lazy): only what streaming needs,
	 * the state stored, ss_trace_set_events_hint() called; the metadata is filled as the
	 * events stream and complete, with ss_trace_meta_done() called, before next_batch first
	 * returns 0.  Then next_batch, rewind and close as after open.
	 */
	int (*open_lazy)(struct ss_trace *t, char *err, size_t errlen);
	/* As ss_trace_next_batch(); errors are described with ss_trace_set_error(). */
	int (*next_batch)(struct ss_trace *t, const struct ss_event **ev, size_t *n);
	int (*rewind)(struct ss_trace *t);
	/* Free the state (which may be NULL or half built).  Metadata is freed by the reader. */
	void (*close)(struct ss_trace *t);
};

/* The file to open for t->path: t->path itself, or for standard input or a pipe the regular
 * file that holds its content (a /proc/self/fd path); t->path stays the name the user gave. */
const char *ss_trace_source(const struct ss_trace *t);
void *ss_trace_state(const struct ss_trace *t);
/* The trace-cmd reader ss_trace_open_with() was given, or NULL. */
struct ss_tracecmd_server *ss_trace_tracecmd_server(const struct ss_trace *t);
void ss_trace_set_state(struct ss_trace *t, void *state);
void ss_trace_set_error(struct ss_trace *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * "not a seekscope, blktrace or trace-cmd file" followed by WHY into ERR: the formats named
 * are the backends' names, in the order they are tried.
 */
void ss_trace_unknown_format(char *err, size_t errlen, const char *why);
/* Whether work on T of about EVENTS events pays a thread of its own: the read-ahead's rule
 * (ss_trace_set_readahead, SEEKSCOPE_READAHEAD) for a backend's own threads. */
bool ss_trace_want_thread(const struct ss_trace *t, uint64_t events);

/* A lazily opened trace's estimate of its events, and the end of its pending metadata
 * (trace_backend.h: open_lazy). */
void ss_trace_set_events_hint(struct ss_trace *t, uint64_t events);
void ss_trace_meta_done(struct ss_trace *t);
/* Append to the metadata arrays; 0 or -ENOMEM (nothing appended then). */
int ss_trace_add_device(struct ss_trace *t, const struct ss_rec_device *d);
int ss_trace_add_zone(struct ss_trace *t, const struct ss_rec_zone *z);
int ss_trace_add_phase(struct ss_trace *t, const struct ss_rec_phase *p);
int ss_trace_add_cpu_stats(struct ss_trace *t, const struct ss_rec_cpu_stats *s);
int ss_trace_add_meta(struct ss_trace *t, const char *key, const char *value);
/* Where one CPU lost events (any order; the reader merges them into t->lost after open). */
int ss_trace_add_lost(struct ss_trace *t, const struct ss_rec_lost *l);
/* Task table entries (tasks.h rules; duplicates of what the table says are dropped).
 * 0, -ENOMEM or -E2BIG (too many). */
int ss_trace_add_task(struct ss_trace *t, const struct ss_rec_task *rec);
int ss_trace_add_task_name(struct ss_trace *t, uint64_t ts, uint32_t pid, const char *comm,
			   size_t comm_len);
/* A FILEMAP, FILES or EXTENTS payload (TYPE), in file order: 0, -ENOMEM, -E2BIG, -EINVAL. */
int ss_trace_add_fmap(struct ss_trace *t, uint32_t type, const void *buf, size_t len);
/*
 * For importers, whose open sees every event: widen ss_trace.extents by E, the sectors of
 * issues with data on E->dev (a device not seen before goes last).  0 or -ENOMEM.
 */
int ss_trace_add_extent(struct ss_trace *t, const struct ss_extent *e);
/*
 * For importers: a device record for DEV (kernel encoding) that knows nothing but the number —
 * size 0 (unknown), name "MAJ:MIN", path = the trace's path.  Devices already present are not
 * added twice.  0 or -ENOMEM.
 */
int ss_trace_add_bare_device(struct ss_trace *t, uint32_t dev);

#endif
