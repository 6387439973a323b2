// SPDX-License-Identifier: GPL-2.0-or-later
/* Block event decoding by field name (see decode.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "decode.h"
#include "seekscope/model.h"

#define MAX_TYPES 8

const struct ss_block_event ss_block_events[] = {
	{ "block_rq_issue", SS_EV_ISSUE, 0 },
	{ "block_rq_complete", SS_EV_COMPLETE, 0 },
	{ "block_rq_requeue", SS_EV_REQUEUE, 0 },
	{ "block_rq_insert", SS_EV_INSERT, SS_BLOCK_OPT_INSERT },
	{ "block_bio_queue", SS_EV_QUEUE, SS_BLOCK_OPT_QUEUE },
};
const size_t ss_nr_block_events = sizeof(ss_block_events) / sizeof(ss_block_events[0]);
_Static_assert(sizeof(ss_block_events) / sizeof(ss_block_events[0]) <= MAX_TYPES,
	       "a decoder holds every block event");

/* A field's place in a record, copied out of its tep_format_field once, where every event's
 * decoding reads it (an absent field's is { 0, 0 }; num() reads 1, 2, 4 or 8 bytes, 0 for any
 * other size). */
struct place {
	uint32_t offset, size;
};

struct type_fields {
	int id;
	uint16_t type;
	bool rwbs_dynamic;      /* rwbs is a __data_loc string (else a char array) */
	size_t end;             /* where the last fixed field read ends: a record is this long */
	struct place dev, sector, nr_sector, bytes, error, rwbs, pid, comm;
	/* the fields themselves, for a trace not in the host's byte order */
	struct tep_format_field *f_dev, *f_sector, *f_nr_sector, *f_bytes, *f_error, *f_rwbs,
				*f_pid;
};

struct ss_decoder {
	struct tep_handle *tep;
	struct type_fields types[MAX_TYPES];
	int nr_types;
	bool native;            /* the trace's byte order is the host's */
};

struct ss_decoder *ss_decoder_new(struct tep_handle *tep)
{
	struct ss_decoder *d = calloc(1, sizeof(*d));

	if (d)
		d->tep = tep;
	return d;
}

void ss_decoder_free(struct ss_decoder *d)
{
	free(d);
}

int ss_decoder_add(struct ss_decoder *d, const char *name, uint16_t type)
{
	struct tep_event *ev = tep_find_event_by_name(d->tep, "block", name);
	struct tep_format_field *comm;
	struct type_fields *t;

	if (!ev)
		return -ENOENT;
	if (d->nr_types == MAX_TYPES)
		return -ENOSPC;
	t = &d->types[d->nr_types];
	memset(t, 0, sizeof(*t));
	t->id = ev->id;
	t->type = type;
	t->f_dev = tep_find_field(ev, "dev");
	t->f_sector = tep_find_field(ev, "sector");
	t->f_nr_sector = tep_find_field(ev, "nr_sector");
	t->f_bytes = tep_find_field(ev, "bytes");
	t->f_error = tep_find_field(ev, "error");
	if (!t->f_error)
		t->f_error = tep_find_field(ev, "errors");
	t->f_rwbs = tep_find_field(ev, "rwbs");
	t->f_pid = tep_find_common_field(ev, "common_pid");
	comm = tep_find_field(ev, "comm");
	if (comm && (comm->flags & TEP_FIELD_IS_DYNAMIC))
		comm = NULL;            /* a fixed char array on every kernel that has it */
	if (!t->f_dev || !t->f_sector || !t->f_nr_sector || !t->f_rwbs)
		return -EPROTO;
	{
		/* a .dat's formats are the file's word: a field past its records is caught
		 * per record (a negative offset or size, by every record) */
		const struct tep_format_field *f[] = { t->f_dev, t->f_sector, t->f_nr_sector,
						       t->f_bytes, t->f_error, t->f_rwbs, t->f_pid,
						       comm };
		struct place *pl[] = { &t->dev, &t->sector, &t->nr_sector, &t->bytes, &t->error,
				       &t->rwbs, &t->pid, &t->comm };

		t->end = 2;     /* common_type */
		for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
			if (!f[i])
				continue;
			if (f[i]->offset < 0 || f[i]->size < 0) {
				t->end = SIZE_MAX;
				break;
			}
			*pl[i] = (struct place){ (uint32_t)f[i]->offset, (uint32_t)f[i]->size };
			if ((size_t)f[i]->offset + (size_t)f[i]->size > t->end)
				t->end = (size_t)f[i]->offset + (size_t)f[i]->size;
		}
	}
	t->rwbs_dynamic = t->f_rwbs->flags & TEP_FIELD_IS_DYNAMIC;
	d->nr_types++;
	d->native = tep_is_file_bigendian(d->tep) == tep_is_local_bigendian(d->tep);
	return 0;
}

/*
 * The field at P of DATA as tep_read_number_field() reads it (0 if absent or not 1, 2, 4 or 8
 * bytes), when the trace's byte order is the host's: this runs for every field of every event.
 */
