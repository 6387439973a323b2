/*
 * Fuzz target: the seekscope trace reader (render/trace_read.c) and everything that consumes
 * what it returns — the statistics pass with time bins (render/stats.h), the text and JSON
 * report printers and `seekscope dump` — on an untrusted trace file.
 *
 * The input is a trace file.  Record payloads are CRC-protected, which random mutation
 * practically never gets right, so the harness recomputes every record's CRC before handing
 * the file over (the same walk the reader does) — unless byte 48 of the input (the first
 * reserved header byte, which readers ignore) is odd: then the CRCs are left as they are and
 * the checksum-mismatch paths get exercised too.
 */
#include <fcntl.h>
#include <zlib.h>

#include "commands.h"
#include "fuzz.h"
#include "fuzz_consume.h"
#include "seekscope/codec.h"

static int memfd = -1, devnull = -1;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	fuzz_consume_init();
	return 0;
}

static uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}

/* Recompute the CRC of every record that fits in the buffer, walking as the reader does. */
static void fix_crcs(uint8_t *d, size_t size)
{
	size_t off;

	if (size < SS_FILE_HEADER_SIZE || (d[48] & 1))
		return;
	off = get_le32(d + 16);                                  /* header_size */
	if (off < SS_FILE_HEADER_SIZE || off > 4096)
		off = SS_FILE_HEADER_SIZE;
	while (off + SS_RECORD_HEADER_SIZE <= size) {
		uint32_t len = get_le32(d + off + 4);
		size_t padded = ((size_t)len + SS_RECORD_ALIGN - 1) & ~(size_t)(SS_RECORD_ALIGN - 1);

		if (len > SS_MAX_RECORD_LEN || off + SS_RECORD_HEADER_SIZE + len > size)
			return;
		put_le32(d + off + 8, (uint32_t)crc32(crc32(0L, Z_NULL, 0),
						      d + off + SS_RECORD_HEADER_SIZE, len));
		off += SS_RECORD_HEADER_SIZE + padded;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	uint8_t *copy;

	if (size > (8u << 20))
		return 0;
	copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	fix_crcs(copy, size);
	if (fuzz_memfile(&memfd, copy, size, 0, path, sizeof(path)) < 0) {
		free(copy);
		return 0;
	}
	free(copy);

	fuzz_open_consume(path);

	/* `seekscope dump FILE`, its output thrown away */
	if (devnull >= 0) {
		char *argv[] = { "dump", path, NULL };
		int saved;

		fflush(stdout);
		saved = dup(STDOUT_FILENO);
		dup2(devnull, STDOUT_FILENO);
		ss_cmd_dump(2, argv);
		fflush(stdout);
		if (saved >= 0) {
			dup2(saved, STDOUT_FILENO);
			close(saved);
		}
	}
	return 0;
}
