// SPDX-License-Identifier: GPL-2.0-or-later
/* Is a CPU free for a second thread (cpus.h)?  One read of /proc/loadavg. */
#include <stdio.h>
#include <unistd.h>

#include "cpus.h"

bool ss_cpu_free(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	double l1, l5, l15;
	long running, total;
	FILE *f;
	int n;

	if (cpus < 2 || !(f = fopen("/proc/loadavg", "re")))
		return false;
	n = fscanf(f, "%lf %lf %lf %ld/%ld", &l1, &l5, &l15, &running, &total);
	fclose(f);
	/* running counts the caller: the others leave a CPU if running - 1 <= cpus - 2 */
	return n == 5 && running < cpus;
}
