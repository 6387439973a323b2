// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Trace reader: recognises the format of a trace from its content, hands it to the matching
 * backend (trace_backend.h) and offers the metadata helpers and accessors that every format
 * shares.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cpus.h"
#include "fileio.h"
#include "readahead.h"
#include "seekscope/model.h"
#include "fmapdata.h"
#include "tasks.h"
#include "trace_backend.h"

struct ss_trace_priv {
	const struct ss_trace_backend *be;
	struct ss_tasks *tasks;             /* = t->tasks, writable */
	struct ss_fmap_data files;          /* = *t->files */
	void *state;
	char *source;                       /* what the backend opens (ss_trace_source()) */
	int spool_fd;                       /* a stream's copy, or -1 */
	struct ss_tracecmd_server *tracecmd; /* a kept trace-cmd reader (ss_trace_open_with) */
	struct ss_readahead *ra;            /* reading ahead since the last rewind, or NULL */
	bool ra_decided;                    /* whether to read ahead is decided for this pass */
	int ra_mode;                        /* ss_trace_set_readahead() */
	ss_trace_batch_hook hook;           /* ss_trace_set_batch_hook() */
	void *hook_arg;
	size_t note_size;                   /* the hook's notes' size per event */
	void *notes;                        /* the hook's notes of a batch read directly */
	size_t cap_notes;                   /* their bytes */
	bool notes_here;                    /* the last batch was read directly, with a hook */
	bool pending;                       /* opened lazily, the metadata not complete yet */
	uint64_t events_hint;               /* ... and its estimate of the events */
	size_t cap_devices, cap_zones, cap_phases, cap_stats, cap_meta, cap_lost,
	       cap_extents;
	char error[200];
};

/*
 * The backends, each defined in its own file as `ss_trace_backend_<id>`: the registry, one line
 * each.  Tried in this order on the first bytes of a regular file; their names make the list
 * of formats in messages.
 */
#define BACKENDS(X) \
	X(native)   \
	X(blktrace) \
	X(tracecmd)

#define DECLARE(id) extern const struct ss_trace_backend ss_trace_backend_##id;
BACKENDS(DECLARE)
#undef DECLARE
#define ENTRY(id) &ss_trace_backend_##id,
static const struct ss_trace_backend *const backends[] = { BACKENDS(ENTRY) };
#undef ENTRY
#define NR_BACKENDS (sizeof(backends) / sizeof(backends[0]))

void ss_trace_unknown_format(char *err, size_t errlen, const char *why)
{
	char names[128];
	size_t len = 0;

	names[0] = 0;
	for (size_t i = 0; i < NR_BACKENDS && len < sizeof(names); i++) {
		const char *sep = !i ? "" : i + 1 < NR_BACKENDS ? ", " : " or ";
		int n = snprintf(names + len, sizeof(names) - len, "%s%s", sep, backends[i]->name);

		if (n > 0)
			len += (size_t)n;
	}
	ss_errf(err, errlen, "not a %s file%s", names, why);
}

void ss_trace_set_error(struct ss_trace *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->priv->error, sizeof(t->priv->error), fmt, ap);
	va_end(ap);
}

const char *ss_trace_source(const struct ss_trace *t)
{
	return t->priv->source ? t->priv->source : t->path;
}

void *ss_trace_state(const struct ss_trace *t)
{
	return t->priv->state;
}

struct ss_tracecmd_server *ss_trace_tracecmd_server(const struct ss_trace *t)
{
	return t->priv->tracecmd;
}

void ss_trace_set_state(struct ss_trace *t, void *state)
{
	t->priv->state = state;
}

/* Append ELEM to *arr (nr, cap): amortised doubling; bounded by what the input holds. */
static int push(void *arrp, size_t *nr, size_t *cap, const void *elem, size_t size)
{
	void **arr = arrp;

	if (*nr == *cap) {
		size_t ncap = *cap ? *cap * 2 : 16;
		void *p = reallocarray(*arr, ncap, size);

		if (!p)
			return -ENOMEM;
		*arr = p;
		*cap = ncap;
	}
	memcpy((char *)*arr + *nr * size, elem, size);
	(*nr)++;
	return 0;
}

