// SPDX-License-Identifier: GPL-2.0-or-later
/* Recorder: capture thread, time ordering of events, and the trace file (see recorder.h). */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "errbuf.h"
#include "blockdev.h"
#include "drainpace.h"
#include "fsprobe.h"
#include "mapwrite.h"
#include "pair.h"
#include "recorder.h"
#include "runsort.h"
#include "tasknames.h"
#include "tasks.h"
#include "trace_write.h"
#include "workmark.h"

#define MAX_DEVS        32
/*
 * Events are written only once they are older than the time up to which every CPU's ring
 * buffer has been read (ss_tracecap_read_to()) minus this margin: the kernel commits an event
 * microseconds after stamping it, so anything older has been seen on every CPU and the file
 * stays in global time order.
 */
#define ORDER_MARGIN_NS 2000000ull

/*
 * An event read but not yet written, with the task name of its context; or, with ev.type 0,
 * a kworker starting a work item (ev.pid, function address in ev.sector): such markers are
 * replayed in time order with the events to name the work (tasknames.h), never written.
 */
struct pending {
	struct ss_event ev;
	char comm[SS_COMM_LEN];         /* "" when the event carries none */
};

struct ss_recorder {
	struct ss_writer *w;
	struct ss_tracecap *cap;
	pthread_mutex_t lock;           /* serialises writer calls across threads */
	pthread_t thread;
	bool thread_running;
	volatile int stop_thread;
	int thread_error;               /* first error in the drain thread (atomic access) */
	char thread_msg[160];
	struct ss_blockdev devs[MAX_DEVS];
	size_t nr_devs;
	size_t nr_zones;
	uint32_t dev_ids[MAX_DEVS];
	size_t nr_dev_ids;
	struct pending *pending;        /* read but not yet written (time order not yet final) */
	size_t nr_pending, cap_pending;
	void *sort_tmp;                 /* ss_sort_runs()'s scratch space */
	size_t sort_cap;
	struct ss_event *out;           /* the events of one write, contiguous */
	size_t cap_out;
	struct ss_tasknames *work;      /* what each kworker runs, in time order */
	struct ss_tasks *tasks;         /* names as written, in time order */
	struct ss_rec_task *new_tasks;  /* task records of one write */
	size_t nr_new_tasks, cap_new_tasks;
	uint64_t nr_tasks;              /* task records written */
	uint64_t written;
	struct ss_pair *pair;           /* the written events paired: what is still in flight */
	/* LOST_TO: the end of the latest span of lost events (the drain thread's).  Once the
	 * workload has ended (SETTLING, atomic), after each write: the requests in flight issued
	 * after it, WAITING, and before it, MAYBE_LOST (maybe_lost(); both atomic, UINT64_MAX:
	 * not counted since) */
	uint64_t lost_to, waiting, maybe_lost;
	bool settling;
	size_t most_inflight;           /* the most in flight at once in the last write */
	uint64_t written_to;            /* every event stamped before this is written (atomic) */
	uint64_t start_ns;
	uint32_t nr_maps;               /* file maps written */
	uint64_t lost_total;
	struct ss_stack_pauses pauses;  /* at the stop (write_pauses) */
	bool stopped;
	struct ss_rec_capture capture;
	char sysfs[64];                 /* sysfs root the devices were resolved against */
};

uint64_t ss_mono_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static struct pending *new_pending(struct ss_recorder *r)
{
	if (r->nr_pending == r->cap_pending) {
		size_t ncap = r->cap_pending ? r->cap_pending * 2 : 65536;
		struct pending *p = reallocarray(r->pending, ncap, sizeof(*p));

		if (!p)
			return NULL;
		r->pending = p;
		r->cap_pending = ncap;
	}
	return &r->pending[r->nr_pending++];
}

static int sink(void *ctx, const struct ss_event *ev, const char *comm)
{
	struct pending *p = new_pending(ctx);

	if (!p)
		return -ENOMEM;
	p->ev = *ev;
	memcpy(p->comm, comm, sizeof(p->comm));   /* the decoder terminates it */
	return 0;
}

