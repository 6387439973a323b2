#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Soak: `seekscope record` captures a sustained load for a long time — fio mixed 4 KiB random
# reads and writes (70/30), rate-limited to SOAK_IOPS in total, on a loop device backed by
# /dev/shm.  Every SOAK_INTERVAL seconds it prints the recorder's resident memory (VmRSS
# from /proc/PID/status) and the trace's size; at the end the events, the lost events, trace
# bytes per event, fio's IOPS and I/O count against the trace's, and how long `report` and `plot` (PNG) take on the result.
# Prints figures; asserts nothing.  Root only.
#   tests/bench/soak.sh [DIR]        DIR keeps the trace (default: a temporary directory on
#                                    disk, removed at exit; 30 minutes at 50k IOPS is ~20 GB)
#   SOAK_MINUTES=30  SOAK_IOPS=50000  SOAK_INTERVAL=60  SOAK_BUFFER_KB=  (record's default)
set -u
source "$(dirname "$0")/lib.sh"
MIN=${SOAK_MINUTES:-30}
IOPS=${SOAK_IOPS:-50000}
EVERY=${SOAK_INTERVAL:-60}
BUF=${SOAK_BUFFER_KB:-}
[[ $(id -u) -eq 0 ]] || { echo "bench-soak: needs root" >&2; exit 1; }
command -v fio >/dev/null || { echo "bench-soak: needs fio (make deps)" >&2; exit 1; }
KEEP=${1:-}
if [[ -n $KEEP ]]; then
	bench_dir "$KEEP"
else
	bench_dir "$(mktemp -d /var/tmp/ss-soak.XXXXXX)"
fi
SEEKSCOPE=${SEEKSCOPE:-$PWD/seekscope}
make -s seekscope >/dev/null || exit 1
SHM=$(mktemp -d /dev/shm/ss-soak.XXXXXX)
LOOP= REC=
cleanup() {
	[[ -n $REC ]] && kill -INT "$REC" 2>/dev/null && wait "$REC" 2>/dev/null
	[[ -n $LOOP ]] && losetup -d "$LOOP"
	rm -rf "$SHM"
	[[ -z $KEEP ]] && rm -rf "$dir"
}
trap cleanup EXIT
dd if=/dev/zero of="$SHM/disk.img" bs=1M count=512 status=none   # really in memory
LOOP=$(losetup -f --show "$SHM/disk.img") || exit 1
SECS=$((MIN * 60))
TRACE=$dir/soak.sst
FIO=(fio --name=soak --filename="$LOOP" --rw=randrw --rwmixread=70 --bs=4k --iodepth=16
	--ioengine=libaio --direct=1 --rate_iops=$((IOPS * 7 / 10)),$((IOPS * 3 / 10))
	--runtime="$SECS" --time_based --group_reporting --output-format=terse --terse-version=3
	--output="$dir/fio.out")
args=(-q -o "$TRACE" -d "$LOOP")
[[ -n $BUF ]] && args+=(-b "$BUF")

echo "soak: fio randrw 70/30 4 KiB, iodepth 16, rate $IOPS IOPS, ${MIN} min on $LOOP (loop on /dev/shm), $(nproc) CPUs; trace in $dir"
start=$(date +%s)
"$SEEKSCOPE" record "${args[@]}" -- "${FIO[@]}" 2>"$dir/record.err" &
REC=$!
printf '%8s %12s %14s\n' minute "RSS KiB" "trace bytes"
next=$EVERY
while kill -0 "$REC" 2>/dev/null; do
	sleep 1
	now=$(( $(date +%s) - start ))
	(( now >= next )) || continue
	next=$((next + EVERY))
	rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$REC/status" 2>/dev/null)
	printf '%8.1f %12s %14s\n' "$(awk -v s="$now" 'BEGIN {print s / 60}')" "${rss:-gone}" \
		"$(stat -c %s "$TRACE" 2>/dev/null || echo -)"
done
wait "$REC"
rc=$? REC=
elapsed=$(( $(date +%s) - start ))
[[ -s $dir/record.err ]] && sed 's/^/record: /' "$dir/record.err"
echo "record exit status: $rc after ${elapsed}s"
head=$("$SEEKSCOPE" dump --no-events "$TRACE" | sed -n 's/^# \([0-9]*\) events, \([0-9]*\) lost$/\1 \2/p')
events=${head% *} lost=${head#* }
bytes=$(stat -c %s "$TRACE")
fio_iops=$(awk -F';' '{print $8 + $49}' "$dir/fio.out")
fio_ios=$(awk -F';' '{print ($6 + $47) / 4}' "$dir/fio.out")     # KiB read + written, 4 KiB each
trace_ios=$("$SEEKSCOPE" report --json "$TRACE" | grep -o '"ios":[0-9]*' | head -1 | cut -d: -f2)
timed() { /usr/bin/time -f '%e %M' -o "$dir/time" "$@" >/dev/null 2>&1; awk '{printf "%ss, %d MiB peak RSS", $1, $2 / 1024}' "$dir/time"; }
echo "fio IOPS (read + write):     $fio_iops"
echo "I/Os, fio's count / trace's:  $fio_ios / $trace_ios"
echo "events:                      $events"
echo "lost events:                 $lost"
echo "trace:                       $bytes bytes, $(awk -v b="$bytes" -v e="$events" 'BEGIN { if (e > 0) printf "%.1f", b / e; else print "n/a" }') bytes per event"
echo "report:                      $(timed "$SEEKSCOPE" report "$TRACE")"
echo "plot (PNG):                  $(timed "$SEEKSCOPE" plot "$TRACE" -o "$dir/soak.png")"
