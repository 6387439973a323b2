// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The panel registry (panel_registry.h): the one place a panel is registered.  To add a panel,
 * write panel_<name>.c in this folder defining `const struct ss_panel_ops ss_panel_<id>` and
 * add one X(<id>, <in the default set>) line to PANELS below.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "errbuf.h"
#include "panel_registry.h"

/* One line per panel: X(id, shown by default).  This order is --help's and the default
 * set's drawing order. */
#define PANELS(X)           \
	X(io, true)         \
	X(seeks, true)      \
	X(model, false)     \
	X(tput, true)       \
	X(iops, false)      \
	X(lat, true)        \
	X(qd, false)        \
	X(dist, true)       \
	X(causes, false)

#define DECLARE(id, dflt) extern const struct ss_panel_ops ss_panel_##id;
PANELS(DECLARE)
#undef DECLARE

static const struct registration {
	const struct ss_panel_ops *ops;
	bool by_default;
} registry[] = {
#define REGISTER(id, dflt) { &ss_panel_##id, dflt },
	PANELS(REGISTER)
#undef REGISTER
};

#define NR_PANELS (sizeof(registry) / sizeof(registry[0]))
/* --panels refuses repeats, so every list fits a figure when the registry does */
_Static_assert(NR_PANELS <= SS_GRAPH_MAX_PANELS,
	       "more panels registered than a figure can stack: raise SS_LAYOUT_MAX_ROWS");

size_t ss_panels_count(void)
{
	return NR_PANELS;
}

const struct ss_panel_ops *ss_panels_at(size_t i)
{
	return i < NR_PANELS ? registry[i].ops : NULL;
}

const struct ss_panel_ops *ss_panels_find(const char *name)
{
	for (size_t i = 0; i < NR_PANELS; i++)
		if (!strcmp(registry[i].ops->name, name))
			return registry[i].ops;
	return NULL;
}

void ss_panels_set_default(struct ss_graph_opts *o)
{
	o->nr_panels = 0;
	for (size_t i = 0; i < NR_PANELS; i++)
		if (registry[i].by_default)
			o->panels[o->nr_panels++] = registry[i].ops;
}

int ss_panels_names(char *buf, size_t len, bool defaults_only)
{
	size_t n = 0;

	if (len)
		buf[0] = 0;
	for (size_t i = 0; i < NR_PANELS; i++) {
		if (defaults_only && !registry[i].by_default)
			continue;
		n += (size_t)snprintf(buf + (n < len ? n : len), n < len ? len - n : 0, "%s%s",
				      n ? "," : "", registry[i].ops->name);
	}
	return (int)n;
}

int ss_panels_parse(struct ss_graph_opts *o, const char *list, char *err, size_t errlen)
{
	const char *p = list;

	o->nr_panels = 0;
	while (*p) {
		size_t len = strcspn(p, ",");
		char name[16], names[128];
		const struct ss_panel_ops *ops;

		if (len == 0 || len >= sizeof(name)) {
			ss_errf(err, errlen, "bad panel list '%s'", list);
			return -EINVAL;
		}
		memcpy(name, p, len);
		name[len] = 0;
		if (!(ops = ss_panels_find(name))) {
			ss_panels_names(names, sizeof(names), false);
			ss_errf(err, errlen, "unknown panel '%s' (panels: %s)", name, names);
			return -EINVAL;
		}
		for (int i = 0; i < o->nr_panels; i++)
			if (o->panels[i] == ops) {
				ss_errf(err, errlen, "panel '%s' given twice", name);
				return -EINVAL;
			}
		if (o->nr_panels >= SS_GRAPH_MAX_PANELS) {   /* cannot happen: see the assert */
			ss_errf(err, errlen, "too many panels");
			return -EINVAL;
		}
		o->panels[o->nr_panels++] = ops;
		p += len;
		if (*p == ',')
			p++;
	}
	if (!o->nr_panels) {
		ss_errf(err, errlen, "empty panel list");
		return -EINVAL;
	}
	return 0;
}
