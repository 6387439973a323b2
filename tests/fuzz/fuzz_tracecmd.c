// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: the trace-cmd importer (render/import_tracecmd.c, which reads .dat files through
 * libtracecmd: headers, event formats, options, instance buffers, per-CPU pages) behind the
 * format detection every command uses, and what report and plot do with what it returns
 * (fuzz_consume.h).
 *
 * Input: a .dat file.  Seeds are real captures (`trace-cmd record --file-version 6
 * --compression none -B NAME` of a little I/O) shrunk by shrink-dat.py to a few KiB: kallsyms,
 * printk formats and command lines dropped, offsets rewritten.  Whatever libtracecmd accepts
 * must then stream, pair and report without a crash, a leak or an assertion.
 *
 * The inputs are read in one kept reader process (struct ss_tracecmd_server), replaced when
 * an input kills it, not in a forked process each: the fork and exit of this big sanitized
 * process cost most of an input's time.
 */
#include "fuzz.h"
#include "fuzz_consume.h"

static int memfd = -1;
static struct ss_tracecmd_server *server;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	fuzz_consume_init();
	server = ss_tracecmd_server_new();
	return server ? 0 : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];

	if (size > (1u << 20))
		return 0;
	if (fuzz_memfile(&memfd, data, size, 0, path, sizeof(path)) < 0)
		return 0;
	fuzz_open_consume_with(path, server);
	return 0;
}
