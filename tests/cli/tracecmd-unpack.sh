#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/tools/tc-unpack, the floor tests/bench/import.sh prints under reading a compressed .dat
# (its chunks unpacked and nothing else): it unpacks every chunk of the real captures converted
# to version 7 with zstd (tests/fuzz/corpus/tcpages) to as many bytes as trace-cmd's own dump
# lists for the same captures converted without compression (the rings' pages, byte for byte
# the same size); it refuses an uncompressed file, a chunk that does not unpack to its claim
# (chunk-damaged.partial), a missing file (1) and bad arguments (2) with one line.
# Unprivileged; trace-cmd for the sizes.  Prints TAP.
source "$(dirname "$0")/../lib/tap.sh"
TC_UNPACK=${TC_UNPACK:-build/tests/tools/tc-unpack}
SRC=$(dirname "$0")/../fuzz/corpus/tcpages
caps=(all-block-v7 instance-v7 top-v7)
plan $((${#caps[@]} + 5))
make_workdir

if have CMD trace-cmd; then
	for c in "${caps[@]}"; do
		out=$("$TC_UNPACK" "$SRC/$c.dat" 1 2>&1)
		got=$(sed -n 's/.* bytes packed, \([0-9]*\) unpacked .*/\1/p' <<<"$out")
		want=$(trace-cmd dump --flyrecord -i "$SRC/$c-plain.dat" 2>/dev/null |
		       awk '/data offset and size/ { s += $3 } END { print s + 0 }')
		[[ -n $got && $got -gt 0 && $got == "$want" ]]
		ok $? "$c.dat: unpacks to $got bytes, trace-cmd dump of $c-plain.dat lists $want ($out)"
	done
else
	skip_need ${#caps[@]} CMD trace-cmd
fi

"$TC_UNPACK" "$SRC/all-block-v7-plain.dat" >"$WORK/out" 2>"$WORK/err"
[[ $? -eq 1 && ! -s $WORK/out && $(wc -l <"$WORK/err") -eq 1 ]] &&
	grep -q "not a compressed trace-cmd file of version 7" "$WORK/err"
ok $? "an uncompressed file: refused with one line ($(cat "$WORK/err"))"

"$TC_UNPACK" "$SRC/chunk-damaged.partial" 1 >"$WORK/out" 2>"$WORK/err"
[[ $? -eq 1 && ! -s $WORK/out && $(wc -l <"$WORK/err") -eq 1 ]] &&
	grep -q "a chunk does not unpack to its claim" "$WORK/err"
ok $? "a damaged chunk: refused with one line ($(cat "$WORK/err"))"

"$TC_UNPACK" "$WORK/none.dat" >"$WORK/out" 2>"$WORK/err"
[[ $? -eq 1 && $(wc -l <"$WORK/err") -eq 1 ]] && grep -q "No such file" "$WORK/err"
ok $? "a missing file: exit 1 ($(cat "$WORK/err"))"

"$TC_UNPACK" >/dev/null 2>"$WORK/err"
[[ $? -eq 2 ]] && grep -q "^usage: tc-unpack" "$WORK/err"
ok $? "no file: usage, exit 2"

"$TC_UNPACK" "$SRC/all-block-v7.dat" 0 >/dev/null 2>"$WORK/err"
[[ $? -eq 2 ]] && grep -q "^usage: tc-unpack" "$WORK/err"
ok $? "0 runs: usage, exit 2"
done_testing
