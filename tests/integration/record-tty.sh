#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# seekscope record on a terminal (a pseudo-terminal from python3's pty): the live status line
# never mixes into the workload's output — a COMMAND shares the terminal, so nothing is drawn
# while it runs — and it is drawn where nothing else writes: with --untar and without a
# workload (until Ctrl-C).  Root only; everything created is removed at exit.
source "$(dirname "$0")/../lib/tap.sh"
need ROOT
need TRACEFS
need LOOP
need PYTHON3
need CMD mkfs.ext4
plan 8
make_workdir
make_loop 256M
mkfs.ext4 -q -F "$LOOP"
mount_fs "$LOOP" "$WORK/mnt"

# lines OUT: the terminal output as lines, \r\n -> \n
lines() { tr -d '\r' < "$1"; }

# a command that writes between status ticks (200 ms apart)
on_pty "$WORK/cmd.out" "$SEEKSCOPE" record -o "$WORK/cmd.sst" -d "$WORK/mnt" -- \
	sh -c 'sleep 0.7; echo workload-line-1; sleep 0.7; echo workload-line-2 >&2; sleep 0.3'
ok $? "a command recorded on a terminal"
n=$(lines "$WORK/cmd.out" | grep -cx 'workload-line-[12]')
is "$n" 2 "the command's lines are whole lines of their own: $(lines "$WORK/cmd.out" | grep workload | tr -d '\033' | tr '\n' '|')"
! grep -q 'recording' "$WORK/cmd.out"
ok $? "no status line was drawn while the command ran"
lines "$WORK/cmd.out" | grep -q '^seekscope: [0-9]* events in'
ok $? "the summary comes after, on a line of its own"

# --untar: the progress/status line is drawn, and cleared before the summary
"$SEEKSCOPE" mkarchive -o "$WORK/tree.tar" --files 1500 --dirs 80 >/dev/null
on_pty "$WORK/untar.out" "$SEEKSCOPE" record -o "$WORK/untar.sst" --untar "$WORK/tree.tar" \
	--into "$WORK/mnt" --fsync=file
ok $? "--untar recorded on a terminal"
grep -q $'\r\e\[K' "$WORK/untar.out" && grep -aq 'extract' "$WORK/untar.out"
ok $? "--untar: the live status line is drawn"
lines "$WORK/untar.out" | sed 's/.*\x1b\[K//' | grep -q '^seekscope: [0-9]* events in'
ok $? "--untar: and cleared before the summary"

# without a workload: the status line until Ctrl-C, exit 130
on_pty "$WORK/wait.out" --int 1.2 "$SEEKSCOPE" record -o "$WORK/wait.sst" -d "$LOOP"
st=$?
[[ $st -eq 130 ]] && grep -q 'recording until Ctrl-C' "$WORK/wait.out" && grep -q 'recording [0-9.]* s' "$WORK/wait.out"
ok $? "without a workload: status line until Ctrl-C, then exit 130 (got $st)"
done_testing
