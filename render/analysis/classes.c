// SPDX-License-Identifier: GPL-2.0-or-later
/* Request classes: the table and the one rule (classes.h). */
#include <string.h>

#include "seekscope/model.h"
#include "classes.h"

const struct ss_class_info ss_class_table[SS_NR_CLASSES] = {
	[SS_CLASS_FILE_DATA] = { "file-data", "data of a file the trace's file map names" },
	[SS_CLASS_DATA]      = { "data", "reads and writes of data whose file is unknown" },
	[SS_CLASS_DIR]       = { "dir", "directory blocks (file map)" },
	[SS_CLASS_META]      = { "metadata", "inodes and other metadata: the M flag, ext4 inode "
					     "tables, XFS inode chunks" },
	[SS_CLASS_JOURNAL]   = { "journal", "the XFS log and the ext4 journal" },
	[SS_CLASS_FLUSH]     = { "flush", "cache flushes (no sectors)" },
	[SS_CLASS_DISCARD]   = { "discard", "discards (TRIM, UNMAP)" },
	[SS_CLASS_OTHER]     = { "other", "write-zeroes, secure erase, other ops, requests "
					  "without sectors" },
};

enum ss_class ss_class_of(const struct ss_event *ev, const struct ss_rec_zone *zone,
			  enum ss_fm_kind fv)
{
	uint32_t kind = zone ? zone->kind : 0;

	if (!ss_event_has_data(ev))
		return ss_op_of(ev->flags, false) == SS_OP_FLUSH ? SS_CLASS_FLUSH : SS_CLASS_OTHER;
	switch (ss_op_of(ev->flags, true)) {
	case SS_OP_DISCARD:
		return SS_CLASS_DISCARD;
	case SS_OP_READ:
	case SS_OP_WRITE:
		break;
	default:
		return SS_CLASS_OTHER;
	}
	if (kind == SS_ZONE_LOG || kind == SS_ZONE_JOURNAL)
		return SS_CLASS_JOURNAL;
	if (fv == SS_FM_DIR)
		return SS_CLASS_DIR;
	if (fv == SS_FM_INODE || kind == SS_ZONE_INODE_TABLE || (ev->flags & SS_RW_META))
		return SS_CLASS_META;
	return fv == SS_FM_FILE ? SS_CLASS_FILE_DATA : SS_CLASS_DATA;
}

enum ss_class ss_class_lookup(const struct ss_zone_index *zi, const struct ss_rec_zone *zones,
			      const struct ss_event *ev, enum ss_fm_kind fv,
			      struct ss_zone_hint *hint, long *zone_out)
{
	long z = -1;

	if (zi && ev->sector != SS_SECTOR_NONE)
		z = ss_zone_index_find_hint(zi, ev->dev, ev->sector, hint);

	if (zone_out)
		*zone_out = z;
	return ss_class_of(ev, z >= 0 ? &zones[z] : NULL, fv);
}

int ss_class_from_name(const char *name)
{
	for (int c = 0; c < SS_NR_CLASSES; c++)
		if (!strcmp(ss_class_table[c].name, name))
			return c;
	return -1;
}

int ss_class_unique_len(enum ss_class c)
{
	const char *name = ss_class_table[c].name;
	int len = (int)strlen(name), need = 1;

	for (int o = 0; o < SS_NR_CLASSES; o++) {
		const char *other = ss_class_table[o].name;
		int same = 0;

		if (o == (int)c)
			continue;
		while (name[same] && name[same] == other[same])
			same++;
		if (same + 1 > need)
			need = same + 1;
	}
	return need < len ? need : len;
}
