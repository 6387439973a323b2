#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# trace-cmd .dat import on a real capture: an untar + sync on loop-backed XFS recorded at the same
# time by `seekscope record` and by `trace-cmd record -B` (run as seekscope's workload), then
# the .dat is read by dump/report/convert/plot and must hold the same I/Os as seekscope's own
# trace.  Also report on a blktrace trace.  Root only; everything created is removed at exit.
source "$(dirname "$0")/../lib/tap.sh"
need ROOT
need TRACEFS
need LOOP
need PYTHON3
need CMD trace-cmd mkfs.xfs
GEN_BLKTRACE=${GEN_BLKTRACE:-$(dirname "$0")/../../build/tests/tools/gen-blktrace}
# the shrunk captures that libtracecmd cannot open (a pattern that matches nothing stays itself,
# and then fails its check)
cuts=("$(dirname "$0")"/../fuzz/corpus/tracecmd/cut.dat "$(dirname "$0")"/../fuzz/regress/tracecmd/instance-*.dat)
plan $((39 + ${#cuts[@]}))
make_workdir
T=$(tracefs_dir)

before=$(tracing_state)
INST=ss-import-$$
on_exit "trace-cmd reset -B '$INST' >/dev/null 2>&1; rmdir '$T/instances/$INST' 2>/dev/null"

make_tree_archive "$WORK/tree.tar" 20 40
make_loop 1G
mkfs.xfs -q -f -d agcount=4 "$LOOP"
mount_fs "$LOOP" "$WORK/mnt"
devno=$(lsblk -dno MAJ:MIN "$LOOP" | tr -d ' ')
majmin=${devno/:/,}
sync
# trace-cmd 3.1.6 here needs -k -d -B NAME -C mono; it runs the workload and records it while
# seekscope records the trace-cmd run
"$SEEKSCOPE" record -q -o "$WORK/ss.sst" -d "$LOOP" -- \
	trace-cmd record -q -k -d -B "$INST" -C mono -e block:block_rq_issue \
	-e block:block_rq_complete -o "$WORK/tc.dat" -- \
	sh -c "tar xf '$WORK/tree.tar' -C '$WORK/mnt' && sync" >"$WORK/rec.out" 2>&1
ok $? "seekscope record around trace-cmd record exits 0" || sed 's/^/# /' "$WORK/rec.out"
trace-cmd reset -B "$INST" >/dev/null 2>&1
rmdir "$T/instances/$INST" 2>/dev/null
[[ ! -e $T/instances/$INST ]]; ok $? "trace-cmd instance removed"

"$SEEKSCOPE" dump --absolute "$WORK/tc.dat" >"$WORK/tc.txt" 2>"$WORK/tc.err"
ok $? "dump reads the .dat" || sed 's/^/# /' "$WORK/tc.err"
grep -q "^# trace-cmd trace $WORK/tc.dat (imported)" "$WORK/tc.txt"; ok $? "recognised as trace-cmd"
grep -q "^# meta trace-cmd.buffers = top,$INST\$" "$WORK/tc.txt"; ok $? "instance buffer $INST read"
grep -q "^# device $devno ($majmin)" "$WORK/tc.txt"; ok $? "loop device $devno among the devices"
# the rings read page by page (trace-cmd 3.1.6 writes a version 7 file, its data compressed
# with zstd), and libtracecmd reading them finds the same; the same capture converted by
# trace-cmd to a version 7 file without compression (read page by page) and to version 6
# (read by libtracecmd) holds the same events
grep -q "^# meta trace-cmd.reader = pages\$" "$WORK/tc.txt"; ok $? "the .dat's rings read page by page"
# same_dump FILE: FILE's dump is tc.txt's, but for its name and the reader named
same_dump() {
	local strip='^# meta trace-cmd.reader|^# meta source.path|^# trace-cmd trace|^# device '
	cmp <(grep -vE "$strip" "$WORK/tc.txt") \
		<("$SEEKSCOPE" dump --absolute "$1" 2>&1 | grep -vE "$strip") >/dev/null
}
SEEKSCOPE_TRACECMD_PAGES=libtracecmd same_dump "$WORK/tc.dat" &&
	SEEKSCOPE_TRACECMD_PAGES=libtracecmd "$SEEKSCOPE" dump -n "$WORK/tc.dat" |
	grep -q "^# meta trace-cmd.reader = libtracecmd\$"
ok $? "read by libtracecmd (SEEKSCOPE_TRACECMD_PAGES=libtracecmd): the same dump"
trace-cmd convert --compression none -i "$WORK/tc.dat" -o "$WORK/tc-plain.dat" >/dev/null 2>&1 &&
	trace-cmd convert --file-version 6 -i "$WORK/tc.dat" -o "$WORK/tc-v6.dat" >/dev/null 2>&1
ok $? "trace-cmd convert: the capture uncompressed, and as version 6"
same_dump "$WORK/tc-plain.dat" &&
	"$SEEKSCOPE" dump -n "$WORK/tc-plain.dat" | grep -q "^# meta trace-cmd.reader = pages\$"
ok $? "... uncompressed: read page by page, the same dump"
same_dump "$WORK/tc-v6.dat" &&
	"$SEEKSCOPE" dump -n "$WORK/tc-v6.dat" | grep -q "^# meta trace-cmd.reader = libtracecmd\$"
ok $? "... version 6: read by libtracecmd, the same dump"
"$SEEKSCOPE" dump --absolute "$WORK/ss.sst" >"$WORK/ss.txt"
ok $? "dump reads seekscope's trace"

# Same I/Os: every issue on the loop device (sector, length, rwbs) in both, counted as multisets.
# seekscope records a little longer (it starts before trace-cmd and stops after), so its events
# are taken in the .dat's time window (same clock: mono), widened by 1 ms for ring-buffer skew.
cmp_out=$(python3 - "$WORK/tc.txt" "$WORK/ss.txt" "$majmin" <<'EOF'
import sys, collections
def issues(path, dev):
    out = []
    for line in open(path):
        f = line.split()
        if line.startswith('#') or len(f) < 7 or f[3] != 'issue' or f[4] != dev:
            continue
        out.append((int(f[0]), f[6], f[5]))
    return out
tc = issues(sys.argv[1], sys.argv[3])
ss = issues(sys.argv[2], sys.argv[3])
if not tc:
    print("no issues in the .dat"); sys.exit(1)
lo, hi = tc[0][0] - 1000000, tc[-1][0] + 1000000
ssw = [e for e in ss if lo <= e[0] <= hi]
a = collections.Counter(e[1:] for e in tc)
b = collections.Counter(e[1:] for e in ssw)
print(f"{len(tc)} issues in the .dat, {len(ssw)} in seekscope's trace in that window "
      f"({len(ss)} in all); only in .dat: {sum((a - b).values())}, only in seekscope: "
      f"{sum((b - a).values())}")
sys.exit(0 if a == b and len(tc) > 30 else 1)
EOF
)
ok $? "the .dat and seekscope's trace list the same issued I/Os: $cmp_out"

# the same processes: the .dat's issue events carry comm, seekscope's trace its task table; the
# issues of one sector name the same tasks in both, in order (seekscope adds a kworker's work;
# the two ring buffers stamp an event a few ns apart, so the time is no key)
names_out=$(python3 - "$WORK/tc.txt" "$WORK/ss.txt" "$majmin" <<'EOF'
import sys
def issues(path, dev):
    out = {}
    for line in open(path):
        f = line.split()
        if line.startswith('#') or len(f) < 8 or f[3] != 'issue' or f[4] != dev:
            continue
        out.setdefault((f[6], f[5]), []).append(line.rsplit('[', 1)[1].rstrip().rstrip(']'))
    return out
tc, ss = issues(sys.argv[1], sys.argv[3]), issues(sys.argv[2], sys.argv[3])
pairs = [(a, b) for k in tc if k in ss and len(tc[k]) == len(ss[k]) for a, b in zip(tc[k], ss[k])]
bad = [(a, b) for a, b in pairs if a == 'unknown' or not b.startswith(a)]
names = sorted(set(n for v in tc.values() for n in v))
print(f"{len(pairs)} issues compared, names {names}, disagreeing {bad[:3]}")
sys.exit(0 if len(pairs) > 30 and not bad else 1)
EOF
)
ok $? "the .dat names the processes as seekscope does: $names_out"

head -c $(($(stat -c %s "$WORK/tc.dat") / 2)) "$WORK/tc.dat" >"$WORK/cut.dat"
"$SEEKSCOPE" report "$WORK/cut.dat" >/dev/null 2>"$WORK/cut.err"; rc=$?
[[ $rc -eq 1 && $(wc -l <"$WORK/cut.err") -eq 1 ]] && grep -q 'cannot read this trace-cmd file' "$WORK/cut.err"
ok $? "a cut .dat: exit 1, one line: $(cat "$WORK/cut.err")"
# an uncompressed (version 6) .dat cut inside an instance buffer's data: libtracecmd 3.1 crashes
# opening such an instance; seekscope must refuse it instead (fuzz seeds: shrunk captures)
for f in "${cuts[@]}"; do
	"$SEEKSCOPE" report "$f" >/dev/null 2>"$WORK/cut.err"; rc=$?
	[[ $rc -eq 1 && $(wc -l <"$WORK/cut.err") -eq 1 ]] && grep -q 'cannot read this trace-cmd file: corrupt or truncated' "$WORK/cut.err"
	ok $? "${f##*/}: exit 1 (not $rc), one line: $(cat "$WORK/cut.err")"
done
# a damaged .dat that libtracecmd cannot mmap: it falls back to reading pages through one file
# position and then gives fewer events when the rings are read interleaved; refused, not crashed
f=$(dirname "$0")/../fuzz/regress/tracecmd/reread-differs.dat
"$SEEKSCOPE" report "$f" >/dev/null 2>"$WORK/cut.err"; rc=$?
[[ $rc -eq 1 ]] && grep -q 'damaged trace-cmd file: 84 events on the second read, 121 on the first' "$WORK/cut.err"
ok $? "${f##*/}: exit 1 (not $rc): $(tail -1 "$WORK/cut.err")"
# read ahead (the merge's batches decoded in the read-ahead thread) and directly: the same
# events, and for the damaged one the same error
cmp <(SEEKSCOPE_READAHEAD=always "$SEEKSCOPE" dump --absolute "$WORK/tc.dat" 2>&1) \
	<(SEEKSCOPE_READAHEAD=never "$SEEKSCOPE" dump --absolute "$WORK/tc.dat" 2>&1) >/dev/null
ok $? "the .dat read ahead and directly: the same dump"
for ra in always never; do
	SEEKSCOPE_READAHEAD=$ra "$SEEKSCOPE" dump "$f" >"$WORK/ra-$ra.out" 2>&1
	echo "exit $?" >>"$WORK/ra-$ra.out"
done
cmp "$WORK/ra-always.out" "$WORK/ra-never.out" >/dev/null && grep -q '^exit 1$' "$WORK/ra-never.out"
ok $? "${f##*/} read ahead and directly: the same events, error and exit status"

# convert: round trip, and zones from the loop device
"$SEEKSCOPE" convert "$WORK/tc.dat" -o "$WORK/conv.sst" 2>"$WORK/conv.err"
ok $? "convert .dat -> seekscope trace" || sed 's/^/# /' "$WORK/conv.err"
cmp <("$SEEKSCOPE" dump --absolute "$WORK/tc.dat" | grep -v '^#') <("$SEEKSCOPE" dump --absolute "$WORK/conv.sst" | grep -v '^#') >/dev/null
ok $? "the converted trace keeps every event and its process name"
diff <(grep -v '^#' "$WORK/tc.txt") <("$SEEKSCOPE" dump --absolute "$WORK/conv.sst" | grep -v '^#') >/dev/null
ok $? "converted trace holds exactly the .dat's events"
"$SEEKSCOPE" dump -n "$WORK/conv.sst" | grep -q '^# meta source = trace-cmd$'
ok $? "converted trace says where it came from"
"$SEEKSCOPE" convert "$WORK/tc.dat" -o "$WORK/zones.sst" --fs "$LOOP" --fs-dev "$devno" 2>"$WORK/conv.err"
ok $? "convert --fs $LOOP --fs-dev $devno" || sed 's/^/# /' "$WORK/conv.err"
is "$("$SEEKSCOPE" dump -n "$WORK/zones.sst" | grep -c "^# zone ag AG[0-9] ($majmin)")" 4 \
	"four AG zones added for the loop device"
"$SEEKSCOPE" dump -n "$WORK/zones.sst" | grep -q "^# zone log log ($majmin)"
ok $? "XFS log zone added"
"$SEEKSCOPE" convert "$WORK/tc.dat" -o "$WORK/auto.sst" --fs "$LOOP" 2>"$WORK/conv.err"
ok $? "convert --fs $LOOP finds the traced device itself" || sed 's/^/# /' "$WORK/conv.err"
"$SEEKSCOPE" dump -n "$WORK/auto.sst" | grep -q "^# meta convert.fs_target = $devno +0\$"
ok $? "... $devno at offset 0"

# report on the .dat and on a blktrace trace
"$SEEKSCOPE" report "$WORK/tc.dat" >"$WORK/rep.txt" 2>"$WORK/rep.err"
ok $? "report on the .dat exits 0" || sed 's/^/# /' "$WORK/rep.err"
grep -q 'imported from a trace-cmd trace' "$WORK/rep.txt"; ok $? "report names the source"
ios=$(awk '$1 == "I/Os" {print $2}' "$WORK/rep.txt")
[[ ${ios:-0} -gt 30 ]]; ok $? "report counts the completed I/Os ($ios)"
"$SEEKSCOPE" report --json "$WORK/zones.sst" | grep -q '"zones":\[{'; ok $? "zones reported"
if [[ -x $GEN_BLKTRACE ]]; then
	"$GEN_BLKTRACE" -o "$WORK/bt" -n 5000 -c 2
	"$SEEKSCOPE" report "$WORK/bt" >"$WORK/bt.txt" 2>"$WORK/bt.err"
	ok $? "report on blktrace files exits 0" || sed 's/^/# /' "$WORK/bt.err"
	# gen-blktrace makes every 64th I/O a flush, which report counts apart from data I/Os
	is "$(awk '$1 == "I/Os" {print $2}' "$WORK/bt.txt")" 4922 "all 4922 data I/Os completed"
	is "$(awk '$1 == "flushes" {print $2}' "$WORK/bt.txt" | tr -d ,)" 78 "and the 78 flushes"
	is "$(awk '$1 == "events" {print $2}' "$WORK/bt.txt")" 15000 "Q, D and C of each I/O read"
else
	skip_need 4 CMD "$GEN_BLKTRACE"   # (`make check` builds it)
fi
"$SEEKSCOPE" plot "$WORK/tc.dat" -o "$WORK/tc.png" 2>"$WORK/plot.err"
ok $? "plot draws the .dat" || sed 's/^/# /' "$WORK/plot.err"
[[ $(head -c 4 "$WORK/tc.png" | od -An -c | tr -d ' ') == 211PNG ]]; ok $? "a PNG"
is "$(instances_left "$WORK/ss.sst")" 0 "the recorder's tracing instance is gone"
is "$(tracing_state)" "$before" "global tracing state unchanged"
done_testing
