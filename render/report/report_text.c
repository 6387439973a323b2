// SPDX-License-Identifier: GPL-2.0-or-later
/* `seekscope report` as text: a readable summary of one trace (definitions in --help). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "report_fmt.h"
#include "seekscope/model.h"

/*
 * Strings from the file (names, paths, the command line) may hold anything: copy them for the
 * terminal with control characters and invalid UTF-8 escaped (\n, \t, \xNN), so a crafted
 * trace cannot move the cursor or change the terminal's state.  Long strings end in "...".
 */
static const char *clean(const char *s, size_t n, char *out, size_t outlen)
{
	size_t o = 0;

	for (size_t i = 0; i < n && s[i];) {
		unsigned char c = (unsigned char)s[i];
		size_t len = c >= 0x20 && c != 0x7f ? ss_utf8_seq_len(s + i, n - i) : 0;
		char esc[8];
		size_t elen;

		if (len) {
			memcpy(esc, s + i, len);
			elen = len;
		} else {
			elen = (size_t)snprintf(esc, sizeof(esc), c == '\n' ? "\\n" :
						c == '\t' ? "\\t" : "\\x%02x", c);
			len = 1;
		}
		if (o + elen + 4 > outlen) {
			memcpy(out + o, "...", 3);
			o += 3;
			break;
		}
		memcpy(out + o, esc, elen);
		o += elen;
		i += len;
	}
	out[o] = '\0';
	return out;
}

/* A fixed-size char array from a record (maybe without NUL), cleaned into a local buffer. */
#define TXT(field, buf) clean((field), sizeof(field), (buf), sizeof(buf))

