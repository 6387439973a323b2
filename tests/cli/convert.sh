#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# seekscope convert and imported traces from the command line, unprivileged: help, misuse
# (exit 2), unreadable input (exit 1, one line), blktrace -> seekscope round trip, zones from an
# XFS image file (--fs, --fs-dev), output refusing to overwrite the input, dump/report on
# blktrace files named by prefix, file and directory.  Prints TAP.
source "$(dirname "$0")/../lib/tap.sh"
GEN=${GEN_BLKTRACE:-build/tests/tools/gen-blktrace}
plan 44
make_workdir
d=$WORK

"$SEEKSCOPE" convert --help >"$d/out" 2>"$d/err"; rc=$?
ok $rc "--help exits 0"
grep -q '^USAGE: seekscope convert' "$d/out" && grep -q '^EXAMPLES:' "$d/out"
ok $? "--help has USAGE and EXAMPLES on stdout"
for opt in --output --fs --fs-dev --fs-offset; do
	grep -q -- "$opt" "$d/out"; ok $? "--help documents $opt"
done
ok $([[ -s $d/err ]] && echo 1 || echo 0) "--help writes nothing to stderr"
"$SEEKSCOPE" convert >/dev/null 2>&1; ok $(($? != 2)) "no arguments: exit 2"
"$SEEKSCOPE" convert x.sst 2>/dev/null; ok $(($? != 2)) "no -o: exit 2"
"$SEEKSCOPE" convert --bogus x -o y 2>/dev/null; ok $(($? != 2)) "unknown option: exit 2"
"$SEEKSCOPE" convert x -o y --fs-dev 8:0 2>/dev/null; ok $(($? != 2)) "--fs-dev without --fs: exit 2"
"$SEEKSCOPE" convert x -o y --fs z --fs-dev 8 2>/dev/null; ok $(($? != 2)) "bad --fs-dev: exit 2"

printf 'hello, not a trace\n' >"$d/junk"
"$SEEKSCOPE" convert "$d/junk" -o "$d/out.sst" 2>"$d/err"; rc=$?
ok $((rc != 1)) "junk input: exit 1"
[[ $(wc -l <"$d/err") -eq 1 ]] && grep -q "^seekscope convert: $d/junk: not a seekscope, blktrace or trace-cmd file" "$d/err"
ok $? "junk input: one line naming the formats: $(cat "$d/err")"
[[ ! -e $d/out.sst ]]; ok $? "no output written for junk input"
"$SEEKSCOPE" convert "$d/missing" -o "$d/out.sst" 2>"$d/err"; rc=$?
ok $((rc != 1)) "missing input: exit 1 ($(cat "$d/err"))"

# (`make check` builds gen-blktrace)
if ! have CMD "$GEN"; then
	skip_need 28 CMD "$GEN"
	done_testing; exit
fi
mkdir "$d/bt"
"$GEN" -o "$d/bt/sda" -n 2000 -c 3 -d 8:16
"$GEN" -o "$d/swapped" -n 2000 -c 3 -d 8:16 -S
for name in "$d/bt/sda" "$d/bt/sda.blktrace.2" "$d/bt" "$d/swapped"; do
	"$SEEKSCOPE" dump "$name" >"$d/dump.txt" 2>"$d/err"
	ok $? "dump reads blktrace named as ${name#"$d"/}"
	is_n=$(grep -vc '^#' "$d/dump.txt")
	ok $((is_n != 6000)) "  6000 events ($is_n)"
	grep -v '^#' "$d/dump.txt" | cut -c14- | md5sum >"$d/sum.$(echo "$name" | md5sum | cut -c1-8)"
done
[[ $(cat "$d"/sum.* | sort -u | wc -l) -eq 1 ]]
ok $? "prefix, one file, directory and the other byte order give the same events"

