// SPDX-License-Identifier: GPL-2.0-or-later
/* --device DEV of plot, report and dump; see device_arg.h. */
#include <stdio.h>

#include "device_arg.h"

int ss_device_arg_pick(const char *prog, const struct ss_trace *t, const char *spec,
		       uint32_t *dev)
{
	const struct ss_rec_device *d = ss_trace_find_device(t, spec);
	char list[300];

	if (d) {
		*dev = d->dev;
		return 0;
	}
	ss_trace_devices_list(t, list, sizeof(list));
	fprintf(stderr, "%s: %s has no device \"%s\" (%s)\n", prog, t->path, spec, list);
	return 2;
}
