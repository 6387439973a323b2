// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The CPU hint (collector/core/cpus.c): the /proc/PID/stat fields it reads (state and nice
 * value) from real lines, including process names built to mislead a parser that splits at
 * the first ')' or counts blanks from the start, and a child it reniced itself; and that a
 * CPU taken by background work is not idle (ss_cpu_idle) for all its nice value.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"
#include "cpus.h"

static int read_stat(pid_t pid, char *buf, size_t len)
{
	char path[64];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (!(f = fopen(path, "re")))
		return -1;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = 0;
	return n ? 0 : -1;
}

int main(void)
{
	char buf[512], state = 0;
	int nice = 99, pipefd[2], mine;
	pid_t child;

	/* a line as the kernel writes it, with a name holding ") R 1 2" and blanks */
	is_int(ss_task_stat_parse("4242 (a) R 1 2 (x) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 20 -5 1 0",
				  &state, &nice), 0, "a name holding ') R 1 2' parses");
	is_int(state, 'S', "the state is the letter after the last ')'");
	is_int(nice, -5, "the nice value is field 19");
	ok(ss_task_stat_parse("4242 (x R 1 2 3", &state, &nice) < 0, "no ')' is refused");
	ok(ss_task_stat_parse("4242 (x) R 1 2 3", &state, &nice) < 0, "a line cut short is refused");

	/* our own line: running, at our nice value */
	errno = 0;
	mine = getpriority(PRIO_PROCESS, 0);
	ok(!read_stat(getpid(), buf, sizeof(buf)) && !ss_task_stat_parse(buf, &state, &nice),
	   "our own stat line parses");
	is_int(state, 'R', "we are running while we read it");
	is_int(nice, mine, "our nice value reads back (%d)", mine);

	/* a child reniced to 19 that waits on a pipe: sleeping, nice 19 */
	if (pipe(pipefd)) {
		ok(0, "pipe");
		return done_testing();
	}
	child = fork();
	if (child == 0) {
		char c;

		close(pipefd[1]);
		if (setpriority(PRIO_PROCESS, 0, 19))
			_exit(2);
		(void)!read(pipefd[0], &c, 1);
		_exit(0);
	}
	close(pipefd[0]);
	/* until the child has reniced itself and sleeps on the pipe (at most 5 s) */
	for (int i = 0; i < 500; i++) {
		if (!read_stat(child, buf, sizeof(buf)) && !ss_task_stat_parse(buf, &state, &nice) &&
		    nice == 19 && state == 'S')
			break;
		usleep(10000);
	}
	is_int(nice, 19, "a reniced child reads nice 19");
	is_int(state, 'S', "a child blocked on a pipe reads S");
	close(pipefd[1]);
	waitpid(child, NULL, 0);

	/* every CPU taken by a spinning child at nice 19: none is idle, whatever else runs (the
	 * count is a snapshot: the children are runnable in every one) */
	{
		unsigned n = ss_cpus_online();
		pid_t kids[64];
		bool idle = false;
		unsigned k;

		if (n > 64) {
			skip(1, "%u CPUs: more than this check spins children for", n);
			return done_testing();
		}
		for (k = 0; k < n; k++) {
			if ((kids[k] = fork()) == 0) {
				if (setpriority(PRIO_PROCESS, 0, 19))
					_exit(2);
				alarm(30);      /* never outlives the test */
				for (;;)
					;
			}
			if (kids[k] < 0)
				break;
		}
		usleep(200000);         /* they are scheduled */
		for (int i = 0; i < 5; i++)
			idle |= ss_cpu_idle();
		ok(k == n && !idle, "%u CPU(s) each spinning at nice 19: no CPU idle", n);
		for (unsigned i = 0; i < k; i++) {
			kill(kids[i], SIGKILL);
			waitpid(kids[i], NULL, 0);
		}
	}
	return done_testing();
}
