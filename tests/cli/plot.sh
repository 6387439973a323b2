#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# seekscope plot from the command line: help, misuse (exit 2), unreadable traces (exit 1, one
# line), truncated traces (rendered with a warning), every output format.  Prints TAP.
source "$(dirname "$0")/../lib/tap.sh"
GEN=${GEN_TRACE:-build/tests/tools/gen-trace}
plan 71
make_workdir
d=$WORK

"$SEEKSCOPE" plot --help >"$d/out" 2>"$d/err"; rc=$?
ok $((rc != 0)) "--help exits 0"
grep -q '^USAGE: seekscope plot' "$d/out" && grep -q '^EXAMPLES:' "$d/out" && grep -q 'more than the threshold (128' "$d/out"
ok $? "--help has USAGE, EXAMPLES and the seek definition on stdout"
ok $([[ -s $d/err ]] && echo 1 || echo 0) "--help writes nothing to stderr"
for opt in --panels --size --x-range --y-range --units --seek-threshold --rolling --title --label --output; do
	grep -q -- "$opt" "$d/out"; ok $? "--help documents $opt"
done

"$GEN" -o "$d/a.sst" -a 1 -P -n 3000 && "$GEN" -o "$d/b.sst" -a 4 -P -n 3000 -L 17
ok $? "traces generated"

for args in "" "$d/a.sst --bogus" "$d/a.sst -o x.jpg" "$d/a.sst --size 10x10" "$d/a.sst --size 800" \
	    "$d/a.sst --panels io,nope" "$d/a.sst --x-range 5:1" "$d/a.sst --y-range 2G" \
	    "$d/a.sst --units furlongs" "$d/a.sst --seek-threshold -3" "$d/a.sst --rolling x" \
	    "$d/a.sst -l one -l two" "$d/a.sst -o"; do
	# shellcheck disable=SC2086
	"$SEEKSCOPE" plot $args -o "$d/m.png" >"$d/out" 2>"$d/err" </dev/null; rc=$?
	[[ $args == *"-o x.jpg"* || $args == *" -o" ]] && { "$SEEKSCOPE" plot $args >"$d/out" 2>"$d/err"; rc=$?; }
	ok $((rc != 2)) "misuse '${args#"$d/"}' exits 2 (got $rc)"
	grep -q "^seekscope plot: " "$d/err" && [[ ! -s $d/out ]]; ok $? "... with the reason on stderr only"
done

"$SEEKSCOPE" plot "$d/missing.sst" -o "$d/x.png" >"$d/out" 2>"$d/err"; rc=$?
ok $((rc != 1)) "missing trace exits 1"
[[ $(wc -l <"$d/err") -eq 1 ]] && grep -q "^seekscope plot: $d/missing.sst: " "$d/err"
ok $? "missing trace: one line 'seekscope plot: FILE: reason' ($(cat "$d/err"))"

head -c 5000 /dev/urandom >"$d/junk.sst"
"$SEEKSCOPE" plot "$d/junk.sst" -o "$d/x.png" >"$d/out" 2>"$d/err"; rc=$?
ok $((rc != 1)) "corrupt trace exits 1"
[[ $(wc -l <"$d/err") -eq 1 ]] && grep -q "^seekscope plot: $d/junk.sst: not a seekscope, blktrace or trace-cmd file" "$d/err"
ok $? "corrupt trace: one line ($(cat "$d/err"))"

"$GEN" -o "$d/t.sst" -a 4 -n 2000 -t
"$SEEKSCOPE" plot "$d/t.sst" -o "$d/t.png" >"$d/out" 2>"$d/err"; rc=$?
ok $rc "truncated trace still renders"
grep -q "warning: truncated" "$d/err"; ok $? "... with a warning on stderr"
[[ -s $d/t.png ]]; ok $? "... and writes the picture"
"$SEEKSCOPE" plot -q "$d/t.sst" -o "$d/tq.png" >"$d/out" 2>"$d/err"; rc=$?
[[ $rc -eq 0 && -s $d/tq.png && ! -s $d/err && ! -s $d/out ]]; ok $? "-q: no warning, the picture still written"

