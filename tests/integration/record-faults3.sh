#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# seekscope record stopped with SIGSTOP for 4 s under fio's random reads, with the smallest
# ring buffer (-b 4 KiB per CPU), then continued with SIGCONT: the ring buffer overflows while
# nobody drains it.  What the user sees must say so, and agree everywhere: the recorder exits
# with the workload's status (0), prints how many events were lost, and that number is the one
# the trace stores (dump's header, report's lost_events); the trace reads back complete (an END
# record, not truncated), holds events from after the stop, and no tracing instance is left.
# Root only; everything created is removed at exit.
source "$(dirname "$0")/../lib/tap.sh"
need ROOT
need TRACEFS
need LOOP
need CMD fio
plan 9
make_workdir
make_loop 256M
dd if=/dev/zero of="$LOOP" bs=1M count=256 status=none   # backed by the page cache from now on

"$SEEKSCOPE" record -b 4 -o "$WORK/t.sst" -d "$LOOP" -- fio --name=load --filename="$LOOP" \
	--rw=randread --bs=4k --iodepth=16 --ioengine=libaio --direct=1 --time_based --runtime=10 \
	--output=/dev/null 2>"$WORK/err" & REC=$!
( sleep 90; kill -KILL $REC ) >/dev/null 2>&1 & WD=$!
on_exit "pkill -P $WD; kill $WD; kill -KILL $REC"
sleep 2
kill -STOP $REC
sleep 4
kill -CONT $REC
wait $REC; st=$?
pkill -P $WD 2>/dev/null; kill $WD 2>/dev/null; wait $WD 2>/dev/null
is "$st" 0 "stopped and continued: the workload's exit status"
said=$(sed -n 's/.*(\([0-9]*\) lost).*/\1/p' "$WORK/err")
[[ -n $said && $said -gt 0 ]]; ok $? "the recorder reports lost events: $(grep -m1 lost "$WORK/err")"
grep -q "warning: $said events were lost; enlarge the ring buffer with -b (now 4 KiB per CPU)" "$WORK/err"
ok $? "... and says what to do about it"
is "$(instances_left "$WORK/t.sst")" 0 "no tracing instance left"
"$SEEKSCOPE" dump "$WORK/t.sst" >"$WORK/dump" 2>"$WORK/derr"
ok $? "the trace reads back"
[[ ! -s $WORK/derr ]]; ok $? "... complete, without a warning"
is "$(sed -n 's/^# [0-9]* events, \([0-9]*\) lost$/\1/p' "$WORK/dump")" "$said" "dump's lost events are the recorder's"
is "$("$SEEKSCOPE" report --json "$WORK/t.sst" | grep -o '"lost_events":[0-9]*' | head -1 | cut -d: -f2)" \
	"$said" "report's lost_events are the recorder's"
# events after the 4 s stop (recorded from 2 s on): the capture went on after SIGCONT
last=$(grep -v '^#' "$WORK/dump" | tail -1 | awk '{print int($1)}')
[[ ${last:-0} -ge 7 ]]; ok $? "events from after SIGCONT (the last at ${last:-none} s)"
done_testing
