#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# seekscope list and record -d IMAGE: our own loop device is listed with the size blockdev(8)
# gives, its mounted filesystem and mount point and its backing file, in the table and in
# --json; record -d IMAGE traces the loop device the image is attached to, refuses an image
# attached to none (exit 2, naming --host-disk, nothing recorded) and with --host-disk traces the
# disk holding the file, as findmnt/lsblk name it, and refuses an image attached twice.  Root only; everything created is removed.
source "$(dirname "$0")/../lib/tap.sh"
need ROOT
need TRACEFS
need LOOP
need PYTHON3
need CMD mkfs.ext4 blockdev findmnt lsblk
plan 15
make_workdir
make_loop 300M
mkfs.ext4 -q -F "$LOOP"
mount_fs "$LOOP" "$WORK/mnt"
name=${LOOP#/dev/}
bytes=$(blockdev --getsize64 "$LOOP")

"$SEEKSCOPE" list >"$WORK/list" 2>"$WORK/err"
ok $? "list: exit 0 ($(cat "$WORK/err"))"
head -1 "$WORK/list" | grep -qx 'recording here: possible' &&
	sed -n 2p "$WORK/list" | grep -qx "  root, tracefs $(tracefs_dir), kernel lockdown .*"
ok $? "... recording is possible here: root, tracefs at $(tracefs_dir)"
row=$(grep "^$name " "$WORK/list")
ok $? "... lists our $name: $row"
[[ $row == *" $(lsblk -dno MAJ:MIN "$LOOP" | tr -d ' ') "* ]]; ok $? "... with lsblk's MAJ:MIN"
[[ $row == *" 300.0 MiB "* ]]; ok $? "... its size, 300.0 MiB"
[[ $row == *" ext4 "*" $WORK/mnt "*" $LOOP_IMG" ]]; ok $? "... ext4 mounted on our mount point, backed by our image"

"$SEEKSCOPE" list --json >"$WORK/list.json"
got=$(python3 - "$WORK/list.json" "$name" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
d = [d for d in j["devices"] if d["name"] == sys.argv[2]][0]
print(j["recording_possible"], j["root"], j["tracefs"] is not None, d["bytes"], d["sectors"] * 512, d["fstype"], d["mountpoint"],
      d["backing_file"], d["partition"])
PY
)
is "$got" "True True True $bytes $bytes ext4 $WORK/mnt $LOOP_IMG False" "--json: the same, size as blockdev --getsize64"

# -d IMAGE
"$SEEKSCOPE" record -d "$LOOP_IMG" -o "$WORK/img.sst" -- sync 2>"$WORK/err"
ok $? "record -d IMAGE (attached to $name)"
grep -q "is attached to $name: tracing $LOOP" "$WORK/err"; ok $? "... says it traces $LOOP"
"$SEEKSCOPE" dump -n "$WORK/img.sst" | grep -q "^# device $name ($(lsblk -dno MAJ:MIN "$LOOP" | tr -d ' ' | tr : ,)) "
ok $? "... and the trace's device is $name"

truncate -s 64M "$WORK/free.img"
"$SEEKSCOPE" record -d "$WORK/free.img" -o "$WORK/free.sst" -- true 2>"$WORK/err"; rc=$?
[[ $rc -eq 2 && $(wc -l <"$WORK/err") -eq 1 && ! -e $WORK/free.sst ]]; ok $? "an image attached to no loop device: exit 2, one line, no trace"
grep -q -- '--host-disk' "$WORK/err"; ok $? "... which names --host-disk: $(cat "$WORK/err")"
if [[ $(findmnt -no FSTYPE -T "$WORK") == tmpfs ]]; then
	skip 3 "$WORK is on tmpfs: no host disk"
else
	"$SEEKSCOPE" record -q --host-disk -d "$WORK/free.img" -o "$WORK/mnt/host.sst" -- true
	ok $? "--host-disk: recorded"
	src=$(findmnt -no SOURCE -T "$WORK")
	disk=$(lsblk -no PKNAME "$src" | head -1)
	want=$(lsblk -dno MAJ:MIN "${disk:+/dev/$disk}${disk:-$src}" | tr -d ' ' | tr : ,)
	"$SEEKSCOPE" dump -n "$WORK/mnt/host.sst" | grep -q "^# device [^ ]* ($want) "
	ok $? "... the disk holding the file ($want, lsblk)"
	losetup -f --show "$WORK/free.img" >/dev/null && losetup -f --show "$WORK/free.img" >/dev/null
	on_exit "detach_loops_of '$WORK/free.img'"
	"$SEEKSCOPE" record -d "$WORK/free.img" -o "$WORK/two.sst" -- true 2>"$WORK/err"
	[[ $? -eq 2 && ! -e $WORK/two.sst ]] && grep -q 'several loop devices' "$WORK/err"
	ok $? "an image attached twice: exit 2, names them: $(cat "$WORK/err")"
fi
done_testing
