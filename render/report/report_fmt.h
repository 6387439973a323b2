// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Printers for `seekscope report`: the text summary (report_text.c) and the JSON object
 * (report_json.c) of one trace whose statistics pass has finished.  They only format; the
 * numbers come from render/stats.h.  Both return 0, or -EIO if the stream failed (-EINVAL: a JSON nesting bug).
 */
#ifndef SS_REPORT_FMT_H
#define SS_REPORT_FMT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "json.h"
#include "seekcause.h"
#include "stats.h"
#include "taskfilter.h"
#include "trace_read.h"

struct report_opts {
	bool json;
	bool all_zones;            /* list idle zones too */
	uint64_t seek_threshold;
	const char *device;        /* --device: only this device (ss_trace_find_device) */
	struct ss_task_spec only;  /* --pid, --comm: these processes' requests only */
	unsigned top_procs;        /* processes listed in the text table (JSON lists all) */
	bool has_disk;             /* --disk: replay the requests through this disk model */
	struct ss_disk_params disk;
};

/* Beyond this many processes, the text report lists the first (most I/Os) only. */
#define REPORT_PROCS_DEFAULT 12

/* Beyond this many directories, the text report lists the first (most I/Os) only. */
#define REPORT_DIRS_DEFAULT 12

/* Beyond this many zones, the text report lists only zones with I/O. */
#define REPORT_ZONES_ALL_MAX 24

int report_print_text(FILE *f, const struct ss_trace *t, const struct ss_stats *st,
		      const struct report_opts *ro);
int report_print_json(FILE *f, const struct ss_trace *t, const struct ss_stats *st,
		      const struct report_opts *ro);

/* Is D one of the devices the report covers (all, or the --device one)? */
bool report_shows_device(const struct ss_trace *t, const struct ss_rec_device *d,
			 const struct report_opts *ro);
/* The per-process table (report_procs.c): text, and the JSON keys "filter", "processes". */
void report_procs_text(FILE *f, const struct ss_trace *t, const struct ss_stats *st,
		       const struct report_opts *ro);
void report_procs_json(struct ss_json *j, const struct ss_stats *st, const struct report_opts *ro);
/* The per-directory table and the file map's coverage (report_dirs.c): text, and the JSON
 * keys "file_map", "dirs". */
void report_dirs_text(FILE *f, const struct ss_stats *st);
void report_dirs_json(struct ss_json *j, const struct ss_stats *st);
/*
 * The seek causes (report_causes.c): the text sections, the JSON keys "seek_causes",
 * "seek_zone_pairs", "seek_zone_pairs_other", and one matrix's "seek_causes" (a device's;
 * null for NULL).
 */
#define REPORT_ZONE_PAIRS_TEXT 10
#define REPORT_ZONE_PAIRS_JSON 64
void report_causes_text(FILE *f, const struct ss_trace *t, const struct ss_stats *st,
			const struct report_opts *ro);
void report_causes_json(struct ss_json *j, const struct ss_trace *t, const struct ss_stats *st);
void report_causes_json_matrix(struct ss_json *j, const struct ss_cause_matrix *m);
/* S[0..N) (up to a NUL) for a terminal: control characters and bad UTF-8 escaped, long
 * strings cut with "..." (report_text.c). */
const char *report_text_clean(const char *s, size_t n, char *out, size_t outlen);

/*
 * The disk model (report --disk): the text section after the summary (nothing without a
 * model), the trace's "model" object (null without), and a period's "model_s" and "model"
 * split (null without).  report_model.c.  With --pid/--comm, the model serves every request
 * and the figures of the selected processes' requests are given besides.
 */
void report_model_text(FILE *f, const struct ss_stats *st);
void report_model_json(struct ss_json *j, const struct ss_stats *st);
void report_model_json_cost(struct ss_json *j, const struct ss_stats *st,
			    const struct ss_disk_cost *c);

/* Seconds of ts relative to the trace period's start (negative before it). */
double report_rel_s(const struct ss_stats *st, uint64_t ts);

#endif