static int work_sink(void *ctx, uint64_t ts, unsigned cpu, uint32_t pid, uint64_t function)
{
	struct pending *p = new_pending(ctx);

	if (!p)
		return -ENOMEM;
	memset(p, 0, sizeof(*p));
	p->ev = (struct ss_event){ .ts_ns = ts, .type = SS_WORK_MARK, .cpu = (uint16_t)cpu,
				   .pid = pid, .sector = function };
	return 0;
}

/* A kworker's stack after its event at TS: the work function in it, as a work marker placed
 * just before that event (workmark.h). */
static int stack_sink(void *ctx, uint64_t ts, unsigned cpu, uint32_t pid, const uint64_t *frames,
		      size_t nr)
{
	struct ss_recorder *r = ctx;
	int ret = work_sink(ctx, ts, cpu, pid, ss_tasknames_stack_work(r->work, frames, nr));

	if (ret)
		return ret;
	r->nr_pending = ss_workmark_place(r->pending, r->nr_pending, sizeof(*r->pending));
	return 0;
}

/* Lost events go straight to the file: readers merge and sort the spans (format.h). */
static int lost_sink(void *ctx, const struct ss_rec_lost *lost)
{
	struct ss_recorder *r = ctx;
	int ret;

	/* read on the thread that drains (or, after it, on the one that stops) */
	if (lost->to_ns > r->lost_to)
		r->lost_to = lost->to_ns;
	pthread_mutex_lock(&r->lock);
	ret = ss_writer_lost(r->w, lost);
	pthread_mutex_unlock(&r->lock);
	return ret;
}

static int cmp_ts(const void *a, const void *b)
{
	const struct ss_event *x = &((const struct pending *)a)->ev;
	const struct ss_event *y = &((const struct pending *)b)->ev;

	if (x->ts_ns != y->ts_ns)
		return x->ts_ns < y->ts_ns ? -1 : 1;
	/* same stamp: issue before complete keeps pairing simple for readers */
	return (int)x->type - (int)y->type;
}

/*
 * The first N pending entries (in time order): their events into r->out (*NOUT of them), and
 * the task records they need into r->new_tasks — an entry wherever an event's name is not
 * what the table says for its pid at its time: the first event of a pid, a rename, a kworker
 * that moved on to other work.  Work markers update what each kworker runs.
 */
static int stage(struct ss_recorder *r, size_t n, size_t *nout)
{
	uint32_t last_pid = 0;
	const char *last_comm = NULL;
	size_t k = 0;

	if (n > r->cap_out) {
		struct ss_event *p = reallocarray(r->out, n, sizeof(*p));

		if (!p)
			return -ENOMEM;
		r->out = p;
		r->cap_out = n;
	}
	r->nr_new_tasks = 0;
	for (size_t i = 0; i < n; i++) {
		const struct pending *p = &r->pending[i];
		const char *work = NULL;
		int ret;

		if (p->ev.type == SS_WORK_MARK) {
			if ((ret = ss_tasknames_work(r->work, p->ev.pid, p->ev.sector)))
				return ret;
			last_comm = NULL;         /* the next event of that worker may be renamed */
			continue;
		}
		r->out[k++] = p->ev;
		/* runs of one task's events are the common case: one lookup per run */
		if (!p->comm[0] || (last_comm && p->ev.pid == last_pid &&
				    !strncmp(p->comm, last_comm, SS_COMM_LEN)))
			continue;
		last_pid = p->ev.pid;
		last_comm = p->comm;
		if (ss_task_is_worker(p->comm, strlen(p->comm)))
			work = ss_tasknames_work_of(r->work, p->ev.pid);
		ret = ss_tasks_add_name(r->tasks, p->ev.ts_ns, p->ev.pid, p->comm, SS_COMM_LEN,
					work, work ? strlen(work) : 0);
		if (ret < 0)
			return ret;
		if (!ret)
			continue;
		if (r->nr_new_tasks == r->cap_new_tasks) {
			size_t ncap = r->cap_new_tasks ? r->cap_new_tasks * 2 : 64;
			struct ss_rec_task *q = reallocarray(r->new_tasks, ncap, sizeof(*q));

			if (!q)
				return -ENOMEM;
			r->new_tasks = q;
			r->cap_new_tasks = ncap;
		}
		r->new_tasks[r->nr_new_tasks++] =
			*ss_tasks_entry(r->tasks, ss_tasks_count(r->tasks) - 1);
	}
	*nout = k;
	return 0;
}

