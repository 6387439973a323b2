#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# seekscope plot -o x.html without a browser: one self-contained file (nothing it could fetch),
# the project's script and stylesheet inside as they are in render/html/web, the embedded data
# equal to `seekscope report`'s figures, the size budget and what it says when it leaves
# detail out, and bad input as for the static plot.  Prints TAP.  (The page in a real browser:
# plot-html-browser.sh.)
source "$(dirname "$0")/../lib/tap.sh"
GEN=${GEN_TRACE:-build/tests/tools/gen-trace}
TOOLS=$(cd "$(dirname "$0")/../tools" && pwd)
WEB=$(cd "$(dirname "$0")/../../render/html/web" && pwd)
plan 33
make_workdir
d=$WORK

"$GEN" -o "$d/a.sst" -a 4 -P -n 3000 && "$GEN" -o "$d/b.sst" -a 1 -P -n 3000 -L 17
ok $? "traces generated"

"$SEEKSCOPE" plot "$d/a.sst" "$d/b.sst" -l agcount=4 -l agcount=1 -o "$d/cmp.html" >"$d/out" 2>"$d/err"
ok $? "two traces side by side as .html"
[[ -s $d/cmp.html && ! -s $d/out && ! -s $d/err ]]; ok $? "... written, nothing on stdout or stderr"
head -c 15 "$d/cmp.html" | grep -q '^<!DOCTYPE html>'; ok $? "an HTML document"
grep -q "Content-Security-Policy\" content=\"default-src 'none'" "$d/cmp.html"
ok $? "... that forbids itself any fetch (CSP default-src 'none')"
if have PYTHON3; then
	python3 "$TOOLS/html-meta.py" "$d/cmp.html" >"$d/meta" 2>"$d/err"; ok $? "the page's data decode ($(head -c 200 "$d/err"))"
	is "$(awk '$1 == "external" {print $2}' "$d/meta")" 0 "no src=, href=, url(), @import or http(s):// in the page"
	is "$(awk '$1 == "max_bytes" {print $2}' "$d/meta")" 20000000 "the default budget is 20 MB"
	for i in 0 1; do
		t=$([[ $i == 0 ]] && echo a || echo b)
		"$SEEKSCOPE" report --json "$d/$t.sst" >"$d/r$i.json"
		want=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r["ios"], r["seeks"])' "$d/r$i.json")
		is "$(awk -v i=$i '$1 == i && $2 == "ios" {print $3, $5}' "$d/meta")" "$want" \
			"trace $i: the summary's I/Os and seeks are report's ($want)"
		is "$(awk -v i=$i '$1 == i && $2 == "bins_ios" {print $3, $5}' "$d/meta")" "$want" \
			"trace $i: the embedded time bins add up to them"
		read -r req kept dec < <(awk -v i=$i '$1 == i && $2 == "requests" {print $3, $5, $7}' "$d/meta")
		issues=$("$SEEKSCOPE" dump "$d/$t.sst" | awk '$4 == "issue" && $7 !~ /\+0$/ && $6 !~ /^D/' | wc -l)
		[[ $req -eq $issues && $kept -eq $req && $dec -eq $req ]]
		ok $? "trace $i: every data request issued ($issues) is in the detail ($req, kept $kept, decoded $dec)"
	done
	is "$(awk '$1 == 1 && $2 == "label" {print $3}' "$d/meta")" "agcount=1" "-l labels the columns"
	# the table is the static plot's (table.c): its rows, and only the honest highlights of
	# two extractions of the same tree (fewer seeks for one AG, a shorter extract+sync for four)
	S=$(dirname "$0")/../../samples/traces
	"$SEEKSCOPE" plot "$S/xfs-agcount1.sst" "$S/xfs-agcount4.sst" -l ag1 -l ag4 -o "$d/ag.html" &&
		python3 "$TOOLS/html-meta.py" "$d/ag.html" >"$d/agmeta"
	is "$(sed -n 's/^table_best //p' "$d/agmeta" | tr '\n' ';')" \
		"ag1|all|seeks;ag1|sync|seeks;ag1|extract+sync|seeks;ag4|extract+sync|duration s;" \
		"the page's table highlights what the picture's does, nothing more"
	is "$(awk '$1 == "table_rule" {print $2}' "$d/agmeta") $(awk '$1 == "table_row" && $2 == "ag4|all" {print $4}' "$d/agmeta")" \
		"1 $("$SEEKSCOPE" report --json "$S/xfs-agcount4.sst" | python3 -c 'import json,sys; print(json.load(sys.stdin)["ios"])')" \
		"... with the rule under it, and report's I/Os in its rows"
