// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The workload as another user (record --user USER), while the recorder stays root: a command
 * becomes USER for good in its child (supplementary groups, gid, uid) with USER's HOME, USER,
 * LOGNAME and SHELL in an environment built before the fork; the in-process extraction takes
 * USER's file-system identity (fsuid/fsgid and groups) in the calling thread only, so that
 * the files it creates belong to USER and USER's permissions apply (the kernel drops the
 * file capabilities of a thread whose fsuid is not 0), while the capture thread stays root.
 * Library code: returns 0 or -errno with one line in the caller's buffer; never prints.
 */
#ifndef SS_RUNAS_H
#define SS_RUNAS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define SS_RUNAS_MAX_GROUPS 256

struct ss_runas {
	char name[64];
	uid_t uid;
	gid_t gid;
	gid_t groups[SS_RUNAS_MAX_GROUPS];   /* USER's supplementary groups (with gid) */
	int nr_groups;
	char home[512], shell[256];
};

/* USER (a name, or a numeric uid of the user database) into *RA: -ENOENT "no user 'X'",
 * -E2BIG past SS_RUNAS_MAX_GROUPS groups, or what the user database said. */
int ss_runas_lookup(const char *user, struct ss_runas *ra, char *err, size_t errlen);

/* The identity to restore after ss_runas_fs_enter(). */
struct ss_runas_saved {
	uid_t fsuid;
	gid_t fsgid;
	gid_t groups[SS_RUNAS_MAX_GROUPS];
	int nr_groups;
};

/* This thread's file-system identity becomes RA's (RA NULL: nothing happens); the groups are
 * the process's (the other threads run as root, for whom they do not matter).  0 or -errno
 * (nothing changed then). */
int ss_runas_fs_enter(const struct ss_runas *ra, struct ss_runas_saved *sv, char *err,
		      size_t errlen);
/* Back to the identity SV saved (RA as given to enter: NULL does nothing). */
void ss_runas_fs_leave(const struct ss_runas *ra, const struct ss_runas_saved *sv);

/* ENVP with HOME, USER, LOGNAME and SHELL set to RA's: a malloc'd NULL-terminated array whose
 * strings are ENVP's or RA's (free the array with ss_runas_env_free). NULL + ENOMEM. */
char **ss_runas_env(const struct ss_runas *ra, char *const *envp);
void ss_runas_env_free(char **env);
/* In a child between fork and exec: become RA for good (setgroups, setgid, setuid; then a
 * check that root cannot be regained).  Async-signal-safe.  0 or -errno. */
int ss_runas_become(const struct ss_runas *ra);
/* In a child between fork and exec: every descriptor from FIRST on closed at the exec
 * (close_range(2) with CLOSE_RANGE_CLOEXEC, else one by one up to the descriptor limit), so
 * that the user's program inherits none of them.  Async-signal-safe.  0 or -errno. */
int ss_runas_close_fds(int first);

#endif
