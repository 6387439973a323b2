// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The recorder's file map: maps a directory (fsmap.h) and writes the map's records (format.h:
 * FILEMAP, FILES, EXTENTS, and META "filemap.*") in bounded batches, taking the writer's lock
 * for each batch so the drain thread keeps writing events meanwhile.  Nothing here prints.
 */
#ifndef SS_MAPWRITE_H
#define SS_MAPWRITE_H

#include <pthread.h>
#include <stdint.h>
#include "blockdev.h"
#include "fsmap.h"
#include "trace_write.h"

struct ss_mapwrite_req {
	struct ss_writer *w;
	pthread_mutex_t *lock;           /* serialises writer calls */
	uint32_t id;                     /* map number */
	const struct ss_blockdev *bd;    /* the traced device DIR lies on */
	const char *dir;
	uint32_t flags;                  /* SS_FMAP_AT_END, ... */
	uint64_t ts_ns;                  /* trace clock at the start */
};

/* 0 or -errno with a reason in err; ST has the walk's figures either way. */
int ss_mapwrite(const struct ss_mapwrite_req *q, struct ss_fsmap_stats *st, char *err,
		size_t errlen);

#endif
