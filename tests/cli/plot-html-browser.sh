#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The page of `seekscope plot -o x.html` in a real browser: headless Chromium driven by Selenium
# (tests/tools/browse-html.py does what a user does and reports; the assertions are here).  It
# loads without console errors, wheel/drag/box/double-click/keys change the view as they
# should, the request under the mouse is the trace's own (time, sectors, rwbs, latency, zone as
# `seekscope dump` gives them), the URL fragment restores a view, phases and zones zoom when
# clicked, panels toggle, play moves; and a 2M-I/O trace makes a page within 20 MB that opens
# and pans without errors.  How fast it opens and redraws is printed here, not asserted (a busy
# machine would make that a coin toss): tests/bench/viewer.sh measures it against the goals.
# Screenshots stay in $SS_KEEP_SHOTS if set.  Prints TAP.
source "$(dirname "$0")/../lib/tap.sh"
GEN=${GEN_TRACE:-build/tests/tools/gen-trace}
BROWSE=$(cd "$(dirname "$0")/../tools" && pwd)/browse-html.py
PY=/usr/bin/python3          # Debian's python3-selenium imports there, not in another python3
plan 74
need CMD chromium chromedriver
[[ -x $PY ]] && $PY -c 'import selenium' 2>/dev/null ||
	skip_all "prerequisite: python3-selenium not available"
make_workdir
d=$WORK
shots=${SS_KEEP_SHOTS:-$d}
mkdir -p "$shots"

"$GEN" -o "$d/a.sst" -a 4 -P -T -n 3000 && "$GEN" -o "$d/b.sst" -a 1 -P -n 3000 &&
	"$SEEKSCOPE" plot "$d/a.sst" "$d/b.sst" -o "$d/cmp.html" && "$SEEKSCOPE" dump --absolute "$d/a.sst" >"$d/a.dump"
ok $? "page and dump made"
$PY "$BROWSE" "$d/cmp.html" "$shots" "$d/a.dump" >"$d/seen" 2>"$d/err"
ok $? "the browser ran the page ($(tail -3 "$d/err" | tr '\n' ' '))"
val() { awk -F'\t' -v k="$1" '$1 == k {print $2}' "$d/seen"; }
near() {   # near A B: within 1 % (mouse positions are whole pixels)
	awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; exit !(d * d <= (0.01 * b) * (0.01 * b)) }'
}
js() {   # js KEY EXPR: EXPR over the JSON value of KEY (as v)
	$PY -c 'import json,sys; v=json.loads(sys.argv[1]); print(eval(sys.argv[2]))' "$(val "$1")" "$2"
}
is "$(val ready)" true "the page is ready"
is "$(val error)" "" "... without an error"
is "$(val console_errors)" "[]" "no console errors"
[[ -n $(val load_ms) ]]; ok $? "the page says when it was ready"
diag "opened in $(val load_ms) ms"
is "$(js home '[v["t0_s"], v["modes"]]')" "[0, ['detail', 'detail']]" "home: from the start, every request drawn"
is "$(js wheel 'v["t1_s"] - v["t0_s"] < 0.9 * 3.99 and v["y0"] == 2048')" True "the wheel zooms time, not offset"
is "$(js drag 'round(v["t0_s"], 6)')" "$(js drag_before 'round(v["t0_s"] + (v["t1_s"] - v["t0_s"]) / 4, 6)')" \
	"dragging a quarter of the panel left moves time by a quarter"
a=$(js box 'v["t1_s"] - v["t0_s"]') b=$(js box_before '(v["t1_s"] - v["t0_s"]) / 3')
near "$a" "$b"; ok $? "a shift-drag box over a third of the width zooms time to that third ($a, $b s)"
a=$(js box 'v["y1"] - v["y0"]') b=$(js box_before '(v["y1"] - v["y0"]) / 3')
near "$a" "$b"; ok $? "... and the offset to its third ($a, $b sectors)"
is "$(js dblclick '[v["t0_s"], v["t1_s"], v["y0"], v["y1"]]')" "$(js home '[v["t0_s"], v["t1_s"], v["y0"], v["y1"]]')" \
	"double-click resets"
is "$(js keys_zoom 'round((v["t1_s"] - v["t0_s"]) * 4, 6)')" "$(js home 'round(v["t1_s"] - v["t0_s"], 6)')" \
	"'+' twice zooms time to a quarter"
