#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The --help and misuse convention of every subcommand and of seekscope itself, as a user sees
# it: --help (and -h) on stdout in the one layout (USAGE, OPTIONS, EXAMPLES; upper-case
# headings), nothing on stderr, exit 0; misuse (unknown option, missing operand, bad value) one
# line on stderr "seekscope CMD: PROBLEM (see 'seekscope CMD --help')", nothing on stdout,
# exit 2; a runtime failure one line on stderr, exit 1; --help into a full stdout exits 1.
# Unprivileged.  Prints TAP.
source "$(dirname "$0")/../lib/tap.sh"
make_workdir
W=$WORK

# run ARGS...: RC, and the output in $W/out, $W/err
run() { "$SEEKSCOPE" "$@" >"$W/out" 2>"$W/err" </dev/null; RC=$?; }
lines() { wc -l <"$1"; }

# misuse CMD WANT-MESSAGE ARGS...: exit 2, stdout empty, one line on stderr
misuse() {
	local cmd=$1 want=$2; shift 2
	run "$@"
	is "$RC" 2 "$cmd: '$*' exits 2"
	local hint="(see 'seekscope${cmd:+ $cmd} --help')"
	[[ ! -s $W/out && $(lines "$W/err") -eq 1 ]] && grep -qxF "seekscope${cmd:+ $cmd}: $want $hint" "$W/err"
	ok $? "... one line on stderr only: $(head -c 200 "$W/err")"
}

# runtime CMD ARGS...: exit 1, stdout empty, one line on stderr naming the command
runtime() {
	local cmd=$1; shift
	run "$@"
	is "$RC" 1 "$cmd: '$*' fails at run time: exit 1"
	[[ ! -s $W/out && $(lines "$W/err") -eq 1 ]] && grep -q "^seekscope $cmd: " "$W/err"
	ok $? "... one line on stderr: $(head -c 200 "$W/err")"
}

for cmd in record report plot dump convert mkarchive movie list; do
	run "$cmd" --help
	is "$RC" 0 "$cmd --help exits 0"
	[[ ! -s $W/err ]]; ok $? "... nothing on stderr"
	head -1 "$W/out" | grep -q "^USAGE: seekscope $cmd " && grep -qx 'OPTIONS:' "$W/out" &&
		grep -qx 'EXAMPLES:' "$W/out" && grep -qx '  -h, --help *show this help and exit' "$W/out"
	ok $? "... USAGE, OPTIONS (with --help), EXAMPLES on stdout"
	bad=$(grep -E '^[A-Za-z][A-Za-z ]*:$|^(Options|Commands|Exit status|Examples|Usage):' "$W/out" |
		grep -vxE '[A-Z][A-Z ]*:')
	is "$bad" "" "... headings in the one style"
	cp "$W/out" "$W/help"
	run "$cmd" -h
	[[ $RC -eq 0 ]] && cmp -s "$W/out" "$W/help"; ok $? "... -h is --help"
	run help "$cmd"
	[[ $RC -eq 0 && ! -s $W/err ]] && cmp -s "$W/out" "$W/help"; ok $? "... 'seekscope help $cmd' is '$cmd --help'"
	grep -qx 'EXIT STATUS:' "$W/help"; ok $? "... documents its EXIT STATUS"
	for v in --version -V; do
		run "$cmd" $v
		[[ $RC -eq 0 && ! -s $W/err ]] && grep -qxE 'seekscope [0-9]+\.[0-9]+\.[0-9]+' "$W/out"
		ok $? "... $cmd $v: $(cat "$W/out")"
	done
	"$SEEKSCOPE" "$cmd" --help >/dev/full 2>"$W/err"; RC=$?
	is "$RC" 1 "... into a full stdout: exit 1"
	grep -q "No space left on device" "$W/err"; ok $? "... saying so: $(cat "$W/err")"
	misuse "$cmd" "unknown option '--bogus'" "$cmd" --bogus
	misuse "$cmd" "unknown option '-Z'" "$cmd" -Z
done

GEN=${GEN_TRACE:-$(dirname "$0")/../../build/tests/tools/gen-trace}
"$GEN" -o "$W/a.sst" -n 100 >/dev/null
ok $? "a small trace generated"

