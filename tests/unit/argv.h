// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * argv vectors for the command-line parser tests (test_cli_args*.c): written as compound
 * literals in the tests, copied into storage that outlives the statement, since the parsers
 * leave pointers into argv.
 */
#ifndef SS_TEST_ARGV_H
#define SS_TEST_ARGV_H

#include <stdlib.h>
#include <string.h>

#define TEST_ARGV_MAX 72

static inline int argc_of(char **v)
{
	int n = 0;

	while (v[n])
		n++;
	return n;
}

/* V (NULL-terminated) copied into one static vector; the previous copy is overwritten. */
static inline char **keep_argv(char **v)
{
	static char *store[TEST_ARGV_MAX];
	int n = argc_of(v);

	if (n >= TEST_ARGV_MAX)
		abort();
	memcpy(store, v, sizeof(v[0]) * (size_t)(n + 1));
	return store;
}

#endif
