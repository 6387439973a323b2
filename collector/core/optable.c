// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Option tables for the commands (see optable.h): getopt_long() arrays and the --help OPTIONS
 * section built from one description of each option, and the common misuse messages.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "errbuf.h"
#include "optable.h"
#include "seekscope/version.h"

#define HELP_MAX_COLUMN 30    /* a wider option than this puts its help on the next line */

static int find_val(const struct ss_option *opts, size_t nr, int val)
{
	for (size_t i = 0; i < nr; i++)
		if (opts[i].val == val)
			return (int)i;
	return -1;
}

static int valid_short(int val)
{
	return val > ' ' && val < 127 && !strchr(":?-+;", val);
}

int ss_optable_init(struct ss_optable *t, const struct ss_option *opts, size_t nr,
		    unsigned flags)
{
	char *s = t->shortopts;

	memset(t, 0, sizeof(*t));
	if (nr > SS_OPTABLE_MAX)
		return -EINVAL;
	t->opts = opts;
	t->nr = nr;
	if (flags & SS_OPTABLE_STOP_AT_OPERAND)
		*s++ = '+';
	*s++ = ':';   /* getopt then tells a missing argument (':') from an unknown option ('?') */
	for (size_t i = 0; i < nr; i++) {
		const struct ss_option *o = &opts[i];

		if (!o->name || !o->name[0] || (o->val < SS_OPT_LONG_ONLY && !valid_short(o->val)) ||
		    find_val(opts, i, o->val) >= 0)
			goto error;
		t->longopts[i] = (struct option){ o->name, o->arg ? required_argument : no_argument,
						  NULL, o->val };
		if (o->val < SS_OPT_LONG_ONLY) {
			*s++ = (char)o->val;
			if (o->arg)
				*s++ = ':';
		}
	}
	*s = '\0';
	return 0;
error:
	memset(t, 0, sizeof(*t));
	return -EINVAL;
}

int ss_optable_next(struct ss_optable *t, int argc, char **argv)
{
	if (!t->started) {
		optind = 0;   /* 0, not 1: also resets glibc's position inside a cluster like -ab */
		opterr = 0;
		t->started = 1;
	}
	return getopt_long(argc, argv, t->shortopts, t->longopts, NULL);
}

/* ARG as a long option name: what follows "--" up to a '='. */
static int long_name_len(const char *arg)
{
	return (int)strcspn(arg + 2, "=");
}

int ss_optable_error(const struct ss_optable *t, int c, char **argv, char *err, size_t errlen)
{
	/*
	 * getopt says which option failed only through optopt: 0 for a long option it could not
	 * match; the option's value for one that lacks its argument or got one it does not take
	 * (for a long option, which is then argv[optind - 1], as for a short one); the letter for
	 * an unknown short option, which may stand inside a cluster (so argv does not tell).
	 */
	const char *last = optind >= 1 && argv[optind - 1] ? argv[optind - 1] : "";
	int i = find_val(t->opts, t->nr, optopt);
	bool is_long = !strncmp(last, "--", 2) && last[2];

	if (c == ':' && i >= 0 && is_long)
		ss_errf(err, errlen, "option '--%s' needs an argument", t->opts[i].name);
	else if (c == ':' && i >= 0)
		ss_errf(err, errlen, "option '-%c' needs an argument", optopt);
	else if (optopt == 0 && is_long) {
		int len = long_name_len(last), matches = 0;

		for (size_t k = 0; k < t->nr; k++)
			matches += !strncmp(t->opts[k].name, last + 2, (size_t)len);
		ss_errf(err, errlen, "%s option '--%.*s'", matches > 1 && len ? "ambiguous" : "unknown",
			len, last + 2);
	} else if (i >= 0 && is_long)
		ss_errf(err, errlen, "option '--%s' takes no argument", t->opts[i].name);
	else if (optopt > 0 && optopt < 128 && isprint(optopt))
		ss_errf(err, errlen, "unknown option '-%c'", optopt);
	else
		ss_errf(err, errlen, "unknown option '-\\x%02x'", (unsigned)optopt & 0xff);
	return -EINVAL;
}

