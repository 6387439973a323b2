#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark of `seekscope record` against `trace-cmd record` (the same three block events, the
# same device filter, the same ring buffer size): how much each slows a workload down, how much
# CPU it spends per million events, and whether it loses any.  Two fio workloads on a loop
# device backed by /dev/shm: "extreme", 4 KiB random reads at iodepth 32 (libaio) — as many
# requests as the CPUs can make — and "typical", the same at iodepth 1 (one request at a time,
# latency-bound).  Each round runs, at each rate, fio under `seekscope record`, under `seekscope
# record --no-work-names` (without the kworkers' work: the kernel's stack after each of a
# kworker's requests, or the workqueue event, which fires once per request of a loop device,
# on kernels before 5.17) and under `trace-cmd record`, in an order that rotates from round to round, each
# between two runs of fio alone: A R1 A R2 A R3 A.  The machine's speed drifts in steps that
# last some seconds (fio alone at iodepth 1 ran 30,300-44,100 IOPS in 30 runs of 3 s, the same
# speed for a few runs, then another), so each recorder's run is taken against the mean of the
# two runs of fio alone either side of it.  Printed: medians over the rounds, each recorder's
# IOPS as a share of fio alone, that share taken run by run against the runs either side (the
# median of those ratios, with a distribution-free confidence interval of that median from the
# order statistics: with fewer than 6 rounds only the range), and whether each goal is met,
# not met, or undecided at this run's spread.  Asserts nothing.  Root only.
#   tests/bench/record.sh [SECONDS [BUFFER_KB]]     SECONDS per fio run (default 10)
#   ROUNDS=3 (default)   QUICK=1: 3-second runs, one round   DEPTHS="32 1" (default): the rates
#   KEEP=DIR: the runs' figures copied there (CONFIG.DEPTH a line a run, seq.DEPTH their order)
set -u
[[ -n ${KEEP:-} ]] && KEEP=$(realpath -m -- "$KEEP")
cd "$(dirname "$0")/../.." || exit 1
QUICK=${QUICK:-0}
SECS=${1:-$([[ $QUICK == 1 ]] && echo 3 || echo 10)}
BUF=${2:-}
ROUNDS=${ROUNDS:-$([[ $QUICK == 1 ]] && echo 1 || echo 3)}
read -r -a DEPTHS <<<"${DEPTHS:-32 1}"
for d in "${DEPTHS[@]}"; do
	[[ $d == 32 || $d == 1 ]] || { echo "bench-record: DEPTHS takes 32 and/or 1" >&2; exit 1; }
done
[[ $(printf '%s\n' "${DEPTHS[@]}" | sort | uniq -d) ]] &&
	{ echo "bench-record: DEPTHS names a rate twice" >&2; exit 1; }
SEEKSCOPE=${SEEKSCOPE:-$PWD/seekscope}
[[ $(id -u) -eq 0 ]] || { echo "bench-record: needs root" >&2; exit 1; }
for t in fio trace-cmd /usr/bin/time; do
	command -v "$t" >/dev/null || { echo "bench-record: needs $t (make deps)" >&2; exit 1; }
