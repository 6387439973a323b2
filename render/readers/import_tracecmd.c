// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reader backend for trace-cmd .dat files, through libtracecmd: the block request events
 * (block_rq_issue, _complete, _requeue, _insert and block_bio_queue) of the top-level buffer and
 * of every instance buffer (`trace-cmd record -B NAME`), decoded by field name with the event
 * formats stored in the file (collector/core/decode.h: the same decoder and event table the
 * recorder uses).  The task names (pid -> comm) come from the events that carry `comm`
 * (issue, insert, queue), read in the metadata pass into the trace's task table.
 *
 * Each (buffer, CPU) ring is already in time order; streaming merges them (import_merge.h)
 * with a heap over one pending event per ring, so memory is libtracecmd's current page per ring
 * plus one batch.  Opening reads the file once for the devices, the event count, the time
 * range and the events the ring buffers reported lost.
 *
 * libtracecmd 3.1 is not safe on damaged files: its error paths crash (NULL dereferences in
 * tracecmd_close() after a failed tracecmd_open() or tracecmd_buffer_instance_handle(), e.g.
 * when an instance buffer's CPU data lies beyond the end of a .dat cut short).  So the whole
 * opening pass (open, instance buffers, reading every record) first runs in a child process;
 * a file the child does not survive is refused with a message, and only then is it read here,
 * through the same calls on the same bytes.  That costs one extra read of the file.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include <trace-cmd.h>

#include "decode.h"
#include "import_merge.h"

#define TRACECMD_MAGIC "\027\010\104tracing"

/* One per-CPU ring of one buffer: a source of the merge. */
struct ring {
	struct tracecmd_input *h;
	const struct ss_decoder *dec;
	int cpu;
	uint64_t missed;        /* events the ring buffer reported lost since its start */
	uint64_t last_ts;       /* of the last record read from it (0: none yet) */
};

struct tc_state {
	struct tracecmd_input *top;
	struct tracecmd_input **inst;   /* instance buffers; closed before top */
	int nr_inst;
	struct ss_decoder **dec;        /* per buffer: [0] top, [1 + i] instance i */
	struct ring *rings;
	size_t nr_rings;
	struct ss_merge *merge;         /* over the rings, by index */
	struct ss_trace *scanning;      /* during the metadata pass: the trace whose task table
					 * takes the events' comms */
	int task_error;                 /* the first error adding to it (names, lost spans) */
};

static bool tc_probe(const unsigned char *head, size_t len)
{
	return len >= sizeof(TRACECMD_MAGIC) - 1 &&
	       !memcmp(head, TRACECMD_MAGIC, sizeof(TRACECMD_MAGIC) - 1);
}

/*
 * Ring I's next block event (with FIRST its first): 1, 0 at its end, -errno.  The ring
 * buffer's reports of lost events on the way add to its missed count (an unknown count counts
 * as one) and, while scanning, a lost span from its previous record to this one (format.h,
 * SS_REC_LOST).  libtracecmd reports no
 * read errors: a ring it cannot read simply ends.
 */
static int next_event(void *ctx, size_t i, bool first, struct ss_event *ev, char *err,
		      size_t errlen)
{
	struct tc_state *s = ctx;
	struct ring *r = &s->rings[i];
	struct tep_record *rec;
	char comm[SS_COMM_LEN];

	if (first)
		r->missed = r->last_ts = 0;
	rec = first ? tracecmd_read_cpu_first(r->h, r->cpu) : tracecmd_read_data(r->h, r->cpu);
	for (; rec; rec = tracecmd_read_data(r->h, r->cpu)) {
		int ok = ss_decoder_decode(r->dec, rec->data, rec->ts, (unsigned)r->cpu, ev, comm);

		/* the events name their tasks (issue, insert, queue carry comm) */
		if (ok && comm[0] && s->scanning && !s->task_error)
			s->task_error = ss_trace_add_task_name(s->scanning, ev->ts_ns, ev->pid, comm,
							       sizeof(comm));
		if (rec->missed_events) {
			struct ss_rec_lost l = {
				.from_ns = r->last_ts, .to_ns = rec->ts, .cpu = (uint32_t)r->cpu,
				.count = rec->missed_events > 0 ? (uint64_t)rec->missed_events : 1,
			};

			r->missed += l.count;
			if (s->scanning && !s->task_error)
				s->task_error = ss_trace_add_lost(s->scanning, &l);
		}
		r->last_ts = rec->ts;
		tracecmd_free_record(rec);
		if (ok)
			return 1;
	}
	if (s->task_error) {
		ss_errf(err, errlen, "task names, lost spans: %s", strerror(-s->task_error));
		return s->task_error;
	}
	return 0;
}

/* ss_merge_next_fn: ring I's next events. */
static long next_events(void *ctx, size_t i, bool first, struct ss_event *ev, size_t max,
			char *err, size_t errlen)
{
	size_t n = 0;
	int ret = 0;

	while (n < max && (ret = next_event(ctx, i, first && !n, &ev[n], err, errlen)) > 0)
		n++;
	return n == max || ret >= 0 ? (long)n : ret;
}

static int tc_rewind(struct ss_trace *t)
{
	return ss_merge_rewind(((struct tc_state *)ss_trace_state(t))->merge, t);
}

static int tc_next_batch(struct ss_trace *t, const struct ss_event **ev, size_t *n)
{
	return ss_merge_next_batch(((struct tc_state *)ss_trace_state(t))->merge, t, ev, n);
}

/* A decoder for buffer H's event formats; *known counts the block events it knows. */
static struct ss_decoder *make_decoder(struct tracecmd_input *h, size_t *known)
{
	struct ss_decoder *d = ss_decoder_new(tracecmd_get_tep(h));

	if (!d)
		return NULL;
	for (size_t i = 0; i < ss_nr_block_events; i++)
		if (!ss_decoder_add(d, ss_block_events[i].name, ss_block_events[i].type))
			(*known)++;
	return d;
}

/* Open the instance buffers and one ring per (buffer, CPU). */
static int setup_buffers(struct tc_state *s, size_t *known)
{
	int nb = tracecmd_buffer_instances(s->top);
	size_t nr = 0;

	if (nb < 0)
		nb = 0;
	s->inst = calloc((size_t)nb + 1, sizeof(*s->inst));
	s->dec = calloc((size_t)nb + 1, sizeof(*s->dec));
	if (!s->inst || !s->dec)
		return -ENOMEM;
	for (int i = 0; i < nb; i++) {
		s->inst[i] = tracecmd_buffer_instance_handle(s->top, i);
		if (!s->inst[i])
			return -EINVAL;
		s->nr_inst = i + 1;
	}
	for (int b = 0; b <= nb; b++) {
		struct tracecmd_input *h = b ? s->inst[b - 1] : s->top;
		int cpus = tep_get_cpus(tracecmd_get_tep(h));

		if (!(s->dec[b] = make_decoder(h, known)))
			return -ENOMEM;
		nr += cpus > 0 ? (size_t)cpus : 0;
	}
	s->rings = calloc(nr ? nr : 1, sizeof(*s->rings));
	s->merge = ss_merge_new(nr, next_events, s);
	if (!s->rings || !s->merge)
		return -ENOMEM;
	for (int b = 0; b <= nb; b++) {
		struct tracecmd_input *h = b ? s->inst[b - 1] : s->top;
		int cpus = tep_get_cpus(tracecmd_get_tep(h));

		for (int c = 0; c < cpus; c++)
			s->rings[s->nr_rings++] = (struct ring){ .h = h, .dec = s->dec[b], .cpu = c };
	}
	return 0;
}

/* Metadata pass: devices, counts, time range and lost events per CPU. */
static int scan(struct ss_trace *t, struct tc_state *s, char *err, size_t errlen)
{
	struct ss_rec_cpu_stats *st = NULL;
	size_t nr_st = 0;
	int ret = 0;

	for (size_t i = 0; i < s->nr_rings; i++)
		if ((size_t)s->rings[i].cpu + 1 > nr_st)
			nr_st = (size_t)s->rings[i].cpu + 1;
	if (nr_st && !(st = calloc(nr_st, sizeof(*st))))
		return -ENOMEM;
	s->scanning = t;
	for (size_t i = 0; i < s->nr_rings && !ret; i++) {
		struct ss_rec_cpu_stats *cs = &st[s->rings[i].cpu];
		struct ss_merge_count c;

		ret = ss_merge_scan(s->merge, i, t, &c, err, errlen);
		cs->events += c.events;
		cs->missed += s->rings[i].missed;
	}
	s->scanning = NULL;
	for (size_t c = 0; c < nr_st && !ret; c++) {
		st[c].cpu = (uint32_t)c;
		ret = ss_trace_add_cpu_stats(t, &st[c]);
	}
	free(st);
	return ret;
}

static int add_summary_meta(struct ss_trace *t, const struct tc_state *s)
{
	char buf[512] = "top";
	size_t len = strlen(buf);
	int ret = 0;

	for (int i = 0; i < s->nr_inst && len < sizeof(buf); i++) {
		const char *name = tracecmd_buffer_instance_name(s->top, i);
		int n = snprintf(buf + len, sizeof(buf) - len, ",%s", name ? name : "?");

		if (n > 0)
			len += (size_t)n;
	}
	ret |= ss_trace_add_meta(t, "source", "trace-cmd");
	ret |= ss_trace_add_meta(t, "source.path", t->path);
	ret |= ss_trace_add_meta(t, "trace-cmd.buffers", buf);
	return ret ? -ENOMEM : 0;
}

/* Open, set up every buffer and scan every record: the pass that runs twice (see the top). */
static int tc_load(struct ss_trace *t, char *err, size_t errlen)
{
	struct tc_state *s = calloc(1, sizeof(*s));
	size_t known = 0;
	int ret;

	if (!s)
		return -ENOMEM;
	ss_trace_set_state(t, s);
	/* library code prints nothing: silence libtracecmd and libtraceevent */
	tracecmd_set_loglevel(TEP_LOG_NONE);
	errno = 0;
	s->top = tracecmd_open(ss_trace_source(t), TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!s->top) {
		ret = errno && errno != ENOENT ? -errno : -EINVAL;
		ss_errf(err, errlen, "cannot read this trace-cmd file: %s",
			errno && errno != ENOENT && errno != EINVAL ? strerror(errno) :
			"truncated, corrupt or of an unsupported version");
		return ret;
	}
	ret = setup_buffers(s, &known);
	if (ret == -EINVAL)
		ss_errf(err, errlen, "cannot read an instance buffer of this trace-cmd file "
			"(truncated or corrupt)");
	if (ret)
		return ret;
	if (!known) {
		ss_errf(err, errlen, "trace-cmd file without block request events (record "
			"with -e block:block_rq_issue -e block:block_rq_complete)");
		return -ENOENT;
	}
	if ((ret = scan(t, s, err, errlen)) || (ret = add_summary_meta(t, s)))
		return ret;
	return ss_merge_start(s->merge, t, err, errlen);
}

/* Set when a sanitizer runtime is linked in (tests, fuzzing); NULL in a normal build. */
__attribute__((weak)) void __sanitizer_set_death_callback(void (*callback)(void));

#define LOAD_OK     0
#define LOAD_FAILED 3    /* tc_load() returned an error: the parent's own pass will say which */

/*
 * Whether tc_load() survives T's file, tried in a child process (output to /dev/null, default
 * signal actions, _exit so nothing of the parent's is flushed or freed).  0 when it returned
 * (with or without an error), -EBADMSG when it crashed or aborted, -errno if no child.
 */
static int load_survives(struct ss_trace *t)
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		static const int fatal[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGTRAP,
					     SIGSYS };
		int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
		char err[8];

		if (fd >= 0) {
			dup2(fd, STDOUT_FILENO);   /* libtracecmd printf()s some complaints */
			dup2(fd, STDERR_FILENO);
		}
		/* die of them, whoever (a sanitizer, a fuzzer) handles them in the parent, and
		 * without a fuzzer's death callback (it would save the input as a crash) */
		for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
			signal(fatal[i], SIG_DFL);
		if (__sanitizer_set_death_callback)
			__sanitizer_set_death_callback(NULL);
		_exit(tc_load(t, err, sizeof(err)) ? LOAD_FAILED : LOAD_OK);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(status) &&
	    (WEXITSTATUS(status) == LOAD_OK || WEXITSTATUS(status) == LOAD_FAILED))
		return 0;
	return -EBADMSG;
}

static int tc_open(struct ss_trace *t, char *err, size_t errlen)
{
	int ret = load_survives(t);

	if (ret == -EBADMSG)
		ss_errf(err, errlen, "cannot read this trace-cmd file: corrupt or truncated "
			"(libtracecmd crashed reading it)");
	else if (ret)
		ss_errf(err, errlen, "cannot check this trace-cmd file: %s", strerror(-ret));
	return ret ? ret : tc_load(t, err, errlen);
}

static void tc_close(struct ss_trace *t)
{
	struct tc_state *s = ss_trace_state(t);

	if (!s)
		return;
	for (int i = 0; i < s->nr_inst; i++)
		tracecmd_close(s->inst[i]);
	if (s->dec)
		for (int i = 0; i <= s->nr_inst; i++)
			ss_decoder_free(s->dec[i]);
	if (s->top)
		tracecmd_close(s->top);
	free(s->inst);
	free(s->dec);
	free(s->rings);
	ss_merge_free(s->merge);
	free(s);
}

const struct ss_trace_backend ss_trace_backend_tracecmd = {
	.name = "trace-cmd",
	.probe = tc_probe,
	.open = tc_open,
	.next_batch = tc_next_batch,
	.rewind = tc_rewind,
	.close = tc_close,
};
