// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Filesystem probe: the XFS geometry arithmetic on hand-made superblocks, then real XFS and
 * ext2/3/4 images (sparse files, no root, no loop device) made with mkfs and compared with what
 * the filesystems' own tools say: xfs_db's "convert" for sector addresses, dumpe2fs for groups
 * and inode tables, debugfs for the journal's blocks.  Also hostile and non-filesystem inputs.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>

#include "tap.h"
#include "testdir.h"
#include "fsprobe.h"

__attribute__((format(printf, 1, 2)))
static int run(const char *fmt, ...)
{
	char cmd[1024], full[1100];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(cmd))
		return -1;
	snprintf(full, sizeof(full), "{ %s; } >/dev/null 2>&1", cmd);
	return system(full);
}

/* Standard output of a shell command, malloc'd (NULL on failure). */
__attribute__((format(printf, 1, 2)))
static char *capture(const char *fmt, ...)
{
	char cmd[4096], full[4200], *buf = NULL;
	size_t len = 0, cap = 0;
	va_list ap;
	FILE *f;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(cmd))
		return NULL;
	snprintf(full, sizeof(full), "{ %s; } 2>/dev/null", cmd);
	f = popen(full, "r");
	if (!f)
		return NULL;
	for (;;) {
		if (cap - len < 4096) {
			char *nb = realloc(buf, cap + 65536);

			if (!nb)
				break;
			buf = nb;
			cap += 65536;
		}
		size_t got = fread(buf + len, 1, cap - len - 1, f);

		if (!got)
			break;
		len += got;
	}
	if (buf)
		buf[len] = '\0';
	if (pclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* "key = value" from xfs_db's print output. */
static int db_field(const char *text, const char *key, uint64_t *v)
{
	size_t kl = strlen(key);

	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL)
		if (!strncmp(l, key, kl) && !strncmp(l + kl, " = ", 3))
			return sscanf(l + kl + 3, "%" SCNu64, v) == 1 ? 0 : -1;
	return -1;
}

static const struct ss_rec_zone *find_zone(const struct ss_fsprobe *p, uint32_t kind, uint32_t idx)
{
	for (size_t i = 0; i < p->nr_zones; i++)
		if (p->zones[i].kind == kind && p->zones[i].index == idx)
			return &p->zones[i];
	return NULL;
}

static size_t count_kind(const struct ss_fsprobe *p, uint32_t kind)
{
	size_t n = 0;

	for (size_t i = 0; i < p->nr_zones; i++)
		n += p->zones[i].kind == kind;
	return n;
}

/* ---- XFS arithmetic on hand-made geometries ---- */

static void check_zone(const struct ss_rec_zone *z, uint32_t kind, uint64_t start, uint64_t nr,
		       const char *label, const char *what)
{
	if (!ok(z != NULL, "%s exists", what))
		return;
	is_int(z->kind, kind, "%s kind", what);
	is_int(z->start_sector, start, "%s starts at sector %" PRIu64, what, start);
	is_int(z->nr_sectors, nr, "%s is %" PRIu64 " sectors", what, nr);
	is_str(z->label, label, "%s label", what);
}

