// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Archive generator and the mkarchive command: same seed gives the same bytes in every
 * format, another seed other bytes, the counts asked for, a kernel-like size distribution;
 * option checking and exit codes of `seekscope mkarchive`.  Works in a mkdtemp() directory
 * under /tmp, removed at exit whatever happened.
 */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>
#include <zlib.h>

#include "tap.h"
#include "testdir.h"
#include "commands.h"
#include "gentree.h"
#include "untar_fixture.h"     /* crc_of */

static void test_generator(void)
{
	static const char *const exts[] = { "tar", "tar.gz", "tar.xz", "tar.bz2", "tar.zst",
					     "zip", "cpio" };
	struct ss_gentree_opts o = { .files = 300, .dirs = 30, .seed = 7, .scale = 0.1 };
	struct ss_gentree_stats st, st2;
	char err[512];

	for (size_t i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
		TP(a, "gen7.%s", exts[i]);
		TP(b, "gen7b.%s", exts[i]);
		TP(c, "gen8.%s", exts[i]);
		struct archive *r;
		struct archive_entry *e;
		unsigned files = 0, dirs = 0, depth_ok = 1;

		o.seed = 7;
		o.path = a;
		is_int(ss_gentree_write_stats(&o, &st, err, sizeof(err)), 0, "generate .%s (%s)",
		       exts[i], err);
		o.path = b;
		is_int(ss_gentree_write_stats(&o, &st2, err, sizeof(err)), 0, "generate it again");
		o.seed = 8;
		o.path = c;
		is_int(ss_gentree_write(&o, err, sizeof(err)), 0, "generate .%s with seed 8", exts[i]);
		ok(crc_of(a) == crc_of(b) && st.archive_bytes == st2.archive_bytes,
		   ".%s: same seed, identical bytes (%llu bytes)", exts[i],
		   (unsigned long long)st.archive_bytes);
		ok(crc_of(a) != crc_of(c), ".%s: another seed, different bytes", exts[i]);
		is_int(st.files, 300, ".%s: stats say 300 files", exts[i]);
		is_int(st.dirs, 30, ".%s: stats say 30 directories", exts[i]);

		r = archive_read_new();
		archive_read_support_filter_all(r);
		archive_read_support_format_all(r);
		if (archive_read_open_filename(r, a, 65536) == ARCHIVE_OK) {
			while (archive_read_next_header(r, &e) == ARCHIVE_OK) {
				const char *p = archive_entry_pathname(e);
				int slashes = 0;

				for (; *p; p++)
					slashes += *p == '/' && p[1];
				files += archive_entry_filetype(e) == AE_IFREG;
				dirs += archive_entry_filetype(e) == AE_IFDIR;
				if (slashes > 6)
					depth_ok = 0;
			}
		}
		archive_read_free(r);
		ok(files == 300 && dirs == 30, ".%s: archive holds 300 files, 30 dirs (%u, %u)",
		   exts[i], files, dirs);
		ok(depth_ok && st.max_depth >= 1 && st.max_depth <= 5, ".%s: depth %u within 5",
		   exts[i], st.max_depth);
	}

	/* The defaults, with tiny files so that this stays fast. */
	TP(defaults, "defaults.tar");
	TP(badrar, "bad.rar");
	TP(badtar, "bad.tar");
	TP(nodir, "no/such/dir/x.tar");
	memset(&o, 0, sizeof(o));
	o.path = defaults;
	o.scale = 0.01;
	is_int(ss_gentree_write_stats(&o, &st, err, sizeof(err)), 0, "generate with defaults");
	ok(st.files == 6000 && st.dirs == 400, "defaults: 6000 files, 400 dirs (%llu, %llu)",
	   (unsigned long long)st.files, (unsigned long long)st.dirs);
	ok(st.max_depth >= 3 && st.max_depth <= 5, "defaults: tree 3-5 levels deep (%u)",
	   st.max_depth);
	unlink(o.path);

	o.path = badrar;
	is_int(ss_gentree_write(&o, err, sizeof(err)), -EINVAL, "unknown extension is -EINVAL");
	ok(strstr(err, "bad.rar") != NULL, "... and the message names the file: %s", err);
	o.path = badtar;
	o.scale = -1;
	is_int(ss_gentree_write(&o, err, sizeof(err)), -EINVAL, "negative scale is -EINVAL");
	ok(access(o.path, F_OK) != 0, "... and no file is left behind");
	o.scale = 1;
	o.path = nodir;
	ok(ss_gentree_write(&o, err, sizeof(err)) < 0 && err[0], "unwritable output fails: %s",
	   err);
}

