#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Hostile archives under `seekscope record --untar ARCH --into DIR -o T.sst` on loop-backed
# filesystems, beyond the basics of untar.sh: every form of path traversal libarchive can
# express (absolute, "..", symlink then file through it, hard link to outside), device nodes,
# setuid bits, an absurd declared size, 200,000 empty entries, bombs into a small filesystem
# (ENOSPC), truncated gz/xz/zstd streams.  For each: nothing outside DIR touched, a clear
# one-line message, the right exit status, and the trace kept (`seekscope dump` reads it).
# Root only; everything created is removed at exit.
source "$(dirname "$0")/../lib/tap.sh"
need ROOT
need TRACEFS
need LOOP
need PYTHON3
need CMD zstd xz gzip mkfs.ext4
plan 116
make_workdir

make_loop 512M
mkfs.ext4 -q -F -N 262144 "$LOOP"
mount_fs "$LOOP" "$WORK/mnt"
M=$WORK/mnt
mkdir -p "$M/outside" "$M/into"
echo victim > "$M/outside/victim"; chmod 0640 "$M/outside/victim"
snapshot() {   # everything outside DIR that an escape could touch, with modes and link counts
	(cd "$WORK" && find . -path ./mnt/into -prune -o -path ./mnt/lost+found -prune -o \
		-path ./small -prune -o -path ./gen -prune -o -path ./out -prune -o \
		-printf '%p %y %m %n %s\n' | sort)
	find /tmp -maxdepth 1 -name 'ss-escaped*' 2>/dev/null
}
mkdir -p "$WORK/gen" "$WORK/out"

# ---- the archives ------------------------------------------------------------------------
python3 - "$WORK/gen" "$M" <<'PY'
import gzip, io, sys, tarfile
out, m = sys.argv[1], sys.argv[2]
def tar(entries, fmt=tarfile.GNU_FORMAT):
    b = io.BytesIO()
    with tarfile.open(fileobj=b, mode="w", format=fmt) as t:
        for name, kw, data in entries:
            ti = tarfile.TarInfo(name)
            for k, v in kw.items():
                setattr(ti, k, v)
            if ti.isfile():
                ti.size = len(data)
                t.addfile(ti, io.BytesIO(data))
            else:
                t.addfile(ti)
    return b.getvalue()
SYM, LNK = tarfile.SYMTYPE, tarfile.LNKTYPE
cases = {
    "abs": [("ok", {}, b"ok"), (m + "/outside/escaped-abs", {}, b"evil")],
    "abs-tmp": [("/tmp/ss-escaped-abs", {}, b"evil")],
    "dotdot": [("ok", {}, b"ok"), ("../../outside/escaped-dotdot", {}, b"evil")],
    "dotdot-inner": [("a/b/../../../../outside/escaped-inner", {}, b"evil")],
    "symlink-rel-then-file": [("l", dict(type=SYM, linkname="../../outside"), b""),
                              ("l/escaped-symlink", {}, b"evil")],
    "symlink-abs-then-file": [("l", dict(type=SYM, linkname=m + "/outside"), b""),
                              ("l/escaped-symlink", {}, b"evil")],
    "symlink-then-overwrite": [("v", dict(type=SYM, linkname=m + "/outside/victim"), b""),
                               ("v", {}, b"overwritten")],
    "symlink-chain": [("a", dict(type=SYM, linkname="."), b""), ("b", dict(type=SYM, linkname="a/../.."), b""),
                      ("b/escaped-chain", {}, b"evil")],
    "hardlink-rel": [("hl", dict(type=LNK, linkname="../../outside/victim"), b"")],
    "hardlink-abs": [("hl", dict(type=LNK, linkname=m + "/outside/victim"), b"")],
    "hardlink-via-symlink": [("s", dict(type=SYM, linkname=m + "/outside"), b""),
                             ("hl", dict(type=LNK, linkname="s/victim"), b"")],
    "devices": [("null", dict(type=tarfile.CHRTYPE, devmajor=1, devminor=3), b""),
                ("loop", dict(type=tarfile.BLKTYPE, devmajor=7, devminor=0), b""),
                ("fifo", dict(type=tarfile.FIFOTYPE), b""), ("after", {}, b"still extracted")],
    "setuid": [("bin", dict(type=tarfile.DIRTYPE, mode=0o2755), b""),
               ("bin/suid", dict(mode=0o4755), b"#!/bin/sh\n"), ("bin/sgid", dict(mode=0o2711), b"x")],
}
for name, entries in cases.items():
    open("%s/%s.tar" % (out, name), "wb").write(tar(entries))
