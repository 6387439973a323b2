#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark of `seekscope record` against `trace-cmd record` (the same three block events, the
# same device filter, the same ring buffer size): how much each slows a workload down, how much
# CPU it spends per million events, and whether it loses any.  Two fio workloads on a loop
# device backed by /dev/shm: "extreme", 4 KiB random reads at iodepth 32 (libaio) — as many
# requests as the CPUs can make — and "typical", the same at iodepth 1 (one request at a time,
# latency-bound).
#
# The method: at each rate one long fio run, logging a histogram of its completion latencies
# every 250 ms (so its completions, counted, and their latencies), while the recorders are
# switched on and off beside it: fio alone for SECONDS, a recorder on for SECONDS, fio alone
# again, the next recorder, and so on, the recorders' order rotating from round to round
# (`seekscope record`; `seekscope record --all-work-names`, whose stack trigger never pauses;
# `trace-cmd record`).  A recorder's window starts once it has been running for a second and a
# half (its ring buffer allocated, its instance set up, seekscope's trigger paused if it is to
# be: it takes half a second of fio's own requests) and ends before it is stopped, and each window of fio alone starts half
# a second after the recorder before it has exited, so that neither side's start or end is
# counted.  A recorder's share is the IOPS of its window over
# the mean of the windows of fio alone just before and after it: the machine's speed drifts in
# steps that last some seconds (fio alone at iodepth 1 ran 30,300-44,100 IOPS in 30 runs of 3
# s), and a window is compared only with its neighbours, seconds away, in the same fio run.
# Printed: each recorder's median share over the rounds with a distribution-free 95 %
# confidence interval of that median from the order statistics (fewer than 6 rounds: only the
# range), fio's 99.9th-percentile latency over all its windows, the CPU fio and the kernel's
# workers and softirq threads spent per request, the recorder's own CPU per million events,
# lost events, and whether each goal is met, not met, or undecided at this run's spread.
# Asserts nothing.  Root only.
#   tests/bench/record.sh [SECONDS [BUFFER_KB]]    SECONDS a window lasts (default 4)
#   ROUNDS=12 (default): windows of each recorder at each rate
#   QUICK=1: one round of 2-second windows       DEPTHS="32 1" (default): the rates
#   KEEP=DIR: the windows' figures and fio's logs copied there
set -u
[[ -n ${KEEP:-} ]] && KEEP=$(realpath -m -- "$KEEP")
cd "$(dirname "$0")/../.." || exit 1
QUICK=${QUICK:-0}
SECS=${1:-$([[ $QUICK == 1 ]] && echo 2 || echo 4)}
BUF=${2:-}
ROUNDS=${ROUNDS:-$([[ $QUICK == 1 ]] && echo 1 || echo 12)}
[[ $SECS =~ ^[1-9][0-9]*$ && $ROUNDS =~ ^[1-9][0-9]*$ ]] ||
	{ echo "bench-record: SECONDS and ROUNDS take whole numbers above 0" >&2; exit 1; }
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
LOOP='' FIO='' REC=''
TCINST=ss-bench-tc-$$
cleanup() {
	[[ -n $REC ]] && stop_recorder
	[[ -n $FIO ]] && kill -INT "$FIO" 2>/dev/null && wait "$FIO"
	[[ -n $LOOP ]] && losetup -d "$LOOP"
	rmdir "/sys/kernel/tracing/instances/$TCINST" 2>/dev/null
	if [[ -n ${KEEP:-} ]]; then
		mkdir -p "$KEEP" && cp "$W"/windows.* "$W"/recorders.* "$W"/fio.* "$W"/*.log \
			"$W"/perwin.* "$W"/p999.* "$KEEP"/ 2>/dev/null
	fi
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
dd if=/dev/zero of="$W/disk.img" bs=1M count=1024 status=none   # really in memory
LOOP=$(losetup -f --show "$W/disk.img") || exit 1
MAJMIN=$(lsblk -ndo MAJ:MIN "$LOOP" | tr -d ' ')
DEV=$(( ${MAJMIN%:*} << 20 | ${MAJMIN#*:} ))
# the ring buffer: seekscope's default, read back from its own trace (trace-cmd gets the same)
"$SEEKSCOPE" record -q -o "$W/probe.sst" -d "$LOOP" -- true || exit 1
BUFKB=${BUF:-$("$SEEKSCOPE" dump --no-events "$W/probe.sst" | sed -n 's/.*buffer \([0-9]*\) KiB.*/\1/p')}
HZ=$(getconf CLK_TCK)

now_ms() { date +%s%3N; }

# "PID TICKS" a line for each kernel worker thread, softirq thread and each of fio's processes:
# their CPU (user + system) so far.  The loop device's requests are served by kworkers and
# completed in ksoftirqd, and what a tracepoint adds to their path is part of the workload's
# cost.
ticks() {
	local p f
	for p in $(pgrep -x 'kworker/.*') $(pgrep -x 'ksoftirqd/.*') $(pgrep -x fio); do
		read -r -a f 2>/dev/null <"/proc/$p/stat" || continue   # gone since pgrep
		echo "$p $((${f[13]} + ${f[14]}))"
	done
}
# tick_delta A B: the CPU ticks spent between two samples, a thread started since counted
# whole and one gone since not at all (a difference of sums would lose a gone thread's ticks)
tick_delta() {
	awk 'NR == FNR { t[$1] = $2; next }
		{ d = $2 - ($1 in t ? t[$1] : 0); s += d > 0 ? d : 0 } END { print s + 0 }' "$1" "$2"
}

# start_recorder CONFIG DEPTH ROUND: CONFIG's recorder in the background, pid in REC
start_recorder() {
	local out=$W/$1.$2.$3
	case $1 in
	ss)        set -- "$SEEKSCOPE" record -q -b "$BUFKB" -o "$out.sst" -d "$LOOP" ;;
	ss-all)    set -- "$SEEKSCOPE" record -q --all-work-names -b "$BUFKB" -o "$out.sst" -d "$LOOP" ;;
	tc)
		set -- trace-cmd record -k -d -B "$TCINST" -C mono -b "$BUFKB" -o "$out.dat"
		for e in block_rq_issue block_rq_complete block_rq_requeue; do
			set -- "$@" -e "block:$e" -f "dev == $DEV"
		done ;;
	esac
	/usr/bin/time -f '%U %S' -o "$out.time" "$@" >"$out.out" 2>&1 &
	REC=$!
}
# stop_recorder: SIGINT to the recorder (/usr/bin/time ignores it while its child runs); its
# exit status
stop_recorder() {
	local st=0
	pkill -INT -P "$REC" 2>/dev/null
	wait "$REC" || st=$?
	REC=''
	return $st
}
# fail MESSAGE: one line, the run abandoned (cleanup at exit)
fail() {
	echo "bench-record: $*" >&2
	exit 1
}
# alive CONFIG DEPTH ROUND: fio and the recorder (if any) still running, else the run fails
alive() {
	kill -0 "$FIO" 2>/dev/null || fail "fio at iodepth $2 stopped: $(tail -1 "$W/fio.$2")"
	[[ -z $REC ]] || kill -0 "$REC" 2>/dev/null ||
		fail "$1 stopped while recording: $(tail -1 "$W/$1.$2.$3.out")"
}

