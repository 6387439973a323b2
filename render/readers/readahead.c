// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Read-ahead of a trace's events in a thread of its own (readahead.h).
 *
 * A ring of RA_SLOTS slots of RA_SLOT_EVENTS events each (4 x 192 KiB: a slot is small
 * enough to be still in a cache when the counting CPU takes it; larger slots only delay the
 * start, and the caller's first batch).  The
 * thread fills the slot after the last one published with as many of the backend's events as
 * it holds, publishing a slot when it is full or the backend has ended (the end, or an error,
 * travels with the slot's events).  The caller holds the slot it was given until its next
 * call; the thread waits while every other slot is published and not yet taken.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "readahead.h"

#define RA_SLOTS 4
#define RA_SLOT_EVENTS SS_READAHEAD_SLOT_EVENTS

struct ra_slot {
	struct ss_event *ev;
	size_t n;
	int end;                    /* 1: more follows; else the backend's 0 or -errno after ev */
};

struct ss_readahead {
	struct ss_trace *t;
	ss_readahead_next_fn next;
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;          /* a slot published, a slot given back, or stop */
	struct ra_slot slot[RA_SLOTS];
	unsigned head;              /* the slot the thread fills next */
	unsigned tail;              /* the slot the caller takes next */
	unsigned ready;             /* published and not taken */
	bool held;                  /* the caller holds the slot before tail */
	bool stop;
	bool ended;                 /* the caller has been given the end */
	int final;                  /* what the caller gets from now on when ended */
};

/* The thread's side: whether a slot may be filled (waits for one); false when told to stop. */
static bool wait_for_room(struct ss_readahead *ra)
{
	bool go;

	pthread_mutex_lock(&ra->mu);
	while (!ra->stop && ra->ready + ra->held >= RA_SLOTS)
		pthread_cond_wait(&ra->cv, &ra->mu);
	go = !ra->stop;
	pthread_mutex_unlock(&ra->mu);
	return go;
}

static void *reader(void *arg)
{
	struct ss_readahead *ra = arg;
	const struct ss_event *pend = NULL;
	size_t pend_n = 0;
	int end = 1;

	while (end > 0 && wait_for_room(ra)) {
		struct ra_slot *s = &ra->slot[ra->head];
		size_t fill = 0;

		while (fill < RA_SLOT_EVENTS) {
			size_t k;

			if (!pend_n) {
				end = ra->next(ra->t, &pend, &pend_n);
				if (end <= 0)
					break;
				continue;
			}
			k = pend_n < RA_SLOT_EVENTS - fill ? pend_n : RA_SLOT_EVENTS - fill;
			memcpy(s->ev + fill, pend, k * sizeof(*pend));
			fill += k;
			pend += k;
			pend_n -= k;
		}
		s->n = fill;
		s->end = end > 0 ? 1 : end;
		pthread_mutex_lock(&ra->mu);
		ra->head = (ra->head + 1) % RA_SLOTS;
		ra->ready++;
		pthread_cond_broadcast(&ra->cv);
		pthread_mutex_unlock(&ra->mu);
	}
	return NULL;
}

struct ss_readahead *ss_readahead_start(struct ss_trace *t, ss_readahead_next_fn next)
{
	struct ss_readahead *ra = calloc(1, sizeof(*ra));
	sigset_t all, old;
	int ret = ENOMEM;

	if (!ra)
		return NULL;
	ra->t = t;
	ra->next = next;
	for (size_t i = 0; i < RA_SLOTS; i++)
		if (!(ra->slot[i].ev = malloc(RA_SLOT_EVENTS * sizeof(struct ss_event))))
			goto fail;
	if ((ret = pthread_mutex_init(&ra->mu, NULL)))
		goto fail;
	if ((ret = pthread_cond_init(&ra->cv, NULL))) {
		pthread_mutex_destroy(&ra->mu);
		goto fail;
	}
	/* signals stay with the caller's thread (the commands' handlers expect them there) */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = pthread_create(&ra->thread, NULL, reader, ra);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!ret)
		return ra;
	pthread_cond_destroy(&ra->cv);
	pthread_mutex_destroy(&ra->mu);
fail:
	for (size_t i = 0; i < RA_SLOTS; i++)
		free(ra->slot[i].ev);
	free(ra);
	errno = ret;
	return NULL;
}

int ss_readahead_next(struct ss_readahead *ra, const struct ss_event **ev, size_t *n)
{
	struct ra_slot *s;

	*n = 0;
	if (ra->ended)
		return ra->final;
	pthread_mutex_lock(&ra->mu);
	if (ra->held) {
		ra->held = false;
		pthread_cond_broadcast(&ra->cv);
	}
	while (!ra->ready)
		pthread_cond_wait(&ra->cv, &ra->mu);
	s = &ra->slot[ra->tail];
	ra->tail = (ra->tail + 1) % RA_SLOTS;
	ra->ready--;
	ra->held = s->n > 0;
	pthread_mutex_unlock(&ra->mu);
	if (s->end <= 0) {
		ra->ended = true;
		ra->final = s->end;
	}
	if (!s->n)
		return s->end;
	*ev = s->ev;
	*n = s->n;
	return 1;
}

void ss_readahead_stop(struct ss_readahead *ra)
{
	if (!ra)
		return;
	pthread_mutex_lock(&ra->mu);
	ra->stop = true;
	pthread_cond_broadcast(&ra->cv);
	pthread_mutex_unlock(&ra->mu);
	pthread_join(ra->thread, NULL);
	pthread_cond_destroy(&ra->cv);
	pthread_mutex_destroy(&ra->mu);
	for (size_t i = 0; i < RA_SLOTS; i++)
		free(ra->slot[i].ev);
	free(ra);
}
