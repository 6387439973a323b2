#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tracefs unmounted in the middle of a capture.  The recorder runs in a mount namespace of its
# own (unshare -m, private propagation: the machine's tracefs mounts are left alone), and its
# workload unmounts every tracefs mount of that namespace (lazily: the recorder's files stay
# open) before it writes 16 MiB to a loop device.  What the user sees: the workload's exit
# status (0), the events from after the unmount in the trace, a trace that reads back complete,
# the same lost-event count from the recorder and in the trace, and no tracing instance left
# behind — the instance used to stay, with tracing on, because it was switched off and removed
# by path.  Root only; everything created is removed at exit.
source "$(dirname "$0")/../lib/tap.sh"
need ROOT
need TRACEFS
need LOOP
need CMD unshare
need CMD findmnt
plan 8
make_workdir
make_loop 64M
on_exit "kill -KILL \$(cat '$WORK/pid' 2>/dev/null)"

# the workload: unmount every tracefs of the namespace, say whether any is left, then write
cat >"$WORK/work.sh" <<EOF
for m in \$(findmnt -rn -t tracefs -o TARGET | sort -r); do umount -l "\$m" || exit 3; done
findmnt -rn -t tracefs -o TARGET > "$WORK/left"
dd if=/dev/zero of="$LOOP" bs=1M count=16 oflag=direct status=none
EOF
unshare -m --propagation private sh -c 'echo $$ > "$1/pid"; shift; exec "$@"' sh "$WORK" \
	timeout -s KILL 60 "$SEEKSCOPE" record -o "$WORK/t.sst" -d "$LOOP" -- sh "$WORK/work.sh" \
	2>"$WORK/err"
st=$?
is "$st" 0 "tracefs unmounted mid-capture: the workload's exit status (stderr: $(tr '\n' ' ' <"$WORK/err"))"
[[ -e $WORK/left && ! -s $WORK/left ]]; ok $? "the workload's namespace had no tracefs left"
is "$(instances_left "$WORK/t.sst")" 0 "no tracing instance left behind"
"$SEEKSCOPE" dump "$WORK/t.sst" >"$WORK/dump" 2>"$WORK/derr"
ok $? "the trace reads back"
[[ ! -s $WORK/derr ]]; ok $? "... complete, without a warning"
# the only writer of the loop device is dd, after the unmount: all its 16 MiB are in the trace
written=$("$SEEKSCOPE" report --json "$WORK/t.sst" | grep -o '"write_bytes":[0-9]*' | head -1 | cut -d: -f2)
is "${written:-none}" 16777216 "the 16 MiB written after the unmount are in the trace"
said=$(sed -n 's/.*(\([0-9]*\) lost).*/\1/p' "$WORK/err")
is "$(sed -n 's/^# [0-9]* events, \([0-9]*\) lost$/\1/p' "$WORK/dump")" "${said:-none}" \
	"the trace's lost events are the recorder's (${said:-none})"
is "$("$SEEKSCOPE" report --json "$WORK/t.sst" | grep -o '"lost_events":[0-9]*' | head -1 | cut -d: -f2)" \
	"${said:-none}" "report's lost_events are the recorder's"
done_testing
