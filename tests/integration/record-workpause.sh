#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The kworkers' stacks pause while a busy workload issues its own requests and no kworker
# any, and come back with the first kworker's request (stackpace.h).  On loop-backed ext4: 4 KiB
# direct reads of the device until the instance's block_rq_issue has lost its trigger (at most
# 40 s: the pause waits 10 s after any kworker's request, kblockd's flushes included), then
# files written and synced, which the flusher's kworker writes.  The trigger must be gone
# during the reads and back after the writeback; the trace's meta records must say how many
# pauses, for how long, and how many of the kworkers' events came unnamed — exactly the
# kworkers' issues the trace names without their work — and so must the summary line.  With
# --all-work-names the same workload keeps the trigger throughout and names the writeback by
# its work.  Nothing may be left behind.  Root only.
source "$(dirname "$0")/../lib/tap.sh"
need ROOT
need TRACEFS
need LOOP
need CMD mkfs.ext4
plan 16
make_workdir
make_loop 256M
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$LOOP"
mount_fs "$LOOP" "$WORK/mnt"
sync
T=$(tracefs_dir)

# the workload (run by the recorder, its parent; bash, for SECONDS): direct reads until the
# trigger is gone (at most 40 s), or for $2 s; the trigger then; the writeback; the trigger
# once it is back (at most 5 s)
cat >"$WORK/work.sh" <<EOF
i=\$(ls -d "$T/instances/seekscope-\$PPID-"* | head -1)
trig() { grep -c '^stacktrace' "\$i/events/block/block_rq_issue/trigger"; }
start=\$SECONDS
while [ \$((SECONDS - start)) -lt 40 ]; do
	dd if="$LOOP" of=/dev/null bs=4k count=5000 iflag=direct status=none
	if [ \$((SECONDS - start)) -ge \$2 ]; then
		[ \$2 -gt 0 ] || [ "\$(trig)" = 0 ] && break
	fi
done
trig >"$WORK/during.\$1"
for f in \$(seq 32); do head -c 131072 /dev/urandom >"$WORK/mnt/f\$1.\$f"; done
sync
for t in \$(seq 50); do [ "\$(trig)" = 1 ] && break; sleep 0.1; done
trig >"$WORK/after.\$1"
EOF
meta() { "$SEEKSCOPE" dump -n "$1" | sed -n "s/^# meta work-names$2 = //p"; }
# the kworkers' issues the trace names without their work
bare() {
	"$SEEKSCOPE" dump "$1" | awk '$4 == "issue" && $NF ~ /^\[kworker\// && $NF !~ /-/' | wc -l
}

"$SEEKSCOPE" record -o "$WORK/paced.sst" -d "$LOOP" -- bash "$WORK/work.sh" paced 0 \
	2>"$WORK/paced.err"
ok $? "recorded" || sed 's/^/# /' "$WORK/paced.err"
is "$(cat "$WORK/during.paced")" 0 "during the busy reads block_rq_issue had no trigger"
is "$(cat "$WORK/after.paced")" 1 "after the writeback it had it again"
pauses=$(meta "$WORK/paced.sst" .pauses)
ok $(( ${pauses:-0} < 1 )) "the trace counts the pauses ($pauses)"
paused=$(meta "$WORK/paced.sst" .paused_s)
awk -v p="${paused:-0}" 'BEGIN { exit !(p > 0.1) }'
ok $? "and how long they lasted ($paused s)"
unnamed=$(meta "$WORK/paced.sst" .unnamed)
ok $(( ${unnamed:-0} < 1 )) "some of the writeback came while they were paused ($unnamed events)"
is "$(bare "$WORK/paced.sst")" "$unnamed" "the trace names exactly that many kworker issues without their work"
grep -q "^seekscope: $unnamed kworker events\{0,1\} \(is\|are\) recorded without the work's name" \
	"$WORK/paced.err"
ok $? "the summary says so" || sed 's/^/# /' "$WORK/paced.err"

"$SEEKSCOPE" record -q --all-work-names -o "$WORK/all.sst" -d "$LOOP" -- \
	bash "$WORK/work.sh" all 3 2>"$WORK/all.err"
ok $? "--all-work-names: recorded" || sed 's/^/# /' "$WORK/all.err"
is "$(cat "$WORK/during.all")" 1 "the trigger stayed through 3 s of busy reads"
is "$(meta "$WORK/all.sst" .pauses)" "" "no pause in the trace"
n=$("$SEEKSCOPE" dump "$WORK/all.sst" | awk '$4 == "issue" && /-wb_workfn\]$/' | wc -l)
ok $(( n < 1 )) "the writeback named by its work ($n issues)"
is "$(bare "$WORK/all.sst")" 0 "no kworker issue without its work"
[[ ! -s $WORK/all.err ]]
ok $? "-q: nothing said"

"$SEEKSCOPE" record -q --all-work-names --no-work-names -o "$WORK/bad.sst" -d "$LOOP" -- true \
	>/dev/null 2>"$WORK/bad.err"
ok $(( $? != 2 || $(wc -l <"$WORK/bad.err") != 1 )) \
	"--all-work-names with --no-work-names: one line, exit 2: $(cat "$WORK/bad.err")"
is "$(instances_left "$WORK/paced.sst" "$WORK/all.sst")" 0 "no recorder's instance is left"
done_testing
