#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# seekscope record on real loop-backed XFS (agcount=4) and ext4: a real tracefs capture of an
# untar + sync.  Root only; everything created is removed at exit.
source "$(dirname "$0")/../lib/tap.sh"
need ROOT
need TRACEFS
need LOOP
need CMD mkfs.xfs xfs_db mkfs.ext4 debugfs dumpe2fs sfdisk partx
plan 36
make_workdir

make_tree_archive "$WORK/tree.tar" 40 40
before=$(tracing_state)

# ---- XFS, four allocation groups
make_loop 2G
XFS_LOOP=$LOOP
mkfs.xfs -q -f -d agcount=4 "$XFS_LOOP"
mount_fs "$XFS_LOOP" "$WORK/xfs"
"$SEEKSCOPE" record -o "$WORK/xfs.sst" -d "$WORK/xfs" -- \
	sh -c "tar xf '$WORK/tree.tar' -C '$WORK/xfs' && sync" 2>"$WORK/xfs.err"
ok $? "record of untar+sync on XFS exits 0"
grep -q '(0 lost)' "$WORK/xfs.err"; ok $? "recorder reports 0 lost events: $(tail -1 "$WORK/xfs.err")"
"$SEEKSCOPE" dump "$WORK/xfs.sst" > "$WORK/xfs.txt" 2>"$WORK/dump.err"
ok $? "the trace reads back"
[[ ! -s $WORK/dump.err ]]; ok $? "no truncation warning for a clean capture"
issues=$(awk '$4 == "issue"' "$WORK/xfs.txt" | wc -l)
[[ $issues -gt 50 ]]; ok $? "block_rq_issue events recorded ($issues)"
completes=$(awk '$4 == "complete"' "$WORK/xfs.txt" | wc -l)
[[ $completes -gt 50 ]]; ok $? "block_rq_complete events recorded ($completes)"
grep -q '^# device loop[0-9]* (7,' "$WORK/xfs.txt"; ok $? "device stored"
grep -q 'fs xfs' "$WORK/xfs.txt"; ok $? "filesystem type stored"
lost=$(sed -n 's/^# [0-9]* events, \([0-9]*\) lost$/\1/p' "$WORK/xfs.txt")
is "$lost" 0 "0 lost events stored in the file"
awk '$1 !~ /^#/ && NR > 1 && $1 < prev {bad = 1} $1 !~ /^#/ {prev = $1} END {exit bad}' "$WORK/xfs.txt"
ok $? "events are in time order"
grep -q '^# phase .* begin workload' "$WORK/xfs.txt" && grep -q '^# phase .* end workload' "$WORK/xfs.txt"
ok $? "workload phase markers stored"
grep -q "^# meta cmdline = sh -c tar xf" "$WORK/xfs.txt"; ok $? "command line stored"
# writes spread over the allocation groups (XFS rotates new directories across AGs)
ags_written=$(awk '
	/^# zone ag / { split($6, r, "+"); n++; s[n] = r[1]; e[n] = r[1] + r[2] }
	$1 !~ /^#/ && $4 == "issue" && $6 ~ /W/ && $7 != "-" {
		split($7, x, "+"); for (i = 1; i <= n; i++) if (x[1] >= s[i] && x[1] < e[i]) hit[i] = 1 }
	END { c = 0; for (i in hit) c++; print c }' "$WORK/xfs.txt")
[[ $ags_written -ge 3 ]]; ok $? "write I/Os in at least 3 of the 4 AGs ($ags_written)"
flushes=$(awk '$1 !~ /^#/ && $6 ~ /^F/ && $7 == "-"' "$WORK/xfs.txt" | wc -l)
[[ $flushes -gt 0 ]]; ok $? "flush requests recorded without a sector ($flushes)"
# zones against xfs_db
agcount=$(xfs_db -r -c 'sb 0' -c 'p agcount' "$XFS_LOOP" | awk '{print $3}')
agblocks=$(xfs_db -r -c 'sb 0' -c 'p agblocks' "$XFS_LOOP" | awk '{print $3}')
blocksize=$(xfs_db -r -c 'sb 0' -c 'p blocksize' "$XFS_LOOP" | awk '{print $3}')
logstart=$(xfs_db -r -c 'sb 0' -c 'p logstart' "$XFS_LOOP" | awk '{print $3}')
logdaddr=$(xfs_db -r -c "convert fsblock $logstart daddr" "$XFS_LOOP" | sed 's/.*(\([0-9]*\)).*/\1/')
is "$(grep -c '^# zone ag ' "$WORK/xfs.txt")" "$agcount" "one AG zone per allocation group ($agcount)"
ag2=$(awk '$4 == "AG2" {split($6, r, "+"); print r[1]}' <(grep '^# zone ag ' "$WORK/xfs.txt"))
is "$ag2" $((2 * agblocks * blocksize / 512)) "AG2 starts where xfs_db says"
logz=$(grep '^# zone log ' "$WORK/xfs.txt" | awk '{split($6, r, "+"); print r[1]}')
is "$logz" "$logdaddr" "log zone starts at xfs_db's daddr of sb_logstart"
is "$(instances_left "$WORK/xfs.sst")" 0 "the recorder's tracing instance is gone"
is "$(tracing_state)" "$before" "global tracing state unchanged"

# ---- ext4
make_loop 1G
EXT_LOOP=$LOOP
mkfs.ext4 -q -F "$EXT_LOOP"
mount_fs "$EXT_LOOP" "$WORK/ext4"
"$SEEKSCOPE" record -q -o "$WORK/ext4.sst" -d "$EXT_LOOP" -- \
	sh -c "tar xf '$WORK/tree.tar' -C '$WORK/ext4' && sync" 2>"$WORK/ext4.err"
