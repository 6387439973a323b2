// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_cli.c's selectors (the input's first byte) and its value parsers checked one by one
 * against references written the slow, obvious way (check_values): plot's offsets and ranges,
 * sizes, seek thresholds, rolling windows, panels and units; record's, convert's, mkarchive's
 * and movie's values.  Included by fuzz_cli.c only.
 */
#ifndef SS_FUZZ_CLI_VALUES_H
#define SS_FUZZ_CLI_VALUES_H

#include <ctype.h>
#include <math.h>
#include <strings.h>

#include "convert_args.h"
#include "fuzz.h"
#include "mkarchive_args.h"
#include "movie_args.h"
#include "panel_registry.h"
#include "plot_args.h"
#include "record_args.h"
#include "render_args.h"
#include "surface.h"
#include "tracecap.h"

enum selector {
	SEL_RWBS, SEL_FSYNC, SEL_PATH, SEL_REPORT, SEL_DUMP,
	SEL_RECORD, SEL_PLOT, SEL_X_RANGE, SEL_Y_RANGE, SEL_OFFSET, SEL_SIZE, SEL_SEEK_THRESHOLD,
	SEL_ROLLING, SEL_PANELS, SEL_UNITS, SEL_RECORD_VALUES,
	SEL_CONVERT, SEL_MKARCHIVE, SEL_CONVERT_VALUES, SEL_MKARCHIVE_VALUES,
	SEL_MOVIE, SEL_MOVIE_VALUES,
	NR_SELECTORS
};

/* ---- value parsers against references --------------------------------------------------- */

/*
 * The offset grammar the slow way: every digit into one wide integer N with F digits after the
 * point, then sectors = N * 2^e / 10^F rounded half up, in one division.  N stays below 2^95
 * for anything below 2^64 sectors (at most 9 fraction digits), so N << 32 cannot overflow.
 */
static int ref_offset(const char *s, uint64_t *out)
{
	static const char *const units = "kmgt";
	unsigned __int128 n = 0, den = 1, v;
	const unsigned __int128 big = (unsigned __int128)1 << 95;
	int frac = -1, whole = 0, e = 0;
	bool huge = false;
	const char *p;

	for (p = s; isdigit((unsigned char)*p) || *p == '.'; p++) {
		if (*p == '.') {
			if (frac >= 0 || !whole)
				return -EINVAL;
			frac = 0;
			continue;
		}
		if (n >= big)
			huge = true;
		else
			n = n * 10 + (unsigned)(*p - '0');
		if (frac >= 0)
			frac++, den *= 10;
		else
			whole++;
		if (frac > SS_OPTARG_MAX_FRACTION_DIGITS)
			return -EINVAL;
	}
	if (!whole)
		return -EINVAL;
	if (*p) {
		const char *u = strchr(units, tolower((unsigned char)*p));

		if (!u || !*u)
			return -EINVAL;
		e = 1 + 10 * (int)(u - units);
		if (p[1] && strcasecmp(p + 1, "b") && strcasecmp(p + 1, "ib"))
			return -EINVAL;
	}
	if (huge)
		return -EINVAL;
	v = ((n << e) * 2 + den) / (2 * den);
	if (v > UINT64_MAX)
		return -EINVAL;
	*out = (uint64_t)v;
	return 0;
}

/* "A:B" split at the first colon into two strings (the caller frees *a); false without one. */
static bool split_colon(const char *s, char **a, const char **b)
{
	const char *colon = strchr(s, ':');

	if (!colon || !(*a = strndup(s, (size_t)(colon - s))))
		return false;
	*b = colon + 1;
	return true;
}

/* Decimal digits only, within MIN..MAX: the reference for the whole-number options. */
static int ref_uint(const char *s, size_t len, uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned __int128 v = 0;

	if (!len || strspn(s, "0123456789") < len)
		return -EINVAL;
	for (size_t i = 0; i < len; i++)
		if ((v = v * 10 + (unsigned)(s[i] - '0')) > max)
			return -EINVAL;
	if (v < min)
		return -EINVAL;
	*out = (uint64_t)v;
	return 0;
}

