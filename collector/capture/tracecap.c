// SPDX-License-Identifier: GPL-2.0-or-later
/* tracefs capture: the private instance set up and torn down; its reading is tracecap_read.c. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>

#include <event-parse.h>
#include <kbuffer.h>
#include <tracefs.h>

#include "errbuf.h"
#include "decode.h"
#include "tracecap.h"
#include "tracecap_int.h"

int ss_tracecap_lockdown(char *mode, size_t len)
{
	char buf[128] = "", *open, *close;
	FILE *f = fopen("/sys/kernel/security/lockdown", "re");

	if (len)
		mode[0] = 0;
	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	/* "none [integrity] confidentiality": the active mode is bracketed */
	if ((open = strchr(buf, '[')) && (close = strchr(open, ']')) && len)
		snprintf(mode, len, "%.*s", (int)(close - open - 1), open + 1);
	return strstr(buf, "[integrity]") || strstr(buf, "[confidentiality]");
}

/* Explain a failure to use tracefs in terms of what the user can do about it. */
static void explain(int e, const char *what, char *err, size_t errlen)
{
	if (geteuid() != 0)
		ss_errf(err, errlen, "%s: %s — recording needs root (try sudo)", what, strerror(e));
	else if ((e == EPERM || e == EACCES) && ss_tracecap_lockdown(NULL, 0))
		ss_errf(err, errlen, "%s: %s — kernel lockdown refuses tracefs; boot with lockdown=none "
		    "or record on a machine without lockdown", what, strerror(e));
	else
		ss_errf(err, errlen, "%s: %s", what, strerror(e));
}

/*
 * Parse just this event's format.  tracefs_local_events() would also load kallsyms, printk
 * formats and saved cmdlines, which cost a quarter of a CPU second and are not needed here.
 */
static struct tep_event *load_format(struct ss_tracecap *c, const char *sys, const char *name)
{
	struct tep_event *ev = NULL;
	int size = 0;
	char *fmt;

	fmt = tracefs_event_file_read(NULL, sys, name, "format", &size);
	if (!fmt)
		return NULL;
	if (size > 0 && tep_parse_event(c->tep, fmt, (unsigned long)size, sys) ==
	    TEP_ERRNO__SUCCESS)
		ev = tep_find_event_by_name(c->tep, sys, name);
	free(fmt);
	return ev;
}

static int setup_decoder(struct ss_tracecap *c, const char *name, uint16_t type)
{
	if (!load_format(c, "block", name))
		return -ENOENT;
	return ss_decoder_add(c->dec, name, type);
}

/* workqueue_execute_start, when this kernel has it with a `function` field: else nothing. */
static int setup_work(struct ss_tracecap *c, char *err, size_t errlen)
{
	struct tep_event *ev = load_format(c, "workqueue", "workqueue_execute_start");
	int ret;

	if (!ev || !(c->work_fn = tep_find_field(ev, "function")) ||
	    !(c->work_pid = tep_find_common_field(ev, "common_pid")))
		return 0;
	if (tracefs_event_enable(c->inst, "workqueue", "workqueue_execute_start") < 0) {
		ret = -errno;
		explain(errno, "workqueue_execute_start", err, errlen);
		return ret;
	}
	c->work_id = ev->id;
	return 0;
}

/*
 * Whether a stacktrace trigger writes into the instance that owns it: since Linux 5.17 (and
 * stable updates of 2022 to 4.19-5.16, which a version cannot tell from a kernel without
 * them).  Before, it wrote into the top-level buffer: global state this tool must not touch,
 * and stacks the recorder would never see.
 */
static bool stack_trigger_is_local(void)
{
	struct utsname u;
	unsigned major = 0, minor = 0;

	if (uname(&u) < 0 || sscanf(u.release, "%u.%u", &major, &minor) != 2)
		return false;
	return major > 5 || (major == 5 && minor >= 17);
}

/*
 * Writes TEXT to the trigger file of each of ss_block_events in WHICH (a bit each) of the
 * instance at DIR_FD: through the directory's descriptor, as struct ss_tracecap's other late
 * writes, and without O_TRUNC (which removes every trigger of the event).  Every file is
 * tried; 0, or the first -errno (a trigger already there is none).
 */
