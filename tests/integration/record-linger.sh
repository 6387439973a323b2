#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# After the workload ends, seekscope record keeps capturing until the requests in flight have
# completed (at most --linger SECONDS, default 2), and the report counts the requests issued
# but never completed (incomplete_ios).  The workload leaves one big O_DIRECT write to our own
# loop device in flight: it exits as soon as the device has requests in flight.  With --linger 0
# the write is 1 GiB, so that it is still in flight however long the recorder takes to stop
# (a 256 MiB write can complete in the tens of milliseconds the recorder needs).
# Root only; everything created is removed at exit.
source "$(dirname "$0")/../lib/tap.sh"
need ROOT
need TRACEFS
need LOOP
need PYTHON3
plan 10
make_workdir
make_loop 1G
name=${LOOP#/dev/}
# leave_in_flight SIZE: the workload; a write of SIZE goes on in the background, the workload
# ends while it is in flight
leave_in_flight() {
	echo "dd if=/dev/zero of=$LOOP bs=$1 count=1 oflag=direct status=none &
until [ \$(awk '{print \$1 + \$2}' /sys/block/$name/inflight) -gt 0 ]; do :; done"
}
# field TRACE KEY...: report --json's values of KEYs, space-separated
field() {
	"$SEEKSCOPE" report --json "$1" | python3 -c '
import json, sys
r = json.loads(sys.stdin.readline())
print(" ".join(str(r[k]) for k in sys.argv[1:]))' "${@:2}"
}
workload_end() {
	"$SEEKSCOPE" dump -n "$1" | awk '$2 == "phase" && $4 == "end" && $5 == "workload" {print $3}'
}

"$SEEKSCOPE" record --linger 0 -o "$WORK/cut.sst" -d "$LOOP" -- sh -c "$(leave_in_flight 1G)" 2>"$WORK/cut.err"
ok $? "--linger 0: recorded"
wait_dd() { for ((i = 0; i < 100; i++)); do pgrep -f "of=$LOOP bs=" >/dev/null || return 0; sleep 0.1; done; }
wait_dd
read -r inc wb <<<"$(field "$WORK/cut.sst" incomplete_ios write_bytes)"
[[ $inc -gt 0 && $wb -lt 1073741824 ]]
ok $? "--linger 0: the capture stops at the workload's end, $inc requests left incomplete ($wb of 1073741824 bytes completed)"
grep -q "warning: $inc requests were still in flight" "$WORK/cut.err"
ok $? "--linger 0: the recorder says so: $(grep warning "$WORK/cut.err")"
"$SEEKSCOPE" report "$WORK/cut.sst" | grep -q "incomplete   $inc issued I/Os never completed"
ok $? "report text: incomplete $inc"

"$SEEKSCOPE" record -q -o "$WORK/full.sst" -d "$LOOP" -- sh -c "$(leave_in_flight 256M)" 2>"$WORK/full.err"
ok $? "default linger: recorded"
wait_dd
read -r inc wb dur <<<"$(field "$WORK/full.sst" incomplete_ios write_bytes duration_s)"
end=$(workload_end "$WORK/full.sst")
is "$inc $wb" "0 268435456" "default linger: every request completed in the trace, all 256 MiB"
python3 -c "import sys; sys.exit(not float('$dur') > float('$end'))"
ok $? "default linger: the capture ($dur s) went on after the workload ended ($end s)"
! grep -q warning "$WORK/full.err"; ok $? "default linger: no warning"

# an idle device: nothing in flight, the capture ends at once, not after --linger
"$SEEKSCOPE" record -q --linger 30 -o "$WORK/idle.sst" -d "$LOOP" -- true 2>/dev/null
dur=$(field "$WORK/idle.sst" duration_s)
python3 -c "import sys; sys.exit(not float('$dur') < 1)"
ok $? "--linger 30 on an idle device: the capture ends once nothing is in flight ($dur s)"
"$SEEKSCOPE" record --linger soon -d "$LOOP" -- true 2>/dev/null
is $? 2 "--linger soon is misuse (exit 2)"
done_testing
