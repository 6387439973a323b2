// SPDX-License-Identifier: GPL-2.0-or-later
/* One column of the HTML viewer: statistics, cell pyramid, request detail; see html_col.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errbuf.h"
#include "seekscope/model.h"
#include "html_col.h"
#include "owner.h"
#include "palette.h"
#include "taskfilter.h"
#include "zone_index.h"
#include "zones.h"

/* The detail columns of a chunk, in the order they are stored (docs/html-viewer.md). */
enum { D_TS, D_SECTOR, D_NR, D_FLAGS, D_CLASS, D_LAT, D_DEV, D_ZONE, D_PROC, D_FILE, D_GROUP, D_MAX };

struct rec {
	uint64_t ts;                 /* issue, ns after t0 */
	uint64_t sector;
	uint64_t lat1;               /* latency ns + 1; 0: not known */
	uint32_t nr;
	uint32_t proc;               /* index into the column's processes * 2 + 1 when the
				      * owner is the submitter (owner.h) */
	int32_t  zone;               /* index into the trace's zones, -1 */
	uint32_t file;               /* (index into the column's files + 1) * 4 + the file
				      * map's verdict (filemap.h enum ss_fm_kind); 0: none */
	uint16_t flags;
	uint8_t  cls, dev;
	uint8_t  group;              /* o.groups: its group's colour slot (groups.h) */
};

#define MAX_DEVS 255
#define PROC_SLOTS (2 * SS_HTML_MAX_PROCS)   /* the processes' hash table, a power of two */
_Static_assert(SS_HTML_MAX_PROCS >= 2 && !(SS_HTML_MAX_PROCS & (SS_HTML_MAX_PROCS - 1)),
	       "the processes' hash table is a power of two");

struct ss_html_priv {
	/* per slot and level: */
	uint8_t  *mask[SS_HTML_MAX_SLOTS][SS_HTML_LEVELS];   /* classes present, bit = class */
	uint16_t *cnt[SS_HTML_MAX_SLOTS][SS_HTML_LEVELS];    /* requests touching the cell */
	bool any_dev;                        /* one slot of every device (o.nr_slots 0) */
	uint32_t slot_dev[SS_HTML_MAX_SLOTS];
	uint64_t slot_lo[SS_HTML_MAX_SLOTS], slot_hi[SS_HTML_MAX_SLOTS];
	struct rec *open;                    /* up to 3 chunks awaiting their completions */
	size_t nr_open;
	struct ss_hbuf col[D_MAX], raw, marks_ts, marks_kind, marks_dev;
	struct ss_io_classes ic;
	struct ss_zone_index *zi;
	struct ss_zone_hint zhint;          /* the last request's zone interval */
	struct ss_evfilter *filter;          /* o.only, else NULL */
	struct ss_disk_replay *disk;         /* o.disk, else NULL */
	struct ss_owner *own;                /* whose request (owner.h) */
	struct ss_group_slots *gs;           /* o.groups: a request's colour slot, else NULL */
	uint32_t *proc_slot;                 /* PROC_SLOTS: process index + 1, 0 free */
	uint32_t *file_slot;                 /* cap_file_slots: file index + 1, 0 free */
	size_t cap_file_slots;
	uint32_t devs[MAX_DEVS];
	size_t nr_devs;
	int err;                             /* first failure inside a hook */
};

static int level_w(int l) { return SS_HTML_BASE_W << l; }
static int level_h(int l) { return SS_HTML_BASE_H << l; }

