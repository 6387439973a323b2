#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Request classes on real captures, cross-checked with the kernel's own counters
# (/sys/block/loopN/stat): discards of an rm -rf on XFS mounted with -o discard, and the
# write-zeroes of blkdiscard -z, each counted in its own JSON keys (never folded into reads or
# writes) and drawn in its colour in the io panel; and a fio 50/50 read/write mix whose writes
# are as visible as its reads.  Root only; everything created is removed.
source "$(dirname "$0")/../lib/tap.sh"
PNG_COLOUR=${PNG_COLOUR:-$(dirname "$0")/../../build/tests/tools/png-colour}
DISCARD_RGB=CC79A7 OTHER_RGB=56B4E9    # render/plot/palette.h
need ROOT
need TRACEFS
need LOOP
need PYTHON3
need CMD mkfs.xfs blkdiscard
plan 27
make_workdir

# json FILE EXPR: a figure of the report's JSON (python3 expression on `j`).
json() { python3 -c "import json,sys; j = json.load(open(sys.argv[1])); print($2)" "$1"; }
# the kernel's completed-request counters of a disk: read_ios read_sectors write_ios
# write_sectors discard_ios discard_sectors (Documentation/admin-guide/iostats.rst)
disk_stat() { awk '{print $1, $3, $5, $7, $12, $14}' "/sys/block/${1#/dev/}/stat"; }
# delta BEFORE AFTER FIELD: AFTER's field minus BEFORE's (1-based)
delta() { echo $(( $(cut -d' ' -f"$3" <<<"$2") - $(cut -d' ' -f"$3" <<<"$1") )); }

make_tree_archive "$WORK/tree.tar" 30 40

