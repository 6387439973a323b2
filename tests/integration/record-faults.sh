#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# seekscope record under signals and in a bad environment: SIGINT, SIGTERM, SIGKILL (partial
# trace readable, stale instance removed by the next run), failing workloads, not root, not a
# block device, tracefs not mounted.  Root only; everything created is removed at exit.
# Every instance check is about this test's own recorders: by pid or by the instance name
# stored in their traces.
source "$(dirname "$0")/../lib/tap.sh"
need ROOT
need TRACEFS
need LOOP
need CMD mkfs.ext4 setpriv unshare
plan 38
make_workdir
make_loop 512M
on_exit "xargs -r kill < '$WORK/busy.pids'"
mkfs.ext4 -q -F "$LOOP"
mount_fs "$LOOP" "$WORK/mnt"
before=$(tracing_state)
# keep the disk busy: write and sync in a loop
busy="echo \$\$ >> '$WORK/busy.pids'; i=0; while :; do i=\$((i+1)); head -c 65536 /dev/zero > '$WORK/mnt/f\$((i % 50))'; sync; done"

# ---- exit status of the workload is passed on
"$SEEKSCOPE" record -q -o "$WORK/st.sst" -d "$LOOP" -- sh -c 'exit 3' 2>/dev/null
is $? 3 "exit status of the command is passed on"
"$SEEKSCOPE" record -q -o "$WORK/sig.sst" -d "$LOOP" -- sh -c 'kill -KILL $$' 2>/dev/null
is $? 137 "a command killed by a signal gives 128+signal"
"$SEEKSCOPE" record -q -o "$WORK/none.sst" -d "$LOOP" -- /nonexistent/cmd 2>"$WORK/err"
is $? 127 "a command that cannot run gives 127"
grep -q "cannot run '/nonexistent/cmd'" "$WORK/err"; ok $? "and says so: $(head -1 "$WORK/err")"
[[ ! -e $WORK/none.sst ]]; ok $? "and is refused before a trace is made (record-refusals.sh)"

# ---- SIGINT without a command: records until interrupted, file complete
"$SEEKSCOPE" record -q -o "$WORK/int.sst" -d "$WORK/mnt" 2>"$WORK/int.err" &
rec=$!
sleep 0.5; sh -c "$busy" & busy_pid=$!; sleep 1
kill -INT $rec; wait $rec; st=$?
kill $busy_pid; wait $busy_pid 2>/dev/null
is $st 130 "SIGINT ends a command-less recording with status 130 (like every mode)"
"$SEEKSCOPE" dump "$WORK/int.sst" > "$WORK/int.txt" 2>"$WORK/int.derr"
ok $? "interrupted trace reads back"
[[ ! -s $WORK/int.derr ]]; ok $? "and is complete (no truncation warning)"
n=$(grep -vc '^#' "$WORK/int.txt"); [[ $n -gt 10 ]]; ok $? "events recorded before SIGINT ($n)"
is "$(instances_of $rec)" 0 "no instance left after SIGINT"

# ---- SIGTERM while a command runs: the command is stopped too, file complete
"$SEEKSCOPE" record -q -o "$WORK/term.sst" -d "$WORK/mnt" -- sh -c "$busy" 2>/dev/null &
rec=$!
sleep 1.5; kill -TERM $rec; wait $rec; st=$?
is $st 143 "SIGTERM: the workload is terminated and its status (143) returned"
"$SEEKSCOPE" dump "$WORK/term.sst" > "$WORK/term.txt" 2>"$WORK/term.derr"
ok $? "trace after SIGTERM reads back"
[[ ! -s $WORK/term.derr ]]; ok $? "and is complete"
is "$(instances_of $rec)" 0 "no instance left after SIGTERM"

# ---- one exit-status rule: 128+signal whatever the mode and whatever the workload did
"$SEEKSCOPE" mkarchive -o "$WORK/tree.tar" --files 600 --dirs 40 >/dev/null
for sig in INT TERM; do
	mkdir -p "$WORK/mnt/x$sig"
	"$SEEKSCOPE" record -q -o "$WORK/untar-$sig.sst" --untar "$WORK/tree.tar" --into "$WORK/mnt/x$sig" \
		--fsync=file --repeat 60 2>/dev/null &
	rec=$!
	sleep 1; kill -$sig $rec; wait $rec; st=$?
	is $st $((128 + $(kill -l $sig))) "--untar stopped by SIG$sig exits $((128 + $(kill -l $sig)))"
done
"$SEEKSCOPE" dump -n "$WORK/untar-INT.sst" 2>/dev/null | grep -q '^# capture .*exit status 130$'
ok $? "and the trace stores the extraction's status 130"
"$SEEKSCOPE" record -q -o "$WORK/trap.sst" -d "$LOOP" -- sh -c 'trap "" INT; sleep 1.5' 2>/dev/null &
rec=$!
sleep 0.5; kill -INT $rec; wait $rec; st=$?
[[ $st -eq 130 ]] && "$SEEKSCOPE" dump -n "$WORK/trap.sst" | grep -q '^# capture .*exit status 0$'
ok $? "SIGINT to a recording whose command ignores it: exit 130 (got $st), the trace keeps the command's 0"

