#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Viewer benchmark (prints figures, asserts nothing): a generated trace of IOS I/Os (default
# 2 million, the size the goals are set for) made into an HTML page by `seekscope plot`, then
# opened RUNS times in headless Chromium by tests/tools/browse-html.py, which pans, zooms and
# hovers as a user would.  Prints the page's size and the time to write it, and the medians of
# the time until the page was ready — its first picture drawn (and how much of it its script
# took) — until its request detail was all decoded (after that picture) and of the redraws
# while panning (their median and their longest), beside the goals: the page <= 20 MB, open in
# <= 2 s, the median redraw < 50 ms, none >= 500 ms.
#   tests/bench/viewer.sh [IOS] [DIR]   (QUICK=1: 20,000 I/Os, 3 runs; needs chromium,
#                                        chromium-driver and python3-selenium)
set -eu
source "$(dirname "$0")/lib.sh"
ios=${1:-$([[ ${QUICK:-0} == 1 ]] && echo 20000 || echo 2000000)}
bench_dir "${2:-}"
PY=/usr/bin/python3          # Debian's python3-selenium imports there
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null ||
   ! $PY -c 'import selenium' 2>/dev/null; then
	echo "viewer: chromium, chromium-driver and python3-selenium are needed; not measured"
	exit 0
fi
make -s seekscope tools >/dev/null

bench_header
build/tests/tools/gen-trace -o "$dir/v.sst" -a 4 -P -n "$ios"
bench_run "seekscope plot -o v.html ($ios I/Os)" ./seekscope plot "$dir/v.sst" -o "$dir/v.html"
write=$WALL
size=$(stat -c %s "$dir/v.html")
printf 'page: %s bytes\n' "$size"

loads=() scripts=() details=() medians=() maxes=()
for ((i = 0; i < RUNS; i++)); do
	mkdir -p "$dir/shots"
	if ! $PY tests/tools/browse-html.py "$dir/v.html" "$dir/shots" >"$dir/seen" 2>"$dir/err"; then
		echo "browser run $i failed: $(tail -1 "$dir/err")"
		continue
	fi
	val() { awk -F'\t' -v k="$1" '$1 == k {print $2}' "$dir/seen"; }
	loads+=("$(val load_ms)") scripts+=("$(val script_ms)") details+=("$(val detail_ms)")
	medians+=("$(val frame_ms_median)") maxes+=("$(val frame_ms_max)")
done
(( ${#loads[@]} )) || exit 1
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
load=$(median "${loads[@]}") script=$(median "${scripts[@]}") detail=$(median "${details[@]}")
fmed=$(median "${medians[@]}") fmax=$(median "${maxes[@]}")
printf 'opened in %s ms (%s ms of it the script), every request decoded after %s ms; redraws while panning: median %s ms, longest %s ms (medians of %d runs)\n' \
	"$load" "$script" "$detail" "$fmed" "$fmax" "${#loads[@]}"

GOALS=$([[ $ios == 2000000 ]] && echo 1 || echo 0)
echo "== goals (set for 2M I/Os; $ios I/Os here)"
bench_goal "page size" "$(awk -v s="$size" 'BEGIN { print s / 1e6 }')" 20 MB
bench_goal "time until the page is ready" "$(awk -v v="$load" 'BEGIN { print v / 1000 }')" 2 s
bench_goal "median redraw while panning" "$fmed" 50 ms
bench_goal "longest redraw while panning" "$fmax" 500 ms
if [[ -n ${2:-} ]]; then echo "files kept in $dir"; fi