/* "-o, --output FILE" or "    --no-zones" into BUF; its length. */
static int option_head(const struct ss_option *o, char *buf, size_t len)
{
	char letter[5] = "    ";

	if (o->val < SS_OPT_LONG_ONLY)
		snprintf(letter, sizeof(letter), "-%c, ", o->val);
	return snprintf(buf, len, "%s--%s%s%s", letter, o->name, o->arg ? " " : "",
			o->arg ? o->arg : "");
}

void ss_optable_help(FILE *f, const struct ss_option *opts, size_t nr)
{
	char head[96];
	int width = 0;

	for (size_t i = 0; i < nr; i++) {
		int n = option_head(&opts[i], head, sizeof(head));

		if (n > width && n <= HELP_MAX_COLUMN)
			width = n;
	}
	for (size_t i = 0; i < nr; i++) {
		const char *p = opts[i].help ? opts[i].help : "";
		int n = option_head(&opts[i], head, sizeof(head));
		char made[2048];

		if (opts[i].help_fn) {
			opts[i].help_fn(made, sizeof(made));
			p = made;
		}

		if (n > width)   /* too wide for the column: the help starts on the next line */
			fprintf(f, "  %s\n  %-*s  ", head, width, "");
		else
			fprintf(f, "  %-*s  ", width, head);
		for (const char *nl; (nl = strchr(p, '\n')); p = nl + 1)
			fprintf(f, "%.*s\n  %-*s  ", (int)(nl - p), p, width, "");
		fprintf(f, "%s\n", p);
	}
}

void ss_help_print(FILE *f, const struct ss_help *h)
{
	fprintf(f, "USAGE: %s\n\n%s\n\nOPTIONS:\n", h->usage, h->description);
	ss_optable_help(f, h->opts, h->nr_opts);
	if (h->sections)
		fprintf(f, "\n%s\n", h->sections);
	fprintf(f, "\nEXAMPLES:\n%s\n", h->examples);
}

int ss_optarg_uint(const char *s, int base, uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!s || !isdigit((unsigned char)s[0]))   /* strtoull would take blanks and a sign */
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, base);
	if (*end || end == s)
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	if (errno)
		return -EINVAL;
	*out = v;
	return 0;
}

int ss_optarg_unsigned(const char *s, unsigned min, unsigned max, unsigned *out)
{
	uint64_t v;
	int ret = ss_optarg_uint(s, 10, min, max, &v);

	if (!ret)
		*out = (unsigned)v;
	return ret;
}

/* Leading decimal digits of S (up to END) into *V, the first byte after them into *P.  -EINVAL
 * when there are none, -ERANGE past UINT64_MAX. */
static int scan_digits(const char *s, const char *end, const char **p, uint64_t *v)
{
	const char *q = s;
	uint64_t n = 0;

	for (; q < end && *q >= '0' && *q <= '9'; q++) {
		unsigned d = (unsigned)(*q - '0');

		if (n > (UINT64_MAX - d) / 10)
			return -ERANGE;
		n = n * 10 + d;
	}
	*p = q;
	*v = n;
	return q == s ? -EINVAL : 0;
}

