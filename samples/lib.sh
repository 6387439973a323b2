# SPDX-License-Identifier: GPL-2.0-or-later
# Shared pieces of the sample scenarios: loop-backed filesystems that are always cleaned up,
# the archive to extract, and the fallback to shipped traces without root or tracefs.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=$(cd "$HERE/.." && pwd)
SEEKSCOPE=${SEEKSCOPE:-$TOP/seekscope}
CLEANUP=()
on_exit() { CLEANUP+=("$*"); }
cleanup() {
	local i
	for ((i = ${#CLEANUP[@]} - 1; i >= 0; i--)); do eval "${CLEANUP[$i]}" >/dev/null 2>&1 || true; done
}
trap cleanup EXIT
trap 'exit 130' INT TERM
say() { printf '%s\n' "$*" >&2; }

# can_record: root and a usable tracefs; otherwise prints why and fails.
can_record() {
	if [[ $(id -u) -ne 0 ]]; then
		WHY="not running as root (loop devices and tracefs need root)"
	elif ! { [[ -e /sys/kernel/tracing/instances ]] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null; }; then
		WHY="tracefs is not available on this kernel"
	elif ! losetup -f >/dev/null 2>&1; then
		WHY="no loop device available"
	else
		return 0
	fi
	return 1
}

# new_fs NAME SIZE MKFS...: a loop-backed filesystem mounted at $SCRATCH/NAME; sets DEV.
new_fs() {
	local name=$1 size=$2; shift 2
	local img=$SCRATCH/$name.img
	truncate -s "$size" "$img"
	DEV=$(losetup -f --show "$img") || return 1
	on_exit "losetup -d $DEV"
	"$@" "$DEV" >/dev/null || return 1
	mkdir -p "$SCRATCH/$name"
	mount "$DEV" "$SCRATCH/$name" || return 1
	on_exit "umount -l '$SCRATCH/$name'"
}

# age_fs DIR ARCHIVE: the classic ageing — fill with copies of the tree, delete every other one.
age_fs() {
	local dir=$1 archive=$2 i
	say "ageing $dir: extracting copies, then deleting half of them"
	for i in 1 2 3 4 5 6; do
		mkdir -p "$dir/age$i" && tar xf "$archive" -C "$dir/age$i" || return 1
	done
	sync
	for i in 2 4 6; do rm -rf "$dir/age$i"; done
	sync
}

# archive PATH FILES: a deterministic source-tree-like archive (made once, then reused).
make_archive() {
	[[ -s $1 ]] && return 0
	say "generating $1 ($2 files)"
	"$SEEKSCOPE" mkarchive -o "$1" --files "$2" --dirs $(( $2 / 15 )) --seed 1 >/dev/null
}
