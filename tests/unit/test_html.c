// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The HTML viewer's encoder: the byte encodings (varints, zigzag, base64 against RFC 4648's
 * vectors, JSON strings that cannot close a <script>, deflate round trip), and one trace's
 * column on the hand-made fixture (fixture.h): the request detail decoded back gives each
 * request's issue time, sectors, class, latency and zone as worked out there, the marks hold
 * the flush and the FUA write, the bins add up to the statistics, and the page as a whole
 * holds what it should.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "tap.h"
#include "testdir.h"
#include "fixture.h"
#include "hbuf.h"
#include "html.h"
#include "html_col.h"
#include "palette.h"
#include "panel_registry.h"

static uint64_t get_varint(const unsigned char **p)
{
	uint64_t v = 0;
	int shift = 0;

	do {
		v |= (uint64_t)(**p & 0x7f) << shift;
		shift += 7;
	} while (*(*p)++ & 0x80);
	return v;
}

static uint32_t get_u32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void test_encodings(void)
{
	static const char *const b64[][2] = {
		{ "", "" }, { "f", "Zg==" }, { "fo", "Zm8=" }, { "foo", "Zm9v" },
		{ "foob", "Zm9vYg==" }, { "fooba", "Zm9vYmE=" }, { "foobar", "Zm9vYmFy" },
	};
	struct ss_hbuf b = { 0 };
	unsigned char raw[4096], back[4096];
	uLongf n = sizeof(back);
	const unsigned char *p;

	ss_hbuf_varint(&b, 0);
	ss_hbuf_varint(&b, 127);
	ss_hbuf_varint(&b, 128);
	ss_hbuf_varint(&b, UINT64_MAX);
	ok(b.len == 1 + 1 + 2 + 10 && !memcmp(b.p, "\x00\x7f\x80\x01", 4), "LEB128 varints");
	p = b.p + 4;
	ok(get_varint(&p) == UINT64_MAX, "... the largest round-trips");
	b.len = 0;
	ss_hbuf_svarint(&b, -1);
	ss_hbuf_svarint(&b, 1);
	ss_hbuf_svarint(&b, INT64_MIN);
	p = b.p;
	ok(get_varint(&p) == 1 && get_varint(&p) == 2 && get_varint(&p) == UINT64_MAX,
	   "zigzag: -1 -> 1, 1 -> 2, INT64_MIN -> 2^64-1");
	for (size_t i = 0; i < sizeof(b64) / sizeof(b64[0]); i++) {
		b.len = 0;
		ss_hbuf_base64(&b, (const unsigned char *)b64[i][0], strlen(b64[i][0]));
		ss_hbuf_u8(&b, 0);
		is_str((char *)b.p, b64[i][1], "base64 '%s' (RFC 4648)", b64[i][0]);
	}
	b.len = 0;
	ss_hbuf_json_str(&b, "a\"b\\c</script>\n\x01&");
	ss_hbuf_u8(&b, 0);
	is_str((char *)b.p, "\"a\\\"b\\\\c\\u003c/script\\u003e\\u000a\\u0001\\u0026\"",
	       "a JSON string cannot close its <script> element");
	for (size_t i = 0; i < sizeof(raw); i++)
		raw[i] = (unsigned char)(i * 7 % 13);
	b.len = 0;
	is_int(ss_hbuf_deflate(&b, raw, sizeof(raw)), 0, "deflate");
	ok(uncompress(back, &n, b.p, b.len) == Z_OK && n == sizeof(raw) &&
	   !memcmp(raw, back, sizeof(raw)), "... zlib inflates it back (%zu -> %zu bytes)",
	   sizeof(raw), b.len);
	ok(!ss_hbuf_failed(&b), "no allocation failed");
	ss_hbuf_free(&b);
}

/* Inflate column section S of C into a malloc'd buffer. */
static unsigned char *section(const struct ss_html_col *c, const struct ss_html_section *s,
			      uLongf *len)
{
	unsigned char *out = malloc(64 << 20);

	*len = 64 << 20;
	if (out && uncompress(out, len, c->data.p + s->off, s->len) != Z_OK) {
		free(out);
		return NULL;
	}
	return out;
}

