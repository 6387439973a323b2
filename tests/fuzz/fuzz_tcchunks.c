// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target for the trace-cmd reader's check of a version 7 file's buffers before
 * libtracecmd reads them (render/readers/import_tracecmd_chunks.c, ss_tc_check_buffers): its
 * head (ss_tc_read_file_head), the options sections followed through their DONE options, the
 * BUFFER options, every compressed chunk's table and frames (zstd headers, zstd and zlib
 * unpacked and counted).  In this process, unlike the `tracecmd` target, whose reader process
 * coverage does not reach libFuzzer and whose crashes there read as libtracecmd's.
 *
 * Input: the file's bytes, in a memfd.  Invariants: the check returns 0, or -EINVAL with a
 * "corrupt (...)" message, or -ENOMEM / -EIO with a message; its message is one line; it
 * returns the same twice (nothing kept between calls).
 */
#include "fuzz.h"
#include "import_tracecmd_reader.h"

static int memfd = -1;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct file_head fh;
	char err[512], again[512];
	int ret, ret2;

	if (size > (1u << 20))
		return 0;
	if (memfd < 0 && (memfd = memfd_create("tcchunks", 0)) < 0)
		abort();
	if (ftruncate(memfd, 0) || pwrite(memfd, data, size, 0) != (ssize_t)size)
		abort();
	if (!ss_tc_read_file_head(memfd, &fh))
		return 0;
	err[0] = again[0] = 0;
	ret = ss_tc_check_buffers(memfd, &fh, err, sizeof(err));
	FUZZ_ASSERT(ret == 0 || ret == -EINVAL || ret == -ENOMEM || ret == -EIO,
		    "returned %d (%s)", ret, err);
	FUZZ_ASSERT(!ret == !err[0], "returned %d with the message \"%s\"", ret, err);
	FUZZ_ASSERT(ret != -EINVAL || strstr(err, "cannot read this trace-cmd file: corrupt ("),
		    "-EINVAL without saying what is corrupt: %s", err);
	FUZZ_ASSERT(!strchr(err, '\n'), "a message of more than one line: %s", err);
	ret2 = ss_tc_check_buffers(memfd, &fh, again, sizeof(again));
	FUZZ_ASSERT(ret2 == ret && !strcmp(err, again), "a second check differs: %d (%s), then "
		    "%d (%s)", ret, err, ret2, again);
	return 0;
}
