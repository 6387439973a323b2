#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Build small trace-cmd .dat files (file version 7, zstd) that try the trace-cmd reader's
memory budget (SEEKSCOPE_TRACECMD_MEM): a compression bomb, and a file whose chunks claim to
unpack to far more than they do.

The bomb: CPU data that unpacks to gigabytes.  libtracecmd 3.1 unpacks a compressed file's CPU
data chunk by chunk as the rings are read and keeps every chunk until the file is closed
(free_zpage() looked for the chunk at the wrong offset; fixed in trace-cmd 3.2), so the reading
of such a file grows the reader by what the data unpacks to, not by what it takes on disk.
One flyrecord section of CHUNKS zstd chunks, each of which unpacks to CHUNK_PAGES copies of
one ring buffer page.  Every CPU of the BUFFER option points at that same section:
libtracecmd reads (and keeps) it once per CPU, so the file unpacks to CPUS * CHUNKS *
CHUNK_PAGES pages.  A page holds 35 records of an event the file has no format for (no item
for seekscope: the reader looks at its budgets every 4,096 of them, SS_TC_CHECK_RECORDS, some
470 KiB of pages), each a tick after the one before.

The claims (--claims): a chunk whose header says it unpacks to CLAIM_MIB MiB (default 1,536)
while its data unpacks to one page.  libtracecmd 3.1 allocates a chunk at the size its header
claims before it unpacks it, and never looks at what zstd produced: the allocation is never
filled, and its pages past the one unpacked are read as whatever the heap held; when the
allocation fails (the reader's limit on its data segment, or a claim of 2 GiB or more, which
libtracecmd's int turns negative) the CPU's ring just ends.  The reader refuses the file
before libtracecmd reads it (import_tracecmd_chunks.c).
Two CPUs: CPU 0 a page of the seed's; CPU 1 three chunks, HONEST pages, then the liar, then
HONEST pages more, each page a copy of the seed's fullest page (26 block events in the seed
committed), a second after the one before.  Read in full: 26 * (2 * HONEST + 1) block events
on CPU 1; a read that ends at the liar, only the first 26 * HONEST.

The big chunk (--big): the same, but the middle chunk tells the truth: its page, then empty
(zeroed) pages up to CLAIM_MIB MiB (default 512).  Read in full it holds the same events; its
unpacking needs CLAIM_MIB MiB at once, which a small memory budget refuses.

The odd chunk (--odd): the same, but the middle chunk is a page and a half, and says so: a
claim that is no whole number of pages makes libtracecmd read a page past the chunk's memory.

The damaged chunk (--damaged): the middle chunk HONEST pages in a frame that says its size (as
trace-cmd writes them), a byte of its compressed block changed so that zstd cannot unpack it:
libtracecmd fails on it when the ring gets there; the ring is read up to there, with a warning
(regress/tracecmd/chunk-damaged.partial).

The liar behind damage (--behind): the claims' file (a claim of CLAIM_MIB MiB, default 1)
with the first chunk's last page saying it holds more bytes than a page: a reading page by
page ends there, before the liar, which the reader must still refuse as the walk over every
chunk does (regress/tracecmd/chunk-claims-behind.dat).

The liar after empty pages (--hollow): the same, the first chunk's pages holding no record,
so that a ring's first record (which libtracecmd is asked for when the reader opens the file)
lies past the liar (regress/tracecmd/chunk-claims-hollow.dat).

The honest file (--honest): the same with every chunk telling the truth (a fuzzing seed of
version 7 with zstd chunks, corpus/tracecmd/v7-zstd.dat: 26 * (2 * HONEST + 1) block events
on CPU 1).

The page and event headers and the block events' formats (and for the claims the ring buffer
pages) come from the top-buffer seed (corpus/tracecmd/top.dat, version 6), in uncompressed
sections; one OPTIONS section holds the sections' offsets, CPUCOUNT and the top buffer's
BUFFER option.

Usage: make-bomb-dat.py OUT [CPUS [CHUNKS [CHUNK_PAGES]]]   (default 48 64 256: 3 GiB)
       make-bomb-dat.py --claims OUT [CLAIM_MIB [HONEST]]   (default 1536 4)
       make-bomb-dat.py --big OUT [CLAIM_MIB [HONEST]]      (default 512 4)
       make-bomb-dat.py --odd OUT [HONEST]                  (default 4)
       make-bomb-dat.py --honest OUT [HONEST]               (default 4)
       make-bomb-dat.py --damaged OUT [HONEST]              (default 4)
       make-bomb-dat.py --behind OUT [CLAIM_MIB [HONEST]]   (default 1 4)
       make-bomb-dat.py --hollow OUT [CLAIM_MIB [HONEST]]   (default 1 4)
