// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The option vocabulary (docs/options.md) and the man pages (docs/man/) against the option
 * tables of seekscope and of every command in its table (collector/cli/commands.c):
 *   - one long name has one letter (or none) and one argument name in every table, one letter
 *     one long name; every table has -h/--help and -V/--version;
 *   - every option is a row of docs/options.md with its letter, argument and the exact list of
 *     commands that have it, and every row is still such an option;
 *   - every command has a man page docs/man/seekscope[-CMD].1.scd whose OPTIONS are exactly
 *     its table's (letter, long name, argument), with NAME, SYNOPSIS, EXIT STATUS and SEE
 *     ALSO; seekscope(1) lists every command.
 * A new command, a new option or a changed letter fails here until the docs say the same.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "commands.h"

/* A TAP comment line: what a failed check found. */
static void diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

#define MAX_TABLES 16
#define MAX_ROWS 128

struct table {
	const char *cmd;           /* "seekscope" for seekscope's own options */
	const struct ss_option *opts;
	size_t nr;
};

static struct table tables[MAX_TABLES];
static size_t nr_tables;
static char top_desc[2048];

static void collect(void)
{
	struct ss_help top;

	ss_top_help(&top, top_desc, sizeof(top_desc));
	tables[nr_tables++] = (struct table){ "seekscope", top.opts, top.nr_opts };
	for (size_t i = 0; i < ss_nr_commands && nr_tables < MAX_TABLES; i++)
		tables[nr_tables++] = (struct table){ ss_commands[i].name, ss_commands[i].help->opts,
						      ss_commands[i].help->nr_opts };
}

static bool has_letter(const struct ss_option *o)
{
	return o->val < SS_OPT_LONG_ONLY;
}

