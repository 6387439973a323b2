#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Movie encoder benchmark (prints figures, asserts nothing): FRAMES plot-like 1080p frames
# (default 900: a 30 s movie at 30 fps) drawn with cairo and encoded in process
# (render/video/encoder.h) to MP4/H.264 and WebM/VP9, with drawing and encoding time, frames/s
# and peak RSS.  Budget (issue 16): a 30 s 1080p movie of a 2M-I/O trace in <= 30 s on 2 CPUs,
# reading and drawing included, so the encoder should leave at least half of that to them.
#   tests/bench/encode.sh [FRAMES] [DIR]     (run from the source tree; builds what it needs)
# Without DIR the movies go to a temporary directory that is removed at the end.
set -eu
frames=${1:-900}
source "$(dirname "$0")/lib.sh"
bench_dir "${2:-}"
make -s build/tests/tools/encode-bench >/dev/null
bench=build/tests/tools/encode-bench

echo "$(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) (other work skews the figures)"
for ext in mp4 webm; do
	out=$dir/bench.$ext
	if [[ -x /usr/bin/time ]]; then
		/usr/bin/time -f '%e %M' -o "$dir/time.txt" "$bench" -o "$out" -n "$frames"
		read -r wall rss <"$dir/time.txt"
		printf 'peak RSS %.1f MB, %s bytes (%.2f Mbit/s)\n' "$(awk "BEGIN { print $rss / 1024 }")" \
			"$(stat -c %s "$out")" "$(awk "BEGIN { print $(stat -c %s "$out") * 8 * 30 / $frames / 1e6 }")"
	else
		"$bench" -o "$out" -n "$frames"
		printf '%s bytes (install package "time" for peak RSS)\n' "$(stat -c %s "$out")"
	fi
done
if [[ -n ${2:-} ]]; then echo "movies kept in $dir"; fi
