#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Cost of the file map on a kernel-sized tree: record --untar of a generated 78,000-file
# archive on loop-backed XFS, with and without the map; prints the map's time (the "map"
# phase) and the trace's growth, beside the trace sizes.  Root only.
# Usage: tests/bench/filemap.sh [FILES] [DIR]   (default 78000 files, a temporary DIR)
set -eu
source "$(dirname "$0")/lib.sh"
files=${1:-78000}
bench_dir "${2:-}"
make -s -j2 seekscope
bin=$PWD/seekscope
"$bin" mkarchive -q -o "$dir/tree.tar" --files "$files" --scale 0.2
truncate -s 4G "$dir/xfs.img"
loop=$(losetup -f --show "$dir/xfs.img")
mkdir -p "$dir/mnt"
cleanup() { umount -l "$dir/mnt" 2>/dev/null || true; losetup -d "$loop" 2>/dev/null || true; }
trap 'cleanup; [[ -z ${2:-} ]] && rm -rf "$dir"' EXIT
mkfs.xfs -q -f "$loop"
mount "$loop" "$dir/mnt"
for mode in map no-map; do
	rm -rf "${dir:?}/mnt/"*
	sync
	flag=; [[ $mode == no-map ]] && flag=--no-map
	"$bin" record -q $flag --untar "$dir/tree.tar" \
		--into "$dir/mnt" -o "$dir/$mode.sst"
	size=$(stat -c %s "$dir/$mode.sst")
	secs=$("$bin" dump --no-events "$dir/$mode.sst" | sed -n 's/^# meta filemap.seconds = //p')
	printf '%-7s trace %10d bytes  map %s s\n' "$mode" "$size" "${secs:--}"
done
m=$(stat -c %s "$dir/map.sst"); n=$(stat -c %s "$dir/no-map.sst")
"$bin" dump --no-events "$dir/map.sst" | grep '^# meta filemap\.\(files\|dirs\|extents\)'
printf 'map adds %d bytes (%.1f %% of the trace without it, %.0f bytes per entry)\n' \
	$((m - n)) "$(echo "100 * ($m - $n) / $n" | bc -l)" \
	"$(echo "($m - $n) / $files" | bc -l)"
# what the map costs the render side: plot coloured by class, by directory and by file, and
# report (its directory table), each on the mapped trace
for args in "--color-by class" "--color-by dir" "--color-by file"; do
	t0=$(date +%s.%N)
	# shellcheck disable=SC2086
	"$bin" plot -q -p io $args "$dir/map.sst" -o "$dir/p.png"
	printf 'plot %-17s %.2f s\n' "$args" "$(echo "$(date +%s.%N) - $t0" | bc -l)"
done
t0=$(date +%s.%N)
"$bin" report "$dir/map.sst" >/dev/null
printf 'report (with directories) %.2f s\n' "$(echo "$(date +%s.%N) - $t0" | bc -l)"
