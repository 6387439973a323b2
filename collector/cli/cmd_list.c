// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * seekscope list: the block devices record -d can trace (capture/blockdev_list.c), as a table
 * or one JSON object, and whether recording is possible here (tracecap's check).  Parse
 * (list_args.c) -> enumerate -> print.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <tracefs.h>

#include "blockdev_list.h"
#include "commands.h"
#include "fsprobe.h"
#include "json.h"
#include "list_args.h"
#include "tracecap.h"

#define PROG "seekscope list"

/* 512-byte SECTORS as "931.5 GiB" into BUF. */
static void human(uint64_t sectors, char *buf, size_t len)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	double v = (double)sectors * 512;
	int i = 0;

	while (v >= 1024 && i < 5) {
		v /= 1024;
		i++;
	}
	snprintf(buf, len, i ? "%.1f %s" : "%.0f %s", v, unit[i]);
}

/* An unmounted device's filesystem, as blkid finds it ("" when it cannot be read). */
static void probe_fs(struct ss_blockdev_info *d)
{
	struct ss_fsprobe p;
	char node[64];

	if (d->fstype[0])
		return;
	snprintf(node, sizeof(node), "/dev/%.32s", d->name);
	if (ss_fsprobe_path(node, &p) == 0) {
		snprintf(d->fstype, sizeof(d->fstype), "%s", p.fstype);
		ss_fsprobe_release(&p);
	}
}

static void print_table(const struct ss_blockdev_info *v, size_t n)
{
	printf("%-14s %-9s %10s %-3s %-2s %-8s %-24s %s\n", "NAME", "MAJ:MIN", "SIZE", "ROT",
	       "RO", "FSTYPE", "MOUNTPOINT", "MODEL/FILE");
	for (size_t i = 0; i < n; i++) {
		const struct ss_blockdev_info *d = &v[i];
		char size[32], num[24], name[40];

		human(d->nr_sectors, size, sizeof(size));
		snprintf(num, sizeof(num), "%u:%u", d->major, d->minor);
		snprintf(name, sizeof(name), "%s%s", d->partition ? "  " : "", d->name);
		printf("%-14s %-9s %10s %-3s %-2s %-8s %-24s %s\n", name, num, size,
		       d->rotational ? "yes" : "no", d->read_only ? "ro" : "-",
		       d->fstype[0] ? d->fstype : "-", d->mount[0] ? d->mount : "-",
		       d->backing[0] ? d->backing : d->model[0] ? d->model : "-");
	}
}

/* What recording here needs, as found: root, tracefs, lockdown. */
struct here {
	bool possible, root;
	char reason[512];
	const char *tracefs;        /* its directory, NULL if not mounted (nor mountable) */
	char lockdown[32];          /* "" where the kernel has none */
};

static int print_json(const struct ss_blockdev_info *v, size_t n, const struct here *h)
{
	struct ss_json j;

	ss_json_init(&j, stdout);
	ss_json_begin_object(&j);
	ss_json_kv_bool(&j, "recording_possible", h->possible);
	ss_json_kv_string(&j, "reason", h->possible ? NULL : h->reason);
	ss_json_kv_bool(&j, "root", h->root);
	ss_json_kv_string(&j, "tracefs", h->tracefs);
	ss_json_kv_string(&j, "lockdown", h->lockdown[0] ? h->lockdown : NULL);
	ss_json_key(&j, "devices");
	ss_json_begin_array(&j);
	for (size_t i = 0; i < n; i++) {
		const struct ss_blockdev_info *d = &v[i];

		ss_json_begin_object(&j);
		ss_json_kv_string(&j, "name", d->name);
		ss_json_kv_string(&j, "disk", d->disk);
		ss_json_kv_double(&j, "major", d->major);
		ss_json_kv_double(&j, "minor", d->minor);
		ss_json_kv_double(&j, "sectors", (double)d->nr_sectors);
		ss_json_kv_double(&j, "bytes", (double)d->nr_sectors * 512);
		ss_json_kv_bool(&j, "partition", d->partition);
		ss_json_kv_bool(&j, "rotational", d->rotational);
		ss_json_kv_bool(&j, "read_only", d->read_only);
		ss_json_kv_string(&j, "fstype", d->fstype[0] ? d->fstype : NULL);
		ss_json_kv_string(&j, "mountpoint", d->mount[0] ? d->mount : NULL);
		ss_json_kv_string(&j, "model", d->model[0] ? d->model : NULL);
		ss_json_kv_string(&j, "backing_file", d->backing[0] ? d->backing : NULL);
		ss_json_end_object(&j);
	}
	ss_json_end_array(&j);
	ss_json_end_object(&j);
	fputc('\n', stdout);
	return ss_json_finish(&j);
}

int ss_cmd_list(int argc, char **argv)
{
	struct ss_list_args a;
	struct ss_blockdev_info *v = NULL;
	struct here h = { .root = geteuid() == 0 };
	char err[512];
	size_t n = 0;
	int ret;

	if ((ret = ss_list_parse(argc, argv, &a, err, sizeof(err))))
		return ss_optable_exit(ret, "list", &ss_list_help, err);
	if ((ret = ss_blockdev_list("/sys", "/proc/self/mountinfo", &v, &n, err, sizeof(err)))) {
		fprintf(stderr, PROG ": %s\n", err);
		return 1;
	}
	h.possible = ss_tracecap_check(h.reason, sizeof(h.reason)) == 0;
	h.tracefs = tracefs_tracing_dir();
	ss_tracecap_lockdown(h.lockdown, sizeof(h.lockdown));
	for (size_t i = 0; i < n; i++)
		probe_fs(&v[i]);
	if (a.json) {
		ret = print_json(v, n, &h);
	} else {
		printf("recording here: %s%s\n", h.possible ? "possible" : "not possible: ",
		       h.possible ? "" : h.reason);
		printf("  %s, tracefs %s, kernel lockdown %s\n", h.root ? "root" : "not root",
		       h.tracefs ? h.tracefs : "not mounted", h.lockdown[0] ? h.lockdown : "absent");
		print_table(v, n);
		ret = 0;
	}
	free(v);
	if (fflush(stdout) || ferror(stdout) || ret) {
		fprintf(stderr, PROG ": writing the list: %s\n", strerror(errno ? errno : EIO));
		return 1;
	}
	return 0;
}