/* The requests in flight in the trace whose completions may be among the lost events: issued
 * before the end of the latest of them. */
static size_t maybe_lost(const struct ss_recorder *r)
{
	return r->lost_to ? ss_pair_inflight_issued(r->pair, 0, r->lost_to) : 0;
}

/*
 * Sort what is pending and write the events older than LIMIT (all of them if LIMIT is 0).
 * What is pending is a few runs in time order — the last write's leftovers, then each CPU's
 * events as its ring buffer gave them — merged, not sorted anew (qsort was 13 % of the
 * recorder's profile).
 */
static int flush_pending(struct ss_recorder *r, uint64_t limit)
{
	size_t n = r->nr_pending, most = ss_pair_inflight(r->pair);
	int ret;

	if (n)
		ss_sort_runs(r->pending, n, sizeof(*r->pending), cmp_ts, &r->sort_tmp, &r->sort_cap);
	if (limit) {
		size_t lo = 0, hi = n;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (r->pending[mid].ev.ts_ns < limit)
				lo = mid + 1;
			else
				hi = mid;
		}
		n = lo;
	}
	if (n) {
		size_t nout = 0;

		if ((ret = stage(r, n, &nout)))
			return ret;
		pthread_mutex_lock(&r->lock);
		/* the names first: a reader meets them before the events that use them */
		if (r->nr_new_tasks)
			ret = ss_writer_tasks(r->w, r->new_tasks, r->nr_new_tasks);
		if (!ret && nout)
			ret = ss_writer_events(r->w, r->out, nout);
		pthread_mutex_unlock(&r->lock);
		if (ret)
			return ret;
		r->nr_tasks += r->nr_new_tasks;
		for (size_t i = 0; i < nout; i++) {
			struct ss_io io;
			size_t now;

			/* out of memory only loses track of a request: counted, never fatal */
			ss_pair_feed(r->pair, &r->out[i], &io);
			now = ss_pair_inflight(r->pair);
			if (now > most)
				most = now;
		}
		__atomic_add_fetch(&r->written, nout, __ATOMIC_RELAXED);
		memmove(r->pending, r->pending + n, (r->nr_pending - n) * sizeof(*r->pending));
		r->nr_pending -= n;
	}
	r->most_inflight = most;
	if (__atomic_load_n(&r->settling, __ATOMIC_ACQUIRE)) {
		size_t maybe = maybe_lost(r);

		__atomic_store_n(&r->maybe_lost, (uint64_t)maybe, __ATOMIC_RELAXED);
		__atomic_store_n(&r->waiting, (uint64_t)(ss_pair_inflight(r->pair) - maybe),
				 __ATOMIC_RELAXED);
	}
	__atomic_store_n(&r->written_to, limit ? limit : UINT64_MAX, __ATOMIC_RELEASE);
	return 0;
}

static void *drain_thread(void *arg)
{
	struct ss_recorder *r = arg;
	uint64_t prev_t0 = 0;           /* when the last drain began */
	sigset_t all;

	/* signals belong to the main thread, which decides what a SIGINT means */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	while (!r->stop_thread) {
		uint64_t t0 = ss_mono_now_ns(), period = SS_DRAIN_MAX_NS, spent, to;
		long n;
		int ret;

		/* whole pages every time; the page being written of a CPU that had none, or
		 * once in SS_DRAIN_MAX_NS */
		n = ss_tracecap_drain_pages(r->cap, sink, r, t0, SS_DRAIN_MAX_NS);
		if (n < 0) {
			snprintf(r->thread_msg, sizeof(r->thread_msg), "reading the ring buffer: %s",
				 strerror((int)-n));
			__atomic_store_n(&r->thread_error, (int)n, __ATOMIC_RELEASE);
			break;
		}
		to = ss_tracecap_read_to(r->cap);
		ret = flush_pending(r, to > ORDER_MARGIN_NS ? to - ORDER_MARGIN_NS : 1);
		if (ret) {
			snprintf(r->thread_msg, sizeof(r->thread_msg), "writing the trace: %s",
				 strerror(-ret));
			__atomic_store_n(&r->thread_error, ret, __ATOMIC_RELEASE);
			break;
		}
		/* the events this drain found arrived since the last one began */
		if (prev_t0)
			period = ss_drain_period(t0 - prev_t0, (uint64_t)n, r->most_inflight);
		prev_t0 = t0;
		spent = ss_mono_now_ns() - t0;
		if (spent < period) {
			struct timespec ts = { 0, (long)(period - spent) };

			nanosleep(&ts, NULL);
		}
	}
	return NULL;
}

