#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Lost events placed in time on a real capture: a one-page ring buffer per CPU under 30,000
# O_DIRECT writes overruns, and the trace must say where (LOST records -> lost-event periods),
# keep the requests in flight there out of the latency figures and shade them in the plot.
# The recorder does not wait (--linger) for the requests whose completions may have been lost
# with them (issued before the last lost events) once the kernel counts none in flight on the
# device, and says how many there are.
# Root only; the loop device and files are removed at exit.
source "$(dirname "$0")/../lib/tap.sh"
need ROOT
need TRACEFS
need LOOP
need PYTHON3
plan 9
make_workdir

make_loop 256M
"$SEEKSCOPE" record -b 4 --linger 20 -o "$WORK/t.sst" -d "$LOOP" -- \
	dd if=/dev/zero of="$LOOP" bs=4k count=30000 oflag=direct status=none 2>"$WORK/rec.err"
ok $? "record of 30,000 direct writes with a 4 KiB buffer exits 0"
"$SEEKSCOPE" report --json "$WORK/t.sst" > "$WORK/r.json"
ok $? "the trace reads back"
if ! python3 -c 'import json,sys; sys.exit(json.load(open(sys.argv[1]))["lost_events"] == 0)' \
	"$WORK/r.json"; then
	skip 7 "the kernel kept up with a one-page buffer: nothing lost"
	exit 0
fi
python3 - "$WORK/r.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
sys.exit(not (r["lost_periods"] > 0 and 0 < r["lost_placed"] <= r["lost_events"]
              and r["lost_period_s"] > 0))
PY
ok $? "the lost events are placed in periods: $(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r["lost_periods"], "periods,", r["lost_placed"], "of", r["lost_events"], "events")' "$WORK/r.json")"
python3 - "$WORK/r.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
# every write completed with data counts; those with latency plus those without add up
sys.exit(not (r["lat_samples"] + r["lat_lost"] + r["unmatched"] <= r["ios"]))
PY
ok $? "timed + left out + unmatched never exceed the I/Os"
"$SEEKSCOPE" report "$WORK/t.sst" | grep -q "^  lost events  [0-9]* ([0-9]* placed in [0-9]* period"
ok $? "the text report says where the losses are"
"$SEEKSCOPE" plot -q -o "$WORK/t.png" "$WORK/t.sst"
ok $? "the plot draws"
# the recorder's end: not after --linger 20 for completions that were lost
read -r inc dur <<<"$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r["incomplete_ios"], r["duration_s"])' "$WORK/r.json")"
end=$("$SEEKSCOPE" dump -n "$WORK/t.sst" | awk '$2 == "phase" && $4 == "end" && $5 == "workload" {print $3}')
python3 -c "import sys; sys.exit(not float('$dur') < float('$end') + 8)"
ok $? "the capture ends $(python3 -c "print(round($dur - $end, 3))") s after the workload, not after --linger 20 waiting for lost completions"
if [[ $inc -gt 0 ]]; then
	grep -q "^seekscope: $inc requests\? issued before the last lost events never completed in the trace" "$WORK/rec.err"
	ok $? "the recorder counts the $inc requests that may have lost their completions, report's incomplete_ios: $(grep 'never completed' "$WORK/rec.err")"
else
	! grep -q "never completed" "$WORK/rec.err"
	ok $? "no request left without a completion, and the recorder says none"
fi
! grep -q "still in flight" "$WORK/rec.err"
ok $? "no warning of requests in flight: every request issued after the last lost events completed"
