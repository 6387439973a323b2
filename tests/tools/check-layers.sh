#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The calls between folders, read from the objects' symbol tables: a folder may use a symbol
# defined in another folder only when the Makefile's LAYERS table lets it include that folder.
# The include paths already stop a wrong-way #include; this also catches a call through a
# hand-written declaration.  Usage: check-layers.sh BUILD FOLDER:USES,USES ...
set -euo pipefail
build=$1; shift
declare -A uses owner
for l in "$@"; do
	f=${l%%:*}; uses[$f]=",${l#*:},"
done
# which folder defines each global symbol
for f in "${!uses[@]}"; do
	for o in "$build/$f"/*.o; do
		[[ -e $o ]] || continue
		while read -r sym; do owner[$sym]=$f; done < <(nm -g --defined-only "$o" | awk '{print $3}')
	done
done
bad=0
for f in "${!uses[@]}"; do
	for o in "$build/$f"/*.o; do
		[[ -e $o ]] || continue
		while read -r sym; do
			g=${owner[$sym]:-}
			[[ -z $g || $g == "$f" || ${uses[$f]} == *",$g,"* ]] && continue
			echo "layer violation: ${o#"$build"/} uses $sym from $g; $f may use only: ${uses[$f]//,/ }" >&2
			bad=1
		done < <(nm -u "$o" | awk '{print $2}')
	done
done
exit $bad