for ext in png svg pdf; do
	"$SEEKSCOPE" plot "$d/a.sst" "$d/b.sst" -l agcount=1 -l agcount=4 -o "$d/cmp.$ext" \
		--panels io,seeks,tput,iops,lat,qd,dist >"$d/out" 2>"$d/err"; rc=$?
	ok $rc "comparison with every panel as $ext"
	[[ -s $d/cmp.$ext && ! -s $d/err ]]; ok $? "... written, nothing on stderr"
done
head -c 8 "$d/cmp.png" | od -An -c | grep -q 'P   N   G'; ok $? "PNG signature"
head -c 4 "$d/cmp.pdf" | grep -q '%PDF'; ok $? "PDF header"
tail -c 8 "$d/cmp.pdf" | grep -q '%%EOF'; ok $? "PDF trailer"
if have PYTHON3; then
	python3 -c 'import xml.dom.minidom,sys; xml.dom.minidom.parse(sys.argv[1])' "$d/cmp.svg"
	ok $? "SVG parses as XML"
else
	skip_need 1 PYTHON3
fi

"$GEN" -o "$d/empty.sst" -p seq -n 0
"$SEEKSCOPE" plot "$d/empty.sst" -o "$d/empty.png" --size 900x700 2>"$d/err"; rc=$?
ok $rc "empty trace renders"
"$SEEKSCOPE" plot "$d/a.sst" -o "$d/z.png" --x-range 1:3 --y-range 1G:3G --units mib -T "zoom" --rolling 5 --seek-threshold 256
ok $? "zoomed, smoothed, re-thresholded plot renders"
# a window past the end of one trace (a.sst lasts 3.4 s): drawn with a note, warned, exit 0
"$SEEKSCOPE" plot "$d/a.sst" -o "$d/past.png" --x-range 100:200 >"$d/out" 2>"$d/err"; rc=$?
ok $rc "--x-range past the end of the trace exits 0 (picture written)"
[[ -s $d/past.png ]]; ok $? "... the picture is written"
[[ $(wc -l <"$d/err") -eq 1 ]] && grep -q "^seekscope plot: $d/a.sst: warning: nothing to show: 100-200 s is past the end of this trace (3.41 s)$" "$d/err"
ok $? "... with one warning line naming the trace ($(cat "$d/err"))"
"$SEEKSCOPE" plot "$d/a.sst" -o "$d/past.png" --x-range 100:200 -q >"$d/out" 2>"$d/err"
[[ $? -eq 0 && ! -s $d/out && ! -s $d/err ]]; ok $? "... and with -q, silent"
"$SEEKSCOPE" plot "$d/a.sst" -o "$d/in.png" --x-range 1:2 2>"$d/err"
[[ ! -s $d/err ]]; ok $? "a window inside the trace warns about nothing"
"$SEEKSCOPE" plot "$d/a.sst" -o "$d/t0.png" --seek-threshold 0 && "$SEEKSCOPE" plot "$d/a.sst" -o "$d/t64k.png" -t 64K
ok $? "--seek-threshold 0 (every jump a seek) and -t 64K render"
(cd "$d" && "$SEEKSCOPE" plot a.sst) && [[ -s $d/a.png ]]
ok $? "default output is the trace's name with .png"
cp "$d/a.png" "$d/a.keep"
(cd "$d" && "$SEEKSCOPE" plot a.sst b.sst) && [[ -s $d/a-vs-b.png ]]
ok $? "two traces: the default output names both (a-vs-b.png)"
cmp -s "$d/a.png" "$d/a.keep"; ok $? "... and the one-trace picture a.png is left alone"
mkdir -p "$d/sub" && cp "$d/b.sst" "$d/sub/c.blk"
(cd "$d" && "$SEEKSCOPE" plot a.sst sub/c.blk) && [[ -s $d/a-vs-c.png ]]
ok $? "... in the current directory, from the base names without extension"
long=$(printf 'x%.0s' {1..130})
cp "$d/a.sst" "$d/$long.sst" && cp "$d/b.sst" "$d/$long.b.sst"
(cd "$d" && "$SEEKSCOPE" plot "$long.sst" "$long.b.sst" >"$d/out" 2>"$d/err"); rc=$?
[[ $rc -eq 2 ]] && grep -q "too long: name it with -o" "$d/err"; ok $? "a default name too long: exit 2, asks for -o ($(cat "$d/err"))"

done_testing
