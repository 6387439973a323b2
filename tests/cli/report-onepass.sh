#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A report reads a blktrace trace once (its metadata found by the pass: SEEKSCOPE_ONEPASS,
# the default) and prints what it prints reading it twice (never), byte for byte, with the same
# messages and exit status: per-CPU sets of two and four files, the other byte order, a set
# whose last file ends in half a record, a set with a record damaged in the middle of a file
# and one whose second file is no blktrace file (both refused in the same one line), several
# files in one command, a seekscope trace (opened as always); with the options that keep one
# pass (--json, -a, -t, --processes) and those that read the metadata first (--pid, --comm,
# --device, --disk); with and without the read-ahead thread.  Prints TAP.
source "$(dirname "$0")/../lib/tap.sh"
GEN=${GEN_TRACE:-build/tests/tools/gen-trace}
GENBT=${GEN_BLKTRACE:-build/tests/tools/gen-blktrace}
make_workdir
d=$WORK

mkdir "$d/two" "$d/four" "$d/swapped" "$d/cut" "$d/damaged" "$d/bad" &&
	"$GENBT" -o "$d/two/x" -n 20000 -c 2 >/dev/null &&
	"$GENBT" -o "$d/four/x" -n 12000 -c 4 -d 8:16 -s 7 >/dev/null &&
	"$GENBT" -o "$d/swapped/x" -n 5000 -c 2 -S >/dev/null &&
	"$GENBT" -o "$d/cut/x" -n 5000 -c 2 >/dev/null &&
	truncate -s -20 "$d/cut/x.blktrace.1" &&
	"$GENBT" -o "$d/damaged/x" -n 5000 -c 2 >/dev/null &&
	printf 'XXXX' | dd of="$d/damaged/x.blktrace.0" bs=1 seek=48064 conv=notrunc 2>/dev/null &&
	"$GENBT" -o "$d/bad/x" -n 5000 -c 2 >/dev/null &&
	head -c 4000 /dev/urandom >"$d/bad/x.blktrace.1" &&
	"$GEN" -o "$d/n.sst" -a 2 -P -n 20000 >/dev/null
ok $? "traces generated"

# TRACES OPTIONS...: the same output, messages and status either way, each read-ahead mode
same() {
	local traces=$1 same=0 ra rc1 rc2
	shift
	for ra in never always; do
		# shellcheck disable=SC2086
		(cd "$d" && SEEKSCOPE_READAHEAD=$ra SEEKSCOPE_ONEPASS=never "$SEEKSCOPE" report \
			"$@" $traces >"$d/out1" 2>"$d/err1")
		rc1=$?
		# shellcheck disable=SC2086
		(cd "$d" && SEEKSCOPE_READAHEAD=$ra "$SEEKSCOPE" report "$@" $traces >"$d/out2" \
			2>"$d/err2")
		rc2=$?
		if [[ $rc1 -ne $rc2 ]] || ! cmp -s "$d/out1" "$d/out2" || ! cmp -s "$d/err1" "$d/err2"
		then
			same=1
			diff "$d/out1" "$d/out2" | head -5 | sed 's/^/# /'
			diff "$d/err1" "$d/err2" | head -5 | sed 's/^/# /'
		fi
	done
	ok $same "report $* $traces: the same once as twice (exit $rc2, $(wc -c <"$d/out2") bytes)"
}

for tr in two four swapped cut; do
	same $tr
	same $tr --json
done
same two -a
same four -t 1024
same two --processes 0
same two --processes 3 --json
same cut -t 64 --json
same "two four swapped n.sst"
same n.sst
same "damaged"
same "two damaged four"
same "bad"
same "bad two" --json
same two --pid 1234
same two --comm tar
same four --device 8:16
same two --disk hdd7200
same "two four" --pid 1 --json

# a trace on standard input is opened once, as always (a second opening would find it empty)
(cd "$d" && SEEKSCOPE_ONEPASS=never "$SEEKSCOPE" report - <n.sst >"$d/in1" 2>&1
	"$SEEKSCOPE" report - <n.sst >"$d/in2" 2>&1
	"$SEEKSCOPE" report - <two/x.blktrace.0 >"$d/in3" 2>&1; echo $? >"$d/rc3")
cmp -s "$d/in1" "$d/in2" && [[ -s $d/in2 && $(cat "$d/rc3") == 1 ]] &&
	grep -q "sets of files" "$d/in3"
ok $? "report - (standard input): the same; a blktrace file there refused as before: $(head -c 70 "$d/in3")"

# the one-pass report is not a second pass in disguise: the set's files are read once
if have CMD strace; then   # tests/install-deps.sh check installs it
	# (no leak check under ptrace: LeakSanitizer cannot run there)
	san=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
	(cd "$d" && strace -f -e trace=pread64 -o "$d/st1" env SEEKSCOPE_ONEPASS=never \
		ASAN_OPTIONS=$san "$SEEKSCOPE" report two >/dev/null 2>&1
		strace -f -e trace=pread64 -o "$d/st2" env ASAN_OPTIONS=$san "$SEEKSCOPE" report two \
			>/dev/null 2>&1)
	size=$(cat "$d"/two/x.blktrace.* | wc -c)
	bytes() { awk '/pread64/ && $NF ~ /^[0-9]+$/ { s += $NF } END { print s + 0 }' "$1"; }
	b1=$(bytes "$d/st1")
	b2=$(bytes "$d/st2")
	(( b2 >= size && b2 < size + size / 10 && b1 >= 2 * size ))
	ok $? "read once: $b2 bytes of the set's $size (twice: $b1)"
else
	skip_need 1 CMD strace
fi
done_testing
