// SPDX-License-Identifier: GPL-2.0-or-later
/* The value parsers of the options several render commands share (render_args.h). */
#include <errno.h>
#include <string.h>

#include "groups.h"
#include "render_args.h"

_Static_assert(SS_SEEK_THRESHOLD_DEFAULT == 128, "SS_OPTION_SEEK_THRESHOLD's help names 128");

int ss_parse_seek_threshold(const char *s, uint64_t *sectors)
{
	return ss_optarg_sectors(s, strlen(s), SS_SEEK_THRESHOLD_MAX, sectors) ? -EINVAL : 0;
}

int ss_parse_processes(const char *s, unsigned *n)
{
	return ss_optarg_unsigned(s, 0, SS_PROCESSES_MAX, n) ? -EINVAL : 0;
}

int ss_parse_groups(const char *s, unsigned *n)
{
	if (ss_parse_processes(s, n))
		return -EINVAL;
	/* as many as there are colours: all (0) and more are the palette's */
	if (!*n || *n > SS_GROUPS_MAX)
		*n = SS_GROUPS_MAX;
	return 0;
}
