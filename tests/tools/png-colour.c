// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * png-colour: how many pixels of a PNG have exactly one colour, for the shell tests that look
 * at real captures' pictures (is there any discard-coloured pixel in the io panel?).
 *
 *   png-colour FILE.png RRGGBB [FROM_Y]      prints the count of pixels in rows >= FROM_Y
 *   png-colour FILE.png RRGGBB FROM_Y first  prints the first such row >= FROM_Y (-1: none)
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cairo.h>

int main(int argc, char **argv)
{
	cairo_surface_t *img;
	unsigned long rgb;
	unsigned char *data;
	long n = 0, from = 0, first = -1;
	bool want_first = argc == 5 && !strcmp(argv[4], "first");
	int w, h, stride;
	char *end;

	if (argc < 3 || argc > 5 || (argc == 5 && !want_first)) {
		fprintf(stderr, "usage: png-colour FILE.png RRGGBB [FROM_Y [first]]\n");
		return 2;
	}
	rgb = strtoul(argv[2], &end, 16);
	if (*end || rgb > 0xffffff ||
	    (argc >= 4 && ((from = strtol(argv[3], &end, 10)) < 0 || *end))) {
		fprintf(stderr, "png-colour: bad colour or row\n");
		return 2;
	}
	img = cairo_image_surface_create_from_png(argv[1]);
	if (cairo_surface_status(img)) {
		fprintf(stderr, "png-colour: %s: %s\n", argv[1],
			cairo_status_to_string(cairo_surface_status(img)));
		cairo_surface_destroy(img);
		return 1;
	}
	data = cairo_image_surface_get_data(img);
	stride = cairo_image_surface_get_stride(img);
	w = cairo_image_surface_get_width(img);
	h = cairo_image_surface_get_height(img);
	for (long y = from; y < h; y++)
		for (int x = 0; x < w; x++) {
			bool hit = (*(const unsigned *)(data + (size_t)y * (size_t)stride +
							(size_t)x * 4) & 0xffffffu) == rgb;

			n += hit;
			if (hit && first < 0)
				first = y;
		}
	printf("%ld\n", want_first ? first : n);
	cairo_surface_destroy(img);
	return 0;
}
