// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The panel registry: every panel `seekscope plot` can draw, in the order --help lists them,
 * and which of them the default set shows.  Panels are registered in one place, the PANELS
 * table of registry.c; names, counts, the default set and the --panels help all come from it.
 * The graph (render/plot) knows no panel by name: whoever builds its options resolves names
 * here and hands it the ops.
 *
 *   ss_panels_set_default(&opts);                         the default set
 *   ss_panels_parse(&opts, "io,seeks", err, errlen);      or a --panels list
 */
#ifndef SS_PANEL_REGISTRY_H
#define SS_PANEL_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>

#include "graph.h"
#include "panel.h"

/* The number of registered panels, and panel I of them (NULL past the end). */
size_t ss_panels_count(void);
const struct ss_panel_ops *ss_panels_at(size_t i);
/* Panel by --panels keyword, or NULL. */
const struct ss_panel_ops *ss_panels_find(const char *name);
/* The default set into o->panels, in registry order. */
void ss_panels_set_default(struct ss_graph_opts *o);
/* A comma-separated --panels list ("io,seeks,tput") into o->panels, in the order given.
 * 0, or -EINVAL with the reason (unknown or repeated name, empty item) in ERR; o->panels is
 * then undefined. */
int ss_panels_parse(struct ss_graph_opts *o, const char *list, char *err, size_t errlen);
/* The names, comma-separated, of every panel or (DEFAULTS_ONLY) of the default set, into BUF.
 * Returns the length the whole list needs, as snprintf does. */
int ss_panels_names(char *buf, size_t len, bool defaults_only);

#endif
