#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The seekwatcher picture: extract the same source tree (then sync) onto XFS with agcount=1
# and with agcount=4, record both with seekscope, and draw them side by side.
#
#   samples/agcount-compare.sh [-o OUTDIR] [--files N] [--age] [--archive FILE]
#
# As root with tracefs: creates two loop-backed 2 GiB XFS filesystems, records, renders
# OUTDIR/agcount.png and .svg and prints the summary.  Without root or tracefs it renders the
# traces shipped in samples/traces instead, and says why.  Everything it creates is removed.
source "$(dirname "$0")/lib.sh"
OUT=out FILES=6000 AGE=0 ARCHIVE=
while [[ $# -gt 0 ]]; do
	case $1 in
	-o) OUT=$2; shift 2 ;;
	--files) FILES=$2; shift 2 ;;
	--age) AGE=1; shift ;;
	--archive) ARCHIVE=$2; shift 2 ;;
	-h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) say "usage: $0 [-o OUTDIR] [--files N] [--age] [--archive FILE]"; exit 2 ;;
	esac
done
mkdir -p "$OUT"
A1=$OUT/xfs-agcount1.sst A4=$OUT/xfs-agcount4.sst
if ! can_record; then
	say "seekscope: cannot record here: $WHY."
	say "seekscope: rendering the traces shipped in samples/traces instead."
	A1=$HERE/traces/xfs-agcount1.sst A4=$HERE/traces/xfs-agcount4.sst
else
	SCRATCH=$(mktemp -d /var/tmp/seekscope-demo.XXXXXX)
	on_exit "rm -rf '$SCRATCH'"
	if [[ -z $ARCHIVE ]]; then
		ARCHIVE=$OUT/tree-$FILES.tar
		make_archive "$ARCHIVE" "$FILES" || exit 1
	fi
	for ag in 1 4; do
		extra=(); [[ $ag -eq 1 ]] && extra=(--unsupported)   # xfsprogs 6.1 refuses agcount=1 otherwise
		new_fs ag$ag 2G mkfs.xfs -q -f "${extra[@]}" -d agcount=$ag || { say "mkfs.xfs agcount=$ag failed"; exit 1; }
		[[ $AGE -eq 1 ]] && { age_fs "$SCRATCH/ag$ag" "$ARCHIVE" || exit 1; }
		mkdir -p "$SCRATCH/ag$ag/run"
		say "recording extraction + sync on XFS agcount=$ag"
		"$SEEKSCOPE" record -q -o "$OUT/xfs-agcount$ag.sst" --drop-caches \
			--untar "$ARCHIVE" --into "$SCRATCH/ag$ag/run" || exit 1
	done
fi
"$SEEKSCOPE" plot "$A1" "$A4" -l "XFS agcount=1" -l "XFS agcount=4" \
	-T "Extract + sync of the same tree: one allocation group vs four" -o "$OUT/agcount.png" || exit 1
"$SEEKSCOPE" plot "$A1" "$A4" -l "XFS agcount=1" -l "XFS agcount=4" \
	-T "Extract + sync of the same tree: one allocation group vs four" -o "$OUT/agcount.svg" || exit 1
"$SEEKSCOPE" report "$A1" "$A4"
say ""
say "pictures: $OUT/agcount.png and $OUT/agcount.svg (traces: $A1, $A4)"
