// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The checksum of a trace record's payload (include/seekscope/format.h: zlib's crc32, the
 * IEEE polynomial).  Computed with libdeflate, whose carry-less-multiply version gives the same
 * value three to four times faster than zlib's: reading a trace checks every byte of it, and
 * this was an eighth of the time of a plot.
 */
#ifndef SS_CRC_H
#define SS_CRC_H

#include <stddef.h>
#include <stdint.h>
#include <libdeflate.h>

static inline uint32_t ss_crc32(const void *buf, size_t len)
{
	return libdeflate_crc32(0, buf, len);
}

#endif
