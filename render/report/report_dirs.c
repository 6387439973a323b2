// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The per-directory table of `seekscope report` and the file map's coverage, as text and
 * JSON (groupstats.h has the rules): what share of the data I/O the map attributes, so that
 * a reader sees how much of the picture it explains.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "groupstats.h"
#include "report_fmt.h"

/* Totals over the rows: all, in mapped entries (data and directory blocks), in inodes. */
struct coverage {
	uint64_t ios, bytes, seeks;
	uint64_t mapped_ios, mapped_bytes;
	uint64_t inode_ios, inode_bytes;
};

static struct coverage coverage_of(const struct ss_group_stats *g)
{
	struct coverage c = { 0 };

	for (size_t i = 0; i < ss_group_stats_count(g); i++) {
		const struct ss_group_row *r = ss_group_stats_row(g, i);

		c.ios += r->ios;
		c.bytes += r->bytes;
		c.seeks += r->seeks;
		if (r->group == 1) {
			c.inode_ios += r->ios;
			c.inode_bytes += r->bytes;
		} else if (r->group) {
			c.mapped_ios += r->ios;
			c.mapped_bytes += r->bytes;
		}
	}
	return c;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

void report_dirs_text(FILE *f, const struct ss_stats *st)
{
	const struct ss_group_stats *g = ss_stats_dirs(st);
	size_t n = g ? ss_group_stats_count(g) : 0, shown = REPORT_DIRS_DEFAULT;
	uint64_t rest_ios = 0, rest_bytes = 0, rest_seeks = 0;
	struct coverage c;

	if (!g)
		return;
	if (!ss_group_stats_mapped(g)) {
		fprintf(f, "\n  directories: this trace has no file map (record --untar, or "
			   "record --map DIR -- COMMAND)\n");
		return;
	}
	c = coverage_of(g);
	fprintf(f, "\n  directories (under the mapped DIR: the file data and directory blocks "
		   "their requests hold)\n"
		   "  file map: %.1f %% of the data bytes (%" PRIu64 " of %" PRIu64 " I/Os) lie in "
		   "mapped files and directories,\n"
		   "            %.1f %% in their inodes (%" PRIu64 " I/Os), %.1f %% not in the map "
		   "(log, other metadata, files not mapped)\n",
		pct(c.mapped_bytes, c.bytes), c.mapped_ios, c.ios, pct(c.inode_bytes, c.bytes),
		c.inode_ios, pct(c.bytes - c.mapped_bytes - c.inode_bytes, c.bytes));
	fprintf(f, "  %-34s %8s %11s %8s\n", "path", "I/Os", "bytes", "seeks");
	for (size_t i = 0; i < n; i++) {
		const struct ss_group_row *r = ss_group_stats_row(g, i);
		char clean[SS_GROUP_LEN * 4 + 8];

		if (i >= shown) {
			rest_ios += r->ios;
			rest_bytes += r->bytes;
			rest_seeks += r->seeks;
			continue;
		}
		fprintf(f, "  %-34s %8" PRIu64 " %11" PRIu64 " %8" PRIu64 "\n",
			report_text_clean(r->name, strlen(r->name), clean, sizeof(clean)), r->ios,
			r->bytes, r->seeks);
	}
	if (n > shown)
		fprintf(f, "  (+ %zu more directories: %" PRIu64 " I/Os, %" PRIu64 " bytes, %" PRIu64
			   " seeks)\n", n - shown, rest_ios, rest_bytes, rest_seeks);
}

void report_dirs_json(struct ss_json *j, const struct ss_stats *st)
{
	const struct ss_group_stats *g = ss_stats_dirs(st);
	bool mapped = g && ss_group_stats_mapped(g);
	struct coverage c = { 0 };

	if (g)
		c = coverage_of(g);
	ss_json_key(j, "file_map");
	ss_json_begin_object(j);
	ss_json_kv_bool(j, "mapped", mapped);
	ss_json_kv_u64(j, "ios", c.ios);
	ss_json_kv_u64(j, "bytes", c.bytes);
	ss_json_kv_u64(j, "mapped_ios", mapped ? c.mapped_ios : 0);
	ss_json_kv_u64(j, "mapped_bytes", mapped ? c.mapped_bytes : 0);
	ss_json_kv_u64(j, "inode_ios", mapped ? c.inode_ios : 0);
	ss_json_kv_u64(j, "inode_bytes", mapped ? c.inode_bytes : 0);
	ss_json_end_object(j);
	ss_json_key(j, "dirs");
	ss_json_begin_array(j);
	for (size_t i = 0; mapped && i < ss_group_stats_count(g); i++) {
		const struct ss_group_row *r = ss_group_stats_row(g, i);

		ss_json_begin_object(j);
		/* the unknown row has no path; the inodes row is no directory */
		ss_json_kv_string(j, "path", r->group > 1 ? r->name : NULL);
		ss_json_kv_string(j, "kind", r->group > 1 ? "dir" : r->group ? "inodes" : "unknown");
		ss_json_kv_u64(j, "ios", r->ios);
		ss_json_kv_u64(j, "bytes", r->bytes);
		ss_json_kv_u64(j, "seeks", r->seeks);
		ss_json_kv_u64(j, "issues", r->issues);
		ss_json_end_object(j);
	}
	ss_json_end_array(j);
}
