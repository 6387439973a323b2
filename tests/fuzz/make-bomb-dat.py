#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Build a compression bomb: a small trace-cmd .dat (file version 7, zstd) whose CPU data
unpacks to gigabytes, for the trace-cmd reader's memory budget (SEEKSCOPE_TRACECMD_MEM).

libtracecmd 3.1 unpacks a compressed file's CPU data chunk by chunk as the rings are read and
keeps every chunk until the file is closed (free_zpage() looked for the chunk at the wrong
offset; fixed in trace-cmd 3.2), so the reading of such a file grows the reader by what the
data unpacks to, not by what it takes on disk.

The file: the page and event headers and the block events' formats of the top-buffer seed
(corpus/tracecmd/top.dat, version 6), in uncompressed sections; one OPTIONS section (the
sections' offsets, CPUCOUNT, the top buffer's BUFFER option); and one flyrecord section of
CHUNKS zstd chunks, each of which unpacks to CHUNK_PAGES copies of one ring buffer page.
Every CPU of the BUFFER option points at that same section: libtracecmd reads (and keeps)
it once per CPU, so the file unpacks to CPUS * CHUNKS * CHUNK_PAGES pages.  A page holds 35
records of an event the file has no format for (no item for seekscope: the reader looks at its
budgets every 4,096 of them, SS_TC_CHECK_RECORDS, some 470 KiB of pages), each a tick after
the one before.

Usage: make-bomb-dat.py OUT [CPUS [CHUNKS [CHUNK_PAGES]]]   (default 48 64 256: 3 GiB)
Needs the zstd command-line tool."""
import os, struct, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
out_path = sys.argv[1]
args = [int(a) for a in sys.argv[2:5]]
cpus, chunks, chunk_pages = args + [48, 64, 256][len(args):]

# the seed's headers and event formats (the layout shrink-dat.py writes)
src = open(os.path.join(HERE, "corpus", "tracecmd", "top.dat"), "rb").read()
pos = 0

def take(n):
    global pos
    pos += n
    return src[pos - n:pos]

def u(fmt):
    return struct.unpack("<" + fmt, take(struct.calcsize("<" + fmt)))[0]

def cstr():
    global pos
    end = src.index(b"\0", pos)
    s, pos = src[pos:end], end + 1
    return s

assert take(10) == b"\x17\x08Dtracing" and cstr() == b"6"
endian, long_size = take(2)
page_size = u("I")
assert endian == 0 and long_size == 8 and page_size == 4096
heads = b""
for name in (b"header_page", b"header_event"):
    assert cstr() == name
    data = take(u("Q"))
    heads += name + b"\0" + struct.pack("<Q", len(data)) + data
for _ in range(u("I")):
    take(u("Q"))
systems = bytearray(struct.pack("<I", u("I")))
for _ in range(struct.unpack("<I", systems[:4])[0]):
    systems += cstr() + b"\0"
    n = u("I")
    systems += struct.pack("<I", n)
    for _ in range(n):
        f = take(u("Q"))
        systems += struct.pack("<Q", len(f)) + f

# one ring buffer page: a timestamp, the bytes committed, then 35 records of 116 bytes (a
# 4-byte header: type_len 28, 112 bytes of data; time delta 1), common_type 0xfff0 (no format)
rec = struct.pack("<I", 28 | 1 << 5) + struct.pack("<HBBi", 0xfff0, 0, 0, 1) + bytes(104)
nrec = (page_size - 16) // len(rec)
page = struct.pack("<QQ", 1000000, nrec * len(rec)) + rec * nrec
page += bytes(page_size - len(page))
frame = subprocess.run(["zstd", "-19", "-q", "-c", "--no-check"], input=page * chunk_pages,
                       stdout=subprocess.PIPE, check=True).stdout
chunk = struct.pack("<II", len(frame), len(page) * chunk_pages) + frame
cpu_data = struct.pack("<I", chunks) + chunk * chunks

def section(sid, flags, body):
    return struct.pack("<HHIQ", sid, flags, 0, len(body)) + body

out = bytearray(b"\x17\x08Dtracing" + b"7\0" + bytes([0, 8]) + struct.pack("<I", page_size))
out += b"zstd\0" + b"1.5.4\0"
opt_at_pos = len(out)
out += bytes(8)
offs = {}
for sid, body in ((16, heads), (17, struct.pack("<I", 0)), (18, bytes(systems))):
    offs[sid] = len(out)
    out += section(sid, 0, body)
fly_at = len(out)
out += section(3, 1, cpu_data)
data_at = fly_at + 16
opts = b""
for sid in (16, 17, 18):
    opts += struct.pack("<HIQ", sid, 8, offs[sid])
opts += struct.pack("<HII", 8, 4, cpus)
buf = struct.pack("<Q", fly_at) + b"\0" + b"local\0" + struct.pack("<II", page_size, cpus)
for c in range(cpus):
    buf += struct.pack("<IQQ", c, data_at, len(cpu_data))
opts += struct.pack("<HI", 3, len(buf)) + buf
opts += struct.pack("<HIQ", 0, 8, 0)
struct.pack_into("<Q", out, opt_at_pos, len(out))
out += section(0, 0, opts)
open(out_path, "wb").write(out)
print(f"{out_path}: {len(out)} bytes, unpacks to {cpus * chunks * chunk_pages * page_size} bytes"
      f" ({cpus} CPUs x {chunks} chunks x {chunk_pages} pages; a chunk {len(frame)} bytes)")
