// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kept trace-cmd reader process (struct ss_tracecmd_server, import_tracecmd.c): one reader,
 * forked by the server's spawner process, serves many files in turn and gives the same events
 * each time; between files it holds no descriptor but its standard ones and its socket — not
 * the files it served, not libtracecmd's copies of them (one per instance buffer), not what
 * the parent had open when it was forked — and the spawner holds only its standard ones and
 * its socket.  A reader killed between files is replaced before the next one; with the
 * spawner gone too, the readers are forked by the caller; freeing the server leaves no
 * process behind.  A file refused for a budget ends its reader; the next file gets a new
 * one.  A file refused as corrupt (a compressed chunk that does not unpack to its claim) is
 * refused before a ring is read.
 * Reads committed .dat files (the seeds in tests/fuzz/corpus/tracecmd/, one of
 * tests/fuzz/regress/tracecmd/); runs unprivileged.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "trace_read.h"

#define OPENS 60

/* Set when a sanitizer runtime is linked in; NULL in a normal build. */
__attribute__((weak)) void __sanitizer_set_death_callback(void (*callback)(void));

/* How many children process PID has (zombies included), or -1. */
static int children_of(pid_t pid)
{
	char path[64], buf[4096];
	FILE *f;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)pid, (int)pid);
	if (!(f = fopen(path, "r")))
		return -1;
	if (fgets(buf, sizeof(buf), f))
		for (char *p = strtok(buf, " \n"); p; p = strtok(NULL, " \n"))
			n++;
	fclose(f);
	return n;
}

/* The pid of process PID's only child, or -1. */
static pid_t only_child_of(pid_t pid)
{
	char path[64], buf[256];
	FILE *f;
	long a = -1, b = -1;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)pid, (int)pid);
	if (!(f = fopen(path, "r")))
		return -1;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	if (sscanf(buf, "%ld %ld", &a, &b) != 1)
		return -1;
	return (pid_t)a;
}

/* Whether process PID is dead and not yet reaped. */
static bool is_zombie(pid_t pid)
{
	char path[64], buf[256];
	FILE *f;
	char state = 0;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (!(f = fopen(path, "r")))
		return false;
	if (fgets(buf, sizeof(buf), f)) {
		const char *p = strrchr(buf, ')');

		if (p && p[1] == ' ')
			state = p[2];
	}
	fclose(f);
	return state == 'Z';
}

static bool exists(pid_t pid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d", (int)pid);
	return access(path, F_OK) == 0;
}

/* This process's only child (the spawner), or -1. */
static pid_t only_child(void)
{
	return only_child_of(getpid());
}

/* Descriptors PID holds, or -1: those below our limit (a tool such as valgrind keeps its own
 * above the limit it gives the program). */
static int fds_of(pid_t pid)
{
	long limit = sysconf(_SC_OPEN_MAX);
	char path[64];
	struct dirent *e;
	DIR *d;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	if (!(d = opendir(path)))
		return -1;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.' && (limit < 0 || atol(e->d_name) < limit);
	closedir(d);
	return n;
}

/* Events of PATH read through SRV, or -1. */
/* FNV-1a of the events the last events_of() read, in order */
static uint64_t last_hash;

static long events_of(const char *path, struct ss_tracecmd_server *srv)
{
	char err[256];
	struct ss_trace *t = ss_trace_open_with(path, srv, err, sizeof(err));
	const struct ss_event *ev;
	size_t n;
	long total = 0;
	int ret;

	if (!t) {
		printf("# %s: %s\n", path, err);
		return -1;
	}
	last_hash = 1469598103934665603ull;
	while ((ret = ss_trace_next_batch(t, &ev, &n)) > 0) {
		const unsigned char *b = (const void *)ev;

		total += (long)n;
		for (size_t i = 0; i < n * sizeof(*ev); i++)
			last_hash = (last_hash ^ b[i]) * 1099511628211ull;
	}
	ss_trace_close(t);
	return ret < 0 ? -1 : total;
}

