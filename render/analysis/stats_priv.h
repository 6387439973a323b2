// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The statistics pass's state, shared by its two files only: stats_setup.c (the periods,
 * devices, zones and threads set up from the trace; freeing) and stats.c (the pass: judge,
 * count, finish; the figures handed out).  Not part of the contract (stats.h is).
 */
#ifndef SS_STATS_PRIV_H
#define SS_STATS_PRIV_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "seekscope/model.h"
#include "pair.h"
#include "stats.h"

/*
 * The pass's judgement of one event (stats_judge.h): all that counting and attributing it
 * need besides the event.  It travels with the event, as a hook's note, when the read-ahead
 * thread judges (ss_stats_notes).
 */
struct judgement {
	uint32_t depth, dev_depth;     /* requests in flight before it: all, its device's */
	union {
		struct {               /* an issue's */
			int64_t dist;          /* ss_seek_feed's */
			uint64_t note;         /* whose request (owner.h: ss_owner_note), with procs */
			uint32_t depth_after, dev_depth_after;   /* in flight after it */
		} is;
		/* a completion's pairing when matched (pair.h: ss_io_match; its io is made again
		 * from it and the event: stats_judge.h, judgement_io): 40 bytes, not 100 with the
		 * io, travels from the judging thread to the counting one */
		struct {
			uint64_t issue_ts, issue_tag;
			uint32_t issue_pid;
			uint16_t flags;
		} co;
	};
	int8_t verdict, paired;        /* ss_seek_feed's, ss_pair_feed's results */
	bool keep, in;                 /* kept by opts.only; in the window */
	bool counts;                   /* counted at all (not another device's, no error) */
	bool seek_done;                /* the attribution's seek half done already (the hook) */
	bool matched;                  /* a completion paired with its issue */
};
_Static_assert(sizeof(struct judgement) <= 40, "a judgement fits in 40 bytes");

/* A judged event, as the fan-out's threads take it (fanout.h). */
struct judged {
	struct ss_event ev;
	struct judgement m;
};

/*
 * ss_stats_note's own state (the pass's hook; its own allocation, apart from the rest).  The
 * hook notes whose request each event is (owner.h), or, when it may judge (ss_stats_notes),
 * judges every event itself (then the pass's thread only counts).  In a thread of its own
 * (the read-ahead's) it also runs the attribution's seek half (stats_attr.h: the classes
 * around each seek and the zone it landed in): when it does not judge, by a seek rule of its
 * own, marking the notes NOTED_ATTRIBUTED.  That half then leaves the thread that counts.
 */
struct stats_noter {
	struct ss_owner *owner;        /* the submitters (owner.h: ss_owner_note), with procs */
	bool one_device;               /* as the pass's opts: other devices' events unseen */
	uint32_t device;
	bool judge;                    /* the hook judges: its notes are struct judgement */
	bool idle;                     /* ... but it runs in the pass's thread: the pass judges */
	bool attr;                     /* the seek half, when not in the pass's own thread */
	/* ... until the pass finds that it waits for the read-ahead thread (ss_stats_balance):
	 * then the pass takes work back from the hook's next batch on, the seek half first,
	 * then the owners' notes (the hook marks those events SS_OWNER_UNNOTED) */
	atomic_uint taken_back;        /* set by the pass: TAKEN_SEEK_HALF, TAKEN_OWNERS */
	unsigned left;                 /* the hook's: taken_back as it has seen it */
	unsigned decided;              /* the pass's: the decisions made */
	unsigned at_taken, at_waited;  /* ... and the read-ahead's counts at the last one */
	pthread_t caller;              /* the pass's thread (ss_stats_notes) */
	struct ss_seek *seek;          /* its own seek rule, for that half when not judging */
	int err;                       /* the first error */
};

enum { TAKEN_NONE, TAKEN_SEEK_HALF, TAKEN_OWNERS };

/*
 * After each batch the pass is given (ss_stats_feed_noted): each time the read-ahead has
 * given BALANCE_SLOTS more slots, if the pass waited for more than half of them, the
 * read-ahead thread has the longer share and the pass takes a part of its work back
 * (ss_stats_hand_over: the seek half, then the owners); once it did not wait, it decides no
 * more.  Which thread is longer depends on the machine and on what else runs (a 6M-event
 * blktrace report: on one machine the pass's thread was the longer, on another it waited
 * for the read-ahead's a third of its time).
 */
void ss_stats_balance(struct ss_stats *st);

/* The first error of ss_stats_note in the pass, once it has ended (ss_stats_finish's): 0 or
 * -ENOMEM. */
int ss_stats_note_error(const struct ss_stats *st);

/* Deferred (above): the device DEV, first seen now, added (the caller ends the first one's
 * mirroring before a second); NULL and deferred_err set on ENOMEM. */
struct ss_device_stats *ss_stats_add_device(struct ss_stats *st, uint32_t dev);
/*
 * Deferred, after the pass: the period and the devices are the trace's now.  The devices
 * found take the trace's order and records, each summary its period.  0, -ENOMEM, or -EAGAIN
 * if they are not the trace's devices (the pass is to be run again, the trace now known).
 */
int ss_stats_bind_devices(struct ss_stats *st);

/* A note's bit of the pass's own (owner.h's notes leave bit 63 free): the attribution's seek
 * half was done in the hook. */
#define NOTED_ATTRIBUTED (1ull << 63)

/*
 * A period's share of the queue-depth integral: the clock keeps one exact integral of the
 * requests in flight since it started (ss_stats.cum); a period's is its value where the period
 * ends minus its value where it begins, taken when the clock passes those instants -- two
 * look-ups per period instead of an overlap per period and event.
 */
