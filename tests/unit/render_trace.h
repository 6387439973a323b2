// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The synthetic trace of the render tests (test_render.c, test_render_labels.c): one XFS
 * device of up to four 2 GiB AGs, an "extract" phase of writes into one AG 1 ms apart, and as
 * asked a lead read, flushes, lost events, latencies, or the end cut off.  Include after tap.h,
 * testdir.h and render_util.h.
 */
#ifndef SS_TEST_RENDER_TRACE_H
#define SS_TEST_RENDER_TRACE_H

#define TR_DEV SS_MKDEV(7, 0)
#define TR_AG_SECTORS 4194304ull       /* 2 GiB */
#define TR_FS_START 2048ull
#define TR_T0 1000000000ull            /* the first request (the lead read, or the phase) */

/* NAME in the test's own directory. */
__attribute__((unused))
static const char *tr_path(const char *name)
{
	return tpath("%s", name);
}

struct tr_opts {
	int nr_ags;            /* 0: no zones */
	int write_ag;          /* AG that receives the writes */
	size_t nr_ios;
	bool flushes;
	bool truncate;
	uint64_t lost;         /* events lost on CPU 0 during the first lost_ns of the writes */
	uint64_t lost_ns;      /* 0: 10 ms */
	uint64_t lead_ns;      /* one read at TR_T0, the phase and the writes this much later */
	uint64_t lat_ns;       /* each request's latency; 0: 200 us */
	uint64_t lead_lat_ns;  /* the lead read's; 0: lat_ns */
	bool far_moves;        /* the writes alternate between the device's two ends */
};

__attribute__((unused))
static void tr_put_io(struct ss_writer *w, uint64_t ts, uint64_t sector, uint32_t nr,
		      uint16_t flags, uint64_t lat_ns)
{
	rt_put_io(w, TR_DEV, ts, sector, nr, flags, lat_ns ? lat_ns : 200000);
}

__attribute__((unused))
static void tr_make(const char *path, const struct tr_opts *o)
{
	struct ss_writer *w = ss_writer_open(path, SS_OUT_INPLACE, NULL, 0);
	struct ss_rec_device d = { .dev = TR_DEV, .major = 7, .logical_block_size = 512,
				   .nr_sectors = TR_FS_START + 4 * TR_AG_SECTORS,
				   .part_start = TR_FS_START, .part_nr_sectors = 4 * TR_AG_SECTORS,
				   .flags = SS_DEV_PARTITION };

	strcpy(d.name, "loop0");
	strcpy(d.fstype, "xfs");
	ss_writer_device(w, &d);
	for (int i = 0; i < o->nr_ags; i++) {
		struct ss_rec_zone z = { .dev = TR_DEV, .kind = SS_ZONE_AG, .index = (uint32_t)i,
					 .start_sector = TR_FS_START + (uint64_t)i * TR_AG_SECTORS,
					 .nr_sectors = TR_AG_SECTORS };

		snprintf(z.label, sizeof(z.label), "AG%d", i);
		ss_writer_zone(w, &z);
	}
	if (o->lead_ns)
		tr_put_io(w, TR_T0, TR_FS_START, 8, SS_RW_READ,
			  o->lead_lat_ns ? o->lead_lat_ns : o->lat_ns);
	if (o->lost) {
		struct ss_rec_lost l = { .from_ns = TR_T0 + o->lead_ns,
					 .to_ns = TR_T0 + o->lead_ns +
						 (o->lost_ns ? o->lost_ns : 10000000),
					 .count = o->lost };

		ss_writer_lost(w, &l);
	}
	if (o->nr_ios)
		ss_writer_phase(w, TR_T0 + o->lead_ns, SS_PHASE_BEGIN, "extract");
	for (size_t i = 0; i < o->nr_ios; i++) {
		uint64_t ts = TR_T0 + o->lead_ns + i * 1000000;
		uint64_t sector = TR_FS_START + (uint64_t)o->write_ag * TR_AG_SECTORS + i * 2048;

		if (o->far_moves)
			sector = i % 2 ? TR_FS_START + 4 * TR_AG_SECTORS - 64 : TR_FS_START;

		if (o->flushes && i % 10 == 5)
			tr_put_io(w, ts, 0, 0, SS_RW_FLUSH, o->lat_ns);
		else
			tr_put_io(w, ts, sector, 64, SS_RW_WRITE, o->lat_ns);
	}
	if (o->nr_ios)
		ss_writer_phase(w, TR_T0 + o->lead_ns + o->nr_ios * 1000000, SS_PHASE_END,
				"extract");
	if (o->truncate)
		ss_writer_abort(w);
	else
		ss_writer_close(w);
}

#endif
