// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The work a kworker runs (collector/record/tasknames.c): the work function found in a
 * kernel stack (the frame process_one_work called) and named from a kallsyms file, the
 * work recorded by pid, and what happens when kallsyms is missing, hidden or lacks
 * process_one_work.  The symbol table and stacks are hand-made; the addresses are in them.
 */
#include <stdio.h>
#include <string.h>

#include "tap.h"
#include "testdir.h"
#include "tasknames.h"

#define K 0xffffffff81000000ull

/* text symbols, one data symbol between (ignored), an alias at process_one_work's address
 * (its end is the next higher address), not in address order */
static const char *const syms =
	"ffffffff81300000 T kthread\n"
	"ffffffff81100000 T wb_workfn\n"
	"ffffffff81100400 t wb_check_old_data_flush\n"
	"ffffffff81150000 D some_data\n"
	"ffffffff81200000 T process_one_work\n"
	"ffffffff81200000 t process_one_work_alias\n"
	"ffffffff81200800 T worker_thread\n"
	"ffffffff81000000 T submit_bio\n";

static int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

static void test_stack(const char *kallsyms)
{
	struct ss_tasknames *n = ss_tasknames_new(kallsyms);
	/* innermost first: the issue, the flusher, the workqueue, the worker, the thread */
	const uint64_t wb[] = { K + 0x40, K + 0x100410, K + 0x100080, K + 0x2001c0,
				K + 0x200900, K + 0x300010 };
	const uint64_t none[] = { K + 0x40, K + 0x200900, K + 0x300010 };
	const uint64_t first[] = { K + 0x2001c0, K + 0x200900 };
	const uint64_t edge[] = { K + 0x40, K + 0x100400, K + 0x2001c0 };

	ok(n != NULL, "tasknames created");
	is_int((long long)(ss_tasknames_stack_work(n, wb, 6) - K), 0x10007f,
	       "the frame process_one_work called: wb_workfn's return address less one");
	is_int(ss_tasknames_work(n, 77, ss_tasknames_stack_work(n, wb, 6)), 0, "recorded for pid 77");
	is_str(ss_tasknames_work_of(n, 77), "wb_workfn", "pid 77 runs wb_workfn");
	is_int((long long)ss_tasknames_stack_work(n, none, 3), 0,
	       "no process_one_work in the stack: no work");
	is_int((long long)ss_tasknames_stack_work(n, first, 2), 0,
	       "process_one_work innermost: nothing it called, no work");
	is_int((long long)ss_tasknames_stack_work(n, wb, 0), 0, "an empty stack: no work");
	is_int((long long)(ss_tasknames_stack_work(n, wb, 4) - K), 0x10007f,
	       "a stack cut after process_one_work still names the work");
	is_int((long long)ss_tasknames_stack_work(n, wb, 3), 0,
	       "a stack cut before process_one_work: no work");
	/* wb_workfn's last instruction a call that does not return: the return address is the
	 * first byte of the function after it, and still names wb_workfn */
	is_int(ss_tasknames_work(n, 79, ss_tasknames_stack_work(n, edge, 3)), 0, "recorded for pid 79");
	is_str(ss_tasknames_work_of(n, 79), "wb_workfn",
	       "a return address at the next function's start: the function that made the call");
	is_int(ss_tasknames_work(n, 77, 0), 0, "pid 77's next work unknown");
	is_str(ss_tasknames_work_of(n, 77), "", "an unknown work has no name");
	is_str(ss_tasknames_work_of(n, 78), "", "a pid never seen: no work");
	ss_tasknames_free(n);
}

static void test_no_symbols(const char *missing, const char *hidden, const char *nopow)
{
	const uint64_t wb[] = { K + 0x40, K + 0x100080, K + 0x2001c0, K + 0x200900 };
	struct ss_tasknames *n;

	n = ss_tasknames_new(missing);
	is_int((long long)ss_tasknames_stack_work(n, wb, 4), 0, "no kallsyms file: no work");
	ss_tasknames_free(n);
	n = ss_tasknames_new(hidden);
	is_int((long long)ss_tasknames_stack_work(n, wb, 4), 0,
	       "kallsyms with its addresses hidden (zeros): no work");
	ss_tasknames_free(n);
	n = ss_tasknames_new(nopow);
	is_int((long long)ss_tasknames_stack_work(n, wb, 4), 0,
	       "kallsyms without process_one_work: no work");
	ss_tasknames_free(n);
}

int main(void)
{
	if (testdir_make("tasknames"))
		return done_testing();
	TP(ks, "kallsyms");
	TP(hidden, "hidden");
	TP(nopow, "nopow");
	ok(write_file(ks, syms) == 0 &&
	   write_file(hidden, "0000000000000000 T process_one_work\n"
			      "0000000000000000 T wb_workfn\n") == 0 &&
	   write_file(nopow, "ffffffff81100000 T wb_workfn\n"
			     "ffffffff81300000 T kthread\n") == 0, "symbol tables written");
	test_stack(ks);
	test_no_symbols(tpath("absent"), hidden, nopow);
	return done_testing();
}