ok $? "record on ext4 (device named directly) exits 0"
[[ ! -s $WORK/ext4.err ]]; ok $? "... -q: nothing on stderr ($(head -c 200 "$WORK/ext4.err"))"
"$SEEKSCOPE" dump "$WORK/ext4.sst" > "$WORK/ext4.txt"
writes=$(awk '$1 !~ /^#/ && $4 == "issue" && $6 ~ /W/' "$WORK/ext4.txt" | wc -l)
[[ $writes -gt 20 ]]; ok $? "ext4 writes recorded ($writes)"
grep -q 'fs ext4' "$WORK/ext4.txt"; ok $? "ext4 detected"
jstart=$(debugfs -R 'bmap <8> 0' "$EXT_LOOP" 2>/dev/null)
bsize=$(dumpe2fs -h "$EXT_LOOP" 2>/dev/null | awk '/^Block size:/ {print $3}')
jz=$(grep '^# zone journal ' "$WORK/ext4.txt" | head -1 | awk '{split($6, r, "+"); print r[1]}')
is "$jz" $((jstart * bsize / 512)) "journal zone starts at the journal inode's first block"
groups=$(dumpe2fs "$EXT_LOOP" 2>/dev/null | grep -c '^Group [0-9]*:')
is "$(grep -c '^# zone group ' "$WORK/ext4.txt")" "$groups" "one group zone per block group ($groups)"
jwrites=$(awk '
	/^# zone journal / { split($6, r, "+"); n++; s[n] = r[1]; e[n] = r[1] + r[2] }
	$1 !~ /^#/ && $4 == "issue" && $6 ~ /W/ && $7 != "-" {
		split($7, x, "+"); for (i = 1; i <= n; i++) if (x[1] >= s[i] && x[1] < e[i]) c++ }
	END { print c + 0 }' "$WORK/ext4.txt")
[[ $jwrites -gt 0 ]]; ok $? "journal writes land in the journal zone ($jwrites)"

# ---- a partition: events carry the whole disk's sectors; zones are shifted by its start
make_loop 1G
PART_DISK=$LOOP
printf 'label: dos\nstart=2048, size=409600, type=83\nstart=413696, type=83\n' | sfdisk -q "$PART_DISK" >/dev/null 2>&1
partx -a "$PART_DISK" 2>/dev/null || losetup -P "$PART_DISK" 2>/dev/null || true
udevadm settle 2>/dev/null || sleep 1
P2=${PART_DISK}p2
if [[ -b $P2 ]]; then
	mkfs.xfs -q -f -d agcount=2 "$P2"
	mount_fs "$P2" "$WORK/part"
	"$SEEKSCOPE" record -q -o "$WORK/part.sst" -d "$WORK/part" -- \
		sh -c "tar xf '$WORK/tree.tar' -C '$WORK/part' && sync" 2>/dev/null
	ok $? "record on a partition"
	"$SEEKSCOPE" dump "$WORK/part.sst" > "$WORK/part.txt"
	grep -q "^# device ${PART_DISK#/dev/} (7,[0-9]*) .* partition ${P2#/dev/} start 413696 " "$WORK/part.txt"
	ok $? "the whole disk is traced, with the partition's start: $(grep '^# device' "$WORK/part.txt")"
	ag0=$(awk '$1 == "#" && $2 == "zone" && $4 == "AG0" {split($6, r, "+"); print r[1]}' "$WORK/part.txt")
	is "$ag0" 413696 "zones are in whole-disk sectors (AG0 at the partition start)"
	below=$(awk '$1 !~ /^#/ && $4 == "issue" && $7 != "-" {split($7, x, "+"); if (x[1] < 413696) n++} END {print n + 0}' "$WORK/part.txt")
	is "$below" 0 "no I/O below the partition start"
	inside=$(awk '$1 !~ /^#/ && $4 == "issue" && $7 != "-" {split($7, x, "+"); if (x[1] >= 413696) n++} END {print n + 0}' "$WORK/part.txt")
	[[ $inside -gt 20 ]]; ok $? "I/O lands inside the partition ($inside)"
	umount -l "$WORK/part"
	partx -d "$PART_DISK" 2>/dev/null
else
	skip 5 "no partition device nodes for loop devices here"
fi

# The workload inherits the caller's descriptors but none of the recorder's: no trace pipe (it
# could read the trace, and while held open the instance cannot be removed), no trace file.
"$SEEKSCOPE" record -q -o "$WORK/fds.sst" -d "$XFS_LOOP" -- \
	sh -c 'for f in /proc/$$/fd/*; do readlink "$f"; done' 9</dev/null >"$WORK/fds.txt" 2>"$WORK/fds.err"
ok $? "record of a workload listing its descriptors exits 0"
! grep -E '/tracing/|fds\.sst' "$WORK/fds.txt"
ok $? "the workload holds no trace pipe or trace file: $(tr '\n' ' ' <"$WORK/fds.txt")"
grep -qx /dev/null "$WORK/fds.txt"; ok $? "... and still the descriptor (9) its caller gave it"

traces=("$WORK"/{ext4,fds}.sst); [[ -e $WORK/part.sst ]] && traces+=("$WORK/part.sst")
is "$(instances_left "${traces[@]}")" 0 "the tracing instances of the other recordings are gone"
is "$(tracing_state)" "$before" "global tracing state unchanged"
done_testing
