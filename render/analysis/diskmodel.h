// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Disk service-time model: what a trace's issued requests would cost on a spinning disk (or an
 * SSD), replayed one at a time in issue order.  In the style of Ruemmler & Wilkes, "An
 * introduction to disk drive modeling" (IEEE Computer 27(3), 1994) and DiskSim:
 *
 *   time = command overhead + seek(cylinder distance) + rotational latency + transfer
 *
 * with a two-regime seek curve (a + b*sqrt(d) up to a third of the stroke, c + e*d beyond, both
 * through the track-to-track / average / full-stroke times), a zoned media rate (outer zones
 * faster), head switches and write settle.  The traced device's sectors are laid onto the
 * platter (its first sector on the outermost track, its last on the innermost), so its whole
 * span is one full stroke.  Every parameter, its sources, the model's limits and a worked
 * example: docs/disk-model.md.
 *
 * Use: parse a spec into parameters (a preset "hdd7200[,key=value...]" or a parameter file),
 * make one model per traced device and feed it that device's events in issue order; each call
 * says what that request cost, so a caller can attribute it to a phase, a zone or a time bin,
 * and ss_disk_model_result() gives the totals.  Pure computation: no globals, nothing printed.
 */
#ifndef SS_DISKMODEL_H
#define SS_DISKMODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "seekscope/format.h"

#define SS_DISK_NAME_MAX   32
#define SS_DISK_MAX_ZONES  64
#define SS_DISK_FILE_MAX   (64u << 10)   /* a parameter file larger than this is refused */

enum ss_disk_kind { SS_DISK_HDD = 1, SS_DISK_SSD = 2 };

/* Times in milliseconds, rates in MB/s (10^6 bytes per second). */
struct ss_disk_params {
	char name[SS_DISK_NAME_MAX];  /* the preset the parameters started from */
	enum ss_disk_kind kind;
	/* spinning disks */
	double rpm;
	unsigned heads;               /* recording surfaces: tracks per cylinder */
	unsigned zones;               /* recording zones, equal cylinder counts, outer first */
	double outer_mbs;             /* sustained media rate of the outermost zone */
	double inner_mbs;             /* ... and of the innermost */
	double track_to_track_ms;     /* seek over one cylinder */
	double avg_seek_ms;           /* seek over a third of the stroke */
	double full_stroke_ms;        /* seek over the whole stroke */
	double head_switch_ms;        /* switch to another surface of the same cylinder */
	double write_settle_ms;       /* extra settle before writing after any head move */
	double overhead_ms;           /* command processing per request */
	double bus_mbs;               /* interface rate: writes absorbed by the write cache */
	bool wcache;                  /* write cache on: writes cost overhead + bus transfer */
	/* solid-state disks */
	double read_latency_ms, write_latency_ms;
	double read_mbs, write_mbs;
	/* both */
	unsigned ncq;                 /* command queue depth; only 1 (issue order) is modelled */
};

/* "hdd7200, hdd5400, hdd15k, ssd": the preset names, for help and error texts. */
const char *ss_disk_preset_names(void);
/* Fill P with preset NAME: 0, or -EINVAL (P untouched) for an unknown name. */
int ss_disk_params_preset(const char *name, struct ss_disk_params *p);
/*
 * Set one parameter from text ("rpm", "7200"; "wcache", "on").  0, or -EINVAL with one line in
 * ERR naming what is valid: an unknown key (or one for the other kind of disk) lists the
 * keys, a bad value gives the key's range.  P is untouched on failure.
 */
int ss_disk_params_set(struct ss_disk_params *p, const char *key, const char *value,
		       char *err, size_t errlen);
/* Relations between parameters (average seek between track-to-track and full stroke, inner
 * rate not above outer, ...): 0 or -EINVAL with one line in ERR. */