static void test_xfs_arith(void)
{
	struct ss_rec_zone *z = NULL;
	size_t nr = 0;

	/* agcount=1 (as mkfs.xfs --unsupported -d agcount=1 makes a 2G fs): log at fsblock 6. */
	struct ss_xfs_geom g1 = { .blocksize = 4096, .dblocks = 524288, .agblocks = 524288,
				  .agcount = 1, .agblklog = 19, .logstart = 6, .logblocks = 16384 };
	is_int(ss_xfs_zones(&g1, &z, &nr), 0, "agcount=1: zones");
	is_int(nr, 2, "agcount=1: one AG and the log");
	if (nr == 2) {
		check_zone(&z[0], SS_ZONE_AG, 0, 4194304, "AG0", "agcount=1 AG0");
		check_zone(&z[1], SS_ZONE_LOG, 48, 131072, "log", "agcount=1 log");
	}
	free(z);

	/* agcount=4, power-of-two agblocks: the naive logstart*8 happens to be right here. */
	struct ss_xfs_geom g4 = { .blocksize = 4096, .dblocks = 524288, .agblocks = 131072,
				  .agcount = 4, .agblklog = 17, .logstart = 262150,
				  .logblocks = 16384 };
	z = NULL;
	is_int(ss_xfs_zones(&g4, &z, &nr), 0, "agcount=4: zones");
	is_int(nr, 5, "agcount=4: four AGs and the log");
	if (nr == 5) {
		check_zone(&z[3], SS_ZONE_AG, 3145728, 1048576, "AG3", "agcount=4 AG3");
		check_zone(&z[4], SS_ZONE_LOG, 2097200, 131072, "log", "agcount=4 log in AG2");
	}
	free(z);

	/*
	 * agcount=5 on 2 GiB: agblocks 104858 is not a power of two, the last AG is 2 blocks
	 * short and the log is in AG2 at agbno 6: fsblock 262150 = 2<<17 | 6 is linear block
	 * 2*104858+6 = 209722, sector 1677776 — not 262150*8 = 2097200.
	 */
	struct ss_xfs_geom g5 = { .blocksize = 4096, .dblocks = 524288, .agblocks = 104858,
				  .agcount = 5, .agblklog = 17, .logstart = 262150,
				  .logblocks = 16384 };
	static const uint64_t starts5[] = { 0, 838864, 1677728, 2516592, 3355456 };
	z = NULL;
	is_int(ss_xfs_zones(&g5, &z, &nr), 0, "agcount=5: zones");
	is_int(nr, 6, "agcount=5: five AGs and the log");
	if (nr == 6) {
		for (uint32_t i = 0; i < 5; i++) {
			char what[32], label[8];

			snprintf(what, sizeof(what), "agcount=5 AG%u", i);
			snprintf(label, sizeof(label), "AG%u", i);
			check_zone(&z[i], SS_ZONE_AG, starts5[i], i < 4 ? 838864 : 838848, label,
				   what);
		}
		check_zone(&z[5], SS_ZONE_LOG, 1677776, 131072, "log", "agcount=5 log");
		ok(z[5].start_sector != g5.logstart * 8, "agcount=5 log is not at logstart*8");
	}
	free(z);

	/* 512-byte blocks, short last AG (500 of 1000 blocks), log at the end of AG1. */
	struct ss_xfs_geom gs = { .blocksize = 512, .dblocks = 2500, .agblocks = 1000,
				  .agcount = 3, .agblklog = 10, .logstart = (1 << 10) | 900,
				  .logblocks = 100 };
	z = NULL;
	is_int(ss_xfs_zones(&gs, &z, &nr), 0, "short last AG: zones");
	if (is_int(nr, 4, "short last AG: three AGs and the log")) {
		check_zone(&z[2], SS_ZONE_AG, 2000, 500, "AG2", "short last AG AG2");
		check_zone(&z[3], SS_ZONE_LOG, 1900, 100, "log", "short last AG log");
	}
	free(z);

	/* External log: no log zone. */
	struct ss_xfs_geom ge = g5;
	ge.logstart = 0;
	z = NULL;
	is_int(ss_xfs_zones(&ge, &z, &nr), 0, "external log: zones");
	is_int(nr, 5, "external log: AGs only");
	ok(nr == 5 && count_kind(&(struct ss_fsprobe){ .zones = z, .nr_zones = nr },
				 SS_ZONE_LOG) == 0, "external log: no log zone");
	free(z);

	/* Inconsistent geometries: each fails with -EUCLEAN and allocates nothing. */
	struct { const char *what; struct ss_xfs_geom g; } bad[] = {
		{ "agcount 0", { 4096, 524288, 104858, 0, 17, 0, 0 } },
		{ "agblocks 0", { 4096, 524288, 0, 5, 17, 0, 0 } },
		{ "blocksize 3000", { 3000, 524288, 104858, 5, 17, 0, 0 } },
		{ "blocksize 256", { 256, 524288, 104858, 5, 17, 0, 0 } },
		{ "blocksize 128K", { 131072, 524288, 104858, 5, 17, 0, 0 } },
		{ "dblocks > agcount*agblocks", { 4096, 524291, 104858, 5, 17, 0, 0 } },
		{ "dblocks leaves last AG empty", { 4096, 419432, 104858, 5, 17, 0, 0 } },
		{ "agblklog 16 for 104858", { 4096, 524288, 104858, 5, 16, 0, 0 } },
		{ "agblklog 18 for 104858", { 4096, 524288, 104858, 5, 18, 0, 0 } },
		{ "log in AG 5 of 5", { 4096, 524288, 104858, 5, 17, 5ull << 17, 16 } },
		{ "log agbno past agblocks", { 4096, 524288, 104858, 5, 17, (2 << 17) | 110000, 16 } },
		{ "log runs off its AG", { 4096, 524288, 104858, 5, 17, (2 << 17) | 100000, 16384 } },
		{ "log of 0 blocks", { 4096, 524288, 104858, 5, 17, 262150, 0 } },
		/* Consistent but 2^31 AGs: the zone cap refuses it before allocating 128 GiB. */
		{ "agcount 2^31-1", { 4096, 0x7fffffff, 1, 0x7fffffff, 0, 0, 0 } },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		z = NULL;
		nr = 12345;
		is_int(ss_xfs_zones(&bad[i].g, &z, &nr), -EUCLEAN, "%s: -EUCLEAN", bad[i].what);
		ok(z == NULL && nr == 12345, "%s: nothing returned", bad[i].what);
	}
}

