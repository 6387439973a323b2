#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The extraction workload under `seekscope record --untar` on loop-backed XFS and ext4:
# fsync semantics, phases, repeat, delete, hostile archives, a full filesystem.
# Root only; everything created is removed at exit.
source "$(dirname "$0")/../lib/tap.sh"
need ROOT
need TRACEFS
need LOOP
need PYTHON3
need CMD mkfs.xfs mkfs.ext4
plan 38
make_workdir

"$SEEKSCOPE" mkarchive -o "$WORK/tree.tar.gz" --files 1500 --dirs 120 --seed 7 >/dev/null
ok $? "generated a source-tree-like archive"
mkdir -p "$WORK/ref" && tar xzf "$WORK/tree.tar.gz" -C "$WORK/ref"
nref=$(find "$WORK/ref" -type f | wc -l)

phases() { "$SEEKSCOPE" dump --no-events "$1" | awk '$2 == "phase" && $4 == "begin" {printf "%s ", $5}'; }
# writes that ask for durability: preflush/flush/FUA or sync writes
sync_writes() { "$SEEKSCOPE" dump "$1" | awk '$1 !~ /^#/ && $4 == "issue" && ($6 ~ /F/ || $6 ~ /S/)' | wc -l; }

make_loop 2G
mkfs.xfs -q -f -d agcount=4 "$LOOP"
mount_fs "$LOOP" "$WORK/xfs"
for mode in end none file; do
	d=$WORK/xfs/$mode; mkdir -p "$d"
	"$SEEKSCOPE" record -q -o "$WORK/$mode.sst" --untar "$WORK/tree.tar.gz" --into "$d" --fsync=$mode 2>"$WORK/$mode.err"
	ok $? "--fsync=$mode extraction recorded"
	n=$(find "$d/1" -type f | wc -l)
	is "$n" "$nref" "--fsync=$mode: every file extracted ($n)"
	diff -r "$WORK/ref" "$d/1" >/dev/null; ok $? "--fsync=$mode: contents identical to the archive"
done
is "$(phases "$WORK/end.sst")" "extract sync map " "--fsync=end phases: extract, sync, map"
is "$(phases "$WORK/none.sst")" "extract map " "--fsync=none phases: extract only (and the file map)"
is "$(phases "$WORK/file.sst")" "extract sync map " "--fsync=file phases: extract, sync, map"
sw_none=$(sync_writes "$WORK/none.sst"); sw_file=$(sync_writes "$WORK/file.sst")
[[ $sw_file -gt $((sw_none * 5 + 100)) ]]
ok $? "--fsync=file issues many more flush/sync writes than none ($sw_file vs $sw_none)"
"$SEEKSCOPE" report --json "$WORK/end.sst" > "$WORK/end.json"
python3 - "$WORK/end.json" "$nref" <<'PY'
import json, sys
r = json.loads(open(sys.argv[1]).readline())
want = int(sys.argv[2])
ph = {p["name"]: p for p in r["phases"]}
assert r["meta"]["workload"] == "untar", r["meta"]
assert int(r["meta"]["archive.files"]) == want, r["meta"]
assert "extract" in ph and "sync" in ph, ph.keys()
assert ph["extract"]["start_s"] <= ph["extract"]["end_s"] <= ph["sync"]["start_s"] <= ph["sync"]["end_s"]
assert r["write_bytes"] > 0 and r["lost_events"] == 0
PY
ok $? "report --json: workload figures and ordered phases"

# repeat + delete
mkdir -p "$WORK/xfs/rep"
"$SEEKSCOPE" record -o "$WORK/rep.sst" --untar "$WORK/tree.tar.gz" --into "$WORK/xfs/rep" --repeat 3 --delete 2>"$WORK/rep.err"
ok $? "--repeat 3 --delete recorded"
is "$(phases "$WORK/rep.sst")" "extract.1 extract.2 extract.3 sync map delete delete-sync " "phases of repeat 3 + delete (the map before the delete)"
is "$(find "$WORK/xfs/rep" -mindepth 1 | wc -l)" 0 "the delete phase removed everything"
grep -q 'delete .* files/s' "$WORK/rep.err"; ok $? "delete phase figures printed: $(grep delete "$WORK/rep.err" | head -1)"