int ss_trace_add_device(struct ss_trace *t, const struct ss_rec_device *d)
{
	return push(&t->devices, &t->nr_devices, &t->priv->cap_devices, d, sizeof(*d));
}

int ss_trace_add_zone(struct ss_trace *t, const struct ss_rec_zone *z)
{
	return push(&t->zones, &t->nr_zones, &t->priv->cap_zones, z, sizeof(*z));
}

int ss_trace_add_phase(struct ss_trace *t, const struct ss_rec_phase *p)
{
	return push(&t->phases, &t->nr_phases, &t->priv->cap_phases, p, sizeof(*p));
}

int ss_trace_add_cpu_stats(struct ss_trace *t, const struct ss_rec_cpu_stats *s)
{
	return push(&t->cpu_stats, &t->nr_cpu_stats, &t->priv->cap_stats, s, sizeof(*s));
}

int ss_trace_add_lost(struct ss_trace *t, const struct ss_rec_lost *l)
{
	struct ss_lost_period p = { l->from_ns, l->to_ns > l->from_ns ? l->to_ns : l->from_ns,
				    l->count };

	return push(&t->lost, &t->nr_lost, &t->priv->cap_lost, &p, sizeof(p));
}

static int by_from(const void *a, const void *b)
{
	const struct ss_lost_period *x = a, *y = b;

	return x->from_ns < y->from_ns ? -1 : x->from_ns > y->from_ns;
}

/* The backends' LOST spans as disjoint periods in time order. */
static void merge_lost(struct ss_trace *t)
{
	uint64_t start = t->has_capture && t->capture.start_ns ? t->capture.start_ns : t->first_ts;
	size_t k = 0;

	if (!t->nr_lost)
		return;
	for (size_t i = 0; i < t->nr_lost; i++)       /* "since the start of the capture" */
		if (!t->lost[i].from_ns && t->lost[i].to_ns >= start)
			t->lost[i].from_ns = start;
	qsort(t->lost, t->nr_lost, sizeof(*t->lost), by_from);
	for (size_t i = 0; i < t->nr_lost; i++) {
		if (k && t->lost[i].from_ns <= t->lost[k - 1].to_ns) {
			struct ss_lost_period *m = &t->lost[k - 1];

			if (t->lost[i].to_ns > m->to_ns)
				m->to_ns = t->lost[i].to_ns;
			m->count += t->lost[i].count;
		} else {
			t->lost[k++] = t->lost[i];
		}
	}
	t->nr_lost = k;
}

bool ss_trace_lost_overlaps(const struct ss_trace *t, uint64_t from_ns, uint64_t to_ns)
{
	size_t lo = 0, hi = t->nr_lost;

	/* the first period ending at or after from_ns; it overlaps if it starts by to_ns */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->lost[mid].to_ns < from_ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < t->nr_lost && t->lost[lo].from_ns <= to_ns;
}

uint64_t ss_trace_lost_placed(const struct ss_trace *t, uint64_t *span_ns)
{
	uint64_t n = 0, span = 0;

	for (size_t i = 0; i < t->nr_lost; i++) {
		n += t->lost[i].count;
		span += t->lost[i].to_ns - t->lost[i].from_ns;
	}
	if (span_ns)
		*span_ns = span;
	return n;
}

int ss_trace_add_meta(struct ss_trace *t, const char *key, const char *value)
{
	struct ss_meta m = { strdup(key), strdup(value) };

	if (!m.key || !m.value || push(&t->meta, &t->nr_meta, &t->priv->cap_meta, &m, sizeof(m))) {
		free(m.key);
		free(m.value);
		return -ENOMEM;
	}
	return 0;
}

int ss_trace_add_task(struct ss_trace *t, const struct ss_rec_task *rec)
{
	int ret = ss_tasks_add(t->priv->tasks, rec);

	return ret < 0 ? ret : 0;
}

int ss_trace_add_task_name(struct ss_trace *t, uint64_t ts, uint32_t pid, const char *comm,
			   size_t comm_len)
{
	int ret = ss_tasks_add_name(t->priv->tasks, ts, pid, comm, comm_len, NULL, 0);

	return ret < 0 ? ret : 0;
}

