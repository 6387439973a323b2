// SPDX-License-Identifier: GPL-2.0-or-later
/* The drawing's fonts found ahead of time (fontwarm.h). */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>

#include "fontwarm.h"
#include "layout.h"
#include "text.h"

struct ss_fontwarm {
	pthread_t thread;
};

static void *warm(void *arg)
{
	(void)arg;
	/* as the layout measures first (the table's plan: bold, then regular, at the small size,
	 * in the measuring context): cairo resolves a face once, with the options and pixel size
	 * of its first use, and keeps it, so the picture's glyphs are the same as without this
	 * thread */
	ss_text_find_fonts(ss_metrics.font_small);
	return NULL;
}

struct ss_fontwarm *ss_fontwarm_start(void)
{
	struct ss_fontwarm *w = malloc(sizeof(*w));
	sigset_t all, old;
	int ret;

	if (!w)
		return NULL;
	/* signals stay with the caller's thread (the commands' handlers expect them there) */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = pthread_create(&w->thread, NULL, warm, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret) {
		free(w);
		return NULL;
	}
	return w;
}

void ss_fontwarm_end(struct ss_fontwarm *w)
{
	if (!w)
		return;
	pthread_join(w->thread, NULL);
	free(w);
}
