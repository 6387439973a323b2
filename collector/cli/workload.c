// SPDX-License-Identifier: GPL-2.0-or-later
/* Workloads under `seekscope record`: a command, the extraction, or waiting for Ctrl-C. */
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fsmap.h"
#include "workload.h"

extern char **environ;

_Static_assert(sizeof(sig_atomic_t) == sizeof(int), "the untar stop flag is the signal flag");

/* 0 when FILE is an executable regular file, else the errno execve would give. */
static int runnable(const char *file)
{
	struct stat st;

	if (stat(file, &st) < 0)
		return errno;
	if (!S_ISREG(st.st_mode))
		return EACCES;
	/* the effective (file-system) ids: those of --user while its identity is taken */
	return faccessat(AT_FDCWD, file, X_OK, AT_EACCESS) < 0 ? errno : 0;
}

static void nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

void ss_workload_clear_line(const struct ss_workload_ui *ui)
{
	if (ui->show) {
		fprintf(stderr, "\r\033[K");
		fflush(stderr);
	}
}

static void status_line(struct ss_recorder *r, const struct ss_workload_ui *ui, const char *extra)
{
	struct ss_recorder_status st;

	if (!ui->show)
		return;
	ss_recorder_status(r, &st);
	fprintf(stderr, "\r\033[K%s%srecording %.1f s, %" PRIu64 " events, %" PRIu64 " lost",
		extra ? extra : "", extra ? "  " : "seekscope: ", (double)st.elapsed_ns / 1e9,
		st.events, st.lost);
	fflush(stderr);
}

/* Would posix_spawnp() find an executable CMD?  As execvp searches: CMD itself when it names
 * a path, else each directory of $PATH (the default path when it is unset). */
int ss_workload_check_command(const char *cmd, char *err, size_t errlen)
{
	const char *path = getenv("PATH");
	int e = ENOENT;

	if (!*cmd) {
		e = ENOENT;
	} else if (strchr(cmd, '/')) {
		e = runnable(cmd);
	} else {
		if (!path)
			path = "/bin:/usr/bin";
		for (const char *p = path;; p++) {
			size_t len = strcspn(p, ":");
			char file[4096];
			int fe;

			snprintf(file, sizeof(file), "%.*s%s%s", (int)len, p, len ? "/" : "", cmd);
			fe = runnable(file);
			if (!fe)
				return 0;
			if (fe != ENOENT && fe != ENOTDIR)
				e = fe;     /* like execvp: EACCES wins over not found */
			p += len;
			if (!*p)
				break;
		}
	}
	if (!e)
		return 0;
	snprintf(err, errlen, "cannot run '%s': %s", cmd, strerror(e));
	return -e;
}

/*
 * The child between fork and exec: default signal handling and mask, stdout onto stderr when
 * the trace is our stdout, the user of --user (and only stdio kept across the exec), then exec; only async-signal-safe calls (the
 * capture thread may hold a lock at the fork).  A failure is sent as its errno down ERRFD,
 * which the exec closes on success.
 */
static void __attribute__((noreturn)) child(char **argv, char **env, const struct ss_runas *as,
					    bool stdout_taken, int errfd)
{
	sigset_t none;
	int e = 0;

	signal(SIGPIPE, SIG_DFL);   /* the recorder ignores it; the workload gets it back */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (stdout_taken && dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
		e = errno;
	/* --user: the workload gets stdin, stdout and stderr, not the recorder's descriptors
	 * (nor those its caller left open: a root-opened file must not reach the user) */
	if (!e && as)
		e = -ss_runas_close_fds(STDERR_FILENO + 1);
	if (!e && as)
		e = -ss_runas_become(as);
	if (!e) {
		execvpe(argv[0], argv, env);
		e = errno;
	}
	while (write(errfd, &e, sizeof(e)) < 0 && errno == EINTR)
		;
	_exit(127);
}

/* Start ARGV as the workload: its pid, or -errno (it did not start). */
static pid_t start_command(char **argv, const struct ss_workload_ui *ui)
{
	char **env = ui->as ? ss_runas_env(ui->as, environ) : environ;
	int pipefd[2], e = 0;
	ssize_t n;
	pid_t pid = -1;

	if (!env)
		return -ENOMEM;
	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		e = errno;
		goto out;
	}
	pid = fork();
	if (pid == 0)
		child(argv, env, ui->as, ui->stdout_taken, pipefd[1]);
	if (pid < 0)
		e = errno;
	close(pipefd[1]);
	do
		n = read(pipefd[0], &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(pipefd[0]);
	if (pid > 0 && n == (ssize_t)sizeof(e) && e)
		waitpid(pid, NULL, 0);   /* it told us why it could not exec, and exited */
	else if (pid > 0)
		e = 0;
out:
	if (ui->as)
		ss_runas_env_free(env);
	return e ? -e : pid;
}

int ss_workload_command(struct ss_recorder *r, char **argv, const struct ss_workload_ui *ui)
{
	int forwarded = 0, status = 0;
	pid_t pid;

	ss_recorder_phase(r, "workload", SS_PHASE_BEGIN, 0);
	pid = start_command(argv, ui);
	if (pid < 0) {
		ss_recorder_phase(r, "workload", SS_PHASE_END, 0);
		ss_workload_clear_line(ui);
		fprintf(stderr, "seekscope record: cannot run '%s'%s%s: %s\n", argv[0],
			ui->as ? " as " : "", ui->as ? ui->as->name : "", strerror((int)-pid));
		return 127;
	}
	for (int tick = 0;; tick++) {
		pid_t w = waitpid(pid, &status, WNOHANG);

		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			status = 0;
			break;
		}
		/* the trace cannot be written any more (output full): the run is pointless */
		if (!*ui->signal && ss_recorder_failed(r))
			*ui->signal = SIGTERM;
		if (*ui->signal && !forwarded) {
			/* Ctrl-C reaches the whole process group; a kill aimed at us is passed on */
			kill(pid, *ui->signal);
			forwarded = 1;
		}
		if (tick % 4 == 0)
			status_line(r, ui, NULL);
		nap_ms(50);
	}
	ss_recorder_phase(r, "workload", SS_PHASE_END, 0);
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 1;
}

