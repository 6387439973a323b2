#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Damaged trace-cmd .dat files: libtracecmd, which crashes on some of them, runs in the trace-cmd
# reader's own process, so that seekscope answers each with one line and exit 1: the inputs
# that crashed libtracecmd, read differently twice or sent it into an endless loop (a negative
# page size: refused before libtracecmd sees it) (tests/fuzz/regress/tracecmd) and every
# cut of two good captures (tests/fuzz/corpus/tracecmd: the top-level buffer, an instance
# buffer) at 256-byte steps.  A file whose ring hands out records it handed out before
# (regress/tracecmd/records-loop-back.partial: libtracecmd looped on it for ever) reads up to
# there with a warning, as does one whose compressed chunk zstd cannot unpack
# (regress/tracecmd/chunk-damaged.partial) and one whose records are shorter than their
# format's fields (regress/tracecmd/record-short-of-fields.partial: nothing past a record read).
# Nothing else of libtracecmd's reaches the terminal (it prints some complaints itself), no
# output file is left by a refused plot, and a good capture reads the same from a file and from
# standard input.  A pass over a file that spends its CPU budget (SEEKSCOPE_TRACECMD_CPU, here a
# microsecond: what an endless loop of libtracecmd's comes to) is refused with one line saying
# so; so is one whose reading grows the reader past its memory budget (SEEKSCOPE_TRACECMD_MEM,
# here a KiB: what a compressed file that unpacks to gigabytes comes to).  Such a file
# (regress/tracecmd/compression-bomb.dat, made by tests/fuzz/make-bomb-dat.py: 12 KB that
# unpack to 3 GiB) read page by page (tracecmd-pages.sh) takes a chunk's memory a CPU and reads
# in full; read by libtracecmd, which keeps every chunk, it is refused under the default
# budget, the whole run's peak memory, the reader's included, staying near the budget.  So is
# a file
# whose compressed chunk claims to unpack to 1.5 GiB and holds a page, or is a page and a half
# (regress/tracecmd/chunk-claims.dat, chunk-odd.dat, made by make-bomb-dat.py --claims, --odd):
# refused as corrupt before libtracecmd reads the ring (it read the heap's leftovers as pages,
# or, when the claim could not be allocated, ended the ring: 128 of 258 events without a word);
# and one whose chunk tells the truth and unpacks to 512 MiB (chunk-big.dat, --big) is refused
# under a budget too small for it, read in full under one that allows it.  Unprivileged.
# Prints TAP.
source "$(dirname "$0")/../lib/tap.sh"
plan 30
make_workdir
W=$WORK
SRC=$(dirname "$0")/../fuzz
shopt -s nullglob
regress=("$SRC"/regress/tracecmd/*.dat)
# (but the compression bomb and the big chunk, sound files that libtracecmd reads beyond the
# default budget, and page by page within it: below)
for i in "${!regress[@]}"; do
	[[ ${regress[$i]} == */compression-bomb.dat || ${regress[$i]} == */chunk-big.dat ]] &&
		unset "regress[$i]"
