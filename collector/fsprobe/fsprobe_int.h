// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Internals shared by the filesystem probe's files (fsprobe.c, fsprobe_xfs.c, fsprobe_ext4.c):
 * a bounded, growable zone array and the per-filesystem entry points.  Not a public interface.
 */
#ifndef SS_FSPROBE_INT_H
#define SS_FSPROBE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "fsprobe.h"

/*
 * Hard cap on the zones one probe may return.  Every count we size arrays from comes off the
 * disk, so a hostile image could otherwise make us allocate gigabytes; 1M zones (64 MiB) is far
 * beyond any real filesystem (an XFS with 1M AGs or an ext4 with 1M flex groups is exabytes).
 */
#define SS_FSPROBE_MAX_ZONES (1u << 20)

struct ss_zone_vec {
	struct ss_rec_zone *v;      /* malloc'd; ownership passes to struct ss_fsprobe on success */
	size_t n, cap;
};

/* Make room for at least WANT zones in total: -EUCLEAN beyond the cap, -ENOMEM. */
int ss_zone_vec_reserve(struct ss_zone_vec *zv, size_t want);
/* Append a zone (label truncated to fit): -EUCLEAN beyond the cap, -ENOMEM. */
int ss_zone_vec_push(struct ss_zone_vec *zv, uint32_t kind, uint32_t index, uint64_t start_sector,
		     uint64_t nr_sectors, const char *label);
void ss_zone_vec_free(struct ss_zone_vec *zv);

/*
 * One filesystem whose layout we know.  To add one: a file fsprobe_<fs>.c that defines a
 * `const struct ss_fs_prober ss_fs_prober_<fs>`, and its line X(<fs>) in PROBERS in fsprobe.c.
 */
struct ss_fs_prober {
	const char *name;                       /* fstype reported when the magic claims it */
	/* blkid's TYPE values that are this filesystem (NULL-ended): the probe hands them to
	 * probe() below */
	const char *const *types;
	/* blkid's TYPE values for things that carry this filesystem's magic but are not one
	 * (an ext external journal): reported, not probed (NULL-ended, may be NULL) */
	const char *const *kin;
	/*
	 * Is this filesystem's magic number where it belongs on FD?  1 yes, 0 no, -errno.  A
	 * few bytes read: when any prober's magic is there, blkid is asked about our types (and
	 * their kin and RAID members) only, not about every filesystem it knows.
	 */
	int (*magic)(int fd);
	/*
	 * Does the magic alone make it this filesystem when blkid found nothing?  blkid refuses
	 * damaged superblocks, which must then be reported, not taken for "no filesystem".
	 */
	bool magic_claims;
	/* Zones of the filesystem on FD (open read-only on PATH, DEV_BYTES long, 0 if unknown):
	 * fills out->block_size, zones, nr_zones; on error leaves *out untouched, -errno. */
	int (*probe)(const char *path, int fd, uint64_t dev_bytes, struct ss_fsprobe *out);
};

/*
 * The modules' own entry points (also driven directly by the fuzz targets).  FD is open read-only on PATH; DEV_BYTES is the size of the device or
 * file (0 if unknown).  On success they fill out->block_size and hand over the zones; on error
 * they leave *out untouched and return -errno.
 */
int ss_xfs_probe(int fd, uint64_t dev_bytes, struct ss_fsprobe *out);
int ss_ext_probe(const char *path, int fd, uint64_t dev_bytes, struct ss_fsprobe *out);

/* Does the primary XFS superblock magic sit at offset 0 of FD?  1 yes, 0 no, -errno. */
int ss_xfs_sniff(int fd);

/* Are the LEN bytes at OFF of FD equal to MAGIC?  1 yes, 0 no (also when FD is shorter),
 * -errno. */
int ss_fs_magic_at(int fd, off_t off, const void *magic, size_t len);

#endif
