// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Recursive removal that is safe inside a tree an archive just created: every step is
 * relative to an open directory fd and no symlink is ever followed, so a link in the tree
 * (even one pointing at "/") only removes the link.  Used by the delete phase of the
 * extraction workload; the counters let that phase report progress.  Library code: returns
 * 0/-errno, prints nothing.
 */
#ifndef SS_RMTREE_H
#define SS_RMTREE_H

#include <stddef.h>
#include <stdint.h>

/* one open directory per level; the fuzz build sets a smaller one (Makefile FUZZ_DEFS) */
#ifndef SS_RMTREE_MAX_DEPTH
#define SS_RMTREE_MAX_DEPTH 512
#endif

struct ss_rmtree {
	volatile int *stop;       /* optional: checked between entries, -EINTR when non-zero */
	void (*tick)(void *ctx, const struct ss_rmtree *t);   /* optional: after each removal */
	void *ctx;
	uint64_t entries, files;  /* removed so far (regular files among them); accumulate */
	char *err;                /* optional: one-line reason on failure */
	size_t errlen;
};

/*
 * Remove NAME (relative to DIRFD) and everything below it.  A non-root owner's directories
 * without u+rwx get it first, as rm -rf does.  Errors: -errno of the failing call, -EINTR on
 * stop, -ELOOP past SS_RMTREE_MAX_DEPTH levels.
 */
int ss_rmtree_at(struct ss_rmtree *t, int dirfd, const char *name);

#endif
