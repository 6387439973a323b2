// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The movie encoder: cairo image surfaces in, a video file out, encoded in process with
 * FFmpeg's libraries (libavcodec, libavformat, libswscale).  The container and codec follow the
 * output's extension:
 *   .mp4   H.264 (libx264, else another H.264 encoder this FFmpeg has that takes yuv420p)
 *   .webm  VP9 (libvpx-vp9, else another VP9 encoder)
 *   .mkv   H.264, else VP9
 * Frame-exact: frame k of the file is the k-th surface given, shown at k/fps seconds for 1/fps
 * (time base 1/fps, one timestamp a frame, nothing dropped or repeated); the encoder's delayed
 * frames are flushed by ss_video_close.  The file is written to a temporary name next to PATH
 * (collector/core/outfile.h, SS_OUT_REPLACE) and renamed into place only by a successful
 * ss_video_close: an error or ss_video_abort leaves PATH as it was and no temporary file.
 *
 * Library code: returns -errno or NULL + errno with one line in the caller's buffer; never
 * prints.  FFmpeg is loaded when a movie or a probe needs it (avlib.h), not linked; without it
 * the functions fail with ENOSYS and a line naming the library.  FFmpeg logs through its own
 * process-wide callback, which prints to stderr by default; loading it installs
 * ss_video_log_cb (below), which keeps FFmpeg quiet and hands its error lines to the
 * encoder's messages.  Not thread-safe: one thread drives one struct ss_video.
 */
#ifndef SS_VIDEO_ENCODER_H
#define SS_VIDEO_ENCODER_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cairo.h>

struct ss_video;

/*
 * Open PATH ("-": standard output, outfile.h) for a WIDTH x HEIGHT movie at FPS frames per
 * second, in the container FORMAT ("mp4", "webm", "mkv"), or with FORMAT NULL the one PATH's
 * extension names; a pipe gets a fragmented MP4.  WIDTH and HEIGHT must be
 * even (4:2:0 chroma), 16..8192; FPS 1..240.  NULL + errno with a reason in err:
 * EINVAL (an unknown extension, or a bad size or rate: the line names the extensions this
 * FFmpeg can write), ENOSYS (this FFmpeg has no working encoder for the extension's codec:
 * the line names what is available), or an error of the output file (outfile.h).
 * Nothing is created on disk unless an encoder was found.
 */
struct ss_video *ss_video_open(const char *path, const char *format, int width, int height,
			       int fps, char *err, size_t errlen);

/*
 * Encode the next frame from SURFACE, an image surface of the movie's size in
 * CAIRO_FORMAT_RGB24 or CAIRO_FORMAT_ARGB32 (alpha is ignored: draw an opaque background).
 * The surface is only read, and may be redrawn as soon as this returns.  0 or -errno with a
 * reason in err (EINVAL for a wrong surface; ENOSPC and the like from the output).  After an
 * error the movie cannot be completed: ss_video_abort it.
 */
int ss_video_write_frame(struct ss_video *v, cairo_surface_t *surface, char *err,
			 size_t errlen);

/* Flush the encoder, finish the container and rename the file into place.  Frees V whatever
 * happens; on error nothing is left under PATH's name that was not there before.  0 or -errno
 * with a reason in err. */
int ss_video_close(struct ss_video *v, char *err, size_t errlen);

/* Give up: free V and remove the temporary file (PATH is untouched).  Accepts NULL. */
void ss_video_abort(struct ss_video *v);

/*
 * Can PATH (in FORMAT, or NULL: by its extension) be written, before any work is done?  0, or -EINVAL (an unknown extension) or
 * -ENOSYS (this FFmpeg has no working encoder for it), with a line in err that names what this
 * FFmpeg writes.  Creates nothing.
 */
int ss_video_check_path(const char *path, const char *format, char *err, size_t errlen);

/* The FFmpeg encoder in use ("libx264", "libvpx-vp9"...), owned by V. */
const char *ss_video_encoder_name(const struct ss_video *v);
/* Frames encoded so far. */
int64_t ss_video_frame_count(const struct ss_video *v);

/* What this FFmpeg can write, for help text and messages: e.g.
 * ".mp4 (libx264), .webm (libvpx-vp9), .mkv (libx264)"; "none" if nothing.  Returns BUF. */
char *ss_video_formats(char *buf, size_t len);

/*
 * FFmpeg log callback for av_log_set_callback(): prints nothing.  Error lines that FFmpeg
 * logs about an encoder or muxer of an open struct ss_video are kept (the last one) and added
 * to that movie's next error message; everything else is dropped.  The signature is FFmpeg's.
 */
void ss_video_log_cb(void *avcl, int level, const char *fmt, va_list vl);

#endif
