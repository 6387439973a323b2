#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# seekscope record -o -: the trace streams to standard output into a pipe (record ... | report -,
# | convert - -o FILE) or a redirected file; the workload COMMAND's own output goes to stderr, not
# into the trace; a terminal on stdout is refused before anything is recorded.  Root only;
# everything created is removed at exit.
source "$(dirname "$0")/../lib/tap.sh"
need ROOT
need TRACEFS
need LOOP
need PYTHON3
need CMD mkfs.ext4
plan 10
make_workdir
make_loop 256M
mkfs.ext4 -q -F "$LOOP"
mount_fs "$LOOP" "$WORK/mnt"

# write_bytes TRACE: the bytes written according to report --json
write_bytes() {
	"$SEEKSCOPE" report --json "$1" | python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["write_bytes"])'
}
# it prints "answer-42", a text its command line (kept in the trace's meta) does not contain
workload=(sh -c "echo answer-\$((6 * 7)); dd if=/dev/zero of='$WORK/mnt/f' bs=1M count=8 conv=fsync status=none")

"$SEEKSCOPE" record -q -o - -d "$WORK/mnt" -- "${workload[@]}" 2>"$WORK/err" |
	"$SEEKSCOPE" report --json - >"$WORK/report.json"
st=("${PIPESTATUS[@]}")
is "${st[*]}" "0 0" "record -o - | report -: both exit 0"
w=$(python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["write_bytes"])' <"$WORK/report.json")
[[ ${w:-0} -ge $((8 << 20)) ]]; ok $? "the report read from the pipe has the 8 MiB written ($w bytes)"
grep -qx answer-42 "$WORK/err"; ok $? "the command's stdout went to stderr"

"$SEEKSCOPE" record -q -o - -d "$WORK/mnt" -- "${workload[@]}" >"$WORK/redir.sst" 2>/dev/null
ok $? "record -o - > FILE"
"$SEEKSCOPE" dump -n "$WORK/redir.sst" >/dev/null
ok $? "... FILE is a trace seekscope reads"
! grep -aq answer-42 "$WORK/redir.sst"; ok $? "... with none of the command's output in it"
[[ $(write_bytes "$WORK/redir.sst") -ge $((8 << 20)) ]]; ok $? "... and its 8 MiB of writes"

"$SEEKSCOPE" record -q -o - -d "$WORK/mnt" -- "${workload[@]}" 2>/dev/null |
	"$SEEKSCOPE" convert -q - -o "$WORK/conv.sst"
[[ $(write_bytes "$WORK/conv.sst") -ge $((8 << 20)) ]]; ok $? "record -o - | convert - -o FILE"

cd "$WORK" || exit 1
on_pty "$WORK/tty" "$SEEKSCOPE" record -o - -d "$WORK/mnt" -- touch "$WORK/mnt/ran"; rc=$?
[[ $rc -eq 1 ]] && grep -q 'standard output is a terminal' "$WORK/tty"
ok $? "record -o - on a terminal: exit 1, refused ($(tr -d '\r' <"$WORK/tty"))"
[[ ! -e $WORK/mnt/ran && ! -e $WORK/- ]]; ok $? "... before the command ran, and no file named -"
done_testing
