// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: the HTML viewer's data encoder (render/html: the fine and coarse columns, the
 * request detail, the size budget that leaves the densest stretches' detail out, the metadata
 * JSON, the base64 blobs, the page around them) on untrusted traces and option values, written
 * by ss_html_write into a directory of the harness's own.
 *
 * Input: FUZZ_GRAPH_HDR option bytes (fuzz_graph.h: panels, one or two columns, x/y ranges,
 * units, rolling, seek threshold), then byte 32 (the budget: 0 the default, else the viewer's
 * script and stylesheet plus that many half KiB, so that small traces overflow it too) and byte 33
 * (bit 0: --align extract, bit 1: --disk hdd7200, bit 2: colour by process, bit 3: only pid 1
 * and comm t*), then a seekscope trace (record CRCs recomputed as in fuzz_trace.c).
 * Invariants: a failure has a message and leaves no file behind; a page is no larger than
 * the budget, and as large as the result says; it begins and ends as an HTML document; its
 * metadata is valid JSON (checked by the small validator below) that cannot close its
 * <script> element; each column has its data blob, in base64; no more requests are left out
 * than the window holds.
 */
#include <dirent.h>
#include <sys/stat.h>

#include "fuzz.h"
#include "fuzz_consume.h"
#include "fuzz_graph.h"
#include "html.h"
#include "web_assets.h"

#define FUZZ_HTML_HDR (FUZZ_GRAPH_HDR + 2)
#define JSON_MAX_DEPTH 64

static int memfd = -1;
static char dir[4096], page[4160];

static void remove_dir(void)
{
	unlink(page);
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *base = getenv("FUZZ_SANDBOX_DIR");

	(void)argc, (void)argv;
	if (!base || !*base)
		base = getenv("TMPDIR");
	if (!base || !*base)
		base = "/tmp";
	snprintf(dir, sizeof(dir), "%.4000s/html-fuzz.XXXXXX", base);
	if (!mkdtemp(dir)) {
		fprintf(stderr, "fuzz_html: mkdtemp %s: %s\n", dir, strerror(errno));
		exit(1);
	}
	snprintf(page, sizeof(page), "%s/page.html", dir);
	atexit(remove_dir);
	return 0;
}

/* ---- a strict JSON validator (RFC 8259), for the metadata ---- */

struct json {
	const char *p, *end;
};

static void json_ws(struct json *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r'))
		j->p++;
}

static bool json_lit(struct json *j, const char *lit)
{
	size_t n = strlen(lit);

	if ((size_t)(j->end - j->p) < n || memcmp(j->p, lit, n))
		return false;
	j->p += n;
	return true;
}

static bool json_digits(struct json *j)
{
	const char *s = j->p;

	while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
		j->p++;
	return j->p > s;
}

static bool json_number(struct json *j)
{
	if (j->p < j->end && *j->p == '-')
		j->p++;
	if (j->p < j->end && *j->p == '0')
		j->p++;
	else if (!json_digits(j))
		return false;
	if (j->p < j->end && *j->p == '.') {
		j->p++;
		if (!json_digits(j))
			return false;
	}
	if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
		j->p++;
		if (j->p < j->end && (*j->p == '+' || *j->p == '-'))
			j->p++;
		if (!json_digits(j))
			return false;
	}
	return true;
}

static bool json_string(struct json *j)
{
	if (j->p >= j->end || *j->p != '"')
		return false;
	for (j->p++; j->p < j->end; j->p++) {
		unsigned char c = (unsigned char)*j->p;

		if (c == '"') {
			j->p++;
			return true;
		}
		if (c < 0x20)
			return false;
		if (c != '\\')
			continue;
		if (++j->p >= j->end)
			return false;
		if (*j->p == 'u') {
			for (int k = 0; k < 4; k++)
				if (++j->p >= j->end || !strchr("0123456789abcdefABCDEF", *j->p) || !*j->p)
					return false;
		} else if (!*j->p || !strchr("\"\\/bfnrt", *j->p)) {
			return false;
		}
	}
	return false;
}

static bool json_value(struct json *j, int depth)
{
	char close;

	json_ws(j);
	if (j->p >= j->end)
		return false;
	switch (*j->p) {
	case '"':
		return json_string(j);
	case 't':
		return json_lit(j, "true");
	case 'f':
		return json_lit(j, "false");
	case 'n':
		return json_lit(j, "null");
	case '{':
	case '[':
		break;
	default:
		return json_number(j);
	}
	if (depth >= JSON_MAX_DEPTH)
		return false;
	close = *j->p == '{' ? '}' : ']';
	j->p++;
	json_ws(j);
	if (j->p < j->end && *j->p == close) {
		j->p++;
		return true;
	}
	for (;;) {
		if (close == '}') {
			json_ws(j);
			if (!json_string(j))
				return false;
			json_ws(j);
			if (j->p >= j->end || *j->p++ != ':')
				return false;
		}
		if (!json_value(j, depth + 1))
			return false;
		json_ws(j);
		if (j->p >= j->end)
			return false;
		if (*j->p == close) {
			j->p++;
			return true;
		}
		if (*j->p++ != ',')
			return false;
	}
}

/* ---- the page ---- */

static char *read_page(size_t *len)
{
	struct stat st;
	char *buf;
	FILE *f = fopen(page, "rbe");

	if (!f)
		return NULL;
	if (fstat(fileno(f), &st) < 0 || !(buf = malloc((size_t)st.st_size + 1))) {
		fclose(f);
		return NULL;
	}
	*len = fread(buf, 1, (size_t)st.st_size, f);
	buf[*len] = '\0';
	fclose(f);
	return buf;
}

