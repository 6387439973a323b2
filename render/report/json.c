// SPDX-License-Identifier: GPL-2.0-or-later
/* Streaming JSON writer (see json.h). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "json.h"

void ss_json_init(struct ss_json *j, FILE *f)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
}

int ss_json_finish(struct ss_json *j)
{
	if (j->misuse || j->depth != 0 || j->want_value)
		return -EINVAL;
	return ferror(j->f) ? -EIO : 0;
}

/* Before any value: a comma between items, and a check that a value is allowed here. */
static void pre_value(struct ss_json *j)
{
	if (j->want_value) {
		j->want_value = false;
		return;
	}
	if (j->depth > 0) {
		if (j->is_object[j->depth - 1])
			j->misuse = true;   /* object members need a key first */
		if (j->has_items[j->depth - 1])
			fputc(',', j->f);
		j->has_items[j->depth - 1] = true;
	}
}

static void begin(struct ss_json *j, bool object)
{
	pre_value(j);
	fputc(object ? '{' : '[', j->f);
	if (j->depth >= SS_JSON_MAX_DEPTH) {
		j->misuse = true;
		return;
	}
	j->is_object[j->depth] = object;
	j->has_items[j->depth] = false;
	j->depth++;
}

static void end(struct ss_json *j, bool object)
{
	if (j->depth == 0 || j->is_object[j->depth - 1] != object || j->want_value)
		j->misuse = true;
	else
		j->depth--;
	fputc(object ? '}' : ']', j->f);
	if (j->depth == 0)
		fputc('\n', j->f);      /* one line per top-level value: JSON Lines */
}

void ss_json_begin_object(struct ss_json *j) { begin(j, true); }
void ss_json_end_object(struct ss_json *j) { end(j, true); }
void ss_json_begin_array(struct ss_json *j) { begin(j, false); }
void ss_json_end_array(struct ss_json *j) { end(j, false); }

void ss_json_key(struct ss_json *j, const char *key)
{
	if (j->depth == 0 || !j->is_object[j->depth - 1] || j->want_value) {
		j->misuse = true;
		return;
	}
	if (j->has_items[j->depth - 1])
		fputc(',', j->f);
	j->has_items[j->depth - 1] = true;
	ss_json_write_escaped(j->f, key, strlen(key));
	fputc(':', j->f);
	j->want_value = true;
}

/* Length of the valid UTF-8 sequence at s (1..4), or 0 if it is not valid. */
size_t ss_utf8_seq_len(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned char c;
	size_t len;
	uint32_t cp;

	if (!n)
		return 0;
	c = s[0];
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
		cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		cp = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		cp = c & 0x07;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	/* overlong forms, UTF-16 surrogates and values past U+10FFFF are not UTF-8 */
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

void ss_json_write_escaped(FILE *f, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;

	fputc('"', f);
	for (size_t i = 0; i < n && s[i];) {
		unsigned char c = s[i];
		size_t len;

		switch (c) {
		case '"': fputs("\\\"", f); i++; continue;
		case '\\': fputs("\\\\", f); i++; continue;
		case '\b': fputs("\\b", f); i++; continue;
		case '\f': fputs("\\f", f); i++; continue;
		case '\n': fputs("\\n", f); i++; continue;
		case '\r': fputs("\\r", f); i++; continue;
		case '\t': fputs("\\t", f); i++; continue;
		default: break;
		}
		if (c < 0x20) {
			fprintf(f, "\\u%04x", c);
			i++;
			continue;
		}
		len = ss_utf8_seq_len((const char *)s + i, n - i);
		if (!len) {
			fputs("\\ufffd", f);
			i++;
			continue;
		}
		fwrite(s + i, 1, len, f);
		i += len;
	}
	fputc('"', f);
}

void ss_json_string_n(struct ss_json *j, const char *s, size_t n)
{
	if (!s) {
		ss_json_null(j);
		return;
	}
	pre_value(j);
	ss_json_write_escaped(j->f, s, n);
}

void ss_json_string(struct ss_json *j, const char *s)
{
	ss_json_string_n(j, s, s ? strlen(s) : 0);
}

void ss_json_u64(struct ss_json *j, uint64_t v)
{
	pre_value(j);
	fprintf(j->f, "%" PRIu64, v);
}

void ss_json_i64(struct ss_json *j, int64_t v)
{
	pre_value(j);
	fprintf(j->f, "%" PRId64, v);
}

void ss_json_double(struct ss_json *j, double v)
{
	if (!isfinite(v)) {
		ss_json_null(j);
		return;
	}
	pre_value(j);
	/* %g never prints a bare "." or "inf" for finite values; -0 prints as 0 */
	fprintf(j->f, "%.12g", v == 0 ? 0.0 : v);
}

void ss_json_bool(struct ss_json *j, bool v)
{
	pre_value(j);
	fputs(v ? "true" : "false", j->f);
}

void ss_json_null(struct ss_json *j)
{
	pre_value(j);
	fputs("null", j->f);
}

void ss_json_kv_string(struct ss_json *j, const char *k, const char *s)
{
	ss_json_key(j, k);
	ss_json_string(j, s);
}

void ss_json_kv_string_n(struct ss_json *j, const char *k, const char *s, size_t n)
{
	ss_json_key(j, k);
	ss_json_string_n(j, s, n);
}

void ss_json_kv_u64(struct ss_json *j, const char *k, uint64_t v)
{
	ss_json_key(j, k);
	ss_json_u64(j, v);
}

void ss_json_kv_i64(struct ss_json *j, const char *k, int64_t v)
{
	ss_json_key(j, k);
	ss_json_i64(j, v);
}

void ss_json_kv_double(struct ss_json *j, const char *k, double v)
{
	ss_json_key(j, k);
	ss_json_double(j, v);
}

void ss_json_kv_bool(struct ss_json *j, const char *k, bool v)
{
	ss_json_key(j, k);
	ss_json_bool(j, v);
}
