// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Disk model parameters (diskmodel.h): the presets, one table of keys with their ranges, and
 * the two text forms — "NAME[,key=value...]" and a key = value parameter file.  Every value
 * and its source is in docs/disk-model.md; keep the two in step.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "errbuf.h"
#include "fileio.h"
#include "diskmodel.h"

#define HDD (1u << SS_DISK_HDD)
#define SSD (1u << SS_DISK_SSD)

static const struct ss_disk_params presets[] = {
	{ .name = "hdd7200", .kind = SS_DISK_HDD, .rpm = 7200, .heads = 4, .zones = 16,
	  .outer_mbs = 200, .inner_mbs = 100, .track_to_track_ms = 0.8, .avg_seek_ms = 8.5,
	  .full_stroke_ms = 16, .head_switch_ms = 0.8, .write_settle_ms = 1.0,
	  .overhead_ms = 0.1, .bus_mbs = 550, .wcache = false, .ncq = 1 },
	{ .name = "hdd5400", .kind = SS_DISK_HDD, .rpm = 5400, .heads = 2, .zones = 16,
	  .outer_mbs = 130, .inner_mbs = 65, .track_to_track_ms = 1.0, .avg_seek_ms = 12,
	  .full_stroke_ms = 22, .head_switch_ms = 1.0, .write_settle_ms = 1.0,
	  .overhead_ms = 0.1, .bus_mbs = 550, .wcache = false, .ncq = 1 },
	{ .name = "hdd15k", .kind = SS_DISK_HDD, .rpm = 15000, .heads = 8, .zones = 16,
	  .outer_mbs = 204, .inner_mbs = 122, .track_to_track_ms = 0.2, .avg_seek_ms = 3.4,
	  .full_stroke_ms = 6.5, .head_switch_ms = 0.3, .write_settle_ms = 0.5,
	  .overhead_ms = 0.05, .bus_mbs = 550, .wcache = false, .ncq = 1 },
	{ .name = "ssd", .kind = SS_DISK_SSD, .read_latency_ms = 0.08, .write_latency_ms = 0.03,
	  .read_mbs = 540, .write_mbs = 500, .ncq = 1 },
};
#define NR_PRESETS (sizeof(presets) / sizeof(presets[0]))

enum key_type { K_NUM, K_UINT, K_BOOL };

struct key {
	const char *name;
	size_t off;
	enum key_type type;
	unsigned kinds;
	double min, max;         /* inclusive */
	const char *why;         /* said after the range when a value is refused, or NULL */
};

#define F(field) offsetof(struct ss_disk_params, field)
static const struct key keys[] = {
	{ "rpm",               F(rpm),               K_NUM,  HDD, 1000, 30000, NULL },
	{ "heads",             F(heads),             K_UINT, HDD, 1, 64, NULL },
	{ "zones",             F(zones),             K_UINT, HDD, 1, SS_DISK_MAX_ZONES, NULL },
	{ "outer_mbs",         F(outer_mbs),         K_NUM,  HDD, 1, 10000, NULL },
	{ "inner_mbs",         F(inner_mbs),         K_NUM,  HDD, 1, 10000, NULL },
	{ "track_to_track_ms", F(track_to_track_ms), K_NUM,  HDD, 0.001, 1000, NULL },
	{ "avg_seek_ms",       F(avg_seek_ms),       K_NUM,  HDD, 0.001, 1000, NULL },
	{ "full_stroke_ms",    F(full_stroke_ms),    K_NUM,  HDD, 0.001, 1000, NULL },
	{ "head_switch_ms",    F(head_switch_ms),    K_NUM,  HDD, 0, 1000, NULL },
	{ "write_settle_ms",   F(write_settle_ms),   K_NUM,  HDD, 0, 1000, NULL },
	{ "overhead_ms",       F(overhead_ms),       K_NUM,  HDD, 0, 1000, NULL },
	{ "bus_mbs",           F(bus_mbs),           K_NUM,  HDD, 1, 1e6, NULL },
	{ "wcache",            F(wcache),            K_BOOL, HDD, 0, 1, NULL },
	{ "read_latency_ms",   F(read_latency_ms),   K_NUM,  SSD, 0, 1000, NULL },
	{ "write_latency_ms",  F(write_latency_ms),  K_NUM,  SSD, 0, 1000, NULL },
	{ "read_mbs",          F(read_mbs),          K_NUM,  SSD, 1, 1e6, NULL },
	{ "write_mbs",         F(write_mbs),         K_NUM,  SSD, 1, 1e6, NULL },
	{ "ncq",               F(ncq),               K_UINT, HDD | SSD, 1, 1,
	  "requests are served in issue order; queue reordering is not modelled" },
};
#undef F
#define NR_KEYS (sizeof(keys) / sizeof(keys[0]))

