// SPDX-License-Identifier: GPL-2.0-or-later
/* The file maps of a trace as loaded (fmapdata.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "seekscope/codec.h"
#include "fmapdata.h"

static int grow(void **v, size_t *cap, size_t want, size_t size)
{
	size_t n = *cap ? *cap : 16;
	void *p;

	if (want <= *cap)
		return 0;
	while (n < want)
		n *= 2;
	p = realloc(*v, n * size);
	if (!p)
		return -ENOMEM;
	*v = p;
	*cap = n;
	return 0;
}

void ss_fmap_data_free(struct ss_fmap_data *d)
{
	free(d->maps);
	free(d->files);
	free(d->extents);
	free(d->names);
	memset(d, 0, sizeof(*d));
}

int ss_fmap_data_add_map(struct ss_fmap_data *d, const void *buf, size_t len)
{
	struct ss_fmap_map m = { .first_file = (uint32_t)d->nr_files };

	if (len != sizeof(m.rec))
		return -EINVAL;
	memcpy(&m.rec, buf, sizeof(m.rec));
	ss_swab_filemap(&m.rec);
	if (m.rec.id != d->nr_maps)
		return -EINVAL;              /* maps are numbered in file order */
	if (d->nr_maps == SS_FMAP_MAX_MAPS)
		return -E2BIG;
	m.rec.fstype[sizeof(m.rec.fstype) - 1] = m.rec.root[sizeof(m.rec.root) - 1] = 0;
	if (grow((void **)&d->maps, &d->cap_maps, d->nr_maps + 1, sizeof(m)))
		return -ENOMEM;
	d->maps[d->nr_maps++] = m;
	return 0;
}

/* The map a FILES/EXTENTS payload names; NULL when it is not the last one opened. */
static struct ss_fmap_map *head_map(struct ss_fmap_data *d, const void *buf, size_t len,
				    struct ss_rec_files_head *h)
{
	if (len < sizeof(*h))
		return NULL;
	memcpy(h, buf, sizeof(*h));
	ss_swab_files_head(h);
	/* a map's records follow its header, before the next map */
	if (!d->nr_maps || h->map != d->nr_maps - 1)
		return NULL;
	return &d->maps[h->map];
}

static int add_files(struct ss_fmap_data *d, struct ss_fmap_map *m,
		     const struct ss_rec_files_head *hd, const unsigned char *p, size_t len);

/* A record is taken whole or not at all: a refused one leaves what came before as it was. */
int ss_fmap_data_add_files(struct ss_fmap_data *d, const void *buf, size_t len)
{
	struct ss_rec_files_head h;
	struct ss_fmap_map *m = head_map(d, buf, len, &h);
	size_t nr_files = d->nr_files, names_len = d->names_len;
	uint32_t map_files = m ? m->nr_files : 0;
	int ret;

	if (!m)
		return -EINVAL;
	ret = add_files(d, m, &h, buf, len);
	if (ret) {
		d->nr_files = nr_files;
		d->names_len = names_len;
		m->nr_files = map_files;
	}
	return ret;
}

static int add_files(struct ss_fmap_data *d, struct ss_fmap_map *m,
		     const struct ss_rec_files_head *hd, const unsigned char *p, size_t len)
{
	size_t off = sizeof(*hd);

	if (hd->first != m->nr_files)
		return -EINVAL;
	while (off < len) {
		struct ss_rec_file f;
		struct ss_fmap_file e;
		size_t padded;

		if (len - off < sizeof(f))
			return -EINVAL;
		memcpy(&f, p + off, sizeof(f));
		ss_swab_file(&f);
		off += sizeof(f);
		padded = ((size_t)f.name_len + 7) / 8 * 8;
		if (len - off < padded)
			return -EINVAL;
		if (d->nr_files == SS_FMAP_MAX_FILES)
			return -E2BIG;
		if (f.kind != SS_FILE_REG && f.kind != SS_FILE_DIR)
			return -EINVAL;
		/* DIR first, then entries whose parent is an earlier directory of the map */
		if (m->nr_files == 0 ? f.parent != SS_FILE_NO_PARENT || f.kind != SS_FILE_DIR :
		    f.parent >= m->nr_files ||
		    d->files[m->first_file + f.parent].kind != SS_FILE_DIR)
			return -EINVAL;
		e = (struct ss_fmap_file){
			.ino = f.ino, .inode_sector = f.inode_sector, .kind = f.kind,
			.map = (uint32_t)(m - d->maps), .name = (uint32_t)d->names_len,
			.parent = m->nr_files ? m->first_file + f.parent : SS_FILE_NO_PARENT,
		};
		if (m->nr_files) {
			uint16_t pd = d->files[e.parent].depth;

			e.depth = pd == UINT16_MAX ? pd : (uint16_t)(pd + 1);
		}
		if (d->names_len + f.name_len + 1 > UINT32_MAX ||
		    grow((void **)&d->names, &d->cap_names, d->names_len + f.name_len + 1, 1) ||
		    grow((void **)&d->files, &d->cap_files, d->nr_files + 1, sizeof(e)))
			return -ENOMEM;
		memcpy(d->names + d->names_len, p + off, f.name_len);
		d->names[d->names_len + f.name_len] = 0;
		/* a name with a NUL or a slash in it would make another path */
		if (strlen(d->names + d->names_len) != f.name_len ||
		    memchr(d->names + d->names_len, '/', f.name_len))
			return -EINVAL;
		d->names_len += f.name_len + 1;
		d->files[d->nr_files++] = e;
		m->nr_files++;
		off += padded;
	}
	return 0;
}

int ss_fmap_data_add_extents(struct ss_fmap_data *d, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	struct ss_rec_files_head h;
	struct ss_fmap_map *m = head_map(d, buf, len, &h);
	size_t n;

	if (!m || (len - sizeof(h)) % sizeof(struct ss_rec_extent))
		return -EINVAL;
	n = (len - sizeof(h)) / sizeof(struct ss_rec_extent);
	if (d->nr_extents + n > SS_FMAP_MAX_EXTENTS)
		return -E2BIG;
	if (grow((void **)&d->extents, &d->cap_extents, d->nr_extents + n, sizeof(*d->extents)))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct ss_rec_extent e;

		memcpy(&e, p + sizeof(h) + i * sizeof(e), sizeof(e));
		ss_swab_extent(&e);
		if (e.file >= m->nr_files || !e.nr_sectors || e.sector > UINT64_MAX - e.nr_sectors) {
			d->nr_extents -= i;     /* the record whole or not at all */
			return -EINVAL;
		}
		e.file += m->first_file;
		e.reserved = h.map;
		d->extents[d->nr_extents++] = e;
	}
	return 0;
}

size_t ss_fmap_data_path(const struct ss_fmap_data *d, uint32_t i, char *buf, size_t len)
{
	size_t need = 0, pos;
	uint32_t j;

	/* the length first, then the names written from the end backwards */
	for (j = i; d->files[j].parent != SS_FILE_NO_PARENT; j = d->files[j].parent)
		need += strlen(d->names + d->files[j].name) + (need ? 1 : 0);
	if (!len)
		return need;
	if (need >= len) {
		buf[0] = 0;
		return need;
	}
	buf[need] = 0;
	pos = need;
	for (j = i; d->files[j].parent != SS_FILE_NO_PARENT; j = d->files[j].parent) {
		const char *name = d->names + d->files[j].name;
		size_t nl = strlen(name);

		if (pos != need)
			buf[--pos] = '/';
		pos -= nl;
		memcpy(buf + pos, name, nl);
	}
	return need;
}