int ss_trace_add_fmap(struct ss_trace *t, uint32_t type, const void *buf, size_t len)
{
	switch (type) {
	case SS_REC_FILEMAP:
		return ss_fmap_data_add_map(&t->priv->files, buf, len);
	case SS_REC_FILES:
		return ss_fmap_data_add_files(&t->priv->files, buf, len);
	case SS_REC_EXTENTS:
		return ss_fmap_data_add_extents(&t->priv->files, buf, len);
	default:
		return 0;
	}
}

bool ss_trace_task_name(const struct ss_trace *t, uint32_t pid, uint64_t ts, char *buf,
			size_t len)
{
	long id = ss_tasks_find(t->tasks, pid, ts);

	if (id < 0) {
		snprintf(buf, len, "unknown");
		return false;
	}
	ss_task_name(ss_tasks_entry(t->tasks, (size_t)id), buf, len);
	return true;
}

int ss_trace_add_extent(struct ss_trace *t, const struct ss_extent *e)
{
	size_t i = 0;

	while (i < t->nr_extents && t->extents[i].dev != e->dev)
		i++;
	if (i == t->nr_extents)
		return push(&t->extents, &t->nr_extents, &t->priv->cap_extents, e, sizeof(*e));
	if (e->lo < t->extents[i].lo)
		t->extents[i].lo = e->lo;
	if (e->hi > t->extents[i].hi)
		t->extents[i].hi = e->hi;
	return 0;
}

int ss_trace_add_bare_device(struct ss_trace *t, uint32_t dev)
{
	struct ss_rec_device d;

	for (size_t i = 0; i < t->nr_devices; i++)
		if (t->devices[i].dev == dev)
			return 0;
	memset(&d, 0, sizeof(d));
	d.dev = dev;
	d.major = SS_DEV_MAJOR(dev);
	d.minor = SS_DEV_MINOR(dev);
	snprintf(d.name, sizeof(d.name), "%u:%u", d.major, d.minor);
	snprintf(d.path, sizeof(d.path), "%s", t->path);
	return ss_trace_add_device(t, &d);
}

/* The backend that opens sets of files (directories, prefixes); -ERR if none does. */
static int detect_set(const struct ss_trace_backend **be, int err)
{
	for (size_t i = 0; i < NR_BACKENDS; i++)
		if (backends[i]->opens_sets) {
			*be = backends[i];
			return 0;
		}
	return -err;
}

/*
 * Which backend reads PATH.  Regular files are recognised by their first bytes; a directory,
 * or a name that is no file, can only be a set of files such as blktrace's per-CPU files (its
 * backend says whether there are any).
 */
static int detect(const char *path, const struct ss_trace_backend **be, char *err, size_t errlen)
{
	unsigned char head[64];
	struct stat st;
	ssize_t n;
	int fd;

	if (stat(path, &st) < 0) {
		if (errno != ENOENT)
			return -errno;
		return detect_set(be, ENOENT);
	}
	if (S_ISDIR(st.st_mode))
		return detect_set(be, EISDIR);
	if (!S_ISREG(st.st_mode)) {
		ss_errf(err, errlen, "not a regular file");
		return -EINVAL;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	do
		n = pread(fd, head, sizeof(head), 0);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		int e = errno;

		close(fd);
		return -e;
	}
	close(fd);
	if (n == 0) {
		ss_trace_unknown_format(err, errlen, " (empty file)");
		return -EINVAL;
	}
	for (size_t i = 0; i < NR_BACKENDS; i++)
		if (backends[i]->probe(head, (size_t)n)) {
			*be = backends[i];
			return 0;
		}
	ss_trace_unknown_format(err, errlen, " (bad magic)");
	return -EINVAL;
}

/*
 * PATH as something the backends can read at any offset: "-" is standard input, a regular file
 * read where it is; a pipe ("-", /dev/stdin, a FIFO, bash's <(cmd)) is spooled into an unnamed
 * temporary file first (fileio.h), since every reader seeks — the native one reads the
 * metadata in a first pass, then the events.  Sets t->priv->source for a stream or standard
 * input, leaves it NULL for a named file; 0 or -errno with the reason in ERR.
 */
