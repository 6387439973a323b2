// SPDX-License-Identifier: GPL-2.0-or-later
/* The fio iolog (version 3) of a trace's issued requests; what and why in iolog.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "errbuf.h"
#include "iolog.h"
#include "seekscope/model.h"
#include "stats.h"

#define IOLOG_NAME_MAX 64

/* /dev/NAME when NAME is a plain device name fio's parser reads back (one word, no path),
 * else /dev/block/MAJ:MIN, which udev provides for every block device. */
static void file_name(const struct ss_rec_device *d, char *buf, size_t len)
{
	size_t n = strnlen(d->name, sizeof(d->name));
	bool plain = n > 0 && strcmp(d->name, ".") && strcmp(d->name, "..");

	for (size_t i = 0; plain && i < n; i++) {
		char c = d->name[i];

		plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			c == '-' || c == '_' || c == '.' || c == ':' || c == '+';
	}
	if (plain)
		snprintf(buf, len, "/dev/%.*s", (int)n, d->name);
	else
		snprintf(buf, len, "/dev/block/%u:%u", d->major, d->minor);
}

struct iolog {
	FILE *f;
	struct ss_trace *t;
	char (*names)[IOLOG_NAME_MAX];     /* per device of the trace */
	char other[IOLOG_NAME_MAX];        /* an event of a device outside the table */
	uint64_t t0;
	struct ss_iolog_counts c;
};

static const char *name_of(struct iolog *l, uint32_t dev)
{
	for (size_t i = 0; i < l->t->nr_devices; i++)
		if (l->t->devices[i].dev == dev)
			return l->names[i];
	return NULL;
}

static void line(struct iolog *l, uint64_t us, const char *name, const char *act,
		 const struct ss_event *ev, uint64_t *count, uint64_t *bytes)
{
	uint64_t len = (uint64_t)ev->nr_sector * 512;

	fprintf(l->f, "%" PRIu64 " %s %s %" PRIu64 " %" PRIu64 "\n", us, name, act,
		ev->nr_sector ? ev->sector * 512 : 0, len);
	(*count)++;
	if (bytes)
		*bytes += len;
}

static void write_event(struct iolog *l, const struct ss_event *ev)
{
	const char *name;
	uint64_t us;

	if (ev->type != SS_EV_ISSUE)
		return;
	if (!(name = name_of(l, ev->dev))) {
		/* imported traces list every device they saw; this is a damaged table */
		snprintf(l->other, sizeof(l->other), "/dev/block/%u:%u", SS_DEV_MAJOR(ev->dev),
			 SS_DEV_MINOR(ev->dev));
		name = l->other;
	}
	us = ev->ts_ns > l->t0 ? (ev->ts_ns - l->t0) / 1000 : 0;
	if (!us)
		us = 1;     /* fio reads a timestamp of 0 as "no previous time" */
	if (!ss_event_has_data(ev)) {
		if (ev->flags & (SS_RW_FLUSH | SS_RW_PREFLUSH))
			line(l, us, name, "sync", ev, &l->c.syncs, NULL);
		else
			l->c.skipped++;
		return;
	}
	if (ev->flags & SS_RW_PREFLUSH)
		line(l, us, name, "sync", ev, &l->c.syncs, NULL);
	if (ev->flags & SS_RW_DISCARD) {
		line(l, us, name, "trim", ev, &l->c.trims, &l->c.trim_bytes);
	} else if (ev->flags & SS_RW_WRITE) {
		line(l, us, name, "write", ev, &l->c.writes, &l->c.write_bytes);
		l->c.fua += (ev->flags & SS_RW_FUA) != 0;
	} else if (ev->flags & SS_RW_READ) {
		line(l, us, name, "read", ev, &l->c.reads, &l->c.read_bytes);
	} else {
		l->c.skipped++;
	}
}

int ss_iolog_write(FILE *f, struct ss_trace *t, struct ss_iolog_counts *c, char *err,
		   size_t errlen)
{
	struct iolog l = { .f = f, .t = t };
	const struct ss_event *ev;
	uint64_t end, last_us = 1;
	size_t n;
	int ret;

	l.names = calloc(t->nr_devices ? t->nr_devices : 1, sizeof(*l.names));
	if (!l.names) {
		ss_errf(err, errlen, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	ss_stats_trace_period(t, &l.t0, &end);
	fprintf(f, "fio version 3 iolog\n");
	for (size_t i = 0; i < t->nr_devices; i++) {
		file_name(&t->devices[i], l.names[i], sizeof(l.names[i]));
		fprintf(f, "0 %s add\n0 %s open\n", l.names[i], l.names[i]);
	}
	ss_trace_rewind(t);
	while ((ret = ss_trace_next_batch(t, &ev, &n)) > 0)
		for (size_t i = 0; i < n; i++)
			write_event(&l, &ev[i]);
	if (ret < 0) {
		ss_errf(err, errlen, "reading the trace: %s", ss_trace_error(t));
		goto out;
	}
	if (end > l.t0 && (end - l.t0) / 1000 > last_us)
		last_us = (end - l.t0) / 1000;
	for (size_t i = 0; i < t->nr_devices; i++)
		fprintf(f, "%" PRIu64 " %s close\n", last_us, l.names[i]);
	errno = 0;
	if (fflush(f) || ferror(f)) {
		ret = errno ? -errno : -EIO;
		ss_errf(err, errlen, "writing the iolog: %s", strerror(-ret));
	}
out:
	free(l.names);
	if (c)
		*c = l.c;
	return ret;
}
