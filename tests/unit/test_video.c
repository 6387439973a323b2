// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The movie encoder (render/video/encoder.h): for every extension, N frames of a bar whose
 * position is the frame's index are encoded; ffprobe must count exactly N frames at the rate
 * asked and the right duration, and decoding the file back must show frame k's bar where frame
 * k drew it (frame exactness: nothing dropped, repeated or reordered).  Bad extensions and
 * sizes, an abort, a full device and a FIFO (no seeking: fragmented MP4) are checked too, and
 * FFmpeg must print nothing while ss_video_log_cb is installed.
 */
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>

#include <libavutil/log.h>

#include "tap.h"
#include "runline.h"
#include "testdir.h"
#include "encoder.h"
#include "avprobe.h"

#define W 320
#define H 240
#define N 40
#define BAR_X(k) (10 + 7 * (k))     /* left edge of frame k's bar */
#define BAR_W 6

/* the test's real stderr while FFmpeg's output is being caught: ffprobe/ffmpeg write there */
static int real_stderr = 2;

/* Frame K: a white bar at BAR_X(k) on a dark background, drawn as the plots draw (cairo). */
static void draw(cairo_surface_t *s, int k)
{
	cairo_t *cr = cairo_create(s);

	cairo_set_source_rgb(cr, 0.1, 0.1, 0.15);
	cairo_paint(cr);
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_rectangle(cr, BAR_X(k), 0, BAR_W, H);
	cairo_fill(cr);
	cairo_destroy(cr);
}

/* Encode N frames of FORMAT into PATH at FPS; 0 or -errno (err filled). */
static int encode(const char *path, int fps, cairo_format_t format, char *name, size_t namelen,
		  char *err, size_t errlen)
{
	cairo_surface_t *s = cairo_image_surface_create(format, W, H);
	struct ss_video *v = ss_video_open(path, NULL, W, H, fps, err, errlen);
	int ret = 0;

	if (!v) {
		cairo_surface_destroy(s);
		return -errno;
	}
	snprintf(name, namelen, "%s", ss_video_encoder_name(v));
	for (int k = 0; k < N && !ret; k++) {
		draw(s, k);
		ret = ss_video_write_frame(v, s, err, errlen);
	}
	if (!ret && ss_video_frame_count(v) != N)
		ret = -EPROTO;
	if (ret)
		ss_video_abort(v);
	else
		ret = ss_video_close(v, err, errlen);
	cairo_surface_destroy(s);
	return ret;
}

/* ffprobe's frame count, frame rate and duration of PATH's video stream (the container's
 * duration where the stream has none, as in Matroska). */
static int probe(const char *path, long *frames, char *rate, size_t ratelen, double *dur)
{
	char cmd[2048], line[256], fdur[64];
	char *f1, *f2, *f3;

	snprintf(cmd, sizeof(cmd), "ffprobe -v error -count_frames -select_streams v:0 "
		 "-show_entries stream=nb_read_frames,r_frame_rate,duration -of csv=p=0 '%s' 2>&%d", path, real_stderr);
	if (run_line(cmd, line, sizeof(line)))
		return -1;
	/* csv order is the stream's field order: r_frame_rate,duration,nb_read_frames */
	f1 = strtok(line, ",");
	f2 = strtok(NULL, ",");
	f3 = strtok(NULL, ",");
	if (!f1 || !f2 || !f3)
		return -1;
	snprintf(rate, ratelen, "%s", f1);
	*frames = strtol(f3, NULL, 10);
	if (strcmp(f2, "N/A")) {
		*dur = strtod(f2, NULL);
		return 0;
	}
	snprintf(cmd, sizeof(cmd), "ffprobe -v error -show_entries format=duration -of csv=p=0 '%s' "
		 "2>&%d", path, real_stderr);
	if (run_line(cmd, fdur, sizeof(fdur)))
		return -1;
	*dur = strtod(fdur, NULL);
	return 0;
}