/* ---- real XFS images, compared with xfs_db ---- */

static void test_xfs_image(const char *name, const char *opts)
{
	TP(img, "%s", name);
	struct ss_fsprobe p;
	uint64_t agcount, agblocks, dblocks, logstart, logblocks, blocksize;
	char *sb = NULL, *conv = NULL, cmd[2048];
	size_t off;
	int ret;

	if (run("truncate -s 2G %s && mkfs.xfs -q -f %s %s", img, opts, img)) {
		ok(0, "mkfs.xfs %s", opts);
		goto out;
	}
	sb = capture("xfs_db -r -c 'sb 0' -c 'p agcount agblocks dblocks logstart logblocks "
		     "blocksize' %s", img);
	if (!ok(sb && !db_field(sb, "agcount", &agcount) && !db_field(sb, "agblocks", &agblocks) &&
		!db_field(sb, "dblocks", &dblocks) && !db_field(sb, "logstart", &logstart) &&
		!db_field(sb, "logblocks", &logblocks) && !db_field(sb, "blocksize", &blocksize) &&
		agcount > 0 && agcount <= 16 && logstart, "%s: xfs_db reads the superblock", opts))
		goto out;
	/* Ground truth for every AG start and the log start: xfs_db's own daddr conversion. */
	off = (size_t)snprintf(cmd, sizeof(cmd), "xfs_db -r");
	for (uint64_t i = 0; i < agcount; i++)
		off += (size_t)snprintf(cmd + off, sizeof(cmd) - off,
					" -c 'convert agno %" PRIu64 " agbno 0 daddr'", i);
	snprintf(cmd + off, sizeof(cmd) - off, " -c 'convert fsblock %" PRIu64 " daddr' %s",
		 logstart, img);
	conv = capture("%s", cmd);

	ret = ss_fsprobe_path(img, &p);
	is_int(ret, 0, "%s: probe", opts);
	is_str(p.fstype, "xfs", "%s: fstype", opts);
	is_int(p.block_size, blocksize, "%s: block size %" PRIu64, opts, blocksize);
	is_int(p.nr_zones, agcount + 1, "%s: %" PRIu64 " AGs and the log", opts, agcount);
	const char *l = conv;
	for (uint64_t i = 0; i <= agcount && l; i++, l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		uint64_t daddr, len;
		const struct ss_rec_zone *z = i < agcount ? find_zone(&p, SS_ZONE_AG, (uint32_t)i)
							  : find_zone(&p, SS_ZONE_LOG, 0);
		char what[96], label[24];

		if (i < agcount) {
			len = i + 1 < agcount ? agblocks : dblocks - (agcount - 1) * agblocks;
			snprintf(label, sizeof(label), "AG%" PRIu64, i);
		} else {
			len = logblocks;
			snprintf(label, sizeof(label), "log");
		}
		snprintf(what, sizeof(what), "%s: %s", opts, label);
		if (!ok(sscanf(l, "%*s (%" SCNu64 ")", &daddr) == 1, "%s: xfs_db convert", what))
			break;
		check_zone(z, i < agcount ? SS_ZONE_AG : SS_ZONE_LOG, daddr, len * blocksize / 512,
			   label, what);
	}
	const struct ss_rec_zone *last = find_zone(&p, SS_ZONE_AG, (uint32_t)agcount - 1);
	ok(last && last->start_sector + last->nr_sectors == 2ull << 30 >> 9,
	   "%s: last AG ends at the end of the 2 GiB image", opts);
	ss_fsprobe_release(&p);
out:
	free(sb);
	free(conv);
}

