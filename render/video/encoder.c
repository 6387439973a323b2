// SPDX-License-Identifier: GPL-2.0-or-later
/* The movie encoder: cairo surfaces → swscale → libavcodec → libavformat → outfile (encoder.h). */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/stat.h>

#include "avlib.h"
#include "encoder.h"
#include "errbuf.h"
#include "outfile.h"

#define VIDEO_MAGIC 0x5356494fu  /* "SVIO": ss_video_log_cb checks it before using opaque */
#define IO_BUFSIZE (256 * 1024)
#define MAX_DIM 8192
#define MAX_FPS 240

/*
 * Encoders we know how to set, best first for their codec.  The settings are for plot-like
 * pictures (flat colours, thin lines, text) at 1080p on a small machine, where drawing the
 * frames needs its share of the CPU (issue 16: a 30 s 1080p movie in 30 s on 2 CPUs; figures
 * in tests/bench/encode.sh):
 *   libx264: preset veryfast costs about 9 ms of CPU a 1080p frame here (superfast saves a
 *     sixth of that for 1.7x the bytes, ultrafast half for 2.2x); crf 20 keeps thin lines and
 *     text clean, and flat areas cost almost no bits anyway; a 5-frame lookahead instead of
 *     10 saves ~50 MB at 1080p and made no larger files on plots; threads automatic (x264
 *     runs beside the drawing thread); a keyframe every 5 s lets players seek.
 *   libvpx-vp9: realtime deadline at cpu-used 8 is the only VP9 setting near that speed;
 *     row-mt and tile columns let it use both CPUs; constant quality (crf with b=0).
 * Any other encoder of the codec gets a generous bit rate and its defaults.
 */
static const struct enc_pref {
	enum AVCodecID id;
	const char *name;
	const char *opts;       /* av_dict_parse_string: key=value pairs separated by ':' */
} enc_prefs[] = {
	{ AV_CODEC_ID_H264, "libx264", "preset=veryfast:crf=20:rc-lookahead=5" },
	{ AV_CODEC_ID_VP9, "libvpx-vp9",
	  "deadline=realtime:cpu-used=8:row-mt=1:tile-columns=2:crf=32:b=0" },
};

/* The extensions: muxer and codecs, preferred first. */
static const struct container {
	const char *ext;
	const char *muxer;
	enum AVCodecID codecs[2];
	const char *what;
} containers[] = {
	{ ".mp4", "mp4", { AV_CODEC_ID_H264, AV_CODEC_ID_NONE }, "H.264" },
	{ ".webm", "webm", { AV_CODEC_ID_VP9, AV_CODEC_ID_NONE }, "VP9" },
	{ ".mkv", "matroska", { AV_CODEC_ID_H264, AV_CODEC_ID_VP9 }, "H.264 or VP9" },
};
#define N_CONTAINERS (sizeof(containers) / sizeof(containers[0]))
#define N_PREFS (sizeof(enc_prefs) / sizeof(enc_prefs[0]))

struct ss_video {
	uint32_t magic;
	pthread_mutex_t lock;       /* guards msg: encoder threads may log */
	char msg[256];              /* FFmpeg's last error line about this movie */
	int width, height, fps;
	int64_t frames;
	int io_errno;               /* the output's errno, kept as it was (ENOSPC stays ENOSPC) */
	int failed;
	char *path;
	struct ss_av av;            /* FFmpeg, loaded for this movie */
	const struct container *cont;
	AVCodecContext *enc;
	AVFormatContext *fmt;
	AVStream *st;
	AVFrame *frame;
	AVPacket *pkt;
	struct SwsContext *sws;
	struct ss_outfile *out;
	int fd;
};

/* ---- FFmpeg's log -------------------------------------------------------------------- */

/* The movie a log context belongs to: our codec and format contexts carry it in opaque. */
static struct ss_video *log_owner(void *avcl)
{
	const AVClass *cls = avcl ? *(const AVClass **)avcl : NULL;
	struct ss_video *v = NULL;

	if (!cls)
		return NULL;
	/* by the class's name: the libraries' functions are in the movie's table (avlib.h) */
	if (cls->class_name && !strcmp(cls->class_name, "AVCodecContext"))
		v = ((AVCodecContext *)avcl)->opaque;
	else if (cls->class_name && !strcmp(cls->class_name, "AVFormatContext"))
		v = ((AVFormatContext *)avcl)->opaque;
	return v && v->magic == VIDEO_MAGIC ? v : NULL;
}

