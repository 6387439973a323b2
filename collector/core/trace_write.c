// SPDX-License-Identifier: GPL-2.0-or-later
/* Trace writer: appends fixed-layout, CRC-protected records to a seekscope trace file. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/uio.h>

#include "crc.h"
#include "errbuf.h"
#include "seekscope/codec.h"
#include "outfile.h"
#include "trace_write.h"
#include "seekscope/version.h"

struct ss_writer {
	struct ss_outfile *out;
	int fd;
	int error;                 /* first error, sticky: later calls fail with it */
	uint64_t nr_events;
	uint64_t nr_records;
	struct ss_event *swapbuf;  /* only used on big-endian hosts */
};

static int write_all(int fd, struct iovec *iov, int cnt)
{
	while (cnt > 0) {
		ssize_t n = writev(fd, iov, cnt);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		while (cnt > 0 && (size_t)n >= iov->iov_len) {
			n -= (ssize_t)iov->iov_len;
			iov++;
			cnt--;
		}
		if (cnt > 0) {
			iov->iov_base = (char *)iov->iov_base + n;
			iov->iov_len -= (size_t)n;
		}
	}
	return 0;
}

static int put_record(struct ss_writer *w, uint32_t type, const void *payload, uint32_t len)
{
	static const char zeros[SS_RECORD_ALIGN];
	struct ss_record_header rh = {
		.type = type,
		.length = len,
		.crc32 = ss_crc32(payload, len),
	};
	struct iovec iov[3];
	size_t pad = (SS_RECORD_ALIGN - len % SS_RECORD_ALIGN) % SS_RECORD_ALIGN;
	int ret;

	if (w->error)
		return w->error;
	if (len > SS_MAX_RECORD_LEN)
		return -EMSGSIZE;
	ss_swab_record_header(&rh);
	iov[0] = (struct iovec){ &rh, sizeof(rh) };
	iov[1] = (struct iovec){ (void *)payload, len };
	iov[2] = (struct iovec){ (void *)zeros, pad };
	ret = write_all(w->fd, iov, pad ? 3 : 2);
	if (ret) {
		w->error = ret;
		return ret;
	}
	w->nr_records++;
	return 0;
}

struct ss_writer *ss_writer_open(const char *path, enum ss_out_mode mode, char *err,
				 size_t errlen)
{
	struct ss_file_header h;
	struct ss_writer *w;
	struct timespec now;
	struct iovec iov;
	int ret;

	w = calloc(1, sizeof(*w));
	if (!w) {
		ss_errf(err, errlen, "out of memory");
		return NULL;
	}
	w->out = ss_outfile_open(path, mode, 0644, err, errlen);
	if (!w->out)
		goto error;
	w->fd = ss_outfile_fd(w->out);
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, SS_FILE_MAGIC, sizeof(h.magic));
	h.version = SS_FORMAT_VERSION;
	h.endian = SS_ENDIAN_TAG;
	h.header_size = SS_FILE_HEADER_SIZE;
	h.record_header_size = SS_RECORD_HEADER_SIZE;
	clock_gettime(CLOCK_REALTIME, &now);
	h.created_unix_ns = (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
	strncpy(h.tool_version, SS_VERSION, sizeof(h.tool_version) - 1);
	ss_swab_file_header(&h);
	iov = (struct iovec){ &h, sizeof(h) };
	ret = write_all(w->fd, &iov, 1);
	if (ret) {
		ss_errf(err, errlen, "%s: %s", path, strerror(-ret));
		errno = -ret;
		goto error;
	}
	return w;
error:
	ret = errno;
	ss_outfile_discard(w->out);
	free(w);
	errno = ret;
	return NULL;
}

int ss_writer_device(struct ss_writer *w, const struct ss_rec_device *dev)
{
	struct ss_rec_device d = *dev;

	ss_swab_device(&d);
	return put_record(w, SS_REC_DEVICE, &d, sizeof(d));
}

int ss_writer_zone(struct ss_writer *w, const struct ss_rec_zone *zone)
{
	struct ss_rec_zone z = *zone;

	ss_swab_zone(&z);
	return put_record(w, SS_REC_ZONE, &z, sizeof(z));
}