void ss_html_col_free(struct ss_html_col *c)
{
	struct ss_html_priv *p;

	if (!c)
		return;
	if ((p = c->priv)) {
		for (int k = 0; k < SS_HTML_MAX_SLOTS; k++)
			for (int l = 0; l < SS_HTML_LEVELS; l++) {
				free(p->mask[k][l]);
				free(p->cnt[k][l]);
			}
		free(p->open);
		ss_evfilter_free(p->filter);
		ss_disk_replay_free(p->disk);
		ss_owner_free(p->own);
		ss_group_slots_free(p->gs);
		free(p->proc_slot);
		free(p->file_slot);
		for (int d = 0; d < D_MAX; d++)
			ss_hbuf_free(&p->col[d]);
		ss_hbuf_free(&p->raw);
		ss_hbuf_free(&p->marks_ts);
		ss_hbuf_free(&p->marks_kind);
		ss_hbuf_free(&p->marks_dev);
		ss_io_classes_fini(&p->ic);
		ss_zone_index_free(p->zi);
		free(p);
	}
	ss_stats_free(c->stats);
	ss_hbuf_free(&c->data);
	free(c->chunks);
	free(c->procs);
	free(c->files);
	free(c);
}


static uint8_t dev_index(struct ss_html_priv *p, uint32_t dev)
{
	for (size_t i = 0; i < p->nr_devs; i++)
		if (p->devs[i] == dev)
			return (uint8_t)i;
	if (p->nr_devs == MAX_DEVS)
		return MAX_DEVS - 1;      /* a 255th device and beyond share the last slot */
	p->devs[p->nr_devs] = dev;
	return (uint8_t)p->nr_devs++;
}

