# SPDX-License-Identifier: GPL-2.0-or-later
# TAP helpers and cleanup for the shell tests.  Source it; every test script then calls
# `done_testing` at the end.  Everything registered with `on_exit` runs when the script
# exits, also on failure or interruption, in reverse order.
set -u
TAP_N=0
TAP_FAILED=0
CLEANUP=()
SEEKSCOPE=${SEEKSCOPE:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/seekscope}

ok() {   # ok CONDITION-EXIT-STATUS DESCRIPTION
	local st=$1; shift
	TAP_N=$((TAP_N + 1))
	if [[ $st -eq 0 ]]; then echo "ok $TAP_N - $*"; else echo "not ok $TAP_N - $*"; TAP_FAILED=$((TAP_FAILED + 1)); fi
	return "$st"
}
check() {   # check DESCRIPTION -- COMMAND...   (passes when COMMAND succeeds)
	local d=$1; shift; [[ ${1:-} == -- ]] && shift
	"$@"; ok $? "$d"
}
is() {   # is GOT WANT DESCRIPTION
	if [[ "$1" == "$2" ]]; then ok 0 "$3"; else ok 1 "$3"; echo "#   got '$1', want '$2'"; fi
}
diag() { echo "# $*"; }
skip_all() { echo "1..0 # SKIP $*"; exit 0; }
need_root() { [[ $(id -u) -eq 0 ]] || skip_all "needs root"; }
done_testing() { echo "1..$TAP_N"; [[ $TAP_FAILED -eq 0 ]]; }

on_exit() { CLEANUP+=("$*"); }
run_cleanup() {
	local i
	for ((i = ${#CLEANUP[@]} - 1; i >= 0; i--)); do eval "${CLEANUP[$i]}" >/dev/null 2>&1 || true; done
	CLEANUP=()
}
trap run_cleanup EXIT
trap 'exit 130' INT TERM

# make_workdir: a fresh directory removed at exit; sets WORK.
make_workdir() {
	WORK=$(mktemp -d /tmp/ss-test.XXXXXX)
	on_exit "rm -rf '$WORK'"
}

# make_loop SIZE: a sparse image in WORK attached to a loop device; sets LOOP.
make_loop() {
	local img
	img=$(mktemp "$WORK/img.XXXXXX")
	truncate -s "$1" "$img"
	LOOP=$(losetup -f --show "$img") || return 1
	on_exit "losetup -d '$LOOP'"
}

# mount_fs DEV DIR: mount and unmount at exit.
mount_fs() {
	mkdir -p "$2" && mount "$1" "$2" || return 1
	on_exit "umount -l '$2'"
}

tracefs_dir() {
	local d
	for d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
		[[ -e $d/instances ]] && { echo "$d"; return; }
	done
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null && echo /sys/kernel/tracing
}

# Global tracing state that a recorder must never change.
tracing_state() {
	local t; t=$(tracefs_dir)
	for f in tracing_on trace_clock buffer_size_kb current_tracer set_event \
		events/block/block_rq_issue/enable events/block/block_rq_issue/filter \
		events/block/block_rq_complete/enable events/block/block_rq_complete/filter; do
		printf '%s=%s\n' "$f" "$(cat "$t/$f" 2>/dev/null | tr '\n' ' ')"
	done
}

# Instances left by recorders that are gone (a recorder of another session running at the same
# time is not a leftover of ours).
seekscope_instances() {
	local i pid n=0
	for i in $(ls "$(tracefs_dir)/instances" 2>/dev/null | grep '^seekscope-'); do
		pid=${i#seekscope-}; pid=${pid%%-*}
		kill -0 "$pid" 2>/dev/null || n=$((n + 1))
	done
	echo $n
}

# A small source-tree-like archive made with the shell (no seekscope needed): N dirs x M files.
make_tree_archive() {   # make_tree_archive OUT DIRS FILES_PER_DIR
	local src=$WORK/src d f
	mkdir -p "$src"
	for ((d = 0; d < $2; d++)); do
		mkdir -p "$src/dir$d/sub"
		for ((f = 0; f < $3; f++)); do
			head -c $(( (d * 7919 + f * 104729) % 24000 + 200 )) /dev/urandom > "$src/dir$d/sub/file$f.c"
		done
	done
	tar cf "$1" -C "$src" .
	rm -rf "$src"
}
