#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The trace-cmd reader reads a version 7 file's rings page by page (import_tracecmd_pages.c),
# and libtracecmd reads the rest: both ways (SEEKSCOPE_TRACECMD_PAGES=libtracecmd) a file
# gives the same dump, warnings and exit status — real captures converted to version 7 with
# and without zstd (tests/fuzz/corpus/tcpages: one listing no data for a CPU, one whose top
# buffer has none), a chunk zstd cannot unpack, and the damaged inputs read up to a point
# (tests/fuzz/regress/tracecmd/*.partial).  The metadata says which way a file was read.  A
# report reads a file whose rings are read page by page once, finding its metadata as it
# goes (ss_trace_open_lazy): the same report, text and JSON, as read twice
# (SEEKSCOPE_ONEPASS=never).  A page whose padding event's length takes kbuffer's walk nowhere
# (tests/fuzz/regress/tcpages/padding-loop.partial: libtracecmd goes round for ever on it) ends
# its CPU's ring with a warning at once.  A compressed chunk past a CPU's first whose frame
# does not say its size is not unpacked at the open (the reading page by page holds it to its
# claim; when it fails, the walk over every chunk judges the file): one that lies is refused
# as libtracecmd's way refuses it at the open, by dump and by a report read once
# (regress/tracecmd/chunk-claims*.dat: a claim of 1.5 GiB, past the memory budget, and of
# 1 MiB, within it; one behind a damaged page, where its ring's reading ends before it gets
# there; one after a chunk of empty pages, past which lies its ring's first record, which
# libtracecmd is asked for at the open).  Unprivileged.  Prints TAP.
source "$(dirname "$0")/../lib/tap.sh"
SRC=$(dirname "$0")/../fuzz
shopt -s nullglob
files=("$SRC"/corpus/tcpages/*.dat "$SRC"/corpus/tcpages/*.partial "$SRC"/regress/tracecmd/*.partial)
plan $((3 * ${#files[@]} + 10))
make_workdir
(( ${#files[@]} >= 8 ))
ok $? "inputs found (${#files[@]})"

for f in "${files[@]}"; do
	name=${f#"$SRC"/}
	"$SEEKSCOPE" dump --absolute "$f" >"$WORK/pages.out" 2>"$WORK/pages.err"
	echo "exit $?" >>"$WORK/pages.out"
	SEEKSCOPE_TRACECMD_PAGES=libtracecmd "$SEEKSCOPE" dump --absolute "$f" \
		>"$WORK/lib.out" 2>"$WORK/lib.err"
	echo "exit $?" >>"$WORK/lib.out"
	reader=$(grep -m1 -o "^# meta trace-cmd.reader = .*" "$WORK/pages.out")
	cmp -s <(grep -v "^# meta trace-cmd.reader" "$WORK/pages.out") \
		<(grep -v "^# meta trace-cmd.reader" "$WORK/lib.out") &&
		cmp -s "$WORK/pages.err" "$WORK/lib.err" &&
		grep -q "^# meta trace-cmd.reader = libtracecmd$" "$WORK/lib.out"
	ok $? "$name: the same dump, warnings and exit status both ways ($(tail -1 "$WORK/pages.out"))"
	case $name in
	corpus/tcpages/*) want=pages ;;
	*)                want=$(grep -q "v7\|chunk" <<<"$name" && echo pages || echo libtracecmd) ;;
	esac
	[[ $reader == "# meta trace-cmd.reader = $want" ]]
	ok $? "... read by $want ($reader)"
	for how in once twice; do
		pass=$([[ $how == twice ]] && echo never || echo auto)
		{
			SEEKSCOPE_ONEPASS=$pass "$SEEKSCOPE" report "$f" 2>&1
			echo "exit $?"
			SEEKSCOPE_ONEPASS=$pass "$SEEKSCOPE" report --json "$f" 2>&1
			echo "exit $?"
		} >"$WORK/report-$how"
	done
	cmp -s "$WORK/report-once" "$WORK/report-twice"
	ok $? "... report, text and JSON: the same read once and twice ($(grep -m1 '^exit' "$WORK/report-once"))"
done

loop=$SRC/regress/tcpages/padding-loop.partial
SEEKSCOPE_TRACECMD_CPU=5 timeout 20 "$SEEKSCOPE" dump "$loop" >"$WORK/loop.out" 2>"$WORK/loop.err"
rc=$?
(( rc == 0 )) && (( $(wc -l <"$WORK/loop.err") == 1 )) &&
	grep -q "the data of CPU 1 is damaged (it cannot be read on); read up to there" "$WORK/loop.err" &&
	(( $(grep -c ' issue \| complete ' "$WORK/loop.out") == 24 ))
ok $? "a padding event that takes the page's walk nowhere: CPU 0's 24 events, a warning, exit $rc ($(head -c 160 "$WORK/loop.err"))"

for f in "$SRC"/regress/tracecmd/chunk-claims{,-small,-behind,-hollow}.dat; do
	for cmd in dump report; do
		"$SEEKSCOPE" $cmd "$f" >"$WORK/pages.out" 2>"$WORK/pages.err"
		rc=$?
		SEEKSCOPE_TRACECMD_PAGES=libtracecmd "$SEEKSCOPE" $cmd "$f" >"$WORK/lib.out" 2>"$WORK/lib.err"
		(( rc == 1 && $? == 1 )) && [[ ! -s $WORK/pages.out ]] && cmp -s "$WORK/pages.err" "$WORK/lib.err" &&
			(( $(wc -l <"$WORK/pages.err") == 1 )) &&
			grep -q "corrupt (CPU 1 of the top buffer: compressed chunk 2 says it unpacks to [0-9]* bytes, but it unpacks to 4096)" "$WORK/pages.err"
		ok $? "${f##*/}, $cmd: refused as libtracecmd's way refuses it ($(head -c 200 "$WORK/pages.err"))"
	done
done