void ss_video_log_cb(void *avcl, int level, const char *fmt, va_list vl)
{
	struct ss_video *v;
	size_t n;

	if (level > AV_LOG_ERROR || !(v = log_owner(avcl)))
		return;
	pthread_mutex_lock(&v->lock);
	vsnprintf(v->msg, sizeof(v->msg), fmt, vl);
	n = strlen(v->msg);
	while (n && (v->msg[n - 1] == '\n' || v->msg[n - 1] == '\r'))
		v->msg[--n] = 0;
	pthread_mutex_unlock(&v->lock);
}

/* -errno for an FFmpeg error: errno-valued ones as they are, FFmpeg's own tags as EIO (an
 * output error is reported with the errno the output saw). */
static int av_errno(const struct ss_video *v, int averr)
{
	if (v && v->io_errno)
		return -v->io_errno;
	if (averr < 0 && averr > -4096)
		return averr;
	return averr == AVERROR(ENOMEM) ? -ENOMEM : -EIO;
}

/* "PATH: WHAT: FFmpeg's reason[: its last logged line]" into err; returns -errno. */
static int video_err(struct ss_video *v, int averr, char *err, size_t errlen, const char *what)
{
	char reason[AV_ERROR_MAX_STRING_SIZE] = "";
	char logged[sizeof(v->msg)];
	const struct ss_av *av = &v->av;
	int ret = av_errno(v, averr);

	if (v->io_errno)
		snprintf(reason, sizeof(reason), "%s", strerror(v->io_errno));
	else
		av->av_strerror(averr, reason, sizeof(reason));
	pthread_mutex_lock(&v->lock);
	snprintf(logged, sizeof(logged), "%s", v->msg);
	pthread_mutex_unlock(&v->lock);
	ss_errf(err, errlen, "%s: %s: %s%s%s", v->path, what, reason, logged[0] ? ": " : "",
		logged);
	v->failed = 1;
	return ret;
}

/* ---- encoders ------------------------------------------------------------------------ */

static const struct enc_pref *pref_of(const AVCodec *c)
{
	for (size_t i = 0; i < N_PREFS; i++)
		if (!strcmp(enc_prefs[i].name, c->name))
			return &enc_prefs[i];
	return NULL;
}

/* Does encoder C take yuv420p frames (what we feed every encoder)? */
static int takes_yuv420p(const struct ss_av *av, const AVCodec *c)
{
	const enum AVPixelFormat *f = NULL;

	(void)av;
#if LIBAVCODEC_VERSION_INT >= AV_VERSION_INT(61, 13, 100)
	if (av->avcodec_get_supported_config(NULL, c, AV_CODEC_CONFIG_PIX_FORMAT, 0,
					 (const void **)&f, NULL) < 0)
		return 0;
#else
	f = c->pix_fmts;
#endif
	for (; f && *f != AV_PIX_FMT_NONE; f++)
		if (*f == AV_PIX_FMT_YUV420P)
			return 1;
	return 0;
}

/* The IDX-th candidate encoder for codec ID: our preferred one first, then every other
 * non-experimental encoder of the codec that takes yuv420p, in FFmpeg's order. */
static const AVCodec *candidate(const struct ss_av *av, enum AVCodecID id, int idx)
{
	const AVCodec *c;
	void *it = NULL;
	int n = 0;

	for (size_t i = 0; i < N_PREFS; i++)
		if (enc_prefs[i].id == id && (c = av->avcodec_find_encoder_by_name(enc_prefs[i].name)) &&
		    n++ == idx)
			return c;
	while ((c = av->av_codec_iterate(&it)))
		if (av->av_codec_is_encoder(c) && c->id == id && !pref_of(c) &&
		    !(c->capabilities & AV_CODEC_CAP_EXPERIMENTAL) && takes_yuv420p(av, c) &&
		    n++ == idx)
			return c;
	return NULL;
}

