// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Output files for a tool that runs as root and writes where it is told, also into shared
 * directories such as /tmp.  Whatever the kernel's fs.protected_symlinks / protected_regular
 * say (many VMs and containers have them off), an output
 *   - is never opened through a symbolic link (its last component; the directories on the way
 *     are the user's choice),
 *   - is never an existing regular file with other hard links (writing it would change a file
 *     the user did not name),
 *   - is never, in a sticky world-writable directory, an existing file that belongs to another
 *     user (unless that user owns the directory): the rule of protected_regular.
 * Existing non-regular files the user names (/dev/null, a FIFO) are written in place.
 * PATH "-" is standard output, written in place (there is nothing to replace) and refused
 * when it is a terminal (ENOTTY): the outputs are binary or whole pages.
 * Library code: NULL + errno or -errno, with one line in the caller's buffer; never prints.
 */
#ifndef SS_OUTFILE_H
#define SS_OUTFILE_H

#include <stddef.h>
#include <sys/types.h>

enum ss_out_mode {
	/* Written in place as it grows, so a crash leaves what was written (record's trace):
	 * created with O_EXCL, or an existing file opened without following a link, checked,
	 * then truncated. */
	SS_OUT_INPLACE,
	/* Written to a new temporary file in the same directory (O_EXCL) and renamed over PATH
	 * by ss_outfile_commit (after fdatasync): PATH holds its old content or the complete new
	 * one, never half a result, and a failure leaves nothing behind (plot, convert,
	 * mkarchive). */
	SS_OUT_REPLACE,
};

struct ss_outfile;

/* Open PATH for writing; new files get MODE (less the umask).  NULL + errno and a reason in
 * err: ELOOP (a symbolic link), EMLINK (hard links), EPERM (another user's file in a shared
 * directory), EISDIR, or what the system said. */
struct ss_outfile *ss_outfile_open(const char *path, enum ss_out_mode mode, mode_t perm,
				   char *err, size_t errlen);
/* Would ss_outfile_open(PATH, SS_OUT_INPLACE) succeed?  The same refusals (ELOOP, EMLINK, EPERM,
 * EISDIR), plus the directory or the existing file not writable (EACCES, EROFS, ENOENT), with
 * the same messages, without creating or truncating anything: a caller that must not leave a
 * file behind when a later step fails checks first and opens last. */
int ss_outfile_check(const char *path, char *err, size_t errlen);
/* The descriptor to write to (owned by the outfile). */
int ss_outfile_fd(const struct ss_outfile *o);
/* Finish: REPLACE flushes to stable storage and renames the temporary file over PATH; both
 * close.  Frees O whatever happens.  0 or -errno with a reason in err. */
int ss_outfile_commit(struct ss_outfile *o, char *err, size_t errlen);
/* Give up: REPLACE removes the temporary file (PATH is untouched); INPLACE closes and leaves
 * what was written.  Frees O; accepts NULL. */
void ss_outfile_discard(struct ss_outfile *o);

#endif
