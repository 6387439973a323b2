#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Traces of several devices from the command line, unprivileged: a blktrace directory of two
# devices (gen-blktrace) reported per device (JSON devices[] adds up to the whole), --device
# on report, dump and plot (and exit 2 naming the devices for one the trace lacks), one io
# panel per device in the picture, and zones added with convert --fs staying on the device
# they describe.  Prints TAP.
source "$(dirname "$0")/../lib/tap.sh"
GEN=${GEN_BLKTRACE:-build/tests/tools/gen-blktrace}
PNG_COLOUR=${PNG_COLOUR:-build/tests/tools/png-colour}
need CMD "$GEN"
need PYTHON3
plan 27
make_workdir
d=$WORK

# json FILE EXPR: a figure of the report's JSON (python3 expression on `j`).
json() { python3 -c "import json,sys; j = json.load(open(sys.argv[1])); print($2)" "$1"; }

mkdir "$d/bt"
"$GEN" -o "$d/bt/a" -n 2000 -d 7:0 && "$GEN" -o "$d/bt/b" -n 500 -d 7:1 -s 7
ok $? "two devices' blktrace files in one directory"

"$SEEKSCOPE" report --json "$d/bt" >"$d/all.json"; ok $? "report --json"
is "$(json "$d/all.json" "len(j['devices'])")" 2 "devices[] has both"
is "$(json "$d/all.json" "all(set(x) >= {'dev', 'name', 'size_sectors', 'ios', 'read_bytes', 'write_bytes', 'discard_bytes', 'seeks', 'seeks_per_s'} for x in j['devices'])")" True \
	"each with dev, name, size_sectors, ios, bytes per class, seeks, seeks_per_s"
is "$(json "$d/all.json" "sum(x['ios'] for x in j['devices']) - j['ios']")" 0 "their I/Os add up to the whole"
is "$(json "$d/all.json" "sum(x['seeks'] for x in j['devices']) - j['seeks']")" 0 "so do their seeks"
ios1=$(json "$d/all.json" "[x['ios'] for x in j['devices'] if x['devno'] == '7:1'][0]")

"$SEEKSCOPE" report --json --device 7:1 "$d/bt" >"$d/one.json"; ok $? "report --device 7:1"
is "$(json "$d/one.json" "j['ios']")" "$ios1" "--device 7:1: the whole report is 7:1's ($ios1 I/Os)"
is "$(json "$d/one.json" "[x['devno'] for x in j['devices']] + [j['device']['devno']]")" "['7:1', '7:1']" \
	"--device 7:1: device and devices[] are 7:1 only"
"$SEEKSCOPE" report --device sdz "$d/bt" >"$d/out" 2>"$d/err"; rc=$?
is "$rc" 2 "report --device of a device the trace lacks: exit 2"
[[ $(wc -l <"$d/err") -eq 1 ]] && grep -q "has no device \"sdz\" (its devices: 7:0, 7:1)" "$d/err"
ok $? "... one line naming its devices ($(cat "$d/err"))"

"$SEEKSCOPE" dump --device 7:1 "$d/bt" >"$d/dump.txt"; ok $? "dump --device 7:1"
is "$(grep -v '^#' "$d/dump.txt" | awk '{print $5}' | sort -u)" "7,1" "dump --device 7:1: only 7:1's events"
"$SEEKSCOPE" dump --device 9:9 "$d/bt" >/dev/null 2>&1; is $? 2 "dump --device of a device the trace lacks: exit 2"

"$SEEKSCOPE" plot "$d/bt" -o "$d/two.png" --panels io,seeks 2>"$d/err"; ok $? "plot of two devices"
"$SEEKSCOPE" plot "$d/bt" -o "$d/one.png" --panels io,seeks --device 7:0 2>"$d/err"; ok $? "plot --device 7:0"
"$SEEKSCOPE" plot "$d/bt" -o "$d/x.png" --device nope 2>"$d/err"; is $? 2 "plot --device of a device the trace lacks: exit 2"
[[ ! -e $d/x.png ]]; ok $? "... and no picture"

# the page: an io panel per device (a menu picks it), --device a page of one device
TOOLS=$(cd "$(dirname "$0")/../tools" && pwd)
"$SEEKSCOPE" plot "$d/bt" -o "$d/two.html" 2>"$d/err" && python3 "$TOOLS/html-meta.py" "$d/two.html" >"$d/m2"
ok $? "an .html page of two devices"
is "$(awk '$2 == "slot_devs" {print $3, $4, $5, $6}' "$d/m2")" "7:0 7:1 cells 2" "... with an io panel (cells) for each"
read -r lo0 hi0 lo1 hi1 < <(awk '$1 == "slots" {split($2, a, ":"); split($3, b, ":"); print a[1], a[2], b[1], b[2]}' "$d/m2")
(( hi0 > lo0 && hi1 > lo1 && hi1 <= 103599168 + 4096 )); ok $? "... each over its own offsets ($lo0-$hi0, $lo1-$hi1)"
"$SEEKSCOPE" plot "$d/bt" --device 7:1 -o "$d/one.html" 2>"$d/err" && python3 "$TOOLS/html-meta.py" "$d/one.html" >"$d/m1"
ok $? "an .html page with --device 7:1"
is "$(awk '$2 == "slot_devs" {print $3, $4, $5} $2 == "ios" {print $3}' "$d/m1" | tr '\n' ' ')" "7:1 cells 1 $ios1 " \
	"... of 7:1 alone: one io panel, the I/Os of report --device 7:1"

if have CMD mkfs.xfs; then
	truncate -s 300M "$d/xfs.img"
	mkfs.xfs -q -f -d agcount=4 "$d/xfs.img"
	"$SEEKSCOPE" convert "$d/bt" -o "$d/z.sst" --fs "$d/xfs.img" --fs-dev 7:1 2>"$d/err"
	ok $? "convert --fs onto the second device"
	"$SEEKSCOPE" dump -n "$d/z.sst" >"$d/z.txt"
	is "$(grep '^# zone' "$d/z.txt" | awk '{print $5}' | sort -u)" "(7,1)" "every zone on 7:1, the device it describes"
	# the log band (palette.h's yellow at 45 % on white) is drawn only in 7:1's io panel,
	# the lower of the two: nowhere in the upper half (rows from 80: below the legend)
	"$SEEKSCOPE" plot "$d/z.sst" -o "$d/z.png" --panels io,seeks --size 1200x900 2>"$d/err"
	ok $? "plot of the converted trace"
	top=$("$PNG_COLOUR" "$d/z.png" F8F3A9 80 first)
	ok $([[ $top -gt 450 ]] && echo 0 || echo 1) "the log band only in the second (7:1) panel (first row $top)"
else
	skip_need 4 CMD mkfs.xfs
fi
done_testing