/* Open encoder C for V's size and rate; NULL if it will not open here (no device, no GPU). */
static AVCodecContext *open_encoder(const AVCodec *c, struct ss_video *v, int global_header)
{
	const struct enc_pref *p = pref_of(c);
	const struct ss_av *av = &v->av;
	AVDictionary *opts = NULL;
	AVCodecContext *ctx = av->avcodec_alloc_context3(c);

	if (!ctx)
		return NULL;
	ctx->opaque = v;
	ctx->width = v->width;
	ctx->height = v->height;
	ctx->pix_fmt = AV_PIX_FMT_YUV420P;
	ctx->time_base = (AVRational){ 1, v->fps };
	ctx->framerate = (AVRational){ v->fps, 1 };
	ctx->gop_size = 5 * v->fps;
	ctx->color_range = AVCOL_RANGE_MPEG;
	ctx->colorspace = AVCOL_SPC_BT709;
	ctx->color_primaries = AVCOL_PRI_BT709;
	ctx->color_trc = AVCOL_TRC_BT709;
	if (global_header)
		ctx->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
	if (p)
		av->av_dict_parse_string(&opts, p->opts, "=", ":", 0);
	else    /* about 0.2 bit a pixel a frame at 30 fps: plenty for flat pictures */
		ctx->bit_rate = (int64_t)v->width * v->height * v->fps / 5;
	if (av->avcodec_open2(ctx, c, &opts) < 0)
		av->avcodec_free_context(&ctx);
	av->av_dict_free(&opts);
	return ctx;
}

/* Open the first working encoder for one of CONT's codecs; its names go into TRIED. */
static AVCodecContext *find_encoder(const struct container *cont, struct ss_video *v,
				    int global_header, char *tried, size_t len)
{
	size_t used = 0;

	tried[0] = 0;
	for (int i = 0; i < 2 && cont->codecs[i] != AV_CODEC_ID_NONE; i++) {
		const AVCodec *c;

		for (int k = 0; (c = candidate(&v->av, cont->codecs[i], k)); k++) {
			AVCodecContext *ctx = open_encoder(c, v, global_header);

			if (ctx)
				return ctx;
			if (used < len)
				used += (size_t)snprintf(tried + used, len - used, "%s%s",
							 used ? ", " : "", c->name);
		}
	}
	return NULL;
}

/* FFmpeg for one movie or probe, its log handed to ss_video_log_cb (process-wide, as
 * FFmpeg's log is).  0 or -ENOSYS with the reason in err. */
static int load_av(struct ss_av *av, char *err, size_t errlen)
{
	int ret = ss_av_open(av, err, errlen);

	if (!ret)
		av->av_log_set_callback(ss_video_log_cb);
	return ret;
}

char *ss_video_formats(char *buf, size_t len)
{
	struct ss_video probe = { .width = 64, .height = 64, .fps = 30 };
	const struct ss_av *av = &probe.av;
	size_t used = 0;
	char tried[256], why[200];

	if (!len)
		return buf;
	buf[0] = 0;
	if (load_av(&probe.av, why, sizeof(why))) {
		snprintf(buf, len, "none (%s)", why);
		return buf;
	}
	for (size_t i = 0; i < N_CONTAINERS; i++) {
		AVCodecContext *ctx;

		if (!av->av_guess_format(containers[i].muxer, NULL, NULL))
			continue;
		ctx = find_encoder(&containers[i], &probe, 0, tried, sizeof(tried));
		if (!ctx)
			continue;
		if (used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s (%s)", used ? ", " : "",
						 containers[i].ext, ctx->codec->name);
		av->avcodec_free_context(&ctx);
	}
	if (!buf[0])
		snprintf(buf, len, "none");
	ss_av_close(&probe.av);
	return buf;
}

/* The container FORMAT names ("mp4", "webm", "mkv"), else the one PATH's extension names. */
static const struct container *container_of(const char *path, const char *format)
{
	size_t n = strlen(path);

	for (size_t i = 0; format && i < N_CONTAINERS; i++)
		if (!strcasecmp(format, containers[i].ext + 1))
			return &containers[i];
	for (size_t i = 0; !format && i < N_CONTAINERS; i++) {
		size_t e = strlen(containers[i].ext);

		if (n > e && !strcasecmp(path + n - e, containers[i].ext))
			return &containers[i];
	}
	return NULL;
}

/* "PATH: unknown movie extension .X: this FFmpeg writes ..." (or "format X") into err. */
static void unknown_ext(const char *path, const char *format, char *err, size_t errlen)
{
	const char *dot = strrchr(path, '.');
	char avail[256];

	if (format) {
		ss_errf(err, errlen, "%s: unknown movie format %s: this FFmpeg writes %s", path,
			format, ss_video_formats(avail, sizeof(avail)));
		return;
	}
	if (!dot || strchr(dot, '/'))
		dot = "(none)";
	ss_errf(err, errlen, "%s: unknown movie extension %s: this FFmpeg writes %s", path, dot,
		ss_video_formats(avail, sizeof(avail)));
}