/*
 * Decode PATH to grey frames with ffmpeg (every decoded frame, as decoded) and check frame k's
 * bar: the brightest columns of the middle rows must be BAR_X(k)..+BAR_W.  Returns the number
 * of frames whose bar is where it should be, -1 if the count is not N.
 */
static int bars_in_place(const char *path, int *first_bad)
{
	static unsigned char img[W * H];
	char cmd[2048];
	FILE *p;
	int good = 0, n = 0, st;

	snprintf(cmd, sizeof(cmd), "ffmpeg -nostdin -v error -i '%s' -f rawvideo -pix_fmt gray "
		 "-fps_mode passthrough - 2>&%d", path, real_stderr);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	*first_bad = -1;
	while (fread(img, 1, sizeof(img), p) == sizeof(img)) {
		int best = -1;
		double bestsum = -1;

		/* the centre of the brightest BAR_W-wide window, rows H/4..3H/4 */
		for (int x = 0; x + BAR_W <= W; x++) {
			double sum = 0;

			for (int y = H / 4; y < 3 * H / 4; y++)
				for (int i = 0; i < BAR_W; i++)
					sum += img[y * W + x + i];
			if (sum > bestsum) {
				bestsum = sum;
				best = x;
			}
		}
		if (abs(best - BAR_X(n)) <= 1)
			good++;
		else if (*first_bad < 0)
			*first_bad = n;
		n++;
	}
	st = pclose(p);
	if (!WIFEXITED(st) || WEXITSTATUS(st) || n != N)
		return -1;
	return good;
}

