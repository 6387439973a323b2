// SPDX-License-Identifier: GPL-2.0-or-later
/* seekscope list's command line (list_args.h): the option table, also the source of --help. */
#include <errno.h>
#include <string.h>

#include "errbuf.h"
#include "list_args.h"

static const struct ss_option options[] = {
	{ "json", 'j', NULL, "one JSON object: recording_possible, reason, root, tracefs,\n"
			     "lockdown and devices[]" },
	SS_OPTION_HELP,
	SS_OPTION_VERSION,
};

const struct ss_help ss_list_help = {
	.usage = "seekscope list [-j]",
	.description =
		"List the block devices of this machine that record -d can trace: whole disks\n"
		"and their partitions, with MAJ:MIN, size, rotational (ROT), read-only (RO),\n"
		"the mounted filesystem and its mount point (else the filesystem blkid finds,\n"
		"when readable), and the disk's model or a loop device's backing file.  Devices\n"
		"without a size (unbound loop devices, empty drives) are left out.  The first\n"
		"line says whether recording is possible here: root, tracefs mounted or\n"
		"mountable, no kernel lockdown refusing it; the second what was found.\n"
		"Requests are traced on whole disks: -d with a partition or a path traces\n"
		"its disk, at the partition's offset; -d with a disk image names the loop\n"
		"device it is attached to.\n"
		"Sizes are binary (KiB, MiB, GiB = 2^10, 2^20, 2^30 bytes).",
	.opts = options,
	.nr_opts = SS_NR_OPTIONS(options),
	.sections =
		"EXIT STATUS:\n"
		"  0 listed (also when recording is not possible here), 1 sysfs could not be\n"
		"  read, 2 usage error.",
	.examples =
		"  seekscope list\n"
		"  seekscope list --json | python3 -m json.tool",
};

static int take_option(void *ctx, int c, const char *arg, char *err, size_t errlen)
{
	struct ss_list_args *a = ctx;

	(void)arg;
	if (c == 'j') {
		a->json = true;
		return 0;
	}
	return ss_optable_unhandled(c, err, errlen);
}

int ss_list_parse(int argc, char **argv, struct ss_list_args *a, char *err, size_t errlen)
{
	int ret;

	memset(a, 0, sizeof(*a));
	ret = ss_optable_parse(options, SS_NR_OPTIONS(options), 0, argc, argv, take_option, a, err,
			       errlen);
	if (ret)
		return ret;
	if (optind < argc) {
		ss_errf(err, errlen, "unexpected argument '%s'", argv[optind]);
		return -EINVAL;
	}
	return 0;
}