int ss_video_check_path(const char *path, const char *format, char *err, size_t errlen)
{
	struct ss_video probe = { .width = 64, .height = 64, .fps = 30 };
	const struct container *cont = container_of(path, format);
	const struct ss_av *av = &probe.av;
	AVCodecContext *ctx;
	char avail[256], tried[256], why[200];

	if (!cont) {
		unknown_ext(path, format, err, errlen);
		return -EINVAL;
	}
	if (load_av(&probe.av, why, sizeof(why))) {
		ss_errf(err, errlen, "%s: %s", path, why);
		return -ENOSYS;
	}
	ctx = av->av_guess_format(cont->muxer, NULL, NULL)
	      ? find_encoder(cont, &probe, 0, tried, sizeof(tried)) : NULL;
	if (!ctx) {
		ss_errf(err, errlen, "%s: this FFmpeg cannot write %s in %s: it writes %s", path,
			cont->what, cont->ext, ss_video_formats(avail, sizeof(avail)));
		ss_av_close(&probe.av);
		return -ENOSYS;
	}
	av->avcodec_free_context(&ctx);
	ss_av_close(&probe.av);
	return 0;
}

/* ---- output -------------------------------------------------------------------------- */

#if LIBAVFORMAT_VERSION_MAJOR >= 61
static int io_write(void *opaque, const uint8_t *buf, int size)
#else
static int io_write(void *opaque, uint8_t *buf, int size)
#endif
{
	struct ss_video *v = opaque;
	int done = 0;

	while (done < size) {
		ssize_t n = write(v->fd, buf + done, (size_t)(size - done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			v->io_errno = n < 0 ? errno : EIO;
			return AVERROR(v->io_errno);
		}
		done += (int)n;
	}
	return size;
}

static int64_t io_seek(void *opaque, int64_t offset, int whence)
{
	struct ss_video *v = opaque;
	struct stat st;
	off_t r;

	if (whence == AVSEEK_SIZE)
		return fstat(v->fd, &st) < 0 ? AVERROR(errno) : (int64_t)st.st_size;
	r = lseek(v->fd, (off_t)offset, whence & ~AVSEEK_FORCE);
	return r < 0 ? AVERROR(errno) : (int64_t)r;
}

/* The muxer on V's output descriptor; a pipe or FIFO gets a fragmented MP4 (no seeking back). */
static int open_muxer(struct ss_video *v, char *err, size_t errlen)
{
	const struct ss_av *av = &v->av;
	AVDictionary *opts = NULL;
	uint8_t *buf;
	int seekable = lseek(v->fd, 0, SEEK_CUR) >= 0;
	int ret;

	buf = av->av_malloc(IO_BUFSIZE);
	if (!buf)
		return video_err(v, AVERROR(ENOMEM), err, errlen, "opening the output");
	v->fmt->pb = av->avio_alloc_context(buf, IO_BUFSIZE, 1, v, NULL, io_write,
					seekable ? io_seek : NULL);
	if (!v->fmt->pb) {
		av->av_free(buf);
		return video_err(v, AVERROR(ENOMEM), err, errlen, "opening the output");
	}
	v->fmt->flags |= AVFMT_FLAG_CUSTOM_IO;
	if (!seekable && !strcmp(v->cont->muxer, "mp4"))
		av->av_dict_set(&opts, "movflags", "frag_keyframe+empty_moov+default_base_moof", 0);
	v->st = av->avformat_new_stream(v->fmt, NULL);
	if (!v->st) {
		av->av_dict_free(&opts);
		return video_err(v, AVERROR(ENOMEM), err, errlen, "opening the output");
	}
	v->st->time_base = v->enc->time_base;
	v->st->avg_frame_rate = v->st->r_frame_rate = v->enc->framerate;
	ret = av->avcodec_parameters_from_context(v->st->codecpar, v->enc);
	if (ret >= 0)
		ret = av->avformat_write_header(v->fmt, &opts);
	av->av_dict_free(&opts);
	return ret < 0 ? video_err(v, ret, err, errlen, "writing the header") : 0;
}

/* ---- the movie ----------------------------------------------------------------------- */

static void video_free(struct ss_video *v)
{
	struct ss_av *av = &v->av;

	if (!av->lib[0])            /* FFmpeg did not load: nothing of it to free */
		goto unloaded;
	if (v->fmt) {
		if (v->fmt->pb) {
			av->av_freep(&v->fmt->pb->buffer);
			av->avio_context_free(&v->fmt->pb);
		}
		av->avformat_free_context(v->fmt);
	}
	av->avcodec_free_context(&v->enc);
	av->av_frame_free(&v->frame);
	av->av_packet_free(&v->pkt);
	av->sws_freeContext(v->sws);
	ss_av_close(av);
unloaded:
	pthread_mutex_destroy(&v->lock);
	v->magic = 0;
	free(v->path);
	free(v);
}

struct ss_video *ss_video_open(const char *path, const char *format, int width, int height,
			       int fps, char *err, size_t errlen)
{
	const struct container *cont = container_of(path, format);
	const struct ss_av *av;
	struct ss_video *v;
	char avail[256], tried[256];
	const int *cs;
	int ret;

	if (!cont) {
		unknown_ext(path, format, err, errlen);
		errno = EINVAL;
		return NULL;
	}
	if (width < 16 || height < 16 || width > MAX_DIM || height > MAX_DIM || width % 2 ||
	    height % 2 || fps < 1 || fps > MAX_FPS) {
		ss_errf(err, errlen, "%s: cannot encode %dx%d at %d fps: width and height must be "
			"even, 16 to %d; the rate 1 to %d", path, width, height, fps, MAX_DIM, MAX_FPS);
		errno = EINVAL;
		return NULL;
	}
	v = calloc(1, sizeof(*v));
	if (!v || !(v->path = strdup(path))) {
		free(v);
		ss_errf(err, errlen, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	pthread_mutex_init(&v->lock, NULL);
	v->magic = VIDEO_MAGIC;
	v->width = width;
	v->height = height;
	v->fps = fps;
	v->cont = cont;
	v->fd = -1;
	av = &v->av;
	if ((ret = load_av(&v->av, avail, sizeof(avail)))) {
		ss_errf(err, errlen, "%s: %s", path, avail);
		goto error;
	}

	/* the muxer first: it says whether the codec must put its headers out of band */
	ret = av->avformat_alloc_output_context2(&v->fmt, NULL, cont->muxer, NULL);
	if (ret < 0 || !v->fmt) {
		ss_errf(err, errlen, "%s: this FFmpeg has no %s muxer: it writes %s", path,
			cont->muxer, ss_video_formats(avail, sizeof(avail)));
		ret = -ENOSYS;
		goto error;
	}
	v->fmt->opaque = v;
	v->enc = find_encoder(cont, v, !!(v->fmt->oformat->flags & AVFMT_GLOBALHEADER),
			      tried, sizeof(tried));
	if (!v->enc) {
		ss_errf(err, errlen, "%s: this FFmpeg has no working %s encoder%s%s%s: it writes %s",
			path, cont->what, tried[0] ? " (tried " : "", tried,
			tried[0] ? ")" : "", ss_video_formats(avail, sizeof(avail)));
		ret = -ENOSYS;
		goto error;
	}
	v->frame = av->av_frame_alloc();
	v->pkt = av->av_packet_alloc();
	/* cairo's RGB24 and ARGB32 are native-endian 32-bit words; alpha is left out */
	v->sws = av->sws_getContext(width, height, AV_PIX_FMT_0RGB32, width, height,
				AV_PIX_FMT_YUV420P, SWS_BILINEAR, NULL, NULL, NULL);
	if (!v->frame || !v->pkt || !v->sws) {
		ss_errf(err, errlen, "out of memory");
		ret = -ENOMEM;
		goto error;
	}
	/* BT.709 limited range, as tagged on the stream (HD players assume it) */
	cs = av->sws_getCoefficients(SWS_CS_ITU709);
	av->sws_setColorspaceDetails(v->sws, cs, 1, cs, 0, 0, 1 << 16, 1 << 16);
	v->frame->format = AV_PIX_FMT_YUV420P;
	v->frame->width = width;
	v->frame->height = height;
	ret = av->av_frame_get_buffer(v->frame, 0);
	if (ret < 0) {
		ret = video_err(v, ret, err, errlen, "allocating a frame");
		goto error;
	}
	v->out = ss_outfile_open(path, SS_OUT_REPLACE, 0666, err, errlen);
	if (!v->out) {
		ret = -errno;
		goto error;
	}
	v->fd = ss_outfile_fd(v->out);
	ret = open_muxer(v, err, errlen);
	if (ret)
		goto error;
	return v;
error:
	ss_video_abort(v);
	errno = -ret;
	return NULL;
}

/* Hand every packet the encoder has ready to the muxer. */
static int drain(struct ss_video *v, char *err, size_t errlen)
{
	const struct ss_av *av = &v->av;

	for (;;) {
		int ret = av->avcodec_receive_packet(v->enc, v->pkt);

		if (ret == AVERROR(EAGAIN) || ret == AVERROR_EOF)
			return 0;
		if (ret < 0)
			return video_err(v, ret, err, errlen, "encoding");
		av->av_packet_rescale_ts(v->pkt, v->enc->time_base, v->st->time_base);
		v->pkt->stream_index = v->st->index;
		ret = av->av_interleaved_write_frame(v->fmt, v->pkt);
		if (ret < 0)
			return video_err(v, ret, err, errlen, "writing");
	}
}

int ss_video_write_frame(struct ss_video *v, cairo_surface_t *surface, char *err,
			 size_t errlen)
{
	const struct ss_av *av = &v->av;
	const uint8_t *src[1];
	int stride[1], ret;
	cairo_format_t f;

	if (v->failed) {
		ss_errf(err, errlen, "%s: the movie already failed", v->path);
		return -EIO;
	}
	if (cairo_surface_get_type(surface) != CAIRO_SURFACE_TYPE_IMAGE ||
	    ((f = cairo_image_surface_get_format(surface)) != CAIRO_FORMAT_RGB24 &&
	     f != CAIRO_FORMAT_ARGB32) ||
	    cairo_image_surface_get_width(surface) != v->width ||
	    cairo_image_surface_get_height(surface) != v->height) {
		ss_errf(err, errlen, "%s: a frame must be a %dx%d RGB24 or ARGB32 image surface",
			v->path, v->width, v->height);
		return -EINVAL;
	}
	cairo_surface_flush(surface);
	src[0] = cairo_image_surface_get_data(surface);
	stride[0] = cairo_image_surface_get_stride(surface);
	/* the encoder may still hold the last frame's buffer: write into a fresh one then */
	ret = av->av_frame_make_writable(v->frame);
	if (ret < 0)
		return video_err(v, ret, err, errlen, "allocating a frame");
	av->sws_scale(v->sws, src, stride, 0, v->height, v->frame->data, v->frame->linesize);
	v->frame->pts = v->frames;
	ret = av->avcodec_send_frame(v->enc, v->frame);
	if (ret < 0)
		return video_err(v, ret, err, errlen, "encoding");
	v->frames++;
	return drain(v, err, errlen);
}

int ss_video_close(struct ss_video *v, char *err, size_t errlen)
{
	const struct ss_av *av = &v->av;
	struct ss_outfile *out;
	int ret;

	if (v->failed) {
		ss_errf(err, errlen, "%s: the movie already failed", v->path);
		ss_video_abort(v);
		return -EIO;
	}
	ret = av->avcodec_send_frame(v->enc, NULL);
	if (ret < 0)
		ret = video_err(v, ret, err, errlen, "flushing the encoder");
	else
		ret = drain(v, err, errlen);
	if (!ret) {
		/* a fragmented MP4's trailer returns a size: only < 0 is an error */
		ret = av->av_write_trailer(v->fmt);
		ret = ret < 0 ? video_err(v, ret, err, errlen, "finishing the file") : 0;
	}
	if (!ret) {
		av->avio_flush(v->fmt->pb);
		if (v->fmt->pb->error < 0)
			ret = video_err(v, v->fmt->pb->error, err, errlen, "writing");
	}
	if (ret) {
		ss_video_abort(v);
		return ret;
	}
	out = v->out;
	v->out = NULL;
	video_free(v);
	return ss_outfile_commit(out, err, errlen);
}

void ss_video_abort(struct ss_video *v)
{
	if (!v)
		return;
	ss_outfile_discard(v->out);
	video_free(v);
}

const char *ss_video_encoder_name(const struct ss_video *v)
{
	return v->enc->codec->name;
}

int64_t ss_video_frame_count(const struct ss_video *v)
{
	return v->frames;
}
