// SPDX-License-Identifier: GPL-2.0-or-later
/* FFmpeg's libraries loaded on demand (see avlib.h). */
#include <dlfcn.h>
#include <errno.h>
#include <string.h>

#include "avlib.h"
#include "errbuf.h"

#define SS_AV_SONAME(l, major) "lib" #l ".so." AV_STRINGIFY(major),
static const char *const sonames[SS_AV_NR_LIBS] = { SS_AV_LIBS(SS_AV_SONAME) };
#undef SS_AV_SONAME

int ss_av_open(struct ss_av *av, char *err, size_t errlen)
{
	const char *why;

	memset(av, 0, sizeof(*av));
	for (int i = 0; i < SS_AV_NR_LIBS; i++)
		if (!(av->lib[i] = dlopen(sonames[i], RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE))) {
			why = dlerror();
			ss_errf(err, errlen, "cannot load FFmpeg's %s: %s", sonames[i],
				why ? why : "not found");
			goto error;
		}
#define SS_AV_RESOLVE(l, fn) \
	if (!(*(void **)&av->fn = dlsym(av->lib[SS_AV_##l], #fn))) { \
		ss_errf(err, errlen, "FFmpeg's %s has no %s", sonames[SS_AV_##l], #fn); \
		goto error; \
	}
	SS_AV_FUNCS(SS_AV_RESOLVE)
#undef SS_AV_RESOLVE
	return 0;
error:
	ss_av_close(av);
	return -ENOSYS;
}

void ss_av_close(struct ss_av *av)
{
	for (int i = 0; i < SS_AV_NR_LIBS; i++)
		if (av->lib[i])
			dlclose(av->lib[i]);
	memset(av, 0, sizeof(*av));
}
