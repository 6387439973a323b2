// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `seekscope report` end to end: writes hand-made traces (tests/unit/fixture.h), runs the
 * binary ($SEEKSCOPE, else ./seekscope) and checks the JSON with python3's parser (flattened to
 * path=value lines that this test compares), the text tables, exit codes and error lines; with
 * --disk, the modelled times against the disk model fed the same requests here.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"
#include "testdir.h"
#include "fixture.h"
#include "diskmodel.h"
#include "trace_read.h"

static const char *bin;
static char out[1 << 16], err[1 << 14], flat[1 << 17];

static const char flatten_py[] =
	"import json,sys\n"
	"def bad(c): raise ValueError('non-finite number ' + c)\n"
	"def walk(p, v):\n"
	"    if isinstance(v, dict):\n"
	"        print(p + '.type=object')\n"
	"        for k, x in v.items(): walk(p + '.' + k, x)\n"
	"    elif isinstance(v, list):\n"
	"        print(p + '.length=' + str(len(v)))\n"
	"        for i, x in enumerate(v): walk(p + '.' + str(i), x)\n"
	"    else: print(p + '=' + json.dumps(v))\n"
	"n = 0\n"
	"for line in open(sys.argv[1]):\n"
	"    walk(str(n), json.loads(line, parse_constant=bad)); n += 1\n"
	"print('lines=' + str(n))\n";

static void slurp(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, buf, len - 1) : -1;

	buf[n > 0 ? n : 0] = '\0';
	if (fd >= 0)
		close(fd);
}

