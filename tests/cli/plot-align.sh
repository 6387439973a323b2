#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# seekscope plot --align PHASE from the command line: two generated traces whose extract phase
# starts 0.3 s and 2.7 s after their capture start are drawn lined up on it; a trace without
# the phase is one line and exit 2.  (Where the pixels land: tests/unit/test_render.c.)
source "$(dirname "$0")/../lib/tap.sh"
GEN=${GEN_TRACE:-build/tests/tools/gen-trace}
plan 7
make_workdir
d=$WORK
"$GEN" -o "$d/a.sst" -P -n 3000 -D 300 && "$GEN" -o "$d/b.sst" -P -n 3000 -D 2700 && "$GEN" -o "$d/none.sst" -n 300
ok $? "traces generated: extract 0.3 s and 2.7 s after the start, and one without phases"
"$SEEKSCOPE" dump -n "$d/b.sst" | grep -q '^# phase 2\.70[0-9]* begin extract'
ok $? "the second trace's extract starts 2.7 s in"
"$SEEKSCOPE" plot "$d/a.sst" "$d/b.sst" --align extract -o "$d/al.svg" 2>"$d/err"
ok $? "--align extract draws"
[[ -s $d/al.svg && ! -s $d/err ]]
ok $? "... written, nothing on stderr"
"$SEEKSCOPE" plot "$d/a.sst" "$d/none.sst" --align extract -o "$d/x.png" >"$d/out" 2>"$d/err"; rc=$?
[[ $rc -eq 2 && $(wc -l <"$d/err") -eq 1 && ! -s $d/out && ! -e $d/x.png ]]
ok $? "a trace without the phase: exit 2 (got $rc), one line, no picture: $(cat "$d/err")"
grep -q "none.sst has no phase \"extract\" to align on (it has no phases)" "$d/err"
ok $? "... naming the trace"
"$SEEKSCOPE" plot "$d/a.sst" --align '' -o "$d/x.png" 2>/dev/null
is $? 2 "--align '' is misuse"
done_testing