/* Entries in the scratch directory (a failure leaves no file, temporary or final). */
static int dir_entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static void test_formats(void)
{
	static const struct {
		const char *ext;
		int fps;
		cairo_format_t format;
		const char *encoder;
	} cases[] = {
		{ "mp4", 20, CAIRO_FORMAT_RGB24, "libx264" },
		{ "webm", 25, CAIRO_FORMAT_ARGB32, "libvpx-vp9" },
		{ "mkv", 8, CAIRO_FORMAT_RGB24, "libx264" },
		{ "MP4", 30, CAIRO_FORMAT_ARGB32, "libx264" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		TP(path, "movie.%s", cases[i].ext);
		char err[512] = "", name[64] = "", rate[32], want_rate[32];
		long frames = -1;
		double dur = -1;
		int bad, ret = encode(path, cases[i].fps, cases[i].format, name, sizeof(name), err,
				      sizeof(err));

		if (!is_int(ret, 0, ".%s: %d frames encoded and closed", cases[i].ext, N))
			printf("#   %s\n", err);
		is_str(name, cases[i].encoder, ".%s: encoder", cases[i].ext);
		if (!ok(probe(path, &frames, rate, sizeof(rate), &dur) == 0, ".%s: ffprobe reads it",
			cases[i].ext))
			continue;
		is_int(frames, N, ".%s: ffprobe counts exactly the frames given", cases[i].ext);
		snprintf(want_rate, sizeof(want_rate), "%d/1", cases[i].fps);
		is_str(rate, want_rate, ".%s: frame rate", cases[i].ext);
		if (!ok(fabs(dur - (double)N / cases[i].fps) < 0.002, ".%s: duration N/fps",
			cases[i].ext))
			printf("#   got %.6f s, want %.6f s\n", dur, (double)N / cases[i].fps);
		is_int(bars_in_place(path, &bad), N, ".%s: every decoded frame k shows frame k's bar",
		       cases[i].ext);
		unlink(path);
	}
	is_int(dir_entries(), 0, "no temporary file left behind");
}

static void test_bad_input(void)
{
	char err[512] = "";
	struct ss_video *v;

	errno = 0;
	v = ss_video_open(tpath("movie.avi"), NULL, W, H, 30, err, sizeof(err));
	ok(!v && errno == EINVAL, "unknown extension: EINVAL");
	ok(strstr(err, "'.avi'") || strstr(err, ".avi"), "the message names the extension: %s", err);
	ok(strstr(err, ".mp4 (libx264)") && strstr(err, ".webm (libvpx-vp9)") &&
	   strstr(err, ".mkv (libx264)"), "and what this FFmpeg writes");
	ok(!strchr(err, '\n'), "in one line");

	v = ss_video_open(tpath("movie"), NULL, W, H, 30, err, sizeof(err));
	ok(!v && errno == EINVAL && strstr(err, "(none)"), "no extension: EINVAL: %s", err);

	v = ss_video_open(tpath("odd.mp4"), NULL, W + 1, H, 30, err, sizeof(err));
	ok(!v && errno == EINVAL, "odd width: EINVAL: %s", err);
	v = ss_video_open(tpath("rate.mp4"), NULL, W, H, 0, err, sizeof(err));
	ok(!v && errno == EINVAL, "zero fps: EINVAL");
	is_int(dir_entries(), 0, "refused opens create no file");

	char f[256];
	ok(strstr(ss_video_formats(f, sizeof(f)), ".webm (libvpx-vp9)") != NULL,
	   "ss_video_formats: %s", f);
	ok(!strcmp(ss_video_formats(f, 8), ".mp4 (l"), "ss_video_formats truncates to its buffer");
}

static void test_abort(void)
{
	TP(path, "keep.mp4");
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, W, H);
	cairo_surface_t *small = cairo_image_surface_create(CAIRO_FORMAT_RGB24, W / 2, H);
	cairo_surface_t *a8 = cairo_image_surface_create(CAIRO_FORMAT_A8, W, H);
	char err[512] = "", buf[16] = "";
	struct ss_video *v;
	int fd;

	v = ss_video_open(path, NULL, W, H, 30, err, sizeof(err));
	for (int k = 0; v && k < 10; k++) {
		draw(s, k);
		ss_video_write_frame(v, s, err, sizeof(err));
	}
	ok(v && dir_entries() == 1, "while encoding: one temporary file");
	ok(access(path, F_OK) < 0, "and nothing under the final name");
	ss_video_abort(v);
	is_int(dir_entries(), 0, "abort leaves no file");

	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	ok(fd >= 0 && write(fd, "old", 3) == 3, "an existing file");
	if (fd >= 0)
		close(fd);
	v = ss_video_open(path, NULL, W, H, 30, err, sizeof(err));
	is_int(v ? ss_video_write_frame(v, small, err, sizeof(err)) : 0, -EINVAL,
	       "a surface of another size: EINVAL");
	is_int(v ? ss_video_write_frame(v, a8, err, sizeof(err)) : 0, -EINVAL,
	       "an A8 surface: EINVAL");
	ss_video_abort(v);
	fd = open(path, O_RDONLY);
	ok(fd >= 0 && read(fd, buf, sizeof(buf)) == 3 && !memcmp(buf, "old", 3),
	   "abort leaves the old file as it was");
	if (fd >= 0)
		close(fd);
	unlink(path);
	ss_video_abort(NULL);
	cairo_surface_destroy(s);
	cairo_surface_destroy(small);
	cairo_surface_destroy(a8);
}

/* A full device under a movie name: the error is ENOSPC, said so, and nothing is renamed. */
static void test_full_device(void)
{
	TP(path, "full.mp4");
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, W, H);
	char err[512] = "";
	struct ss_video *v;
	int ret = 0;

	if (mknod(path, S_IFCHR | 0600, makedev(1, 7)) < 0) {   /* /dev/full */
		printf("ok %d # SKIP the full-device check needs root (mknod)\n", ++tap_state_.run);
		cairo_surface_destroy(s);
		return;
	}
	v = ss_video_open(path, NULL, W, H, 30, err, sizeof(err));
	if (!v)
		ret = -errno;
	/* noise, so the packets fill the output buffer within the frames */
	for (int k = 0; v && k < 200 && !ret; k++) {
		uint32_t *px = (uint32_t *)cairo_image_surface_get_data(s);

		cairo_surface_flush(s);
		for (int i = 0; i < W * H; i++)
			px[i] = (uint32_t)rand();
		cairo_surface_mark_dirty(s);
		ret = ss_video_write_frame(v, s, err, sizeof(err));
	}
	if (v && !ret)
		ret = ss_video_close(v, err, sizeof(err));
	else
		ss_video_abort(v);
	is_int(ret, -ENOSPC, "a full device: ENOSPC kept");
	ok(strstr(err, "No space left") != NULL, "and said: %s", err);
	unlink(path);
	cairo_surface_destroy(s);
}

