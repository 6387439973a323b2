// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Whether FFmpeg's libraries can be loaded in this process's surroundings, asked in a child
 * so that the test survives the answer: under valgrind (which follows the child) a library
 * built for this CPU may run an instruction valgrind does not know — libhwy, under libjxl
 * under libavcodec, on a CPU with AVX-512, with valgrind 3.19 — and the child dies of SIGILL.
 * The movie and video tests then skip what needs the encoder there; `make check` and
 * `make sanitize` run it, and the movies' drawing still runs under valgrind through the
 * movie fuzz target's replayer (frames drawn, not encoded).
 */
#ifndef SS_TEST_AVPROBE_H
#define SS_TEST_AVPROBE_H

#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "avlib.h"

/* 0 when the libraries load (or it cannot be told), else the signal that killed the child. */
__attribute__((unused))
static int av_load_signal(void)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return 0;
	if (pid == 0) {
		struct ss_av av;
		char err[256];

		if (!ss_av_open(&av, err, sizeof(err)))
			ss_av_close(&av);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) < 0)
		return 0;
	return WIFSIGNALED(status) ? WTERMSIG(status) : 0;
}

#endif
