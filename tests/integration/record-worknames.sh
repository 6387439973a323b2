#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# How the work behind a kworker's requests is recorded.  By default a stacktrace trigger on the
# traced device's issue events, for kworkers only (the work is the function process_one_work
# called); with SEEKSCOPE_WORK_NAMES=event the workqueue event (every work item); with
# --no-work-names neither.  The same writeback (files written on loop-backed ext4, then sync,
# which the flusher's kworker writes) is recorded each way: the writeback worker must be named
# by its work where it is recorded and not where it is not, the trace must say how (its
# work-names meta record), the instance must carry the trigger (with the device filter) or the
# event while the recorder runs and not otherwise, and nothing may be left behind.  Root only.
source "$(dirname "$0")/../lib/tap.sh"
need ROOT
need TRACEFS
need LOOP
need CMD mkfs.ext4
plan 22
make_workdir
make_loop 256M
mkfs.ext4 -q -F "$LOOP"
mount_fs "$LOOP" "$WORK/mnt"
sync
T=$(tracefs_dir)
MAJMIN=$(lsblk -ndo MAJ:MIN "$LOOP" | tr -d ' ')
DEV=$(( ${MAJMIN%:*} << 20 | ${MAJMIN#*:} ))

# the workload (run by the recorder, its parent): what the recorder's instance has on the
# issue and completion events and the workqueue event, then 8 MiB in 64 files, synced
cat >"$WORK/work.sh" <<EOF
for i in "$T/instances/seekscope-\$PPID-"*; do
	cat "\$i/events/block/block_rq_issue/trigger" >"$WORK/trigger.\$1"
	cat "\$i/events/block/block_rq_complete/trigger" >"$WORK/ctrigger.\$1"
	cat "\$i/events/workqueue/workqueue_execute_start/enable" >"$WORK/wq.\$1"
done
rm -f "$WORK/mnt/f"*
sync
for f in \$(seq 64); do head -c 131072 /dev/urandom >"$WORK/mnt/f\$f"; done
sync
EOF
# work NAME [ENV=VALUE...] -- [RECORD OPTIONS]: record the workload into $WORK/NAME.sst
work() {
	local name=$1; shift
	local envs=()
	while [[ $1 != -- ]]; do envs+=("$1"); shift; done
	shift
	env "${envs[@]}" "$SEEKSCOPE" record -q "$@" -o "$WORK/$name.sst" -d "$LOOP" -- \
		sh "$WORK/work.sh" "$name" 2>"$WORK/$name.err"
}
meta() { "$SEEKSCOPE" dump -n "$1" | sed -n 's/^# meta work-names = //p'; }
wb() { "$SEEKSCOPE" report "$1" | grep -c -- '-wb_workfn'; }
stack_set() { grep -q '^stacktrace' "$1" 2>/dev/null; }

work stack --
ok $? "record (default): the writeback recorded" || sed 's/^/# /' "$WORK/stack.err"
is "$(meta "$WORK/stack.sst")" stack "its trace says the work came from stacks"
grep -F 'stacktrace' "$WORK/trigger.stack" | grep -F 'comm ~ "kworker*"' | grep -qF "dev == $DEV"
ok $? "while it ran, block_rq_issue had the trigger, for kworkers and this device only" ||
	sed 's/^/# /' "$WORK/trigger.stack"
! stack_set "$WORK/ctrigger.stack"
ok $? "and block_rq_complete none (a completion's context is not who asked for the I/O)"
is "$(cat "$WORK/wq.stack" 2>/dev/null)" 0 "nor the workqueue event"
n=$(wb "$WORK/stack.sst")
ok $((n < 1)) "the report names the writeback worker by its work (-wb_workfn: $n rows)"
"$SEEKSCOPE" dump --comm 'kworker*' "$WORK/stack.sst" | grep -v '^#' | grep -q 'issue'
ok $? "dump --comm 'kworker*': the worker's issues are there"

work event SEEKSCOPE_WORK_NAMES=event --
ok $? "SEEKSCOPE_WORK_NAMES=event: recorded" || sed 's/^/# /' "$WORK/event.err"
is "$(meta "$WORK/event.sst")" event "its trace says the work came from the work event"
! stack_set "$WORK/trigger.event"
ok $? "while it ran, no trigger"
is "$(cat "$WORK/wq.event" 2>/dev/null)" 1 "the workqueue event on"
n=$(wb "$WORK/event.sst")
ok $((n < 1)) "the report names the writeback worker by its work ($n rows)"

work none -- --no-work-names
ok $? "--no-work-names: recorded" || sed 's/^/# /' "$WORK/none.err"
is "$(meta "$WORK/none.sst")" "" "no work-names meta record"
! stack_set "$WORK/trigger.none"
ok $? "no trigger"
is "$(cat "$WORK/wq.none" 2>/dev/null)" 0 "no workqueue event"
is "$(wb "$WORK/none.sst")" 0 "no worker named by its work"
"$SEEKSCOPE" dump --comm 'kworker*' "$WORK/none.sst" | grep -v '^#' | grep -q 'issue'
ok $? "the worker's issues are still there, by its bare name"

is "$(instances_left "$WORK/stack.sst" "$WORK/event.sst" "$WORK/none.sst")" 0 \
	"no recorder's instance is left"
is "$(cat "$T/events/block/block_rq_issue/trigger" | grep -c '^stacktrace')" 0 \
	"the top instance's block_rq_issue has no trigger of ours"

SEEKSCOPE_WORK_NAMES=bogus "$SEEKSCOPE" record -q -o "$WORK/bad.sst" -d "$LOOP" -- true \
	>/dev/null 2>"$WORK/bad.err"
rc=$?
ok $(( rc != 2 || $(wc -l <"$WORK/bad.err") != 1 )) \
	"SEEKSCOPE_WORK_NAMES=bogus: one line, exit 2: $(cat "$WORK/bad.err")"
[[ ! -e $WORK/bad.sst ]]
ok $? "and no trace written"
done_testing
