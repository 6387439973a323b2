#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Request classes and seek causes on real captures: `record --untar` of a generated tree on
# loop-backed XFS (agcount=4) and ext4.  Cross-checked against tools that are not seekscope:
#  - the log (xfs_db: sb logstart/logblocks) and the journal (debugfs: the journal inode's
#    extents) — every request starting there is of class journal, and only those are;
#  - the documented rule (docs/classes.md), re-implemented here in python3 over dump's rwbs, file map verdict (file_part) and
#    zone table, gives every event of `dump --json` the class seekscope printed;
#  - the seeks and their causes, recomputed here from `dump --json` (issues with sectors, not
#    discards, per device, more than 128 sectors from where the previous one ended): the same
#    pairs, counts and across-zone counts as `report --json`'s seek_causes, which add up to the
#    report's seeks.
# Root only; every loop device, mount and file made is removed at exit.
source "$(dirname "$0")/../lib/tap.sh"
need ROOT
need TRACEFS
need LOOP
need PYTHON3
need CMD mkfs.xfs mkfs.ext4 xfs_db debugfs dumpe2fs
plan 16
make_workdir

"$SEEKSCOPE" mkarchive -q -o "$WORK/tree.tar" --files 1500 --dirs 100 --seed 7

cat >"$WORK/check.py" <<'PY'
# check.py WHAT DUMP_TEXT DUMP_JSON REPORT_JSON [LO:HI...]: one check, exit 0 when it holds.
import json, re, sys
what, dtext, djson, rjson = sys.argv[1:5]
peer = [tuple(int(x) for x in a.split(":")) for a in sys.argv[5:]]
zones = []                       # (kind, label, dev, lo, hi) from dump's metadata
for line in open(dtext):
    m = re.match(r"# zone (\S+) (.*) \((\d+),(\d+)\) (\d+)\+(\d+)$", line.rstrip("\n"))
    if m:
        lo = int(m.group(5))
        zones.append((m.group(1), m.group(2), "%s:%s" % (m.group(3), m.group(4)), lo,
                      lo + int(m.group(6))))
evs = [json.loads(l) for l in open(djson)]
rep = json.loads(open(rjson).readline())
SPECIFIC = ("log", "journal", "inode_table")
def zone_of(e):
    """The most specific zone holding the start sector (docs/classes.md), else None."""
    if e["sector"] is None:
        return None
    hits = [z for z in zones if z[2] == e["dev"] and z[3] <= e["sector"] < z[4]]
    hits.sort(key=lambda z: (z[0] not in SPECIFIC, z[4] - z[3]))
    return hits[0] if hits else None
def op(rwbs):
    r = rwbs[1:] if len(rwbs) > 1 and rwbs[0] == "F" and rwbs[1] in "RWDN" else rwbs
    if r.startswith("DE") or r.startswith("N"):
        return "other"
    return {"R": "read", "W": "write", "D": "discard", "F": "flush"}.get(r[:1], "other")
def rule(e):
    """docs/classes.md's rule, with what the file map says (dump's file_part)."""
    if not e["nr_sector"] or e["sector"] is None:
        return "flush" if e["rwbs"].startswith("F") else "other"
    o = op(e["rwbs"])
    if o in ("discard", "other"):
        return o
    z, fp = zone_of(e), e.get("file_part")
    if z and z[0] in ("log", "journal"):
        return "journal"
    if fp == "dir":
        return "dir"
    if fp == "inode":
        return "metadata"
    if (z and z[0] == "inode_table") or "M" in e["rwbs"]:
        return "metadata"
    return "file-data" if fp == "data" else "data"
data = [e for e in evs if e["type"] == "issue" and e["sector"] is not None and e["nr_sector"]]
if what == "peer":              # requests starting in the peer's log/journal are journal, only them
    inlog = lambda e: any(lo <= e["sector"] < hi for lo, hi in peer)
    ours = [e for e in data if op(e["rwbs"]) in ("read", "write")]
    a = [e for e in ours if inlog(e)]
    bad = [e for e in ours if (e["class"] == "journal") != inlog(e)]
    print("# %d issues in the log/journal by the peer tool, %d of them writes; %d disagree"
          % (len(a), sum(op(e["rwbs"]) == "write" for e in a), len(bad)))
    sys.exit(not a or not any(op(e["rwbs"]) == "write" for e in a) or bool(bad))
