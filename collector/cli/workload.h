// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Workloads run under `seekscope record`: an external command, or the built-in extraction
 * (collector/untar.h).  Both mark their phases in the trace, keep a status line on a
 * terminal, and react to the recorder's signal flag.  CLI side: these print.
 */
#ifndef SS_WORKLOAD_H
#define SS_WORKLOAD_H

#include <signal.h>
#include "recorder.h"
#include "runas.h"
#include "untar.h"

struct ss_workload_ui {
	int show;                            /* live status line on stderr */
	int quiet;                           /* -q: nothing on stderr but errors */
	int stdout_taken;                    /* the trace goes to stdout: the command's to stderr */
	const struct ss_runas *as;           /* --user: the command runs as this user, or NULL */
	volatile sig_atomic_t *signal;       /* set by the signal handler: stop early */
	int map;                             /* --untar: map DIR once extracted */
};

/* 0 when CMD (argv[0]) names an executable that ss_workload_command() can start, else -errno
 * with "cannot run 'CMD': reason" in err.  Prints nothing. */
int ss_workload_check_command(const char *cmd, char *err, size_t errlen);
/* Run ARGV (no shell) and wait; returns its exit status (128+signal when killed, 127 when it
 * could not be started). */
int ss_workload_command(struct ss_recorder *r, char **argv, const struct ss_workload_ui *ui);
/* Run the extraction; stores its figures in the trace.  Returns 0, 128+signal when the signal
 * flag stopped it, or 1 after printing why. */
int ss_workload_untar(struct ss_recorder *r, struct ss_untar_opts *o, const struct ss_workload_ui *ui);
/* Map DIR's files into the trace (ss_recorder_map); says what it mapped unless quiet, and
 * warns when it could not (a capture without a map is still a capture: not an error). */
void ss_workload_map(struct ss_recorder *r, const char *dir, uint32_t flags,
		     const struct ss_workload_ui *ui);
/* Without a workload: record until the signal flag is set. */
void ss_workload_wait_signal(struct ss_recorder *r, const struct ss_workload_ui *ui);
/* Erase the status line (before printing anything else). */
void ss_workload_clear_line(const struct ss_workload_ui *ui);

#endif
