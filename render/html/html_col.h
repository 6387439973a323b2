// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The data of one column (one trace) of the HTML viewer, gathered in one streaming pass:
 *  - the statistics (stats.h) with fine time bins, so the page's series and summary table are
 *    the figures of the static plot and of `seekscope report`;
 *  - the io panel's per-cell picture at SS_HTML_LEVELS resolutions (a pyramid: level L has
 *    (SS_HTML_BASE_W << L) x (SS_HTML_BASE_H << L) cells over the shown time and offset range),
 *    each cell holding the set of request classes in it and how many requests touched it —
 *    the same ISSUE events and classes as the static io panel (panel_io.c);
 *  - every data request (issue time, sectors, rwbs, class, latency, zone) in time-ordered
 *    chunks of SS_HTML_CHUNK requests, each encoded column-wise and deflated as soon as its
 *    requests have completed, so memory holds the compressed output and three open chunks,
 *    never the whole trace;
 *  - flush and FUA issue times.
 * The layout of every section is in docs/html-viewer.md.  Nothing here prints.
 */
#ifndef SS_HTML_COL_H
#define SS_HTML_COL_H

#include <stdbool.h>
#include <stdint.h>

#include "hbuf.h"
#include "stats.h"
#include "tasks.h"
#include "trace_read.h"

#define SS_HTML_LEVELS 3
#define SS_HTML_MAX_SLOTS 8         /* io panels (devices) per trace: graph.h's row limit */
/* The cells' colours are bits of a byte: the classes, or groups + "other" + "unknown". */
#define SS_HTML_MAX_GROUP_SLOTS 8
#define SS_HTML_MAX_GROUPS (SS_HTML_MAX_GROUP_SLOTS - 2)
/* The coarsest level's cells (each level doubles both).  The fuzz build makes them and the
 * fine bins (html.c) smaller (Makefile: FUZZ_DEFS): the same code, an input in milliseconds
 * instead of megabytes of grid deflated per input; the page tells the viewer the sizes.  It
 * also makes the chunks and the limits on processes and marks below small, so that a fuzz
 * input of a few KiB fills several chunks and reaches the limits (and no 9 MB buffer for
 * three open chunks is allocated per input). */
#ifndef SS_HTML_BASE_W
#define SS_HTML_BASE_W 512
#endif
#ifndef SS_HTML_BASE_H
#define SS_HTML_BASE_H 256
#endif
#ifndef SS_HTML_CHUNK
#define SS_HTML_CHUNK  65536u
#endif
/* Flush/FUA marks kept per trace; beyond, they are counted as dropped. */
#ifndef SS_HTML_MAX_MARKS
#define SS_HTML_MAX_MARKS (1u << 20)
#endif
/* Processes named per trace (the request detail's process column); past it, one entry
 * stands for the rest.  A power of two (html_col.c: the hash table). */
#ifndef SS_HTML_MAX_PROCS
#define SS_HTML_MAX_PROCS 65536u
#endif
/* Doubles per fine time bin in the bins section (html.c: bin_field_names; the last four are
 * the modelled disk time's parts, zero without --disk). */
#define SS_HTML_BIN_FIELDS 18

