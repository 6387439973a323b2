// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Tick marks and display units for plot axes (after fio's tickmarks.c): ticks sit on multiples
 * of a 1-2-5 step, so an axis reads 0, 2000, 4000, 6000 and never 6906, 13812.  Pure functions:
 * no cairo, no allocation.
 */
#ifndef SS_TICKS_H
#define SS_TICKS_H

#include <stddef.h>

struct ss_ticks {
	double first;       /* first tick, >= lo */
	double step;        /* 1, 2 or 5 times a power of ten */
	int count;          /* ticks inside [lo, hi] */
	int decimals;       /* digits after the point the labels need */
};

/*
 * Ticks covering [lo, hi] with at most max_ticks (>= 2) ticks, using the smallest 1-2-5 step
 * that keeps the count within that bound.  Returns 0, or -EINVAL for an empty or non-finite
 * range or max_ticks < 2.
 */
int ss_ticks_compute(double lo, double hi, int max_ticks, struct ss_ticks *t);
/* The i-th tick value (0 <= i < t->count); exact zero rather than -0 or 1e-17. */
double ss_ticks_value(const struct ss_ticks *t, int i);
/*
 * Label for tick value v: fixed-point with t->decimals digits; steps of 1000 and more are
 * written with k/M/G suffixes ("20k", "1.5M").  Returns what snprintf returns.
 */
int ss_ticks_format(const struct ss_ticks *t, double v, char *buf, size_t len);
/* The 1-2-5 number nearest to x (> 0) from above (ceil) or nearest overall. */
double ss_nice_ceil(double x);
double ss_nice_round(double x);

/* A display unit: value shown = raw value / div, with the name after it ("s", "GiB"). */
struct ss_unit {
	const char *name;
	double div;
};

enum ss_offset_units { SS_UNITS_AUTO, SS_UNITS_SECTORS, SS_UNITS_MIB, SS_UNITS_GIB };

/* Unit for a time span of range_ns nanoseconds: s, ms or µs (µs spelled "us" for fonts). */
struct ss_unit ss_unit_time(double range_ns);
/* Unit for device offsets spanning range_sectors 512-byte sectors. */
struct ss_unit ss_unit_offset(enum ss_offset_units u, double range_sectors);
/* Parse "auto", "sectors", "mib", "gib"; -EINVAL otherwise. */
int ss_offset_units_parse(const char *s, enum ss_offset_units *u);

#endif
