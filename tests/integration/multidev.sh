#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A real recording on two devices of our own (XFS on one loop device, ext4 on another, one
# `record -d A -d B`): each device's I/O counted on its own, its bytes equal to the kernel's counters
# (/sys/block/loopN/stat), their sum the whole, each zone on the device it was probed on,
# --device on report and dump, and one io panel per device in the picture, each with its own
# zones (AG bands only in XFS's, the journal band only in ext4's).  Root only; everything
# created is removed.
source "$(dirname "$0")/../lib/tap.sh"
PNG_COLOUR=${PNG_COLOUR:-build/tests/tools/png-colour}
need ROOT
need TRACEFS
need LOOP
need PYTHON3
need CMD mkfs.xfs mkfs.ext4
plan 16
make_workdir

json() { python3 -c "import json,sys; j = json.load(open(sys.argv[1])); print($2)" "$1"; }
# the kernel's counters of each disk, read inside the capture: written sectors are field 7
# (Documentation/admin-guide/iostats.rst)

make_loop 1G; X=$LOOP
make_loop 512M; E=$LOOP
# ext4 initialised at mkfs time: its lazy init would write zeroes in the background from the
# mount on, some of them between the capture's start and the first counter read (or after the
# second), which the trace has and the counters' difference has not (seen on a busy machine)
mkfs.xfs -q -f -d agcount=4 "$X" && mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$E"
ok $? "XFS on $X, ext4 on $E"
mount_fs "$X" "$WORK/x" && mount_fs "$E" "$WORK/e"
ok $? "both mounted"
make_tree_archive "$WORK/tree.tar" 10 20

"$SEEKSCOPE" record -q -o "$WORK/two.sst" -d "$WORK/x" -d "$WORK/e" -- sh -c "
	cat /sys/block/${X#/dev/}/stat > '$WORK/x.before'; cat /sys/block/${E#/dev/}/stat > '$WORK/e.before'
	tar xf '$WORK/tree.tar' -C '$WORK/x' && tar xf '$WORK/tree.tar' -C '$WORK/e' && sync
	sleep 0.5
	cat /sys/block/${X#/dev/}/stat > '$WORK/x.after'; cat /sys/block/${E#/dev/}/stat > '$WORK/e.after'" 2>"$WORK/rec.err"
ok $? "record -d XFS -d ext4 of two extractions exits 0"

"$SEEKSCOPE" report --json "$WORK/two.sst" >"$WORK/two.json"
is "$(json "$WORK/two.json" "len(j['devices'])")" 2 "report: two devices"
for dev in "$X" "$E"; do
	n=${dev#/dev/} tag=$([[ $dev == "$X" ]] && echo x || echo e)
	# sectors, not requests: the kernel also counts a write without sectors (an fsync's
	# empty preflush write, whose flush seekscope counts as a flush) and counts write-zeroes
	# (discards and zeroing) as writes (op_stat_group()), which seekscope keeps apart as other
	# ops
	want=$(( ($(awk '{print $7}' "$WORK/$tag.after") - $(awk '{print $7}' "$WORK/$tag.before")) * 512 ))
	got=$(json "$WORK/two.json" "[d['write_bytes'] + d['other_bytes'] for d in j['devices'] if d['name'] == '$n'][0]")
	is "$got" "$want" "$n: write_bytes + other_bytes = the kernel's written sectors x 512"
done
is "$(json "$WORK/two.json" "sum(d['ios'] for d in j['devices']) - j['ios']")" 0 "the devices add up to the whole"
is "$(json "$WORK/two.json" "sorted(d['size_sectors'] for d in j['devices'])")" "[1048576, 2097152]" \
	"each device's size_sectors"

"$SEEKSCOPE" dump -n "$WORK/two.sst" >"$WORK/meta.txt"
xdev=$(awk -v n="${X#/dev/}" '$2 == "device" && $3 == n {print $4}' "$WORK/meta.txt")
edev=$(awk -v n="${E#/dev/}" '$2 == "device" && $3 == n {print $4}' "$WORK/meta.txt")
zone_devs() { grep "^# zone \($1\) " "$WORK/meta.txt" | grep -o '([0-9]*,[0-9]*)' | sort -u; }
is "$(zone_devs 'ag\|log')" "$xdev" \
	"AGs and the log on the XFS device $xdev"
is "$(zone_devs 'group\|journal\|inode_table')" "$edev" \
	"groups and the journal on the ext4 device $edev"

"$SEEKSCOPE" report --json --device "${E#/dev/}" "$WORK/two.sst" >"$WORK/e.json"
is "$(json "$WORK/e.json" "j['ios']")" "$(json "$WORK/two.json" "[d['ios'] for d in j['devices'] if d['name'] == '${E#/dev/}'][0]")" \
	"report --device ${E#/dev/}: the ext4 device's I/Os only"
"$SEEKSCOPE" dump --device "${X#/dev/}" "$WORK/two.sst" | awk '$4 == "issue" || $4 == "complete" {print $5}' | sort -u >"$WORK/devs"
is "$(cat "$WORK/devs")" "${xdev//[()]/}" "dump --device ${X#/dev/}: its events only"

# the picture: two io panels; the journal band (ext4, the second device) is drawn only in the
# lower one, the AG shading (XFS) only in the upper one
"$SEEKSCOPE" plot "$WORK/two.sst" -o "$WORK/two.png" --panels io,seeks --size 1200x900 2>"$WORK/plot.err"
ok $? "plot of the two-device recording"
log_top=$("$PNG_COLOUR" "$WORK/two.png" F8F3A9 80 first)
ok $([[ $log_top -gt 0 ]] && echo 0 || echo 1) "log/journal bands drawn (first row $log_top)"
jnl=$("$PNG_COLOUR" "$WORK/two.png" F8F3A9 450)
all=$("$PNG_COLOUR" "$WORK/two.png" F8F3A9 80)
ok $([[ $jnl -gt 0 && $jnl -lt $all ]] && echo 0 || echo 1) \
	"bands in both panels: XFS's log above, ext4's journal below ($((all - jnl)) + $jnl px)"
"$SEEKSCOPE" plot "$WORK/two.sst" -o "$WORK/e.png" --device "${E#/dev/}" --panels io 2>"$WORK/plot.err"
ok $? "plot --device ${E#/dev/}"
done_testing
