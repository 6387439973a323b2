#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Keeps what a fuzz campaign grew: the work corpus of each TARGET (run-fuzz.sh's
# WORKDIR/<target>/corpus, with the corpus saved before) cut down by libFuzzer's -merge=1 to
# the inputs that each add coverage, written as tests/fuzz/grown/<target>.tar.xz, the same
# bytes for the same inputs.  run-fuzz.sh starts an empty work corpus from it, so a campaign
# goes on where it stopped on another machine.  Usage:
#   tests/fuzz/save-corpus.sh BUILD_DIR TARGET...     (FUZZ_WORKDIR as for run-fuzz.sh)
# Safe while the campaign runs (it merges a copy).
set -eu
cd "$(dirname "$0")/../.."
ROOT=$PWD
B=${1:?usage: save-corpus.sh BUILD_DIR TARGET...}; shift
WORKDIR=${FUZZ_WORKDIR:-$PWD/$B/run}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p tests/fuzz/grown
for t in "$@"; do
	bin=$ROOT/$B/fuzz/fuzz_$t
	[[ -x $bin ]] || { echo "save-corpus: $bin missing (make fuzz)" >&2; exit 1; }
	[[ -d $WORKDIR/$t/corpus ]] || { echo "save-corpus: $WORKDIR/$t/corpus: no campaign of $t" >&2; exit 1; }
	rm -rf "$tmp"/*
	mkdir "$tmp/all" "$tmp/$t"
	cp -r "$WORKDIR/$t/corpus/." "$tmp/all/"
	grown=tests/fuzz/grown/$t.tar.xz
	[[ -f $grown ]] && tar -xJf "$grown" -C "$tmp/all" --strip-components=1 --no-same-owner
	args=(-merge=1 -close_fd_mask=3 -timeout=20 -rss_limit_mb=2048)
	[[ -f tests/fuzz/$t.options ]] && mapfile -t -O ${#args[@]} args < <(grep -v '^#' "tests/fuzz/$t.options")
	env=(LSAN_OPTIONS="suppressions=$ROOT/tests/lsan.supp:print_suppressions=0")
	[[ -f tests/fuzz/$t.env ]] && mapfile -t -O ${#env[@]} env < <(grep -v '^#' "tests/fuzz/$t.env")
	sb=$tmp/sandbox
	mkdir -p "$sb"
	if ! ( cd "$tmp" && env "${env[@]}" FUZZ_SANDBOX_DIR="$sb" "$bin" "${args[@]}" "$t" all \
		>"$tmp/merge.log" 2>&1 ); then
		tail -5 "$tmp/merge.log" >&2
		echo "save-corpus: $t: the merge failed" >&2
		exit 1
	fi
	# names are the inputs' SHA-1s: sorted, dated 0 and owned by 0, the archive is the same
	# for the same inputs
	tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -C "$tmp" -cf - "$t" |
		xz -9 -T1 >"$grown.new"
	mv "$grown.new" "$grown"
	printf 'save-corpus: %s: %d of %d inputs kept, %s (%d bytes)\n' "$t" "$(ls "$tmp/$t" | wc -l)" \
		"$(ls "$tmp/all" | wc -l)" "$grown" "$(stat -c %s "$grown")"
done
