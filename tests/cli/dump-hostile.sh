#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Names in a trace (task names, meta values, labels) are the trace writer's: `dump` and `report`
# print them for the terminal with control characters escaped, so a crafted trace cannot send
# escape sequences to whoever reads it.  The trace is the fuzz seed with odd task names (a \x01
# among them).  Unprivileged.  Prints TAP.
source "$(dirname "$0")/../lib/tap.sh"
SEED=$(cd "$(dirname "$0")/../fuzz/corpus/trace" && pwd)/tasks-odd.sst
plan 4
make_workdir
d=$WORK

# ctl FILE: how many bytes of FILE are control characters other than newline
ctl() { LC_ALL=C tr -d '\n' <"$1" | LC_ALL=C tr -dc '\000-\037\177' | wc -c; }

"$SEEKSCOPE" dump "$SEED" >"$d/dump" 2>"$d/err"
ok $? "dump of a trace with control characters in its task names"
is "$(ctl "$d/dump"),$(grep -c 't\\x01' "$d/dump")" "0,1" "... printed escaped (t\\x01), no control byte"
"$SEEKSCOPE" report "$SEED" >"$d/report" 2>"$d/err"
ok $? "report of it"
is "$(ctl "$d/report")" 0 "... no control byte either"
done_testing