is "$(js keys_pan 'round(v["t0_s"], 6)')" "$(js keys_zoom 'round(v["t0_s"] + (v["t1_s"] - v["t0_s"]) / 5, 6)')" \
	"the right arrow pans a fifth"
for k in 0 1 2 3 4; do
	is "$(val hover.$k.index)" "$(val hover.$k.want_index)" "hover $k: the mouse over request $(val hover.$k.want_index) finds it"
	is "$(val hover.$k.page)" "$(val hover.$k.trace)" "... its time, sectors, rwbs, latency, zone and process are the trace's"
done
grep -q "latency" <<<"$(val hover.1.tooltip)" && grep -q "sectors" <<<"$(val hover.1.tooltip)" &&
	grep -Eq "process(tar|kworker|rm)" <<<"$(val hover.1.tooltip)"
ok $? "the tooltip shows them ($(val hover.1.tooltip | head -c 200))"
is "$(js hash_got '[round(v["t0_s"], 9), round(v["t1_s"], 9), v["y0"], v["y1"], v["hidden"]]')" \
	"$(js hash_want '[round(v["t0_s"], 9), round(v["t1_s"], 9), v["y0"], v["y1"], v["hidden"]]')" \
	"the URL fragment ($(val hash)) brings the view and the hidden class back"
is "$(js phase_click 'v["view"]["t0_s"] < v["begin_s"] < v["end_s"] < v["view"]["t1_s"] and v["view"]["t1_s"] - v["view"]["t0_s"] < 1.1 * (v["end_s"] - v["begin_s"])')" \
	True "clicking a phase's label zooms to the phase"
is "$(js zone_click 'v["view"]["y0"] < v["start"] and v["start"] + v["n"] < v["view"]["y1"] and v["view"]["y1"] - v["view"]["y0"] < 1.1 * v["n"]')" \
	True "clicking a zone's label zooms to the zone"
is "$(val panel_toggle)" '[["io", "tput", "lat", "dist"], "none"]' "a panel switches off"
is "$(js play 'v["on"] and v["t_s"] > 0')" True "play sweeps the cursor ($(val play))"
is "$(js frame_ms_median 'v > 0')" True "panning redraws"
diag "redraws while panning take $(val frame_ms_median) ms (median; max $(val frame_ms_max))"

# the disk model (plot --disk): the model panel with the total `report --disk` gives
is "$(js panels_offered '"model" in v')" False "without --disk no model panel is offered"
"$SEEKSCOPE" plot "$d/a.sst" "$d/b.sst" --disk hdd7200 -o "$d/disk.html" &&
	"$SEEKSCOPE" report --json --disk hdd7200 "$d/a.sst" >"$d/a.json" &&
	"$SEEKSCOPE" report --json --disk hdd7200 "$d/b.sst" >"$d/b.json"
ok $? "a page with --disk, and the reports"
mkdir -p "$shots/disk"
$PY "$BROWSE" --load "$d/disk.html" "$shots/disk" >"$d/seen" 2>"$d/err"
ok $? "the browser ran it ($(tail -3 "$d/err" | tr '\n' ' '))"
is "$(val console_errors)" "[]" "... without console errors"
want=$($PY -c 'import json,sys; print([round(json.load(open(f))["model"]["total_s"], 6) for f in sys.argv[1:]])' \
	"$d/a.json" "$d/b.json")