/* Hostile XFS superblocks in a sparse copy of IMG: each must fail with -EUCLEAN. */
static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static void test_xfs_corrupt(const char *src)
{
	TP(img, "xfs-corrupt");
	uint8_t orig[512], sb[512];
	struct ss_fsprobe p;
	int fd;

	if (run("cp --sparse=always %s %s", src, img) ||
	    (fd = open(img, O_RDWR)) < 0) {
		ok(0, "copy the XFS image");
		return;
	}
	ok(pread(fd, orig, sizeof(orig), 0) == (ssize_t)sizeof(orig), "read its superblock");

	memcpy(sb, orig, sizeof(sb));
	put_be32(sb + 88, 0x7fffffff);                        /* sb_agcount */
	ok(pwrite(fd, sb, sizeof(sb), 0) == (ssize_t)sizeof(sb), "patch agcount to 2^31-1");
	is_int(ss_fsprobe_path(img, &p), -EUCLEAN, "agcount 2^31-1: -EUCLEAN");
	ok(p.zones == NULL && p.nr_zones == 0, "agcount 2^31-1: no zones");
	ss_fsprobe_release(&p);

	/* Self-consistent geometry, but 2^31 AGs of 16 blocks = 32 TiB on a 2 GiB file. */
	memcpy(sb, orig, sizeof(sb));
	put_be32(sb + 8, 0x7);                                /* sb_dblocks = 0x7fffffff0 */
	put_be32(sb + 12, 0xfffffff0);
	memset(sb + 48, 0, 8);                                /* sb_logstart: external */
	put_be32(sb + 84, 16);                                /* sb_agblocks */
	put_be32(sb + 88, 0x7fffffff);                        /* sb_agcount */
	sb[124] = 4;                                          /* sb_agblklog */
	ok(pwrite(fd, sb, sizeof(sb), 0) == (ssize_t)sizeof(sb), "patch a 32 TiB geometry");
	is_int(ss_fsprobe_path(img, &p), -EUCLEAN, "filesystem larger than its file: -EUCLEAN");
	ss_fsprobe_release(&p);

	/* Geometry untouched, one byte of sb_fname changed: only the v5 CRC can tell. */
	memcpy(sb, orig, sizeof(sb));
	sb[108] ^= 0x20;
	ok(pwrite(fd, sb, sizeof(sb), 0) == (ssize_t)sizeof(sb), "patch sb_fname");
	is_int(ss_fsprobe_path(img, &p), -EUCLEAN, "superblock CRC mismatch: -EUCLEAN");
	ss_fsprobe_release(&p);

	/* And the copy itself was fine: restoring the superblock makes it probe again. */
	ok(pwrite(fd, orig, sizeof(orig), 0) == (ssize_t)sizeof(orig), "restore the superblock");
	is_int(ss_fsprobe_path(img, &p), 0, "restored copy probes");
	is_int(p.nr_zones, 5, "restored copy: 4 AGs and the log");
	ss_fsprobe_release(&p);
	close(fd);
	unlink(img);
}

/* ---- ext2/3/4 images, compared with dumpe2fs and debugfs ---- */

struct extent { uint64_t start, end; uint32_t first, last; };   /* blocks [start, end] */

static size_t merge(struct extent *e, size_t n, uint64_t start, uint64_t end, uint32_t idx)
{
	if (n && e[n - 1].end + 1 == start) {
		e[n - 1].end = end;
		e[n - 1].last = idx;
		return n;
	}
	e[n] = (struct extent){ start, end, idx, idx };
	return n + 1;
}

