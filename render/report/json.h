// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A small streaming JSON writer: compact output (one line per top-level value), commas and
 * nesting handled for the caller, strings escaped per RFC 8259 (quotes, backslash, control
 * characters as \uXXXX) and invalid UTF-8 replaced by U+FFFD so the output always parses.
 * Non-finite doubles are written as null.  Misuse (a value where a key is due, unbalanced
 * ends, nesting deeper than SS_JSON_MAX_DEPTH) is recorded and reported by ss_json_finish().
 */
#ifndef SS_JSON_H
#define SS_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SS_JSON_MAX_DEPTH 32

struct ss_json {
	FILE *f;
	int depth;
	bool is_object[SS_JSON_MAX_DEPTH];
	bool has_items[SS_JSON_MAX_DEPTH];
	bool want_value;          /* a key was written, its value is due */
	bool misuse;
};

void ss_json_init(struct ss_json *j, FILE *f);
/* 0 if everything was balanced and written, -EINVAL on misuse, -EIO on a stream error. */
int ss_json_finish(struct ss_json *j);

void ss_json_begin_object(struct ss_json *j);
void ss_json_end_object(struct ss_json *j);
void ss_json_begin_array(struct ss_json *j);
void ss_json_end_array(struct ss_json *j);
void ss_json_key(struct ss_json *j, const char *key);

void ss_json_string(struct ss_json *j, const char *s);          /* NULL -> null */
void ss_json_string_n(struct ss_json *j, const char *s, size_t n); /* stops at a NUL too */
void ss_json_u64(struct ss_json *j, uint64_t v);
void ss_json_i64(struct ss_json *j, int64_t v);
void ss_json_double(struct ss_json *j, double v);               /* 12 significant digits */
void ss_json_bool(struct ss_json *j, bool v);
void ss_json_null(struct ss_json *j);

/* key + value in one call. */
void ss_json_kv_string(struct ss_json *j, const char *key, const char *s);
void ss_json_kv_string_n(struct ss_json *j, const char *key, const char *s, size_t n);
void ss_json_kv_u64(struct ss_json *j, const char *key, uint64_t v);
void ss_json_kv_i64(struct ss_json *j, const char *key, int64_t v);
void ss_json_kv_double(struct ss_json *j, const char *key, double v);
void ss_json_kv_bool(struct ss_json *j, const char *key, bool v);

/* Length (1..4) of the valid UTF-8 sequence at s[0..n), or 0 if s does not start one. */
size_t ss_utf8_seq_len(const char *s, size_t n);

/* Write s as a JSON string literal (quotes included) to f; used by the emitter and tests. */
void ss_json_write_escaped(FILE *f, const char *s, size_t n);

#endif
