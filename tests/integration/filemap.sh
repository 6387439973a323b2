#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# File attribution is exact: on loop-backed XFS and ext4, record --untar maps the extracted
# files; every data write `dump --json` attributes to a file must lie in that file's extents
# as xfs_bmap -v (XFS, GETBMAPX: not FIEMAP) or filefrag -v -b512 (ext4) report them, sector
# for sector (file_sectors); a file written with O_DIRECT under record --map is attributed
# all of its written sectors; a trace without a map says null.  Root only; everything
# created is removed at exit.
source "$(dirname "$0")/../lib/tap.sh"
need ROOT
need TRACEFS
need LOOP
need PYTHON3
need CMD mkfs.xfs mkfs.ext4 xfs_bmap filefrag
plan 14
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
	if [[ $fs == xfs ]]; then mkfs.xfs -q -f "$LOOP"; else mkfs.ext4 -q -F "$LOOP"; fi
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

	# a file written with O_DIRECT during a recorded command is attributed all its sectors
	"$SEEKSCOPE" record -q --map "$mnt" -o "$WORK/$fs-dd.sst" -- \
		dd if=/dev/urandom of="$mnt/known" bs=64k count=16 oflag=direct status=none 2>"$WORK/rec.err"
	ok $? "$fs: record --map DIR -- dd oflag=direct" || sed 's/^/# /' "$WORK/rec.err"
	"$SEEKSCOPE" dump --json "$WORK/$fs-dd.sst" | python3 -c '
import json, sys
n = sum(e["file_sectors"] for e in map(json.loads, sys.stdin)
        if e["type"] == "issue" and "W" in e["rwbs"] and e["file"] == "known")
print("# %d sectors written to known attributed to it" % n)
sys.exit(0 if n == 2048 else 1)'
	ok $? "$fs: the 1 MiB written to 'known' is attributed to it, sector for sector"
	"$SEEKSCOPE" dump "$WORK/$fs-dd.sst" | grep -q "^# filemap 0 .*, mapped at the end"
	ok $? "$fs: the trace says the map was taken at the end"
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
