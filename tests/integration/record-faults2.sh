#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# seekscope record under faults not covered by record-faults.sh: the output file's filesystem
# filling up while a busy workload runs elsewhere, the traced device disappearing mid-capture
# (loop device detached; lazy unmount + detach), the workload killed by a signal from outside.
# In each case: a clear message, the documented exit status, a usable (possibly truncated)
# trace, no leftover tracing instance, and no hang (a watchdog kills a recording after 60 s).
# Root only; everything created is removed at exit.
source "$(dirname "$0")/../lib/tap.sh"
need ROOT
need TRACEFS
need LOOP
need CMD mkfs.ext4
plan 27
make_workdir
on_exit "xargs -r kill -9 < '$WORK/pids'"
touch "$WORK/pids"
# record_bg NAME ARGS...: start a recording in the background (REC = the recorder's pid, so
# that its tracing instance can be named) with a watchdog that SIGKILLs it after 60 s: a hang
# shows up as exit status 137.  wait_rec waits for it (ST = its status), then stops the watchdog.
record_bg() {
	local name=$1; shift
	"$SEEKSCOPE" record -q "$@" 2>"$WORK/$name.err" & REC=$!
	( sleep 60; kill -KILL $REC ) >/dev/null 2>&1 & WD=$!
	on_exit "pkill -P $WD; kill $WD"
}
wait_rec() {
	wait $REC; ST=$?
	pkill -P $WD 2>/dev/null; kill $WD 2>/dev/null; wait $WD 2>/dev/null
}

# the filesystem under test: busy with writes and syncs in a loop
make_loop 256M
DATA=$LOOP
mkfs.ext4 -q -F "$DATA"
mount_fs "$DATA" "$WORK/data"
busy="echo \$\$ >> '$WORK/pids'; i=0; while :; do i=\$((i+1)); head -c 262144 /dev/urandom > '$WORK/data/f\$((i % 64))'; sync '$WORK/data/f\$((i % 64))'; done"

# ---- the output's filesystem fills up: 4 MiB hold ~80,000 events, which fio's random reads
# on a loop device make in about a second
make_loop 256M
RAW=$LOOP
dd if=/dev/zero of="$RAW" bs=1M count=256 status=none   # backed by the page cache from now on
make_loop 4M
mkfs.ext4 -q -F -O ^has_journal "$LOOP"
mount_fs "$LOOP" "$WORK/tiny"
if command -v fio >/dev/null; then
	load=(fio --name=load --filename="$RAW" --rw=randread --bs=4k --iodepth=16 --ioengine=libaio
	      --direct=1 --time_based --runtime=40 --output=/dev/null)
else
	load=(sh -c "while :; do dd if=$RAW of=/dev/null bs=4k count=4096 iflag=direct status=none; done")
fi
record_bg full -o "$WORK/tiny/t.sst" -d "$RAW" -- "${load[@]}"
rec=$REC
# the drain thread meets ENOSPC; the recorder then stops the workload by itself
wait_rec; st=$ST
msg=$(grep -m1 'No space left' "$WORK/full.err")
[[ $st -eq 1 && -n $msg ]]; ok $? "output filesystem full: exit 1 (got $st) and a clear message: $msg"
[[ $st -ne 137 ]]; ok $? "output filesystem full: the recorder did not hang"
is "$(instances_of $rec)" 0 "output filesystem full: no tracing instance left"
"$SEEKSCOPE" dump "$WORK/tiny/t.sst" >"$WORK/full.txt" 2>"$WORK/full.derr"
ok $? "output filesystem full: the partial trace reads back"
grep -q truncated "$WORK/full.derr"; ok $? "output filesystem full: reported as truncated: $(head -1 "$WORK/full.derr")"
n=$(grep -vc '^#' "$WORK/full.txt"); [[ $n -gt 1000 ]]; ok $? "output filesystem full: the events up to the cut are there ($n)"
"$SEEKSCOPE" report "$WORK/tiny/t.sst" >"$WORK/full.rep" 2>&1; ok $? "output filesystem full: report reads it"
grep -q 'workload exit status unknown' "$WORK/full.rep"
ok $? "output filesystem full: the workload's exit status is unknown, not 0"
xargs -r kill < "$WORK/pids" 2>/dev/null; : > "$WORK/pids"; sleep 0.2