/* Compare the zones of KIND in P with EXP (blocks of BS bytes) and their labels. */
static void compare_kind(const struct ss_fsprobe *p, uint32_t kind, const struct extent *exp,
			 size_t n, uint64_t bs, const char *fmt1, const char *fmt2, const char *what)
{
	static const char *names[] = { [SS_ZONE_GROUP] = "group", [SS_ZONE_INODE_TABLE] = "itable",
				       [SS_ZONE_JOURNAL] = "journal" };
	size_t bad = n, got = count_kind(p, kind);
	char label[32];

	is_int(got, n, "%s: %zu %s zones", what, n, names[kind]);
	for (size_t i = 0; i < n && i < got && bad == n; i++) {
		const struct ss_rec_zone *z = find_zone(p, kind, kind == SS_ZONE_INODE_TABLE ?
							exp[i].first : (uint32_t)i);

		if (exp[i].first == exp[i].last || !fmt2)
			snprintf(label, sizeof(label), fmt1, exp[i].first);
		else
			snprintf(label, sizeof(label), fmt2, exp[i].first, exp[i].last);
		if (!z || z->start_sector != exp[i].start * bs / 512 ||
		    z->nr_sectors != (exp[i].end - exp[i].start + 1) * bs / 512 ||
		    strcmp(z->label, label))
			bad = i;
	}
	if (!ok(bad == n, "%s: %s zones match (first blocks %" PRIu64 "-%" PRIu64 ", last %"
		PRIu64 "-%" PRIu64 ")", what, names[kind], n ? exp[0].start : 0, n ? exp[0].end : 0,
		n ? exp[n - 1].start : 0, n ? exp[n - 1].end : 0))
		printf("#   first mismatch at #%zu (%" PRIu64 "-%" PRIu64 ")\n", bad,
		       exp[bad].start, exp[bad].end);
}

#define MAX_GROUPS 1024

static void test_ext_image(const char *name, const char *mkfs, const char *size,
			   const char *fstype, int want_flex)
{
	TP(img, "%s", name);
	struct extent *grp = calloc(MAX_GROUPS, sizeof(*grp));
	struct extent *itab = calloc(MAX_GROUPS, sizeof(*itab));
	struct extent *jnl = calloc(65536, sizeof(*jnl));
	size_t ngroups = 0, nitab = 0, njnl = 0, nzone;
	uint64_t bs = 0, flex = 1, jino = 0, a, b;
	char *dump = NULL, *blocks = NULL;
	struct ss_fsprobe p;
	unsigned g;

	if (!grp || !itab || !jnl || run("%s %s %s", mkfs, img, size)) {
		ok(0, "%s", mkfs);
		goto out;
	}
	dump = capture("dumpe2fs %s", img);
	for (const char *l = dump; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		sscanf(l, "Block size: %" SCNu64, &bs);
		sscanf(l, "Flex block group size: %" SCNu64, &flex);
		sscanf(l, "Journal inode: %" SCNu64, &jino);
		if (sscanf(l, "Group %u: (Blocks %" SCNu64 "-%" SCNu64, &g, &a, &b) == 3 &&
		    g == ngroups && ngroups < MAX_GROUPS)
			grp[ngroups++] = (struct extent){ a, b, g, g };
		if (sscanf(l, " Inode table at %" SCNu64 "-%" SCNu64, &a, &b) == 2 && ngroups)
			nitab = merge(itab, nitab, a, b, (uint32_t)ngroups - 1);
	}
	if (!ok(bs && ngroups && nitab, "%s: dumpe2fs shows %zu groups of %" PRIu64 "-byte blocks",
		name, ngroups, bs))
		goto out;
	if (jino) {
		blocks = capture("debugfs -R 'blocks <%" PRIu64 ">' %s", jino, img);
		for (char *t = blocks ? strtok(blocks, " \n") : NULL; t && njnl < 65536;
		     t = strtok(NULL, " \n"))
			njnl = merge(jnl, njnl, strtoull(t, NULL, 10), strtoull(t, NULL, 10),
				     (uint32_t)njnl);
		ok(njnl > 0, "%s: debugfs lists the journal's blocks", name);
	}

	is_int(ss_fsprobe_path(img, &p), 0, "%s: probe", name);
	is_str(p.fstype, fstype, "%s: fstype", name);
	is_int(p.block_size, bs, "%s: block size", name);
	ok(grp[ngroups - 1].end - grp[ngroups - 1].start < grp[1].end - grp[1].start,
	   "%s: last group is short (%" PRIu64 "-%" PRIu64 ")", name,
	   grp[ngroups - 1].start, grp[ngroups - 1].end);
	if (want_flex) {
		/* Many groups: the probe reports flex groups; fold dumpe2fs's groups the same way. */
		ok(ngroups > 256 && flex > 1, "%s: %zu groups, flex size %" PRIu64, name, ngroups,
		   flex);
		nzone = 0;
		for (size_t i = 0; i < ngroups; i += flex, nzone++) {
			size_t last = i + flex - 1 < ngroups ? i + flex - 1 : ngroups - 1;

			grp[nzone] = (struct extent){ grp[i].start, grp[last].end,
						      (uint32_t)nzone, (uint32_t)nzone };
		}
		compare_kind(&p, SS_ZONE_GROUP, grp, nzone, bs, "flex %u", NULL, name);
	} else {
		compare_kind(&p, SS_ZONE_GROUP, grp, ngroups, bs, "group %u", NULL, name);
	}
	compare_kind(&p, SS_ZONE_INODE_TABLE, itab, nitab, bs, "itable %u", "itable %u-%u", name);
	for (size_t i = 0; i < njnl; i++)
		jnl[i].first = jnl[i].last = (uint32_t)i;
	compare_kind(&p, SS_ZONE_JOURNAL, jnl, njnl, bs, "journal", NULL, name);
	ss_fsprobe_release(&p);
out:
	free(grp);
	free(itab);
	free(jnl);
	free(dump);
	free(blocks);
}

