// SPDX-License-Identifier: GPL-2.0-or-later
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

#include "commands.h"
#include "fuzz.h"
#include "fuzz_consume.h"

static int memfd = -1, devnull = -1;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	fuzz_consume_init();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];

	if (size > (8u << 20))
		return 0;
	if (fuzz_sst_memfile(&memfd, data, size, path, sizeof(path)))
		return 0;

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
