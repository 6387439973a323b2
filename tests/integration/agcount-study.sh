#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# samples/agcount-study.sh in a quick mode: a 300-file tree, XFS agcount 1 and 4 (no ext4),
# two runs each.  Its table must hold what `seekscope report --json --disk hdd7200` says of
# the captures, its figure must be drawn, and nothing it made may be left (its scratch
# directory is under our own TMPDIR).  Root only.
source "$(dirname "$0")/../lib/tap.sh"
need ROOT
need TRACEFS
need LOOP
need PYTHON3
need CMD mkfs.xfs
plan 11
make_workdir
TOP=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$WORK/tmp"
# the figure tool: next to the binary's build (make check-run builds the tools)
fig=${GEN_TRACE:+$(dirname "$GEN_TRACE")/study-figure}
[[ -x ${fig:-} ]] || fig=$TOP/build/tests/tools/study-figure
TMPDIR=$WORK/tmp STUDY_FIGURE=$fig timeout 300 "$TOP/samples/agcount-study.sh" -o "$WORK/out" \
	--files 300 --agcounts "1 4" --no-ext4 --repeat 2 >"$WORK/table" 2>"$WORK/log"
ok $? "the study ran (agcount 1 and 4, two runs each)" || sed 's/^/# /' "$WORK/log"
is "$(ls "$WORK/out/traces" | sort | tr '\n' ' ')" \
	"xfs-ag1-r1-extract.sst xfs-ag1-r1-rm.sst xfs-ag1-r2-extract.sst xfs-ag1-r2-rm.sst xfs-ag4-r1-extract.sst xfs-ag4-r1-rm.sst xfs-ag4-r2-extract.sst xfs-ag4-r2-rm.sst " \
	"two captures per configuration and run"
grep -q "^extract + sync" "$WORK/table" && grep -q "^rm -rf + sync" "$WORK/table" &&
	grep -q "^XFS agcount=4       2 " "$WORK/table"
ok $? "the table has both phases and the runs"

# the TSV's mean, min and max against report --json --disk of each capture, summed here
python3 - "$WORK/out" "$SEEKSCOPE" >"$WORK/check" 2>&1 <<'PY'
import csv, json, subprocess, sys
out, seekscope = sys.argv[1:3]
rows = {(r["config"], r["phase"]): r for r in csv.DictReader(
    (l for l in open(out + "/study.tsv") if not l.startswith("#")), delimiter="\t")}
bad = 0
for cfg in ("xfs-ag1", "xfs-ag4"):
    for phase, kind, names in (("extract + sync", "extract", ("extract", "sync")),
                               ("rm -rf + sync", "rm", ("workload",))):
        model, seeks = [], []
        for r in (1, 2):
            j = json.loads(subprocess.check_output(
                [seekscope, "report", "--json", "--disk", "hdd7200",
                 "%s/traces/%s-r%d-%s.sst" % (out, cfg, r, kind)]))
            ph = [p for p in j["phases"] if p["name"] in names]
            model.append(sum(p["model_s"] for p in ph))
            seeks.append(sum(p["seeks"] for p in ph))
        row = rows[(cfg, phase)]
        for key, v in (("model_s", model), ("seeks", seeks)):
            want = (sum(v) / len(v), min(v), max(v))
            got = tuple(float(row[key + s]) for s in ("", "_min", "_max"))
            if any(abs(a - b) > 1e-4 * max(1, abs(b)) for a, b in zip(got, want)):
                print("%s %s %s: table %s, report %s" % (cfg, phase, key, got, want)); bad += 1
print("seeks", rows[("xfs-ag1", "extract + sync")]["seeks"], rows[("xfs-ag4", "extract + sync")]["seeks"])
sys.exit(bad)
PY
ok $? "the table's seeks and modelled seconds (mean, min, max) are report --json --disk's" ||
	sed 's/^/# /' "$WORK/check"
read -r _ s1 s4 < <(grep ^seeks "$WORK/check")
python3 -c "import sys; sys.exit(not float('$s4') > float('$s1'))"
ok $? "agcount=4 seeks more than agcount=1 while extracting and syncing ($s4 vs $s1)"

# why the head moved: every cause row's shares add up to 100 %, and with one AG no data seek
# goes from one AG to another (the only other zone is the log)
awk '/^seek causes/ { on = 1 } on && /^XFS agcount=[0-9]+ +[0-9]+ / {
	s = 0; for (i = 4; i <= NF; i++) { v = $i; sub("%", "", v); s += v }
	if (s < 99.5 || s > 100.5) { print "row sums to " s ": " $0; bad = 1 } n++ }
	END { if (n != 4) { print n " rows"; bad = 1 } exit bad }' "$WORK/table" >"$WORK/causes"
ok $? "the seek-cause shares of each capture add up to 100 %" || sed 's/^/# /' "$WORK/causes"
grep -q "^XFS agcount=1, extract + sync: 0.0 % of the seeks are data -> data across zones" "$WORK/table"
ok $? "agcount=1: no data -> data seek across zones" || grep "across zones" "$WORK/table" | sed 's/^/# /'

# the figure: a PNG of the tool's size, with bars in it
python3 - "$WORK/out/agcount-study.png" <<'PY'
import struct, sys, zlib
d = open(sys.argv[1], "rb").read()
assert d[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
w, h = struct.unpack(">II", d[16:24])
assert (w, h) == (1500, 96 + 2 * 330 + 10), (w, h)
PY
ok $? "the figure is a 1500x766 PNG (two phases)"
[[ $(stat -c %s "$WORK/out/agcount-study.png") -gt 20000 ]]
ok $? "... with something drawn in it ($(stat -c %s "$WORK/out/agcount-study.png") bytes)"

is "$(loops_of "$WORK/tmp")" "" "no loop device of the study is left"
is "$(ls -A "$WORK/tmp")" "" "its scratch directory is gone"