# ---- SIGKILL: partial trace readable, stale instance removed by the next run
"$SEEKSCOPE" record -q -o "$WORK/kill.sst" -d "$WORK/mnt" -- sh -c "$busy" 2>/dev/null &
rec=$!
sleep 1.5; kill -KILL $rec; wait $rec 2>/dev/null
xargs -r kill < "$WORK/busy.pids" 2>/dev/null; sleep 0.2
is "$(instances_of $rec)" 1 "SIGKILL leaves the instance behind (nothing can prevent that)"
"$SEEKSCOPE" dump "$WORK/kill.sst" > "$WORK/kill.txt" 2>"$WORK/kill.derr"
ok $? "the killed recorder's trace reads back"
grep -q 'truncated' "$WORK/kill.derr"; ok $? "with a truncation warning: $(head -1 "$WORK/kill.derr")"
n=$(grep -vc '^#' "$WORK/kill.txt"); [[ $n -gt 10 ]]; ok $? "events recorded before SIGKILL are there ($n)"
grep -q '^# capture .*exit status unknown$' "$WORK/kill.txt"; ok $? "dump: the killed recording's exit status is unknown, not 0"
"$SEEKSCOPE" report "$WORK/kill.sst" 2>/dev/null | grep -q 'workload exit status unknown'
ok $? "report: workload exit status unknown"
"$SEEKSCOPE" report --json "$WORK/kill.sst" 2>/dev/null | grep -q '"exit_status": *null'
ok $? "report --json: exit_status null"
"$SEEKSCOPE" record -q -o "$WORK/after.sst" -d "$WORK/mnt" -- true 2>/dev/null
ok $? "the next recording works"
is "$(instances_of $rec)" 0 "and removed the stale instance"

# ---- bad environment: one clear line, non-zero exit, no file, no instance
# refused CMD...: run a recording that is to be refused; sets ST and OUT (its output), and
# keeps its pid in REFUSED
REFUSED=()
refused() { bg_run "$@" >"$WORK/refused.out" 2>&1; ST=$?; REFUSED+=("$PID"); OUT=$(cat "$WORK/refused.out"); }
refused "$SEEKSCOPE" record -o "$WORK/x.sst" -d /nonexistent -- true
[[ $ST -ne 0 && $(echo "$OUT" | wc -l) -eq 1 ]]; ok $? "missing device: $OUT"
refused "$SEEKSCOPE" record -o "$WORK/x.sst" -d /dev/null -- true
[[ $ST -ne 0 && $OUT == *"not a block device"* ]]; ok $? "character device: $OUT"
refused "$SEEKSCOPE" record -o "$WORK/x.sst" -d /dev/shm -- true
[[ $ST -ne 0 && $OUT == *"not a block device"* ]]; ok $? "tmpfs directory: $OUT"
[[ ! -e $WORK/x.sst ]]; ok $? "no trace file left by a refused recording"
chmod 755 "$WORK"
# (under `make sanitize`: full stacks, so that tests/lsan.supp can name libtracefs's own
# leaks on this error path; other builds ignore ASAN_OPTIONS)
refused env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0" \
	setpriv --reuid=65534 --regid=65534 --clear-groups "$SEEKSCOPE" record -o "$WORK/u.sst" -d "$LOOP" -- true
[[ $ST -eq 1 && $OUT == *root* && $(echo "$OUT" | wc -l) -eq 1 ]]; ok $? "not root: $OUT"
refused "$SEEKSCOPE" record -o /nonexistent-dir/x.sst -d "$LOOP" -- true
[[ $ST -eq 1 && $OUT == *"cannot create"* ]]; ok $? "unwritable output: $OUT"
is "$(instances_of "${REFUSED[@]}")" 0 "no instance left after the refused recordings"
"$SEEKSCOPE" record -d "$LOOP" -b nonsense -- true 2>/dev/null; is $? 2 "bad option value is misuse (exit 2)"
# tracefs not mounted (in a private mount namespace): the recorder mounts it itself
unshare -m sh -c "umount -l /sys/kernel/tracing 2>/dev/null; umount -l /sys/kernel/debug/tracing 2>/dev/null;
	! test -e /sys/kernel/tracing/instances && '$SEEKSCOPE' record -q -o '$WORK/m.sst' -d '$LOOP' -- true" 2>"$WORK/m.err"
ok $? "tracefs not mounted: record mounts it and works $(head -1 "$WORK/m.err")"
is "$(instances_left "$WORK"/{st,sig,after,m}.sst)" 0 "no instance left by the recordings run in the foreground"
is "$(tracing_state)" "$before" "global tracing state unchanged"
done_testing
