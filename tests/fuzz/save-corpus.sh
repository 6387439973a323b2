#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Keeps what a fuzz campaign grew: the work corpus of each TARGET (run-fuzz.sh's
# WORKDIR/<target>/corpus, with the corpus saved before) cut down by libFuzzer's -merge=1 to
# the inputs that each add coverage, written as tests/fuzz/grown/<target>.tar.xz, the same
# bytes for the same inputs (with the same xz).  run-fuzz.sh starts an empty work corpus from
# it, so a campaign goes on where it stopped on another machine.  Usage:
#   tests/fuzz/save-corpus.sh BUILD_DIR TARGET...     (FUZZ_WORKDIR as for run-fuzz.sh)
# Safe while the campaign runs (it merges a copy); a failure leaves the saved corpus as it was.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
B=${1:?usage: save-corpus.sh BUILD_DIR TARGET...}; shift
WORKDIR=${FUZZ_WORKDIR:-$PWD/$B/run}
tmp=$(mktemp -d)
new=
trap 'rm -rf "$tmp"; [[ -z $new ]] || rm -f "$new"' EXIT
mkdir -p tests/fuzz/grown
for t in "$@"; do
	bin=$ROOT/$B/fuzz/fuzz_$t
	[[ -x $bin ]] || { echo "save-corpus: $bin missing (make fuzz)" >&2; exit 1; }
	[[ -d $WORKDIR/$t/corpus ]] ||
		{ echo "save-corpus: $WORKDIR/$t/corpus: no campaign of $t" >&2; exit 1; }
	rm -rf "${tmp:?}"/*
	mkdir "$tmp/all" "$tmp/$t" "$tmp/sandbox"
	# a running campaign removes inputs it has replaced by smaller ones: those may be gone
	if ! cp -r "$WORKDIR/$t/corpus/." "$tmp/all/" 2>"$tmp/cp.err" &&
	   grep -v 'No such file or directory' "$tmp/cp.err" >&2; then
		echo "save-corpus: $t: cannot copy its corpus" >&2
		exit 1
	fi
	grown=tests/fuzz/grown/$t.tar.xz
	[[ -f $grown ]] && tar -xJf "$grown" -C "$tmp/all" --strip-components=1 --no-same-owner
	args=(-merge=1 -close_fd_mask=3 -timeout=20 -rss_limit_mb=2048)
	[[ -f tests/fuzz/$t.options ]] &&
		mapfile -t -O ${#args[@]} args < <(grep -v '^#' "tests/fuzz/$t.options")
	env=(LSAN_OPTIONS="suppressions=$ROOT/tests/lsan.supp:print_suppressions=0")
	[[ -f tests/fuzz/$t.env ]] &&
		mapfile -t -O ${#env[@]} env < <(grep -v '^#' "tests/fuzz/$t.env")
	if ! ( cd "$tmp" && env "${env[@]}" FUZZ_SANDBOX_DIR="$tmp/sandbox" "$bin" "${args[@]}" \
		"$t" all >"$tmp/merge.log" 2>&1 ); then
		tail -5 "$tmp/merge.log" >&2
		echo "save-corpus: $t: the merge failed; $grown is as it was" >&2
		exit 1
	fi
	sleep 1   # the sandbox janitors finish (as in run-fuzz.sh)
	# names are the inputs' SHA-1s: sorted, dated 0, owned by 0 and with fixed modes, the
	# archive is the same for the same inputs
	new=$grown.new
	tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner --mode=u=rwX,go=rX \
		-C "$tmp" -cf - "$t" | xz -9 -T1 >"$new"
	mv "$new" "$grown"
	new=
	printf 'save-corpus: %s: %d of %d inputs kept, %s (%d bytes)\n' "$t" \
		"$(ls "$tmp/$t" | wc -l)" "$(ls "$tmp/all" | wc -l)" "$grown" \
		"$(stat -c %s "$grown")"
done