struct ss_html_col_opts {
	uint64_t t0;                /* trace clock at x = 0 */
	uint64_t x_lo, x_hi;        /* shown time range, ns after t0 */
	uint64_t y_lo, y_hi;        /* shown sectors [y_lo, y_hi) when nr_slots is 0 */
	/* The io panels, one per device slot (graph.h: ss_graph_devplan): slot k shows device
	 * slot_dev[k] over sectors [slot_lo[k], slot_hi[k]).  0: one panel of every device over
	 * [y_lo, y_hi).  The detail holds the requests of the slots' devices; the cells are per
	 * slot. */
	int nr_slots;
	uint32_t slot_dev[SS_HTML_MAX_SLOTS];
	uint64_t slot_lo[SS_HTML_MAX_SLOTS], slot_hi[SS_HTML_MAX_SLOTS];
	bool one_device;            /* --device: the statistics count slot_dev[0]'s events only */
	uint64_t seek_threshold;
	uint64_t bin_width_ns;      /* the fine bins */
	/* plot --pid/--comm: only these processes' requests are drawn and counted, the others
	 * still move the head (stats.h); NULL or empty: all.  Borrowed. */
	const struct ss_task_spec *only;
	/* plot --color-by process|dir|file: the ranked groups (groups.h) whose slot each request
	 * gets in the detail's group column and the cells' colour bits; NULL: by class.  At most
	 * SS_HTML_MAX_GROUP_SLOTS slots.  Borrowed. */
	const struct ss_groups *groups;
	/* plot --disk: the issues replayed through this disk model (diskreplay.h), its time per
	 * bin in the bins' model fields; NULL: none.  Borrowed. */
	const struct ss_disk_params *disk;
};

/* One deflated piece of the column's data, at [off, off + len) of ss_html_col.data. */
struct ss_html_section {
	size_t off, len;
};

struct ss_html_chunk {
	struct ss_html_section sec;
	uint64_t t_first, t_last;   /* issue times, ns after t0 */
	uint32_t n;                 /* requests */
	bool dropped;               /* left out of the file (the size budget) */
};

/* A process of the detail's process column: whose requests (owner.h: the submitter when the
 * trace has QUEUE or INSERT events, else the issuer), by pid and the name it had then. */
struct ss_html_proc {
	uint32_t pid;
	bool unknown;               /* the trace does not name it */
	char name[SS_TASK_NAME_LEN];
};

struct ss_html_col {
	const struct ss_trace *t;
	struct ss_html_col_opts o;
	struct ss_stats *stats;     /* finished after ss_html_col_run */
	struct ss_hbuf data;        /* every section, deflated, back to back */
	struct ss_html_section bins, marks, cells[SS_HTML_MAX_SLOTS][SS_HTML_LEVELS];
	int nr_slots;               /* cells' slots: o.nr_slots, at least 1 */
	struct ss_html_chunk *chunks;
	size_t nr_chunks;
	uint64_t requests;          /* data requests in the detail */
	uint64_t nr_marks, marks_dropped;
	uint64_t late;              /* requests finalised while still in flight (no latency) */
	struct ss_html_proc *procs; /* the detail's processes, in order of first request */
	size_t nr_procs, cap_procs;
	uint64_t procs_merged;      /* requests of processes past SS_HTML_MAX_PROCS */
	uint64_t submitted;         /* requests whose owner is their submitter, not the issuer */
	long *files;                /* the detail's files: file map entries (filemap.h) */
	size_t nr_files;
	uint8_t rwbs_seen[8192];    /* bitmap of the SS_RW_* flag sets met */
	struct ss_html_priv *priv;
};

/* NULL + errno (ENOMEM, EINVAL, E2BIG from the bins) and one line in ERR (a trace the disk
 * model refuses, e.g. a device of unknown size). */
struct ss_html_col *ss_html_col_new(const struct ss_trace *t, const struct ss_html_col_opts *o,
				    char *err, size_t errlen);
void ss_html_col_free(struct ss_html_col *c);        /* accepts NULL */
/* Stream the trace (rewinds it).  0, or -errno with a message in err. */
int ss_html_col_run(struct ss_html_col *c, struct ss_trace *t, char *err, size_t errlen);
/* The path (below the mapped directory) of file K of the detail's file column into BUF. */
size_t ss_html_col_file_path(const struct ss_html_col *c, size_t k, char *buf, size_t len);
/* The devices the requests were on, in the order of the detail's device column. */
size_t ss_html_col_nr_devs(const struct ss_html_col *c);
uint32_t ss_html_col_dev(const struct ss_html_col *c, size_t i);

#endif
