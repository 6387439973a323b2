// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The producer/consumers ring of fanout.h.  One mutex guards the slots' counters; items are
 * written by the producer before a slot is published and read by the consumers after they
 * saw it published, both under that mutex, which orders the accesses.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "fanout.h"

struct consumer {
	struct ss_fanout *f;
	ss_fanout_fn fn;
	void *arg;
	pthread_t th;
	int err;                       /* its first error; it counts nothing after it */
};

struct ss_fanout {
	size_t size, slot_items, nr_slots, nr;
	unsigned char *mem;            /* nr_slots slots of slot_items items */
	size_t *count;                 /* items in each published slot */
	size_t *pending;               /* consumers that have not yet counted each slot */

	/* the producer's side: the slot being filled */
	size_t fill, n;
	unsigned char *cur;

	pthread_mutex_t mu;
	pthread_cond_t more;           /* a slot was published, or the end */
	pthread_cond_t room;           /* a slot was counted by every consumer */
	uint64_t published;            /* slots published so far */
	bool done;                     /* nothing more will be published */
	bool abort;                    /* stop now (ss_fanout_free before the end) */
	int err;                       /* the first consumer error (written under mu, atomically) */
	size_t running;                /* threads started and not yet joined */
	struct consumer c[SS_FANOUT_MAX_CONSUMERS];
};

static void *run(void *arg)
{
	struct consumer *c = arg;
	struct ss_fanout *f = c->f;

	for (uint64_t seq = 0;; seq++) {
		size_t s = (size_t)(seq % f->nr_slots), n;

		pthread_mutex_lock(&f->mu);
		while (seq == f->published && !f->done && !f->abort)
			pthread_cond_wait(&f->more, &f->mu);
		if (f->abort || seq == f->published) {
			pthread_mutex_unlock(&f->mu);
			return NULL;
		}
		n = f->count[s];
		pthread_mutex_unlock(&f->mu);
		if (!c->err)
			c->err = c->fn(c->arg, f->mem + s * f->slot_items * f->size, n);
		pthread_mutex_lock(&f->mu);
		if (c->err && !f->err)
			__atomic_store_n(&f->err, c->err, __ATOMIC_RELEASE);
		if (--f->pending[s] == 0)
			pthread_cond_broadcast(&f->room);
		pthread_mutex_unlock(&f->mu);
	}
}

/* Stop and join the threads; ABORT: without letting them count what is published. */
static void stop(struct ss_fanout *f, bool abort)
{
	pthread_mutex_lock(&f->mu);
	f->done = true;
	f->abort |= abort;
	pthread_cond_broadcast(&f->more);
	pthread_mutex_unlock(&f->mu);
	while (f->running)
		pthread_join(f->c[--f->running].th, NULL);
}

struct ss_fanout *ss_fanout_new(size_t item_size, size_t slot_items, size_t nr_slots,
				const ss_fanout_fn *fn, void *const *arg, size_t nr)
{
	struct ss_fanout *f;
	int err;

	if (!item_size || !slot_items || nr_slots < 2 || !nr || nr > SS_FANOUT_MAX_CONSUMERS ||
	    slot_items > SIZE_MAX / item_size / nr_slots) {
		errno = EINVAL;
		return NULL;
	}
	if (!(f = calloc(1, sizeof(*f))))
		return NULL;
	f->size = item_size;
	f->slot_items = slot_items;
	f->nr_slots = nr_slots;
	f->nr = nr;
	f->mem = malloc(nr_slots * slot_items * item_size);
	f->count = calloc(nr_slots, sizeof(*f->count));
	f->pending = calloc(nr_slots, sizeof(*f->pending));
	err = !f->mem || !f->count || !f->pending ? ENOMEM : pthread_mutex_init(&f->mu, NULL);
	if (err) {
		free(f->mem);
		free(f->count);
		free(f->pending);
		free(f);
		errno = err;
		return NULL;
	}
	f->cur = f->mem;
	/* default attributes: glibc's pthread_cond_init cannot fail */
	pthread_cond_init(&f->more, NULL);
	pthread_cond_init(&f->room, NULL);
	for (size_t i = 0; i < nr; i++) {
		f->c[i] = (struct consumer){ .f = f, .fn = fn[i], .arg = arg[i] };
		if ((err = pthread_create(&f->c[i].th, NULL, run, &f->c[i]))) {
			ss_fanout_free(f);   /* stops the threads that started */
			errno = err;
			return NULL;
		}
		f->running++;
	}
	return f;
}

/* Publish the slot being filled and wait until the next one is free. */
static void hand_over(struct ss_fanout *f)
{
	size_t next = (f->fill + 1) % f->nr_slots;

	pthread_mutex_lock(&f->mu);
	f->count[f->fill] = f->n;
	f->pending[f->fill] = f->nr;
	f->published++;
	pthread_cond_broadcast(&f->more);
	while (f->pending[next])
		pthread_cond_wait(&f->room, &f->mu);
	pthread_mutex_unlock(&f->mu);
	f->fill = next;
	f->cur = f->mem + next * f->slot_items * f->size;
	f->n = 0;
}

void *ss_fanout_push(struct ss_fanout *f)
{
	if (f->n == f->slot_items)
		hand_over(f);
	return f->cur + f->n++ * f->size;
}

void ss_fanout_unpush(struct ss_fanout *f)
{
	if (f->n)
		f->n--;
}

int ss_fanout_error(struct ss_fanout *f)
{
	/* no lock: called once per batch of events, maybe per event */
	return __atomic_load_n(&f->err, __ATOMIC_ACQUIRE);
}

int ss_fanout_finish(struct ss_fanout *f)
{
	if (f->n)
		hand_over(f);
	stop(f, false);
	return f->err;
}

void ss_fanout_free(struct ss_fanout *f)
{
	if (!f)
		return;
	stop(f, true);
	pthread_cond_destroy(&f->more);
	pthread_cond_destroy(&f->room);
	pthread_mutex_destroy(&f->mu);
	free(f->mem);
	free(f->count);
	free(f->pending);
	free(f);
}
