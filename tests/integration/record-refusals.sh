#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# seekscope record refuses what it can check before it starts: a missing or unreadable archive,
# an existing DIR/1, a read-only or "/" target, an output through a symbolic link or in a
# read-only directory, a command that cannot run, a device that does not resolve.  Each refusal
# is one line and a non-zero exit, and leaves nothing: no trace file (an old one of that name
# untouched), no tracing instance.  Root only; everything created is removed at exit.
source "$(dirname "$0")/../lib/tap.sh"
need ROOT
need TRACEFS
need LOOP
need CMD mkfs.ext4
plan 19
make_workdir
make_loop 64M
mkfs.ext4 -q -F "$LOOP"
mount_fs "$LOOP" "$WORK/mnt"
"$SEEKSCOPE" mkarchive -o "$WORK/tree.tar" --files 40 --dirs 5 >/dev/null
echo "not an archive" > "$WORK/junk.tar"

# refuse STATUS WHAT OUTPUT CMD...: CMD must exit with STATUS after one line, and leave neither
# OUTPUT nor a tracing instance of its own
refuse() {
	local want=$1 what=$2 out=$3 st msg; shift 3
	bg_run "$@" >"$WORK/refused.out" 2>&1; st=$?
	msg=$(cat "$WORK/refused.out")
	[[ $st -eq $want && $(wc -l < "$WORK/refused.out") -eq 1 ]]
	ok $? "$what: exit $st (want $want), one line: $msg"
	[[ ! -e $out && ! -L $out && $(instances_of "$PID") -eq 0 ]]
	ok $? "$what: no trace file, no tracing instance"
}
T=$WORK/t.sst
refuse 1 "missing archive" "$T" \
	"$SEEKSCOPE" record -o "$T" --untar "$WORK/none.tar" --into "$WORK/mnt"
refuse 1 "unreadable archive" "$T" \
	"$SEEKSCOPE" record -o "$T" --untar "$WORK/junk.tar" --into "$WORK/mnt"
mkdir "$WORK/mnt/1"
refuse 1 "existing DIR/1" "$T" \
	"$SEEKSCOPE" record -o "$T" --untar "$WORK/tree.tar" --into "$WORK/mnt"
rmdir "$WORK/mnt/1"
mkdir "$WORK/mnt/r"
mount -o remount,ro "$WORK/mnt"
refuse 1 "read-only target" "$T" \
	"$SEEKSCOPE" record -o "$T" --untar "$WORK/tree.tar" --into "$WORK/mnt/r"
refuse 1 "output in a read-only directory" "$WORK/mnt/t.sst" \
	"$SEEKSCOPE" record -o "$WORK/mnt/t.sst" -d "$LOOP" -- true
mount -o remount,rw "$WORK/mnt"
refuse 1 "--into /" "$T" \
	"$SEEKSCOPE" record -o "$T" --untar "$WORK/tree.tar" --into / -d "$LOOP"
refuse 127 "command that cannot run" "$T" \
	"$SEEKSCOPE" record -o "$T" -d "$LOOP" -- /nonexistent/cmd
refuse 1 "device that does not resolve" "$T" \
	"$SEEKSCOPE" record -o "$T" -d "$WORK/nodev" -- true
# the output through a planted link: the link stays, its target is not created
ln -s "$WORK/target.sst" "$WORK/link.sst"
bg_run "$SEEKSCOPE" record -o "$WORK/link.sst" -d "$LOOP" -- true >"$WORK/refused.out" 2>&1
st=$?
[[ $st -eq 1 && $(cat "$WORK/refused.out") == *"symbolic link"* ]]
ok $? "output through a symbolic link: exit $st: $(cat "$WORK/refused.out")"
[[ -L $WORK/link.sst && ! -e $WORK/target.sst && $(instances_of "$PID") -eq 0 ]]
ok $? "output through a symbolic link: link kept, no target, no instance"

# an old trace of the same name survives a refused run
"$SEEKSCOPE" record -q -o "$T" -d "$LOOP" -- true 2>/dev/null
cp "$T" "$WORK/old.sst"
"$SEEKSCOPE" record -o "$T" --untar "$WORK/none.tar" --into "$WORK/mnt" 2>/dev/null
cmp -s "$T" "$WORK/old.sst"; ok $? "a refused run leaves an existing trace of that name as it was"
done_testing
