// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A hand-made trace shared by the statistics and report tests: one XFS-like device with four
 * AGs and a log inside AG2, three phases (one never ended), a mark, workload meta and 13 events
 * whose every figure is worked out by hand in the comments (the tests assert those numbers).
 *
 *  time (s)   event                                      phase    zone
 *  1.600      W issue    0       +8   first I/O           extract  AG0
 *  1.601      W complete 0       +8   lat 1 ms            extract  AG0
 *  1.700      W issue    1048676 +16  seek                extract  AG1
 *  1.702      W complete                lat 2 ms           extract  AG1
 *  1.800      R issue    2098160 +8   seek                extract  log (inside AG2)
 *  1.804      R complete                lat 4 ms           extract  log
 *  2.600      flush issue at 0 +0                          sync
 *  2.610      flush complete at SECTOR_NONE, lat 10 ms     sync
 *  2.700      WFUA issue 2098168 +8  contiguous: no seek   sync     log
 *  2.701      WFUA complete            lat 1 ms            sync     log
 *  3.600      R complete 3145736 +8  no issue: unmatched   delete   AG3
 *  3.700      W issue    4194000 +8  seek                  delete   (no zone)
 *  3.710      W complete               lat 10 ms           delete   (no zone)
 *
 *  Capture 1.0 .. 4.0 s.  extract [1.5, 2.5), sync [2.5, 3.0), delete from 3.5 (no end),
 *  mark "commit" at 2.0.  Meta phase.extract.files = 200, phase.extract.bytes = 4000000.
 */
#ifndef SS_TEST_FIXTURE_H
#define SS_TEST_FIXTURE_H

#include "seekscope/format.h"
#include "trace_write.h"

#define FX_DEV   SS_MKDEV(7, 3)
#define FX_S     1000000000ull
#define FX_MS    1000000ull
#define FX_LOG_START 2098152ull

static struct ss_event fx_ev(uint64_t ts, uint16_t type, uint64_t sector, uint32_t nr,
			     uint16_t flags)
{
	struct ss_event e = { .ts_ns = ts, .sector = sector, .nr_sector = nr, .bytes = nr * 512,
			      .dev = FX_DEV, .type = type, .flags = flags };
	return e;
}

/* Write the fixture to PATH; lost > 0 adds CPU statistics reporting that many lost events;
 * clean = 0 leaves the file without its end record (truncated).  0 or -errno. */
__attribute__((unused))
static int fx_write(const char *path, uint64_t lost, int clean)
{
	const uint16_t W = SS_RW_WRITE, R = SS_RW_READ, FL = SS_RW_FLUSH | SS_RW_PREFLUSH;
	struct ss_event ev[] = {
		fx_ev(1600 * FX_MS, SS_EV_ISSUE, 0, 8, W),
		fx_ev(1601 * FX_MS, SS_EV_COMPLETE, 0, 8, W),
		fx_ev(1700 * FX_MS, SS_EV_ISSUE, 1048676, 16, W),
		fx_ev(1702 * FX_MS, SS_EV_COMPLETE, 1048676, 16, W),
		fx_ev(1800 * FX_MS, SS_EV_ISSUE, 2098160, 8, R | SS_RW_META),
		fx_ev(1804 * FX_MS, SS_EV_COMPLETE, 2098160, 8, R | SS_RW_META),
		fx_ev(2600 * FX_MS, SS_EV_ISSUE, 0, 0, FL),
		fx_ev(2610 * FX_MS, SS_EV_COMPLETE, SS_SECTOR_NONE, 0, FL),
		fx_ev(2700 * FX_MS, SS_EV_ISSUE, 2098168, 8, W | SS_RW_FUA),
		fx_ev(2701 * FX_MS, SS_EV_COMPLETE, 2098168, 8, W | SS_RW_FUA),
		fx_ev(3600 * FX_MS, SS_EV_COMPLETE, 3145736, 8, R),
		fx_ev(3700 * FX_MS, SS_EV_ISSUE, 4194000, 8, W),
		fx_ev(3710 * FX_MS, SS_EV_COMPLETE, 4194000, 8, W),
	};
	struct ss_rec_device d = { .dev = FX_DEV, .major = 7, .minor = 3, .logical_block_size = 512,
				   .physical_block_size = 4096, .nr_sectors = 4194304,
				   .part_nr_sectors = 4194304, .flags = SS_DEV_ROTATIONAL };
	struct ss_rec_capture cap = { .start_ns = 1 * FX_S, .end_ns = 0, .buffer_kb = 8192,
				      .nr_cpus = 2 };
	struct ss_rec_cpu_stats cs = { .cpu = 0, .events = 13, .missed = lost };
	struct ss_writer *w = ss_writer_open(path, SS_OUT_INPLACE, NULL, 0);
	int ret = 0;

	if (!w)
		return -errno;
	strcpy(d.name, "loop3");
	strcpy(d.fstype, "xfs");
	strcpy(d.path, "/mnt/\"test\"");
	strcpy(cap.clock, "mono");
	strcpy(cap.instance, "seekscope-1");
	ret |= ss_writer_device(w, &d);
	for (unsigned i = 0; i < 4; i++) {
		struct ss_rec_zone z = { .dev = FX_DEV, .kind = SS_ZONE_AG, .index = i,
					 .start_sector = i * 1048576ull,
					 .nr_sectors = i == 3 ? 1000000 : 1048576 };

		snprintf(z.label, sizeof(z.label), "AG%u", i);
		ret |= ss_writer_zone(w, &z);
	}
	struct ss_rec_zone log = { .dev = FX_DEV, .kind = SS_ZONE_LOG, .start_sector = FX_LOG_START,
				   .nr_sectors = 20480 };
	strcpy(log.label, "log");
	ret |= ss_writer_zone(w, &log);
	ret |= ss_writer_meta(w, "cmdline", "sh -c 'tar xf \"a b\".tar\n\tsync' \\ \x01 \xff end");
	ret |= ss_writer_meta(w, "phase.extract.files", "200");
	ret |= ss_writer_meta(w, "phase.extract.bytes", "4000000");
	ret |= ss_writer_meta(w, "phase.sync.files", "12x");     /* not a number: ignored */
	ret |= ss_writer_capture(w, &cap);
	ret |= ss_writer_phase(w, 1500 * FX_MS, SS_PHASE_BEGIN, "extract");
	ret |= ss_writer_events(w, ev, 6);
	ret |= ss_writer_phase(w, 2000 * FX_MS, SS_PHASE_MARK, "commit");
	ret |= ss_writer_phase(w, 2500 * FX_MS, SS_PHASE_END, "extract");
	ret |= ss_writer_phase(w, 2500 * FX_MS, SS_PHASE_BEGIN, "sync");
	ret |= ss_writer_events(w, ev + 6, 4);
	ret |= ss_writer_phase(w, 3000 * FX_MS, SS_PHASE_END, "sync");
	ret |= ss_writer_phase(w, 3500 * FX_MS, SS_PHASE_BEGIN, "delete");
	ret |= ss_writer_events(w, ev + 10, 3);
	if (lost)
		ret |= ss_writer_cpu_stats(w, &cs);
	cap.end_ns = 4 * FX_S;
	ret |= ss_writer_capture(w, &cap);
	if (clean)
		ret |= ss_writer_close(w);
	else
		ss_writer_abort(w);
	return ret ? -EIO : 0;
}

#endif
