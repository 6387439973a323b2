#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The manual pages (docs/man/*.scd): each renders with scdoc without a message, man -l shows it
# without a groff warning, with its NAME and every option of the command's --help; the pages
# `make man` built (MAN_DIR) are those sources' current rendering.  Then `make install` into
# a DESTDIR puts the binary, every page and the bash completion under PREFIX, `man` finds the
# pages there, and `make uninstall` removes every file it installed.  (That the OPTIONS of
# each page are exactly its command's option table is tests/unit/test_cli_vocab.c.)
# Unprivileged.  Prints TAP.
source "$(dirname "$0")/../lib/tap.sh"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
need CMD scdoc man make
pages=("$SRC"/docs/man/*.1.scd)
plan $(( ${#pages[@]} * 5 + 6 ))
make_workdir
W=$WORK

for scd in "${pages[@]}"; do
	name=$(basename "$scd" .scd)           # seekscope-plot.1
	cmd=${name%.1}; cmd=${cmd#seekscope}; cmd=${cmd#-}
	scdoc <"$scd" >"$W/$name" 2>"$W/err"
	[[ $? -eq 0 && ! -s $W/err && -s $W/$name ]]; ok $? "$name: scdoc renders it without a message"
	MANWIDTH=80 man --warnings=all -l "$W/$name" >"$W/txt" 2>"$W/err"
	[[ $? -eq 0 && ! -s $W/err ]]; ok $? "... man -l shows it without a warning $(head -c 300 "$W/err")"
	grep -q "^NAME" "$W/txt" && grep -qE "^ +seekscope${cmd:+-$cmd} - " "$W/txt"
	ok $? "... with its NAME"
	missing=
	for o in $("$SEEKSCOPE" $cmd --help | sed -n 's/^  \(-[A-Za-z], \)\{0,1\}\(--[a-z-]*\).*/\2/p'); do
		grep -q -- "$o" "$W/txt" || missing+=" $o"
	done
	is "$missing" "" "... and every option of 'seekscope $cmd --help'"
	if [[ -n ${MAN_DIR:-} ]]; then
		# the same but for the date on the .TH line (scdoc's "today": a build the day before)
		cmp -s <(sed '/^\.TH /s/"[0-9-]*"$//' "$W/$name") <(sed '/^\.TH /s/"[0-9-]*"$//' "$MAN_DIR/$name")
		ok $? "... make man built it from the current source"
	else
		skip 1 "MAN_DIR not set (run by make check)"
	fi
done

# make install / uninstall into a DESTDIR, with the binary under test and pages built aside
root=$W/root
make -s -C "$SRC" -o "$SEEKSCOPE" BIN="$SEEKSCOPE" BUILD="$W/build" DESTDIR="$root" PREFIX=/usr \
	install >"$W/out" 2>&1
ok $? "make install DESTDIR=... PREFIX=/usr" || diag "$(tail -3 "$W/out" | tr '\n' ' ')"
want=(usr/bin/seekscope usr/share/bash-completion/completions/seekscope)
for scd in "${pages[@]}"; do want+=("usr/share/man/man1/$(basename "$scd" .scd)"); done
is "$(cd "$root" && find . -type f | sed 's|^\./||' | sort)" "$(printf '%s\n' "${want[@]}" | sort)" \
	"... installs the binary, ${#pages[@]} pages and the completion, nothing else"
[[ -x $root/usr/bin/seekscope ]] && cmp -s "$root/usr/bin/seekscope" "$SEEKSCOPE"; ok $? "... the binary, executable"
MANWIDTH=80 man -M "$root/usr/share/man" seekscope-report 2>/dev/null | grep -q -- '--seek-threshold'
ok $? "... man -M PREFIX/share/man seekscope-report finds the page"
bash -c "source '$root/usr/share/bash-completion/completions/seekscope' && complete -p seekscope" >/dev/null 2>&1
ok $? "... the completion loads in bash"
make -s -C "$SRC" -o "$SEEKSCOPE" BIN="$SEEKSCOPE" BUILD="$W/build" DESTDIR="$root" PREFIX=/usr \
	uninstall >"$W/out" 2>&1
is "$(find "$root" -type f | wc -l)" 0 "make uninstall removes every file it installed"
