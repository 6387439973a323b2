#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Load test: a long capture of at least 10 million events — fio 4 KiB random reads, iodepth 32,
# on a loop device backed by /dev/shm, for a fixed amount of I/O (each 4 KiB read gives an
# issue and a completion event) — then a report and plots (PNG, SVG, every panel) over the
# resulting file.  Prints the figures: events, lost events at the default ring buffer size,
# recorder peak RSS, trace size, and the peak RSS and time of `seekscope report` and
# `seekscope plot` on it.  Then the cost of process attribution: the same workload recorded
# again by a baseline — BASELINE=PATH, a seekscope without it (e.g. built from an older
# commit), else this one with --no-work-names (task names without the kworkers' work) —
# with recorder CPU (user + sys), trace size and lost events of both.  Last, the same workload
# recorded by trace-cmd into a .dat, read by `trace-cmd report > /dev/null` and by seekscope's
# report and plot, side by side as ratios.  Asserts nothing.  Root only.
# Usage: tests/bench/load.sh [MIN_EVENTS]      (default 10000000; KEEP_PLOT=FILE.png keeps the PNG)
#        QUICK=1 tests/bench/load.sh           (200,000 events: seconds, for CI)
set -u
cd "$(dirname "$0")/../.."
MIN_EVENTS=${1:-$([[ ${QUICK:-0} == 1 ]] && echo 200000 || echo 10000000)}
SEEKSCOPE=${SEEKSCOPE:-./seekscope}
[[ $(id -u) -eq 0 ]] || { echo "bench-load: needs root" >&2; exit 1; }
for t in fio /usr/bin/time; do
	command -v "$t" >/dev/null || { echo "bench-load: needs $t (make deps)" >&2; exit 1; }
