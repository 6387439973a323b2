// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Which zone a sector belongs to (include/seekscope/model.h: ss_zone_wins): a specific
 * structure (ext4 journal, XFS log, inode table) wins over the container it lies in (group,
 * AG) even when both are the same size — an ext4 journal is exactly one block group on an
 * 8 GiB filesystem with default options — and otherwise the smaller zone wins, the first in
 * file order on ties.  Checked through both lookups: the trace reader's ss_trace_zone_at() and
 * the analysis' zone index, on a trace written to a scratch directory.
 */
#include "tap.h"
#include "testdir.h"
#include "seekscope/model.h"
#include "trace_read.h"
#include "trace_write.h"
#include "zone_index.h"

#define DEV SS_MKDEV(7, 9)

static struct ss_rec_zone zone(uint32_t kind, uint32_t index, uint64_t start, uint64_t n,
			       const char *label)
{
	struct ss_rec_zone z = { .dev = DEV, .kind = kind, .index = index, .start_sector = start,
				 .nr_sectors = n };

	snprintf(z.label, sizeof(z.label), "%s", label);
	return z;
}

int main(void)
{
	/* group 0 and 1 of 262144 sectors; the journal is all of group 1 (listed after it); an
	 * inode table inside group 0; a second, smaller "group" overlapping the table */
	struct ss_rec_zone zones[] = {
		zone(SS_ZONE_GROUP, 0, 0, 262144, "group0"),
		zone(SS_ZONE_GROUP, 1, 262144, 262144, "group1"),
		zone(SS_ZONE_JOURNAL, 0, 262144, 262144, "journal"),
		zone(SS_ZONE_INODE_TABLE, 0, 1024, 4096, "itable0"),
		zone(SS_ZONE_AG, 0, 0, 2048, "tiny-ag"),
	};
	struct { uint64_t sector; const char *want; } probes[] = {
		{ 0, "tiny-ag" },            /* two containers: the smaller */
		{ 1024, "itable0" },         /* a table beats a smaller container */
		{ 3000, "itable0" },
		{ 6000, "group0" },
		{ 262144, "journal" },       /* journal == group1 in size: the journal */
		{ 400000, "journal" },
		{ 524287, "journal" },
		{ 524288, NULL },
	};
	struct ss_rec_device d = { .dev = DEV, .major = 7, .minor = 9, .logical_block_size = 512,
				   .nr_sectors = 524288, .part_nr_sectors = 524288 };
	struct ss_zone_index *zi;
	struct ss_writer *w;
	struct ss_trace *t;
	char err[256];

	ok(ss_zone_wins(&zones[2], &zones[1]) && !ss_zone_wins(&zones[1], &zones[2]),
	   "journal wins over a group of the same size, in either order");
	ok(!ss_zone_wins(&zones[0], &zones[0]), "a zone does not win over its equal (ties keep the first)");
	ok(ss_zone_wins(&zones[4], &zones[0]), "between containers the smaller wins");
	ok(ss_zone_wins(&zones[3], &zones[4]), "an inode table wins over a smaller container");

	if (testdir_make("zones"))
		return 1;
	w = ss_writer_open(tpath("z.sst"), SS_OUT_INPLACE, err, sizeof(err));
	ok(w != NULL, "trace created");
	if (!w)
		return done_testing();
	ss_writer_device(w, &d);
	for (size_t i = 0; i < sizeof(zones) / sizeof(zones[0]); i++)
		ss_writer_zone(w, &zones[i]);
	is_int(ss_writer_close(w), 0, "trace written");
	t = ss_trace_open(tpath("z.sst"), err, sizeof(err));
	ok(t != NULL, "trace opened");
	if (!t)
		return done_testing();
	zi = ss_zone_index_new(t->zones, t->nr_zones);
	ok(zi != NULL, "zone index built");
	for (size_t i = 0; zi && i < sizeof(probes) / sizeof(probes[0]); i++) {
		const struct ss_rec_zone *z = ss_trace_zone_at(t, DEV, probes[i].sector);
		long k = ss_zone_index_find(zi, DEV, probes[i].sector);

		if (!probes[i].want) {
			ok(z == NULL, "reader: sector %" PRIu64 " is in no zone", probes[i].sector);
			ok(k < 0, "index: sector %" PRIu64 " is in no zone", probes[i].sector);
			continue;
		}
		{
			const char *want = probes[i].want;

			is_str(z ? z->label : "(none)", want, "reader: sector %" PRIu64 " is in %s",
			       probes[i].sector, want);
			is_str(k >= 0 ? t->zones[k].label : "(none)", want,
			       "index: sector %" PRIu64 " is in %s", probes[i].sector, want);
		}
	}
	ss_zone_index_free(zi);
	ss_trace_close(t);
	return done_testing();
}