struct depth_span {
	uint64_t start, stop;          /* [start, stop) */
	unsigned __int128 at_start;    /* the integral at start */
	unsigned __int128 value;       /* the integral over the span, once it has closed */
	double *out;                   /* the period's depth_ns, set when it closes */
	int state;                     /* 0: not begun, 1: open, 2: closed */
};

/*
 * A device's clock: the time up to which its depth is integrated and the exact integral so
 * far (requests times ns, inside the total period), its summary's depth_ns when the pass ends -- exact as
 * the total's is, so that taking it from the total's (dev_mirror_end in stats.c) gives the
 * same figure as summing it event by event.
 */
struct dev_clock {
	uint64_t now;
	unsigned __int128 cum;
};

struct ss_stats {
	const struct ss_trace *t;
	struct ss_stats_opts o;
	struct ss_seek *seek;
	struct ss_pair *pair;
	struct ss_zone_index *zi;
	struct ss_stats_attr *attr;    /* procs, dirs, causes and zones (stats_attr.h) */
	struct stats_noter *noter;     /* ss_stats_note's (the batch hook's) */
	bool attr_idle;                /* ... none of them asked for */
	struct ss_fanout *fan;         /* the threads counting and attributing, if any */
	bool count_here, attr_here;    /* counted, attributed by the main thread */
	struct ss_bins *bins;
	struct ss_bins **dev_bins;     /* per device (opts.device_bins), nr_devs of them */
	struct ss_evfilter *filter;    /* opts.only */

	/* from here on, the counting's state: with a counting thread (fanout.h) only it writes
	 * there, so none of it may share a cache line with what the feeding thread reads above
	 * every event (each write would take the line from the other CPU; measured with one
	 * counting thread: 817 -> 745 ms of CPU for a 6M-event report).  A line of padding, not
	 * _Alignas: the struct comes from calloc(), which does not align to 64. */
	char line_apart[64];
	long cur_dev;                  /* index of the current event's device, or -1 */
	struct ss_zone_hint model_hint;     /* the modelled issues' last zone */
	struct ss_summary total;
	bool auto_period;              /* no trace: the period follows the events */
	bool seen_event;

	struct ss_phase_stats *phases;
	uint64_t *phase_stop;          /* attribution end (exclusive) per phase */
	size_t nr_phases;
	size_t next_phase;             /* first phase not yet activated */
	size_t *active;                /* indexes of phases open now */
	size_t nr_active;
	uint64_t active_gen;           /* changes whenever the active phases do */
	uint64_t active_max_start;     /* the latest start_ns of the active phases */
	uint64_t active_stop;          /* the first phase_stop[] of the active phases */
	uint64_t next_open;            /* the next phase's start, or durable's (0: not known) */
	struct ss_phase_stats durable; /* time to durable (stats.h), when has_durable */
	bool has_durable, durable_open;

	struct ss_device_stats *devs;
	size_t nr_devs, last_dev;
	uint32_t last_dev_no;          /* devs[last_dev]'s device number, while last_dev < nr_devs */
	/* the trace's metadata pending (trace_read.h: ss_trace_open_lazy): the devices are
	 * found as their events come (their records here until ss_stats_finish binds them to
	 * the trace's, sorted as the trace sorts them), the period taken from the trace then */
	bool deferred;
	struct ss_rec_device *dev_recs;
	size_t cap_devs;
	int deferred_err;              /* a device that could not be added: -ENOMEM */
	/* one device, and every event counted so far was its own: its summary would be the
	 * total's, counted once and copied (dev_mirror_end in stats.c), not twice */
	bool dev_mirror;
	struct ss_zone_stats *zones;
	size_t nr_zones;

	struct ss_summary **targets;   /* scratch: summaries the current event counts in */
	size_t nr_targets;
	/* targets[0..nr_periods) were the last event's periods, for active_gen, in and durable
	 * as below: the next event with the same has the same (when every active phase began) */
	bool periods_known, periods_in, periods_durable;
	uint64_t periods_gen;
	size_t nr_periods;
	bool use_acc;                  /* the periods' counts go through acc (top of the file) */
	bool acc_dirty;                /* acc has counts not yet added to acc_key's periods */
	struct ss_summary acc;
	struct ss_summary **acc_key;   /* the periods acc counts for */
	size_t nr_acc_key;
	uint64_t now;                  /* time up to which depth has been integrated */
	unsigned __int128 cum;         /* the integral of requests in flight up to now, in ns */
	struct depth_span *spans;      /* the total, each phase, the durable span */
	size_t nr_spans;
	uint64_t next_edge;            /* the first start or stop of a span not yet passed */
	struct dev_clock *dev_clk;     /* per device */
	bool finished;
	/* the bin the last event fell in (bin_of): [bin_lo, bin_hi]; depth over [from, to) with
	 * bin_lo <= from < to <= bin_stop all goes to it */
	bool bin_known;
	long bin_i;
	uint64_t bin_lo, bin_hi, bin_stop;
};

static inline void summary_init(struct ss_summary *s, uint64_t start, uint64_t end)
{
	memset(s, 0, sizeof(*s));
	ss_lathist_init(&s->lat);
	ss_lathist_init(&s->discard_lat);
	ss_lathist_init(&s->other_lat);
	ss_lathist_init(&s->flush_lat);
	s->start_ns = start;
	s->end_ns = end;
}

/* The fan-out's consumers, when counting and attribution run in threads (stats_setup.c):
 * ARG the struct ss_stats, the struct ss_stats_attr; ITEMS N struct judged. */
int ss_stats_count_items(void *arg, const void *items, size_t n);
int ss_stats_attr_items(void *arg, const void *items, size_t n);

#endif