static bool same_arg(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static const struct ss_option *find_long(const struct table *t, const char *name)
{
	for (size_t i = 0; i < t->nr; i++)
		if (!strcmp(t->opts[i].name, name))
			return &t->opts[i];
	return NULL;
}

/* One long name, one letter and argument; one letter, one long name; --help and --version. */
static void test_consistent(void)
{
	int clashes = 0;

	for (size_t a = 0; a < nr_tables; a++)
		for (size_t i = 0; i < tables[a].nr; i++) {
			const struct ss_option *o = &tables[a].opts[i];

			for (size_t b = a; b < nr_tables; b++)
				for (size_t k = b == a ? i + 1 : 0; k < tables[b].nr; k++) {
					const struct ss_option *p = &tables[b].opts[k];
					bool same_name = !strcmp(o->name, p->name);
					bool same_letter = has_letter(o) && has_letter(p) &&
							   o->val == p->val;

					if (!same_name && !same_letter)
						continue;
					if (same_name && has_letter(o) == has_letter(p) &&
					    (!has_letter(o) || o->val == p->val) &&
					    same_arg(o->arg, p->arg))
						continue;
					clashes++;
					diag("%s --%s (-%c %s) vs %s --%s (-%c %s)", tables[a].cmd,
					     o->name, has_letter(o) ? o->val : ' ',
					     o->arg ? o->arg : "", tables[b].cmd, p->name,
					     has_letter(p) ? p->val : ' ', p->arg ? p->arg : "");
				}
		}
	is_int(clashes, 0, "one letter and argument per long name, one long name per letter, "
	       "across %zu tables", nr_tables);
	for (size_t a = 0; a < nr_tables; a++) {
		const struct ss_option *h = find_long(&tables[a], "help");
		const struct ss_option *v = find_long(&tables[a], "version");

		ok(h && h->val == 'h' && !h->arg && v && v->val == 'V' && !v->arg,
		   "%s has -h/--help and -V/--version", tables[a].cmd);
	}
}

static char *slurp(const char *rel)
{
	char path[4096];
	FILE *f;
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	snprintf(path, sizeof(path), "%s/%s", SS_SRCDIR, rel);
	if (!(f = fopen(path, "r")))
		return NULL;
	do {
		if (len + 4096 + 1 > cap && !(buf = realloc(buf, cap = 2 * cap + 4096 + 1)))
			break;
		n = fread(buf + len, 1, 4096, f);
		len += n;
	} while (n > 0);
	fclose(f);
	if (buf)
		buf[len] = 0;
	return buf;
}

/* S[0..LEN) without blanks and backticks around, into OUT. */
static void cell(const char *s, size_t len, char *out, size_t outlen)
{
	while (len && (*s == ' ' || *s == '`'))
		s++, len--;
	while (len && (s[len - 1] == ' ' || s[len - 1] == '`'))
		len--;
	snprintf(out, outlen, "%.*s", (int)len, s);
}

struct row {
	char name[64], letter[8], arg[32], cmds[256];
};

/* The rows of docs/options.md's vocabulary table. */
static size_t read_rows(const char *doc, struct row *rows, size_t max)
{
	const char *p = strstr(doc, "\n| long | letter | argument | commands |");
	size_t n = 0;

	if (!p)
		return 0;
	p = strchr(p + 1, '\n');            /* the header */
	p = p ? strchr(p + 1, '\n') : NULL; /* the |---| line */
	while (p && p[1] == '|' && n < max) {
		const char *c[6];
		int k = 0;

		for (const char *q = p + 1; k < 6 && *q && *q != '\n'; q++)
			if (*q == '|')
				c[k++] = q;
		if (k < 6)
			break;
		cell(c[0] + 1, (size_t)(c[1] - c[0] - 1), rows[n].name, sizeof(rows[n].name));
		cell(c[1] + 1, (size_t)(c[2] - c[1] - 1), rows[n].letter, sizeof(rows[n].letter));
		cell(c[2] + 1, (size_t)(c[3] - c[2] - 1), rows[n].arg, sizeof(rows[n].arg));
		cell(c[3] + 1, (size_t)(c[4] - c[3] - 1), rows[n].cmds, sizeof(rows[n].cmds));
		n++;
		p = strchr(p + 1, '\n');
	}
	return n;
}

/* Is CMD in the comma-separated LIST? */
static bool listed(const char *list, const char *cmd)
{
	size_t len = strlen(cmd);

	for (const char *p = list; *p;) {
		size_t n = strcspn(p, ",");
		const char *s = p;

		while (*s == ' ')
			s++, n--;
		if (n == len && !strncmp(s, cmd, len))
			return true;
		p += strcspn(p, ",");
		p += *p == ',';
	}
	return false;
}

static void test_options_doc(void)
{
	static struct row rows[MAX_ROWS];
	char *doc = slurp("docs/options.md");
	size_t n;
	int missing = 0, stale = 0;

	ok(doc != NULL, "docs/options.md is there");
	if (!doc)
		return;
	n = read_rows(doc, rows, MAX_ROWS);
	ok(n > 10, "... with its vocabulary table (%zu rows)", n);
	for (size_t a = 0; a < nr_tables; a++)
		for (size_t i = 0; i < tables[a].nr; i++) {
			const struct ss_option *o = &tables[a].opts[i];
			char want_name[64], want_letter[8];
			bool found = false;

			snprintf(want_name, sizeof(want_name), "--%s", o->name);
			snprintf(want_letter, sizeof(want_letter), has_letter(o) ? "-%c" : "", o->val);
			for (size_t r = 0; r < n; r++)
				found |= !strcmp(rows[r].name, want_name) &&
					 !strcmp(rows[r].letter, want_letter) &&
					 !strcmp(rows[r].arg, o->arg ? o->arg : "") &&
					 listed(rows[r].cmds, tables[a].cmd);
			if (!found) {
				missing++;
				diag("docs/options.md has no row '| `%s` | `%s` | `%s` | ... %s ...'",
				     want_name, want_letter, o->arg ? o->arg : "", tables[a].cmd);
			}
		}
	is_int(missing, 0, "every option of every table is a row of docs/options.md");
	for (size_t r = 0; r < n; r++)
		for (size_t a = 0; a < nr_tables; a++)
			if (listed(rows[r].cmds, tables[a].cmd) !=
			    (find_long(&tables[a], rows[r].name + 2) != NULL)) {
				stale++;
				diag("docs/options.md: %s %s %s", rows[r].name,
				     listed(rows[r].cmds, tables[a].cmd) ? "lists" : "leaves out",
				     tables[a].cmd);
			}
	is_int(stale, 0, "every row names exactly the commands that have the option");
	free(doc);
}

/*
 * One term line of a man page's OPTIONS: "*-o*, *--output* _FILE_", "*--no-zones*".  Its
 * parts into LETTER (0: none), NAME and ARG; false when LINE is not in that form.
 */
static bool parse_term(const char *line, size_t len, int *letter, char *name, size_t namelen,
		       char *arg, size_t arglen)
{
	const char *p = line, *end = line + len, *q;

	*letter = 0;
	name[0] = arg[0] = 0;
	if (len > 6 && p[0] == '*' && p[1] == '-' && p[2] != '-') {
		if (strncmp(p + 3, "*, ", 3))
			return false;
		*letter = (unsigned char)p[2];
		p += 6;
	}
	if (end - p < 5 || strncmp(p, "*--", 3) || !(q = memchr(p + 3, '*', (size_t)(end - p - 3))))
		return false;
	snprintf(name, namelen, "%.*s", (int)(q - p - 3), p + 3);
	p = q + 1;
	if (p == end)
		return true;
	if (end - p < 3 || p[0] != ' ' || p[1] != '_' || end[-1] != '_')
		return false;
	snprintf(arg, arglen, "%.*s", (int)(end - p - 3), p + 2);
	return !strchr(arg, '_') && !strchr(arg, ' ');
}

static void test_man_page(const struct table *t)
{
	char rel[128], head[160];
	char *page;
	const char *p, *end;
	bool seen[SS_OPTABLE_MAX] = { false };
	int bad = 0, terms = 0;

	char name_of_page[64];

	snprintf(name_of_page, sizeof(name_of_page), "seekscope%s%s",
		 strcmp(t->cmd, "seekscope") ? "-" : "", strcmp(t->cmd, "seekscope") ? t->cmd : "");
	snprintf(rel, sizeof(rel), "docs/man/%s.1.scd", name_of_page);
	page = slurp(rel);
	ok(page != NULL, "%s is there", rel);
	if (!page) {
		skip(3, "no page");
		return;
	}
	snprintf(head, sizeof(head), "%s(1)\n\n# NAME\n\n%s - ", name_of_page, name_of_page);
	ok(!strncmp(page, head, strlen(head)) && strstr(page, "\n# SYNOPSIS\n") &&
	   strstr(page, "\n# EXIT STATUS\n") && strstr(page, "\n# SEE ALSO\n") &&
	   strstr(page, "\n# EXAMPLES\n"), "... NAME, SYNOPSIS, EXIT STATUS, EXAMPLES, SEE ALSO");
	p = strstr(page, "\n# OPTIONS\n");
	end = p ? strstr(p + 1, "\n# ") : NULL;
	for (p = p ? p + 1 : NULL; p && end && p < end; p = strchr(p, '\n') + 1) {
		size_t len = strcspn(p, "\n");
		char name[64], arg[32];
		const struct ss_option *o;
		int letter;

		if (p[0] != '*' || p[1] != '-')
			continue;
		terms++;
		if (!parse_term(p, len, &letter, name, sizeof(name), arg, sizeof(arg))) {
			bad++;
			diag("%s: not an option term: %.*s", rel, (int)len, p);
			continue;
		}
		o = find_long(t, name);
		if (!o || (has_letter(o) ? o->val != letter : letter != 0) ||
		    strcmp(o->arg ? o->arg : "", arg)) {
			bad++;
			diag("%s: '%.*s' is not an option of %s's table", rel, (int)len, p, t->cmd);
			continue;
		}
		seen[o - t->opts] = true;
	}
	for (size_t i = 0; i < t->nr; i++)
		if (!seen[i]) {
			bad++;
			diag("%s: --%s of the table is missing from OPTIONS", rel, t->opts[i].name);
		}
	ok(terms > 0 && bad == 0, "... its OPTIONS are the table's: %d terms, %d mismatches",
	   terms, bad);
	if (!strcmp(t->cmd, "seekscope")) {
		int unlisted = 0;

		for (size_t i = 0; i < ss_nr_commands; i++) {
			char term[64];

			snprintf(term, sizeof(term), "\n*%s*\n", ss_commands[i].name);
			unlisted += !strstr(page, term);
		}
		is_int(unlisted, 0, "... COMMANDS lists every command");
	} else {
		ok(strstr(page, "seekscope(1)") != NULL, "... refers to seekscope(1)");
	}
	free(page);
}

int main(void)
{
	collect();
	test_consistent();
	test_options_doc();
	for (size_t a = 0; a < nr_tables; a++)
		test_man_page(&tables[a]);
	return done_testing();
}