if what == "rule":              # every event's class is the documented rule's
    bad = [e for e in evs if e["class"] != rule(e)]
    cls = {}
    for e in data:
        cls[e["class"]] = cls.get(e["class"], 0) + 1
    print("# issues by class: %s; %d of %d events disagree with the rule" % (cls, len(bad), len(evs)))
    for e in bad[:5]:
        print("#   %s: seekscope %s, rule %s" % (e, e["class"], rule(e)))
    # record --untar maps the tree: the extracted files' writeback is file data
    sys.exit(bool(bad) or "journal" not in cls or "file-data" not in cls or "metadata" not in cls)
# the seeks and their causes, recomputed from the events
prev, mat, seeks = {}, {}, 0
for e in data:
    if op(e["rwbs"]) == "discard":
        continue
    p = prev.get(e["dev"])
    if p and abs(e["sector"] - (p["sector"] + p["nr_sector"])) > 128:
        seeks += 1
        k = (p["class"], e["class"])
        n, x = mat.get(k, (0, 0))
        mat[k] = (n + 1, x + ((zone_of(p) or ())[:2] != (zone_of(e) or ())[:2]))
    prev[e["dev"]] = e
theirs = {(c["from"], c["to"]): (c["seeks"], c["across_zones"]) for c in rep["seek_causes"]}
total = sum(c["seeks"] for c in rep["seek_causes"])
if what == "sum":
    devs = sum(sum(c["seeks"] for c in d["seek_causes"]) for d in rep["devices"])
    print("# seek_causes add up to %d, the devices' to %d; the report's seeks %d; shares %.3f %%"
          % (total, devs, rep["seeks"], sum(c["share"] for c in rep["seek_causes"])))
    sys.exit(total != rep["seeks"] or devs != rep["seeks"] or
             abs(sum(c["share"] for c in rep["seek_causes"]) - 100) > 1e-6)
if what == "matrix":
    print("# recomputed: %d seeks, %s" % (seeks, sorted(mat.items(), key=lambda kv: -kv[1][0])[:6]))
    if mat != theirs:
        print("# report: %s" % sorted(theirs.items(), key=lambda kv: -kv[1][0])[:6])
    sys.exit(mat != theirs or seeks != rep["seeks"])
if what == "agstreams":         # XFS agcount=4: writeback seeks from one AG to another
    dd = [v for (a, b), v in theirs.items() if a in ("data", "file-data") and b in ("data", "file-data")]
    n, x = sum(v[0] for v in dd), sum(v[1] for v in dd)
    print("# (file-)data -> (file-)data: %d seeks, %d across zones (%.1f %% of %d)" % (n, x, 100.0 * x / max(1, total), total))
    sys.exit(not x)
if what == "journal":           # some seek leads to or from the journal
    j = sum(n for (f, t), (n, _) in theirs.items() if "journal" in (f, t))
    print("# %d seeks to or from the journal" % j)
    sys.exit(not j)
sys.exit("unknown check " + what)
PY

# capture FS MKFS...: record --untar on a fresh filesystem; sets DEV and the outputs' prefix
capture() {
	local fs=$1
	shift
	make_loop 1G || return 1
	DEV=$LOOP
	"$@" "$DEV" >/dev/null || return 1
	mount_fs "$DEV" "$WORK/$fs" || return 1
	mkdir "$WORK/$fs/run"
	"$SEEKSCOPE" record -q -o "$WORK/$fs.sst" --untar "$WORK/tree.tar" --into "$WORK/$fs/run" \
		2>"$WORK/$fs.err" || { sed 's/^/# /' "$WORK/$fs.err"; return 1; }
	"$SEEKSCOPE" report --json "$WORK/$fs.sst" >"$WORK/$fs.json" &&
		"$SEEKSCOPE" dump --no-events "$WORK/$fs.sst" >"$WORK/$fs.meta" &&
		"$SEEKSCOPE" dump --json "$WORK/$fs.sst" >"$WORK/$fs.events"
}
check() { python3 "$WORK/check.py" "$1" "$WORK/$2.meta" "$WORK/$2.events" "$WORK/$2.json" "${@:3}"; }

