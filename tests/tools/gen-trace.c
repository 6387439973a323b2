// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gen-trace: writes synthetic seekscope traces for the render tests, the demo pictures and the
 * benchmark.  A crude disk model (transfer time plus a seek penalty growing with distance)
 * turns an access pattern into issue/complete timestamps, so a seek-heavy layout really takes
 * longer — enough to make the XFS agcount=1 vs agcount=4 comparison look like the real thing.
 *
 *   gen-trace -o FILE [-n IOS] [-p untar|seq|random|ag] [-a AGCOUNT] [-k AG] [-f xfs|ext4|none]
 *             [-g GIB] [-q DEPTH] [-L LOST] [-s SEED] [-b BATCH] [-P] [-T] [-t] [-D MS]
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_write.h"

#define DEV SS_MKDEV(7, 0)
#define BATCH 65536

struct gen {
	struct ss_writer *w;
	struct ss_event buf[BATCH];
	unsigned batch;              /* -b: events per EVENTS record, at most BATCH */
	size_t n;
	uint64_t now, head;          /* clock (ns) and where the head is (sector) */
	uint64_t dev_sectors;
	unsigned depth;              /* issue this many before completing them */
	struct ss_event pending[64];
	unsigned nr_pending;
	uint64_t rng;
	uint32_t pid;                /* of the next issue */
	bool tasks;                  /* -T: the work has several processes, named */
	int err;
};

/* -T: who does what in the untar pattern (pids, names as the kernel gives them). */
enum { PID_TAR = 1234, PID_FLUSH = 77, PID_LOG = 88, PID_RM = 1300 };
static const struct { uint32_t pid; const char *comm, *work; } task_names[] = {
	{ PID_TAR, "tar", "" },
	{ PID_FLUSH, "kworker/u4:2", "wb_workfn" },
	{ PID_LOG, "kworker/0:1H", "xlog_cil_push_work" },
	{ PID_RM, "rm", "" },
};

static void write_tasks(struct gen *g)
{
	struct ss_rec_task t[sizeof(task_names) / sizeof(task_names[0])];

	memset(t, 0, sizeof(t));
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		t[i].ts_ns = g->now - 1000000;
		t[i].pid = task_names[i].pid;
		snprintf(t[i].comm, sizeof(t[i].comm), "%s", task_names[i].comm);
		snprintf(t[i].work, sizeof(t[i].work), "%s", task_names[i].work);
	}
	ss_writer_tasks(g->w, t, sizeof(t) / sizeof(t[0]));
}

/* The process of the next issues (with -T; else everything is pid 1234's). */
static void as(struct gen *g, uint32_t pid)
{
	g->pid = g->tasks ? pid : PID_TAR;
}

static uint64_t rnd(struct gen *g)
{
	g->rng ^= g->rng << 13;
	g->rng ^= g->rng >> 7;
	g->rng ^= g->rng << 17;
	return g->rng;
}

static void emit(struct gen *g, const struct ss_event *ev)
{
	g->buf[g->n++] = *ev;
	if (g->n == g->batch) {
		if (!g->err)
			g->err = ss_writer_events(g->w, g->buf, g->n);
		g->n = 0;
	}
}

static void flush_events(struct gen *g)
{
	if (g->n && !g->err)
		g->err = ss_writer_events(g->w, g->buf, g->n);
	g->n = 0;
}

/* Complete everything in flight, in issue order, each after its modelled service time. */
static void drain(struct gen *g)
{
	for (unsigned i = 0; i < g->nr_pending; i++) {
		struct ss_event c = g->pending[i];
		uint64_t dist, svc;

		dist = c.nr_sector ? (c.sector > g->head ? c.sector - g->head : g->head - c.sector) : 0;
		svc = 60000 + (uint64_t)c.nr_sector * 512 * 1000 / 150;      /* 150 MB/s */
		if (dist > 128)
			svc += 1500000 + (uint64_t)(7e6 * sqrt((double)dist / (double)g->dev_sectors));
		if (c.flags & (SS_RW_FLUSH | SS_RW_PREFLUSH))
			svc += 400000;
		if (c.nr_sector)
			g->head = c.sector + c.nr_sector;
		g->now += svc;
		c.ts_ns = g->now;
		c.type = SS_EV_COMPLETE;
		if (c.flags & SS_RW_FLUSH && !c.nr_sector)
			c.sector = SS_SECTOR_NONE;
		emit(g, &c);
	}
	g->nr_pending = 0;
	g->now += 20000 + rnd(g) % 40000;    /* the application thinks a little */
}

