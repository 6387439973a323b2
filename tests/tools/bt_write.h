// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Writing blktrace binary records (struct blk_io_trace, include/uapi/linux/blktrace_api.h) for
 * the tests and the import benchmark: the 48-byte record in host or swapped byte order plus an
 * optional payload.  Shared by tests/unit/test_import_blktrace.c and tests/tools/gen-blktrace.c.
 */
#ifndef SS_TEST_BT_WRITE_H
#define SS_TEST_BT_WRITE_H

#include <byteswap.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define BTW_MAGIC       0x65617400u
#define BTW_VERSION     0x07u
/* categories, shifted into the action word's high half */
#define BTW_TC(c)       ((uint32_t)(c) << 16)
#define BTW_READ        BTW_TC(1u << 0)
#define BTW_WRITE       BTW_TC(1u << 1)
#define BTW_FLUSH       BTW_TC(1u << 2)
#define BTW_SYNC        BTW_TC(1u << 3)
#define BTW_QUEUE       BTW_TC(1u << 4)
#define BTW_REQUEUE     BTW_TC(1u << 5)
#define BTW_ISSUE       BTW_TC(1u << 6)
#define BTW_COMPLETE    BTW_TC(1u << 7)
#define BTW_FS          BTW_TC(1u << 8)
#define BTW_PC          BTW_TC(1u << 9)
#define BTW_NOTIFY      BTW_TC(1u << 10)
#define BTW_AHEAD       BTW_TC(1u << 11)
#define BTW_META        BTW_TC(1u << 12)
#define BTW_DISCARD     BTW_TC(1u << 13)
#define BTW_FUA         BTW_TC(1u << 15)
/* full actions as the kernel writes them (basic action | its category) */
#define BTW_TA_Q        (1u | BTW_QUEUE)
#define BTW_TA_M        (2u | BTW_QUEUE)        /* back merge: skipped by the importer */
#define BTW_TA_G        (4u | BTW_QUEUE)        /* get request: skipped */
#define BTW_TA_R        (6u | BTW_REQUEUE)
#define BTW_TA_D        (7u | BTW_ISSUE)
#define BTW_TA_C        (8u | BTW_COMPLETE)
#define BTW_TA_P        (9u | BTW_QUEUE)        /* plug: skipped */
#define BTW_TA_U        (10u | BTW_QUEUE)       /* unplug: skipped */
#define BTW_TA_I        (12u | BTW_QUEUE)
#define BTW_TN_PROCESS  (0u | BTW_NOTIFY)
#define BTW_TN_TIMESTAMP (1u | BTW_NOTIFY)
#define BTW_TN_MESSAGE  (2u | BTW_NOTIFY)

struct btw_rec {
	uint32_t magic, sequence;
	uint64_t time, sector;
	uint32_t bytes, action, pid, device, cpu;
	uint16_t error, pdu_len;
};
_Static_assert(sizeof(struct btw_rec) == 48, "struct blk_io_trace layout");

/* Write R (host values; magic filled in if 0) and PDU to F, byte-swapped if SWAP.  0 or -1. */
__attribute__((unused))
static int btw_put(FILE *f, const struct btw_rec *r, bool swap, const void *pdu)
{
	struct btw_rec o = *r;

	if (!o.magic)
		o.magic = BTW_MAGIC | BTW_VERSION;
	if (swap) {
		o.magic = bswap_32(o.magic);
		o.sequence = bswap_32(o.sequence);
		o.time = bswap_64(o.time);
		o.sector = bswap_64(o.sector);
		o.bytes = bswap_32(o.bytes);
		o.action = bswap_32(o.action);
		o.pid = bswap_32(o.pid);
		o.device = bswap_32(o.device);
		o.cpu = bswap_32(o.cpu);
		o.error = bswap_16(o.error);
		o.pdu_len = bswap_16(o.pdu_len);
	}
	if (fwrite(&o, sizeof(o), 1, f) != 1)
		return -1;
	if (r->pdu_len && fwrite(pdu, r->pdu_len, 1, f) != 1)
		return -1;
	return 0;
}

#endif