static int write_triggers(int dir_fd, unsigned which, const char *text)
{
	size_t len = strlen(text);
	int ret = dir_fd < 0 ? -EBADF : 0;

	for (size_t i = 0; dir_fd >= 0 && i < ss_nr_block_events; i++) {
		char file[128];
		ssize_t n;
		int fd;

		if (!(which & 1u << i))
			continue;
		snprintf(file, sizeof(file), "events/block/%s/trigger", ss_block_events[i].name);
		if ((fd = openat(dir_fd, file, O_WRONLY | O_CLOEXEC)) < 0) {
			if (!ret)
				ret = -errno;
			continue;
		}
		n = write(fd, text, len);
		if (n != (ssize_t)len && !(n < 0 && errno == EEXIST) && !ret)
			ret = n < 0 ? -errno : -EIO;
		close(fd);
	}
	return ret;
}

/* Removes the stacktrace triggers of setup_stacks() from the instance at DIR_FD (errors
 * ignored: the instance goes next). */
static void clear_triggers(int dir_fd, unsigned which)
{
	(void)write_triggers(dir_fd, which, "!stacktrace");
}

/*
 * The kernel's stack after each kworker's issue, insert and queue event of the traced
 * devices (FILTER: their event filter, "" for all: a trigger does not see the event's own
 * filter).  0, or -errno with no trigger left behind.
 */
static int setup_stacks(struct ss_tracecap *c, const struct ss_tracecap_opts *o,
			const char *filter)
{
	struct tep_event *ev;
	struct tep_format_field *callers;
	char trigger[1200];

	if (!stack_trigger_is_local())
		return -ENOTSUP;
	ev = load_format(c, "ftrace", "kernel_stack");
	if (!ev || !(c->stack_nr = tep_find_field(ev, "size")) ||
	    !(callers = tep_find_field(ev, "caller")) || callers->offset < 0 ||
	    !(c->stack_pid = tep_find_common_field(ev, "common_pid")))
		return -ENOENT;
	snprintf(trigger, sizeof(trigger), "stacktrace if comm ~ \"" SS_WORKER_COMM "*\"%s%s%s",
		 *filter ? " && (" : "", filter, *filter ? ")" : "");
	for (size_t i = 0; i < ss_nr_block_events; i++) {
		const struct ss_block_event *b = &ss_block_events[i];

		if ((b->opt_in && !(o->extra & b->opt_in)) || !ss_tracecap_wants_stack(b->type))
			continue;
		if (tracefs_event_file_write(c->inst, "block", b->name, "trigger", trigger) < 0) {
			int ret = errno ? -errno : -EIO;

			clear_triggers(c->dir_fd, c->triggered);
			c->triggered = 0;
			return ret;
		}
		c->triggered |= 1u << i;
	}
	c->stack_callers = (unsigned)callers->offset;
	c->stack_id = ev->id;
	/* paced on the clock the drains' NOW and the pauses' ends are read from */
	if (!(o->extra & SS_CAP_WORK_ALWAYS) && !strcmp(o->clock ? o->clock : "mono", "mono"))
		c->pacing = (c->trigger = strdup(trigger)) != NULL;
	return 0;
}

static void *unarm_main(void *arg)
{
	struct ss_tracecap *c = arg;

	clear_triggers(c->dir_fd, c->triggered);
	return NULL;
}

/* Waits for unarm_start()'s removal, if one is under way. */
static void unarm_join(struct ss_tracecap *c)
{
	if (c->unarming) {
		pthread_join(c->unarm, NULL);
		c->unarming = false;
	}
}

/*
 * The trigger taken off its events: on a thread of its own, with every signal blocked (the
 * caller's handlers stay on the caller's threads); in place when no thread can be made.
 */
static void unarm_start(struct ss_tracecap *c)
{
	sigset_t all, old;

	unarm_join(c);                  /* pauses and resumes alternate: none is left here */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	c->unarming = pthread_create(&c->unarm, NULL, unarm_main, c) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!c->unarming)
		clear_triggers(c->dir_fd, c->triggered);
}

