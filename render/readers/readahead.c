// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Read-ahead of a trace's events in a thread of its own (readahead.h).
 *
 * A ring of RA_SLOTS slots of RA_SLOT_EVENTS events each (8 x 192 KiB: a slot is small
 * enough to be still in a cache when the counting CPU takes it; larger slots only delay the
 * start, and the caller's first batch).  The thread fills the slot after the last one
 * published with as many of the backend's events as it holds, publishing a slot when it is
 * full or the backend has ended (the end, or an error, travels with the slot's events).  The
 * caller holds the slot it was given until its next call.
 *
 * The two sides count slots published and given back in atomics and take the mutex only to
 * sleep and to wake a sleeper: waking a thread costs a system call and, on a virtual machine,
 * an interrupt to the other CPU, several microseconds each.  The thread, finding the ring
 * full, sleeps until half of it is free again, so that it is woken once for RA_SLOTS / 2
 * slots rather than for every one (measured, a 6M-event blktrace report: 5,682 futex calls
 * and 3,786 context switches with a 4-slot ring under a mutex, woken at every slot; 1,307
 * and 928 now).
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hugemem.h"
#include "readahead.h"

#define RA_SLOTS SS_READAHEAD_SLOTS
/* the counters wrap at 2^32: slot = count % RA_SLOTS stays continuous across it */
_Static_assert((RA_SLOTS & (RA_SLOTS - 1)) == 0, "RA_SLOTS is a power of two");
#define RA_SLOT_EVENTS SS_READAHEAD_SLOT_EVENTS

struct ra_slot {
	struct ss_event *ev;
	void *note;                 /* the hook's notes of ev[], when it has them */
	size_t n;
	int end;                    /* 1: more follows; else the backend's 0 or -errno after ev */
};

struct ss_readahead {
	struct ss_trace *t;
	ss_readahead_next_fn next;
	ss_readahead_hook_fn hook;
	void *hook_arg;
	size_t note_size;           /* per event */
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;          /* a sleeper's wake-up: slots published, room, or stop */
	struct ra_slot slot[RA_SLOTS];
	struct ss_event *ev_mem;    /* the slots' events, one block */
	void *note_mem;             /* ... and their notes */
	atomic_uint published;      /* slots the thread has published, ever (slot: % RA_SLOTS) */
	atomic_uint returned;       /* slots the caller has given back, ever */
	atomic_bool thread_sleeps;  /* the thread waits (under mu) for half the ring to be free */
	atomic_bool caller_sleeps;  /* the caller waits (under mu) for a slot */
	atomic_bool stop;
	unsigned taken;             /* the caller's: slots taken, ever */
	unsigned waited;            /* ... of them, those not published yet when asked for */
	unsigned no_spin;           /* the caller's: empty rings not to spin for (spin_for_slot) */
	bool held;                  /* the caller holds slot taken - 1 */
	bool ended;                 /* the caller has been given the end */
	int final;                  /* what the caller gets from now on when ended */
};

/* Slots published and not yet given back (the one the caller holds included). */
static unsigned in_use(struct ss_readahead *ra)
{
	return atomic_load(&ra->published) - atomic_load(&ra->returned);
}

/* Wake whichever side sleeps on the condition (called after the change it waits for). */
static void wake(struct ss_readahead *ra)
{
	pthread_mutex_lock(&ra->mu);
	pthread_cond_broadcast(&ra->cv);
	pthread_mutex_unlock(&ra->mu);
}

/*
 * The thread's side: whether a slot may be filled (waits for half the ring when it is full);
 * false when told to stop.  Setting thread_sleeps before looking at the counts again (both
 * sequentially consistent) means the caller either sees the flag or the thread sees its
 * slot given back: no wake-up is lost.
 */
static bool wait_for_room(struct ss_readahead *ra)
{
	bool go;

	if (in_use(ra) < RA_SLOTS)
		return !atomic_load(&ra->stop);
	pthread_mutex_lock(&ra->mu);
	atomic_store(&ra->thread_sleeps, true);
	while (!atomic_load(&ra->stop) && in_use(ra) > RA_SLOTS / 2)
		pthread_cond_wait(&ra->cv, &ra->mu);
	atomic_store(&ra->thread_sleeps, false);
	go = !atomic_load(&ra->stop);
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
		struct ra_slot *s = &ra->slot[atomic_load(&ra->published) % RA_SLOTS];
		size_t fill = 0;

		while (fill < RA_SLOT_EVENTS) {
			size_t k;

			if (!pend_n) {
				/* told to stop: not another batch (a slow backend's would delay it) */
				if (atomic_load_explicit(&ra->stop, memory_order_relaxed))
					return NULL;
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
		if (ra->hook && fill)
			ra->hook(ra->hook_arg, s->ev, s->note, fill);
		/* the slot's contents, and what the hook did, before the count */
		atomic_fetch_add(&ra->published, 1);
		if (atomic_load(&ra->caller_sleeps))
			wake(ra);
	}
	return NULL;
}

static void free_slots(struct ss_readahead *ra)
{
	ss_huge_free(ra->ev_mem, RA_SLOTS * RA_SLOT_EVENTS * sizeof(struct ss_event));
	ss_huge_free(ra->note_mem, RA_SLOTS * RA_SLOT_EVENTS * ra->note_size);
}

struct ss_readahead *ss_readahead_start(struct ss_trace *t, ss_readahead_next_fn next,
					ss_readahead_hook_fn hook, void *arg, size_t note_size)
{
	struct ss_readahead *ra = calloc(1, sizeof(*ra));
	sigset_t all, old;
	int ret = ENOMEM;

	if (!ra)
		return NULL;
	ra->t = t;
	ra->next = next;
	ra->hook = hook;
	ra->hook_arg = arg;
	ra->note_size = hook ? note_size : 0;
	/* the slots in one block each for the events and the notes, on huge pages (hugemem.h:
	 * 1.5 MiB of events were 384 page faults a pass) */
	ra->ev_mem = ss_huge_alloc(RA_SLOTS * RA_SLOT_EVENTS * sizeof(struct ss_event));
	ra->note_mem = ra->note_size ? ss_huge_alloc(RA_SLOTS * RA_SLOT_EVENTS * ra->note_size)
				     : NULL;
	if (!ra->ev_mem || (ra->note_size && !ra->note_mem))
		goto fail;
	for (size_t i = 0; i < RA_SLOTS; i++) {
		ra->slot[i].ev = ra->ev_mem + i * RA_SLOT_EVENTS;
		if (ra->note_mem)
			ra->slot[i].note = (char *)ra->note_mem + i * RA_SLOT_EVENTS * ra->note_size;
	}
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
	free_slots(ra);
	free(ra);
	errno = ret;
	return NULL;
}

/*
 * The caller's side, the ring empty: whether the thread published a slot within RA_SPIN_NS,
 * looked at without sleeping.  When the thread takes about as long for a slot as the caller
 * (a hook that judges the events, stats.h), the caller finds the ring empty at nearly every
 * slot; asleep, it would be woken a system call and, on a virtual machine, an interrupt
 * later, and whatever ran on its CPU in between has taken its caches (measured, a 4M-event
 * report beside two busy processes: 0.39 s and 970 context switches; 0.19 s waiting here).
 * A thread that keeps the caller waiting longer (a slow disk, a CPU it shares) is not waited
 * for so again until RA_SPIN_PAUSE slots later: the caller sleeps rather than burn its CPU.
 */
#define RA_SPIN_NS 300000
#define RA_SPIN_PAUSE 16
static bool spin_for_slot(struct ss_readahead *ra)
{
	struct timespec t0, t;

	if (ra->no_spin) {
		ra->no_spin--;
		return false;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (unsigned i = 1;; i++) {
		if (atomic_load_explicit(&ra->published, memory_order_acquire) != ra->taken)
			return true;
#if defined(__x86_64__) || defined(__i386__)
		__builtin_ia32_pause();
#endif
		if (i % 64)
			continue;
		clock_gettime(CLOCK_MONOTONIC, &t);
		if ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) > RA_SPIN_NS) {
			ra->no_spin = RA_SPIN_PAUSE;
			return false;
		}
	}
}

/* The caller's side, the ring still empty after spin_for_slot(): sleep until the thread
 * publishes a slot.  As wait_for_room(): the flag set before the count is looked at again. */
static void sleep_for_slot(struct ss_readahead *ra)
{
	pthread_mutex_lock(&ra->mu);
	atomic_store(&ra->caller_sleeps, true);
	while (atomic_load(&ra->published) == ra->taken)
		pthread_cond_wait(&ra->cv, &ra->mu);
	atomic_store(&ra->caller_sleeps, false);
	pthread_mutex_unlock(&ra->mu);
}

int ss_readahead_next(struct ss_readahead *ra, const struct ss_event **ev, size_t *n)
{
	struct ra_slot *s;

	*n = 0;
	if (ra->ended)
		return ra->final;
	if (ra->held) {
		ra->held = false;
		atomic_fetch_add(&ra->returned, 1);     /* done with its events before the count */
		if (atomic_load(&ra->thread_sleeps) && in_use(ra) <= RA_SLOTS / 2)
			wake(ra);
	}
	if (atomic_load(&ra->published) == ra->taken) {
		ra->waited++;
		if (!spin_for_slot(ra))
			sleep_for_slot(ra);
	}
	s = &ra->slot[ra->taken++ % RA_SLOTS];
	if (s->end <= 0) {
		ra->ended = true;
		ra->final = s->end;
	}
	if (!s->n) {
		atomic_fetch_add(&ra->returned, 1);
		return s->end;
	}
	ra->held = true;
	*ev = s->ev;
	*n = s->n;
	return 1;
}

void ss_readahead_stop(struct ss_readahead *ra)
{
	if (!ra)
		return;
	atomic_store(&ra->stop, true);
	wake(ra);
	pthread_join(ra->thread, NULL);
	pthread_cond_destroy(&ra->cv);
	pthread_mutex_destroy(&ra->mu);
	free_slots(ra);
	free(ra);
}

void ss_readahead_waits(const struct ss_readahead *ra, unsigned *taken, unsigned *waited)
{
	*taken = ra->taken;
	*waited = ra->waited;
}

const void *ss_readahead_notes(const struct ss_readahead *ra)
{
	return ra->held ? ra->slot[(ra->taken - 1) % RA_SLOTS].note : NULL;
}