Needs the zstd command-line tool."""
import os, struct, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
mode = sys.argv[1] if len(sys.argv) > 1 and sys.argv[1] in ("--claims", "--big", "--odd",
                                                           "--honest", "--damaged",
                                                           "--behind", "--hollow") else ""
claims = mode != ""
argv = sys.argv[2:] if claims else sys.argv[1:]
out_path = argv[0]
args = [int(a) for a in argv[1:4]]

# the seed's headers, event formats and CPU data (the layout shrink-dat.py writes)
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
take(u("I")), take(u("I")), take(u("Q"))    # kallsyms, printk formats, command lines
seed_cpus = u("I")
assert take(10) == b"options  \0"
while u("H"):
    take(u("I"))
assert take(10) == b"flyrecord\0"
# The pages that hold events (a commit, the second word of a page's header, above 0), of
# whichever CPUs did the seed's I/O: the fullest is CPU 1's page here, another CPU 0's, or an
# empty page when the capture had one (a seed recorded again may have its events on any CPU,
# in one page or more).
cpu_data = [(u("Q"), u("Q")) for _ in range(seed_cpus)]
full = [src[o + k:o + k + page_size] for o, s in cpu_data for k in range(0, s, page_size)]
full = [p for p in full if len(p) == page_size and struct.unpack("<Q", p[8:16])[0] & 0xfffff]
assert full, "the seed's CPU data has no page with events"
full.sort(key=lambda p: struct.unpack("<Q", p[8:16])[0] & 0xfffff, reverse=True)
seed_pages = [full[1] if len(full) > 1 else full[0][:8] + bytes(page_size - 8), full[0]]

def zstd(data):
    level = "-19" if len(data) < (16 << 20) else "-3"
    return subprocess.run(["zstd", level, "-q", "-c", "--no-check"], input=data,
                          stdout=subprocess.PIPE, check=True).stdout

def chunk(data, claim=None):
    """A chunk of DATA, whose header says it unpacks to CLAIM bytes (default: its size)."""
    frame = zstd(data)
    return struct.pack("<II", len(frame), len(data) if claim is None else claim) + frame

def damaged_chunk(data):
    """A chunk of DATA in one zstd frame that says its size, as trace-cmd writes them, with a
    byte of its compressed block changed so that zstd cannot unpack it (the first such byte
    from the frame's middle on): its header, block header and size still hold."""
    import tempfile
    with tempfile.NamedTemporaryFile() as f:
        f.write(data)
        f.flush()
        frame = subprocess.run(["zstd", "-19", "-q", "-c", "--no-check", f.name],
                               stdout=subprocess.PIPE, check=True).stdout
    for off in range(len(frame) // 2, len(frame) - 1):
        bad = bytearray(frame)
        bad[off] ^= 0xff
        if subprocess.run(["zstd", "-t", "-q"], input=bytes(bad),
                          stderr=subprocess.DEVNULL).returncode:
            return struct.pack("<II", len(bad), len(data)) + bytes(bad)
    sys.exit("no byte of the frame makes zstd fail")

def section(sid, flags, body):
    return struct.pack("<HHIQ", sid, flags, 0, len(body)) + body

def write(datas, cpu_data):
    """The .dat: the seed's headers and formats, one flyrecord section of DATAS (each a
    CPU's chunk count and chunks) one after another, CPU C reading DATAS[CPU_DATA[C]]."""
    out = bytearray(b"\x17\x08Dtracing" + b"7\0" + bytes([0, 8]) + struct.pack("<I", page_size))
    out += b"zstd\0" + b"1.5.4\0"
    opt_at_pos = len(out)
    out += bytes(8)
    offs = {}
    for sid, body in ((16, heads), (17, struct.pack("<I", 0)), (18, bytes(systems))):
        offs[sid] = len(out)
        out += section(sid, 0, body)
    fly_at = len(out)
    out += section(3, 1, b"".join(datas))
    data_at = [fly_at + 16 + sum(len(d) for d in datas[:i]) for i in range(len(datas))]
    opts = b""
    for sid in (16, 17, 18):
        opts += struct.pack("<HIQ", sid, 8, offs[sid])
    opts += struct.pack("<HII", 8, 4, len(cpu_data))
    buf = struct.pack("<Q", fly_at) + b"\0" + b"local\0" + struct.pack("<II", page_size,
                                                                      len(cpu_data))
    for c, i in enumerate(cpu_data):
        buf += struct.pack("<IQQ", c, data_at[i], len(datas[i]))
    opts += struct.pack("<HI", 3, len(buf)) + buf
    opts += struct.pack("<HIQ", 0, 8, 0)
    struct.pack_into("<Q", out, opt_at_pos, len(out))
    out += section(0, 0, opts)
    open(out_path, "wb").write(out)
    return len(out)

if claims:
    if mode in ("--odd", "--honest", "--damaged"):
        claim_mib, honest = 0, (args + [4])[0]
    else:
        claim_mib, honest = args + [{"--claims": 1536, "--behind": 1,
                                     "--hollow": 1}.get(mode, 512),
                                    4][len(args):]
    assert mode in ("--odd", "--honest", "--damaged") or 0 < claim_mib < 4096
    ts, commit = struct.unpack("<QQ", seed_pages[1][:16])

    def pages(first, n):
        """N copies of the seed's CPU 1 page, the first FIRST seconds after it."""
        return b"".join(struct.pack("<QQ", ts + (first + k) * 10**9, commit) +
                        seed_pages[1][16:] for k in range(n))

    first = pages(0, honest)
    if mode == "--claims":
        middle, what = chunk(pages(honest, 1), claim_mib << 20), \
            f"claims {claim_mib} MiB, holds one page"
    elif mode == "--behind":
        # the first chunk's last page says it holds more than a page: a reading page by
        # page ends there, before the liar
        at = len(first) - page_size
        first = first[:at] + struct.pack("<QQ", ts, page_size) + first[at + 16:]
        middle, what = chunk(pages(honest, 1), claim_mib << 20), \
            f"claims {claim_mib} MiB, holds one page, behind a page that runs past its end"
    elif mode == "--hollow":
        # the first chunk's pages hold no record: a ring's first record lies past the liar
        first = b"".join(struct.pack("<QQ", ts + k, 0) + bytes(page_size - 16)
                         for k in range(honest))
        middle, what = chunk(pages(honest, 1), claim_mib << 20), \
            f"claims {claim_mib} MiB, holds one page, after a chunk of empty pages"
    elif mode == "--big":
        middle, what = chunk(pages(honest, 1) + bytes((claim_mib << 20) - page_size)), \
            f"holds one page and empty ones up to {claim_mib} MiB"
    elif mode == "--honest":
        middle, what = chunk(pages(honest, 1)), "holds the page it claims"
    elif mode == "--damaged":
        middle, what = damaged_chunk(pages(honest, honest)), \
            "has a damaged block (its frame's header and size hold)"
    else:
        middle, what = chunk(pages(honest, 2)[:page_size * 3 // 2]), \
            f"holds a page and a half ({page_size * 3 // 2} bytes)"
    cpu1 = (struct.pack("<I", 3) + chunk(first) + middle +
            chunk(pages(honest + 1, honest)))
    size = write([struct.pack("<I", 1) + chunk(seed_pages[0]), cpu1], [0, 1])
    print(f"{out_path}: {size} bytes; CPU 1's second chunk (of 3) {what} ({honest} pages"
          f"{' without' if mode == '--hollow' else ' of 26'} block events before it, "
          f"{honest} after)")
else:
    cpus, chunks, chunk_pages = args + [48, 64, 256][len(args):]
    # one ring buffer page: a timestamp, the bytes committed, then 35 records of 116 bytes
    # (a 4-byte header: type_len 28, 112 bytes of data; time delta 1), common_type 0xfff0
    # (no format)
    rec = struct.pack("<I", 28 | 1 << 5) + struct.pack("<HBBi", 0xfff0, 0, 0, 1) + bytes(104)
    nrec = (page_size - 16) // len(rec)
    page = struct.pack("<QQ", 1000000, nrec * len(rec)) + rec * nrec
    page += bytes(page_size - len(page))
    one = chunk(page * chunk_pages)
    size = write([struct.pack("<I", chunks) + one * chunks], [0] * cpus)
    print(f"{out_path}: {size} bytes, unpacks to {cpus * chunks * chunk_pages * page_size} "
          f"bytes ({cpus} CPUs x {chunks} chunks x {chunk_pages} pages; a chunk {len(one) - 8} "
          "bytes)")