static inline unsigned long long num(struct place pl, const unsigned char *data)
{
	const unsigned char *p = data + pl.offset;

	switch (pl.size) {
	case 1:
		return *p;
	case 2: {
		uint16_t x;

		memcpy(&x, p, sizeof(x));
		return x;
	}
	case 4: {
		uint32_t x;

		memcpy(&x, p, sizeof(x));
		return x;
	}
	case 8: {
		uint64_t x;

		memcpy(&x, p, sizeof(x));
		return x;
	}
	}
	return 0;
}

/* The field at PL of DATA, or F (NULL: absent, 0) through libtraceevent when the trace's byte
 * order is not the host's (not NATIVE). */
static inline unsigned long long field(struct place pl, const struct tep_format_field *f,
				       const unsigned char *data, bool native)
{
	unsigned long long v = 0;

	if (native)
		return num(pl, data);
	if (f)
		tep_read_number_field((struct tep_format_field *)f, data, &v);
	return v;
}

/*
 * The name in the SIZE bytes at SRC (NULL: none) into COMM: at most SS_COMM_LEN - 1 bytes, up
 * to the first NUL, padded with NULs.  A kernel's field is SS_COMM_LEN bytes (TASK_COMM_LEN),
 * done in two words: written so, the name reads back at once (a reader comparing it as two
 * words right after, import_tracecmd_names.c, stalled on the bytes stored one by one).
 */
static void copy_comm(char *comm, const unsigned char *src, size_t size)
{
	_Static_assert(SS_COMM_LEN == 16, "a name is two 64-bit words");
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (size >= SS_COMM_LEN) {
		const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
		uint64_t lo, hi, nul;

		memcpy(&lo, src, 8);
		memcpy(&hi, src + 8, 8);
		hi &= ~(0xffull << 56);         /* room for the terminating NUL */
		/* the lowest byte flagged is a word's first NUL (a borrow flags only bytes above
		 * it); the bytes from it on are cleared */
		if ((nul = (lo - ones) & ~lo & highs)) {
			int bits = __builtin_ctzll(nul) - 7;

			lo &= bits ? ~0ull >> (64 - bits) : 0;
			hi = 0;
		} else if ((nul = (hi - ones) & ~hi & highs)) {
			int bits = __builtin_ctzll(nul) - 7;

			hi &= bits ? ~0ull >> (64 - bits) : 0;
		}
		memcpy(comm, &lo, 8);
		memcpy(comm + 8, &hi, 8);
		return;
	}
#endif
	size_t n = size < SS_COMM_LEN - 1 ? size : SS_COMM_LEN - 1;

	n = src ? strnlen((const char *)src, n) : 0;
	if (n)
		memcpy(comm, src, n);
	memset(comm + n, 0, SS_COMM_LEN - n);
}

int ss_decoder_decode(const struct ss_decoder *d, const void *data, size_t size, uint64_t ts,
		      unsigned cpu, struct ss_event *ev, char *comm)
{
	uint16_t id;
	const struct type_fields *t = NULL;
	const char *rwbs;
	size_t rwbs_len;
	bool native = d->native;

	if (size < sizeof(id))
		return -1;
	memcpy(&id, data, sizeof(id));   /* common_type is the first field of every event */
	if (!native)
		id = (uint16_t)(id >> 8 | id << 8);     /* in the trace's byte order */
	for (int i = 0; i < d->nr_types; i++)
		if (d->types[i].id == id) {
			t = &d->types[i];
			break;
		}
	if (!t)
		return 0;
	if (size < t->end)
		return -1;
	memset(ev, 0, sizeof(*ev));
	ev->ts_ns = ts;
	ev->type = t->type;
	ev->cpu = (uint16_t)cpu;
	ev->dev = (uint32_t)field(t->dev, t->f_dev, data, native);
	ev->sector = field(t->sector, t->f_sector, data, native);
	ev->nr_sector = (uint32_t)field(t->nr_sector, t->f_nr_sector, data, native);
	ev->bytes = t->f_bytes ? (uint32_t)field(t->bytes, t->f_bytes, data, native) :
				 ev->nr_sector * 512u;
	ev->error = (int32_t)field(t->error, t->f_error, data, native);
	ev->pid = (uint32_t)field(t->pid, t->f_pid, data, native);
	if (t->rwbs_dynamic) {
		unsigned long long loc = field(t->rwbs, t->f_rwbs, data, native);

		rwbs = (const char *)data + (loc & 0xffff);
		rwbs_len = (size_t)(loc >> 16 & 0xffff);
		if ((loc & 0xffff) + rwbs_len > size)
			return -1;
	} else {
		rwbs = (const char *)data + t->rwbs.offset;
		rwbs_len = t->rwbs.size;
	}
	ev->flags = ss_rwbs_parse(rwbs, rwbs_len);
	ss_event_flush_sector(ev);
	if (comm)
		copy_comm(comm, t->comm.size ? (const unsigned char *)data + t->comm.offset : NULL,
			  t->comm.size);
	return 1;
}
