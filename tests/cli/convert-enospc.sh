#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# seekscope convert onto a full device keeps the writer's errno to the message: "No space left
# on device", exit 1, no output left behind.  /dev/full for every user (the file header fails);
# as root, a 1 MiB tmpfs of our own, full but for one page, so that the trace's head (devices,
# 65 zones, meta: more than a page) fails, then one with room for the head, so the events fail.
# Prints TAP.
source "$(dirname "$0")/../lib/tap.sh"
plan 11
make_workdir
W=$WORK
GEN=${GEN_TRACE:-$(dirname "$0")/../../build/tests/tools/gen-trace}

"$GEN" -o "$W/zones.sst" -n 200 -a 64 -f xfs >/dev/null && "$GEN" -o "$W/big.sst" -n 20000 >/dev/null
ok $? "traces generated (64 AGs; 20000 I/Os)"

# enospc NAME OUT: exit 1, one line naming OUT and ENOSPC
enospc() {
	"$SEEKSCOPE" convert "$W/$1" -o "$2" >"$W/out" 2>"$W/err"
	is $? 1 "$1 -> $2: exit 1"
	[[ ! -s $W/out && $(wc -l <"$W/err") -eq 1 ]] &&
		grep -qxF "seekscope convert: $2: No space left on device" "$W/err"
	ok $? "... one line: $(cat "$W/err")"
}

enospc zones.sst /dev/full
[[ -c /dev/full ]]; ok $? "... /dev/full is still there"

have ROOT || { skip_need 7 ROOT; done_testing; exit; }
mkdir "$W/mnt" && mount -t tmpfs -o size=1m,mode=0700 seekscope-test "$W/mnt" || {
	ok 1 "mount a 1 MiB tmpfs"; done_testing; exit; }
on_exit "umount '$W/mnt'"
# fill it, then free the last page: the file header fits, the head does not
dd if=/dev/zero of="$W/mnt/fill" bs=4096 2>/dev/null
truncate -s -4096 "$W/mnt/fill"
enospc zones.sst "$W/mnt/out.sst"
[[ ! -e $W/mnt/out.sst ]]; ok $? "... no partial output left"
# room for the head, not for 20000 I/Os' events
rm "$W/mnt/fill" && dd if=/dev/zero of="$W/mnt/fill" bs=4096 count=200 2>/dev/null
enospc big.sst "$W/mnt/out.sst"
[[ ! -e $W/mnt/out.sst ]]; ok $? "... no partial output left"
rm "$W/mnt/fill"
"$SEEKSCOPE" convert "$W/zones.sst" -o "$W/mnt/out.sst" 2>"$W/err"
ok $? "with room, the same conversion succeeds $(cat "$W/err")"

done_testing
