// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The disk service-time model (render/analysis/diskmodel.h) on canonical patterns — random
 * 4 KiB reads over the whole span, large sequential transfers on the outer and inner zones, the
 * seek curve, follow-on and near requests, the write cache, SSDs — and its parameter parser
 * (presets with overrides, parameter files, every kind of refusal).  Prints the figures the
 * documentation quotes (docs/disk-model.md) as TAP comments.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "tap.h"
#include "testdir.h"
#include "diskmodel.h"

#define DEV SS_MKDEV(8, 0)
#define TIB_SECTORS (1ull << 31)          /* a 1 TiB disk */
#define MIB_SECTORS 2048u

static const char *const names[] = { "hdd7200", "hdd5400", "hdd15k", "ssd" };

static struct ss_event ev(uint16_t type, uint64_t sector, uint32_t nr, uint16_t flags)
{
	struct ss_event e = { .sector = sector, .nr_sector = nr, .bytes = nr * 512, .dev = DEV,
			      .type = type, .flags = flags };
	return e;
}

static struct ss_disk_model *model(const char *spec, uint64_t sectors)
{
	struct ss_disk_params p;
	char err[400];

	if (ss_disk_params_parse_spec(spec, &p, err, sizeof(err))) {
		printf("# %s: %s\n", spec, err);
		return NULL;
	}
	return ss_disk_model_new(&p, sectors);
}

/* Feed one request; its cost.  A failed feed gives a cost of -1 to make every check fail. */
static struct ss_disk_cost req(struct ss_disk_model *m, uint64_t sector, uint32_t nr,
			       uint16_t flags)
{
	struct ss_event e = ev(SS_EV_ISSUE, sector, nr, flags);
	struct ss_disk_cost c;

	if (ss_disk_model_feed(m, &e, &c) != 1)
		c.total_s = c.seek_s = c.rotation_s = c.transfer_s = c.overhead_s = -1;
	return c;
}

