#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# seekscope mkarchive's defaults and output: the directory count scales with --files when
# --dirs is not given (one per 15 files, 400 for the default 6000), --dirs still wins; -q
# prints nothing; a run longer than a second shows its progress on a terminal (run under
# script(1)) and erases it before the summary line, and shows none when stderr is not a
# terminal.  As root, with libarchive hidden (an empty file bound over it in a private mount
# namespace): mkarchive and record --untar each refuse in one line naming it and write
# nothing (after what the options and files get wrong: an unknown extension, a missing
# archive), while report, plot and dump, which never load it, work.  Prints TAP.
source "$(dirname "$0")/../lib/tap.sh"
need CMD tar script
plan 14
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

# without libarchive: loaded only by what reads or writes archives (collector/workload/arlib.h)
lib=$(cached_lib 'libarchive\.so\.13' "$SEEKSCOPE")
S=$(dirname "$0")/../../samples/traces/xfs-agcount1.sst
if have ROOT && have CMD unshare && have MOUNTNS && [[ -n $lib ]]; then
	: >"$W/empty.so"
	mkdir "$W/into"
	unshare -m sh -c 'mount --bind "$1" "$2" || exit 9
		"$3" mkarchive -o "$4/none.tar" --files 10; echo "mkarchive=$?"
		"$3" record -o "$4/none.sst" --untar "$4/ten.tar" --into "$4/into"; echo "record=$?"
		"$3" report "$5" >"$4/none.report"; echo "report=$?"
		"$3" plot "$5" -o "$4/none.png"; echo "plot=$?"
		"$3" dump "$5" >/dev/null; echo "dump=$?"
		"$3" mkarchive -o "$4/x.foo" --files 1 2>"$4/badext.err"; echo "badext=$?"
		"$3" record -o "$4/none2.sst" --untar "$4/missing.tar" --into "$4/into" \
			2>"$4/missing.err"; echo "missing=$?"' \
		sh "$W/empty.so" "$lib" "$SEEKSCOPE" "$W" "$S" >"$W/noar.out" 2>"$W/noar.err"
	grep -qx 'mkarchive=1' "$W/noar.out" && grep -qx 'record=1' "$W/noar.out"
	ok $? "without libarchive: mkarchive and record --untar exit 1 ($(tr '\n' ' ' <"$W/noar.out"))"
	[[ $(wc -l <"$W/noar.err") -eq 2 ]] &&
		[[ $(grep -c "cannot load libarchive (libarchive.so.13)" "$W/noar.err") -eq 2 ]]
	ok $? "... one line each naming it: $(head -1 "$W/noar.err")"
	[[ ! -e $W/none.tar && ! -e $W/none.sst && -z $(ls -A "$W/into") ]]
	ok $? "... nothing written"
	grep -qx 'report=0' "$W/noar.out" && grep -qx 'plot=0' "$W/noar.out" &&
		grep -qx 'dump=0' "$W/noar.out" && [[ -s $W/none.png ]] &&
		"$SEEKSCOPE" report "$S" | cmp -s - "$W/none.report"
	ok $? "... report (the same), plot and dump work without it"
	grep -qx 'badext=2' "$W/noar.out" && grep -q "x.foo: unknown archive type" "$W/badext.err" &&
		grep -qx 'missing=1' "$W/noar.out" &&
		grep -q "missing.tar: No such file or directory" "$W/missing.err"
	ok $? "... a wrong extension or a missing archive still said first: $(cat "$W/badext.err" "$W/missing.err" | cut -c1-60 | tr '\n' '|')"
else
	skip 5 "prerequisite: root, a private mount namespace and libarchive in the loader's cache"
fi