# hostile archives: nothing outside DIR, a clear message, non-zero, the trace kept
mkdir -p "$WORK/outside" "$WORK/xfs/h"
python3 - "$WORK" <<'PY'
import io, sys, tarfile
w = sys.argv[1]
def add(t, name, data=b"x", **kw):
    ti = tarfile.TarInfo(name); ti.size = len(data)
    for k, v in kw.items(): setattr(ti, k, v)
    t.addfile(ti, io.BytesIO(data) if ti.isfile() else None)
cases = {
    "dotdot": [("ok.txt", {}), ("../../escaped-dotdot", {})],
    "abs": [("%s/outside/escaped-abs" % w, {})],
    "symlink": [("link", dict(type=tarfile.SYMTYPE, linkname=w + "/outside")), ("link/escaped-symlink", {})],
    "hardlink": [("hl", dict(type=tarfile.LNKTYPE, linkname=w + "/outside/victim"))],
}
open(w + "/outside/victim", "w").write("victim")
for name, entries in cases.items():
    with tarfile.open("%s/%s.tar" % (w, name), "w", format=tarfile.GNU_FORMAT) as t:
        for n, kw in entries:
            add(t, n, b"" if kw.get("type") in (tarfile.SYMTYPE, tarfile.LNKTYPE) else b"evil", **kw)
PY
for h in dotdot abs symlink hardlink; do
	"$SEEKSCOPE" record -q -o "$WORK/h-$h.sst" --untar "$WORK/$h.tar" --into "$WORK/xfs/h" 2>"$WORK/h.err"; st=$?
	out=$(head -1 "$WORK/h.err")
	rm -rf "$WORK/xfs/h/1"
	[[ $st -ne 0 && $out == *entry* ]]; ok $? "hostile archive ($h) refused: $out"
	"$SEEKSCOPE" dump "$WORK/h-$h.sst" >/dev/null 2>&1; ok $? "hostile archive ($h): the trace is kept and readable"
done
is "$(ls "$WORK/outside")" "victim" "nothing was written outside DIR"
is "$(cat "$WORK/outside/victim")" "victim" "the hard link target outside was not touched"
[[ ! -e $WORK/escaped-dotdot && ! -e $WORK/xfs/escaped-dotdot ]]; ok $? "no ../ escape"

# a full filesystem: a clear ENOSPC message and a readable trace
make_loop 12M
mkfs.ext4 -q -F "$LOOP"
mount_fs "$LOOP" "$WORK/small"
"$SEEKSCOPE" record -q -o "$WORK/full.sst" --untar "$WORK/tree.tar.gz" --into "$WORK/small" 2>"$WORK/full.err"
is $? 1 "full filesystem: exit status 1"
out=$(grep 'seekscope record' "$WORK/full.err")
[[ $out == *"No space left on device"* && $out == *entry* ]]; ok $? "full filesystem: $out"
"$SEEKSCOPE" report "$WORK/full.sst" > "$WORK/full.txt" 2>&1; ok $? "full filesystem: the trace reads back"
grep -q 'FAILED: .*No space left' "$WORK/full.txt"; ok $? "and the report says the workload failed"
n=$("$SEEKSCOPE" dump "$WORK/full.sst" | grep -vc '^#'); [[ $n -gt 20 ]]; ok $? "with the events before the failure ($n)"

# bad usage of --untar
"$SEEKSCOPE" record --untar "$WORK/tree.tar.gz" 2>/dev/null; is $? 2 "--untar without --into is misuse"
bg_run "$SEEKSCOPE" record -q -o "$WORK/root.sst" --untar "$WORK/tree.tar.gz" --into / -d "$LOOP" >"$WORK/root.out" 2>&1
st=$? root_pid=$PID out=$(head -1 "$WORK/root.out")
[[ $st -ne 0 && $out == *"/"* ]]; ok $? "--into / is refused (exit $st): $out"
is "$(( $(instances_left "$WORK"/{end,none,file,rep,full}.sst "$WORK"/h-*.sst) + $(instances_of $root_pid) ))" 0 \
	"the recorders' tracing instances are gone"
done_testing