done
[[ -x $SEEKSCOPE ]] || make -s seekscope >/dev/null || exit 1
W=$(mktemp -d /dev/shm/ss-bench.XXXXXX)
LOOP=
cleanup() {
	[[ -n $LOOP ]] && losetup -d "$LOOP"
	trace-cmd reset -B ss-bench-tc >/dev/null 2>&1
	rmdir /sys/kernel/tracing/instances/ss-bench-tc 2>/dev/null
	[[ -n ${KEEP:-} ]] && mkdir -p "$KEEP" && cp "$W"/*.1 "$W"/*.32 "$KEEP"/ 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT
dd if=/dev/zero of="$W/disk.img" bs=1M count=1024 status=none   # really in memory
LOOP=$(losetup -f --show "$W/disk.img") || exit 1
MAJMIN=$(lsblk -ndo MAJ:MIN "$LOOP" | tr -d ' ')
DEV=$(( ${MAJMIN%:*} << 20 | ${MAJMIN#*:} ))
# the ring buffer: seekscope's default, read back from its own trace (trace-cmd gets the same)
"$SEEKSCOPE" record -q -o "$W/probe.sst" -d "$LOOP" -- true || exit 1
BUFKB=${BUF:-$("$SEEKSCOPE" dump --no-events "$W/probe.sst" | sed -n 's/.*buffer \([0-9]*\) KiB.*/\1/p')}

# CPU ticks (user + system) of each kernel worker thread so far, a "PID TICKS" line each: the
# loop device's requests are served by kworkers, and what a tracepoint adds to their path is
# part of the workload's cost
kworker_ticks() {
	local p f
	for p in $(pgrep -x 'kworker/.*'); do
		read -r -a f <"/proc/$p/stat" 2>/dev/null || continue
		echo "$p $((${f[13]} + ${f[14]}))"
	done
}

# fio_run DEPTH -> prints "IOPS CPU_US_PER_IO P999_US": the IOPS, the CPU time fio and the
# kernel's workers spent per request (a figure that other work on the machine changes much less
# than the IOPS: it measures what the tracing adds to each request's path), and the completion
# latency that 99.9 % of the requests stayed under (where a recorder that holds a CPU for a
# while, as it drains the ring buffer, shows first)
fio_run() {
	local k iops p999
	kworker_ticks >"$W/k0"
	# terse v3: field 5 fio's error (a failed run counts as 0 IOPS), 8 the read IOPS, 18-19 the
	# completion latency's percentiles asked for
	read -r iops p999 < <(/usr/bin/time -f '%U %S' -o "$W/fio.time" fio --name=bench \
		--filename="$LOOP" --rw=randread --bs=4k --iodepth="$1" --ioengine=libaio --direct=1 \
		--runtime="$SECS" --time_based --group_reporting --percentile_list=50:99.9 \
		--output-format=terse --terse-version=3 | awk -F';' '{ sub(/.*=/, "", $19); print ($5 == 0 ? $8 : 0), $19 }')
	kworker_ticks >"$W/k1"
	# what each worker spent since, a worker started since counted whole and one gone since
	# not at all (a sum over all workers would lose a gone worker's earlier ticks: below zero)
	k=$(awk 'NR == FNR { t[$1] = $2; next }
		{ d = $2 - ($1 in t ? t[$1] : 0); s += d > 0 ? d : 0 } END { print s + 0 }' \
		"$W/k0" "$W/k1")
	tail -1 "$W/fio.time" | awk -v i="${iops:-0}" -v s="$SECS" -v k="$k" \
		-v hz="$(getconf CLK_TCK)" -v p="${p999:-0}" \
		'{ n = i * s; printf "%s %.3f %s\n", i, (n > 0 ? ($1 + $2 + k / hz) * 1e6 / n : 0), p }'
}

# measure CONFIG DEPTH ROUND: one fio run under CONFIG (alone, ss, ss-nowork, tc); appends
# "IOPS CPU EVENTS LOST US_PER_IO P999_US" to $W/CONFIG.DEPTH, a line a run, and "ROUND CONFIG
# IOPS" to $W/seq.DEPTH, a line a run in the order they ran
measure() {
	local cfg=$1 depth=$2 round=$3 rec='' iops us p999 cpu=0 events=0 lost=0 out=$W/$1.$2.rec
	case $cfg in
	alone)
		read -r iops us p999 < <(fio_run "$depth")
		echo "$iops 0 0 0 $us $p999" >>"$W/$cfg.$depth"
		echo "$round $cfg ${iops:-0}" >>"$W/seq.$depth"
		return ;;
	ss)       set -- "$SEEKSCOPE" record -q -b "$BUFKB" -o "$W/t.sst" -d "$LOOP" ;;
	ss-nowork) set -- "$SEEKSCOPE" record -q --no-work-names -b "$BUFKB" -o "$W/t.sst" -d "$LOOP" ;;
	tc)
		set -- trace-cmd record -k -d -B ss-bench-tc -C mono -b "$BUFKB" -o "$W/tc.dat"
		for e in block_rq_issue block_rq_complete block_rq_requeue; do
			set -- "$@" -e "block:$e" -f "dev == $DEV"
		done ;;
	esac
	/usr/bin/time -f '%U %S' -o "$W/time" "$@" >"$out" 2>&1 & rec=$!
	sleep 2
	read -r iops us p999 < <(fio_run "$depth")
	sleep 0.5
	pkill -INT -P $rec 2>/dev/null
	kill -INT $rec 2>/dev/null
	wait $rec
	cpu=$(tail -1 "$W/time" | awk '{printf "%.3f", $1 + $2}')
	if [[ $cfg == tc ]]; then
		events=$(trace-cmd report -i "$W/tc.dat" 2>/dev/null | grep -c 'block_rq_')
		lost=$(awk '/overrun:/ {s += $2} /dropped events:/ {s += $3} END {print s + 0}' "$out")
		rm -f "$W/tc.dat"*
	else
		read -r events lost < <("$SEEKSCOPE" dump --no-events "$W/t.sst" |
			sed -n 's/^# \([0-9]*\) events, \([0-9]*\) lost$/\1 \2/p')
		rm -f "$W/t.sst"
	fi
	echo "$iops $cpu ${events:-0} ${lost:-0} $us $p999" >>"$W/$cfg.$depth"
	echo "$round $cfg ${iops:-0}" >>"$W/seq.$depth"
}

