#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The sample scenarios run end to end: the agcount comparison as root (recorded on loop
# devices) and, as an unprivileged user, from the shipped traces.
source "$(dirname "$0")/../lib/tap.sh"
need_root
make_workdir
tracefs_dir >/dev/null || skip_all "no tracefs"
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
is "$(seekscope_instances)" 0 "no tracing instance left"
is "$(losetup -a | grep -c seekscope-demo)" 0 "no loop device left"

mkdir -p "$WORK/nr" && chmod 777 "$WORK/nr" && chmod 755 "$WORK"
setpriv --reuid=65534 --regid=65534 --clear-groups env SEEKSCOPE="$SEEKSCOPE" \
	bash "$TOP/samples/agcount-compare.sh" -o "$WORK/nr/out" >"$WORK/nr.log" 2>&1
ok $? "without root: renders the shipped traces"
grep -q 'not running as root' "$WORK/nr.log"; ok $? "and says why"
[[ -s $WORK/nr/out/agcount.png ]]; ok $? "picture written from the shipped traces"
done_testing