/* Run `seekscope report ARGS`, capture stdout/stderr; returns the exit status. */
static int run(const char *args)
{
	char cmd[2048];
	int st;

	snprintf(cmd, sizeof(cmd), "%s report %s >%s 2>%s", bin, args, tpath("out"),
		 tpath("err"));
	st = system(cmd);
	slurp(tpath("out"), out, sizeof(out));
	slurp(tpath("err"), err, sizeof(err));
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* Parse the last stdout with python3's json module; 0 if every line is valid JSON. */
static int flatten(void)
{
	char cmd[1024];
	FILE *f = fopen(tpath("flatten.py"), "w");
	int st;

	fputs(flatten_py, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "python3 %s %s >%s 2>&1", tpath("flatten.py"), tpath("out"),
		 tpath("flat"));
	st = system(cmd);
	slurp(tpath("flat"), flat, sizeof(flat));
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* Value of a flattened path ("0.phases.1.name"), as JSON text; NULL if absent. */
static const char *get(const char *key)
{
	static char val[1024];
	size_t kl = strlen(key);

	for (const char *p = flat; *p;) {
		const char *nl = strchr(p, '\n');
		size_t ll = nl ? (size_t)(nl - p) : strlen(p);

		if (ll > kl && !strncmp(p, key, kl) && p[kl] == '=') {
			snprintf(val, sizeof(val), "%.*s", (int)(ll - kl - 1), p + kl + 1);
			return val;
		}
		p += ll + (nl != NULL);
	}
	return NULL;
}

static int num_is(const char *key, double want, double tol)
{
	const char *v = get(key);
	double got = v ? strtod(v, NULL) : NAN;
	int r = ok(v && fabs(got - want) <= tol, "%s = %g", key, want);

	if (!r)
		printf("#   got %s\n", v ? v : "(absent)");
	return r;
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void test_json_fixture(void)
{
	static const char *required[] = {
		"file", "events", "ios", "lost_events", "duration_s", "read_bytes", "write_bytes",
		"reads", "writes", "seeks", "seeks_per_s", "iops", "read_mb_s", "write_mb_s",
		"read_ios", "write_ios", "discard_ios", "discard_bytes", "other_ios", "other_bytes",
		"discard_mb_s", "other_mb_s",
		"lat_p50_us", "lat_p99_us", "truncated", "device.type", "phases.length",
		"zones.length",
	};
	static const char *phase_keys[] = {
		"name", "start_s", "end_s", "duration_s", "ios", "seeks", "seeks_per_s", "iops",
		"read_mb_s", "write_mb_s", "lat_p50_us", "lat_p99_us", "files_per_s", "kb_per_s",
	};
	static const char *zone_keys[] = {
		"kind", "label", "start_sector", "nr_sectors", "read_ios", "write_ios", "bytes",
		"discard_ios", "discard_bytes", "other_ios", "other_bytes",
	};
	char args[600], key[128];
	int missing = 0;

	snprintf(args, sizeof(args), "--json %s", tpath("fx.sst"));
	is_int(run(args), 0, "report --json exits 0");
	is_str(err, "", "nothing on stderr");
	is_int(flatten(), 0, "output parses as JSON (%s)", flat[0] ? "" : "no output");
	is_str(get("lines"), "1", "one JSON object, one line");
	for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++) {
		snprintf(key, sizeof(key), "0.%s", required[i]);
		if (!get(key)) {
			missing++;
			printf("# missing key %s\n", required[i]);
		}
	}
	for (int p = 0; p < 3; p++)
		for (size_t i = 0; i < sizeof(phase_keys) / sizeof(phase_keys[0]); i++) {
			snprintf(key, sizeof(key), "0.phases.%d.%s", p, phase_keys[i]);
			if (!get(key)) {
				missing++;
				printf("# missing key %s\n", key);
			}
		}
	for (int z = 0; z < 5; z++)
		for (size_t i = 0; i < sizeof(zone_keys) / sizeof(zone_keys[0]); i++) {
			snprintf(key, sizeof(key), "0.zones.%d.%s", z, zone_keys[i]);
			if (!get(key)) {
				missing++;
				printf("# missing key %s\n", key);
			}
		}
	is_int(missing, 0, "every required key is present");

	snprintf(key, sizeof(key), "\"%s\"", tpath("fx.sst"));
	is_str(get("0.file"), key, "file");
	is_str(get("0.events"), "13", "events");
	is_str(get("0.ios"), "6", "ios");
	is_str(get("0.lost_events"), "0", "lost_events");
	num_is("0.duration_s", 3.0, 1e-12);
	is_str(get("0.reads"), "2", "reads");
	is_str(get("0.writes"), "4", "writes");
	is_str(get("0.read_bytes"), "8192", "read_bytes");
	is_str(get("0.write_bytes"), "20480", "write_bytes");
	is_str(get("0.flushes"), "1", "flushes");
	is_str(get("0.fua"), "1", "fua");
	is_str(get("0.seeks"), "3", "seeks");
	num_is("0.seeks_per_s", 1.0, 1e-12);
	num_is("0.iops", 2.0, 1e-12);
	num_is("0.read_mb_s", 8192 / 1e6 / 3, 1e-12);
	num_is("0.write_mb_s", 20480 / 1e6 / 3, 1e-12);
	num_is("0.lat_p50_us", 2000, 2000.0 / 16);
	num_is("0.lat_p99_us", 10000, 1e-9);
	is_str(get("0.truncated"), "false", "truncated");
	is_str(get("0.device.name"), "\"loop3\"", "device name");
	is_str(get("0.device.fstype"), "\"xfs\"", "device fstype");
	is_str(get("0.device.path"), "\"/mnt/\\\"test\\\"\"", "quotes in a path are escaped");
	is_str(get("0.device.nr_sectors"), "4194304", "device size");
	is_str(get("0.meta.cmdline"),
	       "\"sh -c 'tar xf \\\"a b\\\".tar\\n\\tsync' \\\\ \\u0001 \\ufffd end\"",
	       "control characters escaped, invalid UTF-8 replaced");

	is_str(get("0.phases.length"), "3", "three phases");
	is_str(get("0.phases.0.name"), "\"extract\"", "phase 0 extract");
	num_is("0.phases.0.start_s", 0.5, 1e-12);
	num_is("0.phases.0.end_s", 1.5, 1e-12);
	num_is("0.phases.0.duration_s", 1.0, 1e-12);
	is_str(get("0.phases.0.ios"), "3", "extract ios");
	is_str(get("0.phases.0.seeks"), "2", "extract seeks");
	num_is("0.phases.0.seeks_per_s", 2.0, 1e-12);
	num_is("0.phases.0.iops", 3.0, 1e-12);
	num_is("0.phases.0.files_per_s", 200.0, 1e-9);
	num_is("0.phases.0.kb_per_s", 4000.0, 1e-9);
	is_str(get("0.phases.1.name"), "\"sync\"", "phase 1 sync");
	is_str(get("0.phases.1.files_per_s"), "null", "no files/s without meta");
	is_str(get("0.phases.2.name"), "\"delete\"", "phase 2 delete");
	is_str(get("0.phases.2.ended"), "false", "delete never ended");
	num_is("0.phases.2.end_s", 3.0, 1e-12);
	is_str(get("0.durable.name"), "\"extract+sync\"", "time to durable: extract+sync");
	num_is("0.durable.start_s", 0.5, 1e-12);
	num_is("0.durable.duration_s", 1.5, 1e-12);
	is_str(get("0.durable.ios"), "4", "extract+sync ios");
	is_str(get("0.durable.seeks"), "2", "extract+sync seeks");
	is_str(get("0.marks.0.name"), "\"commit\"", "the mark is listed apart");
	num_is("0.marks.0.t_s", 1.0, 1e-12);

	is_str(get("0.zones.length"), "5", "five zones");
	is_str(get("0.zones.0.kind"), "\"ag\"", "zone 0 kind");
	is_str(get("0.zones.0.label"), "\"AG0\"", "zone 0 label");
	is_str(get("0.zones.0.write_ios"), "1", "AG0 write_ios");
	is_str(get("0.zones.0.bytes"), "4096", "AG0 bytes");
	is_str(get("0.zones.3.read_ios"), "1", "AG3 read_ios");
	is_str(get("0.zones.3.nr_sectors"), "1000000", "AG3 nr_sectors");
	is_str(get("0.zones.4.kind"), "\"log\"", "zone 4 kind");
	is_str(get("0.zones.4.start_sector"), "2098152", "log start");
	is_str(get("0.zones.4.read_ios"), "1", "log read_ios");
	is_str(get("0.zones.4.write_ios"), "1", "log write_ios");
	is_str(get("0.unzoned_ios"), "1", "unzoned_ios");

	snprintf(args, sizeof(args), "--json --seek-threshold 2000000 %s", tpath("fx.sst"));
	is_int(run(args), 0, "--seek-threshold accepted");
	flatten();
	is_str(get("0.seeks"), "1", "threshold 2,000,000: one seek");
	is_str(get("0.seek_threshold"), "2000000", "threshold echoed");
}

/*
 * Every class in its own keys: 2 reads, 1 write, 3 discards (one in AG1), 2 write-zeroes and
 * a secure erase ("other"), a flush.  Seeks: W 0 (first), R 8 (near), D x3 (not evaluated),
 * N 16 (near: the discards did not move the position), N 600000 (seek), DE 900000 (seek),
 * R 1000000 (seek) -> 3 seeks of 6 evaluated.
 */
static void test_json_classes(void)
{
	const uint16_t R = SS_RW_READ, W = SS_RW_WRITE, D = SS_RW_DISCARD, N = SS_RW_NONE;
	const struct { uint64_t sector; uint32_t nr; uint16_t flags; } rq[] = {
		{ 0, 8, W }, { 8, 8, R }, { 200000, 2048, D }, { 300000, 2048, D },
		{ 1048576 + 100, 4096, D }, { 16, 4096, N | SS_RW_SYNC }, { 600000, 8, N },
		{ 900000, 16, D | SS_RW_SECURE }, { 1000000, 8, R }, { 0, 0, SS_RW_FLUSH },
	};
	struct ss_writer *w = ss_writer_open(tpath("cls.sst"), SS_OUT_INPLACE, NULL, 0);
	struct ss_rec_device d = { .dev = FX_DEV, .major = 7, .minor = 3, .logical_block_size = 512,
				   .nr_sectors = 2097152 };
	char args[600];

	strcpy(d.name, "loop3");
	ss_writer_device(w, &d);
	for (unsigned i = 0; i < 2; i++) {
		struct ss_rec_zone z = { .dev = FX_DEV, .kind = SS_ZONE_AG, .index = i,
					 .start_sector = i * 1048576ull, .nr_sectors = 1048576 };

		snprintf(z.label, sizeof(z.label), "AG%u", i);
		ss_writer_zone(w, &z);
	}
	for (size_t i = 0; i < sizeof(rq) / sizeof(rq[0]); i++) {
		struct ss_event e[2] = {
			fx_ev(FX_S + i * FX_MS, SS_EV_ISSUE, rq[i].sector, rq[i].nr, rq[i].flags),
			fx_ev(FX_S + i * FX_MS + FX_MS / 2, SS_EV_COMPLETE,
			      rq[i].nr ? rq[i].sector : SS_SECTOR_NONE, rq[i].nr, rq[i].flags),
		};

		ss_writer_events(w, e, 2);
	}
	ss_writer_close(w);
	snprintf(args, sizeof(args), "--json %s", tpath("cls.sst"));
	is_int(run(args), 0, "report --json of every class");
	is_int(flatten(), 0, "parses");
	is_str(get("0.ios"), "9", "ios: every class with sectors, the flush apart");
	is_str(get("0.reads"), "2", "reads");
	is_str(get("0.read_ios"), "2", "read_ios");
	is_str(get("0.read_bytes"), "8192", "read_bytes: the reads only");
	is_str(get("0.writes"), "1", "writes");
	is_str(get("0.write_bytes"), "4096", "write_bytes: the write only");
	is_str(get("0.discard_ios"), "3", "discard_ios");
	is_str(get("0.discards"), "3", "discards (the older name)");
	is_str(get("0.discard_bytes"), "4194304", "discard_bytes: 2 x 1 MiB + 2 MiB");
	is_str(get("0.other_ios"), "3", "other_ios: 2 write-zeroes and a secure erase");
	is_str(get("0.other_bytes"), "2109440", "other_bytes: (4096 + 8 + 16) sectors");
	is_str(get("0.flushes"), "1", "flushes");
	is_str(get("0.issues"), "6", "seeks evaluated on reads, writes and other ops");
	is_str(get("0.seeks"), "3", "seeks: discards are not seeks and do not move the position");
	num_is("0.discard_mb_s", 4194304 / 1e6 / 0.0095, 1e-6);
	is_str(get("0.devices.0.discard_ios"), "3", "per device discard_ios");
	is_str(get("0.devices.0.other_bytes"), "2109440", "per device other_bytes");
	is_str(get("0.zones.1.discard_ios"), "1", "AG1: its discard");
	is_str(get("0.zones.1.discard_bytes"), "2097152", "AG1 discard_bytes");
	is_str(get("0.zones.0.other_ios"), "3", "AG0 other_ios");
	/* 4 KiB write, 8 KiB of reads, 2 x 1 MiB discarded, 2 MiB + 4 KiB + 8 KiB of others */
	is_str(get("0.zones.0.bytes"), "4218880", "AG0 bytes: every class");
	snprintf(args, sizeof(args), "%s", tpath("cls.sst"));
	is_int(run(args), 0, "text report of every class");
	ok(strstr(out, "9 completed: 2 reads (8.00 KiB), 1 writes (4.00 KiB), 3 discards "
		       "(4.00 MiB), 3 other (write-zeroes, ...) (2.01 MiB)") != NULL,
	   "I/O line lists each class");
	ok(strstr(out, "discards are not seeks") != NULL, "the seek line says discards are not seeks");
	ok(strstr(out, "discard I/Os") && strstr(out, "other I/Os"), "zone table has their columns");
}

static void test_files_and_errors(void)
{
	char args[1200];
	int fd;

	/* empty trace: one device, no events, no capture record */
	struct ss_writer *w = ss_writer_open(tpath("empty.sst"), SS_OUT_INPLACE, NULL, 0);
	struct ss_rec_device d = { .dev = FX_DEV, .major = 7, .minor = 3, .nr_sectors = 1024 };
	strcpy(d.name, "loop3");
	ss_writer_device(w, &d);
	is_int(ss_writer_close(w), 0, "empty trace written");
	/* a file that is not a trace, and a trace with a damaged event record */
	fd = open(tpath("junk.sst"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	is_int(write(fd, "hello, not a trace\n", 19), 19, "junk file written");
	close(fd);
	is_int(fx_write(tpath("bad.sst"), 0, 1), 0, "trace to damage written");
	{
		static char buf[1 << 16];
		uint64_t want = 1048676;   /* the sector of the third event, little-endian */
		int rfd = open(tpath("bad.sst"), O_RDWR);
		ssize_t n = read(rfd, buf, sizeof(buf));
		int done = 0;

		for (ssize_t i = 0; n > 8 && i + 8 <= n && !done; i++)
			if (!memcmp(buf + i, &want, 8)) {
				buf[i] ^= 0x40;
				done = pwrite(rfd, buf + i, 1, i) == 1;
			}
		close(rfd);
		ok(done, "an event record damaged");
	}

	snprintf(args, sizeof(args), "--json %s", tpath("empty.sst"));
	is_int(run(args), 0, "empty trace: exit 0");
	is_int(flatten(), 0, "empty trace: valid JSON");
	ok(get("0.events") && !strcmp(get("0.events"), "0") && !strcmp(get("0.ios"), "0") &&
	   !strcmp(get("0.duration_s"), "0") && !strcmp(get("0.iops"), "0") &&
	   !strcmp(get("0.lat_p50_us"), "0"), "empty trace: zeros, no division by zero");
	is_str(get("0.phases.length"), "0", "empty trace: no phases");
	is_str(get("0.durable"), "null", "empty trace: no time to durable");
	snprintf(args, sizeof(args), "%s", tpath("empty.sst"));
	is_int(run(args), 0, "empty trace as text: exit 0");
	ok(strstr(out, "events       0") != NULL, "empty trace text says 0 events");

	snprintf(args, sizeof(args), "--json %s %s %s %s %s", tpath("fx.sst"), tpath("junk.sst"),
		 tpath("bad.sst"), tpath("missing.sst"), tpath("empty.sst"));
	is_int(run(args), 1, "a bad file among good ones: exit 1");
	is_int(flatten(), 0, "the good files are still valid JSON Lines");
	is_str(get("lines"), "2", "two objects for the two good files");
	is_int(count_lines(err), 3, "one stderr line per bad file");
	snprintf(args, sizeof(args), "seekscope report: %s: not a seekscope, blktrace or trace-cmd file",
		 tpath("junk.sst"));
	ok(strstr(err, args) != NULL, "junk: 'seekscope report: FILE: reason'");
	snprintf(args, sizeof(args), "seekscope report: %s: ", tpath("bad.sst"));
	ok(strstr(err, args) != NULL, "damaged event record reported");
	snprintf(args, sizeof(args), "seekscope report: %s: No such file", tpath("missing.sst"));
	ok(strstr(err, args) != NULL, "missing file reported");

	is_int(fx_write(tpath("lost.sst"), 5, 0), 0, "lossy, truncated trace written");
	snprintf(args, sizeof(args), "--json %s", tpath("lost.sst"));
	is_int(run(args), 0, "truncated trace reports with exit 0");
	flatten();
	is_str(get("0.lost_events"), "5", "lost_events");
	is_str(get("0.truncated"), "true", "truncated");
	ok(get("0.warning") && strstr(get("0.warning"), "no end record"), "truncation warning");
	snprintf(args, sizeof(args), "%s", tpath("lost.sst"));
	run(args);
	ok(strstr(out, "WARNING: 5 EVENTS WERE LOST") != NULL, "text: lost events warned loudly");
	ok(strstr(out, "WARNING: truncated") != NULL, "text: truncation warned");
}

static void test_text(void)
{
	char args[600];

	snprintf(args, sizeof(args), "%s", tpath("fx.sst"));
	is_int(run(args), 0, "text report exits 0");
	ok(strstr(out, "loop3") && strstr(out, "xfs"), "device shown");
	ok(strstr(out, "seeks        3 of 5 issued I/Os, 1.0/s") != NULL, "seeks and seeks/s");
	ok(strstr(out, "p50 2.0 ms, p99 10 ms") != NULL, "latency percentiles");
	ok(strstr(out, "  extract ") && strstr(out, "200.0"), "phase table with files/s");
	ok(strstr(out, "AG3") && strstr(out, "log"), "zone table");
	ok(strstr(out, "\\n\\tsync") && !strchr(strstr(out, "command"), '\t'),
	   "control characters from the file are escaped on the terminal");

	/* an ext4-like trace with 200 groups, I/O in two: idle zones are summarised */
	struct ss_writer *w = ss_writer_open(tpath("groups.sst"), SS_OUT_INPLACE, NULL, 0);
	struct ss_event ev[4] = {
		fx_ev(1 * FX_S, SS_EV_ISSUE, 100, 8, SS_RW_WRITE),
		fx_ev(1 * FX_S + 1000, SS_EV_COMPLETE, 100, 8, SS_RW_WRITE),
		fx_ev(2 * FX_S, SS_EV_ISSUE, 50 * 32768 + 7, 8, SS_RW_READ),
		fx_ev(2 * FX_S + 1000, SS_EV_COMPLETE, 50 * 32768 + 7, 8, SS_RW_READ),
	};
	for (unsigned i = 0; i < 200; i++) {
		struct ss_rec_zone z = { .dev = FX_DEV, .kind = SS_ZONE_GROUP, .index = i,
					 .start_sector = i * 32768ull, .nr_sectors = 32768 };

		snprintf(z.label, sizeof(z.label), "group %u", i);
		ss_writer_zone(w, &z);
	}
	ss_writer_events(w, ev, 4);
	ss_writer_close(w);
	snprintf(args, sizeof(args), "%s", tpath("groups.sst"));
	is_int(run(args), 0, "many-zone trace");
	ok(strstr(out, "group 0 ") && strstr(out, "group 50 ") && !strstr(out, "group 1 "),
	   "only zones with I/O listed");
	ok(strstr(out, "(+ 198 zones without I/O not shown") != NULL, "idle zones counted");
	snprintf(args, sizeof(args), "--all-zones %s", tpath("groups.sst"));
	run(args);
	ok(strstr(out, "group 199 ") != NULL, "--all-zones lists them all");
}

static void test_cli(void)
{
	is_int(run("--help"), 0, "--help exits 0");
	ok(strstr(out, "USAGE:") && strstr(out, "EXAMPLES:") && strstr(out, "128") &&
	   strstr(out, "--seek-threshold") && strstr(out, "JSON Lines"), "help: usage, examples, "
	   "seek definition, options, output format");
	is_str(err, "", "help writes nothing to stderr");
	is_int(run(""), 2, "no file: exit 2");
	ok(err[0] && !out[0], "no file: message on stderr only");
	is_int(run("--seek-threshold abc x.sst"), 2, "non-numeric threshold: exit 2");
	is_int(run("--seek-threshold -1 x.sst"), 2, "negative threshold: exit 2");
	is_int(run("--seek-threshold 12x x.sst"), 2, "trailing junk: exit 2");
	is_int(run("--seek-threshold 99999999999999999999999 x.sst"), 2, "overflow: exit 2");
	is_int(run("--bogus x.sst"), 2, "unknown option: exit 2");
	ok(strstr(err, "--bogus") != NULL, "unknown option named (%.60s)", err);
	is_int(run("x.sst --seek-threshold"), 2, "missing option argument (after a file): exit 2");
	ok(strstr(err, "seek-threshold") != NULL, "the option is named (%.60s)", err);
}

/* A trace whose end was never recorded has no workload exit status: "unknown", null. */
static void test_exit_unknown(void)
{
	struct ss_writer *w = ss_writer_open(tpath("cut.sst"), SS_OUT_INPLACE, NULL, 0);
	struct ss_rec_capture cap = { .start_ns = 1 * FX_S, .buffer_kb = 8192, .nr_cpus = 2 };
	struct ss_event ev[2] = {
		fx_ev(1 * FX_S, SS_EV_ISSUE, 100, 8, SS_RW_WRITE),
		fx_ev(1 * FX_S + 1000, SS_EV_COMPLETE, 100, 8, SS_RW_WRITE),
	};
	char args[600];

	ok(w && ss_writer_capture(w, &cap) == 0 && ss_writer_events(w, ev, 2) == 0,
	   "cut trace: the start's capture record and two events");
	ss_writer_abort(w);
	snprintf(args, sizeof(args), "--json %s", tpath("cut.sst"));
	is_int(run(args), 0, "cut trace reports");
	flatten();
	is_str(get("0.capture.exit_status"), "null", "json: exit_status null when the end is missing");
	snprintf(args, sizeof(args), "--json %s", tpath("fx.sst"));
	run(args);
	flatten();
	is_str(get("0.capture.exit_status"), "0", "json: the recorded status otherwise");
	snprintf(args, sizeof(args), "%s", tpath("cut.sst"));
	run(args);
	ok(strstr(out, "workload exit status unknown") != NULL, "text: workload exit status unknown");
}

/* The fixture's issues fed to the model here, directly: what report --disk must print. */
struct direct_model {
	struct ss_disk_cost total, phase[3], zone[5];   /* extract, sync, delete; AG0-3, log */
	uint64_t requests;
};

static int model_directly(const char *trace, const struct ss_disk_params *p,
			  struct direct_model *dm)
{
	struct ss_disk_model *m = ss_disk_model_new(p, 4194304);
	struct ss_trace *t = ss_trace_open(trace, err, sizeof(err));
	const struct ss_event *ev;
	size_t n;

	memset(dm, 0, sizeof(*dm));
	if (!m || !t)
		return -1;
	while (ss_trace_next_batch(t, &ev, &n) > 0)
		for (size_t i = 0; i < n; i++) {
			struct ss_disk_cost c;
			/* phases and zones of fixture.h, by hand */
			int ph = ev[i].ts_ns < 2500 * FX_MS ? 0 : ev[i].ts_ns < 3000 * FX_MS ? 1 : 2;
			int z = ev[i].sector >= FX_LOG_START && ev[i].sector < FX_LOG_START + 20480 ? 4 :
				ev[i].sector < 4000000 ? (int)(ev[i].sector / 1048576) : -1;

			if (ss_disk_model_feed(m, &ev[i], &c) != 1)
				continue;
			dm->requests++;
			ss_disk_cost_add(&dm->total, &c);
			ss_disk_cost_add(&dm->phase[ph], &c);
			if (z >= 0)
				ss_disk_cost_add(&dm->zone[z], &c);
		}
	ss_trace_close(t);
	ss_disk_model_free(m);
	return 0;
}

static void cost_is(const char *prefix, const struct ss_disk_cost *c)
{
	char key[128];

	snprintf(key, sizeof(key), "%s.total_s", prefix);
	num_is(key, c->total_s, 1e-9);
	snprintf(key, sizeof(key), "%s.seek_s", prefix);
	num_is(key, c->seek_s, 1e-9);
	snprintf(key, sizeof(key), "%s.rotation_s", prefix);
	num_is(key, c->rotation_s, 1e-9);
	snprintf(key, sizeof(key), "%s.transfer_s", prefix);
	num_is(key, c->transfer_s, 1e-9);
	snprintf(key, sizeof(key), "%s.overhead_s", prefix);
	num_is(key, c->overhead_s, 1e-9);
}

static void test_disk_model(void)
{
	struct ss_disk_params p;
	struct direct_model dm;
	char args[600], key[64], row[128];
	FILE *f;

	ss_disk_params_preset("hdd7200", &p);
	is_int(model_directly(tpath("fx.sst"), &p, &dm), 0, "the fixture modelled directly");
	ok(dm.requests == 4 + 1 && dm.phase[0].seek_s > 0 && dm.zone[4].total_s > 0,
	   "five data issues, seeks in extract, two requests in the log");
	snprintf(args, sizeof(args), "--json --disk hdd7200 %s", tpath("fx.sst"));
	is_int(run(args), 0, "report --json --disk hdd7200 exits 0");
	is_int(flatten(), 0, "valid JSON");
	is_str(get("0.model.name"), "\"hdd7200\"", "model.name");
	is_str(get("0.model.params.rpm"), "7200", "model.params.rpm");
	is_str(get("0.model.params.wcache"), "\"off\"", "model.params.wcache");
	is_str(get("0.model.requests"), "5", "model.requests: the five data issues, not the flush");
	cost_is("0.model", &dm.total);
	for (int i = 0; i < 3; i++) {
		snprintf(key, sizeof(key), "0.phases.%d.model_s", i);
		num_is(key, dm.phase[i].total_s, 1e-9);
		snprintf(key, sizeof(key), "0.phases.%d.model", i);
		cost_is(key, &dm.phase[i]);
	}
	for (int i = 0; i < 5; i++) {
		snprintf(key, sizeof(key), "0.zones.%d.model_s", i);
		num_is(key, dm.zone[i].total_s, 1e-9);
	}
	cost_is("0.zones.4.model", &dm.zone[4]);
	/* the per-phase and per-zone figures add up to what they cover */
	ok(fabs(dm.phase[0].total_s + dm.phase[1].total_s + dm.phase[2].total_s -
		dm.total.total_s) < 1e-12, "phases cover every request here");

	snprintf(args, sizeof(args), "--disk hdd7200 %s", tpath("fx.sst"));
	is_int(run(args), 0, "text report with --disk");
	snprintf(row, sizeof(row), "  %-16s %10.3f %10.3f %9.3f", "extract", 1.0,
		 dm.phase[0].total_s, dm.phase[0].seek_s);
	ok(strstr(out, "disk model   hdd7200: 7200 rpm") && strstr(out, row),
	   "text: the model and the extract row '%s'", row);

	/* without --disk the keys are there, null */
	snprintf(args, sizeof(args), "--json %s", tpath("fx.sst"));
	run(args);
	flatten();
	ok(get("0.model") && !strcmp(get("0.model"), "null") &&
	   !strcmp(get("0.phases.0.model_s") ? get("0.phases.0.model_s") : "", "null") &&
	   !strcmp(get("0.zones.0.model") ? get("0.zones.0.model") : "", "null"),
	   "without --disk: model, model_s null");

	/* a parameter file */
	f = fopen(tpath("slow.disk"), "w");
	fputs("# one platter\nmodel = hdd5400\nheads = 1\n", f);
	fclose(f);
	is_int(ss_disk_model_parse(tpath("slow.disk"), &p, err, sizeof(err)), 0, "parameter file");
	model_directly(tpath("fx.sst"), &p, &dm);
	snprintf(args, sizeof(args), "--json --disk %s %s", tpath("slow.disk"), tpath("fx.sst"));
	is_int(run(args), 0, "report --disk FILE");
	flatten();
	is_str(get("0.model.name"), "\"hdd5400\"", "the file's model");
	num_is("0.model.total_s", dm.total.total_s, 1e-9);

	/* refusals: one line naming what is valid, exit 2 */
	snprintf(args, sizeof(args), "--disk hdd9000 %s", tpath("fx.sst"));
	is_int(run(args), 2, "an unknown model is misuse");
	ok(strstr(err, "--disk: unknown disk model 'hdd9000' (valid: hdd7200, hdd5400, hdd15k, ssd") &&
	   count_lines(err) == 1 && !out[0], "one line listing the models, nothing on stdout");
	snprintf(args, sizeof(args), "--disk hdd7200,rmp=1 %s", tpath("fx.sst"));
	is_int(run(args), 2, "an unknown key is misuse");
	ok(strstr(err, "(valid: rpm, heads,") && strstr(err, "ncq)") != NULL,
	   "the keys are listed in full");

	/* a device of unknown size and no zones (as an import has) */
	struct ss_writer *w = ss_writer_open(tpath("nosize.sst"), SS_OUT_INPLACE, NULL, 0);
	struct ss_rec_device d = { .dev = FX_DEV, .major = 7, .minor = 3 };
	struct ss_event ev[2] = {
		fx_ev(1 * FX_S, SS_EV_ISSUE, 100, 8, SS_RW_WRITE),
		fx_ev(1 * FX_S + 1000, SS_EV_COMPLETE, 100, 8, SS_RW_WRITE),
	};
	strcpy(d.name, "loop3");
	ss_writer_device(w, &d);
	ss_writer_events(w, ev, 2);
	ss_writer_close(w);
	snprintf(args, sizeof(args), "--disk hdd7200 %s %s", tpath("nosize.sst"), tpath("fx.sst"));
	is_int(run(args), 2, "a trace the model cannot lay onto a platter: exit 2");
	ok(strstr(err, "the size of device 7:3 is unknown") && strstr(out, "disk model   hdd7200"),
	   "it is named; the other trace is still reported");
}

int main(void)
{
	bin = getenv("SEEKSCOPE");
	if (!bin)
		bin = "./seekscope";
	/* (the binary is built by the make target that runs this test, so CI has it) */
	if (!need(NEED_CMD, bin) || !need(NEED_PYTHON3, NULL))
		return 0;
	if (testdir_make("report"))
		return done_testing();
	is_int(fx_write(tpath("fx.sst"), 0, 1), 0, "fixture written");
	test_json_fixture();
	test_json_classes();
	test_files_and_errors();
	test_text();
	test_exit_unknown();
	test_disk_model();
	test_cli();
	return done_testing();
}
