// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The trace-cmd reader process's budgets (import_tracecmd_proto.h says what they are): the CPU
 * time a pass over a file may take and the memory its reading may add, worked out from the file
 * (in the parent) and the messages that name them; in the reader, the watch over both (its
 * CPU clock and /proc/self/statm, looked at between requests and every SS_TC_CHECK_RECORDS
 * records), the SIGXCPU timer for a loop inside libtracecmd, and a limit on the data segment
 * (RLIMIT_DATA, and looked at) behind the memory budget.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <time.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "errbuf.h"
#include "import_tracecmd_proto.h"
#include "import_tracecmd_reader.h"

/* The file FD's data on disk in bytes (its size, but not its holes), 0 if unknown. */
static double data_bytes(int fd)
{
	struct stat st;

	if (fstat(fd, &st) || st.st_size <= 0)
		return 0;
	return fmin((double)st.st_size, (double)st.st_blocks * 512);
}

/* SEEKSCOPE_TRACECMD_CPU or _MEM (NAME) as a positive number below 1e9, else -1. */
static double env_number(const char *name)
{
	const char *v = getenv(name);
	char *end;
	double d;

	if (!v || !*v)
		return -1;
	d = strtod(v, &end);
	return !*end && d > 0 && d < 1e9 ? d : -1;
}

double ss_tc_cpu_budget(int fd)
{
	double v = env_number("SEEKSCOPE_TRACECMD_CPU");
	struct file_head fh;

	if (v > 0)
		return v;
	v = SS_TC_CPU_BASE_S + data_bytes(fd) / SS_TC_CPU_BYTES *
	    (ss_tc_read_file_head(fd, &fh) && fh.compressed ? SS_TC_CPU_UNZIP : 1);
	return fmin(v, SS_TC_CPU_MAX_S);
}

long long ss_tc_mem_budget(int fd)
{
	double v = env_number("SEEKSCOPE_TRACECMD_MEM");
	double half = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE) / 2;

	if (v > 0)
		return (long long)(v * 1024 * 1024);
	v = (double)SS_TC_MEM_BASE + data_bytes(fd) * SS_TC_MEM_RATIO;
	if (half > 0 && v > half)
		v = fmax(half, (double)SS_TC_MEM_BASE);
	return (long long)v;
}

long long ss_tc_heap_budget(int fd, long long mem)
{
	struct file_head fh;
	double v = (double)SS_TC_HEAP_BASE;

	if (ss_tc_read_file_head(fd, &fh) && fh.compressed)
		v += data_bytes(fd) * SS_TC_HEAP_RATIO;
	return (long long)fmin(v, (double)mem);
}

void ss_tc_mem_msg(char *err, size_t errlen, long long mem)
{
	ss_errf(err, errlen, "cannot read this trace-cmd file: the trace-cmd reader needs more than "
		"its %.*f MiB of memory for it (compressed data that unpacks, or claims to unpack, "
		"to far more than the file's size? SEEKSCOPE_TRACECMD_MEM allows more)",
		mem >= 10 << 20 ? 0 : 3, (double)mem / (1 << 20));
}

void ss_tc_budget_msg(char *err, size_t errlen, double budget)
{
	ss_errf(err, errlen, "cannot read this trace-cmd file: the trace-cmd reader spent its %.*f s "
		"of CPU time on a pass over it without finishing (corrupt? SEEKSCOPE_TRACECMD_CPU "
		"allows more)", budget >= 10 ? 0 : budget >= 0.01 ? 2 : 6, budget);
}

static void cpu_spent(int sig)
{
	(void)sig;
	_exit(SS_TC_EXIT_CPU);
}

int ss_tc_cpu_watch_new(timer_t *timer)
{
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGXCPU };

	signal(SIGXCPU, cpu_spent);
	return timer_create(CLOCK_PROCESS_CPUTIME_ID, &ev, timer) ? -1 : 0;
}

void ss_tc_cpu_watch_arm(timer_t timer, double seconds)
{
	struct itimerspec it = { 0 };

	if (seconds > 0) {
		it.it_value.tv_sec = (time_t)seconds;
		it.it_value.tv_nsec = (long)((seconds - (double)it.it_value.tv_sec) * 1e9);
		if (!it.it_value.tv_sec && !it.it_value.tv_nsec)
			it.it_value.tv_nsec = 1;
	}
	timer_settime(timer, 0, &it, NULL);
}

/* /proc/self/statm's first six fields (pages: size, resident, shared, text, lib, data) into F;
 * false when it cannot be read. */
