# SPDX-License-Identifier: GPL-2.0-or-later
# The TAP library of the shell tests (tests/lib/tap.h is the C one), and their cleanup.  Source
# it; a script announces its plan with `plan N` when it can count its assertions up front, and
# ends with `done_testing` (which prints the plan if none was announced).  tests/run-tests fails
# a script whose plan does not match the assertions it printed.  Everything registered with
# `on_exit` runs when the script exits, also on failure or interruption, in reverse order.
#
# Skips: `skip N WHY` for checks that do not apply here; `need KIND...` (whole script) and
# `skip_need N KIND...` for a missing prerequisite that CI provides — root, tracefs, a loop
# device, python3, a command tests/install-deps.sh installs.  Those say "prerequisite:" and
# tests/run-tests fails them under CI=true.
#
# Tests check only what they made: their files under WORK, their loop devices by backing file
# (loops_of), their tracing instances by name (instances_of PID, instances_left TRACE).
set -u
TAP_N=0
TAP_FAILED=0
TAP_PLAN=
CLEANUP=()
SEEKSCOPE=${SEEKSCOPE:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/seekscope}

plan() { TAP_PLAN=$1; echo "1..$1"; }
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
skip() {   # skip N WHY: N assertions that do not apply here
	local i
	for ((i = 0; i < $1; i++)); do TAP_N=$((TAP_N + 1)); echo "ok $TAP_N - # SKIP $2"; done
}
skip_all() { echo "1..0 # SKIP $*"; exit 0; }
done_testing() {
	if [[ -z $TAP_PLAN ]]; then
		echo "1..$TAP_N"
	elif [[ $TAP_PLAN -ne $TAP_N ]]; then
		diag "planned $TAP_PLAN assertions, ran $TAP_N"
		return 1
	fi
	[[ $TAP_FAILED -eq 0 ]]
}

