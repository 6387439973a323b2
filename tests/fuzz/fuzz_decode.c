// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target for block event decoding (collector/core/decode.c) with the formats and records
 * a trace-cmd file may hold: in a .dat both are the file's word, and the decoder runs in the
 * trace-cmd reader's process, where the `tracecmd` target is blind to its coverage and its
 * crashes.  The format text is generated from the input (so libtraceevent always parses it:
 * its own parser is not what is fuzzed here) with fuzzed offsets and sizes for every field the
 * decoder reads, a fixed or dynamic rwbs, a comm or none, either byte order; the record is the
 * rest of the input, at its exact size.
 *
 * Input: FUZZ_DECODE_HDR bytes (see make_format()), then the record.  Invariants: the format
 * is registered or refused with -EPROTO; a record decodes to 1, 0 (another event type) or -1
 * (too short for its fields), never reading past its end (ASan); a decoded event's comm is
 * the field's bytes up to its first NUL, 15 at most, padded with NULs to SS_COMM_LEN (none
 * without the field); decoding twice gives the same.
 */
#include <event-parse.h>

#include "fuzz.h"
#include "decode.h"

#define FUZZ_DECODE_HDR 24

/* One field's declaration: TYPE NAME at the offset and size of H[0..2] (H[2] = 0: left out). */
static int field(char *buf, size_t len, const char *decl, const uint8_t *h)
{
	if (!h[2])
		return 0;
	return snprintf(buf, len, "\tfield:%s;\toffset:%u;\tsize:%u;\tsigned:0;\n", decl,
			(unsigned)(h[0] | h[1] << 8), (unsigned)h[2]);
}

/* The format of block_rq_issue (H[0] odd: block_rq_complete) from header bytes H. */
static void make_format(const uint8_t *h, char *buf, size_t len, int id)
{
	size_t n = 0;

	n += (size_t)snprintf(buf + n, len - n, "name: %s\nID: %d\nformat:\n"
			      "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n",
			      h[0] & 1 ? "block_rq_complete" : "block_rq_issue", id);
	n += (size_t)field(buf + n, len - n, "int common_pid", h + 1);
	n += (size_t)snprintf(buf + n, len - n, "\n");
	n += (size_t)field(buf + n, len - n, "dev_t dev", h + 4);
	n += (size_t)field(buf + n, len - n, "sector_t sector", h + 7);
	n += (size_t)field(buf + n, len - n, "unsigned int nr_sector", h + 10);
	n += (size_t)field(buf + n, len - n, "unsigned int bytes", h + 13);
	n += (size_t)field(buf + n, len - n, h[0] & 2 ? "int errors" : "int error", h + 16);
	n += (size_t)field(buf + n, len - n, h[0] & 4 ? "__data_loc char[] rwbs" : "char rwbs[10]",
			   h + 19);
	if (h[0] & 8) {
		uint8_t c[3] = { h[22], 0, (uint8_t)(h[23] ? h[23] : 16) };

		n += (size_t)field(buf + n, len - n, "char comm[16]", c);
	}
	snprintf(buf + n, len - n, "\nprint fmt: \"%%d\", REC->nr_sector\n");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *rec = data + FUZZ_DECODE_HDR;
	size_t rec_size = size - FUZZ_DECODE_HDR;
	struct tep_handle *tep;
	struct ss_decoder *d;
	struct ss_event ev, ev2;
	char fmt[2048], comm[SS_COMM_LEN], comm2[SS_COMM_LEN];
	int id = 1000 + (data[0] >> 4), ret, ret2;
	uint16_t type;

	if (size < FUZZ_DECODE_HDR || size > 4096)
		return 0;
	make_format(data, fmt, sizeof(fmt), id);
	if (!(tep = tep_alloc()))
		abort();
	tep_set_file_bigendian(tep, data[0] & 0x40 ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	if (tep_parse_event(tep, fmt, strlen(fmt), "block")) {
		tep_free(tep);
		return 0;
	}
	if (!(d = ss_decoder_new(tep)))
		abort();
	type = data[0] & 1 ? SS_EV_COMPLETE : SS_EV_ISSUE;
	ret = ss_decoder_add(d, data[0] & 1 ? "block_rq_complete" : "block_rq_issue", type);
	FUZZ_ASSERT(ret == 0 || ret == -EPROTO, "ss_decoder_add: %d", ret);
	if (!ret) {
		/* the record, with its type set to the format's unless the input says not */
		uint8_t *r = malloc(rec_size ? rec_size : 1);

		if (!r)
			abort();
		memcpy(r, rec, rec_size);
		if (rec_size >= 2 && !(data[0] & 0x80)) {
			uint16_t t = (uint16_t)id;

			if (data[0] & 0x40)
				t = (uint16_t)(t >> 8 | t << 8);
			memcpy(r, &t, 2);
		}
		memset(comm, 0xa5, sizeof(comm));
		ret = ss_decoder_decode(d, r, rec_size, 1, 0, &ev, comm);
		FUZZ_ASSERT(ret >= -1 && ret <= 1, "decode: %d", ret);
		FUZZ_ASSERT(ret != 1 || (ev.type == type && memchr(comm, 0, SS_COMM_LEN)),
			    "decoded type %u, comm unterminated", ev.type);
		if (ret == 1) {
			/* the field's bytes to its first NUL (15 at most), then NULs to the end */
			size_t off = data[22], fsize = data[23] ? data[23] : 16, n = 0;
			char want[SS_COMM_LEN] = { 0 };

			if (data[0] & 8) {
				n = strnlen((const char *)r + off, fsize < 15 ? fsize : 15);
				memcpy(want, r + off, n);
			}
			FUZZ_ASSERT(!memcmp(comm, want, SS_COMM_LEN), "the comm is not the field's "
				    "name padded with NULs (%zu bytes of a %zu-byte field at %zu)", n,
				    fsize, off);
		}
		ret2 = ss_decoder_decode(d, r, rec_size, 1, 0, &ev2, comm2);
		FUZZ_ASSERT(ret2 == ret && (ret != 1 || (!memcmp(&ev, &ev2, sizeof(ev)) &&
							  !strcmp(comm, comm2))),
			    "a second decode differs");
		free(r);
	}
	ss_decoder_free(d);
	tep_free(tep);
	return 0;
}