static void check_values(enum selector sel, const char *s)
{
	char err[200] = "", *a = NULL;
	const char *b;

	switch (sel) {
	case SEL_X_RANGE: {
		double lo = -1, hi = -1, rlo, rhi;
		int ret = ss_plot_parse_x_range(s, &lo, &hi), ref = -EINVAL;
		char *e1, *e2;

		if (split_colon(s, &a, &b) && *a && *b) {
			rlo = strtod(a, &e1);
			rhi = strtod(b, &e2);
			if (!*e1 && !*e2 && rlo >= 0 && rhi > rlo && rhi <= 1e9)
				ref = 0;
		}
		FUZZ_ASSERT(ret == ref, "x-range '%s': %d, reference %d", s, ret, ref);
		if (ret == 0)
			FUZZ_ASSERT(isfinite(lo) && isfinite(hi) && lo >= 0 && lo < hi &&
				    hi <= SS_PLOT_MAX_X_S && lo == rlo && hi == rhi,
				    "x-range '%s' -> %g:%g", s, lo, hi);
		else
			FUZZ_ASSERT(lo == -1 && hi == -1, "x-range '%s': touched on failure", s);
		break;
	}
	case SEL_Y_RANGE: {
		uint64_t lo = 7, hi = 7, rlo = 0, rhi = 0;
		int ret = ss_plot_parse_y_range(s, &lo, &hi), ref = -EINVAL;

		if (split_colon(s, &a, &b) && !ref_offset(a, &rlo) && !ref_offset(b, &rhi) &&
		    rlo < rhi)
			ref = 0;
		FUZZ_ASSERT(ret == ref, "y-range '%s': %d, reference %d", s, ret, ref);
		FUZZ_ASSERT(ret ? lo == 7 && hi == 7 : lo == rlo && hi == rhi && lo < hi,
			    "y-range '%s' -> %llu:%llu, reference %llu:%llu", s,
			    (unsigned long long)lo, (unsigned long long)hi, (unsigned long long)rlo,
			    (unsigned long long)rhi);
		break;
	}
	case SEL_OFFSET: {
		uint64_t v = 7, r = 0;
		int ret = ss_optarg_sectors(s, strlen(s), UINT64_MAX, &v), ref = ref_offset(s, &r);

		FUZZ_ASSERT(!ret == !ref, "offset '%s': %d, reference %d", s, ret, ref);
		FUZZ_ASSERT(ret ? v == 7 : v == r, "offset '%s' -> %llu, reference %llu", s,
			    (unsigned long long)v, (unsigned long long)r);
		break;
	}
	case SEL_SIZE: {
		int w = 1, h = 1, ret = ss_plot_parse_size(s, &w, &h), ref = -EINVAL;
		size_t n = strspn(s, "0123456789");
		uint64_t rw = 0, rh = 0;

		if (s[n] == 'x' &&
		    !ref_uint(s, n, SS_PLOT_MIN_WIDTH, SS_PLOT_MAX_SIDE, &rw) &&
		    !ref_uint(s + n + 1, strlen(s + n + 1), SS_PLOT_MIN_HEIGHT, SS_PLOT_MAX_SIDE, &rh))
			ref = 0;
		FUZZ_ASSERT(ret == ref, "size '%s': %d, reference %d", s, ret, ref);
		FUZZ_ASSERT(ret ? w == 1 && h == 1 : (uint64_t)w == rw && (uint64_t)h == rh,
			    "size '%s' -> %dx%d", s, w, h);
		break;
	}
	case SEL_SEEK_THRESHOLD: {
		uint64_t v = 0, r = 0;
		int ret = ss_parse_seek_threshold(s, &v);
		int ref = ref_offset(s, &r);

		if (!ref && r > SS_SEEK_THRESHOLD_MAX)
			ref = -EINVAL;
		if (ref)
			r = 0;

		FUZZ_ASSERT(ret == ref && v == r, "seek threshold '%s': %d -> %llu, reference %d", s,
			    ret, (unsigned long long)v, ref);
		break;
	}
	case SEL_ROLLING: {
		unsigned v = 0;
		uint64_t r = 0;
		int ret = ss_plot_parse_rolling(s, &v);
		int ref = ref_uint(s, strlen(s), 0, SS_PLOT_MAX_ROLLING, &r);

		FUZZ_ASSERT(ret == ref && v == r, "rolling '%s': %d -> %u, reference %d", s, ret, v,
			    ref);
		break;
	}
	case SEL_PANELS: {
		struct ss_graph_opts g;

		ss_graph_opts_init(&g);
		if (ss_panels_parse(&g, s, err, sizeof(err))) {
			FUZZ_ASSERT(err[0], "panels '%s': refused without a reason", s);
			break;
		}
		FUZZ_ASSERT(g.nr_panels >= 1 && g.nr_panels <= SS_GRAPH_MAX_PANELS,
			    "panels '%s': %d", s, g.nr_panels);
		for (int i = 0; i < g.nr_panels; i++) {
			FUZZ_ASSERT(strstr(s, g.panels[i]->name), "panels '%s': '%s' not asked for", s,
				    g.panels[i]->name);
			for (int j = 0; j < i; j++)
				FUZZ_ASSERT(g.panels[i] != g.panels[j], "panels '%s': twice", s);
		}
		break;
	}
	case SEL_UNITS: {
		static const char *const names[] = { "auto", "sectors", "mib", "gib" };
		enum ss_offset_units u = SS_UNITS_AUTO;

		if (ss_offset_units_parse(s, &u) == 0)
			FUZZ_ASSERT((unsigned)u <= SS_UNITS_GIB && !strcasecmp(s, names[u]),
				    "units '%s' -> %d", s, u);
		break;
	}
	case SEL_RECORD_VALUES: {
		size_t kb = 0;
		unsigned mask = 0, rep = 0;
		uint64_t r = 0;
		int ret = ss_record_parse_buffer_kb(s, &kb);
		int ref = ref_uint(s, strlen(s), SS_RECORD_MIN_BUFFER_KB, SS_RECORD_MAX_BUFFER_KB, &r);

		FUZZ_ASSERT(ret == ref && kb == r, "-b '%s': %d -> %zu, reference %d", s, ret, kb, ref);
		ret = ss_record_parse_repeat(s, &rep);
		ref = ref_uint(s, strlen(s), 1, SS_UNTAR_MAX_REPEAT, &r);
		FUZZ_ASSERT(ret == ref && (ret || rep == r), "--repeat '%s': %d -> %u, reference %d",
			    s, ret, rep, ref);
		if (ss_record_parse_events(s, &mask) == 0)
			FUZZ_ASSERT(mask && !(mask & ~(SS_CAP_INSERT | SS_CAP_QUEUE)) &&
				    !!(mask & SS_CAP_INSERT) == !!strstr(s, "insert") &&
				    !!(mask & SS_CAP_QUEUE) == !!strstr(s, "queue"),
				    "-e '%s' -> %#x", s, mask);
		else
			FUZZ_ASSERT(mask == 0, "-e '%s': touched on failure", s);
		break;
	}
	case SEL_CONVERT_VALUES: {
		uint32_t dev = 7;
		uint64_t ma = 0, mi = 0;
		size_t n = strspn(s, "0123456789");
		int ret = ss_convert_parse_dev(s, &dev), ref = -EINVAL;

		if ((s[n] == ':' || s[n] == ',') && !ref_uint(s, n, 0, 0xfff, &ma) &&
		    !ref_uint(s + n + 1, strlen(s + n + 1), 0, 0xfffff, &mi))
			ref = 0;
		FUZZ_ASSERT(ret == ref, "--fs-dev '%s': %d, reference %d", s, ret, ref);
		FUZZ_ASSERT(ret ? dev == 7 : SS_DEV_MAJOR(dev) == ma && SS_DEV_MINOR(dev) == mi,
			    "--fs-dev '%s' -> %u:%u", s, SS_DEV_MAJOR(dev), SS_DEV_MINOR(dev));
		break;
	}
	case SEL_MKARCHIVE_VALUES: {
		unsigned n = 0;
		uint64_t r = 0;
		double f = -1, rf;
		char *end;
		int ret = ss_mkarchive_parse_count(s, SS_GENTREE_MAX_DIRS, &n);
		int ref = ref_uint(s, strlen(s), 1, SS_GENTREE_MAX_DIRS, &r);

		FUZZ_ASSERT(ret == ref && n == r, "count '%s': %d -> %u, reference %d", s, ret, n,
			    ref);
		ret = ss_mkarchive_parse_scale(s, &f);
		rf = strtod(s, &end);
		if (ret)
			FUZZ_ASSERT(f == -1, "scale '%s': touched on failure", s);
		else
			FUZZ_ASSERT(end != s && !*end && f == rf && isfinite(f) && f > 0 &&
				    f <= SS_GENTREE_MAX_SCALE, "scale '%s' -> %g", s, f);
		break;
	}
	case SEL_MOVIE_VALUES: {
		/* --size: plot's WxH, even and within the encoder's limits; --length and --speed:
		 * digits with at most one point, what strtod reads of them */
		int w = -1, h = -1, pw, ph;
		double v = -1, r = -1;
		size_t n = strspn(s, "0123456789.");
		bool plain = *s && !s[n] && strchr(s, '.') == strrchr(s, '.') && strcmp(s, ".");
		int ret = ss_movie_parse_size(s, &w, &h);

		if (ss_plot_parse_size(s, &pw, &ph) == 0 && pw >= SS_MOVIE_MIN_WIDTH &&
		    ph >= SS_MOVIE_MIN_HEIGHT && pw <= SS_MOVIE_MAX_SIDE && ph <= SS_MOVIE_MAX_SIDE &&
		    !(pw % 2) && !(ph % 2))
			FUZZ_ASSERT(ret == 0 && w == pw && h == ph, "movie --size '%s'", s);
		else
			FUZZ_ASSERT(ret == -EINVAL && w == -1 && h == -1, "movie --size '%s': %d", s,
				    ret);
		if (plain)
			r = strtod(s, NULL);
		ret = ss_movie_parse_length(s, &v);
		FUZZ_ASSERT(plain && r > 0 && r <= SS_MOVIE_MAX_LENGTH_S ? ret == 0 && v == r
			    : ret == -EINVAL && v == -1, "movie --length '%s': %d -> %g", s, ret, v);
		v = -1;
		ret = ss_movie_parse_speed(s, &v);
		FUZZ_ASSERT(plain && r > 0 && r <= 1e9 ? ret == 0 && v == r
			    : ret == -EINVAL && v == -1, "movie --speed '%s': %d -> %g", s, ret, v);
		break;
	}
	default:
		break;
	}
	free(a);
}

#endif
