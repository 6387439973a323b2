// SPDX-License-Identifier: GPL-2.0-or-later
/* Text drawing and non-overlap bookkeeping on a cairo context; see text.h. */
#include <stdio.h>
#include <string.h>

#include "text.h"

#define TEXT_MAX 512    /* longest text drawn, in bytes (longer is cut at a character) */

/* Length of the valid UTF-8 sequence at S (RFC 3629: no overlongs, surrogates or code points
 * above U+10FFFF, which cairo refuses too), or 0 if S does not start one. */
static size_t utf8_seq(const unsigned char *s)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	size_t n;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
	else
		return 0;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

/*
 * S as text cairo accepts: S itself when it is valid UTF-8 of at most TEXT_MAX bytes, else a
 * copy in BUF (TEXT_MAX + 1 bytes) with each invalid byte replaced by '?' and cut at a
 * character.  Names come from trace files and command lines; one bad byte must not put the
 * cairo context into its error state (which would blank the rest of the picture).
 */
static const char *drawable(const char *s, char *buf)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t k = 0, n;
	bool clean = true;

	while (*p) {
		n = utf8_seq(p);
		if (k + (n ? n : 1) > TEXT_MAX) {
			clean = false;
			break;
		}
		if (n) {
			memcpy(buf + k, p, n);
			k += n, p += n;
		} else {
			buf[k++] = '?';
			p++;
			clean = false;
		}
	}
	buf[k] = '\0';
	return clean ? s : buf;
}

static void set_font(cairo_t *cr, double size, bool bold)
{
	cairo_select_font_face(cr, SS_FONT_FACE, CAIRO_FONT_SLANT_NORMAL,
			       bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, size);
}

void ss_text_fit(cairo_t *cr, double size, bool bold, char *s, double avail)
{
	size_t full = strlen(s), len = full;
	double w;

	ss_text_measure(cr, size, bold, s, &w, NULL);
	while (w > avail && len > 0) {
		/* drop the last whole character, and as many as "..." needs room for */
		do
			len--;
		while (len > 0 && (((unsigned char)s[len] & 0xC0) == 0x80 || len + 3 > full));
		while (len > 0 && s[len - 1] == ' ')
			len--;
		if (len + 3 <= full)
			memcpy(s + len, "...", 4);
		else
			s[len] = '\0';     /* shorter than an ellipsis: nothing left */
		ss_text_measure(cr, size, bold, s, &w, NULL);
	}
	if (w > avail)          /* not even "..." fits */
		s[0] = '\0';
}

void ss_text_fit_start(cairo_t *cr, double size, bool bold, char *s, double avail)
{
	char orig[512];
	size_t full, cut = 0;
	double w;

	ss_text_measure(cr, size, bold, s, &w, NULL);
	if (w <= avail)
		return;
	snprintf(orig, sizeof(orig), "%s", s);
	full = strlen(orig);
	while (w > avail && cut < full) {
		/* drop the first whole character; "..." takes the room of the first three bytes */
		do
			cut++;
		while (cut < full && ((unsigned char)orig[cut] & 0xC0) == 0x80);
		if (cut < 3)
			continue;
		snprintf(s, full + 1, "...%s", orig + cut);
		ss_text_measure(cr, size, bold, s, &w, NULL);
	}
	if (w > avail)
		s[0] = '\0';
}

int ss_text_prefix(const char *text, int max)
{
	const unsigned char *p = (const unsigned char *)text;
	int n = 0;

	while (n < max && p[n]) {
		int k = (int)utf8_seq(p + n);

		if (!k)
			k = 1;          /* an invalid byte is a character of its own ('?' drawn) */
		if (n + k > max)
			break;
		n += k;
	}
	return n;
}

int ss_text_head(const char *text)
{
	int n = (int)strcspn(text, ":,(");

	while (n > 0 && text[n - 1] == ' ')
		n--;
	return n;
}

/* TEXT into BUF; true if it is at most AVAIL wide. */
static bool fits(cairo_t *cr, double size, bool bold, const char *text, double avail, char *buf,
		 size_t len)
{
	double w;

	snprintf(buf, len, "%s", text);
	ss_text_measure(cr, size, bold, buf, &w, NULL);
	return w <= avail;
}

/* Whether the word of TEXT that ends at N (and starts after a space) is one a cut text
 * should not end in: "Device offset of..." reads as if something were missing. */
static bool small_word(const char *text, int n)
{
	static const char *const words[] = { "a", "an", "and", "at", "by", "for", "from", "in",
					     "of", "on", "or", "per", "the", "to", "with" };
	int m = n;

	while (m > 0 && text[m - 1] != ' ')
		m--;
	if (m == 0)
		return false;   /* the first word stays */
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if ((int)strlen(words[i]) == n - m && !strncmp(text + m, words[i], (size_t)(n - m)))
			return true;
	return false;
}

/*
 * Where BUF, TEXT cut by ss_text_fit (a prefix of TEXT and "..."), ends once cut back to its
 * last whole word (where a whole word is left), without the punctuation and operators before
 * it ("starting >", "a -") nor a small word ("offset of"): that prefix's length; 0 when nothing
 * of TEXT is left.
 */
static int word_cut(const char *text, const char *buf)
{
	int n = (int)strlen(buf) - 3, m;

	if (n <= 0)
		return 0;
	if (n < (int)strlen(text) && !strchr(" ,;:)", text[n])) {
		for (m = n; m > 0 && text[m - 1] != ' '; m--)
			;
		if (m > 0)
			n = m;
	}
	for (;;) {
		while (n > 0 && strchr(" :,;(=<>-", text[n - 1]))
			n--;
		if (!small_word(text, n))
			return n;
		while (n > 0 && text[n - 1] != ' ')
			n--;
	}
}

