// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * seekscope movie: film trace files into an MP4, WebM or Matroska movie (render/video/movie.h).
 * Parse (movie_args.c) -> check the output format -> open -> prepare -> encode with a progress
 * bar on a terminal -> one summary line -> one cleanup label.  SIGINT/SIGTERM stop the encode
 * between frames; the unfinished file is removed (the encoder writes under a temporary name).
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "encoder.h"
#include "movie.h"
#include "movie_args.h"
#include "outfile.h"
#include "plot_args.h"
#include "render_commands.h"
#include "trace_read.h"

#define PROG "seekscope movie"
#define BAR_W 30

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

struct progress {
	bool show;
	struct timespec start, last;
};

static double since(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

/* The movie's progress callback: a bar on stderr (a terminal), at most 10 times a second;
 * nonzero once a signal came. */
static int progress(void *ctx, int64_t done, int64_t total)
{
	struct progress *p = ctx;
	struct timespec now;
	double el, fps;
	char bar[BAR_W + 1];
	int fill;

	if (got_signal)
		return 1;
	if (!p->show)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (done < total && since(&p->last, &now) < 0.1)
		return 0;
	p->last = now;
	el = since(&p->start, &now);
	fps = el > 0 ? (double)done / el : 0;
	fill = (int)(BAR_W * done / total);
	memset(bar, '#', (size_t)fill);
	memset(bar + fill, '.', (size_t)(BAR_W - fill));
	bar[BAR_W] = 0;
	fprintf(stderr, "\r" PROG ": [%s] %3d%%  frame %lld/%lld  %.1f fps  %.0f s left \033[K",
		bar, (int)(100 * done / total), (long long)done, (long long)total, fps,
		fps > 0 ? (double)(total - done) / fps : 0);
	if (done == total)
		fputs("\r\033[K", stderr);
	fflush(stderr);
	return 0;
}

int ss_cmd_movie(int argc, char **argv)
{
	struct ss_movie_args a;
	struct ss_trace *traces[SS_GRAPH_MAX_TRACES] = { NULL };
	struct ss_movie *m = NULL;
	struct progress pr = { 0 };
	struct sigaction sa;
	struct stat st;
	char err[512];
	int nr = 0, ret, status = 1;

	if ((ret = ss_movie_parse(argc, argv, &a, err, sizeof(err))))
		return ss_optable_exit(ret, "movie", &ss_movie_help, err);
	/* a terminal is refused before the traces are read and filmed */
	if (!strcmp(a.out, "-") && ss_outfile_check(a.out, err, sizeof(err))) {
		fprintf(stderr, PROG ": %s\n", err);
		return 1;
	}
	/* what this FFmpeg writes, before any trace is read */
	if ((ret = ss_video_check_path(a.out, a.m.format, err, sizeof(err)))) {
		if (ret == -EINVAL)
			return ss_optable_misuse("movie", "%s", err);
		fprintf(stderr, PROG ": %s\n", err);
		return 1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	nr = a.nr_traces;
	for (int i = 0; i < nr; i++) {
		traces[i] = ss_trace_open(a.traces[i], err, sizeof(err));
		if (!traces[i]) {
			fprintf(stderr, PROG ": %s: %s\n", a.traces[i], err);
			goto cleanup;
		}
		if (traces[i]->truncated && !a.quiet)
			fprintf(stderr, PROG ": %s: warning: %s; filming what was recorded\n",
				a.traces[i], traces[i]->warning);
	}
	pr.show = !a.quiet && isatty(STDERR_FILENO);
	a.m.progress = progress;
	a.m.progress_ctx = &pr;
	m = ss_movie_new(&a.m);
	if (!m) {
		fprintf(stderr, PROG ": %s\n", strerror(errno));
		goto cleanup;
	}
	for (int i = 0; i < nr; i++) {
		char buf[PATH_MAX];

		ret = ss_movie_add_trace(m, traces[i], ss_plot_label(a.labels, a.nr_labels, i,
								      traces[i]->path, buf,
								      sizeof(buf)));
		if (ret) {
			fprintf(stderr, PROG ": %s\n", strerror(-ret));
			goto cleanup;
		}
	}
	if ((ret = ss_movie_prepare(m, err, sizeof(err)))) {
		if (ret == -EINVAL || ret == -ENODEV)   /* a misuse: the size, the frames, the device */
			status = ss_optable_misuse("movie", "%s", err);
		else
			fprintf(stderr, PROG ": %s\n", err);
		goto cleanup;
	}
	clock_gettime(CLOCK_MONOTONIC, &pr.start);
	pr.last = pr.start;
	pr.last.tv_sec -= 1;
	ret = ss_movie_write(m, a.out, err, sizeof(err));
	if (ret == -EINTR && got_signal) {
		if (pr.show)
			fputs("\r\033[K", stderr);
		fprintf(stderr, PROG ": %s, %s not written\n",
			got_signal == SIGTERM ? "terminated" : "interrupted", a.out);
		status = 128 + got_signal;
		goto cleanup;
	}
	if (ret) {
		if (pr.show)
			fputs("\r\033[K", stderr);
		fprintf(stderr, PROG ": %s\n", err);
		goto cleanup;
	}
	if (!a.quiet) {
		struct timespec end;
		double shown = (double)ss_movie_shown_ns(m) / 1e9;
		double len = (double)ss_movie_frames(m) / a.m.fps;

		/* the movie itself may be our stdout: the summary goes to stderr then */
		FILE *f = strcmp(a.out, "-") ? stdout : stderr;

		clock_gettime(CLOCK_MONOTONIC, &end);
		fprintf(f, "%s: %lld frames at %d fps (%.3f s), %dx%d", strcmp(a.out, "-") ? a.out :
			"standard output", (long long)ss_movie_frames(m), a.m.fps, len, a.m.width,
			a.m.height);
		if (strcmp(a.out, "-") && !stat(a.out, &st))
			fprintf(f, ", %.1f MB", (double)st.st_size / 1e6);
		fprintf(f, "; %.3f s of trace time (%.3g x real time)", shown, shown / len);
		if (a.m.skip_idle)
			fprintf(f, ", %.3f s idle skipped", (double)ss_movie_skipped_ns(m) / 1e9);
		fprintf(f, "; encoded in %.1f s\n", since(&pr.start, &end));
	}
	status = 0;
cleanup:
	ss_movie_free(m);
	for (int i = 0; i < nr; i++)
		ss_trace_close(traces[i]);
	return status;
}
