#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The bash completion (collector/cli/completion.bash): sourced into bash, _seekscope called
# with COMP_WORDS/COMP_CWORD set as bash sets them: commands, options of each command, option
# values (panels, units, fsync modes, events, movie styles), trace files by extension, block
# devices and mount points for -d.  The values it lists by name must be the ones --help documents.
# Unprivileged.  Prints TAP.
source "$(dirname "$0")/../lib/tap.sh"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
plan 32
make_workdir
# shellcheck disable=SC1091
source "$SRC/collector/cli/completion.bash"

# comp WORDS...: COMPREPLY for the last word as the one being completed, sorted, one line
comp() {
	COMP_WORDS=("$SEEKSCOPE" "$@"); COMP_CWORD=$#; COMPREPLY=()
	_seekscope
	printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ' | sed 's/ $//'
}

complete -p seekscope | grep -q -- '-F _seekscope seekscope'; ok $? "registered for seekscope"
cmds=$("$SEEKSCOPE" --help | sed -n '/^COMMANDS:$/,/^$/{s/^  \([a-z]*\) .*/\1/p}' | sort | tr '\n' ' ')
is "$(comp "")" "$(echo $cmds help | tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/ $//')" "every command of --help, and help"
is "$(comp pl)" "plot" "a command's prefix"
is "$(comp -)" "--help --version -V -h" "seekscope's own options"
is "$(comp help re)" "record report" "help COMMAND"
is "$(comp report -)" "--all-zones --comm --device --disk --help --json --pid --processes --seek-threshold --version -V -a -d -h -j -t" "report's options"
is "$(comp dump --)" "--absolute --comm --device --filemap --help --json --no-events --pid --quiet --version" "dump's long options"
n=0; for c in record plot movie convert mkarchive; do
	got=$(comp "$c" --)
	for o in $("$SEEKSCOPE" "$c" --help | sed -n 's/^  \(-[A-Za-z], \)\{0,1\}\(--[a-z-]*\).*/\2/p'); do
		[[ " $got " == *" $o "* ]] || { n=$((n + 1)); diag "$c: $o not completed"; }
	done
done
is "$n" 0 "record, plot, movie, convert, mkarchive: every option of --help"
panels=$(comp plot --panels "")
is "$panels" "causes dist io iops lat model qd seeks tput" "plot --panels: every panel"
n=0; for p in $panels; do "$SEEKSCOPE" plot --help | grep -qE "^ {20,}$p +[^ ]" || n=$((n + 1)); done
is "$n" 0 "... each one --help lists"
is "$(comp plot -p io,s)" "io,seeks" "... after a comma, the next item"
is "$(comp plot --units "")" "auto gib mib sectors" "plot --units"
"$SEEKSCOPE" plot --help | grep -q "auto, sectors, mib or gib"; ok $? "... as --help says"
is "$(comp plot --units = m)" "mib" "... --units=m (bash splits at '=')"
mpanels=$(comp movie -p "")
is "$mpanels" "iops lat qd seeks tput" "movie -p: the time panels it takes (not io, dist, model)"
is "$(comp movie --style "")" "grid scan spindle" "movie --style"
h=$("$SEEKSCOPE" movie --help); [[ $h == *"grid (default)"* && $h == *"spindle: "* && $h == *"scan: "* ]]
ok $? "... the styles --help documents"
is "$(comp plot --color-by "")" "class dir dir:2 file process" "plot --color-by"
h=$("$SEEKSCOPE" plot --help); [[ $h == *"--color-by WHAT"*"colours: class"*"or process"*"dir"*"dir:DEPTH"*"or file"* ]]
ok $? "... as --help says"
is "$(comp record --fsync "")" "end file none" "record --fsync"
is "$(comp record -e insert,)" "insert,queue" "record -e insert,"
h=$("$SEEKSCOPE" record --help); [[ $h == *"end (default"* && $h == *"file"* && $h == *"none (no sync)"* && $h == *"insert (block_rq_insert)"* && $h == *"queue (block_bio_queue)"* ]]
ok $? "... the modes and events --help documents"
is "$(comp plot --size "")" "" "a value of the user's own (--size): nothing"

cd "$WORK" || exit 1
mkdir sub && touch a.sst b.dat c.blktrace.0 d.txt e.png f.svg tree.tar.gz g.mp4 h.webm i.mkv
is "$(comp report "")" "a.sst b.dat c.blktrace.0 sub" "report: traces by extension and directories"
is "$(comp plot a.sst -o "")" "e.png f.svg sub" "plot -o: pictures"
is "$(comp movie a.sst -o "")" "g.mp4 h.webm i.mkv sub" "movie -o: movies"
is "$(comp movie -o x.mp4 "")" "a.sst b.dat c.blktrace.0 sub" "movie: traces"
is "$(comp mkarchive -o t)" "tree.tar.gz" "mkarchive -o: archives"
is "$(comp record -d /mnt ls -)" "" "record: after the workload's COMMAND, nothing of seekscope's"
[[ " $(comp record -d /mnt -- l) " == *" ls "* ]]; ok $? "... after --, the workload's command"
devs=$(comp record -d /dev/)
b=0 n=0; for d in $devs; do if [[ -b $d ]]; then b=$((b + 1)); elif [[ ! -d $d ]]; then n=$((n + 1)); fi; done
[[ $b -gt 0 && $n -eq 0 ]]; ok $? "record -d /dev/: block devices ($b) and directories, nothing else"
mnt=$(awk '$2 ~ "^/" {print $2; exit}' /proc/self/mounts)
[[ " $(comp record -d "$mnt") " == *" $mnt "* ]]; ok $? "record -d: mount points ($mnt)"