done
W=$(mktemp -d /dev/shm/ss-load.XXXXXX)
LOOP=
INST=ss-bench-load-$$
cleanup() {
	[[ -n $LOOP ]] && losetup -d "$LOOP"
	if [[ -d /sys/kernel/tracing/instances/$INST ]]; then
		trace-cmd reset -B "$INST" >/dev/null 2>&1
		rmdir "/sys/kernel/tracing/instances/$INST" 2>/dev/null
	fi
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
dd if=/dev/zero of="$W/disk.img" bs=1M count=1024 status=none   # really in memory
LOOP=$(losetup -f --show "$W/disk.img")
IOS=$(( MIN_EVENTS / 2 + MIN_EVENTS / 50 + 1 ))                 # 2 events per I/O, 2 % margin

rss_kb() { sed -n 's/^\s*Maximum resident set size (kbytes): //p' "$1"; }
wall() { sed -n 's/^\s*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$1"; }

# ---- the capture (default ring buffer size: no -b): capture NAME SEEKSCOPE [OPTIONS]
capture() {
	local name=$1 bin=$2; shift 2
	/usr/bin/time -v -o "$W/$name.time" "$bin" record -q "$@" -o "$W/$name.sst" -d "$LOOP" -- \
		fio --name=load --filename="$LOOP" --rw=randread --bs=4k --iodepth=32 \
		--ioengine=libaio --direct=1 --io_size=$(( IOS * 4096 )) --group_reporting \
		--output-format=terse --terse-version=3 --output="$W/fio.out" 2>"$W/$name.err"
}
cpu_s() { awk -F': ' '/User time|System time/ {s += $2} END {printf "%.2f", s}' "$1"; }
capture load "$SEEKSCOPE"
rec_status=$?
iops=$(awk -F';' 'NF > 8 {print $8}' "$W/fio.out")
line=$("$SEEKSCOPE" dump --no-events "$W/load.sst" | tail -1)
events=$(sed -n 's/^# \([0-9]*\) events, \([0-9]*\) lost$/\1/p' <<< "$line")
lost=$(sed -n 's/^# \([0-9]*\) events, \([0-9]*\) lost$/\2/p' <<< "$line")
bufkb=$("$SEEKSCOPE" dump --no-events "$W/load.sst" | sed -n 's/.*buffer \([0-9]*\) KiB.*/\1/p')

# ---- the report and the plots over it: timed NAME COMMAND... keeps NAME's exit status and
# the time/RSS figures; figures NAME LABEL prints them
timed() {
	local name=$1; shift
	/usr/bin/time -v -o "$W/$name.time" "$@" >"$W/$name.out" 2>&1
	echo $? >"$W/$name.status"
}
figures() {
	printf '%-40s %s\n' "$2 exit status" "$(cat "$W/$1.status")" \
		"$2 wall time" "$(wall "$W/$1.time")" \
		"$2 peak RSS" "$(( $(rss_kb "$W/$1.time") / 1024 )) MiB"
}
timed report "$SEEKSCOPE" report "$W/load.sst"
# every panel, PNG and SVG (vector output keeps every mark it draws)
timed plot "$SEEKSCOPE" plot "$W/load.sst" -o "$W/load.png" -p io,seeks,tput,iops,lat,qd,dist
timed plotsvg "$SEEKSCOPE" plot "$W/load.sst" -o "$W/load.svg"

echo "workload: fio randread 4 KiB, iodepth 32, $IOS I/Os on $LOOP (loop on /dev/shm), $(nproc) CPUs, $iops IOPS"
printf '%-40s %s\n' "record exit status" "$rec_status" \
	"events captured" "$events" \
	"lost events" "$lost (ring buffer ${bufkb} KiB per CPU, the default)" \
	"capture wall time" "$(wall "$W/load.time")" \
	"recorder peak RSS" "$(( $(rss_kb "$W/load.time") / 1024 )) MiB" \
	"trace file" "$(( $(stat -c %s "$W/load.sst") / 1048576 )) MiB"
figures report report
figures plot "plot PNG (7 panels)"
figures plotsvg "plot SVG (default panels)"
printf '%-40s %s\n' "plot PNG file" "$(( $(stat -c %s "$W/load.png" 2>/dev/null || echo 0) / 1024 )) KiB" \
	"plot SVG file" "$(( $(stat -c %s "$W/load.svg" 2>/dev/null || echo 0) / 1024 )) KiB"
[[ -n ${KEEP_PLOT:-} ]] && cp "$W/load.png" "$KEEP_PLOT" && echo "plot kept in $KEEP_PLOT"
[[ ${events:-0} -ge $MIN_EVENTS ]] || echo "bench-load: only ${events:-0} events (wanted $MIN_EVENTS)" >&2
grep -m3 -E 'I/Os|IOPS|lost' "$W/report.out" | sed 's/^/report: /'

# ---- the cost of process attribution: the same capture by the baseline
if [[ -n ${BASELINE:-} ]]; then
	capture base "$BASELINE"; base_what="$BASELINE"
else
	capture base "$SEEKSCOPE" --no-work-names; base_what="--no-work-names"
fi
base_status=$?
summary() {   # summary NAME: events lost tasks work-records (work events or kworkers' stacks)
	"$SEEKSCOPE" dump --no-events "$W/$1.sst" | awk '
		/^# task / {t++}
		/^# cpu [0-9]+: / {r += $4}
		/^# [0-9]+ events, [0-9]+ lost$/ {e = $2; l = $4}
		END {printf "%d %d %d %d", e, l, t, r - e}'
}
read -r a_ev a_lost a_tasks a_work <<<"$(summary load)"
read -r b_ev b_lost b_tasks b_work <<<"$(summary base)"
a_cpu=$(cpu_s "$W/load.time"); b_cpu=$(cpu_s "$W/base.time")
a_sz=$(stat -c %s "$W/load.sst"); b_sz=$(stat -c %s "$W/base.sst")
echo "process attribution: this seekscope vs the baseline ($base_what), the same workload"
printf '%-40s %14s %14s\n' "" "attribution" "baseline" \
	"record exit status" "$rec_status" "$base_status" \
	"events captured" "$a_ev" "$b_ev" \
	"lost events" "$a_lost" "$b_lost" \
	"task records" "$a_tasks" "$b_tasks" \
	"work events or kworker stacks read (not stored)" "$a_work" "$b_work" \
	"recorder CPU (user + sys) s" "$a_cpu" "$b_cpu" \
	"recorder CPU s per million events" "$(awk -v c="$a_cpu" -v n="$a_ev" 'BEGIN {printf "%.3f", n ? c / n * 1e6 : 0}')" \
	"$(awk -v c="$b_cpu" -v n="$b_ev" 'BEGIN {printf "%.3f", n ? c / n * 1e6 : 0}')" \
	"trace file bytes" "$a_sz" "$b_sz"
awk -v a="$a_cpu" -v b="$b_cpu" -v x="$a_sz" -v y="$b_sz" -v ae="$a_ev" -v be="$b_ev" 'BEGIN {
	printf "extra recorder CPU: %+.2f s (%+.1f %%); extra trace size: %+d bytes (%+.3f %% per event)\n",
	       a - b, (b > 0 ? (a / b - 1) * 100 : 0), x - y,
	       ((ae > 0 && be > 0 && y > 0) ? ((x / ae) / (y / be) - 1) * 100 : 0) }'

# ---- the same workload recorded by trace-cmd: its own reader against seekscope's import
if ! command -v trace-cmd >/dev/null; then
	echo "trace-cmd: not installed, no comparison"
	exit 0
fi
devno=$(( $(stat -c '%t' "$LOOP" | sed 's/^/0x/') << 20 | $(stat -c '%T' "$LOOP" | sed 's/^/0x/') ))
tc=(trace-cmd record -q -k -d -B "$INST" -C mono -o "$W/load.dat")
for e in block_rq_issue block_rq_complete; do tc+=(-e "block:$e" -f "dev == $devno"); done
"${tc[@]}" -- fio --name=load --filename="$LOOP" --rw=randread --bs=4k --iodepth=32 \
	--ioengine=libaio --direct=1 --io_size=$(( IOS * 4096 )) --output=/dev/null >"$W/tc.out" 2>&1
tc_status=$?
timed tcreport trace-cmd report -i "$W/load.dat"
timed datreport "$SEEKSCOPE" report "$W/load.dat"
timed datplot "$SEEKSCOPE" plot "$W/load.dat" -o "$W/load-dat.png"
secs() { awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; printf "%.2f", s }' <<< "$(wall "$W/$1.time")"; }
echo "the same workload recorded by trace-cmd (record exit status $tc_status):" \
	"$(stat -c %s "$W/load.dat") bytes, $("$SEEKSCOPE" report "$W/load.dat" | grep -m1 -E '^ +events')"
figures tcreport "trace-cmd report > /dev/null"
figures datreport "seekscope report of the .dat"
figures datplot "seekscope plot of the .dat"
awk -v t="$(secs tcreport)" -v r="$(secs datreport)" -v p="$(secs datplot)" -v s="$(secs report)" 'BEGIN {
	if (r > 0) printf "ratio trace-cmd report / seekscope report of the .dat: %.1fx\n", t / r
	if (p > 0) printf "ratio trace-cmd report / seekscope plot of the .dat:   %.1fx\n", t / p
	if (s > 0) printf "ratio trace-cmd report / seekscope report of its own trace: %.1fx\n", t / s }'
