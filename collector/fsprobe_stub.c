/* TEMPORARY stand-in until the filesystem probe lands (branch zones). */
#include <string.h>
#include <stdlib.h>
#include "fsprobe.h"

int ss_fsprobe_path(const char *path, struct ss_fsprobe *out)
{
	(void)path;
	memset(out, 0, sizeof(*out));
	return 0;
}

void ss_fsprobe_release(struct ss_fsprobe *p)
{
	free(p->zones);
	p->zones = NULL;
	p->nr_zones = 0;
}
