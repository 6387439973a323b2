#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Import benchmark (prints figures, asserts nothing): seekscope reading the other tools' traces
# beside those tools.
#  - blktrace: a generated trace of IOS I/Os (default 2 million; Q, D and C records per I/O =
#    6 million records in two per-CPU files, ~290 MB) summarised with `seekscope report`, plotted
#    to PNG and converted, and drawn by iowatcher (Debian package blktrace): its first run,
#    which includes the blkparse pass it makes, and its second, from the dump the first left.
#  - trace-cmd: as root with fio and trace-cmd, a .dat of as many I/Os recorded from fio 4 KiB
#    random reads on a loop device in /dev/shm (block_bio_queue, block_rq_issue and
#    block_rq_complete = Q, D and C), read by `seekscope report` and `plot` and by
#    `trace-cmd report > /dev/null`; and a .dat of 100 I/Os recorded the same way, for the
#    fixed cost of reading one (its headers hold the kernel's symbol table, some 5 MB); then
#    what reading the big one must do at least: its chunks unpacked alone
#    (tests/tools/tc-unpack.c) and the same events reported in seekscope's format.
# Median wall time of RUNS runs, peak RSS, and the ratios (issue 18: >= 10x iowatcher's first
# run, faster than its second).
#   tests/bench/import.sh [IOS] [DIR]     (run from anywhere; builds what it needs;
#                                         DIR is kept if given, else a temporary one is removed)
#   QUICK=1 tests/bench/import.sh         (20,000 I/Os, 3 runs each: seconds, for CI)
set -eu
source "$(dirname "$0")/lib.sh"
ios=${1:-$([[ ${QUICK:-0} == 1 ]] && echo 20000 || echo 2000000)}
bench_dir "${2:-}"
make -s seekscope tools >/dev/null
prefix=$dir/bench
loop= inst=ss-bench-import-$$ keep=${2:-}
cleanup() {
	[[ -n $loop ]] && losetup -d "$loop"
	if [[ -d /sys/kernel/tracing/instances/$inst ]]; then
		trace-cmd reset -B "$inst" >/dev/null 2>&1 || true
		rmdir "/sys/kernel/tracing/instances/$inst" 2>/dev/null || true
	fi
	rm -f "$dir/disk.img"
	[[ -n $keep ]] || rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

bench_header
echo "== blktrace: generating $ios I/Os (Q+D+C, 2 CPUs, untar-like runs over 4 regions)"
build/tests/tools/gen-blktrace -o "$prefix" -n "$ios" -c 2
printf 'generated: %s bytes\n' "$(cat "$prefix".blktrace.* | wc -c)"
bench_warm "$prefix".blktrace.* "$prefix.dump"
bench_run "seekscope report" ./seekscope report "$prefix"
bt_report=$WALL bt_report_cpu=$CPU
bench_run "seekscope plot -o bench.png" ./seekscope plot "$prefix" -o "$dir/bench.png"
bt_png=$WALL bt_png_cpu=$CPU
bench_run "seekscope convert -o bench.sst" ./seekscope convert "$prefix" -o "$dir/bench.sst"
rm -f "$dir/bench.sst"
io_first= io_second=
if command -v iowatcher >/dev/null 2>&1; then
	BEFORE='rm -f "$prefix.dump"' bench_run "iowatcher -o io.svg (first run, blkparse)" \
		iowatcher -t "$prefix" -o "$dir/io.svg"
	io_first=$WALL io_first_cpu=$CPU
	bench_run "iowatcher -o io.svg (second run, cached dump)" \
		iowatcher -t "$prefix" -o "$dir/io.svg"
	io_second=$WALL io_second_cpu=$CPU
	rm -f "$prefix.dump" "$dir/io.svg"
	bench_ratio "iowatcher first run / seekscope plot" "$io_first" "$bt_png" 10 \
		"$io_first_cpu" "$bt_png_cpu"
	bench_ratio "iowatcher second run / seekscope plot" "$io_second" "$bt_png" 1 \
		"$io_second_cpu" "$bt_png_cpu"
	bench_ratio "iowatcher first run / seekscope report" "$io_first" "$bt_report" "" \
		"$io_first_cpu" "$bt_report_cpu"
else
	echo "iowatcher: not installed (Debian package blktrace): no comparison"
fi
rm -f "$prefix".blktrace.*

echo "== trace-cmd .dat of $ios I/Os"
if [[ $(id -u) -ne 0 ]] || ! command -v fio >/dev/null || ! command -v trace-cmd >/dev/null; then
	echo "skipped: needs root, fio and trace-cmd"
	exit 0
fi
dd if=/dev/zero of="$dir/disk.img" bs=1M count=1024 status=none
loop=$(losetup -f --show "$dir/disk.img")
majmin=$(lsblk -ndo MAJ:MIN "$loop" | tr -d ' ')
devno=$(( ${majmin%:*} << 20 | ${majmin#*:} ))
# record_dat IOS FILE: fio's random reads traced by trace-cmd, as
# tests/integration/import-tracecmd.sh runs it: trace-cmd 3.1.6 needs -k -d in an instance
record_dat() {
	local tc=(trace-cmd record -q -k -d -B "$inst" -C mono -o "$2") e
	for e in block_bio_queue block_rq_issue block_rq_complete; do
		tc+=(-e "block:$e" -f "dev == $devno")
	done
	"${tc[@]}" -- fio --name=bench --filename="$loop" --rw=randread --bs=4k --iodepth=32 \
		--ioengine=libaio --direct=1 --io_size=$(($1 * 4096)) --output=/dev/null \
		>"$dir/tc.out" 2>&1
}
record_dat "$ios" "$dir/bench.dat" && record_dat 100 "$dir/small.dat" ||
	{ echo "trace-cmd record failed: $(tail -1 "$dir/tc.out")"; exit 0; }
losetup -d "$loop"
loop=
rm -f "$dir/disk.img"
printf 'recorded: %s bytes, %s\n' "$(stat -c %s "$dir/bench.dat")" \
	"$(./seekscope report "$dir/bench.dat" | grep -m1 -E '^ +events')"
printf 'and a small one: %s bytes, %s\n' "$(stat -c %s "$dir/small.dat")" \
	"$(./seekscope report "$dir/small.dat" | grep -m1 -E '^ +events')"
bench_run "trace-cmd report > /dev/null (small .dat)" trace-cmd report -i "$dir/small.dat"
./seekscope convert -q "$dir/small.dat" -o "$dir/small.sst"
bench_run "seekscope report (the same in its own format)" ./seekscope report "$dir/small.sst"
sst_wall=$WALL sst_cpu=$CPU
bench_run "seekscope report (small .dat)" ./seekscope report "$dir/small.dat"
GOALS=1 bench_goal "fixed cost: seekscope report of the small .dat" "$WALL" 0.05 s
if [[ -n $WALL && -n $sst_wall ]]; then
	awk -v w="$WALL" -v sw="$sst_wall" -v c="$CPU" -v sc="$sst_cpu" 'BEGIN {
		printf "  %-52s %7.3f s wall, %5.2f s CPU\n", "... beyond reading the same events natively",
		       w - sw, c - sc }'
fi
rm -f "$dir/small.sst"
bench_run "trace-cmd report > /dev/null" trace-cmd report -i "$dir/bench.dat"
tc_report=$WALL tc_report_cpu=$CPU
bench_run "seekscope report" ./seekscope report "$dir/bench.dat"
dat_report=$WALL dat_report_cpu=$CPU
bench_run "seekscope plot -o dat.png" ./seekscope plot "$dir/bench.dat" -o "$dir/dat.png"
dat_png=$WALL dat_png_cpu=$CPU
bench_ratio "trace-cmd report / seekscope report" "$tc_report" "$dat_report" "" \
	"$tc_report_cpu" "$dat_report_cpu"
bench_ratio "trace-cmd report / seekscope plot" "$tc_report" "$dat_png" "" \
	"$tc_report_cpu" "$dat_png_cpu"
# What any reading of the .dat must do: unpack its chunks, timed alone on one CPU
# (tests/tools/tc-unpack.c, the least CPU time of 3 runs), and the analysis a report does,
# timed as the report of the same events in seekscope's own format (which reads that format
# where a .dat's report decodes its records).  On this many CPUs, shared perfectly, the two
# take their CPU time over the CPUs: an estimate of the floor, not a bound.
echo "-- what a report of the .dat must do at least"
if unpack=$(build/tests/tools/tc-unpack "$dir/bench.dat" 3 2>&1); then
	echo "  unpacking its chunks alone: $unpack"
	unpack_cpu=$(sed -n 's/.*: \([0-9.]*\) s CPU.*/\1/p' <<<"$unpack")
	if ./seekscope convert -q "$dir/bench.dat" -o "$dir/bench.sst"; then
		bench_run "seekscope report (same events, own format)" \
			./seekscope report "$dir/bench.sst"
		rm -f "$dir/bench.sst"
	else
		CPU=
	fi
	if [[ -n $unpack_cpu && -n $CPU && -n $dat_report ]]; then
		awk -v u="$unpack_cpu" -v c="$CPU" -v n="$(nproc)" -v r="$dat_report" 'BEGIN {
			f = (u + c) / n
			printf "  %-52s %7.3f s  (an estimate; the .dat report took %.3f s, %.1fx it)\n",
			       sprintf("(unpacking + that report) CPU / %d CPUs", n), f, r,
			       (f > 0 ? r / f : 0) }'
	fi
else
	echo "  unpacking its chunks alone: not measured: ${unpack##*$'\n'}"
fi
if [[ -n ${2:-} ]]; then echo "files kept in $dir"; fi