void ss_workload_wait_signal(struct ss_recorder *r, const struct ss_workload_ui *ui)
{
	if (ui->show)
		fprintf(stderr, "seekscope: recording until Ctrl-C\n");
	for (int tick = 0; !*ui->signal && !ss_recorder_failed(r); tick++) {
		if (tick % 4 == 0)
			status_line(r, ui, NULL);
		nap_ms(50);
	}
}

void ss_workload_map(struct ss_recorder *r, const char *dir, uint32_t flags,
		     const struct ss_workload_ui *ui)
{
	struct ss_fsmap_stats st;
	char err[512] = "";
	int ret;

	status_line(r, ui, "[map]");
	ret = ss_recorder_map(r, dir, flags, &st, err, sizeof(err));
	ss_workload_clear_line(ui);
	if (ret) {
		ss_recorder_meta(r, "filemap.error", err);
		fprintf(stderr, "seekscope record: warning: no file map: %s\n", err);
		return;
	}
	if (!ui->quiet)
		fprintf(stderr, "seekscope: map %10.2f s  %8" PRIu64 " files %6" PRIu64 " dirs %8"
			PRIu64 " extents%s\n", (double)st.elapsed_ns / 1e9, st.files, st.dirs,
			st.extents, flags & SS_FMAP_AT_END ? " (files deleted before the end are "
			"not in it)" : "");
	if (st.errors && !ui->quiet)
		fprintf(stderr, "seekscope: warning: %" PRIu64 " entries could not be mapped, "
			"first: %s\n", st.errors, st.first_error);
	if (st.changed && !ui->quiet)
		fprintf(stderr, "seekscope: warning: %" PRIu64 " entries changed while they were "
			"mapped (removed, or replaced by a symlink or another file): left out\n",
			st.changed);
}

/* ---- extraction ---------------------------------------------------------------------- */

struct untar_ctx {
	struct ss_recorder *r;
	const struct ss_workload_ui *ui;
	const char *dest;
	bool no_sync;
	uint64_t phase_start_ns;     /* for the rate shown in the progress bar */
};

/* The extraction polls its stop flag between entries: raise it once the trace is lost. */
static void stop_if_failed(struct untar_ctx *u)
{
	if (!*u->ui->signal && ss_recorder_failed(u->r))
		*u->ui->signal = SIGTERM;
}

static void on_phase(void *ctx, const char *name, bool begin, uint64_t mono_ns)
{
	struct untar_ctx *u = ctx;

	stop_if_failed(u);
	ss_recorder_phase(u->r, name, begin ? SS_PHASE_BEGIN : SS_PHASE_END, mono_ns);
	if (begin)
		u->phase_start_ns = mono_ns;
	if (begin) {
		char line[96];

		snprintf(line, sizeof(line), "[%s]", name);
		status_line(u->r, u->ui, line);
	}
}

static void human(double v, char *buf, size_t len)
{
	static const char *const unit[] = { "B", "KB", "MB", "GB", "TB" };
	int i = 0;

	while (v >= 1000 && i < 4) {
		v /= 1000;
		i++;
	}
	snprintf(buf, len, i ? "%.1f %s" : "%.0f %s", v, unit[i]);
}

static void on_extracted(void *ctx)
{
	struct untar_ctx *u = ctx;

	/* --fsync none: the map must not write back what the workload left dirty */
	ss_workload_map(u->r, u->dest, u->no_sync ? SS_FMAP_NO_SYNC : 0, u->ui);
}

