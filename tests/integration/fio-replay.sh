#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# seekscope convert --to fio: record reads, writes, a discard and flushes on our own loop
# device, write the fio iolog, replay it with fio onto a second loop device of ours, and
# compare what reached that device (/sys/block/loopN/stat) and what fio issued with the trace.
# Root only; everything created is removed at exit.
source "$(dirname "$0")/../lib/tap.sh"
need ROOT
need TRACEFS
need LOOP
need PYTHON3
need CMD fio
plan 12
make_workdir
make_loop 256M; SRC=$LOOP
make_loop 256M; DST=$LOOP
workload="dd if=/dev/urandom of=$SRC bs=64k count=40 seek=100 oflag=direct status=none
sleep 0.6
dd if=$SRC of=/dev/null bs=4k count=64 skip=3000 iflag=direct status=none
dd if=$SRC of=/dev/null bs=128k count=8 skip=700 iflag=direct status=none
blkdiscard -o 10485760 -l 1048576 $SRC
sleep 0.6
dd if=/dev/zero of=$SRC bs=4k count=10 seek=9000 oflag=direct,dsync status=none
sync"
"$SEEKSCOPE" record -q -d "$SRC" -o "$WORK/t.sst" -- sh -c "$workload" 2>/dev/null
ok $? "recorded reads, writes, a discard and flushes on $SRC"
"$SEEKSCOPE" convert "$WORK/t.sst" --to fio -o "$WORK/t.iolog" 2>"$WORK/conv.err"
ok $? "convert --to fio wrote $WORK/t.iolog"
is "$(head -1 "$WORK/t.iolog")" "fio version 3 iolog" "an iolog of version 3"

# trace: the report's completed counts; iolog: its lines summed by action
read -r tr tw td tf trb twb tdb <<<"$("$SEEKSCOPE" report --json "$WORK/t.sst" | python3 -c '
import json, sys
r = json.loads(sys.stdin.readline())
print(*(r[k] for k in ("reads", "writes", "discards", "flushes", "read_bytes", "write_bytes", "discard_bytes")))')"
read -r lr lw ld ls lrb lwb ldb <<<"$(awk '
	$3 == "read" { r++; rb += $5 } $3 == "write" { w++; wb += $5 }
	$3 == "trim" { d++; db += $5 } $3 == "sync" { s++ }
	END { print r+0, w+0, d+0, s+0, rb+0, wb+0, db+0 }' "$WORK/t.iolog")"
is "$lr $lw $ld $ls" "$tr $tw $td $tf" "iolog lines read/write/trim/sync = the trace's reads/writes/discards/flushes ($tr $tw $td $tf)"
is "$lrb $lwb $ldb" "$trb $twb $tdb" "iolog bytes = the trace's read/write/discard bytes"
[[ $tw -ge 50 && $tr -ge 72 && $td -ge 1 && $tf -ge 1 ]]
ok $? "the trace has what the workload did (>= 50 writes, 72 reads, a discard, a flush)"

# replay onto DST; its counters before and after (udev's probes read, never write)
stat_of() { cat "/sys/block/${1#/dev/}/stat"; }
udevadm settle 2>/dev/null
before=$(stat_of "$DST")
fio --name=replay --read_iolog="$WORK/t.iolog" --replay_redirect="$DST" --direct=1 \
	--ioengine=libaio --iodepth=16 --output-format=json --output="$WORK/fio.json" 2>"$WORK/fio.err"
ok $? "fio replayed the iolog onto $DST"
after=$(stat_of "$DST")
# /sys/block/X/stat: reads, merged, sectors read, ms, writes, merged, sectors written, ...,
# discards (12), merged, sectors discarded (14), ms, flushes (16)
read -r dr drs dw dws dfl <<<"$(python3 -c '
import sys
a, b = (list(map(int, s.split())) for s in sys.argv[1:3])
d = [y - x for x, y in zip(a, b)] + [0] * 17
print(d[0], d[2], d[4], d[6], d[15])' "$before" "$after")"
read -r fr fw ft fs frt <<<"$(python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
print(j["read"]["total_ios"], j["write"]["total_ios"], j["trim"]["total_ios"], j["sync"]["total_ios"], j["job_runtime"])' "$WORK/fio.json")"
is "$fr $fw $fs" "$tr $tw $tf" "fio issued the trace's reads, writes and syncs ($tr $tw $tf)"
is "$dws" "$((twb / 512))" "$DST received the trace's write bytes exactly ($((dws * 512)) B)"
[[ $drs -ge $((trb / 512)) && $dr -ge 1 ]]
ok $? "$DST read at least the trace's read bytes ($((drs * 512)) of $trb B; udev may probe too)"
is "$dfl" "$tf" "$DST received one cache flush per sync ($dfl)"
# fio 3.33 (Debian 12) does not replay trims from an iolog ("bad ddir: 2"); later fio does
diag "trims: $ft replayed of $td ($(grep -c 'bad ddir' "$WORK/fio.err") refused by this fio)"
# the replay keeps the recorded pace: from the first request to the last it takes as long
span_ms=$(awk '$3 ~ /^(read|write|trim|sync)$/ { if (!f) f = $1; l = $1 } END { print int((l - f) / 1000) }' "$WORK/t.iolog")
[[ $span_ms -ge 1000 && $frt -ge $((span_ms * 9 / 10)) ]]
ok $? "the replay took $frt ms for requests spread over $span_ms ms in the trace (not at once)"