static bool statm(long long f[6])
{
	char buf[160];
	int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return false;
	buf[n] = 0;
	return sscanf(buf, "%lld %lld %lld %lld %lld %lld", &f[0], &f[1], &f[2], &f[3], &f[4],
		      &f[5]) == 6;
}

/* The reader's private memory in bytes (resident, less what is shared: the trace's mapped
 * pages, the items' memfd), or -1. */
static long long private_bytes(void)
{
	long long f[6];

	return statm(f) && f[1] >= f[2] ? (f[1] - f[2]) * sysconf(_SC_PAGESIZE) : -1;
}

/* The reader's CPU time, s: its thread's clock (the process's is read from the timer's
 * account while one is armed, which moves only at the scheduler's ticks; the reader runs one
 * thread). */
static double cpu_clock(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A pass (the open, or the rings read from their start) begins: W's budget from now on.  The
 * timer, for a loop inside libtracecmd, goes off a second later than the deadline looked at
 * between requests, so that a pass that ends a request past it is refused by that look,
 * with its reason, in a kept reader too (whose exit status only its spawner sees). */
void ss_tc_watch_start(struct watch *w)
{
	w->until = cpu_clock() + w->budget;
	if (w->timed)
		ss_tc_cpu_watch_arm(w->timer, w->budget + 1);
}

/* 0 while the pass is within W's budgets; -ETIMEDOUT once it has spent its CPU time, -ENOMEM
 * once the file's reading has grown the reader by more than its memory, or its data segment
 * past the hard stop (data_backstop()). */
int ss_tc_watch_check(const struct watch *w)
{
	long long f[6], page = sysconf(_SC_PAGESIZE);
	bool known;

	if (cpu_clock() > w->until)
		return -ETIMEDOUT;
	/* (one read of statm for both looks: it is opened every few thousand records) */
	known = statm(f);
	if (known && w->mem_base >= 0 && f[1] >= f[2] && (f[1] - f[2]) * page - w->mem_base > w->mem)
		return -ENOMEM;
	return known && w->data_base >= 0 && f[5] * page - w->data_base > w->data_max ? -ENOMEM : 0;
}

/* The reader process's resident memory in bytes (-1: unknown). */
long long ss_tc_resident(void)
{
	long long f[6];

	return statm(f) ? f[1] * sysconf(_SC_PAGESIZE) : -1;
}

/*
 * The hard stop behind the memory budget, which is looked at between requests only: a single
 * chunk that libtracecmd unpacks may claim up to 4 GiB.  The reader's data segment may grow by
 * twice the budget and 256 MiB more from now on (W's data_max from data_base): RLIMIT_DATA,
 * so that an allocation beyond fails (libtracecmd then ends the ring, which the reader refuses:
 * import_tracecmd_reader.c, fill()), and looked at with the budgets too.  Under a sanitizer,
 * whose shadow memory counts as data, RLIMIT_DATA is not set: there the look is all there is,
 * and refuses what the limit would have (a chunk that claims 1.5 GiB and holds a page is
 * allocated, not resident, and libtracecmd walks its empty pages: refused after that request).
 * A reader of its own grew its heap before the file (ss_tc_heap_budget(), at most the memory
 * budget): that growth is in data_base, and the file's blocks fill it before the segment
 * grows, so the limit lies up to that much further above what they allocated; what they
 * touch is counted by the look at private memory all the same.
 */
static void data_backstop(struct watch *w)
{
	struct rlimit rl;
	long long f[6];

	w->data_base = -1;
	if (!statm(f))
		return;
	w->data_base = f[5] * sysconf(_SC_PAGESIZE);
	w->data_max = 2 * w->mem + (256ll << 20);
	if (__sanitizer_set_death_callback || getrlimit(RLIMIT_DATA, &rl))
		return;
	rl.rlim_cur = (rlim_t)(w->data_base + w->data_max);
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_cur > rl.rlim_max)
		rl.rlim_cur = rl.rlim_max;
	setrlimit(RLIMIT_DATA, &rl);
}

/* import_tracecmd_reader.h */
void ss_tc_watch_file(struct watch *w, const struct ss_tc_budget *b)
{
	w->budget = b->cpu > 0 ? b->cpu : SS_TC_CPU_BASE_S;
	w->mem = b->mem > 0 ? b->mem : SS_TC_MEM_BASE;
	w->mem_base = private_bytes();
	data_backstop(w);
	ss_tc_watch_start(w);
}
