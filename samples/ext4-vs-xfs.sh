#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The same extraction + sync on ext4 and on XFS (default mkfs options), side by side.
#
#   samples/ext4-vs-xfs.sh [-o OUTDIR] [--files N] [--fsync none|file|end] [--archive FILE]
#
# As root with tracefs: two loop-backed 2 GiB filesystems, records, renders
# OUTDIR/ext4-vs-xfs.png and .svg and prints the summary.  Everything it creates is removed.
source "$(dirname "$0")/lib.sh"
OUT=out FILES=6000 FSYNC=end ARCHIVE=
while [[ $# -gt 0 ]]; do
	case $1 in
	-o) OUT=$2; shift 2 ;;
	--files) FILES=$2; shift 2 ;;
	--fsync) FSYNC=$2; shift 2 ;;
	--archive) ARCHIVE=$2; shift 2 ;;
	-h|--help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) say "usage: $0 [-o OUTDIR] [--files N] [--fsync MODE] [--archive FILE]"; exit 2 ;;
	esac
done
can_record || { say "seekscope: cannot record here: $WHY."; exit 1; }
mkdir -p "$OUT"
SCRATCH=$(mktemp -d /var/tmp/seekscope-demo.XXXXXX)
on_exit "rm -rf '$SCRATCH'"
if [[ -z $ARCHIVE ]]; then
	ARCHIVE=$OUT/tree-$FILES.tar
	make_archive "$ARCHIVE" "$FILES" || exit 1
fi
new_fs ext4 2G mkfs.ext4 -q -F || exit 1
new_fs xfs 2G mkfs.xfs -q -f || exit 1
for fs in ext4 xfs; do
	mkdir -p "$SCRATCH/$fs/run"
	say "recording extraction (--fsync=$FSYNC) on $fs"
	"$SEEKSCOPE" record -q -o "$OUT/$fs.sst" --drop-caches --fsync="$FSYNC" \
		--untar "$ARCHIVE" --into "$SCRATCH/$fs/run" || exit 1
done
"$SEEKSCOPE" plot "$OUT/ext4.sst" "$OUT/xfs.sst" -l ext4 -l XFS \
	-T "Extract (--fsync=$FSYNC) of the same tree: ext4 vs XFS" -o "$OUT/ext4-vs-xfs.png" || exit 1
"$SEEKSCOPE" plot "$OUT/ext4.sst" "$OUT/xfs.sst" -l ext4 -l XFS \
	-T "Extract (--fsync=$FSYNC) of the same tree: ext4 vs XFS" -o "$OUT/ext4-vs-xfs.svg" || exit 1
"$SEEKSCOPE" report "$OUT/ext4.sst" "$OUT/xfs.sst"
say ""
say "pictures: $OUT/ext4-vs-xfs.png and $OUT/ext4-vs-xfs.svg"