# a header that declares 1 TiB of data followed by a few bytes
big = tarfile.TarInfo("huge"); big.size = 2**40
open(out + "/absurd-size.tar", "wb").write(big.tobuf(tarfile.GNU_FORMAT) + b"x" * 4096)
# 200,000 empty entries in 200 directories
with gzip.open(out + "/many-empty.tar.gz", "wb", compresslevel=1) as g:
    with tarfile.open(fileobj=g, mode="w|", format=tarfile.GNU_FORMAT) as t:
        for d in range(200):
            ti = tarfile.TarInfo("d%03d" % d); ti.type = tarfile.DIRTYPE; ti.mode = 0o755
            t.addfile(ti)
            for f in range(1000):
                ti = tarfile.TarInfo("d%03d/e%04d" % (d, f)); ti.mode = 0o644
                t.addfile(ti)
PY
ok $? "generated the hostile archives"
# bombs: 1 GiB of zeros compresses to about a megabyte
python3 - "$WORK/gen" <<'PY'
import sys, tarfile, zipfile
out = sys.argv[1]
chunk = bytes(1 << 20)
with zipfile.ZipFile(out + "/bomb.zip", "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
    with z.open("zeros", "w", force_zip64=True) as f:
        for _ in range(1024):
            f.write(chunk)
ti = tarfile.TarInfo("zeros"); ti.size = 1 << 30
with open(out + "/bomb.hdr", "wb") as f:
    f.write(ti.tobuf(tarfile.GNU_FORMAT))
PY
# header, 1 GiB of data, two zero blocks: streamed, never on disk uncompressed
cat "$WORK/gen/bomb.hdr" <(head -c $(( (1 << 30) + 1024 )) /dev/zero) | zstd -q -1 -o "$WORK/gen/bomb.tar.zst"
ok $? "generated zip and tar.zst bombs ($(du -k "$WORK/gen/bomb.zip" "$WORK/gen/bomb.tar.zst" | awk '{printf "%s KiB ", $1}'))"
# truncated compressed streams of a real tree
"$SEEKSCOPE" mkarchive -o "$WORK/gen/tree.tar" --files 400 --dirs 40 --seed 3 >/dev/null
gzip -k -c "$WORK/gen/tree.tar" > "$WORK/gen/tree.tar.gz"
xz -k -c -T1 "$WORK/gen/tree.tar" > "$WORK/gen/tree.tar.xz"
zstd -q -c "$WORK/gen/tree.tar" > "$WORK/gen/tree.tar.zst"
for z in gz xz zst; do
	sz=$(stat -c %s "$WORK/gen/tree.tar.$z")
	head -c $((sz / 2)) "$WORK/gen/tree.tar.$z" > "$WORK/gen/trunc.tar.$z"
done

before=$(snapshot)

# run_case NAME ARCHIVE [DIR]: record the extraction; sets ST (exit status), MSG (the
# `seekscope record:` line), and checks the common promises.
run_case() {
	local name=$1 arch=$2 dir=${3:-$M/into}
	rm -rf "$dir/1"
	bg_run "$SEEKSCOPE" record -q -o "$WORK/out/$name.sst" --untar "$arch" --into "$dir" \
		2>"$WORK/out/$name.err"
	ST=$?
	MSG=$(grep -m1 '^seekscope record:' "$WORK/out/$name.err")
	"$SEEKSCOPE" dump "$WORK/out/$name.sst" >"$WORK/out/$name.txt" 2>"$WORK/out/$name.derr"
	ok $? "$name: the trace is kept and reads back"
	is "$(instances_of $PID)" 0 "$name: the recorder left no tracing instance"
	is "$(snapshot)" "$before" "$name: nothing outside DIR was touched"
}
# refused NAME: a non-zero exit, one clear line naming the entry, the error in the trace
refused() {
	[[ $ST -eq 1 && $MSG == *"extraction failed"*entry* ]]
	ok $? "$1: refused with exit 1: $MSG"
	grep -q '^# meta workload.error = ' "$WORK/out/$1.txt"; ok $? "$1: the trace records why"
}

for c in abs abs-tmp dotdot dotdot-inner; do
	run_case $c "$WORK/gen/$c.tar"; refused $c
	[[ $MSG == *'absolute path or ".." component'* ]]; ok $? "$c: the message says why"
done
for c in symlink-rel-then-file symlink-abs-then-file symlink-chain hardlink-rel hardlink-abs hardlink-via-symlink; do
	run_case $c "$WORK/gen/$c.tar"; refused $c
done
run_case symlink-then-overwrite "$WORK/gen/symlink-then-overwrite.tar"
# replacing the link by the file (unlink, then create) is fine, refusing too; writing through
# it is not (run_case checked the victim)
[[ ($ST -eq 0 && ! -L $M/into/1/v && $(cat "$M/into/1/v") == overwritten) || ($ST -eq 1 && $MSG == *entry*) ]]
ok $? "symlink-then-overwrite: the link inside DIR is replaced or refused (exit $ST), never written through"
is "$(cat "$M/outside/victim")" victim "the victim's contents are intact"
is "$(stat -c '%h %a' "$M/outside/victim")" "1 640" "the victim has one link and its mode"

run_case devices "$WORK/gen/devices.tar"
is "$ST" 0 "devices: extraction goes on (device nodes and fifos are skipped)"
is "$(find "$M/into/1" \( -type b -o -type c -o -type p \) | wc -l)" 0 "devices: no device node or fifo created"
[[ -f $M/into/1/after ]]; ok $? "devices: the entries after them are extracted"
run_case setuid "$WORK/gen/setuid.tar"
is "$ST" 0 "setuid: extracted"
is "$(find "$M/into/1" -perm /6000 | wc -l)" 0 "setuid: no setuid/setgid bit survives"
is "$(stat -c %a "$M/into/1/bin/suid")" 755 "setuid: the rest of the mode is kept"

run_case absurd-size "$WORK/gen/absurd-size.tar"; refused absurd-size
[[ $MSG == *huge* ]]; ok $? "absurd-size: the message names the entry"
used=$(du -sk "$M/into" | awk '{print $1}')
[[ $used -lt 1024 ]]; ok $? "absurd-size: no space allocated for the declared size (${used} KiB)"

start=$(date +%s)
run_case many-empty "$WORK/gen/many-empty.tar.gz"
is "$ST" 0 "200,000 empty entries: extracted in $(( $(date +%s) - start )) s"
is "$(find "$M/into/1" -type f | wc -l)" 200000 "200,000 empty entries: all there"
grep -q '^# meta archive.entries = 200200$' "$WORK/out/many-empty.txt"; ok $? "200,000 empty entries: counted in the trace"
rm -rf "$M/into/1"

# ---- bombs into a small filesystem: ENOSPC, cleanly
make_loop 64M
mkfs.ext4 -q -F "$LOOP"
mount_fs "$LOOP" "$WORK/small"
before=$(snapshot)
for b in bomb.zip bomb.tar.zst; do
	run_case $b "$WORK/gen/$b" "$WORK/small"
	[[ $ST -eq 1 && $MSG == *"No space left on device"* && $MSG == *zeros* ]]
	ok $? "$b: a clear ENOSPC message, exit 1: $MSG"
	used=$(df -k --output=used "$WORK/small" | tail -1)
	[[ $used -lt 70000 ]]; ok $? "$b: stopped at the filesystem's size (${used} KiB used)"
	n=$(grep -vc '^#' "$WORK/out/$b.txt"); [[ $n -gt 100 ]]; ok $? "$b: the trace has the writes ($n events)"
	rm -rf "$WORK/small/1"
done

# ---- truncated compressed streams
for z in gz xz zst; do
	run_case trunc-$z "$WORK/gen/trunc.tar.$z"
	[[ $ST -eq 1 && $MSG == *"extraction failed: entry"*"archive damaged or truncated"* ]]
	ok $? "truncated .$z: exit 1 and a clear message: $MSG"
	[[ $(find "$M/into/1" -type f | wc -l) -gt 0 ]]; ok $? "truncated .$z: what came before the cut is extracted"
done

is "$(cat "$M/outside/victim")" victim "finally: the victim is intact"
[[ ! -e /tmp/ss-escaped-abs ]]; ok $? "finally: nothing escaped to /tmp"
done_testing
