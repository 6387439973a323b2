// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Byte-order conversion of the on-disk structures in format.h.  The file is little-endian; each
 * ss_swab_* function converts a structure in place between file order and host order (the same
 * operation both ways).  On little-endian hosts they compile to nothing.
 */
#ifndef SEEKSCOPE_CODEC_H
#define SEEKSCOPE_CODEC_H

#include <endian.h>
#include "seekscope/format.h"

#define SS_LE16(x) ((x) = (__typeof__(x))htole16((uint16_t)(x)))
#define SS_LE32(x) ((x) = (__typeof__(x))htole32((uint32_t)(x)))
#define SS_LE64(x) ((x) = (__typeof__(x))htole64((uint64_t)(x)))

static inline void ss_swab_file_header(struct ss_file_header *h)
{
	SS_LE32(h->version); SS_LE32(h->endian); SS_LE32(h->header_size);
	SS_LE32(h->record_header_size); SS_LE64(h->created_unix_ns);
}

static inline void ss_swab_record_header(struct ss_record_header *r)
{
	SS_LE32(r->type); SS_LE32(r->length); SS_LE32(r->crc32); SS_LE32(r->reserved);
}

static inline void ss_swab_device(struct ss_rec_device *d)
{
	SS_LE32(d->dev); SS_LE32(d->major); SS_LE32(d->minor); SS_LE32(d->logical_block_size);
	SS_LE32(d->physical_block_size); SS_LE32(d->flags); SS_LE64(d->nr_sectors);
	SS_LE64(d->part_start); SS_LE64(d->part_nr_sectors);
}

static inline void ss_swab_zone(struct ss_rec_zone *z)
{
	SS_LE32(z->dev); SS_LE32(z->kind); SS_LE32(z->index); SS_LE64(z->start_sector);
	SS_LE64(z->nr_sectors);
}

static inline void ss_swab_phase(struct ss_rec_phase *p)
{
	SS_LE64(p->ts_ns); SS_LE32(p->kind);
}

static inline void ss_swab_cpu_stats(struct ss_rec_cpu_stats *s)
{
	SS_LE32(s->cpu); SS_LE64(s->events); SS_LE64(s->missed); SS_LE64(s->overrun);
	SS_LE64(s->commit_overrun); SS_LE64(s->dropped); SS_LE64(s->read_bytes);
}

static inline void ss_swab_lost(struct ss_rec_lost *l)
{
	SS_LE64(l->from_ns); SS_LE64(l->to_ns); SS_LE64(l->count); SS_LE32(l->cpu);
}

static inline void ss_swab_capture(struct ss_rec_capture *c)
{
	SS_LE64(c->start_ns); SS_LE64(c->end_ns); SS_LE64(c->buffer_kb); SS_LE32(c->nr_cpus);
	SS_LE32(c->exit_status);
}

static inline void ss_swab_end(struct ss_rec_end *e)
{
	SS_LE64(e->nr_events); SS_LE64(e->nr_records);
}

static inline void ss_swab_event(struct ss_event *e)
{
	SS_LE64(e->ts_ns); SS_LE64(e->sector); SS_LE32(e->nr_sector); SS_LE32(e->bytes);
	SS_LE32(e->dev); SS_LE32(e->error); SS_LE16(e->type); SS_LE16(e->flags); SS_LE16(e->cpu);
	SS_LE32(e->pid);
}

static inline void ss_swab_task(struct ss_rec_task *t)
{
	SS_LE64(t->ts_ns); SS_LE32(t->pid); SS_LE32(t->reserved);
}

static inline void ss_swab_filemap(struct ss_rec_filemap *m)
{
	SS_LE64(m->ts_ns); SS_LE32(m->id); SS_LE32(m->dev); SS_LE32(m->flags);
	SS_LE32(m->inode_size); SS_LE32(m->chunk_inodes); SS_LE32(m->reserved);
}

static inline void ss_swab_files_head(struct ss_rec_files_head *h)
{
	SS_LE32(h->map); SS_LE32(h->first);
}

static inline void ss_swab_file(struct ss_rec_file *f)
{
	SS_LE64(f->ino); SS_LE64(f->inode_sector); SS_LE32(f->parent); SS_LE16(f->kind);
	SS_LE16(f->name_len);
}

static inline void ss_swab_extent(struct ss_rec_extent *e)
{
	SS_LE64(e->logical); SS_LE64(e->sector); SS_LE32(e->nr_sectors); SS_LE32(e->file);
	SS_LE32(e->flags); SS_LE32(e->reserved);
}

static inline int ss_host_is_le(void)
{
	return __BYTE_ORDER == __LITTLE_ENDIAN;
}

#endif /* SEEKSCOPE_CODEC_H */