static int open_source(struct ss_trace *t, const char *path, char *err, size_t errlen)
{
	struct stat st;
	int fd = STDIN_FILENO, ret;

	if (strcmp(path, "-")) {
		if (stat(path, &st) < 0 || !(S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)))
			return 0;   /* detect() says what a missing or other file is */
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
	} else if (fstat(fd, &st) < 0) {
		return -errno;
	} else if (S_ISREG(st.st_mode)) {
		/* a new open file description: reading starts at 0 whatever the shell did */
		t->priv->source = strdup("/proc/self/fd/0");
		return t->priv->source ? 0 : -ENOMEM;
	} else if (isatty(fd)) {
		ss_errf(err, errlen, "standard input is a terminal: pipe a trace into it "
			"(seekscope record -o - ... | seekscope report -)");
		return -EINVAL;
	}
	ret = ss_spool_fd(fd, err, errlen);
	if (fd != STDIN_FILENO)
		close(fd);
	if (ret < 0)
		return ret;
	t->priv->spool_fd = ret;
	if (asprintf(&t->priv->source, "/proc/self/fd/%d", ret) < 0) {
		t->priv->source = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* SEEKSCOPE_READAHEAD (trace_read.h): the default of ss_trace_set_readahead(). */
static int readahead_env(void)
{
	const char *v = getenv("SEEKSCOPE_READAHEAD");

	if (!v)
		return 0;
	return !strcmp(v, "always") ? 1 : !strcmp(v, "never") ? -1 : 0;
}

static struct ss_trace *open_trace(const char *path, struct ss_tracecmd_server *srv, bool lazy,
				   char *err, size_t errlen);

struct ss_trace *ss_trace_open(const char *path, char *err, size_t errlen)
{
	return open_trace(path, NULL, false, err, errlen);
}

struct ss_trace *ss_trace_open_lazy(const char *path, char *err, size_t errlen)
{
	return open_trace(path, NULL, true, err, errlen);
}

struct ss_trace *ss_trace_open_with(const char *path, struct ss_tracecmd_server *srv, char *err,
				    size_t errlen)
{
	return open_trace(path, srv, false, err, errlen);
}

bool ss_trace_meta_pending(const struct ss_trace *t)
{
	return t->priv->pending;
}

uint64_t ss_trace_events_hint(const struct ss_trace *t)
{
	return t->priv->pending ? t->priv->events_hint : t->nr_events;
}

void ss_trace_set_events_hint(struct ss_trace *t, uint64_t events)
{
	t->priv->events_hint = events;
}

void ss_trace_meta_done(struct ss_trace *t)
{
	merge_lost(t);
	t->priv->pending = false;
}

static struct ss_trace *open_trace(const char *path, struct ss_tracecmd_server *srv, bool lazy,
				   char *err, size_t errlen)
{
	const struct ss_trace_backend *be = NULL;
	struct ss_trace *t;
	int ret;

	if (errlen)
		err[0] = 0;
	t = calloc(1, sizeof(*t));
	if (!t || !(t->priv = calloc(1, sizeof(*t->priv)))) {
		ret = -ENOMEM;
		goto error;
	}
	t->priv->spool_fd = -1;
	t->priv->tracecmd = srv;
	t->priv->ra_mode = readahead_env();
	if (!(t->path = strdup(path)) || !(t->priv->tasks = ss_tasks_new())) {
		ret = -ENOMEM;
		goto error;
	}
	t->tasks = t->priv->tasks;
	t->files = &t->priv->files;
	ret = open_source(t, path, err, errlen);
	if (ret)
		goto error;
	ret = detect(ss_trace_source(t), &be, err, errlen);
	if (ret)
		goto error;
	if (t->priv->source && be->opens_sets) {
		ss_errf(err, errlen, "%s traces are sets of files: they cannot be read from "
			"standard input or a pipe; name their directory or prefix", be->name);
		ret = -EINVAL;
		goto error;
	}
	t->priv->be = be;
	t->format = be->name;
	if (lazy && be->open_lazy) {
		t->priv->pending = true;
		if (!be->open_lazy(t, err, errlen))
			return t;
		/* refused (it adds no metadata): opened the usual way, whose checks, their order and
		 * their messages are the reference */
		be->close(t);
		ss_trace_set_state(t, NULL);
		t->priv->pending = false;
		t->priv->error[0] = '\0';
		if (errlen)
			err[0] = '\0';
	}
	ret = be->open(t, err, errlen);
	if (ret)
		goto error;
	merge_lost(t);
	return t;
error:
	if (errlen && !err[0])
		ss_errf(err, errlen, "%s", strerror(-ret));
	ss_trace_close(t);
	errno = -ret;
	return NULL;
}

void ss_trace_close(struct ss_trace *t)
{
	if (!t)
		return;
	if (t->priv) {
		ss_readahead_stop(t->priv->ra);   /* first: its thread calls the backend */
		if (t->priv->be)
			t->priv->be->close(t);
		ss_tasks_free(t->priv->tasks);
		ss_fmap_data_free(&t->priv->files);
		if (t->priv->spool_fd >= 0)
			close(t->priv->spool_fd);
		free(t->priv->source);
		free(t->priv->notes);
		free(t->priv);
	}
	for (size_t i = 0; i < t->nr_meta; i++) {
		free(t->meta[i].key);
		free(t->meta[i].value);
	}
	free(t->meta);
	free(t->devices);
	free(t->zones);
	free(t->phases);
	free(t->cpu_stats);
	free(t->lost);
	free(t->extents);
	free(t->path);
	free(t);
}

const char *ss_trace_meta(const struct ss_trace *t, const char *key)
{
	for (size_t i = t->nr_meta; i-- > 0;)
		if (!strcmp(t->meta[i].key, key))
			return t->meta[i].value;
	return NULL;
}

const struct ss_rec_phase *ss_trace_phase_begin(const struct ss_trace *t, const char *name)
{
	for (size_t i = 0; i < t->nr_phases; i++)
		if (t->phases[i].kind == SS_PHASE_BEGIN &&
		    !strncmp(t->phases[i].name, name, sizeof(t->phases[i].name)))
			return &t->phases[i];
	return NULL;
}

const struct ss_rec_device *ss_trace_find_device(const struct ss_trace *t, const char *spec)
{
	unsigned maj, min;
	char end;

	if (sscanf(spec, "%u:%u%c", &maj, &min, &end) == 2) {
		for (size_t i = 0; i < t->nr_devices; i++)
			if (t->devices[i].dev == SS_MKDEV(maj, min))
				return &t->devices[i];
		return NULL;
	}
	for (size_t i = 0; i < t->nr_devices; i++) {
		const struct ss_rec_device *d = &t->devices[i];

		if (!strncmp(d->name, spec, sizeof(d->name)) ||
		    (d->part_name[0] && !strncmp(d->part_name, spec, sizeof(d->part_name))) ||
		    (d->path[0] && !strncmp(d->path, spec, sizeof(d->path))))
			return d;
	}
	return NULL;
}

void ss_trace_devices_list(const struct ss_trace *t, char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, t->nr_devices ? "its devices:" : "it has no devices");

	for (size_t i = 0; i < t->nr_devices && n < len; i++) {
		const struct ss_rec_device *d = &t->devices[i];
		char num[24];

		/* imported devices are named by their number: say it once */
		snprintf(num, sizeof(num), "%u:%u", d->major, d->minor);
		n += (size_t)snprintf(buf + n, len - n, "%s %.32s%s%s", i ? "," : "", d->name,
				      strcmp(d->name, num) ? " " : "", strcmp(d->name, num) ? num : "");
	}
}

