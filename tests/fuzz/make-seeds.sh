#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Regenerates the seed corpora in tests/fuzz/corpus/<target>/ (committed; run this only to
# change them).  Traces and archives are written by python3 (plus zstd for .zst), filesystem
# seeds are the first blocks of images made by mkfs.xfs / mkfs.ext2/3/4 on sparse files.
# Root is not needed.  Everything is made in a temporary directory removed at exit.
# Usage: make-seeds.sh [TARGET...]   (default: every target; a corpus that also holds inputs
# a fuzz run found, such as fsprobe's, is better regenerated alone and merged by hand)
set -euo pipefail
cd "$(dirname "$0")"
C=$PWD/corpus
W=$(mktemp -d /tmp/ss-seeds.XXXXXX)
trap 'rm -rf "$W"' EXIT
# a signal ends the script through its EXIT trap too (bash skips it for an untrapped SIGTERM)
trap 'exit 129' HUP; trap 'exit 130' INT; trap 'exit 143' TERM
ALL=(trace untar fsprobe xfs ext cli blktrace tracecmd tcchunks tcpages rbpage decode plot diskparam html iolog movie)
(( $# )) || set -- "${ALL[@]}"
for t in "$@"; do
	[[ " ${ALL[*]} " == *" $t "* ]] || { echo "make-seeds: no target '$t' (${ALL[*]})" >&2; exit 2; }
	rm -rf "${C:?}/$t"
	mkdir -p "$C/$t"
done
SEL=" $* "
want() { [[ $SEL == *" $1 "* ]]; }

# ---- traces ---------------------------------------------------------------------------------
if want trace; then
python3 - "$C/trace" <<'PY'
import struct, sys, zlib
out = sys.argv[1]
def hdr(version=1, header_size=64):
    return (b"SEEKSCP\x1a" + struct.pack("<IIIIQ", version, 0x01020304, header_size, 16, 1700000000 * 10**9)
            + b"0.1.0".ljust(16, b"\0") + bytes(16))
def rec(t, payload, crc=None):
    pad = (-len(payload)) % 8
    c = zlib.crc32(payload) if crc is None else crc
    return struct.pack("<IIII", t, len(payload), c, 0) + payload + bytes(pad)
DEV = (7 << 20) | 3
def device():
    return rec(1, struct.pack("<IIIIIIQQQ", DEV, 7, 3, 512, 4096, 1, 4194304, 0, 4194304)
               + b"loop3".ljust(32, b"\0") + bytes(32) + b"xfs".ljust(16, b"\0") + b"/mnt/t".ljust(112, b"\0"))
def zone(kind, idx, start, n, label):
    return rec(2, struct.pack("<IIIIQQ", DEV, kind, idx, 0, start, n) + label.encode().ljust(32, b"\0"))
def meta(k, v):
    return rec(3, k.encode() + b"\0" + v.encode() + b"\0")
def ev(ts, typ, sector, n, flags, cpu=0, err=0):
    return struct.pack("<QQIIIiHHHHII", ts, sector, n, (n * 512) & 0xffffffff, DEV, err, typ, flags, cpu, 0, 1234, 0)
def events(evs):
    return rec(4, b"".join(evs))
def phase(ts, kind, name):
    return rec(5, struct.pack("<QII", ts, kind, 0) + name.encode().ljust(32, b"\0"))
def cpustats(cpu, events, missed):
    return rec(6, struct.pack("<IIQQQQQQ", cpu, 0, events, missed, 0, 0, 0, events * 48))
def capture(start, end):
    return rec(7, struct.pack("<QQQIi", start, end, 8192, 2, 0) + b"mono".ljust(16, b"\0") + b"seekscope-1-2".ljust(48, b"\0"))
def end(nev, nrec):
    return rec(8, struct.pack("<QQ", nev, nrec))
def tasks(ts):   # (ts, pid, comm, work) each
    return rec(9, b"".join(struct.pack("<QII", t, pid, 0) + comm.encode()[:16].ljust(16, b"\0")
                           + work.encode()[:32].ljust(32, b"\0") for t, pid, comm, work in ts))
def evp(ts, typ, sector, n, flags, pid, cpu=0):
    return struct.pack("<QQIIIiHHHHII", ts, sector, n, n * 512, DEV, 0, typ, flags, cpu, 0, pid, 0)
MS = 10**6
W, R, FL, FUA, PRE = 2, 1, 8, 0x20, 0x10
evs1 = [ev(1600*MS, 1, 0, 8, W), ev(1601*MS, 2, 0, 8, W), ev(1700*MS, 1, 1048676, 16, W),
        ev(1702*MS, 2, 1048676, 16, W), ev(1800*MS, 1, 2098160, 8, R | 0x100), ev(1804*MS, 2, 2098160, 8, R | 0x100)]
evs2 = [ev(2600*MS, 1, 0, 0, FL | PRE), ev(2610*MS, 2, 2**64 - 1, 0, FL | PRE), ev(2700*MS, 1, 2098168, 8, W | FUA),
        ev(2701*MS, 2, 2098168, 8, W | FUA), ev(2702*MS, 3, 2098168, 8, W), ev(2703*MS, 2, 5, 8, W, 1, -5)]
evs3 = [ev(3600*MS, 2, 3145736, 8, R), ev(3700*MS, 1, 4194000, 8, W), ev(3710*MS, 2, 4194000, 8, W),
        ev(3711*MS, 4, 4194000, 8, W), ev(3712*MS, 5, 4194000, 8, W)]
body = (device() + b"".join(zone(1, i, i * 1048576, 1048576, "AG%d" % i) for i in range(4))
        + zone(2, 0, 2098152, 20480, "log") + zone(3, 0, 100, 50, "journal") + zone(4, 1, 0, 8192, "group 1")
        + zone(5, 0, 300, 20, "itable 0") + meta("cmdline", "tar xf a.tar") + meta("phase.extract.files", "200")
        + meta("phase.extract.bytes", "4000000") + meta("phase.sync.files", "12x") + meta("workload", "untar")
        + capture(1000*MS, 0) + phase(1500*MS, 1, "extract") + events(evs1) + phase(2000*MS, 3, "commit")
        + phase(2500*MS, 2, "extract") + phase(2500*MS, 1, "sync") + events(evs2) + phase(3000*MS, 2, "sync")
        + phase(3500*MS, 1, "delete") + events(evs3) + cpustats(0, 17, 2) + cpustats(1, 0, 0) + capture(1000*MS, 4000*MS))
full = hdr() + body + end(17, 30)
def w(name, data):
    open("%s/%s" % (out, name), "wb").write(data)
w("full.sst", full)
w("no-end.sst", hdr() + body)
w("cut-in-record.sst", full[:len(full) - 37])
w("header-only.sst", hdr())
w("empty-events.sst", hdr() + device() + events([]) + end(0, 2))
w("unknown-record.sst", hdr() + rec(99, b"future") + device() + end(0, 2))
w("bad-crc.sst", hdr()[:48] + b"\1" + hdr()[49:] + device()[:8] + b"\0\0\0\0" + device()[12:] + end(0, 1))
# lost-event periods (SS_REC_LOST): one from the capture start, two overlapping, one inverted,
# and a request in flight across them
def lost(frm, to, n, cpu):
    return rec(13, struct.pack("<QQQII", frm, to, n, cpu, 0))
w("lost.sst", hdr() + device() + capture(1000*MS, 0) + lost(1700*MS, 1750*MS, 5, 1) + lost(0, 1100*MS, 1, 0)
  + lost(1720*MS, 1800*MS, 3, 0) + lost(1900*MS, 1850*MS, 1, 1) + events(evs1) + capture(1000*MS, 2000*MS)
  + end(6, 8))
w("big-header.sst", hdr(header_size=128) + bytes(64) + device() + end(0, 1))
w("bad-version.sst", hdr(version=2) + end(0, 0))
w("after-end.sst", hdr() + end(0, 0) + device())
w("unordered.sst", hdr() + device() + events([ev(5*MS, 2, 9, 8, W), ev(1*MS, 1, 9, 8, W), ev(2**63, 1, 2**64-2, 2**32-1, 0xffff, 65535)]) + end(3, 2))
# file maps (format.h: FILEMAP 10, FILES 11, EXTENTS 12): DIR, 1, 1/src, a, top.c, a/x.c
def filemap(mid, dev=DEV):
    return rec(10, struct.pack("<QIIIIII", 1000*MS, mid, dev, 0, 512, 64, 0)
               + b"xfs".ljust(16, b"\0") + b"/mnt/t".ljust(96, b"\0"))
def files(mid, first, ents):
    body = struct.pack("<II", mid, first)
    for ino, isec, parent, kind, name in ents:
        n = name.encode()
        body += struct.pack("<QQIHH", ino, isec, parent, kind, len(n)) + n + bytes((-len(n)) % 8)
    return rec(11, body)
def extents(mid, exts):
    return rec(12, struct.pack("<II", mid, 0) + b"".join(
        struct.pack("<QQIIII", lg, sec, n, f, 0, 0) for lg, sec, n, f in exts))
NP = 0xffffffff
ENTS = [(128, 10000, NP, 2, ""), (129, 10001, 0, 2, "1"), (130, 10002, 1, 2, "src"),
        (131, 10003, 2, 2, "a"), (133, 10005, 2, 1, "top.c"), (200, 20008, 3, 1, "x.c")]
EXTS = [(0, 1000, 8, 4), (0, 1008, 8, 5), (4096, 5010, 2, 5), (0, 3000, 8, 3), (0, 0, 16, 5)]
fmap = filemap(0) + files(0, 0, ENTS[:3]) + files(0, 3, ENTS[3:]) + extents(0, EXTS)
fevs = [ev(1*MS, 1, 1000, 8, W), ev(2*MS, 2, 1000, 8, W), ev(3*MS, 1, 1004, 16, W), ev(4*MS, 2, 1004, 16, W),
        ev(5*MS, 1, 10000, 8, W | 0x100), ev(6*MS, 2, 10000, 8, W | 0x100), ev(7*MS, 1, 3000, 8, W),
        ev(8*MS, 2, 3000, 8, W), ev(9*MS, 1, 900000, 8, W), ev(10*MS, 2, 900000, 8, W)]
w("filemap.sst", hdr() + device() + events(fevs) + fmap + end(10, 7))
w("filemap-two-maps.sst", hdr() + device() + fmap + filemap(1) + files(1, 0, ENTS) + extents(1, EXTS[:2]) + events(fevs) + end(10, 10))
w("filemap-bad-extent.sst", hdr() + device() + filemap(0) + files(0, 0, ENTS) + extents(0, [(0, 8, 8, 6)]) + end(0, 4))
w("filemap-bad-parent.sst", hdr() + device() + filemap(0) + files(0, 0, ENTS[:1] + [(5, 5, 4, 1, "f")]) + end(0, 3))
w("filemap-files-first.sst", hdr() + device() + files(0, 0, ENTS) + filemap(0) + end(0, 3))
# task tables: names that change, kworkers with their work function, a queue by one task
# issued by another; then odd tables (a partial entry, unterminated names, time going back)
w("tasks.sst", hdr() + tasks([(10*MS, 100, "tar", ""), (21*MS, 300, "kworker/1:1H", "blk_mq_run_work_fn")])
  + events([evp(10*MS, 1, 1000, 8, R, 100), evp(11*MS, 2, 1000, 8, R, 0), evp(20*MS, 5, 5000, 8, W, 100),
            evp(21*MS, 1, 5000, 8, W, 300, 1)])
  + tasks([(30*MS, 200, "kworker/u8:2", "wb_workfn"), (45*MS, 100, "tar2", "")])
  + events([evp(22*MS, 2, 5000, 8, W, 0, 1), evp(30*MS, 1, 5008, 16, W, 200), evp(31*MS, 2, 5008, 16, W, 0),
            evp(40*MS, 2, 9000, 8, W, 0), evp(50*MS, 1, 100, 8, W, 100), evp(51*MS, 2, 100, 8, W, 0)])
  + end(10, 4))
odd = (hdr() + device() + tasks([(5*MS, 7, "x" * 16, "w" * 32), (1*MS, 7, "", ""), (2**63, 0, "t\x01\xff", "")])
       + events([evp(1*MS, 1, 8, 8, W, 7), evp(2*MS, 2, 8, 8, W, 7), evp(3*MS, 1, 16, 8, R, 99)]) + tasks([]))
w("tasks-odd.sst", odd + end(3, 4))
w("tasks-partial.sst", odd + rec(9, bytes(100)) + end(3, 5))
w("many-phases.sst", hdr() + b"".join(phase(i * MS, 1 + i % 3, "p%d" % (i % 5)) for i in range(40)) + events(evs1) + end(6, 41))
PY
cp ../../samples/traces/xfs-agcount1.sst "$C/trace/sample-xfs-agcount1.sst"
fi

# ---- archives -------------------------------------------------------------------------------
if want untar; then
python3 - "$C/untar" <<'PY'
import bz2, gzip, io, lzma, os, stat, struct, sys, tarfile, zipfile
out = sys.argv[1]
def tar(entries, fmt=tarfile.GNU_FORMAT):
    b = io.BytesIO()
    with tarfile.open(fileobj=b, mode="w", format=fmt) as t:
        for name, kw, data in entries:
            ti = tarfile.TarInfo(name)
            ti.mtime = 1700000000
            for k, v in kw.items():
                setattr(ti, k, v)
            if ti.isfile():
                ti.size = len(data)
                t.addfile(ti, io.BytesIO(data))
            else:
                t.addfile(ti)
    return b.getvalue()
D = dict(type=tarfile.DIRTYPE, mode=0o755)
tree = [("src", D, b""), ("src/a.c", {}, b"int main(void) { return 0; }\n"), ("src/sub", D, b""),
        ("src/sub/b.h", dict(mode=0o600), b"#define B 1\n" * 20), ("src/empty", {}, b""),
        ("src/link", dict(type=tarfile.SYMTYPE, linkname="a.c"), b""),
        ("src/hard", dict(type=tarfile.LNKTYPE, linkname="src/a.c"), b"")]
plain = tar(tree)
def w(name, data):
    open("%s/%s" % (out, name), "wb").write(data)
w("tree.tar", plain)
w("tree-pax.tar", tar(tree + [("src/" + "long" * 40 + ".c", {}, b"x")], tarfile.PAX_FORMAT))
w("tree-ustar.tar", tar(tree, tarfile.USTAR_FORMAT))
w("tree.tar.gz", gzip.compress(plain, mtime=0))
w("tree.tar.xz", lzma.compress(plain))
w("tree.tar.lzma", lzma.compress(plain, format=lzma.FORMAT_ALONE))
w("tree.tar.bz2", bz2.compress(plain))
w("tree.tar.gz.truncated", gzip.compress(plain, mtime=0)[:200])
w("tree.tar.xz.truncated", lzma.compress(plain)[:180])
w("tree.tar.truncated", plain[:1100])
# hostile entries (each refused or neutralised by the path policy)
w("h-dotdot.tar", tar([("ok", {}, b"ok"), ("../../escaped", {}, b"evil")]))
w("h-dotdot-inner.tar", tar([("a/../../escaped", {}, b"evil")]))
w("h-abs.tar", tar([("/tmp/ss-fuzz-escaped", {}, b"evil")]))
w("h-symlink-then-file.tar", tar([("l", dict(type=tarfile.SYMTYPE, linkname="../outside"), b""),
                                  ("l/escaped", {}, b"evil")]))
w("h-symlink-abs-then-file.tar", tar([("l", dict(type=tarfile.SYMTYPE, linkname="/"), b""),
                                      ("l/tmp/ss-fuzz-escaped", {}, b"evil")]))
w("h-symlink-dir-then-dir.tar", tar([("d", dict(type=tarfile.SYMTYPE, linkname="../.."), b""),
                                     ("d/x", D, b""), ("d/x/y", {}, b"evil")]))
w("h-hardlink-outside.tar", tar([("hl", dict(type=tarfile.LNKTYPE, linkname="../../outside/victim"), b"")]))
w("h-hardlink-abs.tar", tar([("hl", dict(type=tarfile.LNKTYPE, linkname="/etc/passwd"), b"")]))
w("h-hardlink-via-symlink.tar", tar([("s", dict(type=tarfile.SYMTYPE, linkname="../outside"), b""),
                                     ("hl", dict(type=tarfile.LNKTYPE, linkname="s/victim"), b"")]))
w("h-devices.tar", tar([("null", dict(type=tarfile.CHRTYPE, devmajor=1, devminor=3), b""),
                        ("sda", dict(type=tarfile.BLKTYPE, devmajor=8, devminor=0), b""),
                        ("fifo", dict(type=tarfile.FIFOTYPE), b""), ("after", {}, b"ok")]))
w("h-setuid.tar", tar([("suid", dict(mode=0o4755), b"#!/bin/sh\n"), ("sgid", D | dict(mode=0o2775), b"")]))
w("h-dot-names.tar", tar([(".", D, b""), ("./a", {}, b"x"), ("a//b/./c", {}, b"y"), ("..a", {}, b"z")]))
big = tarfile.TarInfo("huge"); big.size = 2**40; big.mtime = 0
w("h-absurd-size.tar", big.tobuf(tarfile.GNU_FORMAT) + b"x" * 512)
w("h-many-empty.tar.gz", gzip.compress(tar([("e%04d" % i, {}, b"") for i in range(300)]), mtime=0))
w("h-bomb.tar.gz", gzip.compress(tar([("zeros", {}, bytes(4 << 20))]), 9, mtime=0))
# other formats
z = io.BytesIO()
with zipfile.ZipFile(z, "w") as f:
    f.writestr("src/a.c", b"int x;\n" * 30, zipfile.ZIP_DEFLATED)
    f.writestr("src/b.txt", b"stored", zipfile.ZIP_STORED)
    f.writestr("../zip-escaped", b"evil")
w("tree.zip", z.getvalue())
def cpio_newc(entries):
    b = b""
    for ino, (name, mode, data) in enumerate(entries + [("TRAILER!!!", 0, b"")], 1):
        n = name.encode() + b"\0"
        h = b"070701" + b"".join(b"%08X" % v for v in (ino, mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0, len(n), 0))
        b += h + n + bytes((-(110 + len(n))) % 4) + data + bytes((-len(data)) % 4)
    return b + bytes((-len(b)) % 512)
w("tree.cpio", cpio_newc([("d", 0o40755, b""), ("d/f", 0o100644, b"hello\n"), ("d/l", 0o120777, b"f")]))
w("h-dotdot.cpio", cpio_newc([("../cpio-escaped", 0o100644, b"evil")]))
ar = b"!<arch>\n" + b"a.o/            0           0     0     644     6         `\n" + b"hello\n"
w("tree.a", ar)
w("empty.tar", bytes(1024))
PY
( cd "$W" && python3 -c "
import io, tarfile
b = io.BytesIO()
with tarfile.open(fileobj=b, mode='w') as t:
    for n, d in (('x/a', b'a' * 300), ('x/b', b'b')):
        ti = tarfile.TarInfo(n); ti.size = len(d); t.addfile(ti, io.BytesIO(d))
open('t.tar', 'wb').write(b.getvalue())" && zstd -q -19 t.tar -o "$C/untar/tree.tar.zst" &&
  head -c 60 "$C/untar/tree.tar.zst" > "$C/untar/tree.tar.zst.truncated" )
fi

# ---- filesystem images: the first blocks, the rest is zeros to the harness -------------------
if want fsprobe || want xfs || want ext; then
mkdir -p "$W/fs"
mkimg() {   # mkimg NAME SIZE KEEP_BYTES MKFS ARGS...
	local name=$1 size=$2 keep=$3; shift 3
	truncate -s "$size" "$W/img"
	"$@" "$W/img" >/dev/null 2>&1 || { echo "make-seeds: $* failed" >&2; rm -f "$W/img"; return 1; }
	head -c "$keep" "$W/img" > "$W/fs/$name"
	rm -f "$W/img"
}
mkimg xfs-default      320M 4096  mkfs.xfs -q -f
mkimg xfs-agcount2-log1 320M 4096  mkfs.xfs -q -f -d agcount=2 -l agnum=1
mkimg xfs-v4           320M 4096  mkfs.xfs -q -f -m crc=0
mkimg xfs-agcount7     700M 4096  mkfs.xfs -q -f -d agcount=7 -b size=1024
mkimg xfs-4k-sector    320M 4096  mkfs.xfs -q -f -s size=4096
mkimg ext2             4M   65536 mkfs.ext2 -q -F -b 1024 -N 64
mkimg ext3             4M   65536 mkfs.ext3 -q -F -b 1024 -N 64
mkimg ext4             8M   65536 mkfs.ext4 -q -F -b 1024 -N 64 -O ^resize_inode
mkimg ext4-nocsum      8M   65536 mkfs.ext4 -q -F -b 1024 -N 64 -O ^metadata_csum,^resize_inode -G 1
mkimg ext4-4k          16M  65536 mkfs.ext4 -q -F -N 64 -O ^metadata_csum
printf 'not a filesystem\n' > "$W/fs/junk"
! want fsprobe || cp "$W"/fs/* "$C/fsprobe/"
# the XFS parser alone needs only the superblock sector, the ext walk only ext images
! want ext || cp "$W"/fs/ext* "$C/ext/"
for f in "$W"/fs/xfs-*; do
	want xfs || break
	case $f in *4k-sector) cp "$f" "$C/xfs/" ;; *) head -c 1024 "$f" > "$C/xfs/${f##*/}" ;; esac
done
fi

# ---- cli: selector byte (enum selector in fuzz_cli.c: 0 rwbs, 1 --fsync, 2 path policy,
# 3 report argv, 4 dump argv, 5 record argv, 6 plot argv, 7 --x-range, 8 --y-range, 9 offset,
# 10 --size, 11 --seek-threshold, 12 --rolling, 13 --panels, 14 --units, 15 record's values,
# 16 convert argv, 17 mkarchive argv, 18 --fs-dev, 19 mkarchive's values, 20 movie argv,
# 21 movie's values) -------------------------------------------------------------------------
if want cli; then
p() { printf "$1" > "$C/cli/$2"; }
p '\000FWFS' rwbs-fwfs; p '\000DE' rwbs-de; p '\000FF' rwbs-ff; p '\000RAM' rwbs-ram; p '\000N' rwbs-n
p '\001file' fsync-file; p '\001none' fsync-none; p '\001endx' fsync-bad
p '\002a/../b' path-dotdot; p '\002/abs' path-abs; p '\002a//b/..c' path-ok
p '\003--json\nx.sst' report-json; p '\003-t\n128\n-a\nx' report-thresh; p '\003--seek-threshold=-1\nx' report-neg
p '\003-t\n18446744073709551616\nx' report-overflow; p '\003-j\n--bogus' report-unknown; p '\003-t' report-missing
p '\003-t64K\n-V\nx' report-version; p '\003-s\n8\nx' report-old-letter
p '\004--no-events\nx' dump-noev; p '\004x\ny' dump-two; p '\004--help' dump-help
p '\004-nq\n--absolute\nx' dump-quiet-absolute; p '\004-a\nx' dump-old-letter
p '\005-o\nx.sst\n-d\n/dev/loop0\n--\ndd\nif=/dev/zero\nof=/dev/null' record-dashdash
p '\005-d\n/dev/loop0\n-o\nx.sst\ndd\n-o\ny' record-command-options
p '\005--untar\na.tar\n--into\n/mnt/t\n--fsync=file\n--repeat\n3\n--delete\n--drop-caches' record-untar
p '\005-qd\n/dev/a\n-d/dev/b\n-b\n64\n-e\ninsert,queue\n--no-zones' record-cluster
p '\005-qZq' record-stale-cluster; p '\005-d\nx\n-b' record-missing; p '\005--help' record-help
p '\006a.sst\n-o\nx.svg\n--x-range\n10:20\n--y-range\n2G:3G\n-p\nio,seeks' plot-zoom
p '\006a\nb\n-l\none\n-l\ntwo\n-s800x600\n-u\nmib\n-t\n256\n-r\n5\n-T\nt\n-q' plot-all
p '\006a\n-t0\n--version' plot-version
p '\006a\n-qZ' plot-unknown; p '\006a\n--size' plot-missing; p '\006a\n--y-range=5:5' plot-empty-range
p '\00710:20' xrange-ok; p '\0075:1' xrange-reversed; p '\0070.5:1e9' xrange-limit; p '\007nan:1' xrange-nan
p '\0101G:2G' yrange-ok; p '\0101024:1M' yrange-mixed; p '\0102G:1G' yrange-reversed
p '\0108589934591T:18446744073709551615' yrange-max
p '\0111.5GiB' offset-fraction; p '\0118589934591.999999999T' offset-max
p '\01118446744073709551616' offset-overflow; p '\0110.25k' offset-half-sector
p '\012800x600' size-ok; p '\012199x150' size-small; p '\01216000x16000' size-max; p '\0124294968096x600' size-wrap
p '\0131099511627776' seek-threshold-max; p '\0130' seek-threshold-zero
p '\013512T' seek-threshold-bytes-max; p '\01364KiB' seek-threshold-bytes
p '\01410000' rolling-max; p '\014-1' rolling-negative
p '\015io,seeks,tput' panels-ok; p '\015io,io' panels-twice; p '\015io,,lat' panels-empty-item
p '\016MiB' units-mib; p '\016furlongs' units-bad
p '\017insert,queue' record-values-events; p '\01760' record-values-repeat; p '\0174194304' record-values-buffer
p '\020in\n-o\nout.sst\n--fs\nimg\n--fs-dev=8:16\n--fs-offset\n1M\n-q' convert-all
p '\020in\n-oout\n-f\nimg\n-d\n8:16\n-s\n2048' convert-old-letters; p '\020in\n--fs-offset\n1' convert-offset-alone
p '\020a\nb\n-oout\n--fs-' convert-two-ambiguous; p '\020--help' convert-help
p '\021-o\nt.tar\n--files\n40\n--dirs=5\n--seed\n0x2a\n--scale\n0.5\n--top\nt\n-q' mkarchive-all
p '\021--files\n0\n-o' mkarchive-bad-count; p '\021-ot\nextra' mkarchive-extra; p '\021--scale=nan\n-ot' mkarchive-scale-nan
p '\0228:16' fsdev-ok; p '\0224095,1048575' fsdev-max; p '\0224096:0' fsdev-major-big; p '\0228:' fsdev-no-minor
p '\024a.sst\n-o\nx.mp4\n--style\nspindle\n--fps\n25\n--length\n0.5\n-s\n1280x720' movie-all
p '\024a\nb\n-l\none\n-ox.mkv\n--speed=2\n--skip-idle\n-p\nlat,qd\n-x\n1:9\n-q' movie-speed
p '\024a\n-o\nx.mp4\n--length\n5\n--speed\n2' movie-both; p '\024a\n-ox.mp4\n-p\nio' movie-io-panel
p '\024a\n-ox.mp4\n--style' movie-missing; p '\024a\n--fps=0' movie-no-output
p '\0251920x1080' movie-values-size; p '\025641x480' movie-values-odd; p '\0250.5' movie-values-half
p '\025.' movie-values-dot; p '\0251e3' movie-values-exp; p '\02586400.0' movie-values-day
p '\0231000' mkarchive-values-max; p '\0230.001' mkarchive-values-small; p '\023-1' mkarchive-values-negative
fi

# ---- diskparam: byte 0 even = "NAME[,key=value...]", odd = a parameter file's text ----------
if want diskparam; then
p() { printf "$1" > "$C/diskparam/$2"; }
p '\000hdd7200' spec-preset; p '\000hdd7200,wcache=on,rpm=5400,zones=4' spec-overrides
p '\000hdd15k,heads=1,zones=1,avg_seek_ms=0.2' spec-one-zone; p '\000ssd,read_mbs=3500' spec-ssd
p '\000hdd5400,foo=1' spec-unknown-key; p '\000hdd7200,rpm=1e3,,x' spec-empty-item
p '\000hdd7200,ncq=32' spec-ncq; p '\000hdd7200,avg_seek_ms=20' spec-inconsistent
p '\000hdd9000' spec-unknown-model
p '\001# comment\nmodel = hdd7200\n  rpm = 10000  # faster\nwcache = on\n' text-good
p '\001model=ssd\nwrite_latency_ms=0.5e-1\nread_mbs=1e6\n' text-ssd
p '\001rpm = 7200\n' text-no-model; p '\001model=hdd7200\nheads 4\n' text-no-equals
p '\001model=hdd7200\nmodel=ssd\n' text-model-twice; p '\001model=ssd\000\n' text-nul
fi

# ---- trace-cmd: real captures (root, tracefs, trace-cmd) shrunk by shrink-dat.py -------------
if want tracecmd; then
inst=ss-seeds-$$
trap 'rmdir "/sys/kernel/tracing/instances/$inst" 2>/dev/null; rm -rf "$W"' EXIT
tc() {   # tc NAME EVENTS...: record a little direct I/O in instance $inst, shrink it
	local name=$1; shift
	trace-cmd record -q -k -d -B "$inst" -C mono --file-version 6 --compression none \
		"${@/#/-e}" -o "$W/tc.dat" -- \
		dd if=/dev/zero of="$W/dd" bs=4k count=16 oflag=direct,sync >/dev/null 2>&1
	trace-cmd reset -B "$inst" >/dev/null 2>&1 || true   # lockdown: some files refuse
	rmdir "/sys/kernel/tracing/instances/$inst" 2>/dev/null || true
	python3 shrink-dat.py "$W/tc.dat" "$C/tracecmd/$name.dat"
}
tc instance block:block_rq_issue block:block_rq_complete
tc all-block block:block_rq_issue block:block_rq_complete block:block_rq_insert \
	block:block_bio_queue block:block_rq_requeue
tc no-complete block:block_rq_issue
python3 shrink-dat.py "$W/tc.dat" "$C/tracecmd/top.dat" top
head -c 6000 "$C/tracecmd/instance.dat" > "$C/tracecmd/cut.dat"
fi

# ---- tcchunks: version 7 .dat files with zstd chunks (make-bomb-dat.py; no root needed) -------
if want tcchunks; then
mkdir -p "$C/tcchunks"
python3 make-bomb-dat.py --honest "$C/tcchunks/v7-zstd.dat" 2 >/dev/null
python3 make-bomb-dat.py --claims "$C/tcchunks/chunk-claims.dat" >/dev/null
python3 make-bomb-dat.py --odd "$C/tcchunks/chunk-odd.dat" >/dev/null
python3 make-bomb-dat.py --damaged "$C/tcchunks/chunk-damaged.partial" >/dev/null
cp regress/tracecmd/page-size-negative.dat "$C/tcchunks/"
fi

# ---- tcpages: version 7 .dat files read page by page: make-bomb-dat.py's, and tracecmd's
# captures converted by trace-cmd to version 7, with zstd and without compression ----------
if want tcpages; then
mkdir -p "$C/tcpages"
python3 make-bomb-dat.py --honest "$C/tcpages/v7-zstd.dat" 2 >/dev/null
python3 make-bomb-dat.py --damaged "$C/tcpages/chunk-damaged.partial" >/dev/null
for f in top instance all-block; do
	[[ -f $C/tracecmd/$f.dat ]] && command -v trace-cmd >/dev/null || continue
	trace-cmd convert --file-version 7 -i "$C/tracecmd/$f.dat" -o "$C/tcpages/$f-v7.dat" \
		>/dev/null 2>&1
	trace-cmd convert --file-version 7 --compression none -i "$C/tracecmd/$f.dat" \
		-o "$C/tcpages/$f-v7-plain.dat" >/dev/null 2>&1
done
fi

# ---- rbpage: a flags byte (bit 0 big-endian, bit 1 a 4-byte commit word) + a ring buffer page
if want rbpage; then
python3 - "$C/rbpage" <<'PY'
import struct, sys
out = sys.argv[1]
def page(name, be, lsize, items, flags=0, lost=None, ts=1000):
    e = ">" if be else "<"
    def hdr(tl, delta):
        return struct.pack(e + "I", (tl << 27 | delta) if be else (delta << 5 | tl))
    body = b""
    for it in items:
        kind = it[0]
        if kind == "rec":               # a record of n bytes (a multiple of 4)
            n = it[1]
            body += (hdr(n // 4, 3) if n <= 112 else hdr(0, 3) + struct.pack(e + "I", n + 4))
            body += bytes([0x11]) * n
        elif kind in ("extend", "stamp"):
            body += hdr(30 if kind == "extend" else 31, 7) + struct.pack(e + "I", it[1])
        elif kind == "pad":
            body += hdr(29, 1) + struct.pack(e + "i", it[1]) + bytes(max(it[1] - 4, 0))
        elif kind == "raw":
            body += hdr(0, 1) + struct.pack(e + "I", it[1])
    word = struct.pack(e + ("Q" if lsize == 8 else "I"), len(body) | flags)
    pg = struct.pack(e + "Q", ts) + word + body
    if lost is not None:
        pg += struct.pack(e + ("Q" if lsize == 8 else "I"), lost)
    pg = pg.ljust(4096, b"\0")
    open(f"{out}/{name}", "wb").write(bytes([(1 if be else 0) | (2 if lsize == 4 else 0)]) + pg)
mix = [("rec", 8), ("extend", 1), ("rec", 200), ("pad", 8), ("rec", 4), ("stamp", 2), ("rec", 16)]
page("mix-le8", False, 8, mix)
page("mix-be4", True, 4, mix)
page("lost-counted", False, 8, [("rec", 8), ("rec", 8)], 3 << 30, 42)
page("lost-uncounted", True, 8, [("extend", 0), ("rec", 8)], 1 << 31)
page("minus-four", False, 4, [("raw", 0), ("rec", 8)])
page("padding-loop", False, 8, [("rec", 8), ("pad", -4)])
page("full", False, 8, [("rec", 36)] * 100)
PY
fi

# ---- decode: FUZZ_DECODE_HDR (24) format bytes (fuzz_decode.c) + a record ------------------
if want decode; then
mkdir -p "$C/decode"
python3 - "$C/decode" <<'PY'
import struct, sys
out = sys.argv[1]
def f(off, size):
    return struct.pack("<HB", off, size)
def seed(name, flags, fields, comm, rec):
    h = bytes([flags]) + b"".join(f(*x) for x in fields) + bytes(comm)
    assert len(h) == 24
    open(f"{out}/{name}", "wb").write(h + rec)
# a 6.x issue: pid 4, dev 8, sector 16, nr_sector 24, bytes 28, error (none), rwbs 34 char[10],
# comm 44 char[16]
six = [(4, 4), (8, 4), (16, 8), (24, 4), (28, 4), (0, 0), (34, 10)]
def fill(rec, e, pid, dev, sector, nr):
    struct.pack_into(e + "I", rec, 4, pid)
    struct.pack_into(e + "I", rec, 8, dev)
    struct.pack_into(e + "Q", rec, 16, sector)
    struct.pack_into(e + "I", rec, 24, nr)
rec = bytearray(60)
fill(rec, "<", 4242, 0x10300003, 123456789, 16)
struct.pack_into("<I", rec, 28, 8192)
rec[34:39] = b"FWFSM"
rec[44:60] = b"kworker/u8:3abcd"
seed("issue-6x", 0x08, six, (44, 16), bytes(rec))
seed("issue-6x-short", 0x08, six, (44, 16), bytes(rec[:50]))
# a completion with error and a dynamic rwbs: length 3 at 40
dyn = [(4, 4), (8, 4), (16, 8), (24, 4), (0, 0), (28, 4), (32, 4)]
rec = bytearray(44)
fill(rec, "<", 1, 0x800000, 99, 8)
struct.pack_into("<iI", rec, 28, -5, 3 << 16 | 40)
rec[40:43] = b"WSM"
seed("complete-dyn", 0x05, dyn, (0, 0), bytes(rec))
# big-endian
rec = bytearray(60)
fill(rec, ">", 4242, 0x10300003, 123456789, 16)
rec[34:36] = b"RA"
seed("issue-6x-be", 0x48, six, (44, 16), bytes(rec))
PY
fi

# ---- plot: FUZZ_PLOT_HDR (32) option bytes (fuzz_plot.c) + a trace from the trace seeds ------
if want plot; then
[[ -f $C/trace/full.sst ]] || { echo "make-seeds: plot seeds need the trace seeds" >&2; exit 1; }
python3 - "$C" <<'PY'
import struct, sys
C = sys.argv[1]
def hdr(panels=0, two=False, w=480, h=360, xr=None, yr=None, units=0, rolling=0, thr=128, shift=0):
    b = bytearray(32)
    b[0] = panels | (0x80 if two else 0)
    w, h = w - 120, h - 120
    b[1], b[2], b[3], b[4] = w & 255, w >> 8, h & 255, h >> 8
    b[5] = (1 if xr else 0) | (2 if yr else 0) | units << 2 | shift << 4
    if xr:
        struct.pack_into("<ii", b, 6, int(xr[0] * 65536), int(xr[1] * 65536))
    if yr:
        struct.pack_into("<QQ", b, 14, *yr)
    b[30], b[31] = rolling, thr
    return bytes(b)
def w(name, h, trace):
    open("%s/plot/%s" % (C, name), "wb").write(h + open("%s/trace/%s" % (C, trace), "rb").read())
w("default-full", hdr(), "full.sst")
w("all-panels-two", hdr(0x7f, True, 900, 700), "full.sst")
w("io-xrange", hdr(1, xr=(0.5, 2.5)), "full.sst")
w("io-yrange-mib", hdr(1, yr=(1 << 20, 3 << 20), units=2), "full.sst")
w("inverted-ranges", hdr(0x3f, xr=(3, 1), yr=(9, 2)), "full.sst")
w("rolling-lat-qd", hdr(0x30 | 2, rolling=5, thr=0), "many-phases.sst")
w("sample", hdr(0x41, w=640, h=480), "sample-xfs-agcount1.sst")
# coloured by group (rolling's upper bits, see fuzz_plot.c): dir, dir:2, file, process
w("colour-dir-two", hdr(1, True, rolling=0x10 | 0x20), "filemap.sst")
w("colour-dir2", hdr(1, rolling=0x10 | 0x20 | 0x80), "filemap-two-maps.sst")
w("colour-file", hdr(1, rolling=0x10 | 0x40), "filemap.sst")
w("colour-process-nomap", hdr(1, rolling=0x10), "full.sst")
w("unordered", hdr(0x7f), "unordered.sst")
w("empty-events", hdr(), "empty-events.sst")
w("no-end", hdr(0x0f, True), "no-end.sst")
w("lost-lat", hdr(0x7f), "lost.sst")
PY
fi

# ---- html: FUZZ_GRAPH_HDR (32) option bytes, budget, flags (fuzz_html.c) + a trace --------------
if want html; then
[[ -f $C/trace/full.sst && -f $C/plot/default-full ]] || { echo "make-seeds: html seeds need the trace and plot seeds" >&2; exit 1; }
python3 - "$C" <<'PY'
import sys
C = sys.argv[1]
def w(name, plot, budget, flags, trace):
    h = open("%s/plot/%s" % (C, plot), "rb").read()[:32]
    open("%s/html/%s" % (C, name), "wb").write(h + bytes([budget, flags]) + open("%s/trace/%s" % (C, trace), "rb").read())
w("default-full", "default-full", 0, 0, "full.sst")
w("two-tight-budget", "all-panels-two", 40, 0, "full.sst")
w("align-disk", "default-full", 0, 3, "full.sst")
w("ranges-process", "io-xrange", 0, 4, "tasks.sst")
w("only-tasks", "inverted-ranges", 255, 12, "tasks-odd.sst")
w("sample", "sample", 0, 2, "sample-xfs-agcount1.sst")
w("sample-budget-37", "sample", 37, 0, "sample-xfs-agcount1.sst")
w("sample-budget-41", "sample", 41, 0, "sample-xfs-agcount1.sst")
w("no-end", "no-end", 1, 0, "no-end.sst")
w("empty", "empty-events", 0, 1, "empty-events.sst")
PY
fi

# ---- iolog: traces as they are (fuzz_iolog.c) ---------------------------------------------------
if want iolog; then
[[ -f $C/trace/full.sst ]] || { echo "make-seeds: iolog seeds need the trace seeds" >&2; exit 1; }
for t in full unordered tasks tasks-odd many-phases empty-events no-end sample-xfs-agcount1; do
	cp "$C/trace/$t.sst" "$C/iolog/$t.sst"
done
fi

# ---- blktrace: byte 0 = how the files are opened (fuzz_blktrace.c), then the files' bytes ------
if want blktrace; then
make -s -C ../.. tools >/dev/null
GEN=../../build/tests/tools/gen-blktrace
bt() {   # bt NAME MODE GEN-ARGS...: the CPU files joined by fuzz_blktrace.c's separator
	local name=$1 mode=$2; shift 2
	"$GEN" -o "$W/bt" "$@"
	{ printf "\\$mode"; first=1
	  for f in "$W"/bt.blktrace.*; do
		(( first )) || printf '\nBTSPLIT'; first=0; cat "$f"
	  done; } > "$C/blktrace/$name"
	rm -f "$W"/bt.blktrace.*
}
bt one-stream  000 -n 6 -c 1
bt dir-2cpu    001 -n 5 -c 2 -s 7
bt prefix-3cpu 002 -n 4 -c 3 -d 259:1
bt member-big-endian 003 -n 4 -c 2 -S
bt stream-big-endian 000 -n 8 -c 1 -S -d 7:3
head -c 300 "$C/blktrace/dir-2cpu" > "$C/blktrace/cut-record"
fi

# ---- movie: FUZZ_MOVIE_HDR (24) option bytes (fuzz_movie.c) + a trace from the trace seeds ----
if want movie; then
[[ -f $C/trace/full.sst ]] || { echo "make-seeds: movie seeds need the trace seeds" >&2; exit 1; }
mkdir -p "$C/movie"
python3 - "$C" <<'PY'
import struct, sys
C = sys.argv[1]
def hdr(style=0, w=640, h=480, fps=10, frames=8, speed=None, cell=6, fade=4, skip=False,
        xr=None, panels=0, thr=128, group=None, two=False):
    b = bytearray(24)
    b[0] = style
    w, h = (w - 16) // 2, (h - 16) // 2
    b[1], b[2], b[3], b[4] = w & 255, w >> 8, h & 255, h >> 8
    b[5] = fps
    if speed:   # (mantissa byte, exponent): speed = (m + 1) * 2^(e - 40) trace s per movie s
        b[6], b[7] = 0x80 | speed[1], speed[0]
    else:
        b[7] = frames
    b[8], b[9] = cell, fade
    b[10] = (1 if skip else 0) | (2 if xr else 0)
    if xr:
        struct.pack_into("<hh", b, 11, int(xr[0] * 256), int(xr[1] * 256))
    b[15], b[16] = panels, thr
    if group is not None:   # (by 0 process / 1 dir / 2 file, depth 1 or 2, top 0..7)
        b[18] = 1 | group[0] << 1 | (group[1] - 1) << 3 | group[2] << 4
    b[19] = 1 if two else 0
    return bytes(b)
def w(name, h, trace):
    open("%s/movie/%s" % (C, name), "wb").write(h + open("%s/trace/%s" % (C, trace), "rb").read())
w("grid-full", hdr(), "full.sst")
w("spindle-two", hdr(1, 800, 760, panels=3, two=True), "full.sst")
w("scan-panels", hdr(2, 640, 1000, panels=0x0f), "many-phases.sst")
w("speed-skip-idle", hdr(0, speed=(127, 38), skip=True), "full.sst")
w("xrange", hdr(2, xr=(0.5, 2.0)), "full.sst")
w("by-dir", hdr(0, group=(1, 2, 3)), "filemap.sst")
w("by-process", hdr(1, group=(0, 1, 0)), "tasks.sst")
w("by-file-scan", hdr(2, group=(2, 1, 5)), "filemap-two-maps.sst")
w("lost", hdr(2, 640, 840, panels=0x07), "lost.sst")
w("tiny-cells", hdr(0, 320, 420, cell=2, fade=1), "sample-xfs-agcount1.sst")
w("too-small", hdr(0, 64, 48), "full.sst")
w("unordered", hdr(1), "unordered.sst")
w("empty-events", hdr(), "empty-events.sst")
w("no-end", hdr(2, 640, 560, two=True), "no-end.sst")
PY
fi