# ---- the workload killed by a signal from outside, mid-I/O
record_bg killed -o "$WORK/killed.sst" -d "$WORK/data" -- sh -c "$busy"; rec=$REC
sleep 1.5
wl=$(pgrep -P $rec | head -1); kill -KILL "$wl"
wait_rec; st=$ST
is $st 137 "workload SIGKILLed: its status (128+9) is returned"
is "$(instances_of $rec)" 0 "workload SIGKILLed: no tracing instance left"
"$SEEKSCOPE" dump "$WORK/killed.sst" >"$WORK/killed.txt" 2>"$WORK/killed.derr"
ok $? "workload SIGKILLed: the trace reads back"
[[ ! -s $WORK/killed.derr ]]; ok $? "workload SIGKILLed: and is complete"
grep -q '^# capture .*exit status 137' "$WORK/killed.txt"; ok $? "workload SIGKILLed: the trace stores exit status 137"
grep -q '^# phase .* end workload' "$WORK/killed.txt"; ok $? "workload SIGKILLed: the workload phase is closed"
: > "$WORK/pids"

# ---- the traced device disappears: a raw loop device detached while it is read
make_loop 64M
GONE=$LOOP
name=${GONE#/dev/}
reader="echo \$\$ >> '$WORK/pids'; while [ \"\$(cat /sys/block/$name/size)\" != 0 ]; do
	dd if=$GONE of=/dev/null bs=4k count=64 skip=\$((\$(od -An -N2 -tu2 /dev/urandom) % 16000)) iflag=direct status=none || break; done"
record_bg gone -o "$WORK/gone.sst" -d "$GONE" -- sh -c "$reader"; rec=$REC
sleep 1.5
losetup -d "$GONE"; ok $? "detached $GONE while it was being traced"
wait_rec; st=$ST
msg=$(grep -m1 'disappeared' "$WORK/gone.err")
[[ $st -eq 1 && -n $msg ]]; ok $? "device detached: exit 1 (got $st) and a clear message: $msg"
is "$(instances_of $rec)" 0 "device detached: no tracing instance left"
"$SEEKSCOPE" dump "$WORK/gone.sst" >"$WORK/gone.txt" 2>"$WORK/gone.derr"
ok $? "device detached: the trace reads back"
n=$(grep -vc '^#' "$WORK/gone.txt"); [[ $n -gt 100 ]]; ok $? "device detached: the events before are there ($n)"
grep -q '^# meta capture.warning = .*disappeared' "$WORK/gone.txt"; ok $? "device detached: the trace says so"
: > "$WORK/pids"

# ---- lazy unmount + detach of the traced filesystem while a workload writes in it
make_loop 128M
LAZY=$LOOP LAZY_IMG=$LOOP_IMG
mkfs.ext4 -q -F "$LAZY"
mkdir -p "$WORK/lazy" && mount "$LAZY" "$WORK/lazy"
on_exit "umount -l '$WORK/lazy'"
inside="echo \$\$ >> '$WORK/pids'; cd '$WORK/lazy' && i=0; while :; do i=\$((i+1)); head -c 131072 /dev/zero > f\$((i % 32)) && sync f\$((i % 32)) || exit 3; done"
record_bg lazy -o "$WORK/lazy.sst" -d "$LAZY" -- sh -c "$inside"; rec=$REC
sleep 1.5
umount -l "$WORK/lazy" && losetup -d "$LAZY"; ok $? "lazily unmounted and detached $LAZY while it was being written"
sleep 1
kill -INT $rec
wait_rec; st=$ST
[[ $st -ne 137 ]]; ok $? "lazy unmount + detach: the recorder finished by itself (exit $st)"
[[ $st -eq 1 || $st -eq 130 || $st -eq 0 ]]; ok $? "lazy unmount + detach: documented exit status ($st): $(grep -m1 'seekscope' "$WORK/lazy.err")"
is "$(instances_of $rec)" 0 "lazy unmount + detach: no tracing instance left"
"$SEEKSCOPE" dump "$WORK/lazy.sst" >"$WORK/lazy.txt" 2>/dev/null; ok $? "lazy unmount + detach: the trace reads back"
n=$(grep -vc '^#' "$WORK/lazy.txt"); [[ $n -gt 100 ]]; ok $? "lazy unmount + detach: the events are there ($n)"
# (by backing file: the device's number may be someone else's by now)
for ((i = 0; i < 50; i++)); do [[ -z $(loops_of "$LAZY_IMG") ]] && break; sleep 0.1; done
is "$(loops_of "$LAZY_IMG")" "" "lazy unmount + detach: the loop device is gone once the workload has let go"
done_testing
