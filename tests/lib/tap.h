// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The TAP producer of the C tests (tests/lib/tap.sh is the shell one): ok()/is_int()/is_str()
 * print one TAP line each; done_testing() prints the plan (unless plan() announced it up front)
 * and returns the exit status, non-zero if anything failed.  tests/run-tests fails a program
 * whose plan does not match the assertions it printed, so a crash half-way cannot pass.
 *
 * Skips come in two kinds.  skip() is for a check that does not apply here (e.g. one that only
 * means something when not root).  need()/skip_need() are for a missing prerequisite that CI
 * provides (root, python3, a tool that tests/install-deps.sh installs): their SKIP lines say
 * "prerequisite:", and tests/run-tests counts them as failures under CI=true.
 */
#ifndef SS_TAP_H
#define SS_TAP_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct tap_state { int run, failed, planned; };
static struct tap_state tap_state_;

__attribute__((format(printf, 2, 0), unused))
static int tap_line(int cond, const char *fmt, va_list ap)
{
	tap_state_.run++;
	if (!cond)
		tap_state_.failed++;
	printf("%sok %d - ", cond ? "" : "not ", tap_state_.run);
	vprintf(fmt, ap);
	printf("\n");
	fflush(stdout);
	return cond;
}

__attribute__((format(printf, 2, 3), unused))
static int ok(int cond, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = tap_line(cond, fmt, ap);
	va_end(ap);
	return r;
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

/* Announce N assertions before running them (optional; done_testing() then prints no plan). */
__attribute__((unused))
static void plan(int n)
{
	printf("1..%d\n", n);
	tap_state_.planned = 1;
}

/* N assertions that do not apply here, each printed as a passing "# SKIP WHY". */
__attribute__((format(printf, 2, 3), unused))
static void skip(int n, const char *fmt, ...)
{
	char why[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	while (n-- > 0)
		ok(1, "# SKIP %s", why);
}

/* The whole program does not apply here: the plan "1..0 # SKIP WHY"; return 0 from main. */
__attribute__((unused))
static void skip_all(const char *why)
{
	printf("1..0 # SKIP %s\n", why);
}

/* Prerequisites: what CI provides, so a missing one is a failure under CI=true. */
enum tap_need { NEED_ROOT, NEED_PYTHON3, NEED_CMD };

/* Whether the prerequisite is there (NAME: the command for NEED_CMD, else unused). */
__attribute__((unused))
static int have(enum tap_need what, const char *name)
{
	char cmd[256];

	switch (what) {
	case NEED_ROOT:
		return geteuid() == 0;
	case NEED_PYTHON3:
		name = "python3";
		break;
	case NEED_CMD:
		break;
	}
	if (!name || strpbrk(name, " '\"\\$`;|&<>"))
		return 0;
	snprintf(cmd, sizeof(cmd), "command -v '%s' >/dev/null 2>&1", name);
	return system(cmd) == 0;
}

__attribute__((unused))
static const char *tap_need_name(enum tap_need what, const char *name)
{
	return what == NEED_ROOT ? "root" : what == NEED_PYTHON3 ? "python3" : name;
}

/* N assertions skipped for want of a prerequisite: marked so that CI=true fails them. */
__attribute__((unused))
static void skip_need(int n, enum tap_need what, const char *name)
{
	skip(n, "prerequisite: %s not available", tap_need_name(what, name));
}

/* 1 if the prerequisite is there; else the skip-all plan, marked like skip_need(), and 0:
 * then return 0 from main without done_testing(). */
__attribute__((unused))
static int need(enum tap_need what, const char *name)
{
	if (have(what, name))
		return 1;
	printf("1..0 # SKIP prerequisite: %s not available\n", tap_need_name(what, name));
	return 0;
}

__attribute__((unused))
static int done_testing(void)
{
	if (!tap_state_.planned)
		printf("1..%d\n", tap_state_.run);
	return tap_state_.failed ? 1 : 0;
}

#endif