# ---- discards: untar, rm -rf and sync on XFS mounted with -o discard
make_loop 1G
D_LOOP=$LOOP
mkfs.xfs -q -f "$D_LOOP"
mount_fs "$D_LOOP" "$WORK/mnt" discard
# the kernel's counters are read inside the capture, so both see the same requests; the
# sleep lets the discards XFS issues after the log force complete before the capture ends
"$SEEKSCOPE" record -q -o "$WORK/d.sst" -d "$WORK/mnt" -- sh -c "
	cat /sys/block/${D_LOOP#/dev/}/stat > '$WORK/before'
	tar xf '$WORK/tree.tar' -C '$WORK/mnt' && sync && rm -rf '$WORK/mnt/'* && sync && sleep 1
	cat /sys/block/${D_LOOP#/dev/}/stat > '$WORK/after'" 2>"$WORK/d.err"
ok $? "record of untar, rm -rf, sync on XFS -o discard exits 0"
before=$(awk '{print $1, $3, $5, $7, $12, $14}' "$WORK/before")
after=$(awk '{print $1, $3, $5, $7, $12, $14}' "$WORK/after")
"$SEEKSCOPE" report --json "$WORK/d.sst" >"$WORK/d.json"
ok $? "report --json"
dios=$(json "$WORK/d.json" "j['discard_ios']")
[[ $dios -gt 0 ]]; ok $? "discards counted ($dios)"
is "$dios" "$(delta "$before" "$after" 5)" "discard_ios = the kernel's discard count"
is "$(json "$WORK/d.json" "j['discard_bytes']")" $(( $(delta "$before" "$after" 6) * 512 )) \
	"discard_bytes = the kernel's discarded sectors x 512"
is "$(json "$WORK/d.json" "j['discards']")" "$dios" "discards (older key) the same"
is "$(json "$WORK/d.json" "j['write_ios']")" "$(delta "$before" "$after" 3)" \
	"write_ios = the kernel's writes: discards not folded in"
is "$(json "$WORK/d.json" "j['write_bytes']")" $(( $(delta "$before" "$after" 4) * 512 )) \
	"write_bytes = the kernel's written sectors x 512"
is "$(json "$WORK/d.json" "j['ios'] - j['reads'] - j['writes'] - j['discards'] - j['other_ios']")" 0 \
	"ios is the sum of the classes"
"$SEEKSCOPE" dump "$WORK/d.sst" >"$WORK/d.txt"
seek_issues=$(awk '$1 !~ /^#/ && $4 == "issue" && $7 != "-" && $6 !~ /^F?D[^E]*$/' "$WORK/d.txt" | wc -l)
is "$(json "$WORK/d.json" "j['issues']")" "$seek_issues" \
	"seeks evaluated on every issue with sectors but the discards"
"$SEEKSCOPE" report "$WORK/d.sst" >"$WORK/d.report"
grep -q "$dios discards (" "$WORK/d.report"; ok $? "text report lists the discards"
"$SEEKSCOPE" plot --panels io "$WORK/d.sst" -o "$WORK/d.png" 2>"$WORK/plot.err"
ok $? "plot of the discard capture"
n=$("$PNG_COLOUR" "$WORK/d.png" $DISCARD_RGB 100)
[[ $n -gt 10 ]]; ok $? "discard-coloured pixels in the io panel ($n)"
n=$("$PNG_COLOUR" "$WORK/d.png" $OTHER_RGB 0)
is "$n" 0 "no write-zeroes colour (the capture has none, nor does the legend)"

# ---- write-zeroes: blkdiscard -z on a bare loop device
make_loop 256M
Z_LOOP=$LOOP
if [[ $(cat "/sys/block/${Z_LOOP#/dev/}/queue/write_zeroes_max_bytes") -gt 0 ]]; then
	"$SEEKSCOPE" record -q -o "$WORK/z.sst" -d "$Z_LOOP" -- sh -c "
		cat /sys/block/${Z_LOOP#/dev/}/stat > '$WORK/before'
		blkdiscard -z -o 1M -l 64M '$Z_LOOP'
		cat /sys/block/${Z_LOOP#/dev/}/stat > '$WORK/after'" 2>"$WORK/z.err"
	ok $? "record of blkdiscard -z exits 0"
	before=$(awk '{print $1, $3, $5, $7, $12, $14}' "$WORK/before")
	after=$(awk '{print $1, $3, $5, $7, $12, $14}' "$WORK/after")
	"$SEEKSCOPE" report --json "$WORK/z.sst" >"$WORK/z.json"
	is "$(json "$WORK/z.json" "j['other_bytes']")" $((64 << 20)) "other_bytes: the 64 MiB zeroed"
	# the kernel accounts write-zeroes as writes: all of them are ours
	is "$(json "$WORK/z.json" "j['other_ios']")" "$(delta "$before" "$after" 3)" \
		"other_ios = the kernel's write count (write-zeroes are accounted as writes there)"
	is "$(json "$WORK/z.json" "j['write_ios'] + j['discard_ios']")" 0 \
		"no write or discard: not folded in"
	# (blkdiscard reads the device's first and last blocks for signatures first)
	is "$(json "$WORK/z.json" "j['read_ios']")" "$(delta "$before" "$after" 1)" \
		"read_ios = the kernel's reads"
	grep -q ' N' <("$SEEKSCOPE" dump "$WORK/z.sst"); ok $? "the requests are rwbs N"
	"$SEEKSCOPE" plot --panels io "$WORK/z.sst" -o "$WORK/z.png" 2>"$WORK/plot.err"
	n=$("$PNG_COLOUR" "$WORK/z.png" $OTHER_RGB 100)
	[[ $n -gt 10 ]]; ok $? "write-zeroes-coloured pixels in the io panel ($n)"
	is "$("$PNG_COLOUR" "$WORK/z.png" $DISCARD_RGB 0)" 0 "no discard colour anywhere"
else
	skip 7 "the loop driver offers no write-zeroes here"
fi
# ---- a 50/50 random read/write mix (fio): both classes counted and both visible
WRITE_RGB=0072B2 READ_RGB=E69F00
if have CMD fio; then
	make_loop 512M
	M_LOOP=$LOOP
	"$SEEKSCOPE" record -q -o "$WORK/m.sst" -d "$M_LOOP" -- sh -c "
		cat /sys/block/${M_LOOP#/dev/}/stat > '$WORK/before'
		fio --name=mix --filename='$M_LOOP' --rw=randrw --rwmixread=50 --bs=4k --direct=1 \
		    --ioengine=libaio --iodepth=8 --runtime=2 --time_based --output='$WORK/fio.out'
		cat /sys/block/${M_LOOP#/dev/}/stat > '$WORK/after'" 2>"$WORK/m.err"
	ok $? "record of a fio 50/50 randrw mix exits 0"
	before=$(awk '{print $1, $3, $5, $7, $12, $14}' "$WORK/before")
	after=$(awk '{print $1, $3, $5, $7, $12, $14}' "$WORK/after")
	"$SEEKSCOPE" report --json "$WORK/m.sst" >"$WORK/m.json"
	is "$(json "$WORK/m.json" "j['reads']"),$(json "$WORK/m.json" "j['writes']")" \
		"$(delta "$before" "$after" 1),$(delta "$before" "$after" 3)" \
		"reads and writes = the kernel's counts"
	"$SEEKSCOPE" plot --panels io "$WORK/m.sst" -o "$WORK/m.png" 2>"$WORK/plot.err"
	w=$("$PNG_COLOUR" "$WORK/m.png" $WRITE_RGB 100)
	r=$("$PNG_COLOUR" "$WORK/m.png" $READ_RGB 100)
	[[ $w -gt 20000 && $r -gt 20000 ]]; ok $? "both classes drawn ($w write, $r read pixels)"
	[[ $((w * 100)) -gt $((r * 80)) && $((r * 100)) -gt $((w * 80)) ]]
	ok $? "in about equal parts: reads do not hide writes ($w vs $r)"
else
	skip_need 4 CMD fio
fi
is "$(instances_left "$WORK"/[dzm].sst)" 0 "the recorders' tracing instances are gone"