static int add_device(struct ss_recorder *r, const char *path, const struct ss_recorder_opts *o,
		      char *err, size_t errlen)
{
	struct ss_blockdev *bd = &r->devs[r->nr_devs];
	int ret;

	if (r->nr_devs == MAX_DEVS) {
		ss_errf(err, errlen, "too many devices (at most %d)", MAX_DEVS);
		return -E2BIG;
	}
	ret = ss_blockdev_resolve(path, o->sysfs ? o->sysfs : "/sys", bd, err, errlen);
	if (ret)
		return ret;
	r->nr_devs++;
	for (size_t i = 0; i < r->nr_dev_ids; i++)
		if (r->dev_ids[i] == bd->rec.dev)
			return 0;
	r->dev_ids[r->nr_dev_ids++] = bd->rec.dev;
	return 0;
}

/* Device records and, where a filesystem is recognised, its zones in absolute sectors. */
static int write_devices(struct ss_recorder *r, bool probe_fs)
{
	for (size_t d = 0; d < r->nr_devs; d++) {
		struct ss_blockdev *bd = &r->devs[d];
		struct ss_fsprobe probe = { 0 };
		int ret = 0;

		/* a probe failure is not fatal: the capture works without zones */
		if (probe_fs && bd->node[0] && ss_fsprobe_path(bd->node, &probe) == 0) {
			snprintf(bd->rec.fstype, sizeof(bd->rec.fstype), "%s", probe.fstype);
			for (size_t i = 0; i < probe.nr_zones && !ret; i++) {
				probe.zones[i].dev = bd->rec.dev;
				probe.zones[i].start_sector += bd->rec.part_start;
				ret = ss_writer_zone(r->w, &probe.zones[i]);
			}
			r->nr_zones += probe.nr_zones;
			ss_fsprobe_release(&probe);
		}
		if (!ret)
			ret = ss_writer_device(r->w, &bd->rec);
		if (ret)
			return ret;
	}
	return 0;
}

static void write_host_meta(struct ss_recorder *r)
{
	struct utsname u;
	char host[256];

	if (uname(&u) == 0) {
		char kernel[400];

		snprintf(kernel, sizeof(kernel), "%s %s %s", u.sysname, u.release, u.machine);
		ss_writer_meta(r->w, "kernel", kernel);
	}
	if (gethostname(host, sizeof(host)) == 0) {
		host[sizeof(host) - 1] = 0;
		ss_writer_meta(r->w, "hostname", host);
	}
}

struct ss_recorder *ss_recorder_new(const struct ss_recorder_opts *o, char *err, size_t errlen)
{
	struct ss_tracecap_opts co = { 0 };
	struct ss_recorder *r;
	int ret;