int ss_disk_params_check(const struct ss_disk_params *p, char *err, size_t errlen);
/*
 * "NAME[,key=value...]" with NAME a preset: 0, or -EINVAL with one line in ERR (an unknown
 * NAME lists the presets).  Never touches the file system.  P is untouched on failure.
 */
int ss_disk_params_parse_spec(const char *spec, struct ss_disk_params *p, char *err,
			      size_t errlen);
/*
 * The text of a parameter file: one "key = value" a line, '#' starts a comment, blank lines
 * ignored; the first setting must be "model = NAME" (the preset the others change).  0, or
 * -EINVAL with "line N: ..." in ERR.  P is untouched on failure.
 */
int ss_disk_params_parse_text(const char *text, size_t len, struct ss_disk_params *p,
			      char *err, size_t errlen);
/*
 * What `--disk SPEC` takes: a preset spec as ss_disk_params_parse_spec(), or else the path of
 * a parameter file (a regular file of at most SS_DISK_FILE_MAX bytes).  0 or -errno with one
 * line in ERR ("FILE: line N: ..." for a file's errors).
 */
int ss_disk_model_parse(const char *spec, struct ss_disk_params *p, char *err, size_t errlen);
/*
 * P as parameter-file text (model line first, then every key of its kind): the number of
 * characters it needed, as snprintf.  Reading it back gives the same parameters.
 */
int ss_disk_params_format(const struct ss_disk_params *p, char *buf, size_t len);

/* What a request cost, in seconds; total_s is the sum of the four parts. */
struct ss_disk_cost {
	double total_s;
	double seek_s;           /* arm movement, head switches between requests, write settle */
	double rotation_s;       /* waiting for the first sector to come under the head */
	double transfer_s;       /* media (or bus) transfer, head switches inside the request */
	double overhead_s;       /* command overhead; an SSD's per-request latency */
};
void ss_disk_cost_add(struct ss_disk_cost *dst, const struct ss_disk_cost *src);

struct ss_disk_result {
	struct ss_disk_cost time;
	uint64_t requests;       /* requests modelled */
	uint64_t seeks;          /* of which moved the arm to another cylinder */
	uint64_t bytes;          /* bytes transferred (discards move none) */
	uint64_t ignored;        /* events fed but not modelled (not ISSUE, no data) */
};

struct ss_disk_model;

/*
 * A model of one device of DEVICE_SECTORS 512-byte sectors (ss_rec_device.nr_sectors) with
 * parameters P (copied).  NULL with errno = EINVAL (P fails ss_disk_params_check(), or no
 * sectors) or ENOMEM.  Caller frees.
 */
struct ss_disk_model *ss_disk_model_new(const struct ss_disk_params *p, uint64_t device_sectors);
void ss_disk_model_free(struct ss_disk_model *m);      /* accepts NULL */
/* Forget the head position and the totals (a second pass). */
void ss_disk_model_reset(struct ss_disk_model *m);

/*
 * Feed one event of the device, in issue order.  ISSUE events with data are modelled (see
 * seek.h: flushes and every other event type are ignored, like a seek count ignores them).
 * Returns 1 when modelled, with its cost in *COST (may be NULL), 0 when ignored (*COST zero),
 * -EXDEV for an event of another device than the first one fed.  Sectors past the device's
 * end count as its last sector.
 */
int ss_disk_model_feed(struct ss_disk_model *m, const struct ss_event *ev,
		       struct ss_disk_cost *cost);
/* Totals since new/reset. */
void ss_disk_model_result(const struct ss_disk_model *m, struct ss_disk_result *r);

/* The model's geometry, for tests, documentation and plots (0 for an SSD). */
double ss_disk_model_cylinders(const struct ss_disk_model *m);
/* Seek time in seconds over D cylinders (0 for 0). */
double ss_disk_model_seek_s(const struct ss_disk_model *m, uint64_t d);
/* Sustained media rate, bytes per second, at SECTOR (an SSD: its read rate). */
double ss_disk_model_media_rate(const struct ss_disk_model *m, uint64_t sector);

#endif
