#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs libFuzzer targets built by `make fuzz` and prints the figures: executions, corpus size,
# crashes.  Usage: tests/fuzz/run-fuzz.sh BUILD_DIR TARGET...
#   FUZZ_SECONDS=N  run each target N seconds (per worker)      FUZZ_RUNS=N  or N executions
#   FUZZ_JOBS=N     parallel workers per target (default: the number of CPUs)
#   FUZZ_WORKDIR=D  where work directories go (default BUILD_DIR/run; kept for inspection)
# Per-target libFuzzer flags come from tests/fuzz/<target>.options, sanitizer environment from
# tests/fuzz/<target>.env.  Each target works in WORKDIR/<target>/: a copy of the seed corpus grows in corpus/ (the
# committed seeds in tests/fuzz/corpus/ are only read), crashers land in artifacts/, logs in
# the directory itself.  A crasher fails the run; copy it into tests/fuzz/regress/<target>/
# with the fix, so that `make check` replays it from then on.  A work corpus that is empty
# starts from the corpus an earlier campaign grew, tests/fuzz/grown/<target>.tar.xz (written
# by save-corpus.sh), so that a campaign goes on where it stopped on another machine.
set -u
cd "$(dirname "$0")/../.."
ROOT=$PWD
B=${1:?usage: run-fuzz.sh BUILD_DIR TARGET...}; shift
JOBS=${FUZZ_JOBS:-$(nproc)}
WORKDIR=${FUZZ_WORKDIR:-$PWD/$B/run}
[[ -n ${FUZZ_SECONDS:-} || -n ${FUZZ_RUNS:-} ]] || { echo "run-fuzz: set FUZZ_SECONDS or FUZZ_RUNS" >&2; exit 2; }
status=0
printf '%-10s %14s %10s %8s %8s\n' target executions exec/s corpus crashes
for t in "$@"; do
	bin=$ROOT/$B/fuzz/fuzz_$t
	[[ -x $bin ]] || { echo "run-fuzz: $bin missing (make fuzz)" >&2; status=1; continue; }
	w=$WORKDIR/$t
	mkdir -p "$w/corpus" "$w/artifacts"
	rm -f "$w"/fuzz-*.log
	grown=tests/fuzz/grown/$t.tar.xz
	if [[ -f $grown && -z $(ls -A "$w/corpus") ]]; then
		# unpacked aside and moved in whole: a failure leaves the corpus empty, to be
		# unpacked by the next run
		rm -rf "$w/corpus.new" && mkdir "$w/corpus.new"
		if ! tar -xJf "$grown" -C "$w/corpus.new" --strip-components=1 --no-same-owner; then
			echo "run-fuzz: $grown: cannot unpack it" >&2
			rm -rf "$w/corpus.new"
			status=1
			continue
		fi
		rmdir "$w/corpus" && mv "$w/corpus.new" "$w/corpus"
		echo "run-fuzz: $t: resuming from $grown ($(ls "$w/corpus" | wc -l) inputs)" >&2
	fi
	args=(-close_fd_mask=3 -print_final_stats=1 -timeout=20 -rss_limit_mb=2048
	      -artifact_prefix="$w/artifacts/" -jobs="$JOBS" -workers="$JOBS")
	[[ -n ${FUZZ_SECONDS:-} ]] && args+=(-max_total_time="$FUZZ_SECONDS")
	[[ -n ${FUZZ_RUNS:-} ]] && args+=(-runs=$(( (FUZZ_RUNS + JOBS - 1) / JOBS )))
	# per-target libFuzzer options, one per line (e.g. -max_len=8192)
	[[ -f tests/fuzz/$t.options ]] && mapfile -t -O ${#args[@]} args < <(grep -v '^#' "tests/fuzz/$t.options")
	# the extraction target's sandboxes go to a tmpfs directory of this run (removed below)
	sb=$(mktemp -d /dev/shm/ss-fuzz-sandbox.XXXXXX)
	start=$(date +%s)
	# -jobs writes fuzz-N.log into the current directory: run from the work directory
	# library leaks we cannot fix are suppressed as in `make sanitize`; a target may set more
	# sanitizer options in tests/fuzz/<target>.env (VAR=value lines)
	env=(LSAN_OPTIONS="suppressions=$ROOT/tests/lsan.supp:print_suppressions=0")
	[[ -f tests/fuzz/$t.env ]] && mapfile -t -O ${#env[@]} env < <(grep -v '^#' "tests/fuzz/$t.env")
	( cd "$w" && env "${env[@]}" FUZZ_SANDBOX_DIR="$sb" "$bin" "${args[@]}" corpus "$ROOT/tests/fuzz/corpus/$t" \
		>"$w/driver.log" 2>&1 )
	sleep 1   # the sandbox janitors finish
	rm -rf "$sb"
	secs=$(( $(date +%s) - start )); (( secs > 0 )) || secs=1
	execs=$(cat "$w"/fuzz-*.log 2>/dev/null | awk '/stat::number_of_executed_units/ {s += $2} END {print s + 0}')
	# slow-unit-* files are inputs that took over 10 s once (libFuzzer's -report_slow_units):
	# on a loaded machine a nice-19 worker can be starved that long; they are listed, not
	# counted as crashes (a real hang ends the run as a timeout-* after -timeout=20)
	crashes=$(find "$w/artifacts" -type f ! -name 'slow-unit-*' | wc -l)
	slow=$(find "$w/artifacts" -type f -name 'slow-unit-*' | wc -l)
	(( slow == 0 )) || echo "run-fuzz: $t: $slow slow input(s) in $w/artifacts (replay them to see whether they are slow alone)" >&2
	printf '%-10s %14s %10s %8s %8s\n' "$t" "$execs" "$((execs / secs))" "$(ls "$w/corpus" | wc -l)" "$crashes"
	if [[ $crashes -gt 0 ]] || grep -qE 'ERROR: (AddressSanitizer|libFuzzer)|runtime error:|fuzz assertion' "$w"/fuzz-*.log; then
		status=1
		grep -hE 'ERROR: |runtime error:|fuzz assertion|SUMMARY' "$w"/fuzz-*.log | sort | uniq -c | head -20
		ls "$w/artifacts"
	fi
done
exit $status