int ss_writer_meta(struct ss_writer *w, const char *key, const char *value)
{
	size_t kl = strlen(key), vl = strlen(value);
	char *buf;
	int ret;

	if (kl + vl + 2 > SS_MAX_RECORD_LEN)
		return -EMSGSIZE;
	buf = malloc(kl + vl + 2);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, key, kl + 1);
	memcpy(buf + kl + 1, value, vl + 1);
	ret = put_record(w, SS_REC_META, buf, (uint32_t)(kl + vl + 2));
	free(buf);
	return ret;
}

int ss_writer_events(struct ss_writer *w, const struct ss_event *ev, size_t n)
{
	while (n > 0) {
		size_t chunk = n < SS_MAX_EVENTS_PER_RECORD ? n : SS_MAX_EVENTS_PER_RECORD;
		const struct ss_event *src = ev;
		int ret;

		if (!ss_host_is_le()) {
			if (!w->swapbuf) {
				w->swapbuf = malloc(SS_MAX_EVENTS_PER_RECORD * sizeof(*ev));
				if (!w->swapbuf)
					return -ENOMEM;
			}
			memcpy(w->swapbuf, ev, chunk * sizeof(*ev));
			for (size_t i = 0; i < chunk; i++)
				ss_swab_event(&w->swapbuf[i]);
			src = w->swapbuf;
		}
		ret = put_record(w, SS_REC_EVENTS, src, (uint32_t)(chunk * sizeof(*ev)));
		if (ret)
			return ret;
		w->nr_events += chunk;
		ev += chunk;
		n -= chunk;
	}
	return 0;
}

int ss_writer_tasks(struct ss_writer *w, const struct ss_rec_task *t, size_t n)
{
	const size_t per_rec = SS_MAX_RECORD_LEN / sizeof(*t);

	while (n > 0) {
		size_t chunk = n < per_rec ? n : per_rec;
		struct ss_rec_task *buf = malloc(chunk * sizeof(*t));
		int ret;

		if (!buf)
			return -ENOMEM;
		/* a copy in file order: task records are few, the copy costs nothing */
		memcpy(buf, t, chunk * sizeof(*t));
		for (size_t i = 0; i < chunk; i++)
			ss_swab_task(&buf[i]);
		ret = put_record(w, SS_REC_TASKS, buf, (uint32_t)(chunk * sizeof(*t)));
		free(buf);
		if (ret)
			return ret;
		t += chunk;
		n -= chunk;
	}
	return 0;
}

int ss_writer_filemap(struct ss_writer *w, const struct ss_rec_filemap *m)
{
	struct ss_rec_filemap c = *m;

	ss_swab_filemap(&c);
	return put_record(w, SS_REC_FILEMAP, &c, sizeof(c));
}

static size_t pad8(size_t n)
{
	return (n + SS_RECORD_ALIGN - 1) / SS_RECORD_ALIGN * SS_RECORD_ALIGN;
}

int ss_writer_files(struct ss_writer *w, uint32_t map, uint32_t first,
		    const struct ss_rec_file *f, const char *const *names, size_t n)
{
	struct ss_rec_files_head head = { .map = map };
	size_t i = 0, total = sizeof(head);
	char *buf;
	int ret = 0;

	/* one buffer for the largest record this batch needs */
	for (size_t k = 0; k < n && total < SS_MAX_RECORD_LEN; k++)
		total += sizeof(*f) + pad8(strlen(names[k]));
	buf = malloc(total < SS_MAX_RECORD_LEN ? total : SS_MAX_RECORD_LEN);
	if (!buf)
		return -ENOMEM;
	while (i < n && !ret) {
		size_t len = sizeof(head);

		head.map = map;
		head.first = first + (uint32_t)i;
		ss_swab_files_head(&head);
		memcpy(buf, &head, sizeof(head));
		for (; i < n; i++) {
			size_t nl = strlen(names[i]);
			size_t need = sizeof(*f) + pad8(nl);
			struct ss_rec_file e = f[i];

			if (nl > UINT16_MAX) {
				ret = -ENAMETOOLONG;
				break;
			}
			if (len + need > SS_MAX_RECORD_LEN)
				break;
			e.name_len = (uint16_t)nl;
			ss_swab_file(&e);
			memcpy(buf + len, &e, sizeof(e));
			memcpy(buf + len + sizeof(e), names[i], nl);
			memset(buf + len + sizeof(e) + nl, 0, pad8(nl) - nl);
			len += need;
		}
		if (!ret)
			ret = put_record(w, SS_REC_FILES, buf, (uint32_t)len);
	}
	free(buf);
	return ret;
}

