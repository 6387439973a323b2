// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A movie's clock: which slice of trace time each frame shows.  Frame k of N shows the trace
 * times [at(k), at(k+1)) — the last one also at(N) itself —, so the N slices tile the filmed
 * window [lo, hi] exactly, in order, with nothing shown twice or left out.
 *
 * Without idle skipping the slices are equal: at(k) = lo + (hi - lo) * k / N.  With it
 * (movie --skip-idle), the window is cut into SS_TIMELINE_BINS equal bins; a run of bins with
 * no event that lasts longer than SS_IDLE_MIN_NS is shortened to its first SS_IDLE_KEEP_NS
 * (whole bins), and the frames divide the time that is left equally: a frame whose slice
 * spans a skipped run shows that whole run at once, and the movie says how long it was.
 * Memory is the bins (fixed), not the number of gaps or events.  Pure arithmetic, no I/O.
 */
#ifndef SS_TIMELINE_H
#define SS_TIMELINE_H

#include <stdbool.h>
#include <stdint.h>

#define SS_TIMELINE_BINS 65536
#define SS_IDLE_MIN_NS 1000000000ull     /* longer than this without an event: idle */
#define SS_IDLE_KEEP_NS 250000000ull     /* of an idle run, this much is still shown */

struct ss_timeline {
	uint64_t lo, hi;            /* the filmed window, ns (any common origin) */
	int64_t frames;
	uint32_t nbins;             /* 1 when nothing is skipped */
	uint32_t nkept;             /* bins shown */
	uint32_t *kept;             /* their indices, ascending */
	uint64_t *cum;              /* cum[j]: ns shown before kept bin j; cum[nkept]: in all */
};

/*
 * Set TL up for the window [LO, HI] (LO < HI).  BUSY: NULL (nothing skipped), or NBINS flags,
 * nonzero where the bin holds an event (bin i is ss_timeline_bin_of's).  0 or -ENOMEM.
 * Frames are set with ss_timeline_set_frames before ss_timeline_at is used.
 */
int ss_timeline_init(struct ss_timeline *tl, uint64_t lo, uint64_t hi, const uint8_t *busy,
		     uint32_t nbins);
void ss_timeline_fini(struct ss_timeline *tl);
/* The bin of time T in [lo, hi] when the window is cut into NBINS bins. */
uint32_t ss_timeline_bin_of(uint64_t lo, uint64_t hi, uint32_t nbins, uint64_t t);
/* ns of trace time the movie shows (hi - lo when nothing is skipped). */
uint64_t ss_timeline_shown(const struct ss_timeline *tl);
void ss_timeline_set_frames(struct ss_timeline *tl, int64_t frames);   /* >= 1 */
/* Start of frame K's slice, 0 <= K <= frames (at(frames) = hi). */
uint64_t ss_timeline_at(const struct ss_timeline *tl, int64_t k);
/* Trace time skipped before frame K's slice starts (0 without skipping). */
uint64_t ss_timeline_skipped_before(const struct ss_timeline *tl, int64_t k);

#endif