static void put_u32(struct ss_hbuf *b, uint32_t v)
{
	unsigned char t[4] = { (unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
			       (unsigned char)(v >> 24) };

	ss_hbuf_put(b, t, 4);
}

/* Deflate P[0..N) onto the column's data as a new section. */
static int add_section(struct ss_html_col *c, const unsigned char *p, size_t n,
		       struct ss_html_section *s)
{
	s->off = c->data.len;
	if (ss_hbuf_deflate(&c->data, p, n))
		return -ENOMEM;
	s->len = c->data.len - s->off;
	return 0;
}

/* Encode and deflate the first N open requests as the next chunk, then drop them. */
static int finish_chunk(struct ss_html_col *c, size_t n)
{
	struct ss_html_priv *p = c->priv;
	struct ss_html_chunk *ch;
	uint64_t prev_ts = 0, prev_end = 0;

	if (!n)
		return 0;
	ch = realloc(c->chunks, (c->nr_chunks + 1) * sizeof(*ch));
	if (!ch)
		return -ENOMEM;
	c->chunks = ch;
	ch = &c->chunks[c->nr_chunks];
	memset(ch, 0, sizeof(*ch));
	for (int d = 0; d < D_MAX; d++)
		p->col[d].len = 0;
	for (size_t i = 0; i < n; i++) {
		const struct rec *r = &p->open[i];

		ss_hbuf_varint(&p->col[D_TS], r->ts - prev_ts);
		/* from where the previous request ended: small for sequential I/O */
		ss_hbuf_svarint(&p->col[D_SECTOR], (int64_t)(r->sector - prev_end));
		ss_hbuf_varint(&p->col[D_NR], r->nr);
		ss_hbuf_varint(&p->col[D_FLAGS], r->flags);
		ss_hbuf_varint(&p->col[D_CLASS], r->cls);
		ss_hbuf_varint(&p->col[D_LAT], r->lat1);
		ss_hbuf_varint(&p->col[D_DEV], r->dev);
		ss_hbuf_varint(&p->col[D_ZONE], (uint64_t)(r->zone + 1));
		ss_hbuf_varint(&p->col[D_PROC], r->proc);
		ss_hbuf_varint(&p->col[D_FILE], r->file);
		ss_hbuf_varint(&p->col[D_GROUP], r->group);
		prev_ts = r->ts;
		prev_end = r->sector + r->nr;
		c->late += r->lat1 == 0;
	}
	p->raw.len = 0;
	put_u32(&p->raw, (uint32_t)n);
	for (int d = 0; d < D_MAX; d++)
		put_u32(&p->raw, (uint32_t)p->col[d].len);
	for (int d = 0; d < D_MAX; d++)
		ss_hbuf_put(&p->raw, p->col[d].p, p->col[d].len);
	if (ss_hbuf_failed(&p->raw))
		return -ENOMEM;
	for (int d = 0; d < D_MAX; d++)
		if (ss_hbuf_failed(&p->col[d]))
			return -ENOMEM;
	if (add_section(c, p->raw.p, p->raw.len, &ch->sec))
		return -ENOMEM;
	ch->t_first = p->open[0].ts;
	ch->t_last = p->open[n - 1].ts;
	ch->n = (uint32_t)n;
	c->nr_chunks++;
	p->nr_open -= n;
	memmove(p->open, p->open + n, p->nr_open * sizeof(*p->open));
	return 0;
}

static uint32_t hash_proc(uint32_t pid, const char *name)
{
	uint32_t h = pid * 2654435761u;

	while (*name)
		h = (h ^ (unsigned char)*name++) * 16777619u;
	return h;
}

/* The index of the process WHO names (pid and the name it had then) in the column's list,
 * added if new; past SS_HTML_MAX_PROCS, the last entry ("other processes").  -ENOMEM. */
static int64_t proc_index(struct ss_html_col *c, const struct ss_req_owner *who)
{
	struct ss_html_priv *p = c->priv;
	struct ss_html_proc *pr;
	char name[sizeof(pr->name)];
	bool named = ss_trace_task_name(c->t, who->pid, who->ts, name, sizeof(name));
	uint32_t i;

	for (i = hash_proc(who->pid, name) & (PROC_SLOTS - 1); p->proc_slot[i];
	     i = (i + 1) & (PROC_SLOTS - 1)) {
		pr = &c->procs[p->proc_slot[i] - 1];
		if (pr->pid == who->pid && !strcmp(pr->name, name))
			return p->proc_slot[i] - 1;
	}
	if (c->nr_procs == c->cap_procs && c->nr_procs < SS_HTML_MAX_PROCS) {
		size_t cap = c->cap_procs ? 2 * c->cap_procs : 64;

		if (!(pr = realloc(c->procs, cap * sizeof(*pr))))
			return -ENOMEM;
		c->procs = pr;
		c->cap_procs = cap;
	}
	if (c->nr_procs >= SS_HTML_MAX_PROCS - 1) {
		/* the last entry stands for every process past the list */
		c->procs_merged++;
		if (c->nr_procs == SS_HTML_MAX_PROCS - 1) {
			pr = &c->procs[c->nr_procs++];
			*pr = (struct ss_html_proc){ .pid = 0, .unknown = true };
			snprintf(pr->name, sizeof(pr->name), "other processes");
		}
		return SS_HTML_MAX_PROCS - 1;
	}
	pr = &c->procs[c->nr_procs];
	*pr = (struct ss_html_proc){ .pid = who->pid, .unknown = !named };
	memcpy(pr->name, name, sizeof(name));
	p->proc_slot[i] = (uint32_t)++c->nr_procs;
	return c->nr_procs - 1;
}

/* The index of map entry E in the column's files, added if new; -ENOMEM. */
static int64_t file_index(struct ss_html_col *c, long e)
{
	struct ss_html_priv *p = c->priv;
	size_t i, mask;

	if (2 * (c->nr_files + 1) > p->cap_file_slots) {
		size_t cap = p->cap_file_slots ? 2 * p->cap_file_slots : 1024;
		uint32_t *slot = calloc(cap, sizeof(*slot));
		long *files = realloc(c->files, cap / 2 * sizeof(*files));

		if (files)
			c->files = files;
		if (!slot || !files) {
			free(slot);
			return -ENOMEM;
		}
		for (size_t k = 0; k < c->nr_files; k++) {
			for (i = (size_t)c->files[k] * 2654435761u & (cap - 1); slot[i];
			     i = (i + 1) & (cap - 1))
				;
			slot[i] = (uint32_t)k + 1;
		}
		free(p->file_slot);
		p->file_slot = slot;
		p->cap_file_slots = cap;
	}
	mask = p->cap_file_slots - 1;
	for (i = (size_t)e * 2654435761u & mask; p->file_slot[i]; i = (i + 1) & mask)
		if (c->files[p->file_slot[i] - 1] == e)
			return p->file_slot[i] - 1;
	c->files[c->nr_files] = e;
	p->file_slot[i] = (uint32_t)++c->nr_files;
	return (int64_t)c->nr_files - 1;
}

/* The detail's file column for EV: what the file map holds at its sectors. */
static int64_t file_of(struct ss_html_col *c, const struct ss_event *ev)
{
	struct ss_fm_hit hit;
	enum ss_fm_kind fk = ss_filemap_lookup(c->priv->ic.fm, ev->dev, ev->sector, ev->nr_sector,
					       &hit);
	int64_t k;

	if (fk == SS_FM_NONE || hit.entry < 0)
		return 0;
	if ((k = file_index(c, hit.entry)) < 0)
		return k;
	return (k + 1) * 4 + fk;
}

static void add_cells(struct ss_html_col *c, int k, uint64_t rel_ts, uint64_t a, uint64_t b,
		      uint8_t cls)
{
	struct ss_html_priv *p = c->priv;
	const double span_t = (double)(c->o.x_hi - c->o.x_lo);
	const double span_s = (double)(p->slot_hi[k] - p->slot_lo[k]);

	for (int l = 0; l < SS_HTML_LEVELS; l++) {
		const int w = level_w(l), h = level_h(l);
		long gx = (long)((double)(rel_ts - c->o.x_lo) / span_t * w);
		long r0 = (long)((double)(a - p->slot_lo[k]) / span_s * h);
		long r1 = (long)((double)(b - 1 - p->slot_lo[k]) / span_s * h);

		if (gx >= w)
			gx = w - 1;
		if (r1 >= h)
			r1 = h - 1;
		if (r0 > r1)
			r0 = r1;
		for (long r = r0; r <= r1; r++) {
			size_t i = (size_t)r * (size_t)w + (size_t)gx;

			p->mask[k][l][i] |= (uint8_t)(1u << cls);
			if (p->cnt[k][l][i] != UINT16_MAX)
				p->cnt[k][l][i]++;
		}
	}
}

/* The io panel (slot) of device DEV, or -1 when none shows it. */
static int slot_of(const struct ss_html_col *c, uint32_t dev)
{
	const struct ss_html_priv *p = c->priv;

	if (p->any_dev)
		return 0;
	for (int k = 0; k < c->nr_slots; k++)
		if (p->slot_dev[k] == dev)
			return k;
	return -1;
}

static void on_issue(struct ss_html_col *c, const struct ss_event *ev,
		     const struct ss_req_owner *who)
{
	struct ss_html_priv *p = c->priv;
	const uint64_t lo = c->o.t0 + c->o.x_lo, hi = c->o.t0 + c->o.x_hi;
	uint64_t a, b, rel;
	int64_t proc, file;
	struct rec *r;
	int k;

	/* only the devices with an io panel (--device: that one) */
	if (ev->type != SS_EV_ISSUE || ev->ts_ns < lo || ev->ts_ns > hi ||
	    (k = slot_of(c, ev->dev)) < 0)
		return;
	rel = ev->ts_ns - c->o.t0;
	if (ev->flags & (SS_RW_FLUSH | SS_RW_PREFLUSH | SS_RW_FUA)) {
		if (c->nr_marks < SS_HTML_MAX_MARKS) {
			ss_hbuf_f64(&p->marks_ts, (double)rel);
			uint8_t kind = (ev->flags & (SS_RW_FLUSH | SS_RW_PREFLUSH) ? 1 : 0) |
				       (ev->flags & SS_RW_FUA ? 2 : 0);

			ss_hbuf_u8(&p->marks_kind, kind);
			ss_hbuf_u8(&p->marks_dev, dev_index(p, ev->dev));
			c->nr_marks++;
		} else {
			c->marks_dropped++;
		}
	}
	/* flushes issue at sector 0 with no length: never a request at sector 0; discards and
	 * write-zeroes are drawn where they are, as in the static io panel */
	if (!ss_event_has_data(ev))
		return;
	a = ev->sector;
	b = ev->sector + ev->nr_sector;
	if (b <= p->slot_lo[k] || a >= p->slot_hi[k])
		return;
	if (p->nr_open == 3 * (size_t)SS_HTML_CHUNK && !p->err)
		p->err = finish_chunk(c, SS_HTML_CHUNK);
	if (p->err)
		return;
	if ((proc = proc_index(c, who)) < 0 || (file = file_of(c, ev)) < 0) {
		p->err = proc < 0 ? (int)proc : (int)file;
		return;
	}
	r = &p->open[p->nr_open++];
	*r = (struct rec){
		.ts = rel, .sector = ev->sector, .nr = ev->nr_sector, .flags = ev->flags,
		.proc = (uint32_t)proc * 2 + who->submitter, .file = (uint32_t)file,
		.cls = (uint8_t)ss_io_class_of(&p->ic, ev), .dev = dev_index(p, ev->dev),
		.zone = (int32_t)ss_zone_index_find_hint(p->zi, ev->dev, ev->sector, &p->zhint),
	};
	if (p->gs) {
		size_t g = ss_group_slots_get(p->gs, ev, who);

		r->group = (uint8_t)(g < SS_HTML_MAX_GROUP_SLOTS ? g : SS_HTML_MAX_GROUP_SLOTS - 1);
	}
	c->rwbs_seen[ev->flags >> 3] |= (uint8_t)(1u << (ev->flags & 7));
	c->requests++;
	c->submitted += who->submitter;
	/* the cells keep the colours the page draws: classes, or groups */
	add_cells(c, k, rel, a > p->slot_lo[k] ? a : p->slot_lo[k],
		  b < p->slot_hi[k] ? b : p->slot_hi[k], p->gs ? r->group : r->cls);
}

/* stats' completion hook: the latency of an open request (pair.h's rule). */
static void on_io(const struct ss_io *io, void *arg)
{
	struct ss_html_col *c = arg;
	struct ss_html_priv *p = c->priv;
	uint64_t ts, lat1;
	size_t lo = 0, hi = p->nr_open;

	if (!io->matched || !io->has_data || io->issue_ts < c->o.t0)
		return;
	ts = io->issue_ts - c->o.t0;
	lat1 = ss_io_latency_ns(io) + 1;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (p->open[mid].ts < ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < p->nr_open && p->open[lo].ts == ts; lo++) {
		struct rec *r = &p->open[lo];

		if (p->devs[r->dev] != io->dev || io->sector < r->sector ||
		    io->sector >= r->sector + r->nr)
			continue;
		/* a partial completion: the request took until its last part */
		if (lat1 > r->lat1)
			r->lat1 = lat1;
		return;
	}
}

struct ss_html_col *ss_html_col_new(const struct ss_trace *t, const struct ss_html_col_opts *o,
				    char *err, size_t errlen)
{
	struct ss_html_col *c;
	struct ss_html_priv *p;
	struct ss_stats_opts so;

	if (o->x_hi <= o->x_lo || o->nr_slots < 0 || o->nr_slots > SS_HTML_MAX_SLOTS ||
	    (!o->nr_slots && o->y_hi <= o->y_lo)) {
		ss_errf(err, errlen, "nothing to show: the %s range is empty",
			o->x_hi <= o->x_lo ? "time" : "offset");
		errno = EINVAL;
		return NULL;
	}
	for (int k = 0; k < o->nr_slots; k++)
		if (o->slot_hi[k] <= o->slot_lo[k]) {
			ss_errf(err, errlen, "nothing to show: the offset range of device %d is empty",
				k + 1);
			errno = EINVAL;
			return NULL;
		}
	if (!(c = calloc(1, sizeof(*c))) || !(c->priv = p = calloc(1, sizeof(*p))))
		goto fail;
	c->t = t;
	c->o = *o;
	c->nr_slots = o->nr_slots ? o->nr_slots : 1;
	p->any_dev = !o->nr_slots;
	p->slot_lo[0] = o->y_lo;
	p->slot_hi[0] = o->y_hi;
	for (int k = 0; k < o->nr_slots; k++) {
		p->slot_dev[k] = o->slot_dev[k];
		p->slot_lo[k] = o->slot_lo[k];
		p->slot_hi[k] = o->slot_hi[k];
	}
	for (int k = 0; k < c->nr_slots; k++)
		for (int l = 0; l < SS_HTML_LEVELS; l++) {
			size_t cells = (size_t)level_w(l) * (size_t)level_h(l);

			if (!(p->mask[k][l] = calloc(cells, 1)) || !(p->cnt[k][l] = calloc(cells, 2)))
				goto fail;
		}
	if (!(p->open = malloc(3 * (size_t)SS_HTML_CHUNK * sizeof(*p->open))) ||
	    !(p->own = ss_owner_new()) || !(p->proc_slot = calloc(PROC_SLOTS, sizeof(uint32_t))) ||
	    (o->groups && !(p->gs = ss_group_slots_new(o->groups, t))) ||
	    ss_io_classes_init(&p->ic, t) || !(p->zi = ss_zone_index_new(t->zones, t->nr_zones)))
		goto fail;
	if (o->only && ss_task_spec_active(o->only) && !(p->filter = ss_evfilter_new(o->only, t)))
		goto fail;
	if (o->disk && !(p->disk = ss_disk_replay_new(o->disk, t, err, errlen)))
		goto fail_msg;
	ss_stats_opts_init(&so);
	so.seek_threshold = o->seek_threshold;
	so.bins = true;
	so.bin_start_ns = o->t0 + o->x_lo;
	so.bin_end_ns = o->t0 + o->x_hi;
	so.bin_width_ns = o->bin_width_ns;
	/* the table and the seek distances cover the window, as in the static plot */
	so.window = true;
	so.window_start_ns = o->t0 + o->x_lo;
	so.window_end_ns = o->t0 + o->x_hi;
	so.on_io = on_io;
	so.arg = c;
	so.only = o->only;
	so.disk = p->disk;
	so.one_device = o->one_device && o->nr_slots > 0;
	so.device = o->slot_dev[0];
	if (!(c->stats = ss_stats_new(t, &so)))
		goto fail;
	return c;
fail:
	ss_errf(err, errlen, "%s", strerror(errno ? errno : ENOMEM));
fail_msg: {
	int e = errno ? errno : ENOMEM;

	ss_html_col_free(c);
	errno = e;
	return NULL;
	}
}

/* The fine bins, field by field (the order of SS_HTML_BIN_FIELDS in docs/html-viewer.md). */
static void put_bins(struct ss_hbuf *raw, const struct ss_bins *b)
{
	const size_t field = b->n * 8;
	unsigned char *o = ss_hbuf_extend(raw, b->n <= SIZE_MAX / 8 / SS_HTML_BIN_FIELDS ?
					  field * SS_HTML_BIN_FIELDS : SIZE_MAX);

	if (!o)
		return;   /* ss_hbuf_failed() tells */
	for (size_t i = 0; i < b->n; i++) {
		const struct ss_bin *x = &b->bin[i];
		const double v[SS_HTML_BIN_FIELDS] = {
			(double)x->reads, (double)x->writes, (double)x->discards,
			(double)x->read_bytes, (double)x->write_bytes, (double)x->discard_bytes,
			(double)x->flushes, (double)x->fua, (double)x->issues, (double)x->seeks,
			(double)x->lat_count, (double)x->lat_sum_ns, (double)x->lat_max_ns,
			x->depth_ns, x->model.seek_s, x->model.rotation_s, x->model.transfer_s,
			x->model.overhead_s,
		};

		for (int f = 0; f < SS_HTML_BIN_FIELDS; f++)
			ss_le_f64(o + (size_t)f * field + i * 8, v[f]);
	}
}

/* The sections made at the end: bins, cells per level, marks. */
static int finish_sections(struct ss_html_col *c)
{
	struct ss_html_priv *p = c->priv;
	const struct ss_bins *b = ss_stats_bins(c->stats);

	p->raw.len = 0;
	put_bins(&p->raw, b);
	if (ss_hbuf_failed(&p->raw) || add_section(c, p->raw.p, p->raw.len, &c->bins))
		return -ENOMEM;
	for (int k = 0; k < c->nr_slots; k++)
		for (int l = 0; l < SS_HTML_LEVELS; l++) {
			size_t cells = (size_t)level_w(l) * (size_t)level_h(l);

			p->raw.len = 0;
			ss_hbuf_put(&p->raw, p->mask[k][l], cells);
			ss_hbuf_u16s(&p->raw, p->cnt[k][l], cells);
			if (ss_hbuf_failed(&p->raw) ||
			    add_section(c, p->raw.p, p->raw.len, &c->cells[k][l]))
				return -ENOMEM;
		}
	p->raw.len = 0;
	ss_hbuf_put(&p->raw, p->marks_ts.p, p->marks_ts.len);
	ss_hbuf_put(&p->raw, p->marks_kind.p, p->marks_kind.len);
	ss_hbuf_put(&p->raw, p->marks_dev.p, p->marks_dev.len);
	if (ss_hbuf_failed(&p->marks_ts) || ss_hbuf_failed(&p->marks_kind) ||
	    ss_hbuf_failed(&p->marks_dev) ||
	    ss_hbuf_failed(&p->raw) || add_section(c, p->raw.p, p->raw.len, &c->marks))
		return -ENOMEM;
	return 0;
}

int ss_html_col_run(struct ss_html_col *c, struct ss_trace *t, char *err, size_t errlen)
{
	struct ss_html_priv *p = c->priv;
	const struct ss_event *ev;
	size_t n;
	int ret;

	ss_trace_rewind(t);
	while ((ret = ss_trace_next_batch(t, &ev, &n)) > 0) {
		/* one event at a time: a request is open before its completion is reported */
		for (size_t k = 0; k < n && !p->err; k++) {
			/* the statistics filter on their own (the others still move the head) */
			int keep = p->filter ? ss_evfilter_keep(p->filter, &ev[k]) : 1;

			if (keep < 0) {
				p->err = keep;
				break;
			}
			struct ss_req_owner who;
			int own = ss_owner_feed(p->own, &ev[k], &who);

			if (own < 0) {
				p->err = own;
				break;
			}
			if (keep && own)
				on_issue(c, &ev[k], &who);
			if ((ret = ss_stats_feed(c->stats, &ev[k], 1)))
				p->err = ret;
		}
		if (p->err)
			break;
	}
	if (ret < 0) {
		ss_errf(err, errlen, "%s: %s", t->path, ss_trace_error(t));
		return ret;
	}
	if (!p->err)
		p->err = ss_stats_finish(c->stats);
	while (!p->err && p->nr_open)
		p->err = finish_chunk(c, p->nr_open < SS_HTML_CHUNK ? p->nr_open : SS_HTML_CHUNK);
	if (!p->err)
		p->err = finish_sections(c);
	if (p->err || ss_hbuf_failed(&c->data)) {
		ret = p->err ? p->err : -ENOMEM;
		ss_errf(err, errlen, "%s: %s", t->path, strerror(-ret));
		return ret;
	}
	return 0;
}

size_t ss_html_col_file_path(const struct ss_html_col *c, size_t k, char *buf, size_t len)
{
	return ss_filemap_path(c->priv->ic.fm, c->files[k], buf, len);
}

size_t ss_html_col_nr_devs(const struct ss_html_col *c)
{
	return c->priv->nr_devs;
}

uint32_t ss_html_col_dev(const struct ss_html_col *c, size_t i)
{
	return c->priv->devs[i];
}
