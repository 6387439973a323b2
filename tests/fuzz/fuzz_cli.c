/*
 * Fuzz target: the pure parsers behind the command line and the event decoder — rwbs strings
 * (ss_rwbs_parse, checked to round-trip through ss_rwbs_format), --fsync modes, the archive
 * path policy (ss_untar_path_check, checked against a straightforward reference), and the
 * option parsing of `report` and `dump` (getopt tables, --seek-threshold numbers).
 *
 * Input: first byte selects the parser, the rest is its text.  For report/dump the text is
 * split at NUL or newline into argv; every argument that is not an option is replaced by a
 * small valid trace so that no input can make the harness open arbitrary host files.
 * Later: range/size parsers of `plot` and the importers' options belong here too.
 */
#include <fcntl.h>
#include <zlib.h>

#include "commands.h"
#include "fuzz.h"
#include "seekscope/model.h"
#include "untar.h"

static int devnull = -1;
static char trace_path[64];

/* A minimal valid trace (header + END record) in memory, for the file operands. */
static void make_trace(void)
{
	static int fd = -1;
	uint8_t buf[64 + 16 + 16] = "SEEKSCP\x1a";

	buf[8] = 1;                                   /* version */
	buf[12] = 4, buf[13] = 3, buf[14] = 2, buf[15] = 1; /* endian tag */
	buf[16] = 64;                                 /* header size */
	buf[20] = 16;                                 /* record header size */
	uint32_t crc = (uint32_t)crc32(crc32(0L, Z_NULL, 0), buf + 80, 16);

	buf[64] = 8;                                  /* SS_REC_END, 16 zero bytes of payload */
	buf[68] = 16;
	buf[72] = (uint8_t)crc, buf[73] = (uint8_t)(crc >> 8);
	buf[74] = (uint8_t)(crc >> 16), buf[75] = (uint8_t)(crc >> 24);
	fuzz_memfile(&fd, buf, sizeof(buf), 0, trace_path, sizeof(trace_path));
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	make_trace();
	return 0;
}

/* The policy spelled out the slow way: split at '/', refuse any ".." component. */
static int ref_path_check(const char *p)
{
	char *copy, *tok, *save = NULL;
	int ret = 0;

	if (!*p)
		return -EINVAL;
	if (*p == '/')
		return -EPERM;
	copy = strdup(p);
	if (!copy)
		return 0;
	for (tok = strtok_r(copy, "/", &save); tok; tok = strtok_r(NULL, "/", &save))
		if (!strcmp(tok, ".."))
			ret = -EPERM;
	free(copy);
	return ret;
}

/*
 * Run CMD with argv from TEXT (split at newlines/NULs); output discarded.  Returns its exit
 * status; the argument strings stay allocated in *KEEP (the caller frees it) so that state a
 * parse leaves pointing into them is still readable and misparses show up deterministically.
 */
static int run_cmd(int (*cmd)(int, char **), const char *name, const char *text, size_t len,
		   char **keep)
{
	char *buf = malloc(len + 1), *argv[34];
	int argc = 0, saved_out, saved_err, ret;
	size_t start = 0;

	if (!buf)
		return -1;
	memcpy(buf, text, len);
	buf[len] = 0;
	argv[argc++] = (char *)name;
	for (size_t i = 0; i <= len && argc < 33; i++) {
		if (i == len || buf[i] == '\n' || buf[i] == '\0') {
			buf[i] = 0;
			argv[argc++] = buf[start] == '-' ? buf + start : trace_path;
			start = i + 1;
		}
	}
	argv[argc] = NULL;
	fflush(stdout);
	fflush(stderr);
	saved_out = dup(STDOUT_FILENO);
	saved_err = ss_fuzz_replay ? -1 : dup(STDERR_FILENO);
	dup2(devnull, STDOUT_FILENO);
	if (saved_err >= 0)
		dup2(devnull, STDERR_FILENO);
	ret = cmd(argc, argv);  /* each command resets getopt itself */
	fflush(stdout);
	fflush(stderr);
	if (saved_out >= 0) {
		dup2(saved_out, STDOUT_FILENO);
		close(saved_out);
	}
	if (saved_err >= 0) {
		dup2(saved_err, STDERR_FILENO);
		close(saved_err);
	}
	*keep = buf;
	return ret;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data + 1;
	size_t len = size ? size - 1 : 0;
	char *s, *k1 = NULL, *k2 = NULL;

	if (!size || size > 4096)
		return 0;
	s = strndup(text, len);     /* NUL-terminated view (cut at the first NUL) */
	if (!s)
		return 0;
	switch (data[0] % 5) {
	case 0: {                   /* rwbs: one op at most; formatting is stable */
		/* Not f == parse(format(f)): the kernel's own text is ambiguous ("FF" is a
		 * preflush flush or a flush with FUA), so the text, not the flags, round-trips. */
		char out[16], out2[16];
		uint16_t f = ss_rwbs_parse(text, len), ops;

		ops = f & (SS_RW_READ | SS_RW_WRITE | SS_RW_DISCARD | SS_RW_FLUSH | SS_RW_NONE);
		FUZZ_ASSERT(!(ops & (ops - 1)), "rwbs '%s' -> %#x: several ops", s, f);
		FUZZ_ASSERT(!f || ops, "rwbs '%s' -> %#x: flags without an op", s, f);
		ss_rwbs_format(f, out, sizeof(out));
		ss_rwbs_format(ss_rwbs_parse(out, strlen(out)), out2, sizeof(out2));
		FUZZ_ASSERT(!strcmp(out, out2), "rwbs '%s' -> '%s' -> '%s'", s, out, out2);
		break;
	}
	case 1: {                   /* --fsync MODE */
		enum ss_fsync_mode m = SS_FSYNC_END;

		if (ss_fsync_mode_parse(s, &m) == 0)
			FUZZ_ASSERT(!strcmp(ss_fsync_mode_name(m), s), "fsync '%s'", s);
		break;
	}
	case 2:                     /* archive path policy */
		FUZZ_ASSERT(ss_untar_path_check(s) == ref_path_check(s), "path check '%s': %d vs %d",
			    s, ss_untar_path_check(s), ref_path_check(s));
		break;
	/* Then a valid command line, which must succeed whatever the previous parse left
	 * behind: getopt keeps static state, and tests (and a future plot) run commands
	 * repeatedly in one process. */
	case 3:
		run_cmd(ss_cmd_report, "report", text, len, &k1);
		FUZZ_ASSERT(run_cmd(ss_cmd_report, "report", "-j\nx", 4, &k2) == 0,
			    "report -j FILE failed after 'report %s'", s);
		break;
	case 4:
		run_cmd(ss_cmd_dump, "dump", text, len, &k1);
		FUZZ_ASSERT(run_cmd(ss_cmd_dump, "dump", "--no-events\nx", 13, &k2) == 0,
			    "dump --no-events FILE failed after 'dump %s'", s);
		break;
	}
	free(k1);
	free(k2);
	free(s);
	return 0;
}