static void on_progress(void *ctx, const struct ss_untar_progress *p)
{
	struct untar_ctx *u = ctx;
	char bar[24], done[16], total[16], rate[16], line[160];
	int filled = 0, width = 20;
	uint64_t now = ss_mono_now_ns();
	double secs = u->phase_start_ns && now > u->phase_start_ns ?
		      (double)(now - u->phase_start_ns) / 1e9 : 0;

	stop_if_failed(u);
	if (!u->ui->show)
		return;
	if (p->archive_total)
		filled = (int)(p->archive_read * (uint64_t)width / p->archive_total);
	if (filled > width)
		filled = width;
	for (int i = 0; i < width; i++)
		bar[i] = i < filled ? '#' : '-';
	bar[width] = 0;
	human((double)p->archive_read, done, sizeof(done));
	human((double)p->archive_total, total, sizeof(total));
	human(secs > 0 ? (double)p->bytes / secs : 0, rate, sizeof(rate));
	snprintf(line, sizeof(line), "%-10s [%s] %s/%s, %" PRIu64 " entries, %s/s", p->phase, bar,
		 done, total, p->entries, rate);
	status_line(u->r, u->ui, line);
}

static void put_u64(struct ss_recorder *r, const char *key, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	ss_recorder_meta(r, key, buf);
}

/* The figures the report and the plots show: archive, entries, and per phase files/bytes. */
static void store_stats(struct ss_recorder *r, const struct ss_untar_opts *o,
			const struct ss_untar_stats *st)
{
	char key[96];

	ss_recorder_meta(r, "archive", o->archive);
	put_u64(r, "archive.bytes", st->archive_bytes);
	put_u64(r, "archive.entries", st->entries);
	put_u64(r, "archive.files", st->files);
	put_u64(r, "archive.dirs", st->dirs);
	put_u64(r, "archive.symlinks", st->symlinks);
	put_u64(r, "archive.hardlinks", st->hardlinks);
	put_u64(r, "archive.data_bytes", st->data_bytes);
	for (size_t i = 0; i < st->nr_phases; i++) {
		const struct ss_untar_phase *p = &st->phases[i];

		/* only what the phase did: a sync has no files/s, a delete writes no bytes */
		if (p->files) {
			snprintf(key, sizeof(key), "phase.%s.files", p->name);
			put_u64(r, key, p->files);
		}
		if (p->bytes) {
			snprintf(key, sizeof(key), "phase.%s.bytes", p->name);
			put_u64(r, key, p->bytes);
		}
		if (p->entries) {
			snprintf(key, sizeof(key), "phase.%s.entries", p->name);
			put_u64(r, key, p->entries);
		}
	}
}

int ss_workload_untar(struct ss_recorder *r, struct ss_untar_opts *o, const struct ss_workload_ui *ui)
{
	struct untar_ctx u = { .r = r, .ui = ui, .dest = o->dest,
			       .no_sync = o->fsync_mode == SS_FSYNC_NONE };
	struct ss_untar_stats st;
	char err[512] = "", buf[32];
	int ret;

	memset(&st, 0, sizeof(st));
	o->phase_cb = on_phase;
	o->progress_cb = on_progress;
	o->extracted_cb = ui->map ? on_extracted : NULL;
	o->ctx = &u;
	o->stop = (volatile int *)ui->signal;
	ss_recorder_meta(r, "workload", "untar");
	ss_recorder_meta(r, "fsync", ss_fsync_mode_name(o->fsync_mode));
	snprintf(buf, sizeof(buf), "%u", o->repeat);
	ss_recorder_meta(r, "repeat", buf);
	ret = ss_untar_run(o, &st, err, sizeof(err));
	store_stats(r, o, &st);
	ss_workload_clear_line(ui);
	if (ret) {
		ss_recorder_meta(r, "workload.error", err[0] ? err : strerror(-ret));
		fprintf(stderr, "seekscope record: extraction %s: %s\n",
			ret == -EINTR ? "interrupted" : "failed", err[0] ? err : strerror(-ret));
		/* stopped by a signal: the status a command killed by it would have */
		return ret == -EINTR && *ui->signal ? 128 + *ui->signal : 1;
	}
	for (size_t i = 0; !ui->quiet && i < st.nr_phases; i++) {
		const struct ss_untar_phase *p = &st.phases[i];
		double s = (double)(p->end_ns - p->start_ns) / 1e9;

		fprintf(stderr, "seekscope: %-12s %8.2f s", p->name, s);
		if (p->files && s > 0)
			fprintf(stderr, "  %8" PRIu64 " files %9.0f files/s", p->files,
				(double)p->files / s);
		if (p->bytes && s > 0)
			fprintf(stderr, " %10.0f KB/s", (double)p->bytes / 1e3 / s);
		fputc('\n', stderr);
	}
	return 0;
}