recorders=(ss ss-nowork tc)
for ((r = 0; r < ROUNDS; r++)); do
	for depth in "${DEPTHS[@]}"; do
		measure alone "$depth" "$r"
		for ((i = 0; i < ${#recorders[@]}; i++)); do
			measure "${recorders[(i + r) % ${#recorders[@]}]}" "$depth" "$r"
			measure alone "$depth" "$r"
		done
	done
done

# the median (of an even count, the mean of the middle two)
med() {
	sort -g | awk '{ v[NR] = $1 }
		END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
col() { awk -v c="$2" '{print $c}' "$1" | med; }
# shares CONFIG DEPTH: a line a run of CONFIG, its IOPS over the mean of the runs of fio alone
# just before and after it in the same round ("ROUND SHARE"; a run where any of the three
# failed is left out)
shares() {
	awk -v c="$1" '{ r[NR] = $1; k[NR] = $2; v[NR] = $3 }
		END { for (i = 2; i < NR; i++)
			if (k[i] == c && k[i - 1] == "alone" && k[i + 1] == "alone" &&
			    r[i - 1] == r[i] && r[i + 1] == r[i] && v[i] > 0 && v[i - 1] > 0 && v[i + 1] > 0)
				print r[i], 2 * v[i] / (v[i - 1] + v[i + 1]) }' "$W/seq.$2"
}
share() { shares "$1" "$2" | awk '{print $2}' | med; }
# ratio_runs A B DEPTH: A's share over B's, a line a round with both; ratio: their median
ratio_runs() {
	awk 'NR == FNR { a[$1] = $2; next } ($1 in a) && $2 > 0 { print a[$1] / $2 }' \
		<(shares "$1" "$3") <(shares "$2" "$3")
}
ratio() { ratio_runs "$@" | med; }
# the values on stdin -> "LO HI COVER": a confidence interval of their median from the order
# statistics (the k-th smallest and k-th largest, k the largest with P(Binomial(n, 1/2) < k)
# <= 2.5 %; with fewer than 6 values the smallest and the largest), COVER its coverage in %
ci() {
	sort -g | awk '{ v[NR] = $1 }
		END { n = NR; if (!n) { print 0, 0, 0; exit }
			k = 1; p = 0.5 ^ n; cdf = p
			for (j = 1; j < n / 2; j++) {      # cdf = P(X <= j - 1)
				p = p * (n - j + 1) / j
				if (cdf + p > 0.025) break
				cdf += p; k = j + 1
			}
			if (k == 1) cdf = 0.5 ^ n
			printf "%.3f %.3f %.1f\n", v[k], v[n - k + 1], 100 * (1 - 2 * cdf) }'
}
# verdict LO HI COVER GOAL -> met (the interval above GOAL), not met (below), undecided;
# without an interval of 95 % (fewer than 6 rounds) or without data, no verdict
verdict() {
	awk -v l="$1" -v h="$2" -v c="$3" -v g="$4" 'BEGIN {
		if (c == 0 && l == 0 && h == 0) print "no data"
		else if (c < 95) print "undecided: too few rounds for a 95% interval (6 or more)"
		else print (l >= g ? "met" : h < g ? "not met" : "undecided at this spread") }'
}
echo "fio randread 4 KiB on $LOOP (loop on /dev/shm), ${SECS} s per run, $(nproc) CPUs" \
	"($(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)), load average" \
	"$(cut -d' ' -f1-3 /proc/loadavg); ring buffer $BUFKB KiB per CPU; median of $ROUNDS round(s)," \
	"fio alone before and after each recorder"
per_m() { awk '$3 > 0 { print $2 / $3 * 1e6 }' "$W/$1.$2" | med; }
for depth in "${DEPTHS[@]}"; do
	alone=$(col "$W/alone.$depth" 1) alone_us=$(col "$W/alone.$depth" 5)
	[[ $depth == 32 ]] && echo "== extreme: iodepth 32" || echo "== typical: iodepth 1"
	printf '%-26s %9s %8s %7s %-19s %10s %8s %10s %5s %11s\n' recorder "fio IOPS" "of alone" \
		"by run" "(interval, cover)" "us/request" "p99.9 us" events lost "rec. s/M ev"
	printf '%-26s %9s %8s %7s %-19s %10s %8s\n' "none (fio alone)" "$alone" "100.0%" 1.000 "" \
		"$alone_us" "$(col "$W/alone.$depth" 6)"
	for cfg in ss ss-nowork tc; do
		file=$W/$cfg.$depth
		iops=$(col "$file" 1) events=$(col "$file" 3)
		case $cfg in
		ss) name="seekscope record" ;;
		ss-nowork) name="seekscope --no-work-names" ;;
		tc) name="trace-cmd record" ;;
		esac
		read -r lo hi cover < <(shares "$cfg" "$depth" | awk '{print $2}' | ci)
		printf '%-26s %9s %7.1f%% %7.3f %-19s %10s %8s %10s %5s %11.3f\n' "$name" "$iops" \
			"$(awk -v a="$iops" -v b="$alone" 'BEGIN { print (b > 0 ? 100 * a / b : 0) }')" \
			"$(share "$cfg" "$depth")" "($lo-$hi, $cover%)" "$(col "$file" 5)" \
			"$(col "$file" 6)" "$events" "$(awk '{print $4}' "$file" | sort -g | tail -1)" \
			"$(per_m "$cfg" "$depth")"
	done
	read -r lo hi cover < <(ratio_runs ss tc "$depth" | ci)
	echo "IOPS under seekscope / under trace-cmd: $(awk -v a="$(col "$W/ss.$depth" 1)" \
		-v b="$(col "$W/tc.$depth" 1)" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }')" \
		"(medians); round by round $(ratio ss tc "$depth" | awk '{printf "%.3f", $1}')" \
		"($lo-$hi, $cover%)"
	cpu=$(awk -v a="$(per_m ss "$depth")" -v b="$(per_m tc "$depth")" \
		'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
	echo "recorder CPU per million events, seekscope / trace-cmd: $cpu (goal <= 0.8:" \
		"$(awk -v c="$cpu" 'BEGIN { print (c > 0 && c <= 0.8 ? "met" : "not met") }'))"
	if [[ $depth == 1 ]]; then
		read -r lo hi cover < <(shares ss 1 | awk '{print $2}' | ci)
		echo "goal, seekscope >= 95% of fio alone: $(verdict "$lo" "$hi" "$cover" 0.95)" \
			"(interval $lo-$hi, $cover%)"
	else
		read -r lo hi cover < <(ratio_runs ss tc 32 | ci)
		echo "goal, seekscope's share never below trace-cmd's (their ratio >= 1):" \
			"$(verdict "$lo" "$hi" "$cover" 1) (interval $lo-$hi, $cover%)"
	fi
done
echo "us/request: the CPU time fio and the kernel's workers spent per request (what the"
echo "tracing adds to each request's path; steadier than the IOPS when other work runs);"
echo "by run: each recorder's run over the mean of the runs of fio alone either side of it, the"
echo "median over the rounds (the share that the drift of the machine's speed moves least), with"
echo "a confidence interval of that median and its coverage; p99.9 us: the completion latency that"
echo "99.9 % of the requests stayed under (a recorder holding a CPU while it drains shows there);"
echo "rec. s/M ev: the recorder's own CPU seconds per million block events it kept"
echo "goals (issue 18): >= 95% of fio alone at typical rates, never below trace-cmd's share" \
	"at the extreme rate, CPU per million events <= 0.8x trace-cmd's, 0 lost (the lost" \
	"column is the largest of the runs); a goal on shares is met when its whole interval is" \
	"on the goal's side, not met when it is all on the other"