"$SEEKSCOPE" convert "$d/bt/sda" -o "$d/sda.sst" 2>"$d/err"
ok $? "convert blktrace -> seekscope trace"
diff <("$SEEKSCOPE" dump "$d/bt/sda" | grep -v '^#') <("$SEEKSCOPE" dump "$d/sda.sst" | grep -v '^#') >/dev/null
ok $? "converted trace holds the same events"
SEEKSCOPE_READAHEAD=always "$SEEKSCOPE" convert "$d/bt/sda" -o "$d/ra1.sst" 2>/dev/null &&
	SEEKSCOPE_READAHEAD=never "$SEEKSCOPE" convert "$d/bt/sda" -o "$d/ra0.sst" 2>/dev/null &&
	cmp -s -i 32 "$d/ra1.sst" "$d/ra0.sst"   # past the header's creation time
ok $? "the same file whether the events were read ahead in a thread or not"
"$SEEKSCOPE" dump -n "$d/sda.sst" | grep -q '^# meta source = blktrace$'; ok $? "meta source = blktrace"
"$SEEKSCOPE" dump -n "$d/sda.sst" | grep -q '^# device 8:16 (8,16) 0 sectors'
ok $? "device known by number, size unknown"
"$SEEKSCOPE" report "$d/sda.sst" >"$d/rep.txt" 2>&1; ok $? "report on the converted trace"
grep -q 'size unknown' "$d/rep.txt"; ok $? "report says the size is unknown"

"$SEEKSCOPE" convert "$d/sda.sst" -o "$d/sda.sst" 2>"$d/err"; rc=$?
ok $((rc != 1)) "output = input refused: $(cat "$d/err")"
"$SEEKSCOPE" dump -n "$d/sda.sst" >/dev/null 2>&1; ok $? "input left intact"

if have CMD mkfs.xfs; then
	truncate -s 300M "$d/xfs.img"
	mkfs.xfs -q -f -d agcount=4 "$d/xfs.img"
	"$SEEKSCOPE" convert "$d/bt" -o "$d/z.sst" --fs "$d/xfs.img" 2>"$d/err"
	ok $? "--fs image with the trace's only device"
	[[ $("$SEEKSCOPE" dump -n "$d/z.sst" | grep -c '^# zone ag AG[0-3] (8,16)') -eq 4 ]]
	ok $? "four AG zones on 8:16"
	"$SEEKSCOPE" dump -n "$d/z.sst" | grep -q '^# device 8:16 .* fs xfs,'; ok $? "fstype filled in"
	"$GEN" -o "$d/bt/sdb" -n 100 -c 1 -d 8:32
	"$SEEKSCOPE" convert "$d/bt" -o "$d/z2.sst" --fs "$d/xfs.img" 2>"$d/err"; rc=$?
	ok $((rc != 2)) "two devices without --fs-dev: exit 2: $(cat "$d/err")"
	"$SEEKSCOPE" convert "$d/bt" -o "$d/z2.sst" --fs "$d/xfs.img" --fs-dev 8:32 2>"$d/err"
	ok $? "two devices with --fs-dev 8:32"
	[[ $("$SEEKSCOPE" dump -n "$d/z2.sst" | grep -c '^# zone ag AG[0-3] (8,32)') -eq 4 ]]
	ok $? "zones on the device named"
	[[ $("$SEEKSCOPE" dump -n "$d/z2.sst" | grep -c '^# device ') -eq 2 ]]
	ok $? "both devices of the directory kept apart"
	"$SEEKSCOPE" convert "$d/bt/sda" -o "$d/z3.sst" --fs "$d/xfs.img" --fs-offset 2048 2>"$d/err"
	ok $? "--fs-offset 2048"
	ag1=$("$SEEKSCOPE" dump -n "$d/z.sst" | awk '$4 == "AG1" {split($6, r, "+"); print r[1]}')
	ag1o=$("$SEEKSCOPE" dump -n "$d/z3.sst" | awk '$4 == "AG1" {split($6, r, "+"); print r[1]}')
	ok $((ag1o != ag1 + 2048)) "zones moved by the offset ($ag1 -> $ag1o)"
	"$SEEKSCOPE" convert "$d/bt/sda" -o "$d/z4.sst" --fs "$d/xfs.img" --fs-offset -1 2>/dev/null
	ok $(($? != 2)) "bad --fs-offset: exit 2"
else
	skip_need 10 CMD mkfs.xfs
fi
done_testing
