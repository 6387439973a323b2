#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Reads the data of a `seekscope plot -o x.html` page without a browser and prints figures for
# tests/cli/plot-html.sh: per trace the totals of the summary (as the page shows them), the sums
# of the embedded fine time bins, the requests in the kept detail chunks, and the page's
# external references (there must be none), and the summary table.   html-meta.py PAGE
import base64
import json
import re
import struct
import sys
import zlib

html = open(sys.argv[1], encoding="utf-8").read()
meta = json.loads(re.search(r'<script type="application/json" id="ss-meta">(.*?)</script>', html, re.S).group(1))
print("traces", len(meta["traces"]))
print("max_bytes", meta["max_bytes"])
# anything that would make the browser fetch: src=, href=, url(, @import, http(s)://
print("slots", " ".join("%d:%d" % (int(a), int(b)) for a, b in meta["slots"]))
print("external", len(re.findall(r'\b(?:src|href)\s*=|url\(|@import|https?://', html)))
for i, t in enumerate(meta["traces"]):
    blob = base64.b64decode(re.search(r'id="ss-data-%d">(.*?)</script>' % i, html, re.S).group(1))
    sec = lambda s: zlib.decompress(blob[s[0]:s[0] + s[1]])
    b = t["bins"]
    raw = sec(b["sec"])
    vals = struct.unpack("<%dd" % (len(raw) // 8), raw)
    col = lambda name: vals[meta["bin_fields"].index(name) * b["n"]:(meta["bin_fields"].index(name) + 1) * b["n"]]
    kept = sum(c["n"] for c in t["chunks"] if c["sec"])
    detail = 0
    for c in t["chunks"]:
        if c["sec"]:
            detail += struct.unpack("<I", sec(c["sec"])[:4])[0]
    print(i, "label", t["label"])
    print(i, "slot_devs", " ".join("%d:%d" % (d >> 20, d & 0xfffff) for d in t["slot_devs"]) or "none",
          "cells", len(t["cells"]))
    print(i, "ios", t["total"]["ios"], "seeks", t["total"]["seeks"])
    print(i, "bins_ios", int(sum(col("reads")) + sum(col("writes")) + sum(col("discards"))),
          "bins_seeks", int(sum(col("seeks"))), "bin_width", int(b["width"]))
    print(i, "requests", t["requests"], "kept", kept, "decoded", detail,
          "dropped_chunks", sum(1 for c in t["chunks"] if not c["sec"]))
# the summary table as the page shows it: "table_best RUN|PHASE|COLUMN" per highlighted cell
tb = meta["table"]
print("table_rule", 1 if tb["rule"] else 0)
for r in tb["rows"]:
    print("table_row", "%s|%s" % (r["run"], r["phase"]),
          "ios", r["cells"][tb["heads"].index("I/Os")][0])
    for h, c in zip(tb["heads"], r["cells"]):
        if c[1]:
            print("table_best", "%s|%s|%s" % (r["run"], r["phase"], h))