uint64_t ss_trace_lost_events(const struct ss_trace *t)
{
	uint64_t lost = 0, placed;

	for (size_t i = 0; i < t->nr_cpu_stats; i++)
		lost += t->cpu_stats[i].missed + t->cpu_stats[i].overrun +
			t->cpu_stats[i].commit_overrun + t->cpu_stats[i].dropped;
	/* a trace cut before its statistics still knows what it placed */
	placed = ss_trace_lost_placed(t, NULL);
	return lost > placed ? lost : placed;
}

const struct ss_rec_zone *ss_trace_zone_at(const struct ss_trace *t, uint32_t dev, uint64_t sector)
{
	const struct ss_rec_zone *best = NULL;

	for (size_t i = 0; i < t->nr_zones; i++) {
		const struct ss_rec_zone *z = &t->zones[i];

		if (z->dev != dev || sector < z->start_sector ||
		    sector - z->start_sector >= z->nr_sectors)
			continue;
		/* the log inside an AG, a table or the journal inside a group: model.h's rule */
		if (!best || ss_zone_wins(z, best))
			best = z;
	}
	return best;
}

int ss_trace_rewind(struct ss_trace *t)
{
	ss_readahead_stop(t->priv->ra);
	t->priv->ra = NULL;
	t->priv->ra_decided = false;
	t->priv->hook = NULL;           /* a hook lasts one pass (ss_trace_set_batch_hook) */
	t->priv->notes_here = false;
	t->priv->error[0] = 0;
	return t->priv->be->rewind(t);
}

