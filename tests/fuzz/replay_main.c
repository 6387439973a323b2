// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Regression replayer for a fuzz target: runs LLVMFuzzerTestOneInput on every file of the
 * directories named at build time (REPLAY_DIRS, colon-separated: the seed corpus and the
 * crashers found so far) and on any files or directories given as arguments, printing one TAP
 * line per directory.  Built with the ordinary compiler, so `make check`, `make sanitize` and
 * `make valgrind` replay every input without clang or libFuzzer.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SS_FUZZ_REPLAY_MAIN
#include "fuzz.h"

int ss_fuzz_replay = 1;

__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	return 0;
}

static int run_file(const char *path)
{
	struct stat st;
	uint8_t *buf;
	size_t done = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st) < 0) {
		perror(path);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	buf = malloc(st.st_size ? (size_t)st.st_size : 1);
	if (!buf) {
		close(fd);
		return -1;
	}
	while (done < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + done, (size_t)st.st_size - done);

		if (n <= 0)
			break;
		done += (size_t)n;
	}
	close(fd);
	LLVMFuzzerTestOneInput(buf, done);   /* a bug aborts the whole program */
	free(buf);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file in DIR, in name order; returns how many were run, or -1. */
static long run_dir(const char *dir)
{
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0;
	long count = 0;
	DIR *d = opendir(dir);

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (n == cap) {
			char **p = realloc(names, (cap = cap ? cap * 2 : 64) * sizeof(*names));

			if (!p)
				break;
			names = p;
		}
		names[n++] = strdup(de->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_str);
	for (size_t i = 0; i < n; i++) {
		char path[4096];
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (names[i] && stat(path, &st) == 0 && S_ISREG(st.st_mode) && run_file(path) == 0)
			count++;
		free(names[i]);
	}
	free(names);
	return count;
}

static int run_arg(const char *arg, int *tap)
{
	struct stat st;
	long n;

	if (stat(arg, &st) < 0) {
		printf("ok %d - %s: absent, nothing to replay # SKIP\n", ++*tap, arg);
		return 0;
	}
	if (!S_ISDIR(st.st_mode)) {
		n = run_file(arg);
		printf("%sok %d - replayed %s\n", n < 0 ? "not " : "", ++*tap, arg);
		return n < 0;
	}
	n = run_dir(arg);
	printf("%sok %d - replayed %ld inputs from %s without a crash\n", n < 0 ? "not " : "",
	       ++*tap, n, arg);
	return n < 0;
}

int main(int argc, char **argv)
{
	int tap = 0, failed = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	LLVMFuzzerInitialize(&argc, &argv);
	if (argc > 1) {
		for (int i = 1; i < argc; i++)
			failed |= run_arg(argv[i], &tap);
	} else {
#ifdef REPLAY_DIRS
		char dirs[] = REPLAY_DIRS, *save = NULL;

		for (char *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save))
			failed |= run_arg(d, &tap);
#endif
	}
	printf("1..%d\n", tap);
	return failed;
}