done
(( ${#regress[@]} > 0 ))
ok $? "regress inputs found (${#regress[@]})"

# refused FILE CMD...: CMD exits 1 with one line on stderr naming FILE, nothing on stdout
# (but for dump, which streams the events it has read before the error; STREAMS=1)
refused() {
	local f=$1 rc
	shift
	"$@" >"$W/out" 2>"$W/err"
	rc=$?
	if (( rc != 1 )) || { [[ -s $W/out ]] && [[ ${STREAMS:-0} != 1 ]]; } ||
		(( $(wc -l <"$W/err") != 1 )) ||
		! grep -q "^seekscope [a-z]*: $f: " "$W/err"; then
		diag "$* -> exit $rc, stdout $(wc -c <"$W/out") bytes, stderr: $(head -3 "$W/err")"
		return 1
	fi
}

for cmd in report dump; do
	bad=0
	for f in "${regress[@]}"; do
		STREAMS=$([[ $cmd == dump ]] && echo 1) refused "$f" "$SEEKSCOPE" "$cmd" "$f" ||
			bad=$((bad + 1))
	done
	is "$bad" 0 "$cmd: every damaged input of the regress set is one line, exit 1"
done

bad=0
for f in "${regress[@]}"; do
	rm -f "$W/x.png"
	refused "$f" "$SEEKSCOPE" plot "$f" -o "$W/x.png" || bad=$((bad + 1))
	[[ -e $W/x.png ]] && { diag "plot $f left x.png"; bad=$((bad + 1)); }
done
is "$bad" 0 "plot: refused with one line, no PNG left"

# every cut of the good captures: a clean read (exit 0, nothing on stderr) or one line, exit 1
cuts=0 bad=0
for good in "$SRC"/corpus/tracecmd/top.dat "$SRC"/corpus/tracecmd/instance.dat; do
	size=$(stat -c %s "$good")
	for ((cut = 0; cut < size; cut += 256)); do
		head -c "$cut" "$good" >"$W/cut.dat"
		cuts=$((cuts + 1))
		"$SEEKSCOPE" report "$W/cut.dat" >"$W/out" 2>"$W/err"
		rc=$?
		if (( rc == 0 )) && [[ ! -s $W/err ]]; then
			continue
		fi
		refused "$W/cut.dat" "$SEEKSCOPE" report "$W/cut.dat" || bad=$((bad + 1))
	done
done
is "$bad" 0 "report of $cuts cuts of two good captures: a clean read or one line, exit 1"

loop=$SRC/regress/tracecmd/records-loop-back.partial
timeout 60 "$SEEKSCOPE" report "$loop" >"$W/out" 2>"$W/err"
is "$?" 0 "a ring whose records go back: report ends, exit 0 ($(head -1 "$W/err"))"
grep -q "WARNING: the records of CPU [0-9]* go back in the file (damaged); read up to there" "$W/out"
ok $? "... with a warning saying where reading stopped"
timeout 60 "$SEEKSCOPE" dump "$loop" >"$W/out" 2>"$W/err"
rc=$?
(( rc == 0 )) && (( $(wc -l <"$W/err") == 1 )) && grep -q '^seekscope dump: warning: .*go back in the file' "$W/err"
ok $? "... dump too: exit 0 ($rc), the warning on one line of stderr"

# a compressed chunk whose frame's header and size hold but whose block zstd cannot unpack
# (regress/tracecmd/chunk-damaged.partial, make-bomb-dat.py --damaged): libtracecmd fails on it
# when the ring gets there and the ring ends, which read 128 of 258 events without a word; now
# read up to there with a warning
dmg=$SRC/regress/tracecmd/chunk-damaged.partial
"$SEEKSCOPE" report "$dmg" >"$W/out" 2>"$W/err"
rc=$?
(( rc == 0 )) && [[ ! -s $W/err ]] &&
	grep -q "WARNING: the data of CPU 1 is damaged (it cannot be read on); read up to there" "$W/out" &&
	grep -qE "^  events +128$" "$W/out"
ok $? "a chunk zstd cannot unpack: report reads the 128 events before it, exit 0 ($rc), with a warning"
"$SEEKSCOPE" dump "$dmg" >"$W/out" 2>"$W/err"
rc=$?
(( rc == 0 )) && (( $(wc -l <"$W/err") == 1 )) && grep -q '^seekscope dump: warning: .*the data of CPU 1 is damaged' "$W/err" &&
	(( $(grep -vc '^#' "$W/out") == 128 ))
ok $? "... dump too: exit 0 ($rc), the warning on one line of stderr"

# a format whose rwbs runs past its records (regress/tracecmd/record-short-of-fields.partial:
# the top-buffer seed with rwbs[90]): the decoder read past each record; now nothing past a
# record is read, its ring read up to there with a warning
short=$SRC/regress/tracecmd/record-short-of-fields.partial
"$SEEKSCOPE" report "$short" >"$W/out" 2>"$W/err"
rc=$?
(( rc == 0 )) && [[ ! -s $W/err ]] &&
	grep -q "WARNING: a record of CPU 0 is shorter than its event's format says (damaged); read up to there" "$W/out"
ok $? "records shorter than their format's fields: report exit 0 ($rc), a warning"
"$SEEKSCOPE" dump "$short" >"$W/out" 2>"$W/err"
rc=$?
(( rc == 0 )) && (( $(wc -l <"$W/err") == 1 )) && grep -q '^seekscope dump: warning: .*shorter than its event' "$W/err"
ok $? "... dump too: exit 0 ($rc), the warning on one line of stderr"

good=$SRC/corpus/tracecmd/instance.dat
"$SEEKSCOPE" report "$good" >"$W/file.txt" 2>"$W/err"
ok $? "a good capture reads"
is "$(wc -c <"$W/err")" 0 "... with nothing on stderr"
"$SEEKSCOPE" report - <"$good" >"$W/stdin.txt" 2>&1
# the same report but for the name the trace was given
cmp -s <(sed 1,2d "$W/file.txt") <(sed 1,2d "$W/stdin.txt")
ok $? "... and reads the same from standard input"

# a budget of CPU time spent: one line saying so, exit 1, no picture
SEEKSCOPE_TRACECMD_CPU=0.000001 refused "$good" "$SEEKSCOPE" report "$good"
ok $? "a pass that spends its CPU budget: refused with one line, exit 1"
grep -q "the trace-cmd reader spent its 0.000001 s of CPU time on a pass over it without finishing" "$W/err"
ok $? "... saying so ($(head -c 160 "$W/err"))"
rm -f "$W/x.png"
SEEKSCOPE_TRACECMD_CPU=0.000001 refused "$good" "$SEEKSCOPE" plot "$good" -o "$W/x.png" &&
	[[ ! -e $W/x.png ]]
ok $? "... plot too, no PNG left"

# a budget of memory spent: one line saying so, exit 1
SEEKSCOPE_TRACECMD_MEM=0.001 refused "$good" "$SEEKSCOPE" report "$good"
ok $? "a read that outgrows its memory budget: refused with one line, exit 1"
grep -q "the trace-cmd reader needs more than its 0.001 MiB of memory for it" "$W/err"
ok $? "... saying so ($(head -c 160 "$W/err"))"

# a compression bomb (3 GiB of pages, 12 KB on disk): read page by page (the default) it unpacks
# a chunk at a time, so it reads in full, its peak memory far below the budget; through
# libtracecmd, which keeps every chunk, it is refused under the default budget (512 MiB and 32
# times the file's size) with one line naming it, and the reading stops there
timer=()
[[ -x /usr/bin/time ]] && timer=(/usr/bin/time -o "$W/peak" -f %M)
bomb=$SRC/regress/tracecmd/compression-bomb.dat
budget_kib=$(( (512 << 10) + 32 * $(stat -c %s "$bomb") / 1024 ))
# peak_below KIB WHAT: the last run's peak resident KiB (its reader included) below KIB
peak_below() {
	local peak
	if (( ${#timer[@]} )); then
		peak=$(tail -1 "$W/peak")
		[[ $peak =~ ^[0-9]+$ ]] && (( peak < $1 ))
		ok $? "$2 ($peak KiB, the budget $budget_kib KiB)"
	else
		skip 1 "no /usr/bin/time to measure the peak memory with"
	fi
}
env -u SEEKSCOPE_TRACECMD_MEM "${timer[@]}" "$SEEKSCOPE" report "$bomb" >"$W/out" 2>"$W/err"
rc=$?
if [[ -n ${ASAN_OPTIONS:-} ]] && (( rc == 1 )); then
	# under a sanitizer the 3 GiB may take longer than the CPU budget (10 s a pass)
	grep -q "the trace-cmd reader spent its 10 s of CPU time" "$W/err"
else
	(( rc == 0 )) && [[ ! -s $W/err ]] && grep -qE '^  events +0$' "$W/out" &&
		! grep -q WARNING "$W/out"
fi
ok $? "a compression bomb (3 GiB unpacked), read page by page: read in full, exit $rc ($(head -c 160 "$W/err"))"
peak_below $((256 << 10)) "... its peak memory a chunk's, far below the budget"
# refused_default FILE WHAT: `report FILE` through libtracecmd under the default budgets is
# refused with one line, exit 1, naming the memory budget — or, under a sanitizer, whose
# reading is slower, the CPU budget (10 s a pass) if it ran out first.  Two checks.
refused_default() {
	local rc
	env -u SEEKSCOPE_TRACECMD_MEM SEEKSCOPE_TRACECMD_PAGES=libtracecmd "${timer[@]}" \
		"$SEEKSCOPE" report "$1" >"$W/out" 2>"$W/err"
	rc=$?
	(( rc == 1 )) && [[ ! -s $W/out ]] && (( $(wc -l <"$W/err") == 1 )) &&
		grep -q "^seekscope report: $1: " "$W/err"
	ok $? "$2: refused with one line, exit 1 ($rc)"
	if [[ -n ${ASAN_OPTIONS:-} ]]; then
		grep -qE "the trace-cmd reader (needs more than its 512 MiB of memory|spent its 10 s of CPU time)" \
			"$W/err"
	else
		grep -q "the trace-cmd reader needs more than its 512 MiB of memory for it" "$W/err"
	fi
	ok $? "... naming the default budget ($(head -c 160 "$W/err"))"
}
refused_default "$bomb" "the same through libtracecmd (SEEKSCOPE_TRACECMD_PAGES=libtracecmd)"
peak_below $((budget_kib + (256 << 10))) "... its peak memory near the budget"

# compressed chunks that do not unpack to whole pages of what they claim, looked at before
# libtracecmd reads a ring (it would read the heap's leftovers as pages, or a page past the
# chunk's memory): a chunk that claims 1.5 GiB and unpacks to a page, between two of 4 pages
# each (it was read up to that chunk, 128 of 258 events, exit 0), refused as corrupt naming
# the chunk, plot too with no picture left, whatever the budget; a chunk of a page and a half
claims=$SRC/regress/tracecmd/chunk-claims.dat
refused "$claims" env -u SEEKSCOPE_TRACECMD_MEM "$SEEKSCOPE" report "$claims" &&
	grep -q "corrupt (CPU 1 of the top buffer: compressed chunk 2 says it unpacks to 1610612736 bytes, but it unpacks to 4096)" "$W/err"
ok $? "a chunk that claims 1.5 GiB and holds a page: refused as corrupt ($(head -c 200 "$W/err"))"
rm -f "$W/x.png"
SEEKSCOPE_TRACECMD_MEM=2048 refused "$claims" "$SEEKSCOPE" plot "$claims" -o "$W/x.png" &&
	[[ ! -e $W/x.png ]] && grep -q "compressed chunk 2 says it unpacks to" "$W/err"
ok $? "... plot too, whatever the budget: one line, exit 1, no PNG left"
odd=$SRC/regress/tracecmd/chunk-odd.dat
refused "$odd" "$SEEKSCOPE" report "$odd" &&
	grep -q "compressed chunk 2 says it unpacks to 6144 bytes, not a whole number of 4096-byte pages" "$W/err"
ok $? "a chunk of a page and a half: refused as corrupt ($(head -c 200 "$W/err"))"
# a chunk that tells the truth, a page and empty ones up to 512 MiB: libtracecmd allocates it
# at once, which fails at the limit on the reader's data segment under a small budget (the
# CPU's ring then ends: refused naming the budget, not read short); a budget that allows it
# reads every event
big=$SRC/regress/tracecmd/chunk-big.dat
SEEKSCOPE_TRACECMD_MEM=64 refused "$big" "$SEEKSCOPE" report "$big" &&
	grep -q "the trace-cmd reader needs more than its 64 MiB of memory for it" "$W/err"
ok $? "a chunk that unpacks to 512 MiB under a 64 MiB budget: refused naming it ($(head -c 160 "$W/err"))"
SEEKSCOPE_TRACECMD_MEM=2048 "$SEEKSCOPE" dump "$big" >"$W/out" 2>"$W/err"
rc=$?
n=$(grep -vc '^#' "$W/out")
(( rc == 0 )) && [[ ! -s $W/err ]] && (( n == 258 ))
ok $? "... read in full when the budget allows it (SEEKSCOPE_TRACECMD_MEM=2048: $n events, exit $rc)"