/* The text between OPEN and the next "</script>" in [P, END): its start, length in *LEN. */
static const char *element(const char *p, const char *end, const char *open, size_t *len)
{
	const char *s = memmem(p, (size_t)(end - p), open, strlen(open)), *e;

	if (!s)
		return NULL;
	s += strlen(open);
	e = memmem(s, (size_t)(end - s), "</script>", 9);
	if (!e)
		return NULL;
	*len = (size_t)(e - s);
	return s;
}

static void check_page(const struct ss_html_result *r, size_t budget, int cols)
{
	static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	static const char head[] = "<!DOCTYPE html>\n", tail[] = "</body></html>\n";
	size_t len = 0, n;
	char *html = read_page(&len);
	const char *end, *meta, *cur;
	struct json j;

	FUZZ_ASSERT(html, "no page after success: %s", strerror(errno));
	end = html + len;
	FUZZ_ASSERT(len == r->bytes, "page is %zu bytes, the result says %zu", len, r->bytes);
	FUZZ_ASSERT(len <= budget, "page of %zu bytes over its budget of %zu", len, budget);
	FUZZ_ASSERT(r->dropped <= r->requests, "%llu of %llu requests left out",
		    (unsigned long long)r->dropped, (unsigned long long)r->requests);
	FUZZ_ASSERT(len >= sizeof(head) + sizeof(tail) && !memcmp(html, head, sizeof(head) - 1) &&
		    !memcmp(end - (sizeof(tail) - 1), tail, sizeof(tail) - 1),
		    "the page does not begin and end as an HTML document");

	meta = element(html, end, "<script type=\"application/json\" id=\"ss-meta\">", &n);
	FUZZ_ASSERT(meta, "no metadata element");
	FUZZ_ASSERT(!memmem(meta, n, "</", 2) && !memmem(meta, n, "<!--", 4),
		    "the metadata can end its element");
	j = (struct json){ meta, meta + n };
	FUZZ_ASSERT(json_value(&j, 0), "metadata is not JSON at byte %zu of %zu: %.40s",
		    (size_t)(j.p - meta), n, j.p);
	json_ws(&j);
	FUZZ_ASSERT(j.p == j.end, "text after the metadata's JSON value: %.40s", j.p);
	cur = meta + n;

	for (int c = 0; c < cols; c++) {
		char open[96];
		const char *blob;

		snprintf(open, sizeof(open), "<script type=\"application/octet-stream\" id=\"ss-data-%d\">",
			 c);
		blob = element(cur, end, open, &n);
		FUZZ_ASSERT(blob, "no data blob for column %d", c);
		cur = blob + n;
		FUZZ_ASSERT(n % 4 == 0, "column %d: base64 of %zu characters", c, n);
		for (size_t i = 0; i < n; i++)
			FUZZ_ASSERT((blob[i] && strchr(b64, blob[i])) ||
				    (blob[i] == '=' && i + 2 >= n && (i + 1 == n || blob[i + 1] == '=')),
				    "column %d: '%c' at %zu of its base64", c, blob[i], i);
	}
	free(html);
}

/* The harness's directory holds the page or, when EXPECT_PAGE is false, nothing. */
static void check_dir(bool expect_page)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int files = 0;

	FUZZ_ASSERT(d, "%s: %s", dir, strerror(errno));
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		FUZZ_ASSERT(expect_page && !strcmp(de->d_name, "page.html"), "%s left in the directory",
			    de->d_name);
		files++;
	}
	closedir(d);
	FUZZ_ASSERT(files == expect_page, "%d files, %d expected", files, expect_page);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const labels[] = { "first", "second" };
	struct ss_graph_opts g;
	struct ss_html_opts o = { .g = &g };
	struct ss_html_result r;
	struct ss_trace *t[2] = { NULL, NULL };
	char path[64], err[512] = "";
	const uint8_t *h = data;
	size_t budget;
	int cols, ret;

	if (size < FUZZ_HTML_HDR || size > (1u << 20))
		return 0;
	cols = fuzz_graph_opts(h, &g);
	if (h[32])
		o.max_bytes = ss_web_css_len + ss_web_js_len + (size_t)h[32] * 512;
	budget = o.max_bytes ? o.max_bytes : SS_HTML_MAX_BYTES_DEFAULT;
	if (h[33] & 1)
		g.align = "extract";
	if (h[33] & 2) {
		g.has_disk = true;
		FUZZ_ASSERT(ss_disk_params_preset("hdd7200", &g.disk) == 0, "no hdd7200 preset");
	}
	if (h[33] & 4) {
		g.color_by_group = true;
		g.group.by = SS_GROUP_PROCESS;
	}
	if (h[33] & 8)
		g.only = (struct ss_task_spec){ .pids = { 1 }, .nr_pids = 1, .comms = { "t*" },
						.nr_comms = 1 };

	if (fuzz_sst_memfile(&memfd, data + FUZZ_HTML_HDR, size - FUZZ_HTML_HDR, path, sizeof(path)))
		return 0;
	for (int c = 0; c < cols; c++)
		if (!(t[c] = ss_trace_open(path, err, sizeof(err))))
			goto out;

	unlink(page);
	ret = ss_html_write(page, &o, t, (const char *const *)labels, cols, &r, err, sizeof(err));
	if (ret) {
		FUZZ_ASSERT(ret < 0 && err[0] && !strchr(err, '\n'),
			    "failure %d without a one-line message: '%s'", ret, err);
		check_dir(false);
	} else {
		check_dir(true);
		check_page(&r, budget, cols);
	}
out:
	for (int c = 0; c < cols; c++)
		ss_trace_close(t[c]);
	return 0;
}
