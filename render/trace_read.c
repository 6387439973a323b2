/* Trace reader: validates and loads a seekscope trace, then streams its events in batches. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <zlib.h>

#include "seekscope/codec.h"
#include "trace_read.h"

/* Offsets of the event records found by the metadata pass. */
struct ev_rec {
	off_t off;          /* payload offset */
	uint32_t len;
	uint32_t crc;
};

struct ss_trace_priv {
	int fd;
	struct ev_rec *recs;
	size_t nr_recs, cap_recs;
	size_t next_rec;
	void *buf;          /* one record payload, grown to the largest read so far */
	size_t buf_cap;     /* at most SS_MAX_RECORD_LEN */
	char error[200];
};

static void set_msg(char *dst, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_msg(char *dst, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!len)
		return;
	va_start(ap, fmt);
	vsnprintf(dst, len, fmt, ap);
	va_end(ap);
}

static ssize_t pread_full(int fd, void *buf, size_t len, off_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pread(fd, (char *)buf + done, len - done, off + (off_t)done);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		done += (size_t)n;
	}
	return (ssize_t)done;
}

/* Room for a payload of LEN (<= SS_MAX_RECORD_LEN) in p->buf: grown on demand rather than
 * allocated at its 4 MiB maximum for every file, most of whose records are a few bytes. */
static int ensure_buf(struct ss_trace_priv *p, size_t len)
{
	size_t cap = p->buf_cap ? p->buf_cap : 4096;
	void *nb;

	if (p->buf && len <= p->buf_cap)
		return 0;
	while (cap < len)
		cap *= 2;
	if (cap > SS_MAX_RECORD_LEN)
		cap = SS_MAX_RECORD_LEN;
	nb = realloc(p->buf, cap);
	if (!nb)
		return -ENOMEM;
	p->buf = nb;
	p->buf_cap = cap;
	return 0;
}

/* Grow *arr to hold one more element of SIZE; bounded by the file size, so no hostile count. */
static void *grow(void *arr, size_t *cap, size_t nr, size_t size)
{
	void *p;
	size_t ncap;

	if (nr < *cap)
		return arr;
	ncap = *cap ? *cap * 2 : 16;
	p = reallocarray(arr, ncap, size);
	if (!p)
		return NULL;
	*cap = ncap;
	return p;
}

#define PUSH(t, field, nrfield, capvar, value)                                        \
	({                                                                            \
		void *_p = grow((t)->field, &(capvar), (t)->nrfield, sizeof(value));  \
		if (_p) {                                                             \
			(t)->field = _p;                                              \
			(t)->field[(t)->nrfield++] = (value);                         \
		}                                                                     \
		_p ? 0 : -ENOMEM;                                                     \
	})

static int add_meta(struct ss_trace *t, size_t *cap, const char *p, uint32_t len)
{
	const char *key = p, *val, *end = p + len;
	struct ss_meta m;
	size_t kl;

	kl = strnlen(key, len);
	if (kl == len)
		return -EINVAL;
	val = key + kl + 1;
	if (strnlen(val, (size_t)(end - val)) == (size_t)(end - val))
		return -EINVAL;
	m.key = strdup(key);
	m.value = strdup(val);
	if (!m.key || !m.value || PUSH(t, meta, nr_meta, *cap, m)) {
		free(m.key);
		free(m.value);
		return -ENOMEM;
	}
	return 0;
}

static int check_fixed(uint32_t len, size_t want, char *err, size_t errlen, const char *what,
		       off_t off)
{
	if (len != want) {
		set_msg(err, errlen, "corrupt %s record at offset %lld: length %u, expected %zu",
			what, (long long)off, len, want);
		return -EINVAL;
	}
	return 0;
}