static void io(struct gen *g, uint64_t sector, uint32_t nr, uint16_t flags)
{
	struct ss_event e = { 0 };

	e.ts_ns = g->now;
	e.sector = sector;
	e.nr_sector = nr;
	e.bytes = nr * 512;
	e.dev = DEV;
	e.type = SS_EV_ISSUE;
	e.flags = flags;
	e.pid = g->pid;
	emit(g, &e);
	g->now += 1000;
	g->pending[g->nr_pending++] = e;
	if (g->nr_pending >= g->depth)
		drain(g);
}

static void flush_req(struct gen *g)
{
	io(g, 0, 0, SS_RW_FLUSH);
}

struct layout {
	uint64_t fs_start, fs_sectors, ag_sectors, log_start, log_sectors;
	unsigned agcount;
};

static void write_zones(struct gen *g, const struct layout *l, const char *fs)
{
	struct ss_rec_device d = { .dev = DEV, .major = 7, .minor = 0, .logical_block_size = 512,
				   .physical_block_size = 4096, .flags = SS_DEV_ROTATIONAL | SS_DEV_PARTITION,
				   .nr_sectors = g->dev_sectors, .part_start = l->fs_start,
				   .part_nr_sectors = l->fs_sectors };
	struct ss_rec_zone z = { .dev = DEV };

	strcpy(d.name, "loop0");
	strcpy(d.part_name, "loop0p1");
	snprintf(d.fstype, sizeof(d.fstype), "%s", strcmp(fs, "none") ? fs : "");
	strcpy(d.path, "/mnt/test");
	ss_writer_device(g->w, &d);
	if (!strcmp(fs, "xfs")) {
		for (unsigned i = 0; i < l->agcount; i++) {
			z.kind = SS_ZONE_AG;
			z.index = i;
			z.start_sector = l->fs_start + i * l->ag_sectors;
			z.nr_sectors = l->ag_sectors;
			snprintf(z.label, sizeof(z.label), "AG%u", i);
			ss_writer_zone(g->w, &z);
		}
		z.kind = SS_ZONE_LOG;
		z.index = 0;
		z.start_sector = l->log_start;
		z.nr_sectors = l->log_sectors;
		snprintf(z.label, sizeof(z.label), "log");
		ss_writer_zone(g->w, &z);
	} else if (!strcmp(fs, "ext4")) {
		for (unsigned i = 0; i < l->agcount; i++) {
			z.kind = SS_ZONE_GROUP;
			z.index = i;
			z.start_sector = l->fs_start + i * l->ag_sectors;
			z.nr_sectors = l->ag_sectors;
			snprintf(z.label, sizeof(z.label), "group %u", i);
			ss_writer_zone(g->w, &z);
			z.kind = SS_ZONE_INODE_TABLE;
			z.start_sector += 1024;
			z.nr_sectors = 4096;
			snprintf(z.label, sizeof(z.label), "itable %u", i);
			ss_writer_zone(g->w, &z);
		}
		z.kind = SS_ZONE_JOURNAL;
		z.index = 0;
		z.start_sector = l->log_start;
		z.nr_sectors = l->log_sectors;
		snprintf(z.label, sizeof(z.label), "journal");
		ss_writer_zone(g->w, &z);
	}
}

static void log_write(struct gen *g, const struct layout *l, uint64_t *logpos)
{
	uint32_t nr = 64, pid = g->pid;

	if (*logpos + nr > l->log_start + l->log_sectors)
		*logpos = l->log_start;
	as(g, PID_LOG);
	io(g, *logpos, nr, SS_RW_WRITE | SS_RW_META | SS_RW_SYNC | SS_RW_PREFLUSH | SS_RW_FUA);
	g->pid = pid;
	*logpos += nr;
}