	r = calloc(1, sizeof(*r));
	if (!r) {
		errno = ENOMEM;
		return NULL;
	}
	pthread_mutex_init(&r->lock, NULL);
	r->waiting = r->maybe_lost = UINT64_MAX;
	r->pair = ss_pair_new(0);
	r->work = ss_tasknames_new(o->kallsyms);
	r->tasks = ss_tasks_new();
	if (!r->pair || !r->work || !r->tasks) {
		ss_errf(err, errlen, "out of memory");
		ret = -ENOMEM;
		goto error;
	}
	snprintf(r->sysfs, sizeof(r->sysfs), "%s", o->sysfs ? o->sysfs : "/sys");
	/* everything that can be refused (devices, tracefs, root) before the output is touched */
	for (size_t i = 0; i < o->nr_dev_paths; i++) {
		ret = add_device(r, o->dev_paths[i], o, err, errlen);
		if (ret)
			goto error;
	}
	/* the output is checked now and opened last, so that a refusal leaves neither an
	 * instance nor a file (and an old trace of that name untouched) */
	ret = ss_tracecap_check(err, errlen);
	if (!ret)
		ret = ss_outfile_check(o->output, err, errlen);
	if (ret)
		goto error;
	co.devs = r->dev_ids;
	co.nr_devs = r->nr_dev_ids;
	co.buffer_kb = o->buffer_kb;
	co.extra = o->extra_events | (o->no_work ? 0 : SS_CAP_WORK) |
		   (o->work_event ? SS_CAP_WORK_EVENT : 0) | (o->all_work ? SS_CAP_WORK_ALWAYS : 0);
	co.clock = "mono";
	r->cap = ss_tracecap_create(&co, err, errlen);
	if (!r->cap) {
		ret = -errno;
		goto error;
	}
	ss_tracecap_set_work_sink(r->cap, work_sink);
	ss_tracecap_set_stack_sink(r->cap, stack_sink);
	ss_tracecap_set_lost_sink(r->cap, lost_sink);
	r->capture.buffer_kb = ss_tracecap_buffer_kb(r->cap);
	r->capture.nr_cpus = ss_tracecap_nr_cpus(r->cap);
	snprintf(r->capture.clock, sizeof(r->capture.clock), "mono");
	snprintf(r->capture.instance, sizeof(r->capture.instance), "%s",
		 ss_tracecap_instance(r->cap));
	r->w = ss_writer_open(o->output, SS_OUT_INPLACE, err, errlen);
	if (!r->w) {
		ret = -errno;
		goto error;
	}
	ret = write_devices(r, o->probe_fs);
	if (ret) {
		ss_errf(err, errlen, "writing %s: %s", o->output, strerror(-ret));
		goto error;
	}
	write_host_meta(r);
	/* how kworkers' work was found (tasknames.h): "stack" or "event" */
	if (ss_tracecap_work_method(r->cap))
		ss_writer_meta(r->w, "work-names", ss_tracecap_work_method(r->cap));
	return r;
error:
	ss_recorder_free(r);
	errno = -ret;
	return NULL;
}

int ss_recorder_meta(struct ss_recorder *r, const char *key, const char *value)
{
	int ret;

	pthread_mutex_lock(&r->lock);
	ret = ss_writer_meta(r->w, key, value);
	pthread_mutex_unlock(&r->lock);
	return ret;
}

int ss_recorder_start(struct ss_recorder *r, char *err, size_t errlen)
{
	int ret;

	r->start_ns = ss_mono_now_ns();
	r->capture.start_ns = r->start_ns;
	ret = ss_writer_capture(r->w, &r->capture);
	if (!ret)
		ret = ss_tracecap_start(r->cap);
	if (ret) {
		ss_errf(err, errlen, "cannot start tracing: %s", strerror(-ret));
		return ret;
	}
	ret = pthread_create(&r->thread, NULL, drain_thread, r);
	if (ret) {
		ss_tracecap_stop(r->cap);
		ss_errf(err, errlen, "cannot start the reader thread: %s", strerror(ret));
		return -ret;
	}
	r->thread_running = true;
	return ss_recorder_phase(r, "start", SS_PHASE_MARK, r->start_ns);
}

int ss_recorder_phase(struct ss_recorder *r, const char *name, uint32_t kind, uint64_t mono_ns)
{
	int ret;

	pthread_mutex_lock(&r->lock);
	ret = ss_writer_phase(r->w, mono_ns ? mono_ns : ss_mono_now_ns(), kind, name);
	pthread_mutex_unlock(&r->lock);
	return ret;
}

int ss_recorder_map(struct ss_recorder *r, const char *dir, uint32_t flags,
		    struct ss_fsmap_stats *st, char *err, size_t errlen)
{
	struct ss_mapwrite_req q = { .w = r->w, .lock = &r->lock, .dir = dir, .flags = flags };
	struct ss_fsmap_stats mine;
	struct stat sb;
	int ret;

	if (stat(dir, &sb) < 0) {
		ret = -errno;
		ss_errf(err, errlen, "%s: %s", dir, strerror(errno));
		return ret;
	}
	for (size_t d = 0; d < r->nr_devs && !q.bd; d++)
		if (r->devs[d].part_major == major(sb.st_dev) &&
		    r->devs[d].part_minor == minor(sb.st_dev))
			q.bd = &r->devs[d];
	if (!q.bd) {
		ss_errf(err, errlen, "%s is on %u:%u, not on a traced device", dir,
			major(sb.st_dev), minor(sb.st_dev));
		return -ENODEV;
	}
	q.id = r->nr_maps++;
	q.ts_ns = ss_mono_now_ns();
	ss_recorder_phase(r, "map", SS_PHASE_BEGIN, q.ts_ns);
	ret = ss_mapwrite(&q, st ? st : &mine, err, errlen);
	ss_recorder_phase(r, "map", SS_PHASE_END, 0);
	return ret;
}