static void test_column(struct ss_trace *t)
{
	/* the fixture's worked-out requests: issue (ms after the 1.0 s capture start), sectors,
	 * class, latency (ms) */
	static const struct { uint64_t ms, sector; uint32_t nr; int cls; uint64_t lat_ms; } want[] = {
		{ 600, 0, 8, SS_CLS_WRITE, 1 },
		{ 700, 1048676, 16, SS_CLS_WRITE, 2 },
		{ 800, 2098160, 8, SS_CLS_JOURNAL, 4 },      /* in the log: journal wins over META */
		{ 1700, 2098168, 8, SS_CLS_JOURNAL, 1 },
		{ 2700, 4194000, 8, SS_CLS_WRITE, 10 },
	};
	const size_t nw = sizeof(want) / sizeof(want[0]);
	struct ss_html_col_opts o = { .t0 = 1 * FX_S, .x_lo = 0, .x_hi = 3 * FX_S, .y_lo = 0,
				      .y_hi = 8388608, .seek_threshold = 128,
				      .bin_width_ns = 10 * FX_MS };
	char err[200] = "";
	struct ss_html_col *c = ss_html_col_new(t, &o, err, sizeof(err));
	unsigned char *raw;
	uLongf len;

	ok(c != NULL, "column for the fixture");
	if (!c)
		return;
	is_int(ss_html_col_run(c, t, err, sizeof(err)), 0, "one pass over it (%s)", err);
	is_int((int)c->requests, (int)nw, "five data requests (the flush is none)");
	is_int((int)c->nr_chunks, 1, "in one chunk");
	raw = c->nr_chunks ? section(c, &c->chunks[0].sec, &len) : NULL;
	ok(raw && get_u32(raw) == nw, "the chunk inflates and says 5");
	if (raw && get_u32(raw) == nw) {
		const unsigned char *col[11];
		uint64_t ts = 0, end = 0;
		size_t off = 4 + 4 * 11;
		int good = 1;

		for (int k = 0; k < 11; k++) {
			col[k] = raw + off;
			off += get_u32(raw + 4 + 4 * k);
		}
		ok(off == len, "... its eleven columns fill it exactly (%zu of %lu bytes)", off,
		   (unsigned long)len);
		for (size_t i = 0; i < nw; i++) {
			uint64_t zz, sector, nr, cls, lat1, zone1, proc, file, group;

			ts += get_varint(&col[0]);
			zz = get_varint(&col[1]);
			sector = end + (uint64_t)((zz & 1) ? -(int64_t)((zz + 1) / 2) : (int64_t)(zz / 2));
			nr = get_varint(&col[2]);
			(void)get_varint(&col[3]);
			cls = get_varint(&col[4]);
			lat1 = get_varint(&col[5]);
			(void)get_varint(&col[6]);
			zone1 = get_varint(&col[7]);
			proc = get_varint(&col[8]);
			file = get_varint(&col[9]);
			group = get_varint(&col[10]);
			end = sector + nr;
			const struct ss_rec_zone *z = ss_trace_zone_at(t, FX_DEV, sector);
			long wz = z ? (long)(z - t->zones) : -1;

			if (ts != want[i].ms * FX_MS || sector != want[i].sector || nr != want[i].nr ||
			    (int)cls != want[i].cls || lat1 != want[i].lat_ms * FX_MS + 1 ||
			    (long)zone1 - 1 != wz || proc != 0 || file != 0 || group != 0) {
				good = 0;
				printf("# request %zu: ts %llu sector %llu+%llu class %llu lat1 %llu zone %lld "
				       "process %llu\n", i, (unsigned long long)ts,
				       (unsigned long long)sector, (unsigned long long)nr,
				       (unsigned long long)cls, (unsigned long long)lat1,
				       (long long)zone1 - 1, (unsigned long long)proc);
			}
		}
		ok(good, "each request's time, sectors, class, latency, zone, process (the "
		   "fixture's one unnamed pid 0, issuer), file (none: no file map) and group (0: "
		   "coloured by class) decode as worked out");
		ok(c->nr_procs == 1 && c->procs[0].pid == 0 && c->procs[0].unknown &&
		   !strcmp(c->procs[0].name, "unknown") && c->submitted == 0,
		   "... one process: pid 0, unknown, issuing (%zu)", c->nr_procs);
	} else {
		skip(3, "no chunk");
	}
	free(raw);
	raw = section(c, &c->marks, &len);
	ok(raw && c->nr_marks == 2 && len == 20, "two marks (%llu)", (unsigned long long)c->nr_marks);
	if (raw && len == 20) {
		double t0, t1;

		memcpy(&t0, raw, 8);
		memcpy(&t1, raw + 8, 8);
		ok(t0 == 1600.0 * FX_MS && raw[16] == 1 && t1 == 1700.0 * FX_MS && raw[17] == 2 &&
		   raw[18] == 0 && raw[19] == 0,
		   "... the flush at 1.6 s and the FUA write at 1.7 s, both on the one device");
	} else {
		skip(1, "no marks");
	}
	free(raw);
	raw = section(c, &c->bins, &len);
	if (raw) {
		const struct ss_bins *b = ss_stats_bins(c->stats);
		double sum = 0, v;

		for (size_t i = 0; i < 3 * b->n; i++) {   /* reads, writes, discards */
			memcpy(&v, raw + 8 * i, 8);
			sum += v;
		}
		ok(len == SS_HTML_BIN_FIELDS * 8 * b->n && sum == (double)ss_stats_total(c->stats)->ios,
		   "the bins (%zu) add up to the statistics' I/Os (%.0f)", b->n, sum);
	} else {
		ok(0, "bins inflate");
	}
	free(raw);
	ss_html_col_free(c);
}

