#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Render benchmark (prints figures, asserts nothing): a generated trace of 2 million I/Os
# (issue + complete = 4 million events, ~190 MB) rendered to PNG, SVG and PDF, with wall time
# and peak RSS for each.  Targets (issue 4): PNG < 1 s, SVG < 2 s, peak RSS < 100 MB.
#   tests/bench/render.sh [IOS] [DIR]        (run from the source tree; builds what it needs)
# Without DIR the files go to a temporary directory that is removed at the end.
set -eu
ios=${1:-2000000}
source "$(dirname "$0")/lib.sh"
bench_dir "${2:-}"
make -s seekscope tools >/dev/null
gen=build/tests/tools/gen-trace
trace=$dir/bench.sst
mkdir -p "$dir"
calc() { awk "BEGIN { printf \"%.3f\", $1 }"; }

echo "generating $ios I/Os (untar pattern, 4 AGs, queue depth 4) into $trace"

start=$(date +%s.%N)
"$gen" -o "$trace" -n "$ios" -a 4 -P -q 4
printf 'generated: %s bytes in %.2f s\n' "$(stat -c %s "$trace")" \
	"$(calc "$(date +%s.%N) - $start")"
./seekscope report "$trace" >/dev/null 2>&1 || true   # warm the page cache like a second look would

measure() {   # measure OUT: render the trace to OUT, print wall time and peak RSS
	local out=$1
	if [[ -x /usr/bin/time ]]; then
		/usr/bin/time -f '%e %M' -o "$dir/time.txt" ./seekscope plot "$trace" -o "$out"
		read -r wall rss <"$dir/time.txt"
		printf '%-4s %6.2f s wall  %7.1f MB peak RSS  %9s bytes  (%s)\n' "${out##*.}" "$wall" \
			"$(calc "$rss / 1024")" "$(stat -c %s "$out")" "$out"
	else
		local t0 t1
		t0=$(date +%s.%N)
		./seekscope plot "$trace" -o "$out"
		t1=$(date +%s.%N)
		printf '%-4s %6.2f s wall  (install package "time" for peak RSS)  %s bytes\n' \
			"${out##*.}" "$(calc "$t1 - $t0")" "$(stat -c %s "$out")"
	fi
}
echo "rendering (targets: PNG < 1 s, SVG < 2 s, peak RSS < 100 MB)"
for ext in png svg pdf; do
	measure "$dir/bench.$ext"
done
if [[ -n ${2:-} ]]; then echo "files kept in $dir"; fi
