#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# seekscope record --user: the workload runs as an unprivileged user (nobody) while the
# recorder stays root — a COMMAND gets the user's uid, groups and HOME/USER, the files it and
# the extraction (--untar) create belong to the user, the user's permissions apply (a
# directory only root may write is refused before anything is recorded), and the trace is
# still written; an unknown user is refused with one line (exit 2).  Root only; everything
# created is removed at exit.
source "$(dirname "$0")/../lib/tap.sh"
need ROOT
need TRACEFS
need LOOP
need CMD mkfs.ext4
id nobody >/dev/null 2>&1 || skip_all "no user nobody"
plan 22
make_workdir
chmod 755 "$WORK"     # nobody reaches the mount point and the archive
make_loop 256M
mkfs.ext4 -q -F "$LOOP"
mount_fs "$LOOP" "$WORK/mnt"
chmod 1777 "$WORK/mnt"
uid=$(id -u nobody) gid=$(id -g nobody)

"$SEEKSCOPE" record -q --user nobody -d "$WORK/mnt" -o "$WORK/cmd.sst" -- sh -c \
	"id -u; id -g; echo \"HOME=\$HOME USER=\$USER\"; dd if=/dev/zero of='$WORK/mnt/f' bs=1M count=4 conv=fsync status=none" \
	>"$WORK/out" 2>"$WORK/err"
ok $? "record --user nobody -- COMMAND: exit 0 ($(cat "$WORK/err"))"
is "$(sed -n 1,2p "$WORK/out" | tr '\n' ' ')" "$uid $gid " "the command ran with nobody's uid and gid"
is "$(sed -n 3p "$WORK/out")" "HOME=$(getent passwd nobody | cut -d: -f6) USER=nobody" "... and nobody's HOME and USER"
is "$(stat -c %u:%g "$WORK/mnt/f")" "$uid:$gid" "the file it wrote belongs to nobody"
w=$("$SEEKSCOPE" report --json "$WORK/cmd.sst" | python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["write_bytes"])' 2>/dev/null)
[[ ${w:-0} -ge $((4 << 20)) ]]; ok $? "the trace was written and holds the 4 MiB written ($w bytes)"
[[ $(stat -c %u "$WORK/cmd.sst") -eq 0 ]]; ok $? "the trace itself is root's (the recorder stayed root)"

"$SEEKSCOPE" record -q --user nobody -d "$WORK/mnt" -o "$WORK/no.sst" -- \
	touch "$WORK/mnt/lost+found/x" 2>/dev/null
is "$?" 1 "nobody's permissions apply: touch in lost+found fails (exit 1, the command's)"

"$SEEKSCOPE" mkarchive -q -o "$WORK/t.tar" --files 300
chmod 644 "$WORK/t.tar"
mkdir "$WORK/mnt/into"
chown nobody "$WORK/mnt/into"
"$SEEKSCOPE" record -q --user nobody --untar "$WORK/t.tar" --into "$WORK/mnt/into" \
	-o "$WORK/untar.sst" 2>"$WORK/err"
ok $? "record --user nobody --untar: exit 0 ($(cat "$WORK/err"))"
n=$(find "$WORK/mnt/into/1" | wc -l)
is "$(find "$WORK/mnt/into/1" ! -uid "$uid" | wc -l)" 0 "all $n extracted entries belong to nobody"
is "$(find "$WORK/mnt/into/1" ! -gid "$gid" | wc -l)" 0 "... and to its group"
[[ $n -gt 300 ]] && "$SEEKSCOPE" report "$WORK/untar.sst" | grep -q '^  extract  '
ok $? "the trace holds the extract phase"

mkdir "$WORK/mnt/rootonly"
"$SEEKSCOPE" record -q --user nobody --untar "$WORK/t.tar" --into "$WORK/mnt/rootonly" \
	-o "$WORK/ro.sst" 2>"$WORK/err"; rc=$?
