// SPDX-License-Identifier: GPL-2.0-or-later
/* libarchive loaded on demand (see arlib.h). */
#include <dlfcn.h>
#include <errno.h>
#include <string.h>

#include "arlib.h"
#include "errbuf.h"

/* POSIX's promise for dlsym(): a function's address fits a void * */
_Static_assert(sizeof(void *) == sizeof(void (*)(void)), "function pointers fit a void *");

int ss_ar_open(struct ss_ar *ar, char *err, size_t errlen)
{
	const char *why;
	void *sym;

	memset(ar, 0, sizeof(*ar));
	if (!(ar->lib = dlopen(SS_AR_SONAME, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE))) {
		why = dlerror();
		ss_errf(err, errlen, "cannot load libarchive (%s): %s", SS_AR_SONAME,
			why ? why : "not found");
		return -ENOSYS;
	}
	/* through a void * copied into place: a function pointer is no object pointer to
	 * store into */
#define SS_AR_RESOLVE(fn) \
	if (!(sym = dlsym(ar->lib, #fn))) { \
		ss_errf(err, errlen, "%s has no %s", SS_AR_SONAME, #fn); \
		goto error; \
	} \
	memcpy(&ar->fn, &sym, sizeof(sym));
	SS_AR_FUNCS(SS_AR_RESOLVE)
#undef SS_AR_RESOLVE
	return 0;
error:
	ss_ar_close(ar);
	return -ENOSYS;
}

void ss_ar_close(struct ss_ar *ar)
{
	if (ar->lib)
		dlclose(ar->lib);
	memset(ar, 0, sizeof(*ar));
}