/* Untar + sync + delete: files spread over AGs by directory, metadata near each AG start. */
static void pattern_untar(struct gen *g, const struct layout *l, uint64_t ios, bool phases)
{
	uint64_t cursor[64], meta[64], logpos = l->log_start, done = 0;
	uint64_t n_extract = ios / 5, n_sync = ios * 7 / 10;
	unsigned files_per_dir = 12, nag = l->agcount < 64 ? l->agcount : 64;

	for (unsigned i = 0; i < nag; i++) {
		cursor[i] = l->fs_start + i * l->ag_sectors + l->ag_sectors / 16;
		meta[i] = l->fs_start + i * l->ag_sectors + 64;
	}
	as(g, PID_TAR);
	if (phases)
		ss_writer_phase(g->w, g->now, SS_PHASE_BEGIN, "extract");
	/* extract: the page cache absorbs data; metadata and log go out */
	for (; done < n_extract; done++) {
		unsigned ag = (unsigned)((done / 40) % nag);

		if (done % 9 == 0)
			log_write(g, l, &logpos);
		else if (done % 31 == 0)
			io(g, meta[ag] + rnd(g) % 4096, 8, SS_RW_READ | SS_RW_META);
		else
			io(g, meta[ag] += 16, 16, SS_RW_WRITE | SS_RW_META);
	}
	if (phases) {
		ss_writer_phase(g->w, g->now, SS_PHASE_END, "extract");
		ss_writer_phase(g->w, g->now, SS_PHASE_BEGIN, "sync");
	}
	/* sync: writeback in inode order, which walks directories round the AGs */
	as(g, PID_FLUSH);
	for (uint64_t k = 0; done < n_extract + n_sync; done++, k++) {
		unsigned ag = (unsigned)((k / files_per_dir) % nag);
		uint32_t nr = 8u << (rnd(g) % 5);

		if (k % 97 == 96) {
			log_write(g, l, &logpos);
			continue;
		}
		if (k % 500 == 499) {
			flush_req(g);
			continue;
		}
		if (k % 23 == 0)
			io(g, meta[ag] += 16, 16, SS_RW_WRITE | SS_RW_META);
		else {
			io(g, cursor[ag], nr, SS_RW_WRITE);
			cursor[ag] += nr;
		}
	}
	if (phases) {
		ss_writer_phase(g->w, g->now, SS_PHASE_END, "sync");
		ss_writer_phase(g->w, g->now, SS_PHASE_BEGIN, "delete");
	}
	as(g, PID_RM);
	for (; done < ios; done++) {
		unsigned ag = (unsigned)((done / 25) % nag);
		uint64_t base = l->fs_start + ag * l->ag_sectors + 64;

		if (done % 7 == 0)
			log_write(g, l, &logpos);
		else if (done % 3 == 0)
			io(g, base + rnd(g) % (meta[ag] - base + 1), 8, SS_RW_READ | SS_RW_META);
		else
			io(g, base + rnd(g) % (meta[ag] - base + 1), 16, SS_RW_WRITE | SS_RW_META);
	}
	drain(g);
	if (phases)
		ss_writer_phase(g->w, g->now, SS_PHASE_END, "delete");
}

static void usage(FILE *f)
{
	fprintf(f, "USAGE: gen-trace -o FILE [-n IOS] [-p untar|seq|random|ag] [-a AGCOUNT] [-k AG]\n"
		   "                 [-f xfs|ext4|none] [-g GIB] [-q DEPTH] [-L LOST] [-s SEED] [-b BATCH] [-P] [-T] [-t]\n"
		   "  -n  data I/Os (each an issue and a complete event; default 20000)\n"
		   "  -p  untar: extract/sync/delete over AGs; seq; random; ag: writes only in AG -k\n"
		   "  -a  allocation groups (xfs) or block groups (ext4)   -g  filesystem size, GiB\n"
		   "  -P  write phase markers   -t  leave the trace truncated (no end record)\n"
		   "  -T  untar: named processes (tar extracts, a kworker flushes, another writes\n"
		   "      the log, rm deletes); else everything is pid 1234, unnamed\n"
		   "  -L  record LOST events in the capture statistics\n"
		   "  -b  events per EVENTS record (1..65536, default 65536)\n"
		   "  -D  MS of lead before the pattern (one read at its start), so that the\n"
		   "      phases of -P start MS later after the capture start\n");
}

