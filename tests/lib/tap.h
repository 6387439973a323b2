// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A tiny TAP producer for the unit tests: ok()/is_int()/is_str() print one TAP line each and
 * done_testing() prints the plan and returns the exit status (non-zero if anything failed).
 */
#ifndef SS_TAP_H
#define SS_TAP_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct tap_state { int run, failed; };
static struct tap_state tap_state_;

__attribute__((format(printf, 2, 3), unused))
static int ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_state_.run++;
	if (!cond)
		tap_state_.failed++;
	printf("%sok %d - ", cond ? "" : "not ", tap_state_.run);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	return cond;
}

#define is_int(got, want, ...)                                                            \
	({                                                                                \
		long long g_ = (long long)(got), w_ = (long long)(want);                  \
		int r_ = ok(g_ == w_, __VA_ARGS__);                                       \
		if (!r_)                                                                  \
			printf("#   got %lld, want %lld (%s:%d)\n", g_, w_, __FILE__, __LINE__); \
		r_;                                                                       \
	})

#define is_str(got, want, ...)                                                            \
	({                                                                                \
		const char *g_ = (got), *w_ = (want);                                     \
		int r_ = ok(g_ && w_ && !strcmp(g_, w_), __VA_ARGS__);                     \
		if (!r_)                                                                  \
			printf("#   got \"%s\", want \"%s\" (%s:%d)\n", g_ ? g_ : "(null)",   \
			       w_ ? w_ : "(null)", __FILE__, __LINE__);                   \
		r_;                                                                       \
	})

__attribute__((unused))
static void skip_all(const char *why)
{
	printf("1..0 # SKIP %s\n", why);
}

__attribute__((unused))
static int done_testing(void)
{
	printf("1..%d\n", tap_state_.run);
	return tap_state_.failed ? 1 : 0;
}

#endif
