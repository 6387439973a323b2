#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A plot's pass read ahead (SEEKSCOPE_READAHEAD=always: the events decoded, and the io panel's
# cells counted, in a thread of their own beside the statistics) draws the same picture as
# one read directly (never), byte for byte: seekscope traces with named processes, a file map,
# two columns, a process filter (the panels then fed by the caller), a window, a blktrace set
# of two per-CPU files, PNG and SVG, the seek causes' panel (whose figures are counted in the
# read-ahead thread); a report, whose submitters and seek causes are noted there, prints the
# same bytes both ways; a trace damaged in a middle record fails the same way, with the same
# one line and no picture.  Prints TAP.
source "$(dirname "$0")/../lib/tap.sh"
GEN=${GEN_TRACE:-build/tests/tools/gen-trace}
GENBT=${GEN_BLKTRACE:-build/tests/tools/gen-blktrace}
FMAP=$(cd "$(dirname "$0")/../fuzz/corpus/trace" && pwd)/filemap.sst
plan 34
make_workdir
d=$WORK

# records of 4,096 events: the read-ahead's slots and the backend's batches differ
"$GEN" -o "$d/a.sst" -a 4 -P -T -n 30000 -b 4096 >/dev/null &&
	"$GEN" -o "$d/b.sst" -a 1 -P -n 20000 >/dev/null &&
	mkdir "$d/bt" && "$GENBT" -o "$d/bt/x" -n 20000 -c 2 >/dev/null
ok $? "traces generated"

n=0
for args in "a.sst" "a.sst --color-by process" "a.sst --comm tar --color-by process" \
	    "a.sst b.sst" "a.sst -x 0.5:2 -p io,seeks,dist" "bt" "$FMAP --color-by dir" \
	    "a.sst b.sst -p io,lat --color-by process" "a.sst -p io,causes -x 0.5:2"; do
	for ext in png svg; do
		[[ $ext == svg && $args != "a.sst b.sst" && $args != bt ]] && continue
		n=$((n + 1))
		# shellcheck disable=SC2086
		(cd "$d" && SEEKSCOPE_READAHEAD=always "$SEEKSCOPE" plot $args -o "$d/ra$n.$ext" 2>"$d/err1" &&
			SEEKSCOPE_READAHEAD=never "$SEEKSCOPE" plot $args -o "$d/di$n.$ext" 2>"$d/err2")
		ok $? "plot ${args#"$FMAP"} ($ext), read ahead and not"
		cmp -s "$d/ra$n.$ext" "$d/di$n.$ext" && cmp -s "$d/err1" "$d/err2"
		ok $? "... the same picture and messages"
	done
done

for args in "a.sst" "bt" "$FMAP" "a.sst --comm tar"; do
	# shellcheck disable=SC2086
	(cd "$d" && SEEKSCOPE_READAHEAD=always "$SEEKSCOPE" report --json $args >"$d/ra.json" 2>"$d/err1" &&
		SEEKSCOPE_READAHEAD=never "$SEEKSCOPE" report --json $args >"$d/di.json" 2>"$d/err2")
	ok $? "report ${args#"$FMAP"}, read ahead and not"
	cmp -s "$d/ra.json" "$d/di.json" && cmp -s "$d/err1" "$d/err2" && grep -q '"seek_causes"' "$d/ra.json"
	ok $? "... the same figures, seek causes included"
done

# a checksum broken in a record a third of the way (offset 1 MB of 2.9 MB, 15 records)
cp "$d/a.sst" "$d/bad.sst" &&
	printf '\377\377\377\377' | dd of="$d/bad.sst" bs=1 seek=1000000 conv=notrunc status=none
for mode in always never; do
	SEEKSCOPE_READAHEAD=$mode "$SEEKSCOPE" plot "$d/bad.sst" -o "$d/bad-$mode.png" >"$d/out" 2>"$d/err-$mode"
	rc=$?
	[[ $rc -eq 1 && $(wc -l <"$d/err-$mode") -eq 1 && ! -e $d/bad-$mode.png ]] &&
		grep -q "^seekscope plot: $d/bad.sst: corrupt event record at offset [0-9]*: checksum mismatch" "$d/err-$mode"
	ok $? "a damaged trace, $mode: exit 1, one line, no picture (exit $rc: $(head -c 200 "$d/err-$mode"))"
done
cmp -s "$d/err-always" "$d/err-never"
ok $? "... the same line both ways"
