#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# seekscope movie benchmark (prints figures, asserts nothing): a 2M-I/O trace
# (gen-trace -n 2000000, an untar-like pattern over an 8 GiB XFS) filmed into a 30 s 1080p
# movie at 30 fps in every style, with wall and CPU time, frames/s, peak RSS and file size;
# the grid style also on a trace ten times smaller, so that the peak RSS shows whether memory
# grows with the trace (it should not: nothing is kept per event).  Budget (issue 16): <= 30 s
# wall for the 2M-I/O movie on this 2-CPU machine — other work on the machine skews it, so the
# load average is printed first.
#   tests/bench/movie.sh [IOS] [DIR]     (run from the source tree; builds what it needs)
# Without DIR the traces and movies go to a temporary directory that is removed at the end.
set -eu
ios=${1:-2000000}
source "$(dirname "$0")/lib.sh"
bench_dir "${2:-}"
make -s seekscope build/tests/tools/gen-trace >/dev/null
[[ -x /usr/bin/time ]] || { echo "movie.sh: needs /usr/bin/time (package time)" >&2; exit 1; }

echo "$(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) (other work skews the figures)"
small=$((ios / 10))
for n in "$ios" "$small"; do
	if [[ ! -s $dir/t$n.sst ]]; then
		build/tests/tools/gen-trace -o "$dir/t$n.sst" -n "$n"
	fi
done
printf '%-8s %10s %9s %8s %8s %9s %10s %9s\n' style I/Os "wall s" "user s" "sys s" frames/s \
	"peak MB" "file MB"
film() {   # film STYLE IOS
	local out=$dir/$1-$2.mp4 wall user sys rss
	/usr/bin/time -f '%e %U %S %M' -o "$dir/time.txt" \
		./seekscope movie "$dir/t$2.sst" -o "$out" --style "$1" -q
	read -r wall user sys rss <"$dir/time.txt"
	printf '%-8s %10s %9.1f %8.1f %8.1f %9.1f %10.1f %9.1f\n' "$1" "$2" "$wall" "$user" "$sys" \
		"$(awk -v w="$wall" 'BEGIN { print 900 / w }')" "$(awk -v r="$rss" 'BEGIN { print r / 1024 }')" \
		"$(awk -v s="$(stat -c %s "$out")" 'BEGIN { print s / 1e6 }')"
}
for style in grid spindle scan; do
	film "$style" "$ios"
done
film grid "$small"
echo "each: 900 frames (30 s at 30 fps), 1920x1080, H.264 in MP4; budget <= 30 s wall for $ios I/Os"
if [[ -n ${2:-} ]]; then echo "traces and movies kept in $dir"; fi