else
	skip_need 11 PYTHON3
fi
# the script and the stylesheet are the project's sources, readable, not a minified blob
cat "$WEB"/util.js "$WEB"/data.js "$WEB"/draw.js "$WEB"/draw_panels.js "$WEB"/ui.js >"$d/web.js"
python3 - "$d/cmp.html" "$d/web.js" "$WEB/viewer.css" <<'PY'
import sys
page, js, css = (open(p, encoding="utf-8").read() for p in sys.argv[1:])
sys.exit(0 if js in page and css in page else 1)
PY
ok $? "the page holds render/html/web's script and stylesheet as they are"

# the size budget: a trace with more detail than 1 MB holds
"$GEN" -o "$d/big.sst" -a 4 -P -n 200000
"$SEEKSCOPE" plot "$d/big.sst" -o "$d/big.html" --html-max 1 >"$d/out" 2>"$d/err"; rc=$?
ok $rc "over the budget still writes the page"
size=$(stat -c %s "$d/big.html")
[[ $size -le 1000000 ]]; ok $? "... within --html-max 1 ($size bytes)"
[[ $(wc -l <"$d/err") -eq 1 ]] && grep -q "warning: to stay within 1 MB the page leaves out the detail of [0-9]* of [0-9]* requests" "$d/err" &&
	grep -q -- "--x-range [0-9.]*:[0-9.]*" "$d/err"
ok $? "... and says what it left out and which --x-range to plot instead ($(cat "$d/err"))"
range=$(grep -o -- "--x-range [0-9.]*:[0-9.]*" "$d/err" | cut -d' ' -f2)
"$SEEKSCOPE" plot "$d/big.sst" -o "$d/zoom.html" --html-max 1 --x-range "$range" >"$d/out" 2>"$d/err"
[[ $? -eq 0 && ! -s $d/err ]]; ok $? "the suggested --x-range $range fits with every request ($(cat "$d/err"))"
"$SEEKSCOPE" plot "$d/big.sst" -o "$d/all.html" >"$d/out" 2>"$d/err"
[[ $? -eq 0 && ! -s $d/err ]]; ok $? "the default budget holds all of it"

# bad input: as for the static plot, one line, and an old page stays as it was
cp "$d/cmp.html" "$d/keep.html"
"$SEEKSCOPE" plot "$d/missing.sst" -o "$d/keep.html" >"$d/out" 2>"$d/err"; rc=$?
ok $((rc != 1)) "missing trace exits 1"
[[ $(wc -l <"$d/err") -eq 1 ]] && grep -q "^seekscope plot: $d/missing.sst: " "$d/err"
ok $? "... one line ($(cat "$d/err"))"
head -c 5000 /dev/urandom >"$d/junk.sst"
"$SEEKSCOPE" plot "$d/junk.sst" -o "$d/keep.html" >"$d/out" 2>"$d/err"; rc=$?
[[ $rc -eq 1 && $(wc -l <"$d/err") -eq 1 ]] && grep -q "not a seekscope, blktrace or trace-cmd file" "$d/err"
ok $? "corrupt trace: exit 1, one line ($(cat "$d/err"))"
cmp -s "$d/cmp.html" "$d/keep.html"; ok $? "... the existing page is untouched"
"$SEEKSCOPE" plot "$d/a.sst" --align nosuchphase -o "$d/x.html" >"$d/out" 2>"$d/err"; rc=$?
ok $((rc != 2)) "--align a phase the trace lacks: exit 2 ($(cat "$d/err"))"
for args in "-o $d/x.xhtml" "--html-max 0 -o $d/x.html" "--html-max lots -o $d/x.html" \
	    "--panels io,causes -o $d/x.html"; do
	# shellcheck disable=SC2086
	"$SEEKSCOPE" plot "$d/a.sst" $args >"$d/out" 2>"$d/err"; rc=$?
	[[ $rc -eq 2 && $(wc -l <"$d/err") -eq 1 && ! -s $d/out ]]
	ok $? "misuse '$args' exits 2 with one line ($(cat "$d/err"))"
done
[[ ! -e $d/x.html ]]; ok $? "no page is left behind by a refusal"

done_testing
