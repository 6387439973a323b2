#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Process attribution on a real capture: tar extraction + sync + freeze on loop-backed XFS under
# `seekscope record` (with and without -e queue,insert).  The report must name tar, the
# writeback worker, xfsaild and the XFS log worker, its rows must add up to the trace's
# figures, and dump/report/plot --pid/--comm must agree with each other.  Old traces (no task
# table) report "unknown".  Root only; everything created is removed at exit.
source "$(dirname "$0")/../lib/tap.sh"
need ROOT
need TRACEFS
need LOOP
need PYTHON3
need CMD mkfs.xfs fsfreeze
plan 21
make_workdir

"$SEEKSCOPE" mkarchive -o "$WORK/tree.tar" --files 3000 --dirs 200 --seed 5 >/dev/null
make_loop 1G
mkfs.xfs -q -f -d agcount=4 "$LOOP"
mount_fs "$LOOP" "$WORK/mnt"
sync
# the freeze makes xfsaild write the metadata back (sync leaves it in the log)
work="tar xf '$WORK/tree.tar' -C '$WORK/mnt' && sync && fsfreeze -f '$WORK/mnt' && fsfreeze -u '$WORK/mnt'"
"$SEEKSCOPE" record -q -e queue,insert -o "$WORK/sub.sst" -d "$LOOP" -- sh -c "$work" 2>"$WORK/rec.err"
ok $? "record -e queue,insert: tar + sync + freeze" || sed 's/^/# /' "$WORK/rec.err"
rm -rf "$WORK/mnt"/*; sync; echo 3 >/proc/sys/vm/drop_caches
"$SEEKSCOPE" record -q -o "$WORK/iss.sst" -d "$LOOP" -- sh -c "$work" 2>"$WORK/rec.err"
ok $? "record without queue/insert events: the same workload" || sed 's/^/# /' "$WORK/rec.err"

"$SEEKSCOPE" report --json "$WORK/sub.sst" >"$WORK/sub.json"
"$SEEKSCOPE" report --json "$WORK/iss.sst" >"$WORK/iss.json"
check_procs() {   # check_procs JSON BY: the report's processes
	python3 - "$1" "$2" <<'EOF'
import json, sys
r = json.loads(open(sys.argv[1]).readline())
p = r["processes"]
names = [x["comm"] or "" for x in p]
print("# " + ", ".join("%s (%s): %d I/Os, %d seeks" % (x["comm"], x["pid"], x["ios"], x["seeks"]) for x in p))
assert r["processes_by"] == sys.argv[2], r["processes_by"]
assert sum(x["ios"] for x in p) == r["ios"], "rows add up to the I/Os"
assert sum(x["bytes"] for x in p) == r["read_bytes"] + r["write_bytes"] + r.get("discard_bytes", 0), "and bytes"
assert sum(x["seeks"] for x in p) == r["seeks"], "and seeks"
def has(pred): return any(pred(n) for n in names)
assert has(lambda n: n.startswith("kworker/") and n.endswith("-wb_workfn")), "the writeback worker"
assert has(lambda n: n.startswith("xfsaild/")) or has(lambda n: n.endswith("xlog_cil_push_work")), "xfsaild or the log worker"
if sys.argv[2] == "submitter":
    assert has(lambda n: n == "tar"), "tar"
    assert has(lambda n: n.startswith("xfsaild/")), "xfsaild"
    assert has(lambda n: n.endswith("-xlog_cil_push_work")), "the XFS log worker"
EOF
}
out=$(check_procs "$WORK/sub.json" submitter 2>&1); ok $? "by submitter: tar, the writeback worker, xfsaild, the log worker; rows add up"
echo "$out" | grep '^#'
out=$(check_procs "$WORK/iss.json" issuer 2>&1); ok $? "by issuer (no queue/insert events): the workers named by their work"
echo "$out" | grep '^#'
"$SEEKSCOPE" report "$WORK/sub.sst" | grep -q '^  processes (by submitter'
ok $? "the text report has the process table"

# dump --json: one object per event, every key, issue events named
python3 - "$WORK/sub.sst" "$SEEKSCOPE" <<'EOF'
import json, subprocess, sys
out = subprocess.run([sys.argv[2], "dump", "--json", sys.argv[1]], capture_output=True, text=True, check=True).stdout
keys = {"ts_s", "cpu", "pid", "comm", "type", "dev", "rwbs", "sector", "nr_sector", "zone"}
n = 0
for line in out.splitlines():
    e = json.loads(line); n += 1
    assert keys <= set(e), set(e)
    assert e["type"] not in ("issue", "insert", "queue") or e["comm"], e
assert n > 1000, n
EOF
ok $? "dump --json: one object per event with ts_s, cpu, pid, comm, type, dev, rwbs, sector, nr_sector, zone"
"$SEEKSCOPE" dump "$WORK/sub.sst" | grep -q '^# task .* tar$'
ok $? "dump lists the task table"

# the filters agree: tar's requests by --comm and by --pid, in dump, report and the table
tarpid=$(python3 -c 'import json,sys; print([x["pid"] for x in json.loads(open(sys.argv[1]).readline())["processes"] if x["comm"] == "tar"][0])' "$WORK/sub.json")
row=$(python3 -c 'import json,sys; x=[x for x in json.loads(open(sys.argv[1]).readline())["processes"] if x["comm"] == "tar"][0]; print(x["ios"], x["seeks"], x["issues"])' "$WORK/sub.json")
rep=$("$SEEKSCOPE" report --json --comm tar "$WORK/sub.sst" | python3 -c 'import json,sys; r=json.loads(sys.stdin.readline()); print(r["ios"], r["seeks"], r["issues"] if "issues" in r else sum(p["issues"] for p in r["processes"]))')
is "$rep" "$row" "report --comm tar: the I/Os, seeks and issues of tar's row ($row)"
rep2=$("$SEEKSCOPE" report --json --pid "$tarpid" "$WORK/sub.sst" | python3 -c 'import json,sys; r=json.loads(sys.stdin.readline()); print(r["ios"], r["seeks"], sum(p["issues"] for p in r["processes"]))')
is "$rep2" "$row" "report --pid $tarpid: the same"
iss=$("$SEEKSCOPE" dump --comm tar "$WORK/sub.sst" | awk '!/^#/ && $4 == "issue" && $7 != "-"' | wc -l)
is "$iss" "$(cut -d' ' -f3 <<<"$row")" "dump --comm tar: as many data issues as tar's row"
cmp <("$SEEKSCOPE" dump --comm tar "$WORK/sub.sst" | grep -v '^#') <("$SEEKSCOPE" dump --pid "$tarpid" "$WORK/sub.sst" | grep -v '^#') >/dev/null
ok $? "dump --comm tar and --pid $tarpid print the same events"
n=$("$SEEKSCOPE" dump --comm 'kworker*' --comm 'xfsaild*' "$WORK/sub.sst" | grep -v '^#' | grep -c '\[tar\]$')
is "$n" 0 "dump --comm 'kworker*' --comm 'xfsaild*': no event of tar's own"
"$SEEKSCOPE" report --comm nosuchprocess "$WORK/sub.sst" | grep -q 'I/Os *0 completed'
ok $? "report --comm of a process not in the trace: 0 I/Os"
"$SEEKSCOPE" report --pid x "$WORK/sub.sst" >/dev/null 2>"$WORK/err"; rc=$?
[[ $rc -eq 2 && $(wc -l <"$WORK/err") -eq 1 ]]; ok $? "--pid x: one line, exit 2: $(cat "$WORK/err")"

# plots coloured by process, side by side, and filtered
"$SEEKSCOPE" plot "$WORK/sub.sst" "$WORK/iss.sst" -l "queue,insert" -l "issue only" --color-by process -o "$WORK/who.png" 2>"$WORK/err"
ok $? "plot --color-by process, two traces" || sed 's/^/# /' "$WORK/err"
[[ -n ${KEEP_PLOT:-} ]] && cp "$WORK/who.png" "$KEEP_PLOT"
"$SEEKSCOPE" plot "$WORK/sub.sst" --comm tar --comm 'kworker*wb_workfn' -o "$WORK/tar.svg" 2>"$WORK/err"
ok $? "plot --comm tar --comm 'kworker*wb_workfn' (SVG)" || sed 's/^/# /' "$WORK/err"
"$SEEKSCOPE" plot "$WORK/sub.sst" --color-by owner -o "$WORK/x.png" 2>"$WORK/err"; rc=$?
[[ $rc -eq 2 ]] && grep -q 'color-by' "$WORK/err"; ok $? "--color-by owner refused: $(cat "$WORK/err")"

# with --disk, the model serves every request and each process's part adds up to its total
python3 - "$WORK/sub.sst" "$SEEKSCOPE" "$WORK/sub.json" <<'EOF'
import json, subprocess, sys
def rep(*args):
    out = subprocess.run([sys.argv[2], "report", "--json", "--disk", "hdd7200", *args, sys.argv[1]],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)["model"]
whole = rep()
assert whole["selected"] is None, whole["selected"]
pids = sorted({p["pid"] for p in json.loads(open(sys.argv[3]).readline())["processes"] if p["pid"] is not None})
parts = [rep("--pid", str(p)) for p in pids]
assert all(m["total_s"] == whole["total_s"] and m["requests"] == whole["requests"] for m in parts)
got = sum(m["selected"]["total_s"] for m in parts)
print("# %d processes: %.6f s of %.6f s modelled" % (len(pids), got, whole["total_s"]))
assert abs(got - whole["total_s"]) < 1e-9 * max(1, whole["total_s"]), (got, whole["total_s"])
EOF
ok $? "report --disk --pid: the processes' modelled parts add up to the whole"

# the .html viewer draws the filtered requests, and colours by process
"$SEEKSCOPE" plot -q "$WORK/sub.sst" --comm tar -o "$WORK/tar.html" 2>"$WORK/err" &&
	grep -q '(only comm tar)' "$WORK/tar.html"
ok $? "plot --comm tar -o x.html: the page says whose requests it holds" || sed 's/^/# /' "$WORK/err"
"$SEEKSCOPE" plot -q "$WORK/sub.sst" --color-by process -o "$WORK/who.html" 2>"$WORK/err" &&
	grep -q '"color_by":"process"' "$WORK/who.html" && grep -q '"name":"tar"' "$WORK/who.html"
ok $? "--color-by process -o x.html: a page whose legend names the processes ($(cat "$WORK/err"))"

# an old trace without task table: every row "unknown" (JSON null), by issuer
"$SEEKSCOPE" report --json "$(dirname "$0")/../../samples/traces/xfs-agcount4.sst" | python3 -c '
import json, sys
r = json.loads(sys.stdin.readline())
assert r["processes"] and all(p["comm"] is None and p["pid"] is not None for p in r["processes"]), r["processes"]
assert sum(p["ios"] for p in r["processes"]) == r["ios"]'
ok $? "an old trace (no task table): its rows are unknown pids that add up"
done_testing
