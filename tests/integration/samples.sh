#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The sample scenarios run end to end: the agcount comparison as root (recorded on loop
# devices) and, as an unprivileged user, from the shipped traces.
source "$(dirname "$0")/../lib/tap.sh"
need ROOT
need TRACEFS
need LOOP
need PYTHON3
need CMD mkfs.xfs setpriv
plan 14
make_workdir
TOP=$(cd "$(dirname "$0")/../.." && pwd)

SEEKSCOPE=$SEEKSCOPE "$TOP/samples/agcount-compare.sh" -o "$WORK/out" --files 800 >"$WORK/log" 2>&1
ok $? "agcount comparison recorded and rendered"
for f in agcount.png agcount.svg xfs-agcount1.sst xfs-agcount4.sst; do
	[[ -s $WORK/out/$f ]]; ok $? "wrote $f"
done
is "$("$SEEKSCOPE" dump --no-events "$WORK/out/xfs-agcount1.sst" | grep -c '^# zone ag ')" 1 "agcount=1 trace has one AG zone"
is "$("$SEEKSCOPE" dump --no-events "$WORK/out/xfs-agcount4.sst" | grep -c '^# zone ag ')" 4 "agcount=4 trace has four AG zones"
python3 -c 'import xml.dom.minidom, sys; xml.dom.minidom.parse(sys.argv[1])' "$WORK/out/agcount.svg"
ok $? "the SVG is well-formed"
grep -q 'XFS agcount=1' "$WORK/log" && grep -q 'pictures: ' "$WORK/log"; ok $? "summary and picture paths printed"
is "$(instances_left "$WORK"/out/xfs-agcount{1,4}.sst)" 0 "the recorders' tracing instances are gone"
# the script's scratch directory (/var/tmp/seekscope-demo.XXXXXX) is where the traces say the
# workload ran: no loop device may still be backed by an image in it
scratch=$("$SEEKSCOPE" dump -n "$WORK/out/xfs-agcount1.sst" | sed -n 's|.* named as \(.*\)/ag1/run$|\1|p')
[[ $scratch == /*/seekscope-demo.* && ! -e $scratch && -z $(loops_of "$scratch") ]]
ok $? "no loop device left, scratch directory removed (${scratch:-not named in the trace})"

mkdir -p "$WORK/nr" && chmod 777 "$WORK/nr" && chmod 755 "$WORK"
setpriv --reuid=65534 --regid=65534 --clear-groups env SEEKSCOPE="$SEEKSCOPE" \
	bash "$TOP/samples/agcount-compare.sh" -o "$WORK/nr/out" >"$WORK/nr.log" 2>&1
ok $? "without root: renders the shipped traces"
grep -q 'not running as root' "$WORK/nr.log"; ok $? "and says why"
[[ -s $WORK/nr/out/agcount.png ]]; ok $? "picture written from the shipped traces"
done_testing