const char *ss_disk_preset_names(void)
{
	return "hdd7200, hdd5400, hdd15k, ssd";
}

static const struct ss_disk_params *find_preset(const char *name, size_t len)
{
	for (size_t i = 0; i < NR_PRESETS; i++)
		if (strlen(presets[i].name) == len && !strncmp(presets[i].name, name, len))
			return &presets[i];
	return NULL;
}

int ss_disk_params_preset(const char *name, struct ss_disk_params *p)
{
	const struct ss_disk_params *pre = find_preset(name, strlen(name));

	if (!pre)
		return -EINVAL;
	*p = *pre;
	return 0;
}

static const char *kind_name(enum ss_disk_kind kind)
{
	return kind == SS_DISK_SSD ? "an SSD" : "a spinning disk";
}

/* "rpm, heads, ...": the keys of KIND, into buf. */
static const char *key_list(enum ss_disk_kind kind, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < NR_KEYS && n < len; i++)
		if (keys[i].kinds & (1u << kind))
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "", keys[i].name);
	return buf;
}

/* Decimal, optionally with a fraction and an exponent: what %.17g writes, without inf, nan,
 * hex, signs or spaces that strtod() would also take. */
static bool is_decimal(const char *s)
{
	size_t n = strspn(s, "0123456789");

	if (!n)
		return false;
	s += n;
	if (*s == '.') {
		n = strspn(++s, "0123456789");
		if (!n)
			return false;
		s += n;
	}
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		n = strspn(s, "0123456789");
		if (!n)
			return false;
		s += n;
	}
	return !*s;
}

/*
 * S (at most LEN bytes) as it may be shown in a one-line message: control bytes as '?', cut
 * with "..." to fit BUF.  Spec items and file lines are the user's text, echoed back.
 */
static const char *shown(const char *s, size_t len, char *buf, size_t size)
{
	size_t n = 0;

	for (; n < len && s[n] && n + 1 < size; n++)
		buf[n] = (unsigned char)s[n] < 0x20 || s[n] == 0x7f ? '?' : s[n];
	if (n < len && s[n] && size > 4)
		memcpy(buf + size - 4, "...", 3), n = size - 1;
	buf[n] = '\0';
	return buf;
}
#define SHOWN(s, len, buf) shown((s), (len), (buf), sizeof(buf))

static void range_error(const struct key *k, const char *v, char *err, size_t errlen)
{
	char value[64];

	SHOWN(v, SIZE_MAX, value);
	if (k->type == K_BOOL)
		ss_errf(err, errlen, "disk parameter %s=%s: valid values are on and off", k->name,
			value);
	else if (k->min == k->max)
		ss_errf(err, errlen, "disk parameter %s=%s: only %g is valid (%s)", k->name, value,
			k->min, k->why);
	else
		ss_errf(err, errlen, "disk parameter %s=%s: valid values are %s from %g to %g",
			k->name, value, k->type == K_UINT ? "whole numbers" : "numbers", k->min,
			k->max);
}

int ss_disk_params_set(struct ss_disk_params *p, const char *key, const char *value,
		       char *err, size_t errlen)
{
	const struct key *k = NULL;
	char list[400], name[64];
	double v;

	for (size_t i = 0; i < NR_KEYS; i++)
		if (!strcmp(keys[i].name, key))
			k = &keys[i];
	if (!k || !(k->kinds & (1u << p->kind))) {
		ss_errf(err, errlen, "%s disk parameter '%s' for %s (valid: %s)",
			k ? "no" : "unknown", SHOWN(key, SIZE_MAX, name), kind_name(p->kind),
			key_list(p->kind, list, sizeof(list)));
		return -EINVAL;
	}
	if (k->type == K_BOOL) {
		if (strcmp(value, "on") && strcmp(value, "off")) {
			range_error(k, value, err, errlen);
			return -EINVAL;
		}
		*(bool *)((char *)p + k->off) = !strcmp(value, "on");
		return 0;
	}
	if (!is_decimal(value) || (k->type == K_UINT && strspn(value, "0123456789") < strlen(value))) {
		range_error(k, value, err, errlen);
		return -EINVAL;
	}
	v = strtod(value, NULL);
	if (!(v >= k->min && v <= k->max)) {
		range_error(k, value, err, errlen);
		return -EINVAL;
	}
	if (k->type == K_UINT)
		*(unsigned *)((char *)p + k->off) = (unsigned)v;
	else
		*(double *)((char *)p + k->off) = v;
	return 0;
}