/* Metadata pass: read every record header, load small records, remember event records. */
static int scan(struct ss_trace *t, off_t size, char *err, size_t errlen)
{
	struct ss_trace_priv *p = t->priv;
	size_t cap_dev = 0, cap_zone = 0, cap_phase = 0, cap_stats = 0, cap_meta = 0;
	off_t off = t->header.header_size;
	bool ended = false;

	while (off < size) {
		struct ss_record_header rh;
		uint32_t padded;
		ssize_t n;
		int ret = 0;

		if (ended) {
			set_msg(t->warning, sizeof(t->warning),
				"data after the end record at offset %lld ignored", (long long)off);
			break;
		}
		n = pread_full(p->fd, &rh, sizeof(rh), off);
		if (n < 0)
			return (int)n;
		if ((size_t)n < sizeof(rh)) {
			t->truncated = true;
			set_msg(t->warning, sizeof(t->warning),
				"truncated: record header cut at offset %lld", (long long)off);
			break;
		}
		ss_swab_record_header(&rh);
		if (rh.length > SS_MAX_RECORD_LEN || rh.type == 0) {
			set_msg(err, errlen, "corrupt record at offset %lld (type %u, length %u)",
				(long long)off, rh.type, rh.length);
			return -EINVAL;
		}
		padded = (rh.length + SS_RECORD_ALIGN - 1) & ~(SS_RECORD_ALIGN - 1);
		if (off + (off_t)sizeof(rh) + (off_t)rh.length > size) {
			t->truncated = true;
			set_msg(t->warning, sizeof(t->warning),
				"truncated: record at offset %lld is cut short (%lld of %u bytes)",
				(long long)off, (long long)(size - off - (off_t)sizeof(rh)), rh.length);
			break;
		}
		if (rh.type == SS_REC_EVENTS) {
			struct ev_rec er = { off + (off_t)sizeof(rh), rh.length, rh.crc32 };
			struct ss_event e;

			if (rh.length % sizeof(struct ss_event)) {
				set_msg(err, errlen, "corrupt event record at offset %lld: length %u",
					(long long)off, rh.length);
				return -EINVAL;
			}
			if (rh.length) {
				void *q = grow(p->recs, &p->cap_recs, p->nr_recs, sizeof(er));

				if (!q)
					return -ENOMEM;
				p->recs = q;
				p->recs[p->nr_recs++] = er;
				/* first and last timestamps give the time range without a full read */
				n = pread_full(p->fd, &e, sizeof(e), er.off);
				if (n != (ssize_t)sizeof(e))
					return n < 0 ? (int)n : -EIO;
				ss_swab_event(&e);
				if (!t->nr_events)
					t->first_ts = e.ts_ns;
				n = pread_full(p->fd, &e, sizeof(e),
					       er.off + (off_t)rh.length - (off_t)sizeof(e));
				if (n != (ssize_t)sizeof(e))
					return n < 0 ? (int)n : -EIO;
				ss_swab_event(&e);
				t->last_ts = e.ts_ns;
				t->nr_events += rh.length / sizeof(struct ss_event);
			}
		} else if (rh.type <= SS_REC_END) {
			/* small record: load and verify now */
			char *buf;

			if ((ret = ensure_buf(p, rh.length)))
				return ret;
			buf = p->buf;
			n = pread_full(p->fd, buf, rh.length, off + (off_t)sizeof(rh));
			if (n < 0)
				return (int)n;
			if ((uint32_t)crc32(crc32(0L, Z_NULL, 0), (const Bytef *)buf, rh.length) !=
			    rh.crc32) {
				set_msg(err, errlen, "corrupt record at offset %lld: checksum mismatch",
					(long long)off);
				return -EINVAL;
			}
			switch (rh.type) {
			case SS_REC_DEVICE: {
				struct ss_rec_device d;

				if ((ret = check_fixed(rh.length, sizeof(d), err, errlen, "device", off)))
					return ret;
				memcpy(&d, buf, sizeof(d));
				ss_swab_device(&d);
				d.name[sizeof(d.name) - 1] = d.part_name[sizeof(d.part_name) - 1] = 0;
				d.fstype[sizeof(d.fstype) - 1] = d.path[sizeof(d.path) - 1] = 0;
				ret = PUSH(t, devices, nr_devices, cap_dev, d);
				break;
			}
			case SS_REC_ZONE: {
				struct ss_rec_zone z;

				if ((ret = check_fixed(rh.length, sizeof(z), err, errlen, "zone", off)))
					return ret;
				memcpy(&z, buf, sizeof(z));
				ss_swab_zone(&z);
				z.label[sizeof(z.label) - 1] = 0;
				ret = PUSH(t, zones, nr_zones, cap_zone, z);
				break;
			}
			case SS_REC_PHASE: {
				struct ss_rec_phase ph;

				if ((ret = check_fixed(rh.length, sizeof(ph), err, errlen, "phase", off)))
					return ret;
				memcpy(&ph, buf, sizeof(ph));
				ss_swab_phase(&ph);
				ph.name[sizeof(ph.name) - 1] = 0;
				ret = PUSH(t, phases, nr_phases, cap_phase, ph);
				break;
			}
			case SS_REC_CPU_STATS: {
				struct ss_rec_cpu_stats s;

				if ((ret = check_fixed(rh.length, sizeof(s), err, errlen, "cpu stats", off)))
					return ret;
				memcpy(&s, buf, sizeof(s));
				ss_swab_cpu_stats(&s);
				ret = PUSH(t, cpu_stats, nr_cpu_stats, cap_stats, s);
				break;
			}
			case SS_REC_CAPTURE:
				if ((ret = check_fixed(rh.length, sizeof(t->capture), err, errlen,
						       "capture", off)))
					return ret;
				memcpy(&t->capture, buf, sizeof(t->capture));
				ss_swab_capture(&t->capture);
				t->capture.clock[sizeof(t->capture.clock) - 1] = 0;
				t->capture.instance[sizeof(t->capture.instance) - 1] = 0;
				t->has_capture = true;
				break;
			case SS_REC_META:
				ret = add_meta(t, &cap_meta, buf, rh.length);
				if (ret == -EINVAL) {
					set_msg(err, errlen, "corrupt meta record at offset %lld",
						(long long)off);
					return ret;
				}
				break;
			case SS_REC_END:
				if ((ret = check_fixed(rh.length, sizeof(struct ss_rec_end), err, errlen,
						       "end", off)))
					return ret;
				ended = true;
				break;
			default:
				break;
			}
			if (ret)
				return ret;
		}
		/* unknown types are skipped: forward compatibility */
		off += (off_t)sizeof(rh) + (off_t)padded;
	}
	if (!ended && !t->truncated) {
		t->truncated = true;
		set_msg(t->warning, sizeof(t->warning),
			"truncated: no end record (the capture did not finish cleanly)");
	}
	return 0;
}

