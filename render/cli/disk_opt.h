// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The --disk MODEL|FILE option that report and plot share: its help line and its parse into
 * disk model parameters (diskmodel.h), with the model's one-line refusal prefixed by the
 * option.  Nothing here prints.
 */
#ifndef SS_DISK_OPT_H
#define SS_DISK_OPT_H

#include <stddef.h>

#include "diskmodel.h"

#define SS_DISK_OPT_ARG "MODEL"
#define SS_DISK_OPT_HELP                                                                    \
	"replay each device's issued requests through a disk\n"                             \
	"model: hdd7200, hdd5400, hdd15k or ssd, with\n"                                    \
	"overrides (hdd7200,wcache=on), or a parameter\n"                                   \
	"file (docs/disk-model.md)"

/* ARG into *P: 0, or -EINVAL with "--disk: <why, listing what is valid>" in ERR. */
int ss_disk_opt_parse(const char *arg, struct ss_disk_params *p, char *err, size_t errlen);

#endif
