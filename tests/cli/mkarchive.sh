#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# seekscope mkarchive's defaults and output: the directory count scales with --files when
# --dirs is not given (one per 15 files, 400 for the default 6000), --dirs still wins; -q
# prints nothing; a run longer than a second shows its progress on a terminal (run under
# script(1)) and erases it before the summary line, and shows none when stderr is not a
# terminal.  Unprivileged.  Prints TAP.
source "$(dirname "$0")/../lib/tap.sh"
need CMD tar script
plan 9
make_workdir
W=$WORK

dirs_in() { tar tf "$1" | grep -c '/$'; }

"$SEEKSCOPE" mkarchive -o "$W/ten.tar" --files 10 >"$W/out" 2>"$W/err"
[[ $? -eq 0 && ! -s $W/err ]] && grep -q "10 files in 1 directories" "$W/out"; ok $? "--files 10: one directory ($(cat "$W/out"))"
is "$(dirs_in "$W/ten.tar")" 1 "... which the archive holds"
"$SEEKSCOPE" mkarchive -o "$W/600.tar" --files 600 >/dev/null
is "$(dirs_in "$W/600.tar")" 40 "--files 600: 40 directories (one per 15 files)"
"$SEEKSCOPE" mkarchive -o "$W/600-7.tar" --files 600 --dirs 7 >/dev/null
is "$(dirs_in "$W/600-7.tar")" 7 "--dirs 7 wins"
"$SEEKSCOPE" mkarchive -o "$W/def.tar" --scale 0.001 >/dev/null
is "$(dirs_in "$W/def.tar")" 400 "the default 6000 files: 400 directories, as before"
"$SEEKSCOPE" mkarchive -q -o "$W/q.tar" --files 10 >"$W/out" 2>"$W/err"
[[ $? -eq 0 && ! -s $W/out && ! -s $W/err && -s $W/q.tar ]]; ok $? "-q: nothing printed, the archive written"

# long enough (xz, ~2 s) for progress; script(1) gives it a terminal
script -qec "'$SEEKSCOPE' mkarchive -o '$W/slow.tar.xz' --files 8000 --scale 0.01" /dev/null >"$W/tty" 2>&1 </dev/null
grep -q "seekscope mkarchive: [0-9]* of 8000 files (" "$W/tty"; ok $? "on a terminal: progress"
tr '\r' '\n' <"$W/tty" | grep -q $'^\e\\[Kwrote '; ok $? "... erased before the summary line"
"$SEEKSCOPE" mkarchive -o "$W/slow2.tar.xz" --files 8000 --scale 0.01 >"$W/out" 2>"$W/err"
[[ $? -eq 0 && ! -s $W/err ]]; ok $? "stderr not a terminal: no progress"