int main(int argc, char **argv)
{
	const char *out = NULL, *pattern = "untar", *fs = "xfs";
	uint64_t ios = 20000, lost = 0, lead_ms = 0;
	unsigned ag_only = 2, agcount = 4;
	double gib = 8;
	bool phases = false, truncate = false, tasks = false;
	struct layout l;
	struct gen *g;
	char err[256];
	int c, ret;

	while ((c = getopt(argc, argv, "o:n:p:a:k:f:g:q:L:s:D:b:PTth")) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'n': ios = strtoull(optarg, NULL, 10); break;
		case 'p': pattern = optarg; break;
		case 'a': agcount = (unsigned)atoi(optarg); break;
		case 'k': ag_only = (unsigned)atoi(optarg); break;
		case 'f': fs = optarg; break;
		case 'g': gib = atof(optarg); break;
		case 'L': lost = strtoull(optarg, NULL, 10); break;
		case 'D': lead_ms = strtoull(optarg, NULL, 10); break;
		case 'P': phases = true; break;
		case 'T': tasks = true; break;
		case 't': truncate = true; break;
		case 'q': case 's': case 'b': break;   /* parsed below */
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (!out || agcount < 1 || agcount > 4096 || !(gib > 0)) {
		usage(stderr);
		return 2;
	}
	g = calloc(1, sizeof(*g));
	if (!g)
		return 1;
	g->depth = 1;
	g->batch = BATCH;
	g->tasks = tasks;
	g->pid = PID_TAR;
	g->rng = 88172645463325252ull;
	optind = 1;
	while ((c = getopt(argc, argv, "o:n:p:a:k:f:g:q:L:s:D:b:PTth")) != -1) {
		if (c == 'q')
			g->depth = (unsigned)atoi(optarg);
		if (c == 's')
			g->rng ^= strtoull(optarg, NULL, 10) * 0x9E3779B97F4A7C15ull;
		if (c == 'b')
			g->batch = (unsigned)atoi(optarg);
	}
	if (g->depth < 1 || g->depth > 64)
		g->depth = 1;
	if (g->batch < 1 || g->batch > BATCH)
		g->batch = BATCH;
	g->now = 1000000000ull;
	l.fs_start = 2048;
	l.fs_sectors = (uint64_t)(gib * 2097152);
	l.agcount = agcount;
	l.ag_sectors = l.fs_sectors / agcount;
	l.log_sectors = strcmp(fs, "ext4") ? 20480 : 262144;
	l.log_start = l.fs_start + (agcount / 2) * l.ag_sectors + l.ag_sectors / 2;
	g->dev_sectors = l.fs_start + l.fs_sectors;
	g->w = ss_writer_open(out, SS_OUT_REPLACE, err, sizeof(err));
	if (!g->w) {
		fprintf(stderr, "gen-trace: %s\n", err);
		return 1;
	}
	write_zones(g, &l, fs);
	if (tasks)
		write_tasks(g);
	ss_writer_meta(g->w, "cmdline", "gen-trace");
	if (phases)
		ss_writer_meta(g->w, "phase.extract.files", "20000");
	{
		struct ss_rec_capture cap = { .start_ns = g->now - 1000000, .buffer_kb = 8192, .nr_cpus = 2 };

		strcpy(cap.clock, "mono");
		ss_writer_capture(g->w, &cap);
	}
	if (lead_ms) {
		/* what runs before the workload: one read of the superblock, then idle */
		io(g, l.fs_start, 8, SS_RW_READ | SS_RW_META);
		g->now += lead_ms * 1000000ull;
	}
	if (!strcmp(pattern, "untar")) {
		pattern_untar(g, &l, ios, phases);
	} else {
		for (uint64_t i = 0; i < ios; i++) {
			uint64_t s;

			if (!strcmp(pattern, "seq"))
				s = l.fs_start + (i * 64) % (l.fs_sectors - 64);
			else if (!strcmp(pattern, "ag"))
				s = l.fs_start + ag_only * l.ag_sectors + (i * 64) % (l.ag_sectors - 64);
			else
				s = l.fs_start + (rnd(g) % (l.fs_sectors - 64)) / 8 * 8;
			io(g, s, 64, (strcmp(pattern, "random") || i % 3) ? SS_RW_WRITE : SS_RW_READ);
		}
		drain(g);
	}
	flush_events(g);
	{
		struct ss_rec_cpu_stats st = { .cpu = 0, .events = ios * 2, .missed = lost };
		struct ss_rec_capture cap = { .start_ns = 1000000000ull - 1000000, .end_ns = g->now,
					      .buffer_kb = 8192, .nr_cpus = 2 };

		strcpy(cap.clock, "mono");
		ss_writer_cpu_stats(g->w, &st);
		ss_writer_capture(g->w, &cap);
	}
	if (truncate) {
		ret = ss_writer_close_truncated(g->w);
		if (!ret)
			ret = g->err;
	} else {
		ret = ss_writer_close(g->w);
		if (!ret)
			ret = g->err;
	}
	free(g);
	if (ret) {
		fprintf(stderr, "gen-trace: %s: %s\n", out, strerror(-ret));
		return 1;
	}
	return 0;
}