void ss_tracecap_pace_stacks(struct ss_tracecap *c, uint64_t now)
{
	struct timespec ts;
	int ret;

	switch (ss_stackpace_decide(&c->pace, now)) {
	case SS_STACKS_KEEP:
		break;
	case SS_STACKS_PAUSE:
		/* from NOW on: the events read after it that still have stacks keep them */
		c->nostack[0] = c->nostack[1];
		c->nostack[1].from = now;
		c->nostack[1].to = UINT64_MAX;
		c->pauses.pauses++;
		unarm_start(c);
		break;
	case SS_STACKS_RESUME:
		/* the trigger of setup_stacks() back on its events, once it is off them */
		unarm_join(c);
		if ((ret = write_triggers(c->dir_fd, c->triggered, c->trigger)) < 0) {
			/* paused for good: the kworkers' events from now on are counted unnamed */
			clear_triggers(c->dir_fd, c->triggered);
			c->pacing = false;
			c->pauses.resume_error = -ret;
			break;
		}
		/* up to the write's return: an event stamped before may have come without */
		clock_gettime(CLOCK_MONOTONIC, &ts);
		c->nostack[1].to = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
		c->pauses.paused_ns += c->nostack[1].to - c->nostack[1].from;
		break;
	}
}

void ss_tracecap_stack_pauses(const struct ss_tracecap *c, uint64_t now,
			      struct ss_stack_pauses *out)
{
	*out = c->pauses;
	if (c->nostack[1].to == UINT64_MAX && now > c->nostack[1].from)
		out->paused_ns += now - c->nostack[1].from;
}

static int configure(struct ss_tracecap *c, const struct ss_tracecap_opts *o, char *err,
		     size_t errlen)
{
	const char *clock = o->clock ? o->clock : "mono";
	char filter[1024] = "";
	size_t flen = 0;
	int ret;

	if (tracefs_instance_file_write(c->inst, "trace_clock", clock) < 0) {
		ss_errf(err, errlen, "cannot set trace clock '%s': %s", clock, strerror(errno));
		return -errno;
	}
	if (o->buffer_kb && tracefs_instance_set_buffer_size(c->inst, o->buffer_kb, -1) < 0) {
		ret = -errno;
		ss_errf(err, errlen, "cannot set the ring buffer to %zu KiB per CPU: %s", o->buffer_kb,
		    strerror(errno));
		return ret;
	}
	for (size_t i = 0; i < o->nr_devs; i++) {
		int n = snprintf(filter + flen, sizeof(filter) - flen, "%sdev == %u",
				 i ? " || " : "", o->devs[i]);

		if (n < 0 || (size_t)n >= sizeof(filter) - flen) {
			ss_errf(err, errlen, "too many devices for one event filter");
			return -E2BIG;
		}
		flen += (size_t)n;
	}
	for (size_t i = 0; i < ss_nr_block_events; i++) {
		const char *name = ss_block_events[i].name;

		if (ss_block_events[i].opt_in && !(o->extra & ss_block_events[i].opt_in))
			continue;
		ret = setup_decoder(c, name, ss_block_events[i].type);
		if (ret) {
			ss_errf(err, errlen, "block:%s: %s", name, ret == -ENOENT ?
			    "event not available in this kernel" : "unexpected event format");
			return ret;
		}
		if (flen && tracefs_event_file_write(c->inst, "block", name, "filter", filter) < 0) {
			ret = -errno;
			ss_errf(err, errlen, "cannot set filter on block:%s: %s", name, strerror(errno));
			return ret;
		}
		if (tracefs_event_enable(c->inst, "block", name) < 0) {
			ret = -errno;
			explain(errno, name, err, errlen);
			return ret;
		}
	}
	/* the stacks where the kernel takes the trigger, else the work event */
	if ((o->extra & SS_CAP_WORK) &&
	    ((o->extra & SS_CAP_WORK_EVENT) || setup_stacks(c, o, filter) < 0)) {
		ret = setup_work(c, err, errlen);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * CPU's trace_pipe_raw of INST, read without blocking — tracefs_cpu_open() but opened
 * close-on-exec: the workload the recorder spawns must not inherit the pipes (it could read
 * them, and while it or its children hold one open the instance cannot be removed).  The file
 * stays ours: tracefs_cpu_free_fd() + close().  NULL if the CPU has no such file (offline).
 */
static struct tracefs_cpu *open_cpu(struct tracefs_instance *inst, unsigned cpu, int *fdp)
{
	struct tracefs_cpu *t;
	char rel[64], *path;
	int fd;

	snprintf(rel, sizeof(rel), "per_cpu/cpu%u/trace_pipe_raw", cpu);
	path = tracefs_instance_get_file(inst, rel);
	if (!path)
		return NULL;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	tracefs_put_tracing_file(path);
	if (fd < 0)
		return NULL;
	t = tracefs_cpu_alloc_fd(fd, getpagesize(), true);
	if (!t) {
		close(fd);
		return NULL;
	}
	*fdp = fd;
	return t;
}

static int open_cpus(struct ss_tracecap *c, char *err, size_t errlen)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);

	if (n < 1)
		n = 1;
	c->cpus = calloc((size_t)n, sizeof(*c->cpus));
	if (!c->cpus)
		return -ENOMEM;
	c->nr_cpus = (unsigned)n;
	for (unsigned i = 0; i < c->nr_cpus; i++) {
		struct cpu_reader *r = &c->cpus[i];

		r->fd = -1;
		r->tcpu = open_cpu(c->inst, i, &r->fd);
		if (!r->tcpu)
			continue;      /* offline or absent CPU */
		r->page_size = tracefs_cpu_read_size(r->tcpu);
		if (r->page_size <= 0 || !(r->page = malloc((size_t)r->page_size))) {
			ss_errf(err, errlen, "cannot set up reading CPU %u", i);
			return -ENOMEM;
		}
		if (!c->splice_tried)
			ss_tracecap_open_splice(c, (size_t)r->page_size);
	}
	return 0;
}

