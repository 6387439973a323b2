// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The viewer's stylesheet and script: the files of render/html/web/, turned into byte arrays
 * at build time by the Makefile (`xxd -i`, into $(BUILD)/render/html/web_assets.c).  The
 * script is the .js files of web/ concatenated in the Makefile's WEB_JS order.
 */
#ifndef SS_WEB_ASSETS_H
#define SS_WEB_ASSETS_H

extern const unsigned char ss_web_css[];
extern const unsigned int ss_web_css_len;
extern const unsigned char ss_web_js[];
extern const unsigned int ss_web_js_len;

#endif