static int check_header(struct ss_trace *t, off_t size, char *err, size_t errlen)
{
	struct ss_file_header *h = &t->header;
	ssize_t n;

	n = pread_full(t->priv->fd, h, sizeof(*h), 0);
	if (n < 0)
		return (int)n;
	if ((size_t)n < sizeof(h->magic) || memcmp(h->magic, SS_FILE_MAGIC, sizeof(h->magic))) {
		set_msg(err, errlen, "not a seekscope trace (bad magic)");
		return -EINVAL;
	}
	if ((size_t)n < sizeof(*h)) {
		set_msg(err, errlen, "truncated: file header cut short (%zd of %zu bytes)", n,
			sizeof(*h));
		return -EINVAL;
	}
	ss_swab_file_header(h);
	if (h->endian != SS_ENDIAN_TAG) {
		set_msg(err, errlen, "corrupt file header (endianness tag %#x)", h->endian);
		return -EINVAL;
	}
	if (h->version != SS_FORMAT_VERSION) {
		set_msg(err, errlen, "unsupported trace format version %u (this seekscope reads %u)",
			h->version, SS_FORMAT_VERSION);
		return -EPROTONOSUPPORT;
	}
	if (h->header_size < SS_FILE_HEADER_SIZE || h->header_size > 4096 ||
	    h->record_header_size != SS_RECORD_HEADER_SIZE || (off_t)h->header_size > size) {
		set_msg(err, errlen, "corrupt file header (header size %u, record header size %u)",
			h->header_size, h->record_header_size);
		return -EINVAL;
	}
	h->tool_version[sizeof(h->tool_version) - 1] = 0;
	return 0;
}

struct ss_trace *ss_trace_open(const char *path, char *err, size_t errlen)
{
	struct ss_trace *t;
	struct stat st;
	int ret;

