// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run_line(): run a shell command and keep the first line it prints — for the tests that ask
 * FFmpeg's own tools (ffprobe, ffmpeg) about the movies they wrote.
 */
#ifndef SS_TEST_RUNLINE_H
#define SS_TEST_RUNLINE_H

#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

/* Run CMD, its first output line into OUT (without the newline); 0 if it ran and exited 0. */
static int run_line(const char *cmd, char *out, size_t len)
{
	FILE *p = popen(cmd, "r");
	int st;

	out[0] = 0;
	if (!p)
		return -1;
	if (!fgets(out, (int)len, p))
		out[0] = 0;
	out[strcspn(out, "\n")] = 0;
	while (fgetc(p) != EOF)
		;
	st = pclose(p);
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

#endif