int ss_disk_params_check(const struct ss_disk_params *p, char *err, size_t errlen)
{
	char vbuf[32];

	if (p->kind != SS_DISK_HDD && p->kind != SS_DISK_SSD) {
		ss_errf(err, errlen, "disk model '%s' is neither a spinning disk nor an SSD", p->name);
		return -EINVAL;
	}
	/* the ranges of the table, for parameters that did not come through the parser */
	for (size_t i = 0; i < NR_KEYS; i++) {
		const struct key *k = &keys[i];
		const char *f = (const char *)p + k->off;
		double v = k->type == K_NUM ? *(const double *)f :
			   k->type == K_UINT ? *(const unsigned *)f : *(const bool *)f;

		if ((k->kinds & (1u << p->kind)) && !(v >= k->min && v <= k->max)) {
			snprintf(vbuf, sizeof(vbuf), "%g", v);
			range_error(k, vbuf, err, errlen);
			return -EINVAL;
		}
	}
	if (p->kind == SS_DISK_SSD)
		return 0;
	if (!(p->track_to_track_ms <= p->avg_seek_ms && p->avg_seek_ms <= p->full_stroke_ms)) {
		ss_errf(err, errlen, "disk seek times must grow with distance: track_to_track_ms "
			"(%g) <= avg_seek_ms (%g) <= full_stroke_ms (%g)", p->track_to_track_ms,
			p->avg_seek_ms, p->full_stroke_ms);
		return -EINVAL;
	}
	if (p->inner_mbs > p->outer_mbs) {
		ss_errf(err, errlen, "disk media rates: inner_mbs (%g) must not exceed outer_mbs "
			"(%g): outer tracks are the longer ones", p->inner_mbs, p->outer_mbs);
		return -EINVAL;
	}
	return 0;
}

/* Set KEY=VALUE in a copy, or say why not. */
static int set_pair(struct ss_disk_params *p, char *item, char *err, size_t errlen)
{
	char *eq = strchr(item, '='), text[64];

	if (!eq || eq == item) {
		ss_errf(err, errlen, "disk parameter '%s': expected key=value",
			SHOWN(item, SIZE_MAX, text));
		return -EINVAL;
	}
	*eq = '\0';
	if (!strcmp(item, "model")) {
		ss_errf(err, errlen, "disk parameter 'model': the model is named first");
		return -EINVAL;
	}
	return ss_disk_params_set(p, item, eq + 1, err, errlen);
}

int ss_disk_params_parse_spec(const char *spec, struct ss_disk_params *p, char *err,
			      size_t errlen)
{
	size_t len = strcspn(spec, ",");
	const struct ss_disk_params *pre = find_preset(spec, len);
	struct ss_disk_params q;
	char *copy, *item, *save = NULL, name[64];
	int ret = 0;

	if (!pre) {
		ss_errf(err, errlen, "unknown disk model '%s' (valid: %s)",
			SHOWN(spec, len, name), ss_disk_preset_names());
		return -EINVAL;
	}
	q = *pre;
	if (!spec[len])
		goto done;
	copy = strdup(spec + len + 1);
	if (!copy) {
		ss_errf(err, errlen, "disk model '%s': out of memory", pre->name);
		return -ENOMEM;
	}
	/* strtok_r would skip empty items; an empty item is a mistake worth naming */
	for (item = copy; !ret && item; item = save) {
		save = strchr(item, ',');
		if (save)
			*save++ = '\0';
		ret = set_pair(&q, item, err, errlen);
	}
	free(copy);
	if (ret)
		return ret;
done:
	ret = ss_disk_params_check(&q, err, errlen);
	if (!ret)
		*p = q;
	return ret;
}