int ss_optarg_uint_len(const char *s, size_t len, uint64_t min, uint64_t max, uint64_t *out)
{
	const char *p;
	uint64_t v;
	int ret = scan_digits(s, s + len, &p, &v);

	if (ret)
		return ret;
	if (p != s + len)
		return -EINVAL;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

/*
 * sectors = round(x * 2^e) with x = WHOLE.FRAC and e the suffix's power of two over a 512-byte
 * sector (0 without a suffix), in integers: WHOLE << e plus the fraction's share rounded,
 * FRAC < 10^9 so that FRAC << 31 fits.
 */
int ss_optarg_sectors(const char *s, size_t len, uint64_t max, uint64_t *sectors)
{
	static const struct { char c; int e; } suffixes[] = {
		{ 'k', 1 }, { 'm', 11 }, { 'g', 21 }, { 't', 31 },
	};
	const char *p, *end = s + len;
	uint64_t whole, frac = 0, scale = 1, part, v;
	int e = 0, digits = 0, ret;

	if ((ret = scan_digits(s, end, &p, &whole)))
		return ret;
	if (p < end && *p == '.') {
		for (p++; p < end && *p >= '0' && *p <= '9'; p++) {
			if (++digits > SS_OPTARG_MAX_FRACTION_DIGITS)
				return -EINVAL;
			frac = frac * 10 + (uint64_t)(*p - '0');
			scale *= 10;
		}
	}
	if (p < end) {
		for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++)
			if ((*p | 0x20) == suffixes[i].c)
				e = suffixes[i].e;
		if (!e)
			return -EINVAL;
		p++;
		if ((size_t)(end - p) == 1 && (*p | 0x20) == 'b')
			p++;
		else if ((size_t)(end - p) == 2 && (*p | 0x20) == 'i' && (p[1] | 0x20) == 'b')
			p += 2;
	}
	if (p != end)
		return -EINVAL;
	if (whole > UINT64_MAX >> e)
		return -ERANGE;
	part = ((frac << e) + scale / 2) / scale;
	if ((whole << e) > UINT64_MAX - part)
		return -ERANGE;
	v = (whole << e) + part;
	if (v > max)
		return -ERANGE;
	*sectors = v;
	return 0;
}

int ss_optable_parse(const struct ss_option *opts, size_t nr, unsigned flags, int argc,
		     char **argv, int (*take)(void *ctx, int c, const char *arg, char *err,
					       size_t errlen),
		     void *ctx, char *err, size_t errlen)
{
	struct ss_optable t;
	int c, ret;

	ss_errf(err, errlen, "%s", "");
	if (ss_optable_init(&t, opts, nr, flags)) {
		ss_errf(err, errlen, "internal error: bad option table");
		return -EINVAL;
	}
	while ((c = ss_optable_next(&t, argc, argv)) != -1) {
		if (c == ':' || c == '?')
			return ss_optable_error(&t, c, argv, err, errlen);
		if (c == 'h' && !strcmp(opts[find_val(opts, nr, c)].name, "help"))
			return SS_PARSE_HELP;
		if (c == 'V' && !strcmp(opts[find_val(opts, nr, c)].name, "version"))
			return SS_PARSE_VERSION;
		if ((ret = take(ctx, c, optarg, err, errlen)))
			return ret;
	}
	return 0;
}

int ss_optable_unhandled(int c, char *err, size_t errlen)
{
	ss_errf(err, errlen, "internal error: option %d not handled", c);
	return -EINVAL;
}

int ss_optable_misuse(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "seekscope%s%s: ", cmd ? " " : "", cmd ? cmd : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see 'seekscope%s%s --help')\n", cmd ? " " : "", cmd ? cmd : "");
	return 2;
}

int ss_optable_exit(int ret, const char *cmd, const struct ss_help *help, const char *err)
{
	if (ret != SS_PARSE_HELP && ret != SS_PARSE_VERSION)
		return ss_optable_misuse(cmd, "%s", err);
	if (ret == SS_PARSE_HELP)
		ss_help_print(stdout, help);
	else
		printf("seekscope %s\n", SS_VERSION);
	if (fflush(stdout) == 0 && !ferror(stdout))
		return 0;
	fprintf(stderr, "seekscope%s%s: writing the %s: %s\n", cmd ? " " : "", cmd ? cmd : "",
		ret == SS_PARSE_HELP ? "help" : "version", strerror(errno));
	return 1;
}
