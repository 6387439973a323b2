// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * seekscope record: capture the block requests of a workload into a trace file.
 * parse options (record_args.c) -> resolve devices + create instance -> start -> run workload
 * -> stop -> report.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "blockdev.h"
#include "blockdev_list.h"
#include "commands.h"
#include "record_args.h"
#include "recorder.h"
#include "workload.h"

/* The only mutable global: set by the signal handler, read by the main loop. */
static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

/* Writing the trace onto a traced device would record the recorder: say so. */
static void warn_feedback(const struct ss_record_opts *o, struct ss_recorder *r)
{
	struct ss_blockdev out;
	char dir[4096], err[256];
	char *slash;

	if (!strcmp(o->output, "-"))   /* a pipe is on no device */
		return;
	snprintf(dir, sizeof(dir), "%s", o->output);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		slash[slash == dir] = 0;
	if (ss_blockdev_resolve(dir, "/sys", &out, err, sizeof(err)))
		return;
	for (size_t i = 0; i < ss_recorder_nr_devices(r); i++) {
		const struct ss_rec_device *d = ss_recorder_device(r, i);

		if (out.rec.dev == d->dev)
			fprintf(stderr, "seekscope record: warning: %s is on the traced device %s; "
				"the trace's own writes will show up in it\n", o->output, d->name);
	}
}

/*
 * -d IMAGE, a regular file: the loop device it is attached to, else (only with --host-disk)
 * the disk that holds it — tracing that silently would record the wrong device.  LOOPS holds
 * the /dev names that replace O's paths.  0, or the exit status after printing why.
 */
static int resolve_images(struct ss_record_opts *o, char (*loops)[48])
{
	for (size_t i = 0; i < o->nr_devs; i++) {
		char names[256], err[512];
		struct ss_blockdev host;
		struct stat st;
		int n;

		if (stat(o->devs[i], &st) < 0 || !S_ISREG(st.st_mode))
			continue;   /* devices and directories: the recorder resolves them */
		n = ss_blockdev_loops_of(o->devs[i], "/sys", names, sizeof(names), err, sizeof(err));
		if (n < 0) {
			fprintf(stderr, "seekscope record: %s\n", err);
			return 1;
		}
		if (n > 1)
			return ss_optable_misuse("record", "%s is attached to several loop devices "
						 "(%s): name one with -d /dev/LOOP", o->devs[i],
						 names);
		if (n == 1) {
			snprintf(loops[i], sizeof(loops[i]), "/dev/%.40s", names);
			if (!o->quiet)
				fprintf(stderr, "seekscope record: %s is attached to %s: tracing %s\n",
					o->devs[i], names, loops[i]);
			o->devs[i] = loops[i];
			continue;
		}
		if (o->host_disk)
			continue;
		if (ss_blockdev_resolve(o->devs[i], "/sys", &host, err, sizeof(err)))
			snprintf(host.rec.name, sizeof(host.rec.name), "?");
		return ss_optable_misuse("record", "%s is a file attached to no loop device: -d "
					 "would trace %s, the disk that holds it; give --host-disk "
					 "for that, or attach the image (losetup -f --show %s)",
					 o->devs[i], host.rec.name, o->devs[i]);
	}
	return 0;
}

/* Can COMMAND be run, by --user AS (searched and checked with its identity) or by us? */
static int check_command(const char *cmd, const struct ss_runas *as, char *err, size_t errlen)
{
	struct ss_runas_saved sv;
	int ret = ss_runas_fs_enter(as, &sv, err, errlen);

	if (ret)
		return ret;
	ret = ss_workload_check_command(cmd, err, errlen);
	ss_runas_fs_leave(as, &sv);
	if (ret && as)
		snprintf(err + strlen(err), errlen - strlen(err), " (as %s)", as->name);
	return ret;
}

