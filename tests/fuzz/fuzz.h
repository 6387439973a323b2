// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Shared helpers for the fuzz targets (tests/fuzz/fuzz_*.c).  Each target defines
 * LLVMFuzzerTestOneInput (and optionally LLVMFuzzerInitialize); it is linked either with
 * libFuzzer (`make fuzz`, clang -fsanitize=fuzzer) or with replay_main.c, which feeds it every
 * file of its seed corpus and regression directory (`make check`, `make sanitize`,
 * `make valgrind`), so every crasher ever found keeps being replayed by the ordinary suite.
 */
#ifndef SS_FUZZ_H
#define SS_FUZZ_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* 1 under the regression replayer (replay_main.c), 0 under libFuzzer. */
#ifdef SS_FUZZ_REPLAY_MAIN
extern int ss_fuzz_replay;
#else
__attribute__((weak)) int ss_fuzz_replay;
#endif

/* A cut-short assertion message is fine; gcc at -O1 and above warns that it may happen. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif

/* Prints to the sanitizers' report descriptor, which survives libFuzzer's -close_fd_mask=2. */
__attribute__((weak)) void __sanitizer_report_error_summary(const char *summary);

/* A harness invariant broke: say which (stderr, and the sanitizer report for libFuzzer runs
 * that close stderr) and abort, which both libFuzzer and the replayer report. */
#define FUZZ_ASSERT(cond, ...)                                                       \
	do {                                                                         \
		if (!(cond)) {                                                       \
			char msg_[600];                                              \
			int n_ = snprintf(msg_, sizeof(msg_), "fuzz assertion failed: %s (%s:%d): ", \
					  #cond, __FILE__, __LINE__);                \
			if (n_ > 0 && (size_t)n_ < sizeof(msg_))                     \
				snprintf(msg_ + n_, sizeof(msg_) - (size_t)n_, __VA_ARGS__); \
			fprintf(stderr, "%s\n", msg_);                              \
			if (__sanitizer_report_error_summary)                        \
				__sanitizer_report_error_summary(msg_);              \
			abort();                                                     \
		}                                                                    \
	} while (0)

/*
 * An anonymous in-memory file holding DATA, extended with zeros (sparse) to at least MIN_SIZE,
 * named by PATH ("/proc/self/fd/N") so that code which opens files by name can read it.
 * Reused across inputs: returns the fd (or -1) and keeps it open.
 */
static inline int fuzz_memfile(int *fdp, const uint8_t *data, size_t size, off_t min_size,
			       char *path, size_t pathlen)
{
	size_t done = 0;

	if (*fdp < 0) {
		*fdp = memfd_create("seekscope-fuzz", MFD_CLOEXEC);
		if (*fdp < 0)
			return -1;
	}
	if (ftruncate(*fdp, 0) < 0)
		return -1;
	while (done < size) {
		ssize_t n = pwrite(*fdp, data + done, size - done, (off_t)done);

		if (n <= 0)
			return -1;
		done += (size_t)n;
	}
	if ((off_t)size < min_size && ftruncate(*fdp, min_size) < 0)
		return -1;
	snprintf(path, pathlen, "/proc/self/fd/%d", *fdp);
	return *fdp;
}

#endif
