# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the benchmark scripts: source it, then `bench_dir "${2:-}"` sets DIR to the named
# directory (made if missing) or to a temporary one removed at exit, and moves to the source
# tree so that `make` builds what the benchmark needs.
bench_dir() {
	if [[ -n ${1:-} ]]; then
		dir=$1
		mkdir -p "$dir"
		dir=$(cd "$dir" && pwd)
	else
		dir=$(mktemp -d /tmp/ss-bench-XXXXXX)
		trap 'rm -rf "$dir"' EXIT
	fi
	cd "$(dirname "${BASH_SOURCE[0]}")/../.."
}

# Repetitions per figure: RUNS (default 5, QUICK=1: 3); the median is printed, so that other
# work on the machine skews it less than a single run or the mean.
RUNS=${RUNS:-$([[ ${QUICK:-0} == 1 ]] && echo 3 || echo 5)}

bench_header() {
	echo "$(nproc) CPUs ($(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)), load average" \
		"$(cut -d' ' -f1-3 /proc/loadavg) (other work skews the figures); median of $RUNS runs"
	bench_cpu_speeds
	if pgrep -x 'kdamond\.[0-9]+' >/dev/null 2>&1; then
		echo "kdamond runs (DAMON: cold page cache reclaimed); the inputs are read into the" \
			"cache before each run"
	fi
}

# The same fixed loop timed on each CPU this process may use (taskset), the best of two runs
# less an empty run's start-up, printed relative to the fastest.  On a virtual machine a CPU
# can be much slower than the others for minutes (seen: one of two at two thirds of the
# other's speed, its host core shared), and whichever thread runs there is slowed by as much:
# a figure is then worth comparing only with one from the same spell.
bench_cpu_speeds() {
	local c i s e t best empty ids line rows=()
	command -v taskset >/dev/null || return 0
	# Cpus_allowed_list: "0-1", "2,3,5-7" (a cpuset may leave CPUs out)
	ids=$(awk '/^Cpus_allowed_list/ { n = split($2, r, ","); for (i = 1; i <= n; i++) {
		split(r[i], b, "-"); for (c = b[1]; c <= (b[2] == "" ? b[1] : b[2]); c++) print c } }' \
		/proc/self/status)
	for c in $ids; do
		s=$(date +%s%N)
		taskset -c "$c" awk 'BEGIN { }' 2>/dev/null || return 0
		e=$(date +%s%N)
		empty=$(( e - s )) best=0
		for i in 1 2; do
			s=$(date +%s%N)
			taskset -c "$c" awk 'BEGIN { for (i = 0; i < 3000000; i++) s += i % 7 }'
			e=$(date +%s%N)
			t=$(( e - s - empty ))
			(( t > 0 && (best == 0 || t < best) )) && best=$t
		done
		rows+=("$c $best")
	done
	(( ${#rows[@]} )) || return 0
	line=$(printf '%s\n' "${rows[@]}" | awk '
		$2 > 0 { c[++n] = $1; t[n] = $2; if (n == 1 || $2 < m) m = $2 }
		END { for (i = 1; i <= n; i++)
			printf "%scpu%s %.2f", (i > 1 ? ", " : ""), c[i], m / t[i] }')
	echo "CPU speeds (a fixed loop on each, relative to the fastest): $line"
}

# bench_warm FILE...: read the files into the page cache now and, untimed, before every run of
# bench_run from then on (those that exist then).  A machine that reclaims cold page cache by
# itself (DAMON's kdamond, seen on virtual machines here) evicts an input that waited a few
# seconds for its turn, and a run would time the disk.
WARM_FILES=()
bench_warm() {
	WARM_FILES=("$@")
	warm_now
}
warm_now() {
	local f
	for f in "${WARM_FILES[@]}"; do
		[[ -f $f ]] && cat -- "$f" >/dev/null
	done
	return 0
}

# bench_run LABEL CMD...: run CMD $RUNS times, output thrown away (the files of bench_warm read
# into the page cache first; BEFORE, if set, is evaluated before each run, e.g. to drop a cache
# file); prints the median wall time, with
# /usr/bin/time also the median CPU time (user + sys: what other work on the machine changes
# least) and the peak RSS; sets WALL (s), CPU (s) and RSS (MB), empty when CMD failed.
bench_run() {
	local label=$1 i s e walls=() cpus=() rss=0 r u y
	shift
	WALL= CPU= RSS=
	for ((i = 0; i < RUNS; i++)); do
		warm_now
		[[ -n ${BEFORE:-} ]] && eval "$BEFORE"
		s=$(date +%s%N)
		if [[ -x /usr/bin/time ]]; then
			/usr/bin/time -f '%M %U %S' -o "$dir/bench-time.txt" "$@" >/dev/null \
				2>"$dir/bench-err.txt"
		else
			"$@" >/dev/null 2>"$dir/bench-err.txt"
		fi || { printf '%-44s failed: %s\n' "$label" "$(tail -1 "$dir/bench-err.txt")"; return 0; }
		e=$(date +%s%N)
		walls+=($(( (e - s) / 1000 )))
		if [[ -x /usr/bin/time ]]; then
			read -r r u y < <(tail -1 "$dir/bench-time.txt")
			(( r > rss )) && rss=$r
			cpus+=("$(awk -v u="$u" -v y="$y" 'BEGIN { print u + y }')")
		fi
	done
	median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
	WALL=$(printf '%s\n' "${walls[@]}" | median | awk '{ printf "%.3f", $1 / 1e6 }')
	if [[ -x /usr/bin/time ]]; then
		CPU=$(printf '%s\n' "${cpus[@]}" | median)
		RSS=$(awk -v r="$rss" 'BEGIN { printf "%.1f", r / 1024 }')
		printf '%-44s %7.3f s wall %6.2f s CPU %7.1f MB peak RSS\n' "$label" "$WALL" "$CPU" "$RSS"
	else
		printf '%-44s %7.3f s wall  (install package "time" for CPU and peak RSS)\n' \
			"$label" "$WALL"
	fi
}

# bench_ratio WHAT THEIRS OURS [TARGET [THEIRS_CPU OURS_CPU]]: "WHAT: THEIRS / OURS = Nx"
# (seekscope that many times faster) in wall time, and in CPU time when given, with the
# target if one is given; nothing when a figure is missing.
bench_ratio() {
	[[ -n $2 && -n $3 ]] || return 0
	awk -v what="$1" -v a="$2" -v b="$3" -v goal="${4:-}" -v ac="${5:-}" -v bc="${6:-}" 'BEGIN {
		if (b <= 0) b = 0.001
		cpu = ac != "" && bc != "" ? sprintf(" wall, %5.1fx CPU", ac / (bc > 0 ? bc : 0.01)) : ""
		printf "  %-50s %5.1fx%s%s\n", what, a / b, cpu, goal != "" ? "  (goal >= " goal "x)" : "" }'
}

# bench_goal WHAT VALUE LIMIT UNIT: "WHAT VALUE UNIT (goal <= LIMIT UNIT: met / not met)";
# the verdict only with GOALS=1 (the benchmark runs at the size the goal is set for).
bench_goal() {
	[[ -n $2 ]] || return 0
	awk -v what="$1" -v v="$2" -v lim="$3" -v u="$4" -v judge="${GOALS:-0}" 'BEGIN {
		printf "  %-52s %7.3f %s  (goal <= %s %s%s)\n", what, v, u, lim, u,
		       judge == 1 ? (v <= lim ? ": met" : ": not met") : "" }'
}