is "$(js model '[round(x, 6) for x in v]')" "$want" "the model panel's totals are report --disk's, each trace"
lat=$($PY -c 'import json,sys; j=json.load(open(sys.argv[1])); print(j["lat_p50_us"] / 1e3, j["lat_max_us"] / 1e3)' "$d/a.json")
is "$(js lat_scale "v['log'] and v['lo'] <= ${lat% *} and v['hi'] >= ${lat#* }")" True \
	"the latency panel is logarithmic over decades holding the median and the slowest ($lat ms; $(val lat_scale))"
grep -q "rotation" <<<"$(val model_tooltip)" && grep -q "elapsed" <<<"$(val model_tooltip)"
ok $? "hovering the model panel tells its parts ($(val model_tooltip | head -c 120))"

# the seek distance panel's direction words keep off its bars: random requests over 64 GiB
# make the far buckets the tallest, near the panel's two ends, where the words belong
"$GEN" -o "$d/far.sst" -p random -g 64 -n 3000 && "$SEEKSCOPE" plot "$d/far.sst" "$d/far.sst" -o "$d/far.html"
ok $? "a page of random requests"
mkdir -p "$shots/far"
$PY "$BROWSE" --load "$d/far.html" "$shots/far" >"$d/seen" 2>"$d/err"
is "$(js dist_words '[(len(c["words"]), c["covered"], c["bars"] > 10) for c in v]')" \
	"[(2, [], True), (2, [], True)]" "the distance panels' direction words are drawn over no bar ($(val dist_words))"
is "$(val narrow_overflow)" 0 "in a window 700 px wide the page does not scroll sideways"
is "$(js narrow_table 'v[0]')" True "... the table, wider, scrolls on its own ($(val narrow_table))"

# several devices: the io panel of one at a time, over its own offsets
GENBT=${GEN_BLKTRACE:-build/tests/tools/gen-blktrace}
mkdir -p "$d/bt" "$shots/devices"
"$GENBT" -o "$d/bt/a" -n 2000 -d 7:0 && "$GENBT" -o "$d/bt/b" -n 500 -d 7:1 -s 7 &&
	"$SEEKSCOPE" plot "$d/bt" -o "$d/two.html"
ok $? "a page of a trace of two devices"
$PY "$BROWSE" --load "$d/two.html" "$shots/devices" >"$d/seen" 2>"$d/err"
is "$(val console_errors)" "[]" "... loads without console errors"
is "$(js dev1_view '[v["dev"], v["devices"], v["y0"], v["y1"]]')" \
	"$(js meta_slots '[1, 2, v[1][0], v[1][1]]')" "the device menu shows the second device over its own offsets"
grep -q '\[7:1\]$' <<<"$(val dev1_title)"; ok $? "... the io panel's title names it ($(val dev1_title))"
is "$(js dev1_hover 'v[2] == v[0] and v[3].startswith("7,1")')" True \
	"... and the request under the mouse is that device's ($(val dev1_hover))"

# lost-event periods shaded on the time panels, as in the picture (a trace with three)
LOSTSEED=$(cd "$(dirname "$0")/../fuzz/corpus/trace" && pwd)/lost.sst
mkdir -p "$shots/lost"
"$SEEKSCOPE" plot "$LOSTSEED" -o "$d/lost.html" 2>"$d/err"; ok $? "a page of a trace with lost-event periods"
$PY "$BROWSE" --load "$d/lost.html" "$shots/lost" >"$d/seen" 2>"$d/err"
is "$(js lost_px '[v["lost"][0] == v["colour"], v["lost"][1] == v["colour"], v["between"] != v["colour"]]')" \
	"[True, True, True]" "the seeks panel is shaded where events were lost, not between ($(val lost_px))"
is "$(val console_errors)" "[]" "... without console errors"

# --color-by process: the legend names the processes' groups, each request drawn in its own
"$SEEKSCOPE" plot "$d/a.sst" --color-by process -o "$d/procs.html" 2>"$d/err"
ok $? "a page coloured by process"
mkdir -p "$shots/procs"
$PY "$BROWSE" --load "$d/procs.html" "$shots/procs" >"$d/seen" 2>"$d/err"
is "$(js legend 'sorted(v)')" "['kworker:wb_workfn', 'kworker:xlog_cil_push_work', 'other', 'rm', 'tar']" \
	"the legend: the four processes' groups and other ($(val legend))"
is "$(js groups 'len({p: g for p, g in v}) == len(set(g for p, g in v)) == 4 and all(g == p or g == "kworker:" + p.split("-", 1)[1] for p, g in v)')" \
	True "every request is drawn in its process's group, one group per process"
is "$(val console_errors)" "[]" "... without console errors"

# the file map: each request's file and part, as seekscope dump --json names them
FMAPSEED=$(cd "$(dirname "$0")/../fuzz/corpus/trace" && pwd)/filemap.sst
mkdir -p "$shots/files"
"$SEEKSCOPE" plot "$FMAPSEED" -o "$d/files.html" 2>"$d/err" &&
	"$SEEKSCOPE" dump --json "$FMAPSEED" >"$d/files.json"
ok $? "a page of a trace with a file map, and its dump"
$PY "$BROWSE" --load "$d/files.html" "$shots/files" >"$d/seen" 2>"$d/err"
want=$($PY -c 'import json,sys
evs = [json.loads(l) for l in open(sys.argv[1])]
print(json.dumps([[e["sector"], e["file"], e["file_part"]] for e in evs
                  if e["type"] == "issue" and e["sector"] is not None and e["nr_sector"]]))' "$d/files.json")
is "$(val files)" "$want" "every request's file and part are the dump's"
is "$(val console_errors)" "[]" "... without console errors"

# scale: 2M I/Os
"$GEN" -o "$d/big.sst" -a 4 -P -n 2000000 && "$SEEKSCOPE" plot "$d/big.sst" -o "$d/big.html" 2>"$d/err"
ok $? "a 2M-I/O trace as a page ($(cat "$d/err"))"
rm -f "$d/big.sst"
size=$(stat -c %s "$d/big.html")
[[ $size -le 20000000 ]]; ok $? "... of $size bytes (<= 20 MB), every request kept: $([[ -s $d/err ]] && echo no || echo yes)"
mkdir -p "$shots/big"
$PY "$BROWSE" "$d/big.html" "$shots/big" >"$d/seen" 2>"$d/err"
ok $? "the browser ran it"
is "$(val console_errors)" "[]" "... without console errors"
is "$(js frame_ms_median 'v > 0')" True "... pans"
# a page this big draws its first picture, then decodes the request detail chunk by chunk
total=$($PY -c 'import json,re,sys; h=open(sys.argv[1],encoding="utf-8").read()
m=json.loads(re.search(r"<script type=\"application/json\" id=\"ss-meta\">(.*?)</script>",h,re.S).group(1))
print(sum(c["n"] for c in m["traces"][0]["chunks"] if c["sec"]))' "$d/big.html")
[[ $(val count_at_ready) -lt $total && $(val detail_ms) -gt $(val load_ms) ]]
ok $? "... its first picture ($(val load_ms) ms, cells: $(val modes_at_ready)) came with $(val count_at_ready) of its requests decoded"
is "$(val requests)" "$total" "... then every request of the page is there ($total, $(val detail_ms) ms)"
is "$(val detail_error)" "" "... without an error"
for k in 0 1 2 3 4; do
	is "$(val hover.$k.index)" "$(val hover.$k.want_index)" "... the mouse over request $(val hover.$k.want_index) finds it"
done

diag "opened in $(val load_ms) ms ($(val script_ms) ms of it the script), request detail after" \
	"$(val detail_ms) ms, redraws while panning in $(val frame_ms_median) ms (median; max $(val frame_ms_max))"

# a detail chunk that cannot be read (one base64 letter changed in the last one): the page
# works, draws cells from there on and says so
"$GEN" -o "$d/mid.sst" -a 4 -P -n 500000 && "$SEEKSCOPE" plot "$d/mid.sst" -o "$d/mid.html" &&
	rm -f "$d/mid.sst" && $PY - "$d/mid.html" <<'EOF'
import json, re, sys
h = open(sys.argv[1], encoding="utf-8").read()
m = json.loads(re.search(r'<script type="application/json" id="ss-meta">(.*?)</script>', h, re.S).group(1))
off, n = m["traces"][0]["chunks"][-1]["sec"]
at = h.index('id="ss-data-0">') + len('id="ss-data-0">') + (off + n // 2) // 3 * 4
h = h[:at] + ("B" if h[at] == "A" else "A") + h[at + 1:]
open(sys.argv[1], "w", encoding="utf-8").write(h)
EOF
ok $? "a page whose last detail chunk is damaged"
mkdir -p "$shots/damaged"
$PY "$BROWSE" --load "$d/mid.html" "$shots/damaged" >"$d/seen" 2>"$d/err"
ok $? "the browser ran it"
is "$(val ready)" true "... it is ready, without an error ($(val error | head -c 100))"
grep -q "could not be read" <<<"$(val detail_error)"
ok $? "... and says where its detail could not be read ($(val detail_error | head -c 160))"
rm -f "$d/mid.html"

done_testing
