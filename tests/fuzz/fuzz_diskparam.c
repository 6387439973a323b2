// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target for the disk model's parameter parser (render/analysis/diskmodel.h).  Byte 0
 * picks the form: even = "NAME[,key=value...]" (ss_disk_params_parse_spec, cut at the first
 * NUL), odd = the text of a parameter file (ss_disk_params_parse_text, every byte).  A refusal
 * must leave the parameters untouched and say why in one line; accepted parameters must pass
 * ss_disk_params_check(), read back the same from their formatted text, and drive a model
 * through a few hundred requests derived from the input with finite, non-negative costs whose
 * parts add up.  Never touches the file system.
 */
#include <math.h>

#include "fuzz.h"
#include "diskmodel.h"

static uint64_t next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void check_cost(const struct ss_disk_cost *c, const char *what)
{
	const double part[] = { c->seek_s, c->rotation_s, c->transfer_s, c->overhead_s };
	double sum = 0;

	for (size_t i = 0; i < sizeof(part) / sizeof(part[0]); i++) {
		FUZZ_ASSERT(isfinite(part[i]) && part[i] >= 0, "%s: part %zu is %g", what, i,
			    part[i]);
		sum += part[i];
	}
	FUZZ_ASSERT(isfinite(c->total_s) && fabs(c->total_s - sum) <= 1e-9 * (sum + 1),
		    "%s: total %g, parts %g", what, c->total_s, sum);
}

/* A few hundred requests of every kind, anywhere (past the end too), through a model. */
static void drive(const struct ss_disk_params *p, uint64_t seed)
{
	static const uint16_t flags[] = { SS_RW_READ, SS_RW_WRITE, SS_RW_WRITE | SS_RW_FUA,
					  SS_RW_DISCARD, SS_RW_FLUSH, SS_RW_READ | SS_RW_AHEAD };
	uint64_t s = seed | 1, sectors = 1 + next(&s) % (1ull << 42), modelled = 0;
	struct ss_disk_model *m = ss_disk_model_new(p, sectors);
	struct ss_disk_cost sum = { 0 };
	struct ss_disk_result r;

	FUZZ_ASSERT(m, "accepted parameters, but no model for %llu sectors",
		    (unsigned long long)sectors);
	for (int i = 0; i < 300; i++) {
		uint64_t x = next(&s);
		struct ss_event ev = {
			.type = x % 7 ? SS_EV_ISSUE : SS_EV_COMPLETE,
			.flags = flags[(x >> 3) % (sizeof(flags) / sizeof(flags[0]))],
			.dev = SS_MKDEV(8, 0),
		};
		struct ss_disk_cost c;
		int ret;

		/* near the previous request, far away, or past the end */
		switch ((x >> 8) % 4) {
		case 0: ev.sector = next(&s) % sectors; break;
		case 1: ev.sector = next(&s) % (sectors + 100); break;
		case 2: ev.sector = next(&s); break;
		default: ev.sector = (uint64_t)i * 8; break;
		}
		ev.nr_sector = (ev.flags & SS_RW_FLUSH) ? 0 : (uint32_t)(next(&s) % 5000);
		ret = ss_disk_model_feed(m, &ev, &c);
		FUZZ_ASSERT(ret == 0 || ret == 1, "feed: %d", ret);
		check_cost(&c, "request");
		if (ret == 1) {
			ss_disk_cost_add(&sum, &c);
			modelled++;
		}
	}
	ss_disk_model_result(m, &r);
	check_cost(&r.time, "totals");
	FUZZ_ASSERT(r.requests == modelled && r.requests + r.ignored == 300,
		    "%llu requests, %llu ignored", (unsigned long long)r.requests,
		    (unsigned long long)r.ignored);
	FUZZ_ASSERT(fabs(r.time.total_s - sum.total_s) <= 1e-9 * (sum.total_s + 1),
		    "totals %g, sum %g", r.time.total_s, sum.total_s);
	ss_disk_model_free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ss_disk_params p, before, q;
	char err[512], text[4096], again[4096];
	uint64_t seed = 14695981039346656037ull;
	int ret;

	if (!size || size > 8192)
		return 0;
	for (size_t i = 0; i < size; i++)
		seed = (seed ^ data[i]) * 1099511628211ull;
	memset(&p, 0xa5, sizeof(p));
	before = p;
	err[0] = '\0';
	if (data[0] % 2 == 0) {
		char *spec = strndup((const char *)data + 1, size - 1);

		if (!spec)
			return 0;
		ret = ss_disk_params_parse_spec(spec, &p, err, sizeof(err));
		free(spec);
	} else {
		ret = ss_disk_params_parse_text((const char *)data + 1, size - 1, &p, err,
						sizeof(err));
	}
	if (ret) {
		FUZZ_ASSERT(ret == -EINVAL, "refused with %d", ret);
		FUZZ_ASSERT(err[0] && !strchr(err, '\n'), "refusal without one line: '%s'", err);
		FUZZ_ASSERT(!memcmp(&p, &before, sizeof(p)), "refused, but the parameters changed");
		return 0;
	}
	FUZZ_ASSERT(!ss_disk_params_check(&p, err, sizeof(err)), "accepted, then: %s", err);
	ret = ss_disk_params_format(&p, text, sizeof(text));
	FUZZ_ASSERT(ret > 0 && (size_t)ret < sizeof(text), "format: %d", ret);
	FUZZ_ASSERT(!ss_disk_params_parse_text(text, (size_t)ret, &q, err, sizeof(err)),
		    "formatted text refused: %s\n%s", err, text);
	ss_disk_params_format(&q, again, sizeof(again));
	FUZZ_ASSERT(!strcmp(text, again), "read back differently:\n%s---\n%s", text, again);
	drive(&p, seed);
	return 0;
}
