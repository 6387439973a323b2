#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# File attribution is exact: on loop-backed XFS and ext4, record --untar maps the extracted
# files; every data write `dump --json` attributes to a file must lie in that file's extents
# as xfs_bmap -v (XFS, GETBMAPX: not FIEMAP) or filefrag -v -b512 (ext4) report them, sector
# for sector (file_sectors); a file written with O_DIRECT under record --map is attributed
# all of its written sectors; a trace without a map says null.  Root only; everything
# created is removed at exit.
source "$(dirname "$0")/../lib/tap.sh"
PNG_COLOUR=${PNG_COLOUR:-$(dirname "$0")/../../build/tests/tools/png-colour}
need ROOT
need TRACEFS
need LOOP
need PYTHON3
need CMD mkfs.xfs mkfs.ext4 xfs_bmap filefrag xfs_db debugfs fsfreeze
plan 27
make_workdir

"$SEEKSCOPE" mkarchive -q -o "$WORK/tree.tar" --files 400 --dirs 30 --seed 7 --scale 0.5

# extents FS MNT: "path start_sector nr_sectors" for every regular file, by the fs's own tool
extents() {
	local fs=$1 mnt=$2
	(cd "$mnt" && find . -type f -printf '%P\n') | while read -r f; do
		if [[ $fs == xfs ]]; then
			xfs_bmap -v "$mnt/$f" | awk -v f="$f" '$1 ~ /^[0-9]+:$/ && $3 != "hole" {
				split($3, r, "\\.\\."); print f, r[1], r[2] - r[1] + 1 }'
		else
			filefrag -v -b512 "$mnt/$f" | awk -v f="$f" '$1 ~ /^[0-9]+:$/ {
				p = $4; sub(/\.\./, "", p); n = $6; sub(/:/, "", n); print f, p + 0, n + 0 }'
		fi
	done
}