void ss_recorder_status(struct ss_recorder *r, struct ss_recorder_status *st)
{
	st->events = __atomic_load_n(&r->written, __ATOMIC_RELAXED);
	st->lost = ss_tracecap_missed(r->cap);
	st->elapsed_ns = r->start_ns ? ss_mono_now_ns() - r->start_ns : 0;
}

/* What pausing the kworkers' stacks cost, as meta records (only where they paused). */
static void write_pauses(struct ss_recorder *r, uint64_t end)
{
	struct ss_stack_pauses p;
	char v[32];

	ss_tracecap_stack_pauses(r->cap, end, &p);
	r->pauses = p;
	if (!p.pauses)
		return;
	snprintf(v, sizeof(v), "%llu", (unsigned long long)p.pauses);
	ss_writer_meta(r->w, "work-names.pauses", v);
	snprintf(v, sizeof(v), "%.3f", (double)p.paused_ns / 1e9);
	ss_writer_meta(r->w, "work-names.paused_s", v);
	snprintf(v, sizeof(v), "%llu", (unsigned long long)p.unnamed);
	ss_writer_meta(r->w, "work-names.unnamed", v);
	if (p.resume_error)
		ss_writer_meta(r->w, "work-names.resume_error", strerror(p.resume_error));
}

void ss_recorder_stack_pauses(const struct ss_recorder *r, struct ss_stack_pauses *out)
{
	*out = r->pauses;
}

int ss_recorder_stop(struct ss_recorder *r, int exit_status, char *err, size_t errlen)
{
	struct ss_rec_cpu_stats stats[1024];
	size_t n;
	int ret = 0, ret2;
	uint64_t end;

	if (r->stopped)
		return 0;
	r->stopped = true;
	ss_tracecap_stop(r->cap);
	end = ss_mono_now_ns();
	if (r->thread_running) {
		r->stop_thread = 1;
		pthread_join(r->thread, NULL);
		r->thread_running = false;
	}
	if (r->thread_error) {
		ret = r->thread_error;
		ss_errf(err, errlen, "%s", r->thread_msg);
	} else {
		long got = ss_tracecap_drain(r->cap, sink, r);

		if (got < 0) {
			ret = (int)got;
			ss_errf(err, errlen, "reading the ring buffer: %s", strerror(-ret));
		}
	}
	/* whatever was read is written, even after an error, so nothing recorded is lost */
	ret2 = flush_pending(r, 0);
	if (ret2 && !ret) {
		ret = ret2;
		ss_errf(err, errlen, "writing the trace: %s", strerror(-ret2));
	}
	ss_recorder_phase(r, "end", SS_PHASE_MARK, end);
	n = ss_tracecap_cpu_stats(r->cap, stats, sizeof(stats) / sizeof(stats[0]));
	r->lost_total = 0;
	for (size_t i = 0; i < n; i++) {
		ss_writer_cpu_stats(r->w, &stats[i]);
		r->lost_total += stats[i].missed + stats[i].overrun + stats[i].commit_overrun +
				 stats[i].dropped;
	}
	r->capture.end_ns = end;
	r->capture.exit_status = exit_status;
	write_pauses(r, end);
	ss_writer_capture(r->w, &r->capture);
	ret2 = ss_writer_close(r->w);
	r->w = NULL;
	if (ret2 && !ret) {
		ret = ret2;
		ss_errf(err, errlen, "writing the trace: %s", strerror(-ret2));
	}
	return ret;
}

/* Device D's sysfs attribute ATTR (size, inflight), open for reading; NULL if not there. */
static FILE *open_dev_attr(const struct ss_recorder *r, const struct ss_rec_device *d,
			   const char *attr)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/dev/block/%u:%u/%s", r->sysfs, d->major, d->minor, attr);
	return fopen(path, "re");
}