bool ss_trace_costly_decode(const struct ss_trace *t)
{
	return t->priv && t->priv->be && t->priv->be->costly_decode;
}

void ss_trace_set_readahead(struct ss_trace *t, int mode)
{
	t->priv->ra_mode = mode;
}

void ss_trace_set_batch_hook(struct ss_trace *t, ss_trace_batch_hook fn, void *arg,
			     size_t note_size)
{
	t->priv->hook = fn;
	t->priv->hook_arg = arg;
	t->priv->note_size = fn ? note_size : 0;
}

/*
 * Whether a pass reads ahead (readahead.h), or a backend runs a thread of its own: asked for,
 * or by itself for SS_READAHEAD_MIN_EVENTS events or more when another CPU is idle now
 * (ss_cpu_idle: not only free of work at our priority).
 */
bool ss_trace_want_thread(const struct ss_trace *t, uint64_t events)
{
	if (t->priv->ra_mode)
		return t->priv->ra_mode > 0;
	return events >= SS_READAHEAD_MIN_EVENTS && ss_cpu_idle();
}

int ss_trace_next_batch(struct ss_trace *t, const struct ss_event **ev, size_t *n)
{
	struct ss_trace_priv *p = t->priv;

	int ret;

	if (p->ra)
		return ss_readahead_next(p->ra, ev, n);
	if (!p->ra_decided) {
		p->ra_decided = true;
		/* without the thread (it could not start) the pass reads as it would have */
		if (ss_trace_want_thread(t, ss_trace_events_hint(t)) &&
		    (p->ra = ss_readahead_start(t, p->be->next_batch, p->hook, p->hook_arg,
						    p->note_size)))
			return ss_readahead_next(p->ra, ev, n);
	}
	p->notes_here = false;
	ret = p->be->next_batch(t, ev, n);
	if (ret > 0 && p->hook && *n) {
		if (p->note_size && *n * p->note_size > p->cap_notes) {
			void *nn = realloc(p->notes, *n * p->note_size);

			if (!nn) {
				*n = 0;
				ss_trace_set_error(t, "%s", strerror(ENOMEM));
				return -ENOMEM;
			}
			p->notes = nn;
			p->cap_notes = *n * p->note_size;
		}
		p->hook(p->hook_arg, *ev, p->note_size ? p->notes : NULL, *n);
		p->notes_here = p->note_size != 0;
	}
	return ret;
}

const void *ss_trace_batch_notes(const struct ss_trace *t)
{
	const struct ss_trace_priv *p = t->priv;

	if (p->ra)
		return ss_readahead_notes(p->ra);
	return p->notes_here ? p->notes : NULL;
}

bool ss_trace_readahead_waits(const struct ss_trace *t, unsigned *taken, unsigned *waited)
{
	*taken = *waited = 0;
	if (!t->priv->ra)
		return false;
	ss_readahead_waits(t->priv->ra, taken, waited);
	return true;
}

const char *ss_trace_error(const struct ss_trace *t)
{
	return t->priv->error;
}