static bool near(double got, double want, double rel)
{
	return fabs(got - want) <= fabs(want) * rel;
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* IOPS of N 4 KiB requests at uniformly random aligned offsets over the whole device. */
static double random_iops(const char *spec, uint16_t flags, int n)
{
	struct ss_disk_model *m = model(spec, TIB_SECTORS);
	struct ss_disk_result r;
	uint64_t s = 0x9e3779b97f4a7c15ull;

	if (!m)
		return 0;
	for (int i = 0; i < n; i++)
		req(m, rnd(&s) % (TIB_SECTORS / 8) * 8, 8, flags);
	ss_disk_model_result(m, &r);
	ss_disk_model_free(m);
	printf("# %s %s: per request %.3f ms = seek %.3f + rotation %.3f + transfer %.3f + "
	       "overhead %.3f\n", spec, flags & SS_RW_WRITE ? "write" : "read",
	       r.time.total_s / n * 1e3, r.time.seek_s / n * 1e3, r.time.rotation_s / n * 1e3,
	       r.time.transfer_s / n * 1e3, r.time.overhead_s / n * 1e3);
	return r.requests == (uint64_t)n ? n / r.time.total_s : 0;
}

/* MB/s of COUNT back-to-back 1 MiB reads starting at sector START. */
static double sequential_mbs(const char *spec, uint64_t start, int count)
{
	struct ss_disk_model *m = model(spec, TIB_SECTORS);
	struct ss_disk_result r;

	if (!m)
		return 0;
	for (int i = 0; i < count; i++)
		req(m, start + (uint64_t)i * MIB_SECTORS, MIB_SECTORS, SS_RW_READ);
	ss_disk_model_result(m, &r);
	ss_disk_model_free(m);
	return r.bytes / r.time.total_s / 1e6;
}

static void test_canonical(void)
{
	/* The bands are what such drives are known to do at queue depth 1 (docs/disk-model.md),
	 * not the model's own output. */
	static const struct { const char *name; double lo, hi; } band[] = {
		{ "hdd7200", 75, 90 }, { "hdd5400", 50, 70 }, { "hdd15k", 150, 210 },
		{ "ssd", 5000, 15000 },
	};

	printf("# model    rnd4k-read  rnd4k-write  seq-outer  seq-inner (1 MiB reads)\n");
	for (size_t i = 0; i < sizeof(band) / sizeof(band[0]); i++) {
		struct ss_disk_params p;
		double rd = random_iops(band[i].name, SS_RW_READ, 20000);
		double wr = random_iops(band[i].name, SS_RW_WRITE, 20000);
		double out = sequential_mbs(band[i].name, 0, 256);
		double in = sequential_mbs(band[i].name, TIB_SECTORS - 256 * MIB_SECTORS, 256);
		double want_out, want_in;

		ss_disk_params_preset(band[i].name, &p);
		want_out = p.kind == SS_DISK_SSD ? p.read_mbs : p.outer_mbs;
		want_in = p.kind == SS_DISK_SSD ? p.read_mbs : p.inner_mbs;
		printf("# %-8s %8.1f IOPS %8.1f IOPS %6.1f MB/s %6.1f MB/s\n", band[i].name, rd, wr,
		       out, in);
		ok(rd >= band[i].lo && rd <= band[i].hi, "%s: random 4 KiB reads at %.1f IOPS, "
		   "expected %g-%g", band[i].name, rd, band[i].lo, band[i].hi);
		ok(p.kind == SS_DISK_SSD ? wr > rd : wr < rd && wr > rd * 0.85,
		   "%s: random writes (cache off: write settle) at %.1f IOPS", band[i].name, wr);
		ok(near(out, want_out, 0.05), "%s: 1 MiB sequential reads on the outer zone at "
		   "%.1f MB/s, media rate %g +-5 %%", band[i].name, out, want_out);
		ok(near(in, want_in, 0.05), "%s: ... on the inner zone at %.1f MB/s, media rate %g "
		   "+-5 %%", band[i].name, in, want_in);
	}
}

static void test_seek_curve(void)
{
	struct ss_disk_params p;
	struct ss_disk_model *m;
	double c, d0, prev = 0;
	bool mono = true;

	ss_disk_params_preset("hdd7200", &p);
	m = ss_disk_model_new(&p, TIB_SECTORS);
	c = ss_disk_model_cylinders(m);
	printf("# hdd7200 on 1 TiB: %.0f cylinders\n", c);
	ok(c > 100000 && c < 1000000, "a 1 TiB disk has %.0f cylinders", c);
	ok(near(ss_disk_model_seek_s(m, 1), 0.8e-3, 1e-9), "one cylinder: track-to-track");
	ok(near(ss_disk_model_seek_s(m, (uint64_t)(c / 3)), 8.5e-3, 1e-3),
	   "a third of the stroke: average seek (%.4f ms)", ss_disk_model_seek_s(m, c / 3) * 1e3);
	ok(near(ss_disk_model_seek_s(m, (uint64_t)c), 16e-3, 1e-3), "full stroke (%.4f ms)",
	   ss_disk_model_seek_s(m, c) * 1e3);
	is_int(ss_disk_model_seek_s(m, 0) == 0, 1, "no movement, no seek time");
	for (uint64_t d = 1; d <= (uint64_t)c; d = d * 5 / 4 + 1) {
		double t = ss_disk_model_seek_s(m, d);

		mono &= t > prev;
		prev = t;
	}
	ok(mono, "the curve grows along the whole stroke");
	d0 = floor(c / 3);
	ok(fabs(ss_disk_model_seek_s(m, d0 + 1) - ss_disk_model_seek_s(m, d0)) < 1e-6 &&
	   ss_disk_model_seek_s(m, d0 + 1) > ss_disk_model_seek_s(m, d0),
	   "continuous at the boundary between the regimes");
	ss_disk_model_free(m);

	/* the same through requests: from sector 0 to farther and farther, up to half the
	 * sectors away */
	prev = 0;
	mono = true;
	for (uint64_t to = 1ull << 16; to < TIB_SECTORS; to <<= 1) {
		struct ss_disk_cost a, b;

		m = ss_disk_model_new(&p, TIB_SECTORS);
		a = req(m, 0, 8, SS_RW_READ);
		b = req(m, to, 8, SS_RW_READ);
		mono &= a.seek_s == 0 && b.seek_s > prev && b.rotation_s == 60.0 / 7200 / 2;
		if (to == 1ull << 16)
			d0 = b.seek_s;
		prev = b.seek_s;
		ss_disk_model_free(m);
	}
	ok(mono, "requests farther away seek longer (32 MiB: %.3f ms ... 512 GiB: %.3f ms)",
	   d0 * 1e3, prev * 1e3);
	/* Outer tracks hold twice what inner ones do (200 vs 100 MB/s), so half the sectors
	 * lie on the outer (1 - sqrt(1 - 0.75 / 2)) / 0.5 = 42 % of the stroke: 8.5 ms +
	 * 7.5 ms * (0.42 - 1/3) / (2/3) = 9.47 ms.  Without zoning it would be 10.375 ms. */
	ok(prev > 9.2e-3 && prev < 9.7e-3, "half the sectors away is 42 %% of the stroke on a "
	   "zoned disk: %.3f ms, 9.47 expected", prev * 1e3);
}

static void test_follow_on(void)
{
	struct ss_disk_params p;
	struct ss_disk_model *m;
	struct ss_disk_cost c, w;
	double rev = 60.0 / 7200, rate;
	const uint64_t s = 1000000;

	ss_disk_params_preset("hdd7200", &p);
	m = ss_disk_model_new(&p, TIB_SECTORS);
	rate = ss_disk_model_media_rate(m, s);
	c = req(m, s, 8, SS_RW_READ);
	ok(c.seek_s == 0 && near(c.rotation_s, rev / 2, 1e-12), "first request: no seek, half a "
	   "turn");
	c = req(m, s + 8, 8, SS_RW_READ);
	ok(c.seek_s == 0 && c.rotation_s == 0, "sequential follow-on: no seek, no rotation");
	ok(c.transfer_s > 4096 / rate * 0.85 && c.transfer_s < 4096 / rate,
	   "... only the transfer (%.2f us; %.2f us at the sustained rate, which includes head "
	   "switches)", c.transfer_s * 1e6, 4096 / rate * 1e6);
	ok(near(c.total_s, c.transfer_s + 0.1e-3, 1e-12), "... and the command overhead");
	w = req(m, s + 16, 8, SS_RW_WRITE);
	ok(w.seek_s == 0 && w.rotation_s == 0 && near(w.transfer_s, c.transfer_s, 1e-9),
	   "a sequential write costs the same (no settle without a move)");
	c = req(m, s + 32, 8, SS_RW_READ);
	ok(c.seek_s == 0 && c.rotation_s > 0 && c.rotation_s < 0.1e-3,
	   "8 sectors ahead: the gap turns past (%.2f us), no seek", c.rotation_s * 1e6);
	c = req(m, s + 32, 8, SS_RW_READ);
	ok(c.seek_s == 0 && c.rotation_s > rev * 0.99 && c.rotation_s < rev,
	   "8 sectors behind on the same track: almost a whole turn (%.3f ms)",
	   c.rotation_s * 1e3);
	c = req(m, s + 40 + 65536, 8, SS_RW_READ);
	ok(c.seek_s > 0.8e-3 && c.seek_s < 1.5e-3 && c.rotation_s == rev / 2,
	   "32 MiB ahead: a short seek (%.3f ms) and half a turn", c.seek_s * 1e3);
	req(m, s + 32, 8, SS_RW_READ);               /* back to where the read above started */
	w = req(m, s + 40 + 65536, 8, SS_RW_WRITE);
	ok(near(w.seek_s, c.seek_s + p.write_settle_ms * 1e-3, 1e-12) && w.rotation_s == rev / 2,
	   "the same move for a write adds the write settle (%.3f ms)", w.seek_s * 1e3);
	ss_disk_model_free(m);

	/* An outer track holds 200 MB/s * (8.33 ms + 0.8 ms mean switch) = 3568 sectors: sector
	 * 5000 is on the next surface of cylinder 0. */
	m = ss_disk_model_new(&p, TIB_SECTORS);
	req(m, 0, 8, SS_RW_READ);
	c = req(m, 5000, 8, SS_RW_READ);
	ok(near(c.seek_s, p.head_switch_ms * 1e-3, 1e-12) && c.rotation_s == rev / 2,
	   "another surface of the same cylinder: a head switch and half a turn");
	c = req(m, 5000 + 4 * 3568, 8, SS_RW_READ);
	ok(near(c.seek_s, p.track_to_track_ms * 1e-3, 1e-12), "the same surface of the next "
	   "cylinder: a track-to-track seek");
	{
		struct ss_disk_result r;

		ss_disk_model_result(m, &r);
		is_int(r.seeks, 1, "a head switch is not a seek, a cylinder change is");
	}
	ss_disk_model_free(m);
}

static void test_requests(void)
{
	struct ss_disk_params p;
	struct ss_disk_model *m;
	struct ss_disk_cost c, sum = { 0 };
	struct ss_disk_result r;
	struct ss_event e;

	ss_disk_params_parse_spec("hdd7200,wcache=on", &p, NULL, 0);
	m = ss_disk_model_new(&p, TIB_SECTORS);
	c = req(m, 0, 8, SS_RW_READ);
	ss_disk_cost_add(&sum, &c);
	c = req(m, 1ull << 30, 2048, SS_RW_WRITE);
	ss_disk_cost_add(&sum, &c);
	ok(c.seek_s == 0 && c.rotation_s == 0 && near(c.transfer_s, 1048576 / 550e6, 1e-9),
	   "wcache=on: a write costs the bus transfer (%.3f ms), no positioning",
	   c.transfer_s * 1e3);
	c = req(m, 8, 8, SS_RW_READ);
	ss_disk_cost_add(&sum, &c);
	ok(c.seek_s == 0 && c.rotation_s == 0, "... and leaves the head where it was");
	c = req(m, 1ull << 30, 8, SS_RW_WRITE | SS_RW_FUA);
	ss_disk_cost_add(&sum, &c);
	ok(c.seek_s > 0.01, "a FUA write goes to the media: %.3f ms of seek", c.seek_s * 1e3);
	c = req(m, 0, 1u << 20, SS_RW_DISCARD);
	ss_disk_cost_add(&sum, &c);
	ok(c.total_s == p.overhead_ms * 1e-3 && c.overhead_s == c.total_s,
	   "a discard costs the command overhead only");
	e = ev(SS_EV_COMPLETE, 0, 8, SS_RW_READ);
	is_int(ss_disk_model_feed(m, &e, &c), 0, "a completion is not modelled");
	ok(c.total_s == 0, "... and costs nothing");
	e = ev(SS_EV_ISSUE, 0, 0, SS_RW_FLUSH | SS_RW_PREFLUSH);
	is_int(ss_disk_model_feed(m, &e, NULL), 0, "a flush (no sector) is not modelled");
	e = ev(SS_EV_ISSUE, 0, 8, SS_RW_READ);
	e.dev = SS_MKDEV(8, 16);
	is_int(ss_disk_model_feed(m, &e, &c), -EXDEV, "an event of another device is refused");
	ss_disk_model_result(m, &r);
	is_int(r.requests, 5, "five requests modelled");
	is_int(r.ignored, 2, "two events ignored");
	is_int(r.bytes, 4096 + 1048576 + 4096 + 4096, "bytes moved (a discard moves none)");
	is_int(r.seeks, 1, "one seek (the FUA write)");
	ok(near(r.time.total_s, sum.total_s, 1e-12) && near(r.time.seek_s, sum.seek_s, 1e-12) &&
	   near(r.time.rotation_s, sum.rotation_s, 1e-12) &&
	   near(r.time.transfer_s, sum.transfer_s, 1e-12) &&
	   near(r.time.overhead_s, sum.overhead_s, 1e-12), "the totals are the requests' sum");
	ok(near(r.time.total_s, r.time.seek_s + r.time.rotation_s + r.time.transfer_s +
		r.time.overhead_s, 1e-12), "the total is the sum of its parts");
	ss_disk_model_reset(m);
	ss_disk_model_result(m, &r);
	ok(r.requests == 0 && r.time.total_s == 0, "reset clears the totals");
	c = req(m, 8, 8, SS_RW_READ);
	ok(c.rotation_s == 60.0 / 7200 / 2, "... and the head position");
	ss_disk_model_free(m);

	ss_disk_params_preset("ssd", &p);
	m = ss_disk_model_new(&p, 1000);
	c = req(m, 5000, 8, SS_RW_WRITE);
	ok(c.seek_s == 0 && c.rotation_s == 0 && near(c.overhead_s, 0.03e-3, 1e-12) &&
	   near(c.transfer_s, 4096 / 500e6, 1e-12), "ssd: write latency + bytes / write rate "
	   "(past the device's end is fine)");
	ss_disk_model_free(m);

	errno = 0;
	ok(!ss_disk_model_new(&p, 0) && errno == EINVAL, "a device without sectors is refused");
	p.read_mbs = 0;
	errno = 0;
	ok(!ss_disk_model_new(&p, 1000) && errno == EINVAL, "impossible parameters are refused");
	ss_disk_params_preset("hdd7200", &p);
	m = ss_disk_model_new(&p, 2048);
	ok(m && ss_disk_model_cylinders(m) < 1, "a 1 MiB device fits in a cylinder");
	c = req(m, 0, 8, SS_RW_READ);
	c = req(m, 2040, 8, SS_RW_READ);
	ok(c.total_s > 0 && c.total_s < 20e-3, "... and costs something sensible (%.3f ms)",
	   c.total_s * 1e3);
	ss_disk_model_free(m);
}

/* The worked example of docs/disk-model.md, figures to the microsecond as printed there. */
static void test_doc_example(void)
{
	static const struct { uint64_t sector; uint16_t flags; double seek, rot, xfer, total; } r[] = {
		{ 0, SS_RW_READ, 0, 4.1667, 0.0187, 4.2854 },
		{ 8, SS_RW_READ, 0, 0, 0.0187, 0.1187 },
		{ 1ull << 30, SS_RW_WRITE, 10.4082, 4.1667, 0.0234, 14.6982 },
		{ (1ull << 30) + 64, SS_RW_READ, 0, 0.1635, 0.0234, 0.2869 },
	};
	struct ss_disk_model *m = model("hdd7200", TIB_SECTORS);
	struct ss_disk_result res;

	for (size_t i = 0; i < sizeof(r) / sizeof(r[0]); i++) {
		struct ss_disk_cost c = req(m, r[i].sector, 8, r[i].flags);

		printf("# example %zu: seek %.4f rotation %.4f transfer %.4f overhead %.4f total "
		       "%.4f ms\n", i + 1, c.seek_s * 1e3, c.rotation_s * 1e3, c.transfer_s * 1e3,
		       c.overhead_s * 1e3, c.total_s * 1e3);
		ok(fabs(c.seek_s * 1e3 - r[i].seek) < 5e-5 && fabs(c.rotation_s * 1e3 - r[i].rot) < 5e-5 &&
		   fabs(c.transfer_s * 1e3 - r[i].xfer) < 5e-5 && fabs(c.total_s * 1e3 - r[i].total) < 5e-5,
		   "docs/disk-model.md example, request %zu: %.4f ms", i + 1, r[i].total);
	}
	ss_disk_model_result(m, &res);
	ok(fabs(res.time.total_s * 1e3 - 19.3891) < 5e-5, "... in all %.4f ms, 19.3891 in the "
	   "documentation", res.time.total_s * 1e3);
	ss_disk_model_free(m);
}

/* SPEC is refused with -EINVAL, P untouched, and the one-line message contains WANT. */
static void refused(const char *spec, const char *want)
{
	struct ss_disk_params p, before;
	char err[400] = "", name[64];
	size_t i;
	int ret;

	for (i = 0; spec[i] && i + 1 < sizeof(name); i++)      /* one TAP line whatever the spec */
		name[i] = (unsigned char)spec[i] < 0x20 ? '?' : spec[i];
	name[i] = '\0';
	memset(&p, 0x5a, sizeof(p));
	before = p;
	ret = ss_disk_params_parse_spec(spec, &p, err, sizeof(err));
	ok(ret == -EINVAL && !memcmp(&p, &before, sizeof(p)) && strstr(err, want) &&
	   !strchr(err, '\n'), "'%s' refused: %s", name, err);
}

static void test_parser(void)
{
	struct ss_disk_params p, q;
	char err[400], text[2048], text2[2048];

	for (size_t i = 0; i < 4; i++) {
		ok(!ss_disk_model_parse(names[i], &p, err, sizeof(err)) && !strcmp(p.name, names[i]),
		   "preset %s", names[i]);
		ss_disk_params_format(&p, text, sizeof(text));
		ok(!ss_disk_params_parse_text(text, strlen(text), &q, err, sizeof(err)) &&
		   ss_disk_params_format(&q, text2, sizeof(text2)) > 0 && !strcmp(text, text2),
		   "%s: the formatted parameters read back the same", names[i]);
	}
	ok(!ss_disk_params_parse_spec("hdd7200,wcache=on,rpm=5400,zones=4,avg_seek_ms=9.25", &p,
				      err, sizeof(err)) &&
	   p.wcache && p.rpm == 5400 && p.zones == 4 && p.avg_seek_ms == 9.25 &&
	   p.full_stroke_ms == 16, "overrides change only what they name");
	ok(!ss_disk_params_parse_spec("ssd,read_mbs=3500,write_latency_ms=0.02e0", &p, err,
				      sizeof(err)) && p.read_mbs == 3500 &&
	   p.write_latency_ms == 0.02, "ssd overrides");
	ok(ss_disk_params_format(&p, text, 8) > 8 && strlen(text) == 7,
	   "formatting into a short buffer says how much it needed");

	refused("hdd9000", "(valid: hdd7200, hdd5400, hdd15k, ssd)");
	refused("", "unknown disk model ''");
	refused("hdd\n7200\033[2J", "unknown disk model 'hdd?7200?[2J'");
	refused("hdd7200,rpm=7\n200", "rpm=7?200: valid");
	refused("hdd7200,r\tpm=1", "parameter 'r?pm' for");
	refused("hdd7200,foo=1", "unknown disk parameter 'foo' for a spinning disk (valid: rpm, "
		"heads, zones, outer_mbs");
	refused("hdd7200,read_mbs=500", "no disk parameter 'read_mbs' for a spinning disk");
	refused("ssd,rpm=7200", "(valid: read_latency_ms, write_latency_ms, read_mbs, write_mbs, "
		"ncq)");
	refused("hdd7200,rpm=0", "rpm=0: valid values are numbers from 1000 to 30000");
	refused("hdd7200,rpm=abc", "rpm=abc: valid");
	refused("hdd7200,rpm=7200x", "rpm=7200x: valid");
	refused("hdd7200,rpm=inf", "rpm=inf");
	refused("hdd7200,rpm=nan", "rpm=nan");
	refused("hdd7200,rpm=0x1c20", "rpm=0x1c20");
	refused("hdd7200,rpm= 7200", "rpm= 7200");
	refused("hdd7200,rpm=-7200", "rpm=-7200");
	refused("hdd7200,rpm=", "rpm=: valid");
	refused("hdd7200,rpm=1e99999", "rpm=1e99999");
	refused("hdd7200,heads=2.5", "heads=2.5: valid values are whole numbers from 1 to 64");
	refused("hdd7200,zones=65", "zones=65: valid values are whole numbers from 1 to 64");
	refused("hdd7200,ncq=32", "ncq=32: only 1 is valid (requests are served in issue order; "
		"queue reordering is not modelled)");
	refused("hdd7200,wcache=yes", "wcache=yes: valid values are on and off");
	refused("hdd7200,avg_seek_ms=20", "track_to_track_ms (0.8) <= avg_seek_ms (20) <= "
		"full_stroke_ms (16)");
	refused("hdd7200,inner_mbs=250", "inner_mbs (250) must not exceed outer_mbs (200)");
	refused("hdd7200,rpm", "'rpm': expected key=value");
	refused("hdd7200,=5", "'=5': expected key=value");
	refused("hdd7200,,rpm=5400", "'': expected key=value");
	refused("hdd7200,rpm=5400,", "'': expected key=value");
	refused("hdd7200,model=ssd", "the model is named first");

	/* parameter files */
	{
		static const char good[] = "# a slow laptop disk\n\n  model = hdd5400  # base\n"
					   "rpm=4200\n\twcache = on\n";
		static const struct { const char *text, *want; } bad[] = {
			{ "rpm = 7200\n", "line 1: the first setting must be model = NAME (valid: "
					  "hdd7200, hdd5400, hdd15k, ssd)" },
			{ "model = hdd9000\n", "line 1: unknown disk model 'hdd9000'" },
			{ "#\nmodel = ssd\nrpm = 7200\n", "line 3: no disk parameter 'rpm' for an "
							  "SSD" },
			{ "model=hdd7200\nheads 4\n", "line 2: 'heads 4': expected key = value" },
			{ "model=hdd7200\nmodel=hdd15k\n", "line 2: model may only be the first" },
			{ "model=hdd7200\nzones = 0\n", "line 2: disk parameter zones=0" },
			{ "# nothing\n\n", "no settings" },
			{ "model=hdd7200\nfull_stroke_ms=5\n", "track_to_track_ms (0.8) <= " },
		};
		TP(file, "slow.disk");
		FILE *f = fopen(file, "w");

		ok(!ss_disk_params_parse_text(good, strlen(good), &p, err, sizeof(err)) &&
		   !strcmp(p.name, "hdd5400") && p.rpm == 4200 && p.wcache && p.heads == 2,
		   "a parameter file with comments, blanks and spaces");
		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			int ret = ss_disk_params_parse_text(bad[i].text, strlen(bad[i].text), &p, err,
							    sizeof(err));

			ok(ret == -EINVAL && strstr(err, bad[i].want) && !strchr(err, '\n'),
			   "file refused: %s", err);
		}
		ok(ss_disk_params_parse_text("model=ssd\0x", 11, &p, err, sizeof(err)) == -EINVAL &&
		   strstr(err, "NUL byte"), "a file with a NUL byte is refused");

		fputs("model = hdd15k\nheads = 4\nwcache = maybe\n", f);
		fclose(f);
		ok(ss_disk_model_parse(file, &p, err, sizeof(err)) == -EINVAL &&
		   strstr(err, "slow.disk: line 3: disk parameter wcache=maybe") &&
		   strstr(err, file) == err, "--disk FILE names the file and the line: %s", err);
		f = fopen(file, "w");
		fputs("model = hdd15k\nheads = 4\n", f);
		fclose(f);
		ok(!ss_disk_model_parse(file, &p, err, sizeof(err)) && p.heads == 4 &&
		   p.rpm == 15000, "--disk FILE reads the file");
		ok(ss_disk_model_parse(tpath("missing"), &p, err, sizeof(err)) == -ENOENT &&
		   strstr(err, "(valid: hdd7200, hdd5400, hdd15k, ssd, or a parameter file)"),
		   "neither a preset nor a file: %s", err);
		ok(ss_disk_model_parse(dir, &p, err, sizeof(err)) == -EINVAL &&
		   strstr(err, "must be a regular file"), "a directory is refused: %s", err);
		ok(ss_disk_model_parse("hdd7200,zones=8", &p, err, sizeof(err)) == 0 &&
		   p.zones == 8, "--disk NAME,key=value");
	}
}

int main(void)
{
	if (testdir_make("diskmodel"))
		return 1;
	test_canonical();
	test_seek_curve();
	test_follow_on();
	test_doc_example();
	test_requests();
	test_parser();
	return done_testing();
}
