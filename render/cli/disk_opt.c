// SPDX-License-Identifier: GPL-2.0-or-later
/* --disk MODEL|FILE for report and plot (disk_opt.h). */
#include <errno.h>

#include "disk_opt.h"
#include "errbuf.h"

int ss_disk_opt_parse(const char *arg, struct ss_disk_params *p, char *err, size_t errlen)
{
	char why[400];

	if (!ss_disk_model_parse(arg, p, why, sizeof(why)))
		return 0;
	ss_errf(err, errlen, "--disk: %s", why);
	return -EINVAL;
}
