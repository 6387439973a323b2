// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gen-blktrace: writes synthetic blktrace binary traces (PREFIX.blktrace.N, one file per CPU,
 * as `blktrace -o PREFIX` does) for the import benchmark: an untar-like pattern of write runs
 * rotating over four allocation-group-sized regions, some reads, a flush every 64 I/Os, each
 * I/O as queue (Q), dispatch (D) and completion (C) records; Q and D on one CPU, C on the next.
 *
 *   gen-blktrace -o PREFIX [-n IOS] [-c CPUS] [-d MAJ:MIN] [-s SEED] [-S]
 *     -S  write the other byte order
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bt_write.h"

#define MAX_CPUS 64
#define AG_SECTORS (16ull << 21)   /* 16 GiB per region */

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

int main(int argc, char **argv)
{
	unsigned long ios = 100000, cpus = 2, major = 8, minor = 0;
	uint64_t seed = 0x9e3779b97f4a7c15ull, now = 1000000000ull, head[4] = { 0 };
	const char *prefix = NULL;
	FILE *f[MAX_CPUS] = { 0 };
	bool swap = false;
	int c, ret = 0;

	while ((c = getopt(argc, argv, "o:n:c:d:s:Sh")) != -1) {
		switch (c) {
		case 'o': prefix = optarg; break;
		case 'n': ios = strtoul(optarg, NULL, 10); break;
		case 'c': cpus = strtoul(optarg, NULL, 10); break;
		case 'd':
			if (sscanf(optarg, "%lu:%lu", &major, &minor) != 2) {
				fprintf(stderr, "gen-blktrace: -d wants MAJ:MIN\n");
				return 2;
			}
			break;
		case 's': seed = strtoull(optarg, NULL, 10) | 1; break;
		case 'S': swap = true; break;
		default:
			fprintf(stderr, "usage: gen-blktrace -o PREFIX [-n IOS] [-c CPUS] "
					"[-d MAJ:MIN] [-s SEED] [-S]\n");
			return c == 'h' ? 0 : 2;
		}
	}
	if (!prefix || !cpus || cpus > MAX_CPUS) {
		fprintf(stderr, "gen-blktrace: -o PREFIX needed, 1..%d CPUs\n", MAX_CPUS);
		return 2;
	}
	for (unsigned long i = 0; i < cpus; i++) {
		char path[4096];
		static const char comm[16] = "tar";
		struct btw_rec r = { .time = now, .action = BTW_TN_PROCESS, .pid = 1234,
				     .device = (uint32_t)(major << 20 | minor), .cpu = (uint32_t)i,
				     .pdu_len = sizeof(comm) };

		snprintf(path, sizeof(path), "%s.blktrace.%lu", prefix, i);
		if (!(f[i] = fopen(path, "w"))) {
			fprintf(stderr, "gen-blktrace: %s: %s\n", path, strerror(errno));
			ret = 1;
			goto out;
		}
		setvbuf(f[i], NULL, _IOFBF, 1 << 20);
		ret |= btw_put(f[i], &r, swap, comm);
	}
	for (unsigned long i = 0; i < ios; i++) {
		unsigned ag = (unsigned)((i / 32) % 4), qc = (unsigned)(i % cpus);
		unsigned cc = (unsigned)((i + 1) % cpus);
		uint64_t x = rnd(&seed), svc;
		struct btw_rec r = { .device = (uint32_t)(major << 20 | minor), .pid = 1234 };
		uint32_t cat;

		if (i % 64 == 63) {                         /* journal commit: a flush */
			cat = BTW_READ | BTW_FLUSH;
			r.bytes = 0;
			r.sector = 0;
			svc = 200000;
		} else if (x % 10 == 0) {                   /* a metadata read near the AG start */
			cat = BTW_READ | BTW_META;
			r.bytes = 4096;
			r.sector = ag * AG_SECTORS + (x >> 20) % (AG_SECTORS / 64) / 8 * 8;
			svc = 4000000;
		} else {                                    /* the next piece of a write run */
			cat = BTW_WRITE | BTW_SYNC;
			r.bytes = 4096u << (x >> 8) % 5;
			r.sector = ag * AG_SECTORS + head[ag];
			head[ag] += r.bytes / 512;
			svc = 100000 + r.bytes * 10;
		}
		r.time = now;
		r.cpu = qc;
		r.action = BTW_TA_Q | cat;
		r.sequence = (uint32_t)i;
		ret |= btw_put(f[qc], &r, swap, NULL);
		r.time = now + 3000;
		r.action = BTW_TA_D | cat;
		ret |= btw_put(f[qc], &r, swap, NULL);
		r.time = now + 3000 + svc;
		r.cpu = cc;
		r.action = BTW_TA_C | cat;
		ret |= btw_put(f[cc], &r, swap, NULL);
		now += 3000 + svc + 1000 + x % 5000;
	}
out:
	for (unsigned long i = 0; i < cpus; i++)
		if (f[i] && fclose(f[i]))
			ret = 1;
	if (ret)
		fprintf(stderr, "gen-blktrace: write failed\n");
	return ret ? 1 : 0;
}