# missing operands, bad values, values an option needs
misuse record "name at least one device with -d (a block device or a path on the filesystem to watch)" record -o "$W/r.sst"
misuse record "-b wants KiB from 4 to 4194304, not '3'" record -d "$W" -b 3 -- true
misuse record "option '--output' needs an argument" record -d "$W" --output
misuse report "no trace file given" report -j
misuse report "bad --seek-threshold 'x' (sectors or bytes like 64K, 0 to 2^40 sectors)" report -t x "$W/a.sst"
misuse plot "bad --seek-threshold 'x' (sectors or bytes like 64K, 0 to 2^40 sectors)" plot -t x "$W/a.sst"
misuse plot "no TRACE given" plot -o "$W/p.png"
misuse plot "bad --size '1x1' (WxH, 200x150 to 16000x16000)" plot "$W/a.sst" --size 1x1
misuse dump "name one trace file" dump
misuse dump "name one trace file" dump "$W/a.sst" "$W/a.sst"
misuse convert "name one input trace" convert -o "$W/c.sst"
misuse convert "name the output with -o FILE" convert "$W/a.sst"
misuse convert "--fs-dev wants MAJ:MIN, e.g. 8:16, not '8'" convert "$W/a.sst" -o "$W/c.sst" --fs x --fs-dev 8
misuse convert "--fs-dev and --fs-offset go with --fs" convert "$W/a.sst" -o "$W/c.sst" --fs-offset 8
misuse mkarchive "-o FILE is required" mkarchive --files 3
misuse mkarchive "--files: '0' is not a whole number in 1..10000000" mkarchive -o "$W/t.tar" --files 0
misuse mkarchive "unexpected argument 'extra'" mkarchive -o "$W/t.tar" extra
misuse list "unexpected argument 'sda'" list sda
misuse record "--user: no user 'no-such-user-x' on this system" record --user no-such-user-x -d "$W" -- true
misuse plot "-o - (standard output) needs --format png, svg, pdf or html" plot "$W/a.sst" -o -
misuse movie "name the output with -o OUT.mp4, .webm or .mkv" movie "$W/a.sst"
misuse movie "bad --style 'movie' (grid, spindle or scan)" movie "$W/a.sst" -o "$W/m.mp4" --style movie
misuse movie "--length and --speed both set the length: give one" movie "$W/a.sst" -o "$W/m.mp4" --length 3 --speed 2

# runtime failures
runtime record record -d "$W/missing" -o "$W/r.sst" -- true
runtime report report "$W/missing.sst"
runtime plot plot "$W/missing.sst" -o "$W/p.png"
runtime dump dump "$W/missing.sst"
runtime convert convert "$W/missing.sst" -o "$W/c.sst"
runtime mkarchive mkarchive -o "$W/no/such/dir/t.tar" --files 3
runtime movie movie "$W/missing.sst" -o "$W/m.mp4"

# seekscope itself
run --help
is "$RC" 0 "seekscope --help exits 0"
[[ ! -s $W/err ]] && head -1 "$W/out" | grep -q '^USAGE: seekscope COMMAND' && grep -qx 'COMMANDS:' "$W/out" &&
	grep -qx 'OPTIONS:' "$W/out" && grep -qx 'EXAMPLES:' "$W/out"
ok $? "... USAGE, COMMANDS, OPTIONS, EXAMPLES on stdout, nothing on stderr"
for cmd in record report plot dump convert mkarchive movie list; do
	grep -qE "^  $cmd +[a-z]" "$W/out"; ok $? "... lists $cmd"
done
cp "$W/out" "$W/help"
for alias in -h help; do
	run $alias; [[ $RC -eq 0 ]] && cmp -s "$W/out" "$W/help"; ok $? "seekscope $alias is --help"
done
for v in --version -V version; do
	run $v
	[[ $RC -eq 0 && ! -s $W/err ]] && grep -qxE 'seekscope [0-9]+\.[0-9]+\.[0-9]+' "$W/out"; ok $? "seekscope $v: $(cat "$W/out")"
done
misuse "" "no command given"
misuse "" "unknown command 'frobnicate'" frobnicate
misuse "" "unknown command 'frobnicate'" help frobnicate
misuse "" "help takes one COMMAND" help plot report
misuse "" "unknown option '--bogus'" --bogus record

done_testing