# ---- prerequisites
# have KIND [NAME...]: KIND is ROOT, TRACEFS, LOOP (a free loop device), PYTHON3, MOUNTNS (a
# private mount namespace: root with CAP_SYS_ADMIN and unshare), or CMD with the commands'
# names.  Sets TAP_MISSING to what is missing.
have() {
	local c
	TAP_MISSING=
	case $1 in
	ROOT) [[ $(id -u) -eq 0 ]] || TAP_MISSING="root" ;;
	TRACEFS) tracefs_dir >/dev/null 2>&1 || TAP_MISSING="tracefs" ;;
	LOOP) [[ -e /dev/loop-control ]] && losetup -f >/dev/null 2>&1 || TAP_MISSING="a free loop device" ;;
	PYTHON3) command -v python3 >/dev/null || TAP_MISSING="python3" ;;
	MOUNTNS) unshare -m true 2>/dev/null || TAP_MISSING="a private mount namespace (unshare -m)" ;;
	CMD) shift; for c in "$@"; do command -v "$c" >/dev/null || TAP_MISSING+="${TAP_MISSING:+, }$c"; done ;;
	*) echo "have: unknown prerequisite $1" >&2; exit 2 ;;
	esac
	[[ -z $TAP_MISSING ]]
}
need() { have "$@" || skip_all "prerequisite: $TAP_MISSING not available"; }
# cached_lib REGEX EXE: the file the dynamic loader's cache names for a library whose soname
# matches REGEX (whole), of the architecture EXE runs with (its C library's: a multiarch machine
# has others); empty if there is none.
cached_lib() {
	local libc tag
	libc=$(ldd "$2" 2>/dev/null | awk '$1 == "libc.so.6" { print $3; exit }')
	[[ -n $libc ]] || return 0
	tag=$(ldconfig -p 2>/dev/null | awk -v p="$libc" '$1 == "libc.so.6" && $NF == p {
		t = $0; sub(/^[^(]*\(/, "", t); sub(/\).*$/, "", t); print t; exit }')
	[[ -n $tag ]] || return 0
	ldconfig -p 2>/dev/null | awk -v re="^($1)\$" -v tag="$tag" '$1 ~ re && $NF ~ /^\// {
		t = $0; sub(/^[^(]*\(/, "", t); sub(/\).*$/, "", t); if (t == tag) { print $NF; exit } }'
}

skip_need() {   # skip_need N KIND [NAME...]: N assertions skipped for a missing prerequisite
	local n=$1; shift
	have "$@" || true
	skip "$n" "prerequisite: ${TAP_MISSING:-$*} not available"
}

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

# loops_of PATH: the loop devices backed by the file PATH or by a file under the directory PATH
# (also once that file is deleted), one a line.
loops_of() {
	local f back
	for f in /sys/block/loop*/loop/backing_file; do
		[[ -r $f ]] || continue
		back=$(cat "$f" 2>/dev/null) || continue
		back=${back% (deleted)}
		[[ $back == "$1" || $back == "${1%/}"/* ]] && { f=${f#/sys/block/}; echo "/dev/${f%%/*}"; }
	done
}
# detach_loops_of PATH: detach the loop devices loops_of names (never one that another user
# attached after ours went away, as detaching by device name would).
detach_loops_of() {
	local l
	for l in $(loops_of "$1"); do losetup -d "$l"; done
}

# make_loop SIZE: a sparse image in WORK attached to a loop device; sets LOOP and LOOP_IMG.
make_loop() {
	LOOP_IMG=$(mktemp "$WORK/img.XXXXXX")
	truncate -s "$1" "$LOOP_IMG"
	on_exit "detach_loops_of '$LOOP_IMG'"
	LOOP=$(losetup -f --show "$LOOP_IMG") || return 1
}

# mount_fs DEV DIR [OPTIONS]: mount (with mount -o OPTIONS) and unmount at exit.
mount_fs() {
	mkdir -p "$2" && mount ${3:+-o "$3"} "$1" "$2" || return 1
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

# bg_run CMD...: run CMD in the background and wait for it, so that its pid is known (a
# recorder names its tracing instance after it): sets PID, returns CMD's status.  (Its standard
# input is /dev/null, as for every background command.)
bg_run() { "$@" & PID=$!; wait "$PID"; }
# instances_of PID...: how many tracing instances the recorders with these pids own (a recorder
# names its instance seekscope-PID-...).
instances_of() {
	local p i n=0 t; t=$(tracefs_dir)
	for p in "$@"; do
		for i in "$t/instances/seekscope-$p-"*; do [[ -e $i ]] && n=$((n + 1)); done
	done
	echo $n
}
# trace_instance TRACE: the name of the tracing instance that recorded TRACE.
trace_instance() {
	"$SEEKSCOPE" dump -n "$1" 2>/dev/null | sed -n 's/^# capture .*, instance \([^ ,]*\),.*/\1/p'
}
# instances_left TRACE...: how many of the instances that recorded these traces still exist; a
# trace that names no instance counts as one left, so the check cannot pass by not looking.
instances_left() {
	local f i n=0 t; t=$(tracefs_dir)
	for f in "$@"; do
		i=$(trace_instance "$f")
		[[ -z $i || -e $t/instances/$i ]] && n=$((n + 1))
	done
	echo $n
}

# A small source-tree-like archive made with the shell (no seekscope needed): N dirs x M files.
# on_pty OUT [--int SECONDS] CMD...: run CMD with stdin, stdout and stderr on a new pseudo-terminal
# (python3's pty: need PYTHON3), keep everything it wrote in OUT; with --int, send it SIGINT
# after SECONDS.  Returns CMD's status.
on_pty() {
	python3 - "$@" <<'PY'
import os, pty, signal, sys, time
out = sys.argv[1]; args = sys.argv[2:]; after = None
if args[0] == "--int":
    after = float(args[1]); args = args[2:]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(args[0], args)
data, start, sent = b"", time.time(), False
while True:
    if after is not None and not sent and time.time() - start > after:
        os.kill(pid, signal.SIGINT); sent = True
    try:
        import select
        r, _, _ = select.select([fd], [], [], 0.05)
        if r:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            data += chunk
    except OSError:
        break
_, st = os.waitpid(pid, 0)
open(out, "wb").write(data)
sys.exit(os.waitstatus_to_exitcode(st) if os.WIFEXITED(st) else 128 + os.WTERMSIG(st))
PY
}
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
