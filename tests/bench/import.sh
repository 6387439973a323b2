#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Import benchmark (prints figures, asserts nothing): a generated blktrace trace of 2 million
# I/Os (Q, D and C records per I/O = 6 million records in two per-CPU files, ~290 MB) summarised
# with `seekscope report` and rendered with `seekscope plot` to PNG; if iowatcher is installed
# (Debian package blktrace) the same files are rendered with it and the time ratio is printed.
# Target (issue 5): seekscope at least 10x faster than iowatcher's first run (which includes the
# blkparse pass it makes before drawing).
#   tests/bench/import.sh [IOS] [DIR]     (run from the source tree; builds what it needs;
#                                         DIR is kept if given, else a temporary one is removed)
set -eu
ios=${1:-2000000}
source "$(dirname "$0")/lib.sh"
bench_dir "${2:-}"
make -s seekscope tools >/dev/null
gen=build/tests/tools/gen-blktrace
prefix=$dir/bench
calc() { awk "BEGIN { printf \"%.3f\", $1 }"; }

# run LABEL CMD...: wall time (and peak RSS with /usr/bin/time) of CMD; sets LAST to the time
run() {
	local label=$1; shift
	if [[ -x /usr/bin/time ]]; then
		/usr/bin/time -f '%e %M' -o "$dir/time.txt" "$@" >/dev/null 2>"$dir/err.txt" ||
			{ echo "$label: failed: $(tail -1 "$dir/err.txt")"; LAST=; return 0; }
		read -r LAST rss <"$dir/time.txt"
		printf '%-34s %7.2f s wall  %7.1f MB peak RSS\n' "$label" "$LAST" "$(calc "$rss / 1024")"
	else
		local t0; t0=$(date +%s.%N)
		"$@" >/dev/null 2>"$dir/err.txt" ||
			{ echo "$label: failed: $(tail -1 "$dir/err.txt")"; LAST=; return 0; }
		LAST=$(calc "$(date +%s.%N) - $t0")
		printf '%-34s %7.2f s wall\n' "$label" "$LAST"
	fi
}

echo "generating $ios I/Os (Q+D+C, 2 CPUs, untar-like runs over 4 regions) as $prefix.blktrace.N"
t0=$(date +%s.%N)
"$gen" -o "$prefix" -n "$ios" -c 2
printf 'generated: %s bytes in %.2f s\n' "$(cat "$prefix".blktrace.* | wc -c)" \
	"$(calc "$(date +%s.%N) - $t0")"

run "seekscope report (first run)" ./seekscope report "$prefix"
run "seekscope report (second run)" ./seekscope report "$prefix"
ours=$LAST
if ./seekscope plot --help >/dev/null 2>&1; then
	run "seekscope plot -o bench.png" ./seekscope plot "$prefix" -o "$dir/bench.png"
	[[ -n $LAST ]] && ours=$LAST
else
	echo "seekscope plot: not in this binary (skipped)"
fi
run "seekscope convert -o bench.sst" ./seekscope convert "$prefix" -o "$dir/bench.sst"
[[ -f $dir/bench.sst ]] && rm -f "$dir/bench.sst"

if command -v iowatcher >/dev/null 2>&1; then
	rm -f "$prefix.dump"    # iowatcher's first run makes it with blkparse
	run "iowatcher -o bench.svg (first run)" iowatcher -t "$prefix" -o "$dir/bench.svg"
	theirs=$LAST
	run "iowatcher -o bench.svg (second run)" iowatcher -t "$prefix" -o "$dir/bench.svg"
	if [[ -n $theirs && -n $ours ]]; then
		printf 'ratio: iowatcher first run / seekscope %s = %.1fx (target >= 10x)\n' \
			"$(./seekscope plot --help >/dev/null 2>&1 && echo plot || echo report)" \
			"$(calc "$theirs / $ours")"
	fi
else
	echo "iowatcher: not installed (Debian package blktrace); no comparison"
fi
