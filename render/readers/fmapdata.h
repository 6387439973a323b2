// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The file maps of a trace as loaded (format.h: FILEMAP, FILES, EXTENTS), in host order, with
 * every map's files numbered together: file i of map m is entry maps[m].first_file + i, and
 * parents and extents name entries by that number.  The reader fills it; the analysis indexes
 * it (render/analysis/filemap.h).  Memory: the entries, their names and extents, bounded by
 * SS_FMAP_MAX_* for damaged input.  Nothing here prints.
 */
#ifndef SS_FMAPDATA_H
#define SS_FMAPDATA_H

#include <stddef.h>
#include <stdint.h>
#include "seekscope/format.h"

#define SS_FMAP_MAX_FILES   (1u << 26)
#define SS_FMAP_MAX_EXTENTS (1u << 27)
#define SS_FMAP_MAX_MAPS    1024u

struct ss_fmap_map {
	struct ss_rec_filemap rec;
	uint32_t first_file;        /* its entry 0 */
	uint32_t nr_files;
};

struct ss_fmap_file {
	uint64_t ino;
	uint64_t inode_sector;      /* absolute, or SS_SECTOR_NONE */
	uint32_t parent;            /* entry number, SS_FILE_NO_PARENT for a map's DIR */
	uint32_t map;               /* index in maps */
	uint32_t name;              /* offset of its NUL-terminated name in names */
	uint16_t kind;              /* enum ss_file_kind */
	uint16_t depth;             /* 0 for DIR (capped at UINT16_MAX) */
};

struct ss_fmap_data {
	struct ss_fmap_map *maps;
	size_t nr_maps;
	struct ss_fmap_file *files;
	size_t nr_files;
	struct ss_rec_extent *extents;  /* .file is an entry number; .reserved the map */
	size_t nr_extents;
	char *names;
	size_t names_len;
	size_t cap_maps, cap_files, cap_extents, cap_names;
};

void ss_fmap_data_free(struct ss_fmap_data *d);     /* the contents; accepts zeroed */
/* Payloads of the three records (file order, host or file byte order as received):
 * 0, -ENOMEM, -E2BIG (too many) or -EINVAL (inconsistent with what came before).  A
 * record is taken whole or not at all. */
int ss_fmap_data_add_map(struct ss_fmap_data *d, const void *buf, size_t len);
int ss_fmap_data_add_files(struct ss_fmap_data *d, const void *buf, size_t len);
int ss_fmap_data_add_extents(struct ss_fmap_data *d, const void *buf, size_t len);
/* Path of entry I relative to its map's DIR ("" for DIR) into BUF; returns its length,
 * and leaves BUF "" when it does not fit. */
size_t ss_fmap_data_path(const struct ss_fmap_data *d, uint32_t i, char *buf, size_t len);

#endif
