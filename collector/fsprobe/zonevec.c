// SPDX-License-Identifier: GPL-2.0-or-later
/* The bounded, growable zone array every filesystem module fills (see fsprobe_int.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsprobe_int.h"

int ss_zone_vec_reserve(struct ss_zone_vec *zv, size_t want)
{
	struct ss_rec_zone *nv;
	size_t cap;

	if (want > SS_FSPROBE_MAX_ZONES)
		return -EUCLEAN;
	if (want <= zv->cap)
		return 0;
	cap = zv->cap ? zv->cap : 16;
	while (cap < want)
		cap *= 2;
	if (cap > SS_FSPROBE_MAX_ZONES)
		cap = SS_FSPROBE_MAX_ZONES;
	nv = realloc(zv->v, cap * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	zv->v = nv;
	zv->cap = cap;
	return 0;
}

int ss_zone_vec_push(struct ss_zone_vec *zv, uint32_t kind, uint32_t index, uint64_t start_sector,
		     uint64_t nr_sectors, const char *label)
{
	struct ss_rec_zone *z;
	int ret = ss_zone_vec_reserve(zv, zv->n + 1);

	if (ret)
		return ret;
	z = &zv->v[zv->n++];
	memset(z, 0, sizeof(*z));
	z->kind = kind;
	z->index = index;
	z->start_sector = start_sector;
	z->nr_sectors = nr_sectors;
	snprintf(z->label, sizeof(z->label), "%s", label);
	return 0;
}


void ss_zone_vec_free(struct ss_zone_vec *zv)
{
	free(zv->v);
	zv->v = NULL;
	zv->n = zv->cap = 0;
}