/* An ext superblock claiming more blocks than the file holds: refused before libext2fs. */
static void test_ext_corrupt(const char *img)
{
	uint8_t orig[4], huge[4] = { 0xff, 0xff, 0xff, 0xff };
	struct ss_fsprobe p;
	int fd = open(img, O_RDWR);

	if (!ok(fd >= 0 && pread(fd, orig, 4, 1024 + 4) == 4, "open the ext3 image"))
		goto out;
	ok(pwrite(fd, huge, 4, 1024 + 4) == 4, "patch s_blocks_count to 2^32-1");
	is_int(ss_fsprobe_path(img, &p), -EUCLEAN, "ext3 larger than its file: -EUCLEAN");
	ok(p.nr_zones == 0 && !p.zones, "ext3 larger than its file: no zones");
	ok(pwrite(fd, orig, 4, 1024 + 4) == 4, "restore s_blocks_count");
	is_int(ss_fsprobe_path(img, &p), 0, "restored ext3 probes");
	ss_fsprobe_release(&p);
out:
	if (fd >= 0)
		close(fd);
}

/*
 * No loop device means no real external journal (mke2fs wants a block device for -J device=),
 * so make the superblock say so: has_journal, no journal inode, a journal device number.
 * Without the journal feature at all (ext2-style) there is no journal zone either.
 */
static void test_ext_external_journal(const char *img)
{
	struct ss_fsprobe p;

	if (!ok(run("tune2fs -O ^has_journal %s", img) == 0, "drop the journal of %s", img))
		return;
	is_int(ss_fsprobe_path(img, &p), 0, "no journal: probe");
	is_int(count_kind(&p, SS_ZONE_JOURNAL), 0, "no journal: no journal zone");
	is_int(count_kind(&p, SS_ZONE_GROUP), 8, "no journal: still 8 groups");
	ss_fsprobe_release(&p);
	if (!ok(run("debugfs -w -R 'feature has_journal' %s && "
		    "debugfs -w -R 'ssv journal_dev 0x801' %s", img, img) == 0,
		"mark the journal external (device 8:1)"))
		return;
	is_int(ss_fsprobe_path(img, &p), 0, "external journal: probe");
	is_int(count_kind(&p, SS_ZONE_JOURNAL), 0, "external journal: no journal zone");
	is_int(count_kind(&p, SS_ZONE_INODE_TABLE), 8, "external journal: 8 inode tables");
	ss_fsprobe_release(&p);
}

