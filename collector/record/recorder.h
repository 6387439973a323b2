// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Recorder: ties a tracefs capture to a trace file.  A background thread drains the ring
 * buffers every few milliseconds while the workload runs, puts events into global time order
 * and appends them to the file, so a capture killed at any moment leaves a readable file.
 * Phase markers may be added from the workload's thread at any time.
 * Library code: 0/-errno and one-line reasons; never prints.
 */
#ifndef SS_RECORDER_H
#define SS_RECORDER_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "tracecap.h"

struct ss_recorder_opts {
	const char *output;             /* trace file path */
	const char *const *dev_paths;   /* what the user named with -d */
	size_t nr_dev_paths;
	size_t buffer_kb;               /* per-CPU ring buffer size */
	unsigned extra_events;          /* SS_CAP_* */
	const char *sysfs;              /* "/sys" */
	bool probe_fs;                  /* read filesystem zones from the devices */
	bool no_work;                   /* do not record what kworkers run (tasknames.h) */
	bool work_event;                /* from the work event even where stacks would do */
	bool all_work;                  /* the stacks never paused (SS_CAP_WORK_ALWAYS) */
	const char *kallsyms;           /* "/proc/kallsyms" if NULL: names of work functions */
};

struct ss_recorder;

struct ss_recorder_status {
	uint64_t events;                /* written to the file so far */
	uint64_t lost;                  /* lost per page headers so far */
	uint64_t elapsed_ns;
};

/* Resolve devices, probe zones, create the instance and the file (tracing still off). */
struct ss_recorder *ss_recorder_new(const struct ss_recorder_opts *o, char *err, size_t errlen);
/* Extra metadata (command line, archive, ...). */
int ss_recorder_meta(struct ss_recorder *r, const char *key, const char *value);
/* Switch tracing on and start the drain thread; writes the "start" marker. */
int ss_recorder_start(struct ss_recorder *r, char *err, size_t errlen);
/* Phase marker on the trace clock (CLOCK_MONOTONIC now, or MONO_NS if non-zero). */
int ss_recorder_phase(struct ss_recorder *r, const char *name, uint32_t kind, uint64_t mono_ns);
void ss_recorder_status(struct ss_recorder *r, struct ss_recorder_status *st);
/*
 * After the workload: keep capturing until every request issued in the trace has completed
 * (pair.h's rule, on the events written so far), at most LINGER_NS, or until *STOP is set.
 * The requests issued before the end of the latest lost events, whose completions may be
 * among them, count as completed once the kernel counts no request in flight on the traced
 * devices (sysfs's inflight).
 */
void ss_recorder_settle(struct ss_recorder *r, uint64_t linger_ns, volatile sig_atomic_t *stop);
/* After stop: requests issued in the trace that never completed in it — but for those issued
 * before the end of the latest lost events, counted in *LOST (if not NULL). */
uint64_t ss_recorder_incomplete(struct ss_recorder *r, uint64_t *lost);
/*
 * Switch tracing off, drain what is left, write the statistics and the end record.
 * EXIT_STATUS is stored in the capture record.  Returns 0 or the first error met while
 * recording (a write error, e.g. ENOSPC on the output file) with a reason in err.
 */
int ss_recorder_stop(struct ss_recorder *r, int exit_status, char *err, size_t errlen);
/*
 * Non-zero (-errno) once the drain thread has failed, e.g. the output's filesystem is full:
 * nothing more will be recorded, so the workload should be stopped.  Safe from any thread.
 */
int ss_recorder_failed(struct ss_recorder *r);
/*
 * Before stop: check that every traced disk is still there (its sysfs entry exists and has a
 * non-zero size; a detached loop device keeps its node but drops to size 0).  0, or -ENODEV
 * with a reason in err; the reason is also stored in the trace as meta "capture.warning".
 */
int ss_recorder_check_devices(struct ss_recorder *r, char *err, size_t errlen);
/* After the stop: the kworkers' stacks' pauses (tracecap.h) up to it; all 0 before, where the
 * work is not recorded from stacks, or where they never paused. */
void ss_recorder_stack_pauses(const struct ss_recorder *r, struct ss_stack_pauses *out);
/* Lost-event totals after stop: page headers + overrun + dropped. */
uint64_t ss_recorder_lost(struct ss_recorder *r);
/* Destroy the tracing instance (always) and free.  Without a successful stop the file is
 * closed without an end record.  Accepts NULL. */
void ss_recorder_free(struct ss_recorder *r);

/*
 * Map the files and directories under DIR (a directory on one of the traced devices) into
 * the trace (format.h's file map; mapwrite.h), between "map" phase markers.  FLAGS:
 * SS_FMAP_*.  0 or -errno with a reason in err (-ENODEV: DIR is on no traced device);
 * ST (may be NULL) gets the walk's figures.
 */
struct ss_fsmap_stats;
int ss_recorder_map(struct ss_recorder *r, const char *dir, uint32_t flags,
		    struct ss_fsmap_stats *st, char *err, size_t errlen);

/* Devices traced, for messages: count and the i-th record. */
size_t ss_recorder_nr_devices(const struct ss_recorder *r);
const struct ss_rec_device *ss_recorder_device(const struct ss_recorder *r, size_t i);
size_t ss_recorder_nr_zones(const struct ss_recorder *r);
const char *ss_recorder_instance(const struct ss_recorder *r);
/* Task records written so far (names of the processes behind the events). */
uint64_t ss_recorder_nr_tasks(const struct ss_recorder *r);

uint64_t ss_mono_now_ns(void);

#endif