# ---- XFS, four AGs
capture xfs mkfs.xfs -q -f -d agcount=4
ok $? "XFS agcount=4: record --untar, report, dump"
sb=$(xfs_db -r -c 'sb 0' -c 'print logstart logblocks blocksize' "$DEV")
logstart=$(awk '/^logstart/ {print $3}' <<<"$sb")
logblocks=$(awk '/^logblocks/ {print $3}' <<<"$sb")
bs=$(awk '/^blocksize/ {print $3}' <<<"$sb")
lo=$(xfs_db -r -c "convert fsb $logstart daddr" "$DEV" | sed -n 's/.*(\([0-9]*\)).*/\1/p')
[[ $lo =~ ^[0-9]+$ && $logblocks -gt 0 ]]
ok $? "xfs_db: the log at sector $lo, $logblocks blocks of $bs bytes"
out=$(check peer xfs "$lo:$((lo + logblocks * bs / 512))"); ok $? "XFS: requests in the log (xfs_db) are journal, and only they"; echo "$out"
out=$(check rule xfs); ok $? "XFS: every event's class is the documented rule's"; echo "$out"
out=$(check sum xfs); ok $? "XFS: seek_causes add up to the report's seeks (total and devices)"; echo "$out"
out=$(check matrix xfs); ok $? "XFS: the seek causes recomputed from dump --json are the report's"; echo "$out"
out=$(check agstreams xfs); ok $? "XFS agcount=4: data -> data seeks between AGs"; echo "$out"
"$SEEKSCOPE" plot "$WORK/xfs.sst" --panels io,causes -o "$WORK/xfs.png" 2>"$WORK/plot.err" &&
	[[ $(stat -c %s "$WORK/xfs.png") -gt 10000 ]]
ok $? "plot --panels io,causes draws" || sed 's/^/# /' "$WORK/plot.err"

# ---- ext4
capture ext4 mkfs.ext4 -q -F
ok $? "ext4: record --untar, report, dump"
bs=$(dumpe2fs -h "$DEV" 2>/dev/null | awk -F: '/^Block size/ {gsub(/ /, "", $2); print $2}')
ranges=()
while read -r a b; do
	ranges+=("$((a * bs / 512)):$(((b + 1) * bs / 512))")
done < <(debugfs -R 'stat <8>' "$DEV" 2>/dev/null | grep -o '([0-9-]*):[0-9]*\(-[0-9]*\)\?' |
	 sed 's/.*://; s/-/ /; t; s/\(.*\)/\1 \1/')
[[ ${#ranges[@]} -gt 0 && $bs -gt 0 ]]
ok $? "debugfs: the journal in ${#ranges[@]} extents (${ranges[*]}), blocks of $bs bytes"
out=$(check peer ext4 "${ranges[@]}"); ok $? "ext4: requests in the journal (debugfs) are journal, and only they"; echo "$out"
out=$(check rule ext4); ok $? "ext4: every event's class is the documented rule's"; echo "$out"
out=$(check sum ext4); ok $? "ext4: seek_causes add up to the report's seeks"; echo "$out"
out=$(check matrix ext4); ok $? "ext4: the seek causes recomputed from dump --json are the report's"; echo "$out"
out=$(check journal ext4); ok $? "ext4: some seeks lead to or from the journal"; echo "$out"
"$SEEKSCOPE" report "$WORK/ext4.sst" | grep -q '^  seek causes: the class of the request before and after each seek'
ok $? "the text report has the seek-cause table"
