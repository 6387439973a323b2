// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * FFmpeg's libraries, loaded with dlopen() when a movie is made rather than linked: linked, they
 * and the ~120 libraries they need were mapped and relocated at every start of seekscope, which
 * cost every command (a report, a plot) about 25 ms and 27 MB of memory.  The encoder
 * (encoder.c) calls FFmpeg through the table of function pointers filled here, each named like
 * the function it points to and typed from FFmpeg's own headers.  No state outside the table:
 * the dynamic loader counts the openings, and the libraries stay mapped once loaded
 * (RTLD_NODELETE: their encoder threads and exit handlers must not lose their code).
 */
#ifndef SS_VIDEO_AVLIB_H
#define SS_VIDEO_AVLIB_H

#include <stddef.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>

/* The libraries, by the major version of the headers we were built with. */
#define SS_AV_LIBS(X) \
	X(avutil, LIBAVUTIL_VERSION_MAJOR) \
	X(avcodec, LIBAVCODEC_VERSION_MAJOR) \
	X(avformat, LIBAVFORMAT_VERSION_MAJOR) \
	X(swscale, LIBSWSCALE_VERSION_MAJOR)

#if LIBAVCODEC_VERSION_INT >= AV_VERSION_INT(61, 13, 100)
#define SS_AV_CODEC_CONFIG(X) X(avcodec, avcodec_get_supported_config)
#else
#define SS_AV_CODEC_CONFIG(X)
#endif

/* The functions the encoder calls, with the library that has each. */
#define SS_AV_FUNCS(X) \
	X(avutil, av_dict_free) \
	X(avutil, av_dict_parse_string) \
	X(avutil, av_dict_set) \
	X(avutil, av_frame_alloc) \
	X(avutil, av_frame_free) \
	X(avutil, av_frame_get_buffer) \
	X(avutil, av_frame_make_writable) \
	X(avutil, av_free) \
	X(avutil, av_freep) \
	X(avutil, av_log_set_callback) \
	X(avutil, av_malloc) \
	X(avutil, av_strerror) \
	X(avcodec, av_codec_is_encoder) \
	X(avcodec, av_codec_iterate) \
	X(avcodec, av_packet_alloc) \
	X(avcodec, av_packet_free) \
	X(avcodec, av_packet_rescale_ts) \
	X(avcodec, avcodec_alloc_context3) \
	X(avcodec, avcodec_find_encoder_by_name) \
	X(avcodec, avcodec_free_context) \
	X(avcodec, avcodec_open2) \
	X(avcodec, avcodec_parameters_from_context) \
	X(avcodec, avcodec_receive_packet) \
	X(avcodec, avcodec_send_frame) \
	SS_AV_CODEC_CONFIG(X) \
	X(avformat, av_guess_format) \
	X(avformat, av_interleaved_write_frame) \
	X(avformat, av_write_trailer) \
	X(avformat, avformat_alloc_output_context2) \
	X(avformat, avformat_free_context) \
	X(avformat, avformat_new_stream) \
	X(avformat, avformat_write_header) \
	X(avformat, avio_alloc_context) \
	X(avformat, avio_context_free) \
	X(avformat, avio_flush) \
	X(swscale, sws_freeContext) \
	X(swscale, sws_getCoefficients) \
	X(swscale, sws_getContext) \
	X(swscale, sws_scale) \
	X(swscale, sws_setColorspaceDetails)

#define SS_AV_LIB_ENUM(l, major) SS_AV_##l,
enum { SS_AV_LIBS(SS_AV_LIB_ENUM) SS_AV_NR_LIBS };
#undef SS_AV_LIB_ENUM

struct ss_av {
	void *lib[SS_AV_NR_LIBS];
#define SS_AV_POINTER(l, fn) __typeof__(fn) *fn;
	SS_AV_FUNCS(SS_AV_POINTER)
#undef SS_AV_POINTER
};

/*
 * Load the libraries and fill AV.  0, or -ENOSYS with a line naming the library or function
 * that is missing in err (AV is then closed).
 */
int ss_av_open(struct ss_av *av, char *err, size_t errlen);
/* Let go of the libraries (they stay mapped); accepts a table never or half opened. */
void ss_av_close(struct ss_av *av);

#endif
