#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The agcount study: what XFS's allocation-group count costs on a single spinning disk.  XFS with
# agcount 1, 2, 4, 8 and 16 and ext4, each on a fresh loop-backed filesystem of the same size,
# extract the same tree and sync, then (remounted: a cold cache) rm -rf it and sync, under
# seekscope record.  Each capture is replayed through the hdd7200 disk model
# (docs/disk-model.md) by `seekscope report --disk`.
#
#   samples/agcount-study.sh [-o OUTDIR] [--files N] [--archive FILE] [--age] [--repeat N]
#                            [--agcounts "1 2 4 8 16"] [--no-ext4] [--size SIZE] [--disk MODEL]
#
# Writes OUTDIR/study.txt (the table: seeks, seeks/s, measured time and the modelled time with its
# seek/rotation/transfer/overhead split per phase, mean and min-max over the repeats; then the
# seek causes: which share of the seeks went data -> data between AGs, to the log, ...), study.tsv
# (the same, tab-separated), study.jsonl (report --json of every capture), agcount-study.png
# (the figure) and traces/ (the captures).  Root and tracefs needed; every filesystem, loop device
# and image it creates is removed.  Default: the generated tree (6000 files, ~75 MB), a few
# minutes; --archive takes any tarball, e.g. Debian's kernel source
# (apt-get install linux-source-6.1; /usr/src/linux-source-6.1.tar.xz).  --age fills each
# filesystem with six copies of the tree and deletes every other one first.
source "$(dirname "$0")/lib.sh"
OUT=out/study FILES=6000 ARCHIVE= AGE=0 REPEAT=1 AGCOUNTS="1 2 4 8 16" EXT4=1 SIZE=2G DISK=hdd7200
usage() { say "usage: $0 [-o OUTDIR] [--files N] [--archive FILE] [--age] [--repeat N] [--agcounts LIST] [--no-ext4] [--size SIZE] [--disk MODEL]"; exit 2; }
while [[ $# -gt 0 ]]; do
	case $1 in
	-o) OUT=${2:?}; shift 2 ;;
	--files) FILES=${2:?}; shift 2 ;;
	--archive) ARCHIVE=${2:?}; shift 2 ;;
	--age) AGE=1; shift ;;
	--repeat) REPEAT=${2:?}; shift 2 ;;
	--agcounts) AGCOUNTS=${2:?}; shift 2 ;;
	--no-ext4) EXT4=0; shift ;;
	--size) SIZE=${2:?}; shift 2 ;;
	--disk) DISK=${2:?}; shift 2 ;;
	-h|--help) sed -n '3,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) usage ;;
	esac
done
[[ $REPEAT =~ ^[1-9][0-9]*$ && $FILES =~ ^[1-9][0-9]*$ ]] || usage
for ag in $AGCOUNTS; do [[ $ag =~ ^[1-9][0-9]*$ ]] || usage; done
FIGURE=${STUDY_FIGURE:-$TOP/build/tests/tools/study-figure}
if ! can_record; then
	say "agcount-study: cannot record here: $WHY."
	exit 1
fi
for c in mkfs.xfs mkfs.ext4 python3; do
	command -v $c >/dev/null || { say "agcount-study: $c is needed (tests/install-deps.sh check)"; exit 1; }
done
[[ -x $FIGURE ]] || make -s -C "$TOP" "${FIGURE#$TOP/}" >&2 || { say "agcount-study: cannot build $FIGURE"; exit 1; }
# a bad --disk is refused before anything is recorded
"$SEEKSCOPE" report --disk "$DISK" --help >/dev/null || exit 2

mkdir -p "$OUT/traces"
SCRATCH=$(mktemp -d "${TMPDIR:-/var/tmp}/seekscope-study.XXXXXX")
on_exit "rm -rf '$SCRATCH'"
if [[ -z $ARCHIVE ]]; then
	ARCHIVE=$OUT/tree-$FILES.tar
	make_archive "$ARCHIVE" "$FILES" || exit 1
fi
# read once, so that every configuration extracts from the page cache, the first one too
cat "$ARCHIVE" >/dev/null || { say "agcount-study: cannot read $ARCHIVE"; exit 1; }

CONFIGS=()
for ag in $AGCOUNTS; do CONFIGS+=("xfs-ag$ag"); done
[[ $EXT4 -eq 1 ]] && CONFIGS+=(ext4)

# run CONFIG REPEAT: a fresh filesystem (optionally aged); capture 1: extract + sync; then a
# remount, so that rm -rf starts from a cold cache like the delete of a tree written long ago;
# capture 2: rm -rf + sync (of this filesystem only); then everything is removed.
run() {
	local cfg=$1 r=$2 mkfs dir
	case $cfg in
	xfs-ag1) mkfs=(mkfs.xfs -q -f --unsupported -d agcount=1) ;;   # xfsprogs 6.1 refuses agcount=1 otherwise
	xfs-ag*) mkfs=(mkfs.xfs -q -f -d agcount=${cfg#xfs-ag}) ;;
	ext4) mkfs=(mkfs.ext4 -q -F) ;;
	esac
	new_fs "$cfg" "$SIZE" "${mkfs[@]}" || { say "agcount-study: ${mkfs[*]} failed"; return 1; }
	dir=$SCRATCH/$cfg
	if [[ $AGE -eq 1 ]]; then age_fs "$dir" "$ARCHIVE" || return 1; fi
	mkdir -p "$dir/run"
	say "recording $cfg, run $r of $REPEAT: extract + sync, then rm -rf + sync"
	"$SEEKSCOPE" record -q -o "$OUT/traces/$cfg-r$r-extract.sst" --untar "$ARCHIVE" \
		--into "$dir/run" || return 1
	umount "$dir" && mount "$DEV" "$dir" || return 1
	"$SEEKSCOPE" record -q -o "$OUT/traces/$cfg-r$r-rm.sst" -d "$DEV" -- \
		sh -c 'rm -rf "$1/run/1" && sync -f "$1"' sh "$dir" || return 1
	umount "$dir" && losetup -d "$DEV" && rm -f "$SCRATCH/$cfg.img"
}
TRACES=()
for ((r = 1; r <= REPEAT; r++)); do
	for cfg in "${CONFIGS[@]}"; do
		run "$cfg" "$r" || exit 1
		TRACES+=("$OUT/traces/$cfg-r$r-extract.sst" "$OUT/traces/$cfg-r$r-rm.sst")
	done
done

"$SEEKSCOPE" report --json --disk "$DISK" "${TRACES[@]}" >"$OUT/study.jsonl" || exit 1
python3 "$HERE/agcount-study.py" --title "$(basename "$ARCHIVE"), $SIZE filesystems$([[ $AGE -eq 1 ]] && echo ", aged")" \
	"$OUT/study.jsonl" "$OUT/study.tsv" >"$OUT/study.txt" || exit 1
"$FIGURE" -o "$OUT/agcount-study.png" "$OUT/study.tsv" || exit 1
cat "$OUT/study.txt"
say ""
say "table: $OUT/study.txt ($OUT/study.tsv); figure: $OUT/agcount-study.png; captures: $OUT/traces/"
