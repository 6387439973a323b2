#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Shrink a trace-cmd .dat file (file version 6, uncompressed: `trace-cmd record --file-version 6
--compression none`) into a small fuzz seed for fuzz_tracecmd.c: keep the page and event
headers, the event formats, the options and the trace data; drop kallsyms, trace_printk
formats, the ftrace-internal formats and saved command lines; rewrite every file offset
(flyrecord CPU tables, BUFFER options) for the new layout; keep data pages page-aligned.

Usage: shrink-dat.py IN.dat OUT [top]
  top: move the first instance buffer's data into the top buffer and drop the instances
       (a capture without -B, which this machine's lockdown does not allow to record)."""
import struct, sys

src = open(sys.argv[1], "rb").read()
top_only = len(sys.argv) > 3 and sys.argv[3] == "top"
pos = 0

def take(n):
    global pos
    b = src[pos:pos + n]
    pos += n
    return b

def u(fmt):
    return struct.unpack("<" + fmt, take(struct.calcsize("<" + fmt)))[0]

def cstr():
    global pos
    end = src.index(b"\0", pos)
    s = src[pos:end]
    pos = end + 1
    return s

magic = take(10)
version = cstr()
assert magic == b"\x17\x08Dtracing" and version == b"6", "need a version 6 .dat"
endian, long_size = take(2)
page_size = u("I")
assert endian == 0, "little-endian files only"
heads = []
for name in (b"header_page", b"header_event"):
    assert cstr() == name
    heads.append((name, take(u("Q"))))
for _ in range(u("I")):                     # ftrace formats: dropped
    take(u("Q"))
systems = []
for _ in range(u("I")):
    name = cstr()
    systems.append((name, [take(u("Q")) for _ in range(u("I"))]))
take(u("I"))                                # kallsyms
take(u("I"))                                # trace_printk formats
take(u("Q"))                                # saved command lines
cpus = u("I")
assert take(10) == b"options  \0"
options = []
while True:
    oid = u("H")
    if oid == 0:
        break
    options.append((oid, take(u("I"))))

def flyrecord(at):
    """CPU (data bytes) list and the clock text of the flyrecord table at AT."""
    global pos
    pos = at
    assert take(10) == b"flyrecord\0"
    table = [(u("Q"), u("Q")) for _ in range(cpus)]
    clock = take(u("Q"))
    return [src[o:o + s] for o, s in table], clock

buffers = [(None, *flyrecord(pos))]        # the top buffer, then each BUFFER option's
for oid, data in options:
    if oid == 3:
        buffers.append((data[8:].rstrip(b"\0"), *flyrecord(struct.unpack("<Q", data[:8])[0])))
if top_only:
    buffers = [(None, buffers[1][1], buffers[1][2])]
    options = [(i, d) for i, d in options if i != 3 and not d.startswith(b"\nBuffer:")]

# header up to the options
out = bytearray(magic + b"6\0" + bytes([endian, long_size]) + struct.pack("<I", page_size))
for name, data in heads:
    out += name + b"\0" + struct.pack("<Q", len(data)) + data
out += struct.pack("<I", 0)
out += struct.pack("<I", len(systems))
for name, fmts in systems:
    out += name + b"\0" + struct.pack("<I", len(fmts))
    for f in fmts:
        out += struct.pack("<Q", len(f)) + f
out += struct.pack("<I", 0) + struct.pack("<I", 0) + struct.pack("<Q", 0)
out += struct.pack("<I", cpus) + b"options  \0"
opt_len = sum(6 + len(d) for _, d in options) + 2
tables_at = len(out) + opt_len
table_len = [10 + 16 * cpus + 8 + len(clock) for _, _, clock in buffers]
data_at = -(-(tables_at + sum(table_len)) // page_size) * page_size
# where each buffer's CPU data goes: consecutive, every CPU's data page-aligned
layout, at = [], data_at
for _, datas, _ in buffers:
    offs = []
    for dat in datas:
        offs.append((at, len(dat)))
        at += -(-len(dat) // page_size) * page_size
    layout.append(offs)
table_offs = [tables_at + sum(table_len[:i]) for i in range(len(buffers))]
bi = 1
for oid, data in options:
    if oid == 3:
        data = struct.pack("<Q", table_offs[bi]) + data[8:]
        bi += 1
    out += struct.pack("<HI", oid, len(data)) + data
out += struct.pack("<H", 0)
assert len(out) == tables_at
for (_, _, clock), offs in zip(buffers, layout):
    out += b"flyrecord\0" + b"".join(struct.pack("<QQ", o, s) for o, s in offs)
    out += struct.pack("<Q", len(clock)) + clock
out += bytes(data_at - len(out))
for (_, datas, _), offs in zip(buffers, layout):
    for dat, (o, _) in zip(datas, offs):
        assert len(out) == o or not dat
        if dat:
            out += dat + bytes(-len(dat) % page_size)
open(sys.argv[2], "wb").write(out)