/* A FIFO cannot seek back: the MP4 is written fragmented, still frame-exact. */
static void test_fifo(void)
{
	TP(fifo, "pipe.mp4");
	TP(copy, "copy.mp4");
	char err[512] = "", name[64], rate[32];
	long frames = -1;
	double dur = -1;
	int ret, st, bad, hold, unblock;
	pid_t pid;

	if (mkfifo(fifo, 0600) < 0) {
		ok(0, "mkfifo: %s", strerror(errno));
		return;
	}
	/* the encoder opens without waiting for a reader (ENXIO when there is none): hold a
	 * reader of our own, which never reads, while the child's blocking open waits for it */
	hold = open(fifo, O_RDONLY | O_NONBLOCK);
	pid = fork();
	if (pid == 0) {
		int in = open(fifo, O_RDONLY), out = open(copy, O_WRONLY | O_CREAT | O_EXCL, 0600);
		char buf[65536];
		ssize_t n;

		while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
			if (write(out, buf, (size_t)n) != n)
				_exit(1);
		_exit(in >= 0 && out >= 0 ? 0 : 1);
	}
	ret = encode(fifo, 30, CAIRO_FORMAT_RGB24, name, sizeof(name), err, sizeof(err));
	if (!is_int(ret, 0, "into a FIFO"))
		printf("#   %s\n", err);
	/* a child still waiting in open() (the encoder never opened) gets a writer and EOF */
	unblock = open(fifo, O_WRONLY | O_NONBLOCK);
	if (unblock >= 0)
		close(unblock);
	if (hold >= 0)
		close(hold);
	waitpid(pid, &st, 0);
	ret = probe(copy, &frames, rate, sizeof(rate), &dur);
	ok(ret == 0 && frames == N, "fragmented MP4: ffprobe counts %ld frames", frames);
	is_int(bars_in_place(copy, &bad), N, "fragmented MP4: every frame k shows frame k's bar");
	unlink(copy);
	unlink(fifo);
}

int main(void)
{
	char ffprobe[64];
	int quiet_fd, saved;
	struct stat st;

	if (run_line("ffprobe -version", ffprobe, sizeof(ffprobe)) ||
	    run_line("ffmpeg -version", ffprobe, sizeof(ffprobe))) {
		skip_all("ffprobe/ffmpeg not installed (package ffmpeg)");
		return 0;
	}
	{
		int sig = av_load_signal();

		if (sig) {
			skip(1, "the encoder: FFmpeg's libraries die of %s when loaded here (under "
			     "valgrind: an instruction it does not know on this CPU)", strsignal(sig));
			return done_testing();
		}
	}
	if (testdir_make("video"))
		return 1;
	/* FFmpeg prints to stderr unless told otherwise: with the callback it must print nothing */
	av_log_set_callback(ss_video_log_cb);
	quiet_fd = open("/tmp", O_TMPFILE | O_RDWR, 0600);
	saved = real_stderr = dup(2);
	if (quiet_fd >= 0)
		dup2(quiet_fd, 2);
	test_formats();
	test_bad_input();
	test_abort();
	test_full_device();
	test_fifo();
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	real_stderr = 2;
	if (quiet_fd < 0 || fstat(quiet_fd, &st) < 0)
		st.st_size = -1;
	if (!ok(st.st_size == 0, "FFmpeg printed nothing on stderr (%lld bytes)",
		(long long)st.st_size) && st.st_size > 0) {
		FILE *f = fdopen(dup(quiet_fd), "r");
		char line[512];

		if (f) {
			rewind(f);
			while (fgets(line, sizeof(line), f))
				printf("#   %s", line);
			fclose(f);
		}
	}
	if (quiet_fd >= 0)
		close(quiet_fd);
	return done_testing();
}
