// SPDX-License-Identifier: GPL-2.0-or-later
/* 1-2-5 tick computation and unit choice for axes; see ticks.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ticks.h"

static const double mantissas[] = { 1, 2, 5 };

double ss_nice_ceil(double x)
{
	double p;

	if (!(x > 0) || !isfinite(x))
		return 1;
	p = pow(10, floor(log10(x)));
	for (size_t i = 0; i < 3; i++)
		if (mantissas[i] * p >= x * (1 - 1e-9))
			return mantissas[i] * p;
	return 10 * p;
}

double ss_nice_round(double x)
{
	double p, best = 1, bd = INFINITY;

	if (!(x > 0) || !isfinite(x))
		return 1;
	p = pow(10, floor(log10(x)));
	for (int k = 0; k < 2; k++, p *= 10)
		for (size_t i = 0; i < 3; i++) {
			double c = mantissas[i] * p, d = fabs(log(c / x));

			if (d < bd) {
				bd = d;
				best = c;
			}
		}
	return best;
}

static int count_ticks(double lo, double hi, double step, double *first)
{
	double a = ceil(lo / step - 1e-9), b = floor(hi / step + 1e-9);

	*first = a * step;
	return b < a ? 0 : (int)(b - a) + 1;
}

int ss_ticks_compute(double lo, double hi, int max_ticks, struct ss_ticks *t)
{
	double step, first = 0;
	int n = 0;

	if (!isfinite(lo) || !isfinite(hi) || !(hi > lo) || max_ticks < 2)
		return -EINVAL;
	/* start below the answer and walk up the 1-2-5 ladder */
	step = ss_nice_ceil((hi - lo) / (max_ticks * 2));
	for (int guard = 0; guard < 64; guard++) {
		n = count_ticks(lo, hi, step, &first);
		if (n <= max_ticks)
			break;
		step = ss_nice_ceil(step * 1.5);
	}
	t->step = step;
	t->first = first;
	t->count = n;
	t->decimals = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
	return 0;
}

double ss_ticks_value(const struct ss_ticks *t, int i)
{
	double v = t->first + i * t->step;

	return fabs(v) < t->step * 1e-6 ? 0.0 : v;
}

int ss_ticks_format(const struct ss_ticks *t, double v, char *buf, size_t len)
{
	static const struct { double div; const char *sfx; } sfx[] = {
		{ 1e9, "G" }, { 1e6, "M" }, { 1e3, "k" },
	};

	for (size_t i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++) {
		if (t->step >= sfx[i].div) {
			double s = t->step / sfx[i].div, x = v / sfx[i].div;
			int dec = (fabs(s - round(s)) < 1e-9) ? 0 : 1;

			/* a 1-2-5 step ≥ div is an integer multiple, except 2.5-ish never occurs */
			if (dec == 0 && fabs(x - round(x)) > 1e-9)
				dec = 1;
			return snprintf(buf, len, "%.*f%s", dec, x, v == 0 ? "" : sfx[i].sfx);
		}
	}
	return snprintf(buf, len, "%.*f", t->decimals, v);
}

struct ss_unit ss_unit_time(double range_ns)
{
	if (range_ns >= 2e9)
		return (struct ss_unit){ "s", 1e9 };
	if (range_ns >= 2e6)
		return (struct ss_unit){ "ms", 1e6 };
	return (struct ss_unit){ "us", 1e3 };
}

struct ss_unit ss_unit_offset(enum ss_offset_units u, double range_sectors)
{
	const struct ss_unit sectors = { "sectors", 1 }, mib = { "MiB", 2048 },
			     gib = { "GiB", 2048.0 * 1024 };

	switch (u) {
	case SS_UNITS_SECTORS: return sectors;
	case SS_UNITS_MIB: return mib;
	case SS_UNITS_GIB: return gib;
	case SS_UNITS_AUTO:
	default:
		if (range_sectors >= 2 * gib.div)
			return gib;
		if (range_sectors >= 2 * mib.div)
			return mib;
		return sectors;
	}
}

int ss_offset_units_parse(const char *s, enum ss_offset_units *u)
{
	static const char *const names[] = { "auto", "sectors", "mib", "gib" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcasecmp(s, names[i])) {
			*u = (enum ss_offset_units)i;
			return 0;
		}
	return -EINVAL;
}
