#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A root tool cannot be turned against its host through its output files: in a sticky
# world-writable directory (like /tmp), another user plants a symbolic link named like the
# output and pointing at a root-owned file, or a file of their own; every command's -o refuses
# both, and the root-owned file is untouched.  Also: a failed write (a full filesystem) leaves
# an existing output as it was and no temporary file behind.  Root only (the planting user is
# nobody); everything created is removed at exit.
source "$(dirname "$0")/../lib/tap.sh"
need ROOT LOOP
plan 23
make_workdir
SAMPLE=$(cd "$(dirname "$0")/../../samples/traces" && pwd)/xfs-agcount4.sst

chmod 0755 "$WORK"   # nobody must reach the shared directory inside it
shared=$WORK/shared
mkdir "$shared" && chmod 1777 "$shared"
victim=$WORK/root-owned
printf 'precious\n' > "$victim"
as_nobody() { runuser -u nobody -- "$@"; }

for out in trap.sst trap.png trap.svg trap.tar; do
	as_nobody ln -s "$victim" "$shared/$out"
done
as_nobody sh -c "printf 'theirs\n' > '$shared/theirs.png'"
[[ -L $shared/trap.sst && $(stat -c %U "$shared/theirs.png") == nobody ]]
ok $? "nobody planted links and a file of their own in the shared directory"

"$SEEKSCOPE" plot "$SAMPLE" -o "$shared/trap.png" 2>"$WORK/err"; rc=$?
is "$rc" 1 "plot -o through a planted link: exit 1"
grep -q 'refusing to write through a symbolic link' "$WORK/err"; ok $? "plot names the reason: $(cat "$WORK/err")"
"$SEEKSCOPE" plot "$SAMPLE" -o "$shared/trap.svg" 2>/dev/null; is "$?" 1 "plot -o x.svg through a planted link: exit 1"
"$SEEKSCOPE" convert "$SAMPLE" -o "$shared/trap.sst" 2>"$WORK/err"; is "$?" 1 "convert -o through a planted link: exit 1"
grep -q 'symbolic link' "$WORK/err"; ok $? "convert names the reason: $(cat "$WORK/err")"
"$SEEKSCOPE" plot "$SAMPLE" -o "$shared/theirs.png" 2>"$WORK/err"; is "$?" 1 "plot -o onto another user's file in a sticky directory: exit 1"
grep -q 'another user' "$WORK/err"; ok $? "plot names the reason: $(cat "$WORK/err")"
is "$(head -c 40 "$shared/theirs.png" | tr -d '\0')" theirs "their file is untouched"

"$SEEKSCOPE" mkarchive --files 20 -o "$shared/trap.tar" 2>"$WORK/err"; is "$?" 1 "mkarchive -o through a planted link: exit 1"
grep -q 'symbolic link' "$WORK/err"; ok $? "mkarchive names the reason: $(cat "$WORK/err")"

# record: the output is checked before tracing starts
make_loop 64M
"$SEEKSCOPE" record -q -d "$LOOP" -o "$shared/trap.sst" -- true 2>"$WORK/err"; rc=$?
[[ $rc -ne 0 ]]; ok $? "record -o through a planted link fails (exit $rc)"
grep -q 'symbolic link' "$WORK/err"; ok $? "record names the reason: $(cat "$WORK/err")"

is "$(cat "$victim")" precious "the root-owned file is untouched after every attempt"
links=0
for out in trap.sst trap.png trap.svg trap.tar; do [[ -L $shared/$out ]] && links=$((links + 1)); done
is "$links" 4 "the planted links are still links (nothing was renamed over them either)"

# our own outputs in the same directory are written
"$SEEKSCOPE" plot "$SAMPLE" -o "$shared/mine.png" && [[ -s $shared/mine.png ]]
ok $? "plot writes a file of our own in the shared directory"

# a full filesystem: the existing picture stays, no temporary file is left
mkdir "$WORK/small"
mount -t tmpfs -o size=64k tmpfs "$WORK/small" && on_exit "umount -l '$WORK/small'"
printf 'old picture\n' > "$WORK/small/out.svg"
"$SEEKSCOPE" plot "$SAMPLE" -o "$WORK/small/out.svg" 2>"$WORK/err"; rc=$?
is "$rc" 1 "plot onto a full filesystem: exit 1"
grep -q 'No space left on device' "$WORK/err"; ok $? "and says why: $(cat "$WORK/err")"
is "$(head -c 40 "$WORK/small/out.svg")" "old picture" "the existing output is intact"
is "$(ls -A "$WORK/small" | wc -l)" 1 "no temporary file left behind"
"$SEEKSCOPE" convert "$SAMPLE" -o "$WORK/small/out.svg" 2>/dev/null; is "$?" 1 "convert onto a full filesystem: exit 1"
is "$(head -c 40 "$WORK/small/out.svg")" "old picture" "the existing file is intact after convert too"
is "$(ls -A "$WORK/small" | wc -l)" 1 "no temporary file left behind by convert"
done_testing
