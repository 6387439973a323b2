// SPDX-License-Identifier: GPL-2.0-or-later
/* Text names and rwbs decoding for the shared event model (include/seekscope/model.h). */
#include <string.h>
#include "seekscope/model.h"

const char *ss_zone_kind_name(uint32_t kind)
{
	switch (kind) {
	case SS_ZONE_AG: return "ag";
	case SS_ZONE_LOG: return "log";
	case SS_ZONE_JOURNAL: return "journal";
	case SS_ZONE_GROUP: return "group";
	case SS_ZONE_INODE_TABLE: return "inode_table";
	default: return "unknown";
	}
}

/* 1 for zones that name one structure, 0 for the containers that hold them. */
static int zone_specificity(uint32_t kind)
{
	switch (kind) {
	case SS_ZONE_LOG:
	case SS_ZONE_JOURNAL:
	case SS_ZONE_INODE_TABLE:
		return 1;
	default:
		return 0;
	}
}

bool ss_zone_wins(const struct ss_rec_zone *a, const struct ss_rec_zone *b)
{
	int sa = zone_specificity(a->kind), sb = zone_specificity(b->kind);

	if (sa != sb)
		return sa > sb;
	return a->nr_sectors < b->nr_sectors;
}

const char *ss_event_type_name(uint32_t type)
{
	switch (type) {
	case SS_EV_ISSUE: return "issue";
	case SS_EV_COMPLETE: return "complete";
	case SS_EV_REQUEUE: return "requeue";
	case SS_EV_INSERT: return "insert";
	case SS_EV_QUEUE: return "queue";
	default: return "unknown";
	}
}

static bool is_op_char(char c)
{
	return c == 'W' || c == 'R' || c == 'D' || c == 'F' || c == 'N';
}

/*
 * The kernel writes: [F preflush] op [E secure-erase] [F fua] [A] [S] [M].  A lone leading F is
 * ambiguous only in appearance: "F" is the flush op, "FW" a preflush write, "FF" a preflush flush.
 */
uint16_t ss_rwbs_parse(const char *s, size_t len)
{
	uint16_t f = 0;
	size_t i = 0, n = 0;

	/* (a loop, not strnlen(): a few bytes, once per event of every reader) */
	while (n < len && s[n])
		n++;
	len = n;
	if (len == 0)
		return 0;
	if (s[0] == 'F' && len > 1 && is_op_char(s[1])) {
		f |= SS_RW_PREFLUSH;
		i = 1;
	}
	switch (s[i]) {
	case 'W': f |= SS_RW_WRITE; break;
	case 'R': f |= SS_RW_READ; break;
	case 'D':
		f |= SS_RW_DISCARD;
		if (i + 1 < len && s[i + 1] == 'E') {
			f |= SS_RW_SECURE;
			i++;
		}
		break;
	case 'F': f |= SS_RW_FLUSH; break;
	case 'N': f |= SS_RW_NONE; break;
	default: return 0;
	}
	for (i++; i < len; i++) {
		switch (s[i]) {
		case 'F': f |= SS_RW_FUA; break;
		case 'A': f |= SS_RW_AHEAD; break;
		case 'S': f |= SS_RW_SYNC; break;
		case 'M': f |= SS_RW_META; break;
		default: break;   /* newer kernels may add letters; ignore them */
		}
	}
	return f;
}

char *ss_rwbs_format(uint16_t f, char *buf, size_t len)
{
	char tmp[16];
	size_t i = 0;

	if (f & SS_RW_PREFLUSH)
		tmp[i++] = 'F';
	if (f & SS_RW_WRITE)
		tmp[i++] = 'W';
	else if (f & SS_RW_READ)
		tmp[i++] = 'R';
	else if (f & SS_RW_DISCARD) {
		tmp[i++] = 'D';
		if (f & SS_RW_SECURE)
			tmp[i++] = 'E';
	} else if (f & SS_RW_FLUSH)
		tmp[i++] = 'F';
	else
		tmp[i++] = 'N';
	if (f & SS_RW_FUA)
		tmp[i++] = 'F';
	if (f & SS_RW_AHEAD)
		tmp[i++] = 'A';
	if (f & SS_RW_SYNC)
		tmp[i++] = 'S';
	if (f & SS_RW_META)
		tmp[i++] = 'M';
	tmp[i] = '\0';
	if (len) {
		strncpy(buf, tmp, len - 1);
		buf[len - 1] = '\0';
	}
	return buf;
}

const struct ss_op_info ss_ops[SS_NR_OPS] = {
	[SS_OP_READ]    = { "read", "R", true },
	[SS_OP_WRITE]   = { "write", "W", true },
	[SS_OP_DISCARD] = { "discard", "D", false },
	[SS_OP_OTHER]   = { "other", "N, DE", true },
	[SS_OP_FLUSH]   = { "flush", "F", false },
};

enum ss_op ss_op_of(uint16_t f, bool has_data)
{
	if ((f & SS_RW_FLUSH) || (!has_data && (f & SS_RW_PREFLUSH)))
		return SS_OP_FLUSH;
	if (f & SS_RW_WRITE)
		return SS_OP_WRITE;
	if (f & SS_RW_READ)
		return SS_OP_READ;
	if ((f & SS_RW_DISCARD) && !(f & SS_RW_SECURE))
		return SS_OP_DISCARD;
	return SS_OP_OTHER;
}

bool ss_capture_exit_known(const struct ss_rec_capture *c)
{
	return c->end_ns != 0;
}
