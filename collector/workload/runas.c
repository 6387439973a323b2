// SPDX-License-Identifier: GPL-2.0-or-later
/* The workload as another user (see runas.h). */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/fsuid.h>
#include <sys/resource.h>

#include "errbuf.h"
#include "runas.h"

int ss_runas_lookup(const char *user, struct ss_runas *ra, char *err, size_t errlen)
{
	struct passwd pw, *res = NULL;
	char buf[4096], *end;
	int ret, n;

	memset(ra, 0, sizeof(*ra));
	ret = getpwnam_r(user, &pw, buf, sizeof(buf), &res);
	if (!ret && !res && *user >= '0' && *user <= '9') {
		unsigned long uid;

		errno = 0;
		uid = strtoul(user, &end, 10);
		if (!*end && !errno && uid == (uid_t)uid)
			ret = getpwuid_r((uid_t)uid, &pw, buf, sizeof(buf), &res);
	}
	if (ret || !res) {
		if (ret && ret != ENOENT && ret != ESRCH && ret != EBADF && ret != EPERM) {
			ss_errf(err, errlen, "--user %s: %s", user, strerror(ret));
			return -ret;
		}
		ss_errf(err, errlen, "--user: no user '%s' on this system", user);
		return -ENOENT;
	}
	if (strlen(pw.pw_name) >= sizeof(ra->name) || strlen(pw.pw_dir) >= sizeof(ra->home) ||
	    strlen(pw.pw_shell) >= sizeof(ra->shell)) {
		ss_errf(err, errlen, "--user %s: name, home or shell too long", user);
		return -ENAMETOOLONG;
	}
	strcpy(ra->name, pw.pw_name);
	strcpy(ra->home, pw.pw_dir);
	strcpy(ra->shell, pw.pw_shell);
	ra->uid = pw.pw_uid;
	ra->gid = pw.pw_gid;
	n = SS_RUNAS_MAX_GROUPS;
	if (getgrouplist(pw.pw_name, pw.pw_gid, ra->groups, &n) < 0) {
		ss_errf(err, errlen, "--user %s: more than %d groups", user, SS_RUNAS_MAX_GROUPS);
		return -E2BIG;
	}
	ra->nr_groups = n;
	return 0;
}

int ss_runas_fs_enter(const struct ss_runas *ra, struct ss_runas_saved *sv, char *err,
		      size_t errlen)
{
	int n;

	if (!ra)
		return 0;
	n = getgroups(SS_RUNAS_MAX_GROUPS, sv->groups);
	if (n < 0 || setgroups((size_t)ra->nr_groups, ra->groups) < 0) {
		int e = errno;

		ss_errf(err, errlen, "--user %s: groups: %s", ra->name, strerror(e));
		return -e;
	}
	sv->nr_groups = n;
	/* setfs*id return the previous id and cannot fail visibly: check by asking again */
	sv->fsgid = (gid_t)setfsgid(ra->gid);
	sv->fsuid = (uid_t)setfsuid(ra->uid);
	if ((gid_t)setfsgid((gid_t)-1) != ra->gid || (uid_t)setfsuid((uid_t)-1) != ra->uid) {
		ss_runas_fs_leave(ra, sv);
		ss_errf(err, errlen, "--user %s: cannot take its file-system identity", ra->name);
		return -EPERM;
	}
	return 0;
}

void ss_runas_fs_leave(const struct ss_runas *ra, const struct ss_runas_saved *sv)
{
	if (!ra)
		return;
	setfsuid(sv->fsuid);
	setfsgid(sv->fsgid);
	if (setgroups((size_t)sv->nr_groups, sv->groups) < 0)
		return;   /* root restoring root's own groups: cannot fail */
}

static const char *const env_keys[] = { "HOME", "USER", "LOGNAME", "SHELL" };
#define NR_ENV_KEYS (sizeof(env_keys) / sizeof(env_keys[0]))

/* Is S one of env_keys' "KEY=..." strings? */
static bool is_ours(const char *s)
{
	for (size_t j = 0; j < NR_ENV_KEYS; j++)
		if (!strncmp(s, env_keys[j], strlen(env_keys[j])) && s[strlen(env_keys[j])] == '=')
			return true;
	return false;
}

char **ss_runas_env(const struct ss_runas *ra, char *const *envp)
{
	const char *vals[NR_ENV_KEYS] = { ra->home, ra->name, ra->name, ra->shell };
	size_t n = 0, k = 0;
	char **env;

	while (envp && envp[n])
		n++;
	env = calloc(n + NR_ENV_KEYS + 1, sizeof(*env));
	if (!env)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (!is_ours(envp[i]))
			env[k++] = envp[i];
	for (size_t j = 0; j < NR_ENV_KEYS; j++) {
		if (asprintf(&env[k], "%s=%s", env_keys[j], vals[j]) < 0) {
			env[k] = NULL;
			ss_runas_env_free(env);
			return NULL;
		}
		k++;
	}
	env[k] = NULL;
	return env;
}

void ss_runas_env_free(char **env)
{
	/* the inherited strings with these keys were left out: those here are ours */
	for (size_t i = 0; env && env[i]; i++)
		if (is_ours(env[i]))
			free(env[i]);
	free(env);
}

int ss_runas_become(const struct ss_runas *ra)
{
	if (setgroups((size_t)ra->nr_groups, ra->groups) < 0 || setgid(ra->gid) < 0 ||
	    setuid(ra->uid) < 0)
		return -errno;
	if (ra->uid != 0 && setuid(0) == 0)
		return -EPERM;
	return 0;
}

int ss_runas_close_fds(int first)
{
	struct rlimit rl;

	if (close_range((unsigned)first, ~0u, CLOSE_RANGE_CLOEXEC) == 0)
		return 0;
	/* kernels before 5.11: each possible descriptor (fcntl on a closed one fails harmlessly) */
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return -errno;
	for (rlim_t fd = (rlim_t)first; fd < rl.rlim_cur && fd < (1u << 20); fd++)
		fcntl((int)fd, F_SETFD, FD_CLOEXEC);
	return 0;
}
