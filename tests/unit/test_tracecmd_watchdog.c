// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The trace-cmd reader's CPU watchdog (import_tracecmd_proto.h): libtracecmd can loop for ever
 * on a damaged .dat (a negative page size did, before the reader refused it), so each file's
 * reader runs under a budget of CPU time, ss_tc_cpu_budget(): a process that spends it ends
 * with SS_TC_EXIT_CPU, one disarmed in time does not, and the budget grows with the file's data
 * on disk, not its holes (or is SEEKSCOPE_TRACECMD_CPU), as does the memory its reading may take
 * (SEEKSCOPE_TRACECMD_MEM), and the heap a reader of its own puts on huge pages first grows
 * with its compressed data, within that memory.  The watchdog runs in forked children that spin; each is also
 * under an alarm of wall time, so that a watchdog that never fires fails instead of hanging.
 * Unprivileged.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "tap.h"
#include "testdir.h"
#include "import_tracecmd_proto.h"

/* CPU time of this process, s */
static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Spin for S seconds of CPU time. */
static void spin(double s)
{
	double end = cpu_now() + s;
	volatile unsigned long x = 0;

	while (cpu_now() < end)
		x++;
}

/*
 * A child armed for ARM s of CPU time that spins SPIN s, then (DISARM) disarms it and spins
 * another 0.3 s, then exits 0; its wait status.
 */
static int child(double arm, double spin_s, bool disarm)
{
	pid_t pid = fork();
	int status = -1;

	if (pid == 0) {
		timer_t t;

		alarm(20);      /* SIGALRM ends a child whose watchdog never fires */
		if (ss_tc_cpu_watch_new(&t))
			_exit(99);
		ss_tc_cpu_watch_arm(t, arm);
		spin(spin_s);
		if (disarm) {
			ss_tc_cpu_watch_arm(t, 0);
			spin(0.3);
		}
		_exit(0);
	}
	if (pid < 0)
		return -1;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return status;
}

/* A compressed .dat (a committed fuzz seed): the heap for what its chunks unpack to too. */
static void check_heap_compressed(void)
{
	char path[4096];
	struct stat st;
	long long data;
	int fd;

	snprintf(path, sizeof(path), "%s/tests/fuzz/corpus/tracecmd/v7-zstd.dat", SS_SRCDIR);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (!ok(fd >= 0 && !fstat(fd, &st), "a compressed .dat: %s", path)) {
		if (fd >= 0)
			close(fd);
		return;
	}
	data = st.st_size < st.st_blocks * 512 ? st.st_size : st.st_blocks * 512;
	is_int(ss_tc_heap_budget(fd, ss_tc_mem_budget(fd)),
	       SS_TC_HEAP_BASE + SS_TC_HEAP_RATIO * data,
	       "... its reader's heap: %lld MiB and %d bytes a byte of its data on disk",
	       SS_TC_HEAP_BASE >> 20, SS_TC_HEAP_RATIO);
	close(fd);
}

int main(void)
{
	int st, fd;

	st = child(0.05, 30, false);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == SS_TC_EXIT_CPU,
	   "a reader that spins past its 0.05 s budget ends with status %d (status 0x%x)",
	   SS_TC_EXIT_CPU, st);
	st = child(0.2, 0.05, true);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	   "one disarmed after 0.05 s of its 0.2 s runs on and exits 0 (status 0x%x)", st);
	st = child(5, 0.2, false);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "one within its budget exits 0 (status 0x%x)", st);

	if (testdir_make("watchdog"))
		return done_testing();
	/* 4 MiB of data on disk, then a hole of 1 TiB: the hole adds nothing */
	fd = open(tpath("big.dat"), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (ok(fd >= 0, "a file")) {
		static char mib[1 << 20];
		bool written = true;
		double b;

		for (int i = 0; i < 4; i++)
			written &= write(fd, mib, sizeof(mib)) == (ssize_t)sizeof(mib);
		fsync(fd);
		ok(written, "... of 4 MiB");
		unsetenv("SEEKSCOPE_TRACECMD_CPU");
		unsetenv("SEEKSCOPE_TRACECMD_MEM");
		b = ss_tc_cpu_budget(fd);
		ok(fabs(b - (SS_TC_CPU_BASE_S + 2)) < 1e-9, "its CPU budget: %g s and 1 s per 2 MiB "
		   "(%g)", SS_TC_CPU_BASE_S, b);
		is_int(ss_tc_mem_budget(fd), SS_TC_MEM_BASE + 32ll * (4 << 20),
		       "its memory: %lld MiB and 32 bytes a byte", SS_TC_MEM_BASE >> 20);
		ok(!ftruncate(fd, (off_t)1 << 40), "a hole of 1 TiB after it");
		b = ss_tc_cpu_budget(fd);
		ok(fabs(b - (SS_TC_CPU_BASE_S + 2)) < 1e-9, "... adds no CPU time (%g s)", b);
		is_int(ss_tc_mem_budget(fd), SS_TC_MEM_BASE + 32ll * (4 << 20), "... nor memory");
		setenv("SEEKSCOPE_TRACECMD_CPU", "0.5", 1);
		b = ss_tc_cpu_budget(fd);
		ok(b == 0.5, "SEEKSCOPE_TRACECMD_CPU=0.5: 0.5 s (%g)", b);
		setenv("SEEKSCOPE_TRACECMD_CPU", "lots", 1);
		b = ss_tc_cpu_budget(fd);
		ok(fabs(b - (SS_TC_CPU_BASE_S + 2)) < 1e-9, "SEEKSCOPE_TRACECMD_CPU=lots: the default "
		   "(%g)", b);
		setenv("SEEKSCOPE_TRACECMD_MEM", "2", 1);
		is_int(ss_tc_mem_budget(fd), 2 << 20, "SEEKSCOPE_TRACECMD_MEM=2: 2 MiB");
		setenv("SEEKSCOPE_TRACECMD_MEM", "-1", 1);
		is_int(ss_tc_mem_budget(fd), SS_TC_MEM_BASE + 32ll * (4 << 20),
		       "SEEKSCOPE_TRACECMD_MEM=-1: the default");
		unsetenv("SEEKSCOPE_TRACECMD_CPU");
		unsetenv("SEEKSCOPE_TRACECMD_MEM");
		is_int(ss_tc_heap_budget(fd, ss_tc_mem_budget(fd)), SS_TC_HEAP_BASE,
		       "no compressed data: a reader of its own puts %lld MiB of heap on huge pages",
		       SS_TC_HEAP_BASE >> 20);
		is_int(ss_tc_heap_budget(fd, 1 << 20), 1 << 20, "... at most the memory budget");
		close(fd);
	}
	check_heap_compressed();
	return done_testing();
}
