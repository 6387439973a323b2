// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A trace's requests as an fio iolog (`seekscope convert IN --to fio -o FILE`), so that the
 * captured pattern can be replayed on a real disk:
 *
 *     fio --name=replay --read_iolog=FILE --replay_redirect=/dev/sdX --direct=1 \
 *         --ioengine=libaio --iodepth=32
 *
 * Version 3 of the format (fio >= 3.31, "TRACE FILE FORMAT" in fio(1)): every line carries its
 * own timestamp, in microseconds, so a request is replayed at its recorded time relative to
 * the previous one, or at once when fio is behind.  Version 2 spaces requests with relative
 * "wait" lines that fio drops below 100 us, which is most of the gaps of a busy disk.
 *
 * What is written, one line per ISSUE event (dispatch order, the order the disk saw; requests
 * the block layer merged or split are written as the disk received them):
 *   read, write                  "read" / "write" at the byte offset on the whole disk
 *   discard                      "trim"
 *   flush (no data)              "sync": fio fsyncs the device, which sends a cache flush
 *   write with a preflush        "sync" then "write", at the same time
 *   FUA                          the iolog cannot say it: a plain write (counted)
 *   other operations             skipped (counted)
 * Each traced device is one file, /dev/NAME (or /dev/block/MAJ:MIN when the name is not a
 * plain device name); --replay_redirect sends them all to one device.  Timestamps count from
 * the capture start; fio treats 0 as "no time yet", so a request at 0 is written at 1 us.
 * Nothing here prints.
 */
#ifndef SS_IOLOG_H
#define SS_IOLOG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "trace_read.h"

struct ss_iolog_counts {
	uint64_t reads, writes, trims, syncs;        /* lines written */
	uint64_t read_bytes, write_bytes, trim_bytes;
	uint64_t fua;               /* writes with FUA, written as plain writes */
	uint64_t skipped;           /* issues of other operations, not written */
};

/*
 * Stream T's events (from the start) into F as an iolog.  0, or -errno with one line in ERR:
 * a read error of the trace, or F's write error (ENOSPC stays ENOSPC).  *C (may be NULL) says
 * what was written.
 */
int ss_iolog_write(FILE *f, struct ss_trace *t, struct ss_iolog_counts *c, char *err,
		   size_t errlen);

#endif
