#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Crash sweep: a trace with phases and a task table, written in many EVENTS records, cut at
# every record boundary and at 200 random offsets (as a killed recorder or a crashed machine
# leaves it), reads back as its complete prefix.  The expected events are counted here, in
# python3, from the record layout of include/seekscope/format.h (64-byte file header; records
# of a 16-byte header type/length/crc/reserved, the payload, padding to 8; 48-byte events), not
# by seekscope.  For every cut: report --json and dump never crash; a cut inside the file
# header is an error (exit 1, one line); any other cut exits 0, says "truncated" (report's
# JSON: truncated true and a warning; dump: a warning on stderr) and shows exactly the events
# of the complete records before the cut (never more); the whole file is not truncated.
# Unprivileged.  Prints TAP.
source "$(dirname "$0")/../lib/tap.sh"
need PYTHON3
plan 9
make_workdir
W=$WORK
GEN=${GEN_TRACE:-$(dirname "$0")/../../build/tests/tools/gen-trace}

"$GEN" -o "$W/t.sst" -n 2000 -b 300 -P -T >/dev/null
ok $? "trace generated (2000 I/Os, 300 events per record, phases, tasks)"

python3 - "$SEEKSCOPE" "$W" <<'PY' >"$W/result"
import json, random, struct, subprocess, sys

seekscope, w = sys.argv[1], sys.argv[2]
data = open(w + "/t.sst", "rb").read()
HDR, RHDR, EV = 64, 16, 48
TASKS, PHASE, EVENTS = 9, 5, 4

# record boundaries and the events complete before each
ends, kinds, off, nev = [], set(), HDR, 0
complete = [(HDR, 0)]                      # (offset where a record ends, events before it)
while off + RHDR <= len(data):
    typ, length = struct.unpack_from("<II", data, off)
    if typ == EVENTS:
        nev += length // EV
    kinds.add(typ)
    off += RHDR + length + (-length % 8)
    complete.append((off, nev))
total = nev
print("records %d kinds %s events %d size %d" % (len(complete) - 1, sorted(kinds), total, len(data)))
ok_layout = off == len(data) and {TASKS, PHASE, EVENTS} <= kinds and len(complete) > 20

def expected(cut):
    """Events in the records that end at or before CUT."""
    best = 0
    for end, n in complete:
        if end <= cut:
            best = n
    return best

rng = random.Random(17)
cuts = sorted(set([e for e, _ in complete] + [0, 1, 40, 63] +
                  [e - 1 for e, _ in complete if e > HDR] +
                  [rng.randrange(0, len(data)) for _ in range(200)]))
fail = {k: [] for k in ("crash", "header", "report", "dump", "whole", "more")}
for cut in cuts:
    open(w + "/cut.sst", "wb").write(data[:cut])
    rep = subprocess.run([seekscope, "report", "--json", w + "/cut.sst"], capture_output=True, text=True)
    dmp = subprocess.run([seekscope, "dump", w + "/cut.sst"], capture_output=True, text=True)
    for name, r in (("report", rep), ("dump", dmp)):
        if r.returncode < 0 or r.returncode > 2 or "Sanitizer" in r.stderr or "runtime error" in r.stderr:
            fail["crash"].append("%s@%d rc %d" % (name, cut, r.returncode))
    if cut < HDR:
        for name, r in (("report", rep), ("dump", dmp)):
            if r.returncode != 1 or len(r.stderr.splitlines()) != 1 or r.stdout:
                fail["header"].append("%s@%d rc %d" % (name, cut, r.returncode))
        continue
    want, whole = expected(cut), cut == len(data)
    try:
        j = json.loads(rep.stdout)
        j = j[0] if isinstance(j, list) else j
        got = j["events"]
        good = (rep.returncode == 0 and got == want and j["truncated"] == (not whole) and
                (whole or "truncated" in (j["warning"] or "")))
    except (ValueError, KeyError, IndexError, TypeError) as e:
        got, good = None, False
    if got is not None and got > want:
        fail["more"].append("report@%d %d > %d" % (cut, got, want))
    if not good:
        fail["whole" if whole else "report"].append("report@%d rc %d events %s want %d" % (cut, rep.returncode, got, want))
    lines = dmp.stdout.splitlines()
    head = [l for l in lines if l.endswith(" lost") and " events, " in l]
    nlines = sum(1 for l in lines if l and not l.startswith("#"))
    dgot = int(head[0].split()[1]) if head else None
    if dgot is not None and (dgot > want or nlines > want):
        fail["more"].append("dump@%d %s/%d > %d" % (cut, dgot, nlines, want))
    good = (dmp.returncode == 0 and dgot == want and nlines == want and
            (whole or "warning" in dmp.stderr and "truncated" in dmp.stderr))
    if not good:
        fail["whole" if whole else "dump"].append("dump@%d rc %d events %s lines %d want %d" % (cut, dmp.returncode, dgot, nlines, want))
print("cuts %d" % len(cuts))
print("layout %s" % ("ok" if ok_layout else "bad"))
for k, v in fail.items():
    print("fail-%s %d %s" % (k, len(v), "; ".join(v[:5])))
PY
ok $? "the sweep ran"
diag "$(head -2 "$W/result" | tr '\n' ' ')"
grep -qx "layout ok" "$W/result"
ok $? "the records parse to the end and include tasks, phases and >20 boundaries"
for k in crash header report dump whole more; do
	line=$(grep "^fail-$k " "$W/result")
	case $k in
	crash)  what="no crash of report or dump at any cut" ;;
	header) what="a cut inside the file header: exit 1, one line, no output" ;;
	report) what="report --json: exit 0, truncated with a warning, the complete prefix's events" ;;
	dump)   what="dump: exit 0, a truncation warning, the prefix's events in its count and lines" ;;
	whole)  what="the whole file: not truncated, every event" ;;
	more)   what="never more events than the complete records before the cut hold" ;;
	esac
	[[ $line == "fail-$k 0 " ]]
	ok $? "$what$([[ $line == "fail-$k 0 " ]] || echo " (failed: ${line#fail-$k })")"
done
done_testing