/* --disk: the bins' model fields hold each bin's modelled time by part, adding up to the
 * statistics' modelled total (report --disk's). */
static void test_column_disk(struct ss_trace *t)
{
	struct ss_disk_params dp;
	struct ss_html_col_opts o = { .t0 = 1 * FX_S, .x_lo = 0, .x_hi = 3 * FX_S, .y_lo = 0,
				      .y_hi = 8388608, .seek_threshold = 128,
				      .bin_width_ns = 10 * FX_MS, .disk = &dp };
	char err[200] = "";
	struct ss_html_col *c;
	unsigned char *raw;
	uLongf len;

	is_int(ss_disk_params_preset("hdd7200", &dp), 0, "the hdd7200 model");
	c = ss_html_col_new(t, &o, err, sizeof(err));
	ok(c != NULL, "a column with the disk model (%s)", err);
	if (!c)
		return;
	is_int(ss_html_col_run(c, t, err, sizeof(err)), 0, "one pass (%s)", err);
	raw = section(c, &c->bins, &len);
	if (raw) {
		const struct ss_bins *b = ss_stats_bins(c->stats);
		const struct ss_disk_cost *tot = &ss_stats_total(c->stats)->model;
		double part[4] = { 0 }, v;

		for (int k = 0; k < 4; k++)
			for (size_t i = 0; i < b->n; i++) {
				memcpy(&v, raw + 8 * ((size_t)(SS_HTML_BIN_FIELDS - 4 + k) * b->n + i), 8);
				part[k] += v;
			}
		ok(tot->total_s > 0 && fabs(part[0] - tot->seek_s) < 1e-9 &&
		   fabs(part[1] - tot->rotation_s) < 1e-9 && fabs(part[2] - tot->transfer_s) < 1e-9 &&
		   fabs(part[3] - tot->overhead_s) < 1e-9,
		   "the model fields add up to the modelled parts (%.6f s seek, %.6f s total)",
		   part[0], tot->total_s);
	} else {
		ok(0, "bins inflate");
	}
	free(raw);
	ss_html_col_free(c);
}

/* Every class the static io panel draws is in the page too: a write, a discard and a
 * write-zeroes request become three requests of the detail, and their classes are in the
 * cells (a discard was once left out of the page). */