void ss_text_fit_words(cairo_t *cr, double size, bool bold, const char *text, const char *shorter,
		       double avail, char *buf, size_t len)
{
	int head = ss_text_head(text), n;
	const char *src;
	char h[TEXT_MAX];

	if (!text[head])
		head = 0;
	if (fits(cr, size, bold, text, avail, buf, len))
		return;
	ss_text_fit(cr, size, bold, buf, avail);
	n = word_cut(text, buf);
	if (n >= head + SS_TEXT_FIT_MORE) {
		memcpy(buf + n, "...", 4);
		return;
	}
	snprintf(h, sizeof(h), "%.*s", head, text);
	if ((head && fits(cr, size, bold, h, avail, buf, len)) ||
	    (shorter && fits(cr, size, bold, shorter, avail, buf, len)))
		return;
	src = shorter ? shorter : head ? h : text;
	fits(cr, size, bold, src, avail, buf, len);
	ss_text_fit(cr, size, bold, buf, avail);
	n = word_cut(src, buf);
	if (n > 0)
		memcpy(buf + n, "...", 4);
	else
		buf[0] = '\0';
}

void ss_text_first_fit(cairo_t *cr, double size, bool bold, const char *const *forms, int n,
		       double avail, char *buf, size_t len)
{
	buf[0] = '\0';
	for (int i = 0; i < n; i++)
		if (fits(cr, size, bold, forms[i], avail, buf, len))
			return;
	ss_text_fit(cr, size, bold, buf, avail);
}

void ss_text_measure(cairo_t *cr, double size, bool bold, const char *s, double *w, double *h)
{
	cairo_text_extents_t te = { 0 };
	cairo_font_extents_t fe = { 0 };
	char buf[TEXT_MAX + 1];

	set_font(cr, size, bold);
	cairo_text_extents(cr, drawable(s, buf), &te);
	cairo_font_extents(cr, &fe);
	if (w)
		*w = te.x_advance;
	if (h)
		*h = fe.ascent + fe.descent;
}

static void place(cairo_t *cr, double x, double y, enum ss_halign ha, enum ss_valign va,
		  double size, bool bold, const char *s, struct ss_box *box, double *bx, double *by)
{
	cairo_font_extents_t fe;
	double w, h;

	ss_text_measure(cr, size, bold, s, &w, &h);
	cairo_font_extents(cr, &fe);
	box->w = w;
	box->h = h;
	box->x = ha == SS_LEFT ? x : ha == SS_CENTER ? x - w / 2 : x - w;
	box->y = va == SS_TOP ? y : va == SS_MIDDLE ? y - h / 2 : y - h;
	*bx = box->x;
	*by = box->y + fe.ascent;
}

/* Place S and draw it, on a translucent white plate first if PLATE. */
static void draw(cairo_t *cr, double x, double y, enum ss_halign ha, enum ss_valign va,
		 double size, bool bold, const char *s, bool plate, struct ss_box *box)
{
	char buf[TEXT_MAX + 1];
	const char *t = drawable(s, buf);
	struct ss_box b;
	double bx, by;

	place(cr, x, y, ha, va, size, bold, t, &b, &bx, &by);
	if (plate) {
		cairo_save(cr);
		cairo_set_source_rgba(cr, 1, 1, 1, 0.8);
		cairo_rectangle(cr, b.x - 2, b.y, b.w + 4, b.h);
		cairo_fill(cr);
		cairo_restore(cr);
	}
	cairo_move_to(cr, bx, by);
	cairo_show_text(cr, t);
	cairo_new_path(cr);
	if (box)
		*box = b;
}

void ss_text_draw(cairo_t *cr, double x, double y, enum ss_halign ha, enum ss_valign va,
		  double size, bool bold, const char *s, struct ss_box *box)
{
	draw(cr, x, y, ha, va, size, bold, s, false, box);
}

void ss_text_draw_plated(cairo_t *cr, double x, double y, enum ss_halign ha, enum ss_valign va,
			 double size, bool bold, const char *s, struct ss_box *box)
{
	draw(cr, x, y, ha, va, size, bold, s, true, box);
}

void ss_text_draw_vertical(cairo_t *cr, double x, double y, double size, bool bold,
			   const char *s)
{
	cairo_save(cr);
	cairo_translate(cr, x, y);
	cairo_rotate(cr, -1.5707963267948966);
	ss_text_draw(cr, 0, 0, SS_CENTER, SS_MIDDLE, size, bold, s, NULL);
	cairo_restore(cr);
}

void ss_text_lanes_init(struct ss_text_lanes *l, int nr_lanes)
{
	memset(l, 0, sizeof(*l));
	l->nr_lanes = nr_lanes < 1 ? 1 : nr_lanes > SS_LANES_MAX ? SS_LANES_MAX : nr_lanes;
}

int ss_text_lanes_claim(struct ss_text_lanes *l, double x0, double x1, double gap)
{
	x0 -= gap;
	x1 += gap;
	for (int k = 0; k < l->nr_lanes; k++) {
		bool clash = false;

		if (l->n[k] >= SS_LANE_SPANS)
			continue;
		for (int i = 0; i < l->n[k] && !clash; i++)
			clash = x0 < l->x1[k][i] && l->x0[k][i] < x1;
		if (clash)
			continue;
		l->x0[k][l->n[k]] = x0;
		l->x1[k][l->n[k]] = x1;
		l->n[k]++;
		return k;
	}
	return -1;
}