	if (errlen)
		err[0] = 0;
	t = calloc(1, sizeof(*t));
	if (!t || !(t->priv = calloc(1, sizeof(*t->priv)))) {
		ret = -ENOMEM;
		goto error;
	}
	t->priv->fd = -1;
	if (!(t->path = strdup(path))) {
		ret = -ENOMEM;
		goto error;
	}
	t->priv->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (t->priv->fd < 0) {
		ret = -errno;
		goto error;
	}
	if (fstat(t->priv->fd, &st) < 0) {
		ret = -errno;
		goto error;
	}
	if (!S_ISREG(st.st_mode)) {
		set_msg(err, errlen, "not a regular file");
		ret = -EINVAL;
		goto error;
	}
	ret = check_header(t, st.st_size, err, errlen);
	if (!ret)
		ret = scan(t, st.st_size, err, errlen);
	if (ret)
		goto error;
	posix_fadvise(t->priv->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	return t;
error:
	if (errlen && !err[0])
		set_msg(err, errlen, "%s", strerror(-ret));
	ss_trace_close(t);
	errno = -ret;
	return NULL;
}

void ss_trace_close(struct ss_trace *t)
{
	if (!t)
		return;
	if (t->priv) {
		if (t->priv->fd >= 0)
			close(t->priv->fd);
		free(t->priv->recs);
		free(t->priv->buf);
		free(t->priv);
	}
	for (size_t i = 0; i < t->nr_meta; i++) {
		free(t->meta[i].key);
		free(t->meta[i].value);
	}
	free(t->meta);
	free(t->devices);
	free(t->zones);
	free(t->phases);
	free(t->cpu_stats);
	free(t->path);
	free(t);
}

const char *ss_trace_meta(const struct ss_trace *t, const char *key)
{
	for (size_t i = t->nr_meta; i-- > 0;)
		if (!strcmp(t->meta[i].key, key))
			return t->meta[i].value;
	return NULL;
}

uint64_t ss_trace_lost_events(const struct ss_trace *t)
{
	uint64_t lost = 0;

	for (size_t i = 0; i < t->nr_cpu_stats; i++)
		lost += t->cpu_stats[i].missed + t->cpu_stats[i].overrun +
			t->cpu_stats[i].commit_overrun + t->cpu_stats[i].dropped;
	return lost;
}

const struct ss_rec_zone *ss_trace_zone_at(const struct ss_trace *t, uint32_t dev, uint64_t sector)
{
	const struct ss_rec_zone *best = NULL;

	for (size_t i = 0; i < t->nr_zones; i++) {
		const struct ss_rec_zone *z = &t->zones[i];

		if (z->dev != dev || sector < z->start_sector ||
		    sector - z->start_sector >= z->nr_sectors)
			continue;
		/* smaller zones are more specific: the log inside an AG, a table inside a group */
		if (!best || z->nr_sectors < best->nr_sectors)
			best = z;
	}
	return best;
}

int ss_trace_rewind(struct ss_trace *t)
{
	t->priv->next_rec = 0;
	return 0;
}

int ss_trace_next_batch(struct ss_trace *t, const struct ss_event **ev, size_t *n)
{
	struct ss_trace_priv *p = t->priv;
	struct ev_rec *r;
	ssize_t got;

	if (p->next_rec >= p->nr_recs)
		return 0;
	r = &p->recs[p->next_rec];
	if (ensure_buf(p, r->len)) {
		set_msg(p->error, sizeof(p->error), "out of memory");
		return -ENOMEM;
	}
	got = pread_full(p->fd, p->buf, r->len, r->off);
	if (got < 0) {
		set_msg(p->error, sizeof(p->error), "read error: %s", strerror((int)-got));
		return (int)got;
	}
	if ((size_t)got != r->len) {
		set_msg(p->error, sizeof(p->error), "file shrank while reading (offset %lld)",
			(long long)r->off);
		return -EIO;
	}
	if ((uint32_t)crc32(crc32(0L, Z_NULL, 0), p->buf, r->len) != r->crc) {
		set_msg(p->error, sizeof(p->error),
			"corrupt event record at offset %lld: checksum mismatch",
			(long long)(r->off - (off_t)SS_RECORD_HEADER_SIZE));
		return -EINVAL;
	}
	*n = r->len / sizeof(struct ss_event);
	if (!ss_host_is_le()) {
		struct ss_event *e = p->buf;

		for (size_t i = 0; i < *n; i++)
			ss_swab_event(&e[i]);
	}
	*ev = p->buf;
	p->next_rec++;
	return 1;
}

const char *ss_trace_error(const struct ss_trace *t)
{
	return t->priv->error;
}