static void test_odd_inputs(void)
{
	TP(zeros, "zeros");
	struct ss_fsprobe p;

	ok(run("truncate -s 64M %s", zeros) == 0, "make a 64 MiB file of zeros");
	is_int(ss_fsprobe_path(zeros, &p), 0, "zeros: no filesystem is not an error");
	is_str(p.fstype, "", "zeros: fstype empty");
	ok(p.nr_zones == 0 && !p.zones, "zeros: no zones");
	ss_fsprobe_release(&p);
	unlink(zeros);

	is_int(ss_fsprobe_path(tpath("no-such-file"), &p), -ENOENT, "missing path: -ENOENT");
	is_int(ss_fsprobe_path(dir, &p), -EISDIR, "directory: -EISDIR");

	/* release frees the zones and leaves a struct that can be released again (a second free
	 * would be caught by the sanitizer and valgrind runs) */
	memset(&p, 0, sizeof(p));
	p.zones = calloc(3, sizeof(*p.zones));
	p.nr_zones = 3;
	ss_fsprobe_release(&p);
	ok(!p.zones && p.nr_zones == 0, "release empties the struct");
	ss_fsprobe_release(&p);
	ss_fsprobe_release(NULL);
	ok(!p.zones && p.nr_zones == 0, "released twice, and NULL: still empty");
}

/*
 * Names blkid gives that are not ours still come back: a swap area (no magic of ours, the full
 * blkid probe) and an ext external journal (ext magic, so only our types and their kin are
 * probed; blkid calls it jbd, which has no zones).
 */
static void test_other_types(void)
{
	TP(swap, "swap");
	TP(jbd, "jbd");
	struct ss_fsprobe p;

	if (ok(run("truncate -s 64M %s && mkswap %s", swap, swap) == 0, "mkswap a 64 MiB file")) {
		is_int(ss_fsprobe_path(swap, &p), 0, "swap: probe");
		is_str(p.fstype, "swap", "swap: blkid's name");
		ok(p.nr_zones == 0 && !p.zones, "swap: no zones");
		ss_fsprobe_release(&p);
	}
	if (ok(run("truncate -s 64M %s && mke2fs -q -F -O journal_dev -b 4096 %s", jbd, jbd) == 0,
	       "mke2fs an external journal")) {
		is_int(ss_fsprobe_path(jbd, &p), 0, "external journal: probe");
		is_str(p.fstype, "jbd", "external journal: blkid's name");
		ok(p.nr_zones == 0 && !p.zones, "external journal: no zones");
		ss_fsprobe_release(&p);
	}
	unlink(swap);
	unlink(jbd);
}

int main(void)
{
	static const char *tools[] = { "mkfs.xfs", "xfs_db", "mkfs.ext4", "mkfs.ext3", "dumpe2fs",
				       "debugfs", "tune2fs", "mkswap", "mke2fs" };

	test_xfs_arith();
	if (testdir_make("fsprobe"))
		return done_testing();
	TP(xfs4, "xfs4");
	TP(ext4_noflex, "ext4-noflex");
	TP(ext3, "ext3");
	test_odd_inputs();

	/* xfsprogs and e2fsprogs: tests/install-deps.sh installs them */
	for (size_t i = 0; i < sizeof(tools) / sizeof(tools[0]); i++)
		if (!have(NEED_CMD, tools[i])) {
			skip_need(1, NEED_CMD, tools[i]);
			return done_testing();
		}
	test_other_types();
	test_xfs_image("xfs4", "-d agcount=4");
	test_xfs_image("xfs1", "--unsupported -d agcount=1");
	test_xfs_image("xfs5", "-d agcount=5");
	test_xfs_image("xfs4-v4", "-m crc=0 -d agcount=4");     /* no CRC to check */
	test_xfs_corrupt(xfs4);
	for (const char *const *n = (const char *const[]){ "xfs1", "xfs4", "xfs5", "xfs4-v4",
							  NULL }; *n; n++)
		unlink(tpath("%s", *n));

	/* 1000M: 7 full groups of 32768 blocks and a short eighth. */
	test_ext_image("ext4", "mkfs.ext4 -q -F", "1000M", "ext4", 0);
	test_ext_image("ext4-noflex", "mkfs.ext4 -q -F -O ^flex_bg", "1000M", "ext4", 0);
	test_ext_external_journal(ext4_noflex);
	test_ext_image("ext3", "mkfs.ext3 -q -F", "1000M", "ext3", 0);
	test_ext_corrupt(ext3);
	/* 513 groups of 1024 1k-blocks (the last one short), flex size 16: 33 flex zones. */
	test_ext_image("ext4-many", "mkfs.ext4 -q -F -b 1024 -g 1024 -N 8192", "513M", "ext4", 1);
	for (const char *const *n = (const char *const[]){ "ext4", "ext4-noflex", "ext3",
							  "ext4-many", NULL }; *n; n++)
		unlink(tpath("%s", *n));
	return done_testing();
}