static void test_discards(void)
{
	const uint16_t W = SS_RW_WRITE;
	struct ss_event ev[] = {
		fx_ev(1100 * FX_MS, SS_EV_ISSUE, 8192, 8, W),
		fx_ev(1101 * FX_MS, SS_EV_COMPLETE, 8192, 8, W),
		fx_ev(1200 * FX_MS, SS_EV_ISSUE, 1048576, 65536, SS_RW_DISCARD),
		fx_ev(1210 * FX_MS, SS_EV_COMPLETE, 1048576, 65536, SS_RW_DISCARD),
		fx_ev(1300 * FX_MS, SS_EV_ISSUE, 3145728, 2048, SS_RW_NONE),
		fx_ev(1305 * FX_MS, SS_EV_COMPLETE, 3145728, 2048, SS_RW_NONE),
	};
	struct ss_rec_device d = { .dev = FX_DEV, .major = 7, .minor = 3, .nr_sectors = 4194304,
				   .logical_block_size = 512, .physical_block_size = 4096 };
	struct ss_html_col_opts o = { .t0 = 1 * FX_S, .x_lo = 0, .x_hi = 1 * FX_S, .y_lo = 0,
				      .y_hi = 4194304, .seek_threshold = 128,
				      .bin_width_ns = 10 * FX_MS };
	struct ss_writer *w = ss_writer_open(tpath("disc.sst"), SS_OUT_INPLACE, NULL, 0);
	struct ss_html_col *c = NULL;
	struct ss_trace *t = NULL;
	char err[200] = "";
	unsigned char *raw = NULL, bits = 0;
	uLongf len = 0;

	strcpy(d.name, "loop3");
	ok(w && !ss_writer_device(w, &d) && !ss_writer_events(w, ev, 6) && !ss_writer_close(w),
	   "a trace with a write, a discard and a write-zeroes request");
	if ((t = ss_trace_open(tpath("disc.sst"), err, sizeof(err))) &&
	    (c = ss_html_col_new(t, &o, err, sizeof(err))) && !ss_html_col_run(c, t, err, sizeof(err)))
		raw = section(c, &c->cells[0][0], &len);
	ok(c && c->requests == 3, "... all three in the detail (%llu; %s)",
	   c ? (unsigned long long)c->requests : 0ull, err);
	for (uLongf i = 0; raw && i < (uLongf)SS_HTML_BASE_W * SS_HTML_BASE_H && i < len; i++)
		bits |= raw[i];
	is_int(bits, SS_CLS_BIT(SS_CLS_WRITE) | SS_CLS_BIT(SS_CLS_DISCARD) | SS_CLS_BIT(SS_CLS_OTHER),
	       "... and their classes in the cells: data write, discard, write-zeroes");
	free(raw);
	ss_html_col_free(c);
	ss_trace_close(t);
}

static void test_page(struct ss_trace *t)
{
	struct ss_graph_opts g;
	struct ss_html_opts o = { .g = &g };
	struct ss_html_result r;
	struct ss_trace *tr[1] = { t };
	const char *labels[1] = { "fixture <1>" };
	char err[300] = "", *page;
	FILE *f;
	long n;

	ss_graph_opts_init(&g);
	ss_panels_set_default(&g);
	is_int(ss_html_write(tpath("fx.html"), &o, tr, labels, 1, &r, err, sizeof(err)), 0,
	       "the page (%s)", err);
	ok(r.requests == 5 && r.dropped == 0, "... with the five requests, none left out");
	f = fopen(tpath("fx.html"), "r");
	page = calloc(1, 1 << 20);
	n = f && page ? (long)fread(page, 1, (1 << 20) - 1, f) : 0;
	ok(n > 0 && (size_t)n == r.bytes, "... %ld bytes as reported", n);
	ok(page && strstr(page, "\"label\":\"fixture \\u003c1\\u003e\"") &&
	   strstr(page, "<script type=\"application/octet-stream\" id=\"ss-data-0\">"),
	   "... the label escaped, the data inline");
	if (f)
		fclose(f);
	free(page);
	g.align = "nosuchphase";
	is_int(ss_html_write(tpath("fx2.html"), &o, tr, labels, 1, &r, err, sizeof(err)), -ENOENT,
	       "--align a missing phase: -ENOENT");
	ok(strstr(err, "fixture <1> has no phase \"nosuchphase\"") != NULL, "... saying so: %s", err);
	ok(access(tpath("fx2.html"), F_OK) != 0, "... and writing nothing");
}

int main(void)
{
	struct ss_trace *t;
	char err[200];

	plan(41);
	test_encodings();
	if (testdir_make("html"))
		return 1;
	is_int(fx_write(tpath("fx.sst"), 0, 1), 0, "fixture written");
	t = ss_trace_open(tpath("fx.sst"), err, sizeof(err));
	ok(t != NULL, "fixture opens");
	if (!t)
		return done_testing();
	test_column(t);
	test_column_disk(t);
	test_page(t);
	ss_trace_close(t);
	test_discards();
	return done_testing();
}
