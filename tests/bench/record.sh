#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark of `seekscope record` against `trace-cmd record` on the same high-IOPS workload:
# fio 4 KiB random reads, iodepth 32, on a loop device backed by /dev/shm.  Prints figures
# (events/s captured, lost events, recorder CPU seconds per million events, ratio); asserts
# nothing.  Root only.  Usage: tests/bench/record.sh [SECONDS] [BUFFER_KB]
set -u
cd "$(dirname "$0")/../.."
SECS=${1:-10}
BUF=${2:-}
SEEKSCOPE=${SEEKSCOPE:-./seekscope}
[[ $(id -u) -eq 0 ]] || { echo "bench-record: needs root" >&2; exit 1; }
for t in fio trace-cmd /usr/bin/time; do
	command -v "$t" >/dev/null || { echo "bench-record: needs $t (make deps)" >&2; exit 1; }
done
W=$(mktemp -d /dev/shm/ss-bench.XXXXXX)
LOOP=
cleanup() {
	[[ -n $LOOP ]] && losetup -d "$LOOP"
	trace-cmd reset -B ss-bench-tc >/dev/null 2>&1
	rmdir /sys/kernel/tracing/instances/ss-bench-tc 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT
truncate -s 1G "$W/disk.img"
dd if=/dev/zero of="$W/disk.img" bs=1M count=1024 status=none   # really in memory
LOOP=$(losetup -f --show "$W/disk.img")
MAJMIN=$(lsblk -ndo MAJ:MIN "$LOOP" | tr -d ' ')
DEV=$(( ${MAJMIN%:*} << 20 | ${MAJMIN#*:} ))
FIO=(fio --name=bench --filename="$LOOP" --rw=randread --bs=4k --iodepth=32 --ioengine=libaio
	--direct=1 --runtime="$SECS" --time_based --group_reporting --output-format=terse
	--terse-version=3)

# IOPS of the workload alone, for reference
iops_alone=$("${FIO[@]}" | awk -F';' '{print $8}')

run_recorder() {   # run_recorder NAME COMMAND...   -> sets CPU (s) and IOPS
	local name=$1; shift
	/usr/bin/time -f '%U %S' -o "$W/$name.time" "$@" >"$W/$name.out" 2>&1 &
	local rec=$!
	sleep 2
	IOPS=$("${FIO[@]}" | awk -F';' '{print $8}')
	sleep 0.5
	pkill -INT -P $rec 2>/dev/null || true
	kill -INT $rec 2>/dev/null
	wait $rec
	CPU=$(awk '{printf "%.3f", $1 + $2}' "$W/$name.time")
}

# ---- seekscope
args=(-q -o "$W/ss.sst" -d "$LOOP")
[[ -n $BUF ]] && args+=(-b "$BUF")
run_recorder seekscope "$SEEKSCOPE" record "${args[@]}"
ss_cpu=$CPU ss_iops=$IOPS
ss_events=$("$SEEKSCOPE" dump --no-events "$W/ss.sst" | sed -n 's/^# \([0-9]*\) events, \([0-9]*\) lost$/\1/p')
ss_lost=$("$SEEKSCOPE" dump --no-events "$W/ss.sst" | sed -n 's/^# \([0-9]*\) events, \([0-9]*\) lost$/\2/p')
ss_bufkb=$("$SEEKSCOPE" dump --no-events "$W/ss.sst" | sed -n 's/.*buffer \([0-9]*\) KiB.*/\1/p')

# ---- trace-cmd, same events, same filter, same buffer size
tc_args=(record -k -d -B ss-bench-tc -C mono -b "$ss_bufkb" -o "$W/tc.dat")
for e in block_rq_issue block_rq_complete block_rq_requeue; do tc_args+=(-e "block:$e" -f "dev == $DEV"); done
run_recorder trace-cmd trace-cmd "${tc_args[@]}"
tc_cpu=$CPU tc_iops=$IOPS
tc_events=$(trace-cmd report -i "$W/tc.dat" 2>/dev/null | grep -c 'block_rq_')
tc_lost=$(awk '/overrun:/ {s += $2} /dropped events:/ {s += $3} END {print s + 0}' "$W/trace-cmd.out")

per_m() { awk -v c="$1" -v n="$2" 'BEGIN { if (n > 0) printf "%.3f", c / n * 1e6; else print "n/a" }'; }
rate() { awk -v n="$1" -v s="$SECS" 'BEGIN { printf "%.0f", n / (s + 2.5) }'; }
echo "workload: fio randread 4 KiB, iodepth 32, ${SECS}s on $LOOP (loop on /dev/shm), $(nproc) CPUs"
echo "fio IOPS alone:              $iops_alone"
printf '%-12s %10s %12s %10s %10s %14s\n' recorder "fio IOPS" events "events/s" lost "CPU s/M ev"
printf '%-12s %10s %12s %10s %10s %14s\n' seekscope "$ss_iops" "$ss_events" "$(rate "$ss_events")" "$ss_lost" "$(per_m "$ss_cpu" "$ss_events")"
printf '%-12s %10s %12s %10s %10s %14s\n' trace-cmd "$tc_iops" "$tc_events" "$(rate "$tc_events")" "$tc_lost" "$(per_m "$tc_cpu" "$tc_events")"
echo "recorder CPU: seekscope ${ss_cpu}s, trace-cmd ${tc_cpu}s (ring buffer ${ss_bufkb} KiB per CPU for both)"
awk -v a="$(per_m "$ss_cpu" "$ss_events")" -v b="$(per_m "$tc_cpu" "$tc_events")" \
	'BEGIN { if (b > 0) printf "CPU per million events, seekscope / trace-cmd: %.2f\n", a / b }'
