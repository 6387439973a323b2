// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The drawing's fonts found ahead of time: fontconfig reads its configuration (some sixty
 * files), matches SS_FONT_FACE and FreeType opens the faces the first time a text is
 * measured, about 18 ms before a plot can lay its panels out.  A thread of its own does that
 * while the traces are opened; cairo keeps the faces it found (its font caches are shared by
 * all threads and locked), so the first text measured later finds them ready.  Nothing else
 * is shared, and the thread makes no surface (the output is the same byte for byte).  The
 * caller starts it only where it takes no CPU that an opening would use (trace_read.h:
 * ss_trace_opens_alone), so never while a trace-cmd reader is forked either.
 */
#ifndef SS_FONTWARM_H
#define SS_FONTWARM_H

struct ss_fontwarm;

/* Start finding the fonts in a thread; NULL (nothing to wait for) when no thread can be had:
 * they are then found when first used, as always. */
struct ss_fontwarm *ss_fontwarm_start(void);
/* Wait for the thread and free it; NULL is fine. */
void ss_fontwarm_end(struct ss_fontwarm *w);

#endif
