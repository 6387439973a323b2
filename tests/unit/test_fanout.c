// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fan-out ring (fanout.h): every consumer sees every item once, in order, whatever the
 * slot size and however slow it is; a consumer's error reaches the producer and does not
 * stop the others; freeing without finishing ends the threads.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "tap.h"
#include "fanout.h"

struct seen {
	uint64_t next;         /* the value the next item must carry */
	uint64_t items, sum;
	int out_of_order;
	int fail_at;           /* fail on the item carrying this value (0: never) */
	int slow;              /* sleep a little per slot */
};

static int consume(void *arg, const void *items, size_t n)
{
	struct seen *s = arg;
	const uint64_t *v = items;

	if (s->slow) {
		struct timespec ts = { 0, 200000 };

		nanosleep(&ts, NULL);
	}
	for (size_t i = 0; i < n; i++) {
		if (s->fail_at && v[i] == (uint64_t)s->fail_at)
			return -EIO;
		s->out_of_order += v[i] != s->next;
		s->next = v[i] + 1;
		s->items++;
		s->sum += v[i];
	}
	return 0;
}

static void test_order(size_t slot, size_t slots, size_t nr, uint64_t total)
{
	struct seen s[SS_FANOUT_MAX_CONSUMERS] = { { 0 } };
	ss_fanout_fn fn[SS_FANOUT_MAX_CONSUMERS];
	void *arg[SS_FANOUT_MAX_CONSUMERS];
	struct ss_fanout *f;
	int bad = 0;

	for (size_t i = 0; i < nr; i++) {
		fn[i] = consume;
		arg[i] = &s[i];
		s[i].slow = i == 1;    /* one slow consumer holds the producer back */
	}
	f = ss_fanout_new(sizeof(uint64_t), slot, slots, fn, arg, nr);
	if (!ok(f != NULL, "%zu consumers, %zu slots of %zu", nr, slots, slot))
		return;
	for (uint64_t v = 0; v < total; v++) {
		uint64_t *p = ss_fanout_push(f);

		*p = v;
		if (v % 7 == 3) {      /* taken back: never seen */
			ss_fanout_unpush(f);
			p = ss_fanout_push(f);
			*p = v;
		}
	}
	is_int(ss_fanout_finish(f), 0, "... finished without error");
	for (size_t i = 0; i < nr; i++)
		bad += s[i].items != total || s[i].out_of_order ||
		       s[i].sum != total * (total - 1) / 2;
	is_int(bad, 0, "... each saw the %llu items once, in order", (unsigned long long)total);
	ss_fanout_free(f);
}

static void test_error(void)
{
	struct seen s[2] = { { .fail_at = 5000 }, { 0 } };
	ss_fanout_fn fn[2] = { consume, consume };
	void *arg[2] = { &s[0], &s[1] };
	struct ss_fanout *f = ss_fanout_new(sizeof(uint64_t), 64, 3, fn, arg, 2);
	int seen_early = 0;

	if (!ok(f != NULL, "a failing consumer"))
		return;
	for (uint64_t v = 0; v < 20000; v++) {
		*(uint64_t *)ss_fanout_push(f) = v;
		seen_early |= ss_fanout_error(f) == -EIO;
	}
	ok(seen_early, "... the producer sees its error before the end");
	is_int(ss_fanout_finish(f), -EIO, "... finish returns it");
	ok(s[0].items == 5000 && s[1].items == 20000,
	   "... it stopped at the failing item, the other consumer saw all (%llu, %llu)",
	   (unsigned long long)s[0].items, (unsigned long long)s[1].items);
	ss_fanout_free(f);
}

static void test_free_early(void)
{
	struct seen s = { 0 };
	ss_fanout_fn fn[1] = { consume };
	void *arg[1] = { &s };
	struct ss_fanout *f = ss_fanout_new(sizeof(uint64_t), 16, 2, fn, arg, 1);

	if (!ok(f != NULL, "freed without finishing"))
		return;
	for (uint64_t v = 0; v < 1000; v++)
		*(uint64_t *)ss_fanout_push(f) = v;
	ss_fanout_free(f);
	ok(s.items <= 1000 && !s.out_of_order, "... the thread ended, what it saw in order");
	/* an empty run */
	f = ss_fanout_new(sizeof(uint64_t), 16, 2, fn, arg, 1);
	ok(f && ss_fanout_finish(f) == 0, "nothing pushed: finishes");
	ss_fanout_free(f);
}

static void test_bad_args(void)
{
	ss_fanout_fn fn[1] = { consume };
	struct seen s = { 0 };
	void *arg[1] = { &s };

	errno = 0;
	ok(!ss_fanout_new(8, 16, 1, fn, arg, 1) && errno == EINVAL, "one slot: EINVAL");
	ok(!ss_fanout_new(8, 16, 2, fn, arg, 0) && errno == EINVAL, "no consumer: EINVAL");
	ok(!ss_fanout_new(8, 16, 2, fn, arg, SS_FANOUT_MAX_CONSUMERS + 1) && errno == EINVAL,
	   "too many consumers: EINVAL");
	ok(!ss_fanout_new(SIZE_MAX / 2, 16, 2, fn, arg, 1) && errno == EINVAL,
	   "a ring that does not fit in size_t: EINVAL");
	ss_fanout_free(NULL);
}

int main(void)
{
	test_order(1, 2, 1, 3000);
	test_order(64, 3, 2, 100000);
	test_order(4096, 4, SS_FANOUT_MAX_CONSUMERS, 300000);
	test_error();
	test_free_early();
	test_bad_args();
	return done_testing();
}
