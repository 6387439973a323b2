#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# seekscope record at a high request rate on one CPU and a trickle on another: the recorder
# takes a busy CPU's ring buffer in whole pages and reads the page being written only now and
# then, and must still write every event in time order (no event older than one already
# written, to the nanosecond), lose none, and keep exactly the reads that the kernel's own
# counters for the device (/sys/block/DEV/stat) say completed.  Root only; the loop device is
# removed at exit.
source "$(dirname "$0")/../lib/tap.sh"
need ROOT
need TRACEFS
need LOOP
need CMD fio taskset
# the first two CPUs this test may run on
cpus=()
IFS=, read -r -a parts < <(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)
for p in "${parts[@]}"; do
	for ((c = ${p%-*}; c <= ${p#*-} && ${#cpus[@]} < 2; c++)); do
		[[ $(cat "/sys/devices/system/cpu/cpu$c/online" 2>/dev/null) == 0 ]] || cpus+=("$c")
	done
done
[[ ${#cpus[@]} -ge 2 ]] || skip_all "one CPU to run on: no busy and quiet CPU side by side"
plan 8
make_workdir

make_loop 256M
command -v udevadm >/dev/null && udevadm settle 2>/dev/null
# reads completed on the device, from inside the workload: the recorder reads the device too
# (to find its filesystem) before it starts tracing
stat_file=/sys/block/${LOOP#/dev/}/stat
reads="awk '{ print \$1 }' $stat_file"
# fio_job CPU NAME IODEPTH RATE: 4 KiB random O_DIRECT reads for 3 s on CPU at RATE per second;
# its terse line in WORK/NAME.out, its exit status in WORK/NAME.rc
fio_job() {
	echo "{ taskset -c $1 fio --name=$2 --filename=$LOOP --rw=randread --bs=4k" \
		"--iodepth=$3 --ioengine=libaio --direct=1 --runtime=3 --time_based" \
		"--rate_iops=$4 --output-format=terse --terse-version=3 >'$WORK/$2.out';" \
		"echo \$? >'$WORK/$2.rc'; }"
}
"$SEEKSCOPE" record -q -o "$WORK/t.sst" -d "$LOOP" -- \
	sh -c "$reads >'$WORK/reads0'; $(fio_job "${cpus[0]}" busy 16 20000) &
		$(fio_job "${cpus[1]}" quiet 1 50); wait; $reads >'$WORK/reads1'" 2>"$WORK/rec.err"
ok $? "record of 20,000 reads a second on CPU ${cpus[0]} and 50 on CPU ${cpus[1]} exits 0"
# terse v3: field 5 fio's error, 8 the read IOPS
busy=$(awk -F';' '$5 == 0 { printf "%d", $8 }' "$WORK/busy.out")
quiet=$(awk -F';' '$5 == 0 { printf "%d", $8 }' "$WORK/quiet.out")
[[ $(cat "$WORK/busy.rc") == 0 && $(cat "$WORK/quiet.rc") == 0 && ${busy:-0} -ge 5000 &&
	${quiet:-0} -ge 10 ]]
ok $? "both fio jobs ran: ${busy:-none} and ${quiet:-none} reads a second"
"$SEEKSCOPE" dump --absolute "$WORK/t.sst" >"$WORK/t.txt" 2>"$WORK/dump.err"
ok $? "the trace reads back"
is "$(sed -n 's/^# [0-9]* events, \([0-9]*\) lost$/\1/p' "$WORK/t.txt")" 0 "no event lost"
events=$(grep -vc '^#' "$WORK/t.txt")
[[ $events -ge 30000 ]]; ok $? "enough events for many whole pages a CPU ($events)"
# nanoseconds compared as digits (as numbers, awk's doubles would round them after 104 days up)
awk 'function before(a, b) {
		return length(a) < length(b) || (length(a) == length(b) && a "" < b "")
	}
	$1 !~ /^#/ && n++ && before($1, prev) { bad++ } $1 !~ /^#/ { prev = $1 }
	END { exit bad > 0 }' "$WORK/t.txt"
ok $? "every event in time order, to the nanosecond"
completes=$(awk '$1 !~ /^#/ && $4 == "complete" && $6 ~ /R/' "$WORK/t.txt" | wc -l)
is "$completes" $(($(cat "$WORK/reads1") - $(cat "$WORK/reads0"))) \
	"completed reads recorded = the kernel's count for the device"
on_both=$(awk -v a="${cpus[0]}" -v b="${cpus[1]}" '
	$1 !~ /^#/ && $4 == "issue" && ($2 == a || $2 == b) { c[$2]++ }
	END { print c[a] + 0, c[b] + 0 }' "$WORK/t.txt")
[[ ${on_both% *} -gt 0 && ${on_both#* } -gt 0 ]]
ok $? "requests issued on CPU ${cpus[0]} and on CPU ${cpus[1]} ($on_both)"
done_testing