static char *trim(char *s)
{
	char *e = s + strlen(s);

	while (isspace((unsigned char)*s))
		s++;
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

int ss_disk_params_parse_text(const char *text, size_t len, struct ss_disk_params *p,
			      char *err, size_t errlen)
{
	struct ss_disk_params q;
	char *copy, *line, *next, msg[400], shown_[64];
	bool have_model = false;
	unsigned lineno = 0;
	int ret = 0;

	if (memchr(text, '\0', len)) {
		ss_errf(err, errlen, "not a parameter file: it holds a NUL byte");
		return -EINVAL;
	}
	copy = strndup(text, len);
	if (!copy) {
		ss_errf(err, errlen, "parameter file: out of memory");
		return -ENOMEM;
	}
	for (line = copy; !ret && line; line = next) {
		char *key, *value, *eq;

		lineno++;
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		line[strcspn(line, "#")] = '\0';
		key = trim(line);
		if (!*key)
			continue;
		eq = strchr(key, '=');
		if (!eq) {
			ss_errf(msg, sizeof(msg), "'%s': expected key = value",
				SHOWN(key, SIZE_MAX, shown_));
			ret = -EINVAL;
			break;
		}
		*eq = '\0';
		value = trim(eq + 1);
		key = trim(key);
		if (!have_model) {
			if (strcmp(key, "model")) {
				ss_errf(msg, sizeof(msg), "the first setting must be model = NAME "
					"(valid: %s)", ss_disk_preset_names());
				ret = -EINVAL;
			} else if (ss_disk_params_preset(value, &q)) {
				ss_errf(msg, sizeof(msg), "unknown disk model '%s' (valid: %s)",
					SHOWN(value, SIZE_MAX, shown_), ss_disk_preset_names());
				ret = -EINVAL;
			}
			have_model = true;
		} else if (!strcmp(key, "model")) {
			ss_errf(msg, sizeof(msg), "model may only be the first setting");
			ret = -EINVAL;
		} else {
			ret = ss_disk_params_set(&q, key, value, msg, sizeof(msg));
		}
	}
	free(copy);
	if (ret) {
		ss_errf(err, errlen, "line %u: %s", lineno, msg);
		return ret;
	}
	if (!have_model) {
		ss_errf(err, errlen, "no settings: the first must be model = NAME (valid: %s)",
			ss_disk_preset_names());
		return -EINVAL;
	}
	ret = ss_disk_params_check(&q, err, errlen);
	if (!ret)
		*p = q;
	return ret;
}

/* A parameter file's bytes into a new buffer: its length, or -errno.  NAME is PATH as shown. */
static ssize_t read_param_file(const char *path, const char *name, char **out, char *err,
			       size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	ssize_t n;
	char *buf;

	if (fd < 0) {
		int e = errno;

		if (e == ENOENT)
			ss_errf(err, errlen, "unknown disk model '%s' (valid: %s, or a parameter file)",
				name, ss_disk_preset_names());
		else
			ss_errf(err, errlen, "%s: %s", name, strerror(e));
		return -e;
	}
	if (fstat(fd, &st) < 0) {
		int e = errno;

		ss_errf(err, errlen, "%s: %s", name, strerror(e));
		close(fd);
		return -e;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > (off_t)SS_DISK_FILE_MAX) {
		ss_errf(err, errlen, "%s: a disk parameter file must be a regular file of at most "
			"%u bytes", name, SS_DISK_FILE_MAX);
		close(fd);
		return -EINVAL;
	}
	buf = malloc(SS_DISK_FILE_MAX + 1);
	if (!buf) {
		close(fd);
		ss_errf(err, errlen, "%s: out of memory", name);
		return -ENOMEM;
	}
	/* one byte more than allowed: a file that grew since fstat() is refused too */
	n = ss_pread_full(fd, buf, SS_DISK_FILE_MAX + 1, 0);
	close(fd);
	if (n < 0 || n > (ssize_t)SS_DISK_FILE_MAX) {
		ss_errf(err, errlen, "%s: %s", name, n < 0 ? strerror((int)-n) : "too large");
		free(buf);
		return n < 0 ? n : -EINVAL;
	}
	*out = buf;
	return n;
}

int ss_disk_model_parse(const char *spec, struct ss_disk_params *p, char *err, size_t errlen)
{
	char msg[400], *text = NULL, name[256];
	ssize_t n;
	int ret;

	if (find_preset(spec, strcspn(spec, ",")))
		return ss_disk_params_parse_spec(spec, p, err, errlen);
	if (!*spec) {
		ss_errf(err, errlen, "empty disk model (valid: %s, or a parameter file)",
			ss_disk_preset_names());
		return -EINVAL;
	}
	SHOWN(spec, SIZE_MAX, name);
	n = read_param_file(spec, name, &text, err, errlen);
	if (n < 0)
		return (int)n;
	ret = ss_disk_params_parse_text(text, (size_t)n, p, msg, sizeof(msg));
	free(text);
	if (ret)
		ss_errf(err, errlen, "%s: %s", name, msg);
	return ret;
}

int ss_disk_params_format(const struct ss_disk_params *p, char *buf, size_t len)
{
	size_t n = 0;
	int w = snprintf(buf, len, "model = %s\n", p->name);

	for (size_t i = 0; w >= 0 && i < NR_KEYS; i++) {
		const struct key *k = &keys[i];
		const char *f = (const char *)p + k->off;

		n += (size_t)w;
		if (!(k->kinds & (1u << p->kind))) {
			w = 0;
			continue;
		}
		if (k->type == K_BOOL)
			w = snprintf(n < len ? buf + n : NULL, n < len ? len - n : 0, "%s = %s\n",
				     k->name, *(const bool *)f ? "on" : "off");
		else if (k->type == K_UINT)
			w = snprintf(n < len ? buf + n : NULL, n < len ? len - n : 0, "%s = %u\n",
				     k->name, *(const unsigned *)f);
		else
			w = snprintf(n < len ? buf + n : NULL, n < len ? len - n : 0, "%s = %.17g\n",
				     k->name, *(const double *)f);
	}
	return w < 0 ? w : (int)(n + (size_t)w);
}