# window KIND CONFIG ROUND DEPTH: SECS of fio as it is, appended to $W/windows.DEPTH as
# "KIND CONFIG ROUND START_MS END_MS TICKS": KIND alone or on, TICKS the CPU ticks fio and the
# kernel's threads spent in it
window() {
	local t0 t1
	ticks >"$W/k0"
	t0=$(now_ms)
	sleep "$SECS"
	t1=$(now_ms)
	ticks >"$W/k1"
	echo "$1 $2 $3 $t0 $t1 $(tick_delta "$W/k0" "$W/k1")" >>"$W/windows.$4"
}

# run DEPTH: one fio run with the recorders switched on and off beside it
run() {
	local depth=$1 r i cfg recorders=(ss ss-all tc)
	fio --name=bench --filename="$LOOP" --rw=randread --bs=4k --iodepth="$depth" \
		--ioengine=libaio --direct=1 --runtime=100000 --time_based --log_unix_epoch=1 \
		--write_hist_log="$W/hist.$depth" --log_hist_msec=250 --output-format=terse \
		--terse-version=3 >"$W/fio.$depth" 2>&1 &
	FIO=$!
	sleep 3                                    # fio settles
	alive - "$depth" 0
	for ((r = 0; r < ROUNDS; r++)); do
		for ((i = 0; i < ${#recorders[@]}; i++)); do
			cfg=${recorders[(i + r) % ${#recorders[@]}]}
			window alone - "$r" "$depth"
			start_recorder "$cfg" "$depth" "$r"
			sleep 1.5
			alive "$cfg" "$depth" "$r"
			window on "$cfg" "$r" "$depth"
			alive "$cfg" "$depth" "$r"
			# seekscope record stopped by SIGINT exits 130, as a shell's command would
			stop_recorder || (($? == 130)) || fail "$cfg exited with an error at iodepth" \
				"$depth: $(tail -1 "$W/$cfg.$depth.$r.out")"
			# trace-cmd -k leaves its instance with the events on (only tracing_on off):
			# they would still be built, filtered and dropped for every request of the
			# windows that follow
			if [[ $cfg == tc ]]; then
				rmdir "/sys/kernel/tracing/instances/$TCINST" ||
					fail "cannot remove trace-cmd's instance $TCINST"
			fi
			sleep 0.5
			alive - "$depth" "$r"
		done
	done
	window alone - "$ROUNDS" "$depth"
	kill -INT "$FIO"
	wait "$FIO"
	FIO=''
	[[ -s $W/hist.${depth}_clat_hist.1.log ]] ||
		fail "fio at iodepth $depth wrote no log: $(tail -1 "$W/fio.$depth")"
	# the recorders' events, counted now that nothing runs beside the counting
	for ((r = 0; r < ROUNDS; r++)); do
		for cfg in "${recorders[@]}"; do
			local out=$W/$cfg.$depth.$r events=0 lost=0 paused=0
			if [[ $cfg == tc ]]; then
				events=$(trace-cmd report -i "$out.dat" 2>/dev/null | grep -c 'block_rq_')
				lost=$(awk '/overrun:/ {s += $2} /dropped events:/ {s += $3}
					END {print s + 0}' "$out.out")
			else
				"$SEEKSCOPE" dump --no-events "$out.sst" >"$out.meta"
				read -r events lost < <(sed -n \
					's/^# \([0-9]*\) events, \([0-9]*\) lost$/\1 \2/p' "$out.meta")
				# how long the kworkers' stack trigger was paused (seekscope's default)
				paused=$(sed -n 's/^# meta work-names.paused_s = //p' "$out.meta")
			fi
			[[ ${events:-0} -gt 0 ]] || fail "$cfg recorded no events at iodepth $depth" \
				"(round $r): $(tail -1 "$out.out")"
			echo "$cfg $r ${events:-0} ${lost:-0} $(tail -1 "$out.time" |
				awk '{print $1 + $2}') ${paused:-0}" >>"$W/recorders.$depth"
			rm -f "$out".*
		done
	done
}

for depth in "${DEPTHS[@]}"; do
	run "$depth"
done

# the median (of an even count, the mean of the middle two)
med() {
	sort -g | awk '{ v[NR] = $1 }
		END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
# scan DEPTH: fio's histogram log (a line per 250 ms interval: its time, the direction, the
# block size, then each bin's count of completions) read once against the windows, into
# $W/perwin.DEPTH, "KIND CONFIG ROUND IOPS US_PER_REQUEST" a window, its IOPS the completions
# of the intervals that lie wholly inside it over their time, and $W/p999.DEPTH, "KIND CONFIG
# P999_US" for each kind of window: the completion latency under which 99.9 % of those
# windows' requests completed.  fio's bins: below 128, bin I holds I ns; above, groups of 64
# bins, group G = I / 64 - 1 starting at 2^(G+6) ns with bins 2^G ns wide; a bin counts as
# its middle
scan() {
	[[ -s $W/perwin.$1 ]] && return
	awk -F', *' -v hz="$HZ" -v perwin="$W/perwin.$1" -v pct="$W/p999.$1" '
		BEGIN { j = 1 }
		NR == FNR { split($0, w, " "); nw++; k[nw] = w[1]; g[nw] = w[2]; r[nw] = w[3]
			a[nw] = w[4]; b[nw] = w[5]; tk[nw] = w[6]; next }
		$1 != last { prev = last == "" ? $1 - 250 : last; last = $1
			while (j <= nw && b[j] < $1) j++      # windows and intervals both in time order
			in_w = j <= nw && prev >= a[j] && $1 <= b[j]
			if (in_w) ms[j] += $1 - prev }
		in_w { key = k[j] " " g[j]; keys[key] = 1
			for (i = 4; i <= NF; i++) if ($i) { n[j] += $i; h[key, i - 4] += $i; tot[key] += $i
				if (i - 4 > top[key]) top[key] = i - 4 } }
		END { for (j = 1; j <= nw; j++) {
				iops = ms[j] ? n[j] * 1000 / ms[j] : 0; req = iops * (b[j] - a[j]) / 1000
				printf "%s %s %s %.0f %.3f\n", k[j], g[j], r[j], iops,
					(req > 0 ? tk[j] / hz * 1e6 / req : 0) > perwin }
			for (key in keys) { s = 0
				for (i = 0; i <= top[key]; i++) { s += h[key, i]; if (s >= 0.999 * tot[key]) break }
				if (i < 128) ns = i
				else { q = int(i / 64) - 1; ns = 2 ^ (q + 6) + (i % 64 + 0.5) * 2 ^ q }
				printf "%s %.0f\n", key, ns / 1000 > pct } }' \
		"$W/windows.$1" "$W/hist.$1_clat_hist.1.log"
}
per_window() {
	scan "$1"
	cat "$W/perwin.$1"
}
# shares CONFIG DEPTH: "ROUND SHARE" for each window of CONFIG: its IOPS over the mean of the
# windows of fio alone just before and after it
shares() {
	per_window "$2" | awk -v c="$1" '{ k[NR] = $1; g[NR] = $2; r[NR] = $3; v[NR] = $4 }
		END { for (i = 2; i < NR; i++)
			if (k[i] == "on" && g[i] == c && k[i - 1] == "alone" && k[i + 1] == "alone" &&
			    v[i - 1] > 0 && v[i + 1] > 0)
				print r[i], 2 * v[i] / (v[i - 1] + v[i + 1]) }'
}
share() { shares "$1" "$2" | awk '{print $2}' | med; }
# ratio_runs A B DEPTH: A's share over B's, a line a round with both
ratio_runs() {
	awk 'NR == FNR { a[$1] = $2; next } ($1 in a) && $2 > 0 { print a[$1] / $2 }' \
		<(shares "$1" "$3") <(shares "$2" "$3")
}
# col_of KIND CONFIG DEPTH FIELD: the median of FIELD (4 IOPS, 5 us/request) over the windows
col_of() {
	per_window "$3" | awk -v k="$1" -v c="$2" -v f="$4" '$1 == k && $2 == c { print $f }' | med |
		awk -v f="$4" '{ printf (f == 4 ? "%.0f\n" : "%.2f\n"), $1 }'
}
# p999 KIND CONFIG DEPTH: the 99.9th percentile of those windows' latencies (us; 0: none)
p999() {
	scan "$3"
	awk -v k="$1" -v c="$2" '$1 == k && $2 == c { v = $3 } END { print v + 0 }' "$W/p999.$3"
}
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
per_m() { awk -v c="$1" '$1 == c && $3 > 0 { print $5 / $3 * 1e6 }' "$W/recorders.$2" | med; }
echo "fio randread 4 KiB on $LOOP (loop on /dev/shm), $(nproc) CPUs" \
	"($(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)), load average" \
	"$(cut -d' ' -f1-3 /proc/loadavg); ring buffer $BUFKB KiB per CPU; one fio run a rate," \
	"the recorders on for $SECS s at a time between as long of fio alone, $ROUNDS round(s)"
for depth in "${DEPTHS[@]}"; do
	[[ $depth == 32 ]] && echo "== extreme: iodepth 32" || echo "== typical: iodepth 1"
	alone=$(col_of alone - "$depth" 4)
	printf '%-26s %9s %8s %7s %-19s %10s %8s %10s %5s %11s\n' recorder "fio IOPS" "of alone" \
		"share" "(interval, cover)" "us/request" "p99.9 us" events lost "rec. s/M ev"
	printf '%-26s %9s %8s %7s %-19s %10s %8s\n' "none (fio alone)" "$alone" "100.0%" 1.000 "" \
		"$(col_of alone - "$depth" 5)" "$(p999 alone - "$depth")"
	for cfg in ss ss-all tc; do
		iops=$(col_of on "$cfg" "$depth" 4)
		case $cfg in
		ss) name="seekscope record" ;;
		ss-all) name="seekscope --all-work-names" ;;
		tc) name="trace-cmd record" ;;
		esac
		read -r lo hi cover < <(shares "$cfg" "$depth" | awk '{print $2}' | ci)
		printf '%-26s %9s %7.1f%% %7.3f %-19s %10s %8s %10s %5s %11.3f\n' "$name" "$iops" \
			"$(awk -v a="$iops" -v b="$alone" 'BEGIN { print (b > 0 ? 100 * a / b : 0) }')" \
			"$(share "$cfg" "$depth")" "($lo-$hi, $cover%)" "$(col_of on "$cfg" "$depth" 5)" \
			"$(p999 on "$cfg" "$depth")" \
			"$(awk -v c="$cfg" '$1 == c { print $3 }' "$W/recorders.$depth" | med |
				awk '{ printf "%.0f", $1 }')" \
			"$(awk -v c="$cfg" '$1 == c { print $4 }' "$W/recorders.$depth" | sort -g | tail -1)" \
			"$(per_m "$cfg" "$depth")"
	done
	read -r lo hi cover < <(ratio_runs ss tc "$depth" | ci)
	echo "seekscope's share over trace-cmd's, round by round:" \
		"$(ratio_runs ss tc "$depth" | med | awk '{printf "%.3f", $1}') ($lo-$hi, $cover%)"
	echo "seekscope record's stack trigger paused in" \
		"$(awk '$1 == "ss" && $6 > 0' "$W/recorders.$depth" | wc -l) of $ROUNDS runs," \
		"for $(awk '$1 == "ss" { print $6 }' "$W/recorders.$depth" | med |
			awk '{ printf "%.2f", $1 }') s of each (median)"
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
echo "fio IOPS: the median of the windows; share: a window's IOPS over the mean of the windows"
echo "of fio alone either side of it, the median over the rounds, with a confidence interval of"
echo "that median and its coverage; us/request: the CPU time fio, the kernel's workers and its"
echo "softirq threads spent per request (what the tracing adds to each request's path); p99.9"
echo "us: the completion latency that 99.9 % of the requests of those windows stayed under (a"
echo "recorder holding a CPU while it drains shows there); rec. s/M ev: the recorder's own CPU"
echo "seconds (its whole run) per million block events it kept; lost: the most of any run"
echo "goals (issue 18): >= 95% of fio alone at typical rates, never below trace-cmd's share" \
	"at the extreme rate, CPU per million events <= 0.8x trace-cmd's, 0 lost; a goal on" \
	"shares is met when its whole interval is on the goal's side, not met when it is all on" \
	"the other"
