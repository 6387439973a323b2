#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Render benchmark (prints figures, asserts nothing): a generated seekscope trace of IOS I/Os
# (default 2 million: issue + complete = 4 million events, ~190 MB) rendered to PNG, SVG and
# PDF and summarised by `report`, then a generated blktrace trace of as many I/Os (Q, D and C
# records, two per-CPU files, ~290 MB) plotted and summarised, beside iowatcher on the same
# files (its first run, which includes the blkparse pass it makes, and its second, which draws
# from the dump the first one left).  Median wall time of RUNS runs and peak RSS of each, the
# goals of issue 18 (2M I/Os: PNG <= 0.25 s, SVG/PDF <= 0.3 s, report <= 0.2 s, peak RSS
# <= 32 MB, faster than iowatcher's second run, >= 10x its first) and the ratios.
#   tests/bench/render.sh [IOS] [DIR]     (run from anywhere; builds what it needs)
#   QUICK=1 tests/bench/render.sh         (20,000 I/Os, 3 runs each: seconds, for CI)
# Without DIR the traces and pictures go to a temporary directory that is removed at the end.
set -eu
source "$(dirname "$0")/lib.sh"
ios=${1:-$([[ ${QUICK:-0} == 1 ]] && echo 20000 || echo 2000000)}
bench_dir "${2:-}"
make -s seekscope tools >/dev/null
trace=$dir/bench.sst
prefix=$dir/bench

bench_header
echo "generating $ios I/Os: $trace (untar pattern, 4 AGs, queue depth 4) and" \
	"$prefix.blktrace.{0,1} (Q+D+C, untar-like runs over 4 regions)"
build/tests/tools/gen-trace -o "$trace" -n "$ios" -a 4 -P -q 4
build/tests/tools/gen-blktrace -o "$prefix" -n "$ios" -c 2
# in the page cache, as a second look finds them (iowatcher's dump too, once it has one)
bench_warm "$trace" "$prefix".blktrace.* "$prefix.dump"
printf 'sizes: %s bytes seekscope, %s bytes blktrace\n' "$(stat -c %s "$trace")" \
	"$(cat "$prefix".blktrace.* | wc -c)"

echo "== seekscope trace"
bench_run "seekscope --version (start-up)" ./seekscope --version
maxrss=0
keep_rss() { [[ -n $RSS ]] && maxrss=$(awk -v a="$maxrss" -v b="$RSS" 'BEGIN { print (a > b ? a : b) }'); }
for ext in png svg pdf; do
	bench_run "seekscope plot -o bench.$ext" ./seekscope plot "$trace" -o "$dir/bench.$ext"
	declare "ss_$ext=$WALL" "ss_${ext}_cpu=$CPU"
	keep_rss
done
bench_run "seekscope report" ./seekscope report "$trace"
ss_report=$WALL ss_report_cpu=$CPU
keep_rss
bench_run "seekscope report --json" ./seekscope report --json "$trace"

echo "== blktrace trace"
bench_run "seekscope plot -o bt.png" ./seekscope plot "$prefix" -o "$dir/bt.png"
bt_png=$WALL bt_png_cpu=$CPU
keep_rss
bench_run "seekscope report" ./seekscope report "$prefix"
bt_report=$WALL bt_report_cpu=$CPU
keep_rss
# the files read twice, the metadata first, as before the report read them once
SEEKSCOPE_ONEPASS=never bench_run "seekscope report (SEEKSCOPE_ONEPASS=never: read twice)" \
	./seekscope report "$prefix"
bt_report2=$WALL bt_report2_cpu=$CPU
io_first= io_second= io_first_cpu= io_second_cpu=
if command -v iowatcher >/dev/null 2>&1; then
	BEFORE='rm -f "$prefix.dump"' bench_run "iowatcher -o io.svg (first run, blkparse)" \
		iowatcher -t "$prefix" -o "$dir/io.svg"
	io_first=$WALL io_first_cpu=$CPU
	bench_run "iowatcher -o io.svg (second run, cached dump)" \
		iowatcher -t "$prefix" -o "$dir/io.svg"
	io_second=$WALL io_second_cpu=$CPU
else
	echo "iowatcher: not installed (Debian package blktrace): no comparison"
fi

GOALS=$([[ $ios == 2000000 ]] && echo 1 || echo 0)
echo "== goals (issue 18, set for 2M I/Os; $ios I/Os here)"
bench_goal "seekscope trace -> PNG" "$ss_png" 0.25 s
bench_goal "seekscope trace -> SVG" "$ss_svg" 0.3 s
bench_goal "seekscope trace -> PDF" "$ss_pdf" 0.3 s
bench_goal "seekscope trace -> report" "$ss_report" 0.2 s
bench_goal "blktrace -> PNG" "$bt_png" 0.25 s
bench_goal "blktrace -> report" "$bt_report" 0.2 s
bench_goal "peak RSS of all the above" "$maxrss" 32 MB
echo "== ratios (how many times faster seekscope is)"
bench_ratio "iowatcher first run / seekscope blktrace PNG" "$io_first" "$bt_png" 10 \
	"$io_first_cpu" "$bt_png_cpu"
bench_ratio "iowatcher second run / seekscope blktrace PNG" "$io_second" "$bt_png" 1 \
	"$io_second_cpu" "$bt_png_cpu"
bench_ratio "iowatcher first run / seekscope blktrace report" "$io_first" "$bt_report" "" \
	"$io_first_cpu" "$bt_report_cpu"
bench_ratio "iowatcher second run / seekscope trace PNG" "$io_second" "$ss_png" 1 \
	"$io_second_cpu" "$ss_png_cpu"
bench_ratio "blktrace report read twice / read once" "$bt_report2" "$bt_report" "" \
	"$bt_report2_cpu" "$bt_report_cpu"
if [[ -n ${2:-} ]]; then echo "files kept in $dir"; fi
