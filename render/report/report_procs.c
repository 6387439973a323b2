// SPDX-License-Identifier: GPL-2.0-or-later
/* The per-process table of `seekscope report`, as text and JSON (procstats.h has the rules). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "procstats.h"
#include "report_fmt.h"
#include "tasks.h"

/* How the rows were attributed: by submitter where the trace can say, else by issuer. */
static bool any_submitted(const struct ss_procs *p)
{
	for (size_t i = 0; i < ss_procs_count(p); i++)
		if (ss_procs_row(p, i)->submitted)
			return true;
	return false;
}

void report_procs_text(FILE *f, const struct ss_trace *t, const struct ss_stats *st,
		       const struct report_opts *ro)
{
	const struct ss_procs *p = ss_stats_procs(st);
	size_t n = p ? ss_procs_count(p) : 0, shown = ro->top_procs ? ro->top_procs : n;
	uint64_t rest_ios = 0, rest_seeks = 0;
	char filter[256];

	if (!p)
		return;
	if (ss_task_spec_active(&ro->only)) {
		ss_task_spec_describe(&ro->only, filter, sizeof(filter));
		fprintf(f, "\n  only the requests of: %s\n", filter);
	}
	fprintf(f, "\n  processes (by %s%s)\n  %-34s %8s %8s %11s %8s\n",
		any_submitted(p) ? "submitter: the task of the request's queue/insert event, "
				   "else its issuer" : "issuer: the context of the issue event",
		ss_tasks_count(t->tasks) ? "" : "; this trace names no process",
		"name", "pid", "I/Os", "bytes", "seeks");
	for (size_t i = 0; i < n; i++) {
		const struct ss_proc_row *r = ss_procs_row(p, i);
		char name[SS_TASK_NAME_LEN], clean[SS_TASK_NAME_LEN * 4 + 8], pid[16] = "-";

		if (i >= shown) {
			rest_ios += r->ios;
			rest_seeks += r->seeks;
			continue;
		}
		ss_procs_row_name(p, r, name, sizeof(name));
		if (r->pid != SS_PROC_NO_ISSUE)
			snprintf(pid, sizeof(pid), "%u", r->pid);
		fprintf(f, "  %-34s %8s %8" PRIu64 " %11" PRIu64 " %8" PRIu64 "\n",
			report_text_clean(name, sizeof(name), clean, sizeof(clean)), pid, r->ios,
			r->bytes, r->seeks);
	}
	if (n > shown)
		fprintf(f, "  (+ %zu more processes: %" PRIu64 " I/Os, %" PRIu64 " seeks)\n",
			n - shown, rest_ios, rest_seeks);
}

void report_procs_json(struct ss_json *j, const struct ss_stats *st, const struct report_opts *ro)
{
	const struct ss_procs *p = ss_stats_procs(st);
	char filter[256];

	ss_json_key(j, "filter");
	if (ss_task_spec_active(&ro->only)) {
		ss_task_spec_describe(&ro->only, filter, sizeof(filter));
		ss_json_string(j, filter);
	} else {
		ss_json_null(j);
	}
	ss_json_key(j, "processes_by");
	ss_json_string(j, !p ? NULL : any_submitted(p) ? "submitter" : "issuer");
	ss_json_key(j, "processes");
	ss_json_begin_array(j);
	for (size_t i = 0; p && i < ss_procs_count(p); i++) {
		const struct ss_proc_row *r = ss_procs_row(p, i);
		char name[SS_TASK_NAME_LEN];
		bool named = ss_procs_row_name(p, r, name, sizeof(name));

		ss_json_begin_object(j);
		ss_json_key(j, "comm");
		ss_json_string(j, named ? name : NULL);
		ss_json_key(j, "pid");
		if (r->pid == SS_PROC_NO_ISSUE)
			ss_json_null(j);
		else
			ss_json_u64(j, r->pid);
		ss_json_kv_u64(j, "ios", r->ios);
		ss_json_kv_u64(j, "bytes", r->bytes);
		ss_json_kv_u64(j, "seeks", r->seeks);
		ss_json_kv_u64(j, "issues", r->issues);
		ss_json_end_object(j);
	}
	ss_json_end_array(j);
}