/* The size distribution of the default tree, read back from the archive. */
static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void test_distribution(void)
{
	TP(path, "dist.tar");
	struct ss_gentree_opts o = { .path = path, .seed = 3 };
	struct ss_gentree_stats st;
	uint64_t *sizes = calloc(SS_GENTREE_DEFAULT_FILES, sizeof(*sizes));
	struct archive *a;
	struct archive_entry *e;
	unsigned n = 0, small = 0, big = 0;
	char err[512];

	is_int(ss_gentree_write_stats(&o, &st, err, sizeof(err)), 0, "default tree (%s)", err);
	a = archive_read_new();
	archive_read_support_format_all(a);
	if (archive_read_open_filename(a, path, 65536) == ARCHIVE_OK)
		while (archive_read_next_header(a, &e) == ARCHIVE_OK && n < SS_GENTREE_DEFAULT_FILES)
			if (archive_entry_filetype(e) == AE_IFREG)
				sizes[n++] = (uint64_t)archive_entry_size(e);
	archive_read_free(a);
	qsort(sizes, n, sizeof(*sizes), cmp_u64);
	for (unsigned i = 0; i < n; i++) {
		small += sizes[i] >= 1024 && sizes[i] <= 40 * 1024;
		big += sizes[i] >= 512 * 1024;
	}
	ok(n == 6000 && sizes[n / 2] >= 6 * 1024 && sizes[n / 2] <= 10 * 1024,
	   "median file size ~8 KiB (%llu)", (unsigned long long)sizes[n / 2]);
	ok(small >= n * 9 / 10, "most files between 1 and 40 KiB (%u of %u)", small, n);
	ok(big >= 3 && big <= 20 && sizes[n - 1] <= 4 * 1024 * 1024,
	   "a few files of 0.5-4 MiB (%u, largest %llu)", big, (unsigned long long)sizes[n - 1]);
	ok(st.data_bytes >= 60000000 && st.data_bytes <= 80000000, "60-80 MB in all (%llu)",
	   (unsigned long long)st.data_bytes);
	free(sizes);
	unlink(path);
}

static int out_lines, err_lines;

/* Count the lines and join them with '|' so that the text fits on one TAP line. */
static void flatten(char *s, int *lines)
{
	size_t len = strlen(s);

	*lines = 0;
	for (char *p = s; *p; p++) {
		if (*p == '\n') {
			(*lines)++;
			*p = '|';
		}
	}
	if (len && s[len - 1] == '|')
		s[len - 1] = '\0';
}

/* Run `seekscope mkarchive ARGS...` in-process with stdout and stderr captured. */
static int run_cmd(char *out, size_t outlen, char *errout, size_t errlen, char **argv)
{
	int argc = 0, ret, saved_out = dup(1), saved_err = dup(2);
	int fo = open(tpath("cmd.out"), O_CREAT | O_RDWR | O_TRUNC, 0644);
	int fe = open(tpath("cmd.err"), O_CREAT | O_RDWR | O_TRUNC, 0644);
	ssize_t n;

	while (argv[argc])
		argc++;
	fflush(stdout);
	fflush(stderr);
	dup2(fo, 1);
	dup2(fe, 2);
	ret = ss_cmd_mkarchive(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(saved_out, 1);
	dup2(saved_err, 2);
	close(saved_out);
	close(saved_err);
	n = pread(fo, out, outlen - 1, 0);
	out[n > 0 ? n : 0] = '\0';
	n = pread(fe, errout, errlen - 1, 0);
	errout[n > 0 ? n : 0] = '\0';
	close(fo);
	close(fe);
	flatten(out, &out_lines);
	flatten(errout, &err_lines);
	return ret;
}

#define CMD(...) run_cmd(out, sizeof(out), errs, sizeof(errs), (char *[]){ "mkarchive", __VA_ARGS__, NULL })

static void test_cli(void)
{
	TP(good, "cli.tar.gz");
	TP(bad_ext, "cli.rar");
	TP(no_dir, "no/such/dir/cli.tar");
	char out[8192], errs[8192];

	is_int(CMD("--help"), 0, "mkarchive --help exits 0");
	ok(strstr(out, "USAGE") && strstr(out, "EXAMPLES") && strstr(out, "--scale") &&
	   strstr(out, "--top") && !errs[0] && out_lines > 10,
	   "... to stdout, with USAGE, EXAMPLES and every option");
	is_int(CMD("-o", good, "--files", "40", "--dirs", "5", "--seed", "0x2a", "--scale", "0.5"),
	       0, "mkarchive with every option succeeds (%s)", errs);
	ok(strstr(out, "40 files in 5 directories") && out_lines == 1,
	   "... and says what it wrote in one line: %s", out);
	ok(access(good, F_OK) == 0, "... the archive exists");

	is_int(CMD("--files", "4"), 2, "missing -o is misuse (2)");
	ok(strstr(errs, "-o") && !out[0], "... explained on stderr: %s", errs);
	is_int(CMD("-o", good, "--files", "12abc"), 2, "--files 12abc is misuse");
	is_int(CMD("-o", good, "--files", "0"), 2, "--files 0 is misuse");
	is_int(CMD("-o", good, "--files", "-3"), 2, "--files -3 is misuse");
	is_int(CMD("-o", good, "--dirs", "99999999999999999999"), 2, "--dirs overflow is misuse");
	is_int(CMD("-o", good, "--scale", "nan"), 2, "--scale nan is misuse");
	is_int(CMD("-o", good, "--scale", "0"), 2, "--scale 0 is misuse");
	is_int(CMD("-o", good, "--seed", "-1"), 2, "--seed -1 is misuse");
	is_int(CMD("-o", good, "--bogus"), 2, "unknown option is misuse");
	ok(strstr(errs, "--bogus") != NULL, "... naming it: %s", errs);
	is_int(CMD("-o", good, "extra"), 2, "stray argument is misuse");
	is_int(CMD("-o"), 2, "-o without argument is misuse");
	is_int(CMD("-o", bad_ext), 2, "unknown extension is misuse");
	ok(strstr(errs, ".tar.gz") != NULL, "... listing the known ones: %s", errs);
	is_int(CMD("-o", no_dir, "--files", "3"), 1, "unwritable output is a runtime failure (1)");
	ok(!strncmp(errs, "seekscope mkarchive: ", 21) && err_lines == 1 && !out[0],
	   "... one line on stderr: %s", errs);
}

int main(void)
{
	if (testdir_make("gentree"))
		return done_testing();
	test_generator();
	test_distribution();
	test_cli();
	return done_testing();
}