/* Writes TEXT to FILE of the instance, through its directory's descriptor. */
static int inst_write(struct ss_tracecap *c, const char *file, const char *text)
{
	size_t len = strlen(text);
	int fd, ret = 0;

	if (c->dir_fd < 0)
		return -EBADF;
	fd = openat(c->dir_fd, file, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, text, len) != (ssize_t)len)
		ret = errno ? -errno : -EIO;
	close(fd);
	return ret;
}

/* The text of FILE of the instance (at most 4 KiB, NUL-terminated), NULL if unreadable. */
static char *inst_read(struct ss_tracecap *c, const char *file)
{
	char *buf;
	ssize_t n;
	int fd;

	if (c->dir_fd < 0 || (fd = openat(c->dir_fd, file, O_RDONLY | O_CLOEXEC)) < 0)
		return NULL;
	buf = malloc(4096);
	n = buf ? read(fd, buf, 4095) : -1;
	close(fd);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	buf[n] = 0;
	return buf;
}

/* Opens the descriptors of the instance's directory and its parent (struct ss_tracecap). */
static int open_dirs(struct ss_tracecap *c)
{
	char *dir = tracefs_instance_get_dir(c->inst);

	if (!dir)
		return -ENOMEM;
	c->dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	tracefs_put_tracing_file(dir);
	if (c->dir_fd < 0)
		return -errno;
	c->parent_fd = openat(c->dir_fd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return c->parent_fd < 0 ? -errno : 0;
}

int ss_tracecap_check(char *err, size_t errlen)
{
	const char *dir = tracefs_tracing_dir();
	char path[4096];

	if (!dir) {
		if (geteuid() != 0)
			ss_errf(err, errlen, "tracefs is not mounted and only root can mount it — run as root");
		else
			ss_errf(err, errlen, "tracefs is not available: mount it with 'mount -t tracefs "
			    "nodev /sys/kernel/tracing' (kernel needs CONFIG_FTRACE)");
		return -ENODEV;
	}
	snprintf(path, sizeof(path), "%s/instances", dir);
	if (access(path, W_OK) < 0) {
		int e = errno;

		explain(e, "cannot create a tracing instance", err, errlen);
		return -e;
	}
	return 0;
}

struct ss_tracecap *ss_tracecap_create(const struct ss_tracecap_opts *o, char *err, size_t errlen)
{
	char name[64];
	struct ss_tracecap *c;
	struct timespec ts;
	ssize_t bsize;
	int ret;

	ret = ss_tracecap_check(err, errlen);
	if (ret) {
		errno = -ret;
		return NULL;
	}
	ss_tracecap_remove_stale();
	c = calloc(1, sizeof(*c));
	if (!c) {
		errno = ENOMEM;
		return NULL;
	}
	c->dir_fd = c->parent_fd = -1;
	c->pipe[0] = c->pipe[1] = -1;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	snprintf(name, sizeof(name), SS_INSTANCE_PREFIX "%d-%lx", (int)getpid(),
		 (unsigned long)(ts.tv_nsec & 0xfffff));
	c->inst = tracefs_instance_create(name);
	if (!c->inst) {
		ret = -errno;
		explain(errno, "cannot create a tracing instance", err, errlen);
		goto error;
	}
	ret = open_dirs(c);
	if (ret) {
		explain(-ret, "cannot open the tracing instance's directory", err, errlen);
		goto error;
	}
	inst_write(c, "tracing_on", "0");
	c->work_id = c->stack_id = -1;
	c->tep = tep_alloc();
	c->dec = c->tep ? ss_decoder_new(c->tep) : NULL;
	if (!c->dec) {
		ret = -ENOMEM;
		goto error;
	}
	/* raw pages come from this very kernel: host word size and byte order */
	c->kbuf = kbuffer_alloc(KBUFFER_LSIZE_SAME_AS_HOST, KBUFFER_ENDIAN_SAME_AS_HOST);
	if (!c->kbuf) {
		ret = -ENOMEM;
		goto error;
	}
	ret = configure(c, o, err, errlen);
	if (ret)
		goto error;
	bsize = tracefs_instance_get_buffer_size(c->inst, 0);
	c->buffer_kb = bsize > 0 ? (size_t)bsize : o->buffer_kb;
	ret = open_cpus(c, err, errlen);
	if (ret)
		goto error;
	return c;
error:
	ss_tracecap_destroy(c);
	errno = -ret;
	return NULL;
}

int ss_tracecap_start(struct ss_tracecap *c)
{
	int ret = inst_write(c, "tracing_on", "1");

	if (ret)
		return ret;
	c->on = true;
	return 0;
}

int ss_tracecap_stop(struct ss_tracecap *c)
{
	int ret;

	/* no pause begins or ends in a drain that sees the stop (one under way may still end
	 * one: the thread is joined before the pauses are read) */
	__atomic_store_n(&c->stopping, true, __ATOMIC_RELEASE);
	ret = inst_write(c, "tracing_on", "0");

	if (ret)
		return ret;
	c->on = false;
	return 0;
}

void ss_tracecap_set_work_sink(struct ss_tracecap *c, ss_work_sink sink)
{
	c->work_sink = sink;
}

void ss_tracecap_set_lost_sink(struct ss_tracecap *c, ss_lost_sink sink)
{
	c->lost_sink = sink;
}

void ss_tracecap_set_stack_sink(struct ss_tracecap *c, ss_stack_sink sink)
{
	c->stack_sink = sink;
}

const char *ss_tracecap_work_method(const struct ss_tracecap *c)
{
	return c->stack_id >= 0 ? "stack" : c->work_id >= 0 ? "event" : NULL;
}

static uint64_t stat_value(const char *text, const char *key)
{
	const char *p = text;
	size_t kl = strlen(key);

	while (p && *p) {
		if (!strncmp(p, key, kl) && p[kl] == ':')
			return strtoull(p + kl + 1, NULL, 10);
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return 0;
}

size_t ss_tracecap_cpu_stats(struct ss_tracecap *c, struct ss_rec_cpu_stats *out, size_t max)
{
	size_t n = 0;

	for (unsigned i = 0; i < c->nr_cpus && n < max; i++) {
		struct cpu_reader *r = &c->cpus[i];
		char file[64];
		char *text;

		if (!r->tcpu)
			continue;
		memset(&out[n], 0, sizeof(out[n]));
		out[n].cpu = i;
		out[n].events = r->events;
		out[n].missed = r->missed;
		out[n].read_bytes = r->read_bytes;
		snprintf(file, sizeof(file), "per_cpu/cpu%u/stats", i);
		text = inst_read(c, file);
		if (text) {
			out[n].overrun = stat_value(text, "overrun");
			out[n].commit_overrun = stat_value(text, "commit overrun");
			out[n].dropped = stat_value(text, "dropped events");
			free(text);
		}
		n++;
	}
	return n;
}

uint64_t ss_tracecap_missed(const struct ss_tracecap *c)
{
	return c->missed_total;
}

const char *ss_tracecap_instance(const struct ss_tracecap *c)
{
	return tracefs_instance_get_name(c->inst);
}

unsigned ss_tracecap_nr_cpus(const struct ss_tracecap *c)
{
	return c->nr_cpus;
}

size_t ss_tracecap_buffer_kb(const struct ss_tracecap *c)
{
	return c->buffer_kb;
}

int ss_tracecap_destroy(struct ss_tracecap *c)
{
	int ret = 0;

	if (!c)
		return 0;
	if (c->dir_fd >= 0)
		inst_write(c, "tracing_on", "0");
	unarm_join(c);
	clear_triggers(c->dir_fd, c->triggered);
	free(c->trigger);
	free(c->frames);
	for (unsigned i = 0; c->cpus && i < c->nr_cpus; i++) {
		if (c->cpus[i].tcpu) {
			tracefs_cpu_free_fd(c->cpus[i].tcpu);
			close(c->cpus[i].fd);
		}
		free(c->cpus[i].page);
	}
	free(c->cpus);
	ss_tracecap_close_splice(c);
	if (c->kbuf)
		kbuffer_free(c->kbuf);
	ss_decoder_free(c->dec);
	if (c->tep)
		tep_free(c->tep);
	if (c->dir_fd >= 0)
		close(c->dir_fd);
	if (c->inst) {
		/* removed through the parent's descriptor, not by path (struct ss_tracecap) */
		if (c->parent_fd < 0 ? tracefs_instance_destroy(c->inst) < 0 :
		    unlinkat(c->parent_fd, tracefs_instance_get_name(c->inst), AT_REMOVEDIR) < 0)
			ret = -errno;
		tracefs_instance_free(c->inst);
	}
	if (c->parent_fd >= 0)
		close(c->parent_fd);
	free(c);
	return ret;
}

struct stale_list {
	char **names;
	size_t n, cap;
};

/* Instances named SS_INSTANCE_PREFIX<digits>-...: ours (the digits are the recorder's pid). */
static int collect_ours(const char *name, void *ctx)
{
	struct stale_list *l = ctx;
	const char *p = name + strlen(SS_INSTANCE_PREFIX);
	char **nn;

	if (strncmp(name, SS_INSTANCE_PREFIX, strlen(SS_INSTANCE_PREFIX)) || *p < '0' || *p > '9')
		return 0;
	while (*p >= '0' && *p <= '9')
		p++;
	if (*p != '-')
		return 0;
	if (l->n == l->cap) {
		nn = reallocarray(l->names, l->cap ? l->cap * 2 : 8, sizeof(*nn));
		if (!nn)
			return 0;
		l->names = nn;
		l->cap = l->cap ? l->cap * 2 : 8;
	}
	if ((l->names[l->n] = strdup(name)))
		l->n++;
	return 0;
}

/* A dead recorder's triggers, removed before its instance (a kernel may refuse to remove an
 * instance whose events still have triggers). */
static void stale_triggers(struct tracefs_instance *inst)
{
	char *dir = tracefs_instance_get_dir(inst);
	int fd = dir ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;

	tracefs_put_tracing_file(dir);
	if (fd < 0)
		return;
	clear_triggers(fd, ~0u);
	close(fd);
}

int ss_tracecap_remove_stale(void)
{
	/* Walked by hand, not with tracefs_instances(REGEX): libtracefs 1.6 leaks the compiled
	 * regex on every call, which failed the whole suite under LeakSanitizer. */
	struct stale_list l = { 0 };
	int removed = 0;

	tracefs_instances_walk(collect_ours, &l);
	for (size_t i = 0; i < l.n; i++) {
		long pid = strtol(l.names[i] + strlen(SS_INSTANCE_PREFIX), NULL, 10);
		struct tracefs_instance *inst;

		if (pid <= 0 || pid == getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		inst = tracefs_instance_alloc(NULL, l.names[i]);
		if (!inst)
			continue;
		tracefs_trace_off(inst);
		stale_triggers(inst);
		if (tracefs_instance_destroy(inst) == 0)
			removed++;
		tracefs_instance_free(inst);
	}
	for (size_t i = 0; i < l.n; i++)
		free(l.names[i]);
	free(l.names);
	return removed;
}