int ss_writer_extents(struct ss_writer *w, uint32_t map, const struct ss_rec_extent *e,
		      size_t n)
{
	const size_t per_rec = (SS_MAX_RECORD_LEN - sizeof(struct ss_rec_files_head)) / sizeof(*e);
	struct ss_rec_files_head head = { .map = map };
	char *buf;

	if (!n)
		return 0;
	buf = malloc(sizeof(head) + (n < per_rec ? n : per_rec) * sizeof(*e));
	if (!buf)
		return -ENOMEM;
	ss_swab_files_head(&head);
	while (n > 0) {
		size_t chunk = n < per_rec ? n : per_rec;
		int ret;

		memcpy(buf, &head, sizeof(head));
		for (size_t i = 0; i < chunk; i++) {
			struct ss_rec_extent x = e[i];

			ss_swab_extent(&x);
			memcpy(buf + sizeof(head) + i * sizeof(x), &x, sizeof(x));
		}
		ret = put_record(w, SS_REC_EXTENTS, buf, (uint32_t)(sizeof(head) + chunk * sizeof(*e)));
		if (ret) {
			free(buf);
			return ret;
		}
		e += chunk;
		n -= chunk;
	}
	free(buf);
	return 0;
}

int ss_writer_phase(struct ss_writer *w, uint64_t ts_ns, uint32_t kind, const char *name)
{
	struct ss_rec_phase p;

	memset(&p, 0, sizeof(p));
	p.ts_ns = ts_ns;
	p.kind = kind;
	strncpy(p.name, name, sizeof(p.name) - 1);
	ss_swab_phase(&p);
	return put_record(w, SS_REC_PHASE, &p, sizeof(p));
}

int ss_writer_cpu_stats(struct ss_writer *w, const struct ss_rec_cpu_stats *st)
{
	struct ss_rec_cpu_stats s = *st;

	ss_swab_cpu_stats(&s);
	return put_record(w, SS_REC_CPU_STATS, &s, sizeof(s));
}

int ss_writer_lost(struct ss_writer *w, const struct ss_rec_lost *lost)
{
	struct ss_rec_lost l = *lost;

	l.reserved = 0;
	ss_swab_lost(&l);
	return put_record(w, SS_REC_LOST, &l, sizeof(l));
}

int ss_writer_capture(struct ss_writer *w, const struct ss_rec_capture *cap)
{
	struct ss_rec_capture c = *cap;

	ss_swab_capture(&c);
	return put_record(w, SS_REC_CAPTURE, &c, sizeof(c));
}

int ss_writer_sync(struct ss_writer *w)
{
	if (w->error)
		return w->error;
	/* a pipe (record -o -) has nothing to sync: EINVAL */
	if (fdatasync(w->fd) < 0 && errno != EINVAL) {
		w->error = -errno;
		return w->error;
	}
	return 0;
}

uint64_t ss_writer_nr_events(const struct ss_writer *w)
{
	return w->nr_events;
}

/* Commit the file (REPLACE: rename it into place) and free; RET is an earlier error. */
static int finish(struct ss_writer *w, int ret)
{
	if (ret) {
		ss_outfile_discard(w->out);
	} else {
		ret = ss_outfile_commit(w->out, NULL, 0);
	}
	free(w->swapbuf);
	free(w);
	return ret;
}

int ss_writer_close(struct ss_writer *w)
{
	struct ss_rec_end e = { .nr_events = w->nr_events, .nr_records = w->nr_records };

	ss_swab_end(&e);
	return finish(w, put_record(w, SS_REC_END, &e, sizeof(e)));
}

int ss_writer_close_truncated(struct ss_writer *w)
{
	return finish(w, w->error);
}

void ss_writer_abort(struct ss_writer *w)
{
	if (!w)
		return;
	ss_outfile_discard(w->out);
	free(w->swapbuf);
	free(w);
}