int ss_cmd_record(int argc, char **argv)
{
	struct ss_record_opts o;
	struct ss_recorder_opts ro = { 0 };
	struct ss_recorder *r = NULL;
	struct ss_workload_ui ui = { .signal = &got_signal };
	struct sigaction sa;
	char err[512] = "", gone[256] = "";
	const char *out_name, *env;
	struct ss_runas as;
	char loops[SS_RECORD_MAX_DEVS][48];
	int ret, exit_status = 0, rc = 0, stopped_by;
	uint64_t inflight, maybe_lost;

	if ((ret = ss_record_parse(argc, argv, &o, err, sizeof(err))))
		return ss_optable_exit(ret, "record", &ss_record_help, err);
	/*
	 * The live status line only where nothing else writes to its terminal: with --untar and
	 * without a workload.  A COMMAND inherits our stdout and stderr, so it shares the
	 * terminal, and "\r" rewrites would run into its output; like perf record and trace-cmd
	 * record, nothing is printed while it runs.
	 */
	ui.show = !o.quiet && !o.command && isatty(STDERR_FILENO);
	ui.quiet = o.quiet;
	ui.map = !o.no_map;
	/* -o -: the trace is our stdout, so the command's output goes to stderr */
	ui.stdout_taken = !strcmp(o.output, "-");
	out_name = ui.stdout_taken ? "standard output" : o.output;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* a closed stderr pipe must not kill the recorder before it removes its instance */
	signal(SIGPIPE, SIG_IGN);

	/* how kworkers' work is found: stacks where the kernel can (the default), or the
	 * work event (SEEKSCOPE_WORK_NAMES=event) */
	env = getenv("SEEKSCOPE_WORK_NAMES");
	if (env && *env && strcmp(env, "stack") && strcmp(env, "event"))
		return ss_optable_misuse("record", "SEEKSCOPE_WORK_NAMES is 'stack' or 'event', "
					 "not '%s'", env);
	ro.work_event = env && !strcmp(env, "event");
	if ((ret = resolve_images(&o, loops)))
		return ret;
	if (o.user) {
		if (ss_runas_lookup(o.user, &as, err, sizeof(err)))
			return ss_optable_misuse("record", "%s", err);
		ui.as = &as;
		o.untar.as = &as;
	}
	/* everything the workload would refuse, before an instance or a file exists */
	if (o.command && check_command(o.command[0], ui.as, err, sizeof(err))) {
		fprintf(stderr, "seekscope record: %s\n", err);
		return 127;
	}
	if (o.untar.archive && ss_untar_check(&o.untar, err, sizeof(err))) {
		fprintf(stderr, "seekscope record: %s\n", err);
		return 1;
	}
	if (o.map_dir) {
		struct stat sb;

		const char *why = stat(o.map_dir, &sb) < 0 ? strerror(errno) :
				  !S_ISDIR(sb.st_mode) ? "not a directory" : NULL;

		if (why) {
			fprintf(stderr, "seekscope record: --map %s: %s\n", o.map_dir, why);
			return 1;
		}
	}
	ro.output = o.output;
	ro.dev_paths = o.devs;
	ro.nr_dev_paths = o.nr_devs;
	ro.buffer_kb = o.buffer_kb;
	ro.extra_events = o.extra;
	ro.sysfs = "/sys";
	ro.probe_fs = !o.no_zones;
	ro.no_work = o.no_work;
	ro.all_work = o.all_work;
	r = ss_recorder_new(&ro, err, sizeof(err));
	if (!r) {
		fprintf(stderr, "seekscope record: %s\n", err[0] ? err : strerror(errno));
		return 1;
	}
	if (!o.quiet)
		warn_feedback(&o, r);
	if (o.command) {
		char cmdline[4096];
		size_t len = 0;

		cmdline[0] = 0;
		for (char **a = o.command; *a && len < sizeof(cmdline) - 1; a++)
			len += (size_t)snprintf(cmdline + len, sizeof(cmdline) - len, "%s%s",
						a == o.command ? "" : " ", *a);
		ss_recorder_meta(r, "workload", "command");
		ss_recorder_meta(r, "cmdline", cmdline);
	}
	if (ss_recorder_start(r, err, sizeof(err))) {
		fprintf(stderr, "seekscope record: %s\n", err);
		ss_recorder_free(r);
		return 1;
	}
	if (o.command)
		exit_status = ss_workload_command(r, o.command, &ui);
	else if (o.untar.archive)
		exit_status = ss_workload_untar(r, &o.untar, &ui);
	else
		ss_workload_wait_signal(r, &ui);
	ss_workload_clear_line(&ui);
	/* what the workload left under DIR; the map's own writeback completes in the linger */
	if (o.map_dir)
		ss_workload_map(r, o.map_dir, SS_FMAP_AT_END, &ui);
	/* the requests the workload left in flight complete in the trace; a second signal cuts
	 * the wait short (the first one, which ended the workload, decides the exit status) */
	stopped_by = got_signal;
	got_signal = 0;
	ss_recorder_settle(r, (uint64_t)(o.linger_s * 1e9), &got_signal);
	if (!stopped_by)
		stopped_by = got_signal;
	if (ss_recorder_check_devices(r, gone, sizeof(gone)) == 0)
		gone[0] = 0;
	ret = ss_recorder_stop(r, exit_status, err, sizeof(err));
	if (!o.quiet) {
		struct ss_recorder_status st2;
		struct ss_stack_pauses pauses;
		uint64_t lost = ss_recorder_lost(r);

		ss_recorder_status(r, &st2);
		inflight = ss_recorder_incomplete(r, &maybe_lost);
		fprintf(stderr, "seekscope: %llu events in %.2f s written to %s (%llu lost)%s\n",
			(unsigned long long)st2.events, (double)st2.elapsed_ns / 1e9, out_name,
			(unsigned long long)lost, ret ? ", failed" : stopped_by ? ", interrupted" : "");
		if (inflight && !ret)
			fprintf(stderr, "seekscope: warning: %llu requests were still in flight when "
				"the capture stopped; their completions are not in the trace (--linger "
				"SECONDS waits longer than %g s)\n", (unsigned long long)inflight,
				o.linger_s);
		ss_recorder_stack_pauses(r, &pauses);
		if (pauses.resume_error)
			fprintf(stderr, "seekscope: warning: the trigger that names the kworkers' work "
				"could not be put back after a pause (%s): from then on they are named "
				"without it\n", strerror(pauses.resume_error));
		if (pauses.unnamed)
			fprintf(stderr, "seekscope: %llu kworker event%s recorded without the work's "
				"name: the trigger that names it was paused while other tasks kept the "
				"devices busy (--all-work-names keeps it on)\n",
				(unsigned long long)pauses.unnamed, pauses.unnamed == 1 ? " is" : "s are");
		if (lost)
			fprintf(stderr, "seekscope: warning: %llu events were lost; enlarge the ring "
				"buffer with -b (now %zu KiB per CPU)\n", (unsigned long long)lost,
				o.buffer_kb);
		if (maybe_lost && !ret)
			fprintf(stderr, "seekscope: %llu request%s issued before the last lost events "
				"never completed in the trace: their completions may be among those "
				"events\n", (unsigned long long)maybe_lost, maybe_lost == 1 ? "" : "s");
	}
	if (ret) {
		fprintf(stderr, "seekscope record: %s (the events before that are in %s)\n", err,
			out_name);
		rc = 1;
	}
	if (gone[0]) {
		fprintf(stderr, "seekscope record: %s\n", gone);
		rc = 1;
	}
	ss_recorder_free(r);
	/* the one rule for every mode: a failed capture, else the signal that stopped the
	 * recording (as a shell reports a command killed by it), else the workload's status */
	if (rc)
		return rc;
	return stopped_by ? 128 + stopped_by : exit_status;
}