/*
 * Whether the kernel counts no request in flight on any traced device (sysfs's inflight: the
 * requests the driver has, reads and writes); false when one cannot be read.
 */
static bool devices_idle(const struct ss_recorder *r)
{
	for (size_t i = 0; i < r->nr_devs; i++) {
		unsigned long long reads, writes;
		FILE *f = open_dev_attr(r, &r->devs[i].rec, "inflight");
		int got;

		if (!f)
			return false;
		got = fscanf(f, "%llu %llu", &reads, &writes);
		fclose(f);
		if (got != 2 || reads || writes)
			return false;
	}
	return true;
}

void ss_recorder_settle(struct ss_recorder *r, uint64_t linger_ns, volatile sig_atomic_t *stop)
{
	uint64_t since = ss_mono_now_ns(), now = since;

	__atomic_store_n(&r->settling, true, __ATOMIC_RELEASE);
	while (now - since < linger_ns && !(stop && *stop) && !ss_recorder_failed(r) &&
	       r->thread_running) {
		/* only a write that covers the time we started waiting can say "none"; of the
		 * requests whose completions may have been lost, the kernel's count (taken after
		 * that write: a completion since is in the ring buffer, which the stop drains) */
		if (__atomic_load_n(&r->written_to, __ATOMIC_ACQUIRE) > since &&
		    !__atomic_load_n(&r->waiting, __ATOMIC_RELAXED) &&
		    (!__atomic_load_n(&r->maybe_lost, __ATOMIC_RELAXED) || devices_idle(r)))
			return;
		nanosleep(&(struct timespec){ 0, 10000000L }, NULL);
		now = ss_mono_now_ns();
	}
}

uint64_t ss_recorder_incomplete(struct ss_recorder *r, uint64_t *lost)
{
	size_t maybe = maybe_lost(r);

	if (lost)
		*lost = maybe;
	return ss_pair_inflight(r->pair) - maybe;
}

int ss_recorder_failed(struct ss_recorder *r)
{
	return __atomic_load_n(&r->thread_error, __ATOMIC_ACQUIRE);
}

int ss_recorder_check_devices(struct ss_recorder *r, char *err, size_t errlen)
{
	for (size_t i = 0; i < r->nr_devs; i++) {
		const struct ss_rec_device *d = &r->devs[i].rec;
		char buf[32] = "";
		FILE *f = open_dev_attr(r, d, "size");

		if (f) {
			if (!fgets(buf, sizeof(buf), f))
				buf[0] = 0;
			fclose(f);
		}
		if (!f || strtoull(buf, NULL, 10) == 0) {
			ss_errf(err, errlen, "device %s (%u:%u) disappeared during the capture (%s); "
			    "its events end there", d->name, d->major, d->minor,
			    f ? "now 0 bytes: detached" : "removed");
			ss_recorder_meta(r, "capture.warning", err);
			return -ENODEV;
		}
	}
	return 0;
}

uint64_t ss_recorder_lost(struct ss_recorder *r)
{
	return r->lost_total;
}

void ss_recorder_free(struct ss_recorder *r)
{
	if (!r)
		return;
	if (r->thread_running) {
		r->stop_thread = 1;
		pthread_join(r->thread, NULL);
	}
	ss_tracecap_destroy(r->cap);
	if (r->w) {
		/* not stopped cleanly: keep what was read, leave the file marked truncated */
		flush_pending(r, 0);
		ss_writer_abort(r->w);
	}
	free(r->pending);
	free(r->sort_tmp);
	free(r->out);
	free(r->new_tasks);
	ss_tasknames_free(r->work);
	ss_tasks_free(r->tasks);
	ss_pair_free(r->pair);
	pthread_mutex_destroy(&r->lock);
	free(r);
}

size_t ss_recorder_nr_devices(const struct ss_recorder *r)
{
	return r->nr_devs;
}

const struct ss_rec_device *ss_recorder_device(const struct ss_recorder *r, size_t i)
{
	return &r->devs[i].rec;
}

size_t ss_recorder_nr_zones(const struct ss_recorder *r)
{
	return r->nr_zones;
}

uint64_t ss_recorder_nr_tasks(const struct ss_recorder *r)
{
	return r->nr_tasks;
}

const char *ss_recorder_instance(const struct ss_recorder *r)
{
	return r->capture.instance;
}