/* Bytes in binary units: "512 B", "4.0 KiB", "1.50 GiB". */
static const char *human_bytes(uint64_t b, char *buf, size_t len)
{
	static const char *unit[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	double v = (double)b;
	unsigned u = 0;

	while (v >= 1024 && u + 1 < sizeof(unit) / sizeof(unit[0])) {
		v /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, len, "%" PRIu64 " B", b);
	else
		snprintf(buf, len, "%.*f %s", v < 10 ? 2 : v < 100 ? 1 : 0, v, unit[u]);
	return buf;
}

/* A latency in the unit that suits it: "850 ns", "120 us", "4.2 ms", "1.30 s". */
static const char *human_ns(uint64_t ns, char *buf, size_t len)
{
	if (ns < 1000)
		snprintf(buf, len, "%" PRIu64 " ns", ns);
	else if (ns < 1000000)
		snprintf(buf, len, "%.*f us", ns < 10000 ? 1 : 0, (double)ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.*f ms", ns < 10000000 ? 1 : 0, (double)ns / 1e6);
	else
		snprintf(buf, len, "%.2f s", (double)ns / 1e9);
	return buf;
}

bool report_shows_device(const struct ss_trace *t, const struct ss_rec_device *d,
			 const struct report_opts *ro)
{
	return !ro->device || d == ss_trace_find_device(t, ro->device);
}

static void device_lines(FILE *f, const struct ss_trace *t, const struct report_opts *ro)
{
	char sz[32], psz[32], b1[160], b2[160], b3[160], b4[400];

	if (!t->nr_devices) {
		fprintf(f, "  device       (none recorded)\n");
		return;
	}
	for (size_t i = 0; i < t->nr_devices; i++) {
		const struct ss_rec_device *d = &t->devices[i];

		if (!report_shows_device(t, d, ro))
			continue;
		/* imported traces know devices by number only: size 0 = unknown */
		if (d->nr_sectors)
			fprintf(f, "  device       %s (%u:%u), %s, %s", TXT(d->name, b1), d->major,
				d->minor, human_bytes(d->nr_sectors * 512, sz, sizeof(sz)),
				d->flags & SS_DEV_ROTATIONAL ? "rotational" : "non-rotational");
		else
			fprintf(f, "  device       %s (%u:%u), size unknown", TXT(d->name, b1),
				d->major, d->minor);
		if (d->part_name[0])
			fprintf(f, "; partition %s at sector %" PRIu64 ", %s", TXT(d->part_name, b2),
				d->part_start, human_bytes(d->part_nr_sectors * 512, psz, sizeof(psz)));
		fprintf(f, "; filesystem %s", d->fstype[0] ? TXT(d->fstype, b3) : "unknown");
		if (d->path[0])
			fprintf(f, "; path %s", TXT(d->path, b4));
		fputc('\n', f);
	}
}

/* The extraction workload's archive and semantics, when the trace has them. */
static void workload_line(FILE *f, const struct ss_trace *t)
{
	const char *archive = ss_trace_meta(t, "archive");
	const char *bytes = ss_trace_meta(t, "archive.bytes");
	const char *files = ss_trace_meta(t, "archive.files");
	const char *dirs = ss_trace_meta(t, "archive.dirs");
	const char *fsync = ss_trace_meta(t, "fsync");
	const char *repeat = ss_trace_meta(t, "repeat");
	const char *error = ss_trace_meta(t, "workload.error");
	char b1[1024], b2[32];

	if (!archive)
		return;
	fprintf(f, "  workload     extract %s", clean(archive, strlen(archive), b1, sizeof(b1)));
	if (bytes)
		fprintf(f, " (%s", human_bytes(strtoull(bytes, NULL, 10), b2, sizeof(b2)));
	if (bytes && files)
		fprintf(f, ", %s files", clean(files, strlen(files), b1, sizeof(b1)));
	if (bytes && dirs)
		fprintf(f, ", %s directories", clean(dirs, strlen(dirs), b1, sizeof(b1)));
	if (bytes)
		fputc(')', f);
	if (fsync)
		fprintf(f, ", fsync=%s", clean(fsync, strlen(fsync), b1, sizeof(b1)));
	if (repeat && strcmp(repeat, "1"))
		fprintf(f, ", repeated %s times", clean(repeat, strlen(repeat), b1, sizeof(b1)));
	fputc('\n', f);
	if (error)
		fprintf(f, "  workload     FAILED: %s\n", clean(error, strlen(error), b1, sizeof(b1)));
}

/* The workload's exit status, or why there is none. */
static const char *exit_text(const struct ss_rec_capture *c, char *buf, size_t len)
{
	if (!ss_capture_exit_known(c))
		return "unknown (the capture's end was not recorded)";
	snprintf(buf, len, "%d", c->exit_status);
	return buf;
}

static void capture_lines(FILE *f, const struct ss_trace *t)
{
	const char *cmd = ss_trace_meta(t, "cmdline");
	char b1[160], b2[160], b3[1024], b4[16];

	if (t->has_capture)
		fprintf(f, "  capture      clock %s, buffer %" PRIu64 " KiB per CPU, %u CPUs, "
			   "workload exit status %s, seekscope %s\n",
			TXT(t->capture.clock, b1), t->capture.buffer_kb, t->capture.nr_cpus,
			exit_text(&t->capture, b4, sizeof(b4)), TXT(t->header.tool_version, b2));
	else if (t->header.version)
		fprintf(f, "  capture      (no capture record)\n");
	else
		fprintf(f, "  capture      imported from a %s trace\n", t->format);
	if (cmd)
		fprintf(f, "  command      %s\n", clean(cmd, strlen(cmd), b3, sizeof(b3)));
	workload_line(f, t);
}

/* One latency line for a class apart from reads and writes, when it has any. */
static void lat_line(FILE *f, const char *title, const char *what, const struct ss_lathist *h)
{
	char p50[32], p99[32], mx[32];

	if (!h->count)
		return;
	fprintf(f, "  %-12s p50 %s, p99 %s, max %s (%" PRIu64 " paired %s)\n", title,
		human_ns(ss_lathist_percentile(h, 50), p50, sizeof(p50)),
		human_ns(ss_lathist_percentile(h, 99), p99, sizeof(p99)),
		human_ns(h->max_ns, mx, sizeof(mx)), h->count, what);
}

static void summary_lines(FILE *f, const struct ss_summary *s, const struct ss_pair_stats *ps,
			  uint64_t threshold)
{
	static const char *const plural[SS_NR_DATA_OPS] = {
		"reads", "writes", "discards", "other (write-zeroes, ...)"
	};
	const double mb_s[SS_NR_DATA_OPS] = { s->read_mb_s, s->write_mb_s, s->discard_mb_s,
					      s->other_mb_s };
	char a[32], p50[32], p99[32], mx[32];

	fprintf(f, "  duration     %.3f s\n", s->duration_s);
	fprintf(f, "  events       %" PRIu64 "\n", s->events);
	/* reads and writes always, the other classes when the trace has them */
	fprintf(f, "  I/Os         %" PRIu64 " completed:", s->ios);
	for (int op = 0; op < SS_NR_DATA_OPS; op++)
		if (op <= SS_OP_WRITE || s->op_ios[op])
			fprintf(f, "%s %" PRIu64 " %s (%s)", op ? "," : "", s->op_ios[op], plural[op],
				human_bytes(s->op_bytes[op], a, sizeof(a)));
	fputc('\n', f);
	fprintf(f, "  flushes      %" PRIu64 ", FUA %" PRIu64 "\n", s->flushes, s->fua);
	fprintf(f, "  seeks        %" PRIu64 " of %" PRIu64 " issued I/Os, %.1f/s (threshold %"
		   PRIu64 " sectors%s)\n", s->seeks, s->issues, s->seeks_per_s, threshold,
		s->discards ? "; discards are not seeks" : "");
	fprintf(f, "  IOPS         %.1f\n", s->iops);
	fprintf(f, "  throughput  ");
	for (int op = 0; op < SS_NR_DATA_OPS; op++)
		if (op <= SS_OP_WRITE || s->op_ios[op])
			fprintf(f, "%s %s %.2f MB/s", op ? "," : "", ss_ops[op].name, mb_s[op]);
	fputc('\n', f);
	if (s->lat.count)
		fprintf(f, "  latency      p50 %s, p99 %s, max %s (%" PRIu64 " paired reads and "
			   "writes)\n", human_ns(s->lat_p50_ns, p50, sizeof(p50)),
			human_ns(s->lat_p99_ns, p99, sizeof(p99)),
			human_ns(s->lat_max_ns, mx, sizeof(mx)), s->lat.count);
	else
		fprintf(f, "  latency      n/a (no paired reads or writes)\n");
	lat_line(f, "discard lat.", "discards", &s->discard_lat);
	lat_line(f, "other lat.", "write-zeroes/other", &s->other_lat);
	lat_line(f, "flush lat.", "flushes", &s->flush_lat);
	if (s->lat_lost)
		fprintf(f, "  no latency   %" PRIu64 " requests in flight across a lost-event period "
			   "(issue or completion may be lost: not paired reliably)\n", s->lat_lost);
	fprintf(f, "  queue depth  mean %.2f, max %" PRIu64 "\n", s->mean_depth, s->max_depth);
	if (s->unmatched || (ps && (ps->requeued || ps->overflow)))
		fprintf(f, "  pairing      completions without issue %" PRIu64 ", requeues %" PRIu64
			   ", untracked issues (in-flight table full) %" PRIu64 "\n",
			s->unmatched, ps ? ps->requeued : 0, ps ? ps->overflow : 0);
	if (s->errors)
		fprintf(f, "  errors       %" PRIu64 " I/Os completed with an error\n", s->errors);
}

static void phase_row(FILE *f, const struct ss_stats *st, const struct ss_phase_stats *p)
{
	char files[24] = "-", kb[24] = "-", nm[160];

	if (p->has_files)
		snprintf(files, sizeof(files), "%.1f", p->files_per_s);
	if (p->has_bytes)
		snprintf(kb, sizeof(kb), "%.1f", p->kb_per_s);
	fprintf(f, "  %-16s %9.3f %9.3f%s%8.3f %8" PRIu64 " %9.2f %9.2f %9.1f %9s %9s\n",
		TXT(p->name, nm), report_rel_s(st, p->s.start_ns), report_rel_s(st, p->s.end_ns),
		p->ended ? " " : "+", p->s.duration_s, p->s.ios, p->s.read_mb_s,
		p->s.write_mb_s, p->s.seeks_per_s, files, kb);
}

static void phase_table(FILE *f, const struct ss_stats *st)
{
	size_t n = ss_stats_nr_phases(st);

	if (!n)
		return;
	fprintf(f, "\n  phases\n  %-16s %9s %9s %9s %8s %9s %9s %9s %9s %9s\n", "name", "start s",
		"end s", "dur. s", "I/Os", "read MB/s", "wr. MB/s", "seeks/s", "files/s", "KB/s");
	for (size_t i = 0; i < n; i++)
		phase_row(f, st, ss_stats_phase(st, i));
	if (ss_stats_durable(st)) {
		phase_row(f, st, ss_stats_durable(st));
		fprintf(f, "  (%s: time to durable, from the start of extract to the end of "
			"sync)\n", SS_DURABLE_PHASE);
	}
	for (size_t i = 0; i < n; i++)
		if (!ss_stats_phase(st, i)->ended) {
			fprintf(f, "  (+ no end marker: the phase runs to the end of the trace)\n");
			break;
		}
}

static void zone_table(FILE *f, const struct ss_stats *st, bool all)
{
	size_t n = ss_stats_nr_zones(st), idle = 0;
	char sz[32], by[32], lb[160];
	bool shown[SS_NR_DATA_OPS];

	if (!n)
		return;
	if (n <= REPORT_ZONES_ALL_MAX)
		all = true;
	/* a column per class: reads and writes always, the others when the trace has them */
	for (int op = 0; op < SS_NR_DATA_OPS; op++)
		shown[op] = op <= SS_OP_WRITE || ss_stats_total(st)->op_ios[op];
	fprintf(f, "\n  zones\n  %-12s %-14s %14s %11s", "kind", "label", "start sector", "size");
	for (int op = 0; op < SS_NR_DATA_OPS; op++)
		if (shown[op]) {
			char head[24];

			snprintf(head, sizeof(head), "%s I/Os", op == SS_OP_WRITE ? "write" :
				 ss_ops[op].name);
			fprintf(f, " %12s", head);
		}
	fprintf(f, " %11s\n", "bytes");
	for (size_t i = 0; i < n; i++) {
		const struct ss_zone_stats *z = ss_stats_zone(st, i);

		if (!all && !z->bytes) {
			idle++;
			continue;
		}
		fprintf(f, "  %-12s %-14s %14" PRIu64 " %11s", ss_zone_kind_name(z->zone->kind),
			TXT(z->zone->label, lb), z->zone->start_sector,
			human_bytes(z->zone->nr_sectors * 512, sz, sizeof(sz)));
		for (int op = 0; op < SS_NR_DATA_OPS; op++)
			if (shown[op])
				fprintf(f, " %12" PRIu64, z->op_ios[op]);
		fprintf(f, " %11s\n", human_bytes(z->bytes, by, sizeof(by)));
	}
	if (idle)
		fprintf(f, "  (+ %zu zones without I/O not shown; --all-zones lists them)\n", idle);
	if (ss_stats_unzoned_ios(st))
		fprintf(f, "  (%" PRIu64 " I/Os outside every zone)\n", ss_stats_unzoned_ios(st));
}

int report_print_text(FILE *f, const struct ss_trace *t, const struct ss_stats *st,
		      const struct report_opts *ro)
{
	uint64_t lost = ss_trace_lost_events(t);

	fprintf(f, "%s\n", t->path);
	if (ss_task_spec_active(&ro->only)) {
		char only[256];

		ss_task_spec_describe(&ro->only, only, sizeof(only));
		fprintf(f, "  ONLY the requests of %s (seeks judged on every request)\n", only);
	}
	if (t->truncated)
		fprintf(f, "  WARNING: %s\n", t->warning[0] ? t->warning : "the trace is truncated");
	if (lost)
		fprintf(f, "  WARNING: %" PRIu64 " EVENTS WERE LOST during capture: counts, seeks and "
			   "pairing are incomplete (use a bigger buffer)\n", lost);
	device_lines(f, t, ro);
	capture_lines(f, t);
	summary_lines(f, ss_stats_total(st), ss_stats_pairing(st), ro->seek_threshold);
	fprintf(f, "  incomplete   %" PRIu64 " issued I/Os never completed (still in flight when the "
		   "capture ended)\n", ss_stats_incomplete_ios(st));
	fprintf(f, "  lost events  %" PRIu64 "", lost);
	if (t->nr_lost) {
		uint64_t span, placed = ss_trace_lost_placed(t, &span);

		fprintf(f, " (%" PRIu64 " placed in %zu period%s, %.3f s in all; no latency is "
			   "taken across them)", placed, t->nr_lost, t->nr_lost == 1 ? "" : "s",
			(double)span / 1e9);
	}
	fputc('\n', f);
	if (ss_stats_nr_devices(st) > 1 && !ro->device) {
		fprintf(f, "\n  per device\n");
		for (size_t i = 0; i < ss_stats_nr_devices(st); i++) {
			const struct ss_device_stats *d = ss_stats_device(st, i);
			char nm[160];

			fprintf(f, "  %-12s %8" PRIu64 " I/Os, %.2f MB/s read, %.2f MB/s write, "
				   "%.1f seeks/s, %.1f IOPS\n", TXT(d->device->name, nm), d->s.ios,
				d->s.read_mb_s, d->s.write_mb_s, d->s.seeks_per_s, d->s.iops);
		}
	}
	phase_table(f, st);
	zone_table(f, st, ro->all_zones);
	report_model_text(f, st);
	report_causes_text(f, t, st, ro);
	report_procs_text(f, t, st, ro);
	report_dirs_text(f, st);
	return ferror(f) ? -EIO : 0;
}

const char *report_text_clean(const char *s, size_t n, char *out, size_t outlen)
{
	return clean(s, n, out, outlen);
}