# inode_sectors FS DEV FILES: "ino sector" for every inode of dump --filemap FILES, located by
# the filesystem's own tool (the loop device is the whole disk: no partition offset)
inode_sectors() {
	local fs=$1 dev=$2 files=$3
	if [[ $fs == xfs ]]; then
		# xfs_db -r: read-only, allowed while mounted; one process for every inode
		mapfile -t inos < <(awk '{print $2}' "$files")
		args=(); for i in "${inos[@]}"; do args+=(-c "convert inode $i daddr"); done
		xfs_db -r "${args[@]}" "$dev" 2>/dev/null | paste -d' ' <(printf '%s\n' "${inos[@]}") - |
			awk '{ gsub(/[()]/, "", $3); print $1, $3 }'
	else
		local bs
		bs=$(debugfs -R stats "$dev" 2>/dev/null | awk -F: '/^Block size/ {print $2 + 0}')
		awk '{print "imap <" $2 ">"}' "$files" >"$WORK/imap.cmd"
		# "Inode N is part of block group G" / "located at block B, offset 0xO"
		debugfs -f "$WORK/imap.cmd" "$dev" 2>/dev/null | python3 -c '
import re, sys
bs = int(sys.argv[1])
for line in sys.stdin:
    m = re.match(r"Inode (\d+) is part of", line)
    if m:
        ino = m.group(1)
    m = re.search(r"located at block (\d+), offset (0x[0-9a-f]+)", line)
    if m:
        print(ino, (int(m.group(1)) * bs + int(m.group(2), 16)) // 512)' "$bs"
	fi
}

# check DUMP EXTENTS PREFIX: every attributed data write lies in its file's extents
check() {
	python3 - "$1" "$2" "$3" <<'EOF'
import json, sys
ext = {}
for line in open(sys.argv[2]):
    f, s, n = line.split()
    ext.setdefault(f, []).append((int(s), int(s) + int(n)))
prefix = sys.argv[3]
n = bad = 0
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e["type"] != "issue" or "W" not in e["rwbs"] or e["file_part"] != "data":
        continue
    n += 1
    f = e["file"]
    assert f.startswith(prefix), f
    lo, hi = e["sector"], e["sector"] + e["nr_sector"]
    inside = sum(max(0, min(hi, b) - max(lo, a)) for a, b in ext.get(f[len(prefix):], []))
    if inside != e["file_sectors"] or inside == 0:
        bad += 1
        if bad < 5:
            print("# %s: %d+%d, trace says %d sectors in it, the fs tool %d" % (f, lo, e["nr_sector"], e["file_sectors"], inside))
print("# %d data writes attributed to files, %d wrong" % (n, bad))
sys.exit(0 if n > 0 and bad == 0 else 1)
EOF
}

for fs in xfs ext4; do
	make_loop 400M
	# ext4 without lazy initialisation: the kernel would zero the inode tables in the
	# background after the mount, and 17 MB of write-zeroes in the capture once left the
	# untar's own data a minority of the bytes (the share checked below)
	if [[ $fs == xfs ]]; then mkfs.xfs -q -f "$LOOP"
	else mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$LOOP"; fi
	mnt="$WORK/mnt-$fs"
	mount_fs "$LOOP" "$mnt"
	"$SEEKSCOPE" record -q --untar "$WORK/tree.tar" --into "$mnt" -o "$WORK/$fs.sst" 2>"$WORK/rec.err"
	ok $? "$fs: record --untar" || sed 's/^/# /' "$WORK/rec.err"
	"$SEEKSCOPE" dump --json "$WORK/$fs.sst" >"$WORK/$fs.json"
	extents "$fs" "$mnt/1" >"$WORK/$fs.ext"
	out=$(check "$WORK/$fs.json" "$WORK/$fs.ext" "1/" 2>&1)
	ok $? "$fs: every data write attributed to a file lies in its extents ($([[ $fs == xfs ]] && echo "xfs_bmap -v" || echo filefrag))"
	echo "$out" | grep '^#'
	d=$(( $(find "$mnt" -xdev -type d | wc -l) )); n=$((d + 400))
	"$SEEKSCOPE" dump "$WORK/$fs.sst" | grep -q "^# filemap 0 .*: $n entries" &&
		"$SEEKSCOPE" dump "$WORK/$fs.sst" | grep -q "^# meta filemap.files = 400$"
	ok $? "$fs: the map holds the 400 files and the $d directories find(1) sees"

	# report's directories: the rows add up to the trace's I/Os, bytes and seeks, and the
	# map attributes most of an untar's data I/O (more than half: how much of the log and
	# metadata writeback falls into the capture varies)
	"$SEEKSCOPE" report --json "$WORK/$fs.sst" | python3 -c '
import json, sys
r = json.load(sys.stdin)
rows, fm = r["dirs"], r["file_map"]
ios, seeks = sum(d["ios"] for d in rows), sum(d["seeks"] for d in rows)
nbytes = sum(d["bytes"] for d in rows)
share = fm["mapped_bytes"] / fm["bytes"]
print("# %d rows (%s...), %d I/Os, %d seeks; the map attributes %.1f %% of the data bytes"
      % (len(rows), ", ".join(d["path"] or d["kind"] for d in rows[:3]), ios, seeks, 100 * share))
# every request with sectors is some row: read, write, discard and write-zeroes (ext4 zeroes
# its inode tables lazily, sometimes during the capture)
print("# rows: %d I/Os %d bytes; report: %d I/Os, %d read + %d write + %d discard + %d other bytes"
      % (ios, nbytes, r["ios"], r["read_bytes"], r["write_bytes"], r["discard_bytes"], r["other_bytes"]))
sys.exit(0 if fm["mapped"] and ios == r["ios"] == fm["ios"] and seeks == r["seeks"] and
         nbytes == fm["bytes"] == r["read_bytes"] + r["write_bytes"] + r["discard_bytes"] +
         r["other_bytes"] and share > 0.5 else 1)' >"$WORK/out"
	ok $? "$fs: report's directory rows add up to the trace's figures; the map covers most data"
	grep '^#' "$WORK/out"
	# coloured by directory: the top one's colour (palette.h, 0072B2) below its legend
	# swatch (the first rows of that colour, 14 px tall), in the io panel
	"$SEEKSCOPE" plot -q -p io --color-by dir "$WORK/$fs.sst" -o "$WORK/$fs-dir.png" 2>"$WORK/err" &&
		y=$("$PNG_COLOUR" "$WORK/$fs-dir.png" 0072B2 0 first) && (( y >= 0 )) &&
		n=$("$PNG_COLOUR" "$WORK/$fs-dir.png" 0072B2 $((y + 20))) && (( n > 0 ))
	ok $? "$fs: plot --color-by dir draws the top directory's requests in its colour (${n:-?} px)" ||
		sed 's/^/# /' "$WORK/err"

	# a file written with O_DIRECT during a recorded command is attributed all its sectors
	"$SEEKSCOPE" record -q --map "$mnt" -o "$WORK/$fs-dd.sst" -- \
		dd if=/dev/urandom of="$mnt/known" bs=64k count=16 oflag=direct status=none 2>"$WORK/rec.err"
	ok $? "$fs: record --map DIR -- dd oflag=direct" || sed 's/^/# /' "$WORK/rec.err"
	"$SEEKSCOPE" dump --json "$WORK/$fs-dd.sst" | python3 -c '
import json, sys
n = sum(e["file_sectors"] for e in map(json.loads, sys.stdin)
        if e["type"] == "issue" and "W" in e["rwbs"] and e["file"] == "known" and e["file_part"] == "data")
print("# %d sectors written to known attributed to it" % n)
sys.exit(0 if n == 2048 else 1)'
	ok $? "$fs: the 1 MiB written to 'known' is attributed to it, sector for sector"
	"$SEEKSCOPE" dump "$WORK/$fs-dd.sst" | grep -q "^# filemap 0 .*, mapped at the end"
	ok $? "$fs: the trace says the map was taken at the end"

	# inodes: where the map says each one lies is where the filesystem's own tool says;
	# a capture in which they are written back (sync, then a freeze: the metadata goes to
	# its place, XFS's xfsaild pushes the inode clusters, ext4 checkpoints the journal)
	ino_dir="$mnt/inodes"
	mkdir "$ino_dir"
	"$SEEKSCOPE" record -q --map "$mnt" -o "$WORK/$fs-ino.sst" -- sh -c '
		for j in 1 2 3 4 5 6; do
			mkdir "$1/s$j"
			for i in $(seq 1 40); do echo x >"$1/s$j/f$i"; done
		done
		sync; fsfreeze -f "$2"; fsfreeze -u "$2"' sh "$ino_dir" "$mnt" 2>"$WORK/rec.err"
	ok $? "$fs: record --map DIR -- creating 246 inodes, sync, fsfreeze" ||
		sed 's/^/# /' "$WORK/rec.err"
	"$SEEKSCOPE" dump --filemap "$WORK/$fs-ino.sst" >"$WORK/$fs-files"
	inode_sectors "$fs" "$LOOP" "$WORK/$fs-files" >"$WORK/$fs-tool"
	out=$(awk 'NR == FNR { t[$1] = $2; next }
		   { n++; if (!($2 in t) || t[$2] != $3) { bad++; if (bad < 4) print "# inode " $2 ": trace " $3 ", tool " t[$2] } }
		   END { print "# " n " inodes compared, " bad + 0 " differ"; exit !(n > 240 && bad == 0) }' \
		"$WORK/$fs-tool" "$WORK/$fs-files")
	ok $? "$fs: every mapped inode's sector is the one $([[ $fs == xfs ]] && echo "xfs_db convert inode N daddr" || echo "debugfs imap <N>") gives"
	echo "$out" | grep '^#'
	"$SEEKSCOPE" dump --json "$WORK/$fs-ino.sst" | python3 -c '
import json, sys
ino = {}
for line in open(sys.argv[1]):
    m, i, sec, kind, n, path = line.rstrip("\n").split(" ", 5)
    if sec != "-":
        ino["" if path == "." else path] = int(sec)
mine = {p for p in ino if p.startswith("inodes/")}
writes = [e for e in map(json.loads, sys.stdin)
          if e["type"] == "issue" and "W" in e["rwbs"] and e["file_part"] == "inode"]
covered, bad = set(), 0
for e in writes:
    lo, hi = e["sector"], e["sector"] + e["nr_sector"]
    inside = {p for p, s in ino.items() if lo <= s < hi}
    covered |= inside
    if e["file"] not in inside:
        bad += 1
        print("# %d+%d attributed to %s, whose inode is at %s" % (lo, e["nr_sector"], e["file"], ino.get(e["file"])))
print("# %d inode writes (%s), %d attributed to a file whose inode is not in them; %d of the %d new inodes written"
      % (len(writes), ", ".join(sorted({e["comm"] or "?" for e in writes})), bad, len(mine & covered), len(mine)))
sys.exit(0 if writes and not bad and mine <= covered and len(mine) == 246 else 1)' "$WORK/$fs-files" >"$WORK/out"
	ok $? "$fs: the requests classified as inode writes hold the inodes of the files they are attributed to, and every new inode is written"
	grep '^#' "$WORK/out"

	[[ $fs == xfs ]] || continue
	# XFS directories: FIEMAP refuses them, GETBMAPX maps them; a directory of 3000 long
	# names has data blocks below its size (what xfs_bmap -v shows) and leaf and free-index
	# blocks at 32 and 64 GiB (what xfs_db's bmap shows too, once the freeze wrote the log)
	"$SEEKSCOPE" record -q --map "$mnt" -o "$WORK/dir.sst" -- sh -c '
		mkdir "$1"
		for i in $(seq 1 3000); do : >"$1/a-rather-long-name-that-fills-directory-blocks-$i"; done
		sync; fsfreeze -f "$2"; fsfreeze -u "$2"' sh "$mnt/bigdir" "$mnt" 2>"$WORK/rec.err"
	ok $? "xfs: record --map DIR -- a directory of 3000 entries" || sed 's/^/# /' "$WORK/rec.err"
	"$SEEKSCOPE" dump --filemap --json "$WORK/dir.sst" >"$WORK/dir.files"
	ino=$(stat -c %i "$mnt/bigdir")
	xfs_bmap -v "$mnt/bigdir" | awk '$1 ~ /^[0-9]+:$/ && $3 != "hole" {
		split($3, r, "\\.\\."); print r[1], r[2] - r[1] + 1 }' >"$WORK/dir.bmap"
	geo=$(xfs_db -r -c "sb 0" -c "p agblocks blocksize" "$LOOP" | awk '{printf "%s ", $3}')
	# "data offset O startblock B (AG/AGBNO) count C flag F": AG and block to 512-byte sectors
	xfs_db -r -c "inode $ino" -c "bmap" "$LOOP" | awk -v geo="$geo" '
		BEGIN { split(geo, g, " "); bb = g[2] / 512 }
		/^data offset/ { split($6, a, "[(/)]"); print (a[2] * g[1] + a[3]) * bb, $8 * bb }' \
		>"$WORK/dir.xfsdb"
	python3 -c '
import json, sys
ent = [e for e in map(json.loads, open(sys.argv[1])) if e["path"] == "bigdir"][0]
def sectors(pairs):
    return {s for a, n in pairs for s in range(a, a + n)}
ours = sectors((b[1], b[2]) for b in ent["blocks"])
bmap = sectors(tuple(map(int, l.split())) for l in open(sys.argv[2]))
db = sectors(tuple(map(int, l.split())) for l in open(sys.argv[3]))
print("# bigdir: %d extents, %d sectors in the map; xfs_bmap -v: %d sectors, all in the map: %s; "
      "xfs_db bmap: %d sectors, the same: %s" % (len(ent["blocks"]), len(ours), len(bmap),
                                                 bmap <= ours, len(db), db == ours))
sys.exit(0 if ent["kind"] == "dir" and bmap and bmap <= ours and len(ours) > len(bmap) and db == ours else 1)' \
		"$WORK/dir.files" "$WORK/dir.bmap" "$WORK/dir.xfsdb" >"$WORK/out"
	ok $? "xfs: a directory's blocks are mapped: all xfs_bmap -v shows, and the leaf and free-index blocks beyond: exactly xfs_db's bmap"
	grep '^#' "$WORK/out"
	"$SEEKSCOPE" dump --json "$WORK/dir.sst" | python3 -c '
import json, sys
ent = [e for e in map(json.loads, open(sys.argv[1])) if e["path"] == "bigdir"][0]
ext = [(b[1], b[1] + b[2]) for b in ent["blocks"]]
n = bad = 0
for e in map(json.loads, sys.stdin):
    if e["type"] != "issue" or "W" not in e["rwbs"] or e["file_part"] != "dir":
        continue
    n += 1
    lo, hi = e["sector"], e["sector"] + e["nr_sector"]
    inside = sum(max(0, min(hi, b) - max(lo, a)) for a, b in ext)
    bad += e["file"] != "bigdir" or inside != e["file_sectors"] or not inside
print("# %d writes attributed to directory blocks, %d of them not in bigdir" % (n, bad))
sys.exit(0 if n and not bad else 1)' "$WORK/dir.files" >"$WORK/out"
	ok $? "xfs: the writes attributed to the directory's blocks lie in them"
	grep '^#' "$WORK/out"
done

# without a map: every file unknown (null), as in traces written before maps existed
mkdir -p "$WORK/mnt-ext4/x"
"$SEEKSCOPE" record -q --no-map --untar "$WORK/tree.tar" --into "$WORK/mnt-ext4/x" -o "$WORK/none.sst"
"$SEEKSCOPE" dump --json "$WORK/none.sst" | python3 -c '
import json, sys
ev = [json.loads(l) for l in sys.stdin]
sys.exit(0 if ev and all(e["file"] is None and e["file_part"] is None for e in ev) else 1)'
ok $? "--no-map: every event's file is null"
"$SEEKSCOPE" report "$WORK/none.sst" >/dev/null && "$SEEKSCOPE" plot -q -o "$WORK/none.png" "$WORK/none.sst"
ok $? "... and it still reports and plots"
