// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The names a trace-cmd ring last gave its tasks (import_tracecmd_names.c): a task's name is a
 * repeat only when the ring last gave that task the same name (other tasks' names in between
 * do not matter; a new name is remembered in its place); a name's bytes past its terminator
 * (the reader's slots are reused) do not matter; a ring read from its start again forgets
 * them; a thousand tasks (the table grows) are each remembered; NULL (no memory for the
 * table) makes nothing a repeat.
 */
#include <stdio.h>
#include <string.h>

#include "tap.h"
#include "import_tracecmd_reader.h"

static bool repeat(struct ss_tc_names *n, uint32_t pid, const char *name, char junk)
{
	char comm[SS_COMM_LEN];

	memset(comm, junk, sizeof(comm));
	snprintf(comm, sizeof(comm), "%s", name);
	return ss_tc_names_repeat(n, pid, comm);
}

int main(void)
{
	struct ss_tc_names *n = ss_tc_names_new();
	bool all = true, none = false;

	plan(9);
	ok(n != NULL, "a table");
	ok(!repeat(n, 100, "tar", 0) && repeat(n, 100, "tar", 'x'),
	   "a task's first name is new, the same again a repeat (whatever follows its end)");
	ok(!repeat(n, 200, "kworker/0:1", 0) && repeat(n, 100, "tar", 0),
	   "another task's name in between: still a repeat");
	ok(!repeat(n, 100, "gzip", 0) && repeat(n, 100, "gzip", 0) && !repeat(n, 100, "tar", 0),
	   "a new name is remembered in the old one's place");
	ok(!repeat(n, 100, "0123456789abcde", 0) && repeat(n, 100, "0123456789abcde", 'y'),
	   "a name of the whole 15 characters");
	ss_tc_names_clear(n);
	ok(!repeat(n, 100, "0123456789abcde", 0) && !repeat(n, 200, "kworker/0:1", 0),
	   "the ring read from its start again: every name new");
	for (uint32_t pid = 1000; pid < 2000; pid++)
		none |= repeat(n, pid, pid & 1 ? "odd" : "even", 0);
	for (uint32_t pid = 1000; pid < 2000; pid++)
		all &= repeat(n, pid, pid & 1 ? "odd" : "even", 0);
	ok(!none && all, "a thousand tasks: each first name new, each remembered");
	ok(repeat(n, 200, "kworker/0:1", 0), "... the table grown, the ones before kept");
	ss_tc_names_free(n);
	ok(!repeat(NULL, 1, "a", 0) && !repeat(NULL, 1, "a", 0), "no table: nothing a repeat");
	ss_tc_names_free(NULL);
	return done_testing();
}
