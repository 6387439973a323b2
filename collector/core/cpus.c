// SPDX-License-Identifier: GPL-2.0-or-later
/* Is a CPU free for a second thread (cpus.h)?  A read of /proc/loadavg, and when that says the
 * CPUs are taken, a look at who takes them (ss_cpu_free) or another read (ss_cpu_idle). */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "cpus.h"

#define MAX_TASKS 4096   /* a machine with more tasks is not worth the scan: no thread */
#define IDLE_LOOKS 3     /* ss_cpu_idle's looks at /proc/loadavg */

int ss_task_stat_parse(const char *buf, char *state, int *nice)
{
	const char *p = strrchr(buf, ')');

	/* "pid (comm) S ppid ...": the name may hold anything, so from its last ')' on */
	if (!p || sscanf(p + 1, " %c", state) != 1)
		return -1;
	for (int field = 2; field < 19 && p; field++)     /* p: the blank before field + 1 */
		p = strchr(p + 1, ' ');
	return p && sscanf(p, " %d", nice) == 1 ? 0 : -1;
}

/* 1 when the task whose stat file is at DIRFD-relative PATH is runnable at a nice value of
 * at most MINE, 0 when not, -1 when it cannot be read (it ended). */
static int busy_task(int dirfd, const char *path, int mine)
{
	char buf[512];
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC), nice = 0;
	ssize_t n;
	char state;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	if (ss_task_stat_parse(buf, &state, &nice))
		return -1;
	return state == 'R' && nice <= mine;
}

/* The tasks runnable at the caller's nice value or below besides the caller's thread, counted
 * up to LIMIT; -1 when /proc cannot be read or holds too many tasks. */
static long busy_others(long limit)
{
	DIR *proc = opendir("/proc");
	pid_t self = gettid();
	int mine;
	long busy = 0, seen = 0;
	struct dirent *e;

	if (!proc)
		return -1;
	errno = 0;
	mine = getpriority(PRIO_PROCESS, 0);
	if (errno) {
		closedir(proc);
		return -1;
	}
	while (busy < limit && seen >= 0 && (e = readdir(proc))) {
		char path[64];
		struct dirent *t;
		DIR *tasks;
		int fd;

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "%.20s/task", e->d_name);
		if ((fd = openat(dirfd(proc), path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
			continue;
		if (!(tasks = fdopendir(fd))) {
			close(fd);
			continue;
		}
		while (busy < limit && (t = readdir(tasks))) {
			if (!isdigit((unsigned char)t->d_name[0]) || atol(t->d_name) == self)
				continue;
			if (++seen > MAX_TASKS) {
				seen = -1;
				break;
			}
			snprintf(path, sizeof(path), "%.20s/stat", t->d_name);
			busy += busy_task(dirfd(tasks), path, mine) == 1;
		}
		closedir(tasks);
	}
	closedir(proc);
	return seen < 0 ? -1 : busy;
}

/* /proc/loadavg's runnable tasks now (the caller included), or -1. */
static long runnable(void)
{
	double l1, l5, l15;
	long running, total;
	FILE *f = fopen("/proc/loadavg", "re");
	int n;

	if (!f)
		return -1;
	n = fscanf(f, "%lf %lf %lf %ld/%ld", &l1, &l5, &l15, &running, &total);
	fclose(f);
	return n == 5 ? running : -1;
}

bool ss_cpu_idle(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN), running;

	if (cpus < 2)
		return false;
	/* running counts the caller: the others leave a CPU if running - 1 <= cpus - 2.  A
	 * kernel thread that happens to run at that instant is no work that keeps the CPU:
	 * looked at up to three times, a fifth of a millisecond apart (on an idle 2-CPU VM one
	 * look said "taken" for about a third of the reports; a CPU taken by work stays so) */
	for (int i = 0; i < IDLE_LOOKS; i++) {
		if ((running = runnable()) < 0)
			return false;
		if (running < cpus)
			return true;
		if (i + 1 < IDLE_LOOKS)
			nanosleep(&(struct timespec){ .tv_nsec = 200000 }, NULL);
	}
	return false;
}

bool ss_cpu_free(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN), others, running;

	if (cpus < 2 || (running = runnable()) < 0)
		return false;
	if (running < cpus)
		return true;
	/* the CPUs look taken; by background work at a higher nice value than ours they are not
	 * (the scheduler gives a nice-19 task 1/68 of a CPU beside one at nice 0) */
	others = busy_others(cpus - 1);
	return others >= 0 && others <= cpus - 2;
}

unsigned ss_cpus_online(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (unsigned)n : 1;
}