int main(void)
{
	static const char *const names[] = { "instance.dat", "top.dat", "all-block.dat" };
	/* open before the server (and its spawner) is made: neither may keep it */
	int bad = 0, held, spare = open("/dev/null", O_RDONLY | O_CLOEXEC);
	struct ss_tracecmd_server *srv = ss_tracecmd_server_new();
	char path[3][4096];
	long first[3];
	pid_t spawner, reader, again = -1;

	if (!ok(srv != NULL, "a server") || !ok(spare >= 0, "a descriptor of the parent's"))
		return done_testing();
	for (int k = 0; k < 3; k++) {
		snprintf(path[k], sizeof(path[k]), "%s/tests/fuzz/corpus/tracecmd/%s", SS_SRCDIR,
			 names[k]);
		first[k] = events_of(path[k], srv);
		ok(first[k] > 0, "%s: %ld events", names[k], first[k]);
	}
	spawner = only_child();
	reader = spawner > 0 ? only_child_of(spawner) : -1;
	if (!ok(spawner > 0, "one spawner process") ||
	    !ok(reader > 0, "one reader process kept, the spawner's child"))
		goto out;
	is_int(fds_of(spawner), 4, "the spawner holds stdin, stdout, stderr and its socket only");
	held = fds_of(reader);
	is_int(held, 4, "between files the reader holds stdin, stdout, stderr and its socket only");
	for (int i = 0; i < OPENS; i++)
		for (int k = 0; k < 3; k++)
			bad += events_of(path[k], srv) != first[k];
	is_int(bad, 0, "%d more opens of each file: the same events", OPENS);
	/* read ahead in a thread of their own (the reader served from that thread): the same */
	{
		uint64_t want[3];

		setenv("SEEKSCOPE_READAHEAD", "never", 1);
		for (int k = 0; k < 3; k++) {
			events_of(path[k], srv);
			want[k] = last_hash;
		}
		setenv("SEEKSCOPE_READAHEAD", "always", 1);
		bad = 0;
		for (int k = 0; k < 3; k++)
			bad += events_of(path[k], srv) != first[k] || last_hash != want[k];
		unsetenv("SEEKSCOPE_READAHEAD");
		is_int(bad, 0, "read ahead: the same events of each file, in the same order");
	}
	is_int(only_child_of(spawner), reader, "the same reader served them all");
	is_int(fds_of(reader), 4, "and still holds nothing else (the instance file's copies "
	       "closed)");
	/* a kept reader killed between files (not by a file): the next file gets a new one,
	 * forked by the spawner, and the dead one is reaped */
	if (ok(kill(reader, SIGKILL) == 0, "the reader killed between files")) {
		for (int i = 0; i < 2000 && !is_zombie(reader); i++)
			usleep(1000);
		ok(is_zombie(reader), "the killed reader is dead (a zombie of the spawner's)");
		is_int(events_of(path[0], srv), first[0], "the next file: the same events");
		again = only_child_of(spawner);
		ok(again > 0 && again != reader, "a new reader, the spawner's only child (the "
		   "dead one reaped)");
	}
	/* the spawner gone (killed), then the reader: the next reader is forked here */
	if (again > 0 && ok(kill(spawner, SIGKILL) == 0, "the spawner killed")) {
		pid_t direct;

		for (int i = 0; i < 2000 && !is_zombie(spawner); i++)
			usleep(1000);
		is_int(events_of(path[1], srv), first[1], "its reader still serves");
		kill(again, SIGKILL);
		for (int i = 0; i < 2000 && exists(again) && !is_zombie(again); i++)
			usleep(1000);
		is_int(events_of(path[2], srv), first[2], "then a reader forked here: the same "
		       "events");
		direct = only_child();
		ok(direct > 0 && direct != spawner && !exists(spawner),
		   "it is this process's only child, the dead spawner reaped");
		again = direct;
	}
	/* a microsecond of CPU time a pass (SEEKSCOPE_TRACECMD_CPU, read at each open), then a
	 * kilobyte of memory (_MEM): each file refused saying so (the reader that refuses one
	 * ends, and the next is forked for the next file), then, the budgets back to their
	 * defaults, the files read as before */
	{
		static const char *const vars[2] = { "SEEKSCOPE_TRACECMD_CPU",
						     "SEEKSCOPE_TRACECMD_MEM" };
		static const char *const says[2] = { "spent its 0.000001 s of CPU time on a pass",
						     "needs more than its 0.001 MiB of memory" };
		char err[256];

		for (int v = 0; v < 2; v++) {
			setenv(vars[v], v ? "0.001" : "0.000001", 1);
			for (int k = 0; k < 3; k++) {
				struct ss_trace *t;

				err[0] = 0;
				t = ss_trace_open_with(path[k], srv, err, sizeof(err));
				ok(!t && strstr(err, says[v]), "%s: %s refused saying so (%s)",
				   vars[v], names[k], err);
				ss_trace_close(t);
			}
			unsetenv(vars[v]);
		}
		bad = 0;
		for (int k = 0; k < 3; k++)
			bad += events_of(path[k], srv) != first[k];
		is_int(bad, 0, "then every file reads as before");
	}
	/* a compressed chunk that claims 1.5 GiB and holds a page, after 4 pages of CPU 1's and
	 * before 4 more: libtracecmd would read the heap's leftovers as the claim's pages (or,
	 * failing to allocate it, end the ring: it read 128 of 258 events); refused as corrupt
	 * before a ring is read, then the files read as before */
	{
		char claims[4096], err[256] = "";
		struct ss_trace *t;

		snprintf(claims, sizeof(claims), "%s/tests/fuzz/regress/tracecmd/chunk-claims.dat",
			 SS_SRCDIR);
		unsetenv("SEEKSCOPE_TRACECMD_MEM");
		t = ss_trace_open_with(claims, srv, err, sizeof(err));
		ok(!t && strstr(err, "corrupt (CPU 1 of the top buffer: compressed chunk 2 says it "
				"unpacks to 1610612736 bytes, but it unpacks to 4096)"),
		   "a chunk that claims 1.5 GiB and holds a page: refused as corrupt (%s)", err);
		ss_trace_close(t);
		bad = 0;
		for (int k = 0; k < 3; k++)
			bad += events_of(path[k], srv) != first[k];
		is_int(bad, 0, "then every file reads as before");
	}
out:
	close(spare);
	ss_tracecmd_server_free(srv);
	is_int(children_of(getpid()), 0, "freeing the server ends the spawner");
	ok(again <= 0 || !exists(again), "and the reader");
	return done_testing();
}
