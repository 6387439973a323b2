// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Request classes: what a request touches — file data, a directory, inodes and other
 * metadata, the journal — as opposed to its op (model.h's enum ss_op: what it does, read,
 * write, discard ...).  One rule, ss_class_of(), decides every request's class from its rwbs
 * flags, the filesystem zone its start sector lies in (the trace's zone table: XFS AGs and log,
 * ext4 groups, inode tables and journal) and, when the trace maps files, what the file map says
 * of its start sector.  The report's seek causes (seekcause.h), `dump --json`'s "class" and the
 * io panel's colours follow it.  docs/classes.md explains the classes with the same rule.
 *
 * The rule, first match wins:
 *   1. no sectors: the flush op or the preflush flag -> flush; anything else -> other
 *   2. the discard op -> discard; write-zeroes, secure erase and other ops (N) -> other
 *   3. start sector in a log or journal zone -> journal
 *   4. the file map says directory -> dir; inode chunk -> metadata
 *   5. start sector in an inode-table zone -> metadata
 *   6. the REQ_META flag (rwbs M) -> metadata
 *   7. the file map says regular-file data -> file-data
 *   8. otherwise -> data (a read or write whose file is unknown)
 * The journal zone comes first because the journal's own blocks are written with M on some
 * kernels and what matters is where the head goes; the file map's directory and inode verdicts
 * come before M because XFS writes directory blocks and inode chunks as metadata buffers (M);
 * M comes before the file map's file verdict because the map is taken once, at the end, and a
 * block written as metadata earlier in the capture may hold file data by then.
 *
 * Pure functions, nothing here prints.
 */
#ifndef SS_CLASSES_H
#define SS_CLASSES_H

#include <stdint.h>

#include "seekscope/format.h"
#include "filemap.h"
#include "zone_index.h"

enum ss_class {
	SS_CLASS_FILE_DATA,    /* data of a file the file map names */
	SS_CLASS_DATA,         /* a read or write, file unknown (no file map, or not in it) */
	SS_CLASS_DIR,          /* a directory's blocks (file map) */
	SS_CLASS_META,         /* inodes and other metadata (M, inode tables, inode chunks) */
	SS_CLASS_JOURNAL,      /* the XFS log, the ext4 journal */
	SS_CLASS_FLUSH,        /* cache flushes: no sectors */
	SS_CLASS_DISCARD,      /* discards */
	SS_CLASS_OTHER,        /* write-zeroes, secure erase, other ops; requests without sectors */
	SS_NR_CLASSES
};

struct ss_class_info {
	const char *name;      /* "file-data", "data", "dir", "metadata", "journal", ... */
	const char *help;      /* one line: what is in it */
};
/* Indexed by enum ss_class. */
extern const struct ss_class_info ss_class_table[SS_NR_CLASSES];


/* The class of EV by the rule above.  ZONE is the zone its start sector lies in (the one
 * ss_zone_index_find() names; NULL: none, or the trace has no zones). */
enum ss_class ss_class_of(const struct ss_event *ev, const struct ss_rec_zone *zone,
			  enum ss_fm_kind fv);

/* The same, looking the zone up in ZI over ZONES (ZI may be NULL: no zones) through the
 * caller's HINT (zone_index.h: one per stream of lookups, zeroed to start); *ZONE_OUT (may
 * be NULL) gets the zone's index in ZONES, or -1. */
enum ss_class ss_class_lookup(const struct ss_zone_index *zi, const struct ss_rec_zone *zones,
			      const struct ss_event *ev, enum ss_fm_kind fv,
			      struct ss_zone_hint *hint, long *zone_out);

/* The class named NAME, or -1. */
int ss_class_from_name(const char *name);
/* How many of the first bytes of class C's name tell it from every other class ("da" for
 * data, "dir" for dir, "dis" for discard, "m" for metadata): a shortened name keeps at least
 * these.  It compares the name with every other: a caller that cuts names over and over finds
 * it once per class. */
int ss_class_unique_len(enum ss_class c);

#endif