[[ $rc -eq 1 && ! -e $WORK/ro.sst && $(wc -l <"$WORK/err") -eq 1 ]] && grep -q 'Permission denied' "$WORK/err"
ok $? "a directory only root may write: refused before recording, one line ($(cat "$WORK/err"))"
is "$(find "$WORK/mnt/rootonly" -mindepth 1 | wc -l)" 0 "... and nothing extracted there"

# privileges dropped completely: no capability in any set, nobody's groups only, no
# descriptor but stdio inherited (fd 7, a root-only file opened for writing by the caller, must
# not reach the workload), a root-only file unreadable, the trace not writable
echo secret >"$WORK/secret"
chmod 600 "$WORK/secret"
cat >"$WORK/probe.sh" <<PROBE
grep -E '^(Cap(Inh|Prm|Eff|Amb)|Groups):' /proc/self/status
ls -l /proc/self/fd | awk 'NF > 9 {print "fd", \$9, \$11}'
cat '$WORK/secret' >/dev/null 2>&1 && echo "read the secret"
echo x 2>/dev/null >>'$WORK/probe.sst' && echo "wrote into the trace"
echo x 2>/dev/null >&7 && echo "wrote through fd 7"
exit 0
PROBE
chmod 644 "$WORK/probe.sh"
"$SEEKSCOPE" record -q --user nobody -d "$WORK/mnt" -o "$WORK/probe.sst" -- sh "$WORK/probe.sh" \
	>"$WORK/out" 2>"$WORK/err" 7>>"$WORK/secret"
ok $? "record --user nobody, the privilege probe: exit 0 ($(cat "$WORK/err"))"
is "$(grep '^Cap' "$WORK/out" | awk '$2 != "0000000000000000"' | wc -l)" 0 \
	"no capability left (inheritable, permitted, effective, ambient: $(grep -c '^Cap' "$WORK/out") sets read)"
is "$(sed -n 's/^Groups:[[:space:]]*//p' "$WORK/out" | xargs)" "$(id -G nobody)" "only nobody's groups"
is "$(awk '$1 == "fd" && $2 > 2 && $3 !~ "^/proc/.*/fd$"' "$WORK/out" | tr '\n' ' ')" "" \
	"no descriptor inherited but stdio (the listing's own aside; $(grep -c '^fd' "$WORK/out") listed)"
is "$(grep -E '^(read|wrote)' "$WORK/out" | tr '\n' ' ')" "" \
	"the root-only file unreadable, the trace and the caller's fd 7 not writable"
"$SEEKSCOPE" dump "$WORK/probe.sst" >/dev/null 2>"$WORK/derr" && [[ ! -s $WORK/derr ]] &&
	[[ $(cat "$WORK/secret") == secret ]]
ok $? "the trace reads back intact and the root-only file is unchanged"

printf '#!/bin/sh\nexit 0\n' >"$WORK/mine.sh"
chmod 700 "$WORK/mine.sh"
"$SEEKSCOPE" record -q --user nobody -d "$WORK/mnt" -o "$WORK/mine.sst" -- "$WORK/mine.sh" 2>"$WORK/err"
rc=$?
[[ $rc -eq 127 && ! -e $WORK/mine.sst ]] && grep -q "Permission denied (as nobody)" "$WORK/err"
ok $? "a command only root may run: exit 127 before recording ($(cat "$WORK/err"))"

"$SEEKSCOPE" record --user no-such-user-x -d "$WORK/mnt" -o "$WORK/u.sst" -- true 2>"$WORK/err"; rc=$?
[[ $rc -eq 2 && $(wc -l <"$WORK/err") -eq 1 && ! -e $WORK/u.sst ]] && grep -q "no user 'no-such-user-x'" "$WORK/err"
ok $? "unknown user: exit 2, one line, no trace"
"$SEEKSCOPE" record --user nobody -d "$WORK/mnt" -o "$WORK/u.sst" 2>/dev/null
is "$?" 2 "--user without a workload: exit 2"
done_testing
