# SPDX-License-Identifier: GPL-2.0-or-later
# bash completion for seekscope, installed by `make install` as
# $(PREFIX)/share/bash-completion/completions/seekscope.  Self-contained (needs nothing from the
# bash-completion package).  The commands, their options, which options take a value and the
# panel names come from the binary itself (`seekscope [CMD] --help`), so they cannot drift from
# its tables; values it knows by name (units, colourings, fsync modes, events, movie styles) are
# listed here and checked against --help by tests/cli/completion.sh.

# The commands in `seekscope --help` (its COMMANDS section).
_seekscope_commands() {
	"${1:-seekscope}" --help 2>/dev/null |
		sed -n '/^COMMANDS:$/,/^$/{s/^  \([a-z][a-z0-9-]*\)  .*/\1/p}'
}

# The long and short options in `seekscope CMD --help` (its OPTIONS section); with ARG, only
# those that take a value.
_seekscope_options() {
	local arg=''
	[[ ${3:-} == ARG ]] && arg=' [A-Z]'
	"${1:-seekscope}" ${2:+"$2"} --help 2>/dev/null |
		sed -n "/^OPTIONS:\$/,/^\$/{s/^  \(-[A-Za-z]\), \(--[a-z-]*\)$arg.*/\1 \2/p;s/^      \(--[a-z-]*\)$arg.*/\1/p}"
}

# The panel names in `seekscope CMD --help` (plot, movie).
_seekscope_panels() {
	"${1:-seekscope}" "${2:-plot}" --help 2>/dev/null |
		sed -n '/--panels/,/^  -/{s/^ \{20,\}\([a-z][a-z0-9]*\)  *[^ ].*/\1/p}'
}

# COMPREPLY from the words in $1 that start with $2.
_seekscope_words() {
	local IFS=$' \t\n'
	# shellcheck disable=SC2207
	COMPREPLY=($(compgen -W "$1" -- "$2"))
}

# A comma-separated LIST: complete the item after the last comma.
_seekscope_list() {
	local words=$1 cur=$2 prefix=""
	[[ $cur == *,* ]] && prefix=${cur%,*},
	local IFS=$'\n' w
	COMPREPLY=()
	for w in $words; do
		[[ $w == "${cur##*,}"* && ",${prefix}" != *",$w,"* ]] && COMPREPLY+=("$prefix$w")
	done
	[[ ${#COMPREPLY[@]} -eq 1 ]] && compopt -o nospace 2>/dev/null
	return 0
}

# Files whose names end in one of the extensions in $2 (and directories), for $1.
_seekscope_files() {
	local cur=$1 exts=$2 f
	local IFS=$'\n'
	COMPREPLY=()
	compopt -o filenames 2>/dev/null
	for f in $(compgen -d -- "$cur"); do COMPREPLY+=("$f"); done
	for f in $(compgen -f -- "$cur"); do
		[[ -d $f ]] && continue
		if [[ -z $exts ]] || [[ $f =~ \.($exts)$ ]]; then COMPREPLY+=("$f"); fi
	done
}

# Traces: seekscope's .sst, trace-cmd's .dat and blktrace's NAME.blktrace.N files.
_seekscope_traces() {
	_seekscope_files "$1" 'sst|dat|blktrace\.[0-9]+'
}

# -d: block devices (/dev/sd*, nvme*, loop*, ...), mount points, and any path.
_seekscope_devices() {
	local cur=$1 d m
	local IFS=$'\n'
	COMPREPLY=()
	if [[ $cur == /dev/* || -z $cur ]]; then
		for d in /sys/class/block/*; do
			d=/dev/${d##*/}
			[[ -b $d && $d == "$cur"* ]] && COMPREPLY+=("$d")
		done
	fi
	while read -r _ m _; do
		m=${m//\\040/ }
		[[ $m == /* && $m == "$cur"* && $m != /proc* && $m != /sys* && $m != /dev* && $m != /run* ]] &&
			COMPREPLY+=("$m")
	done </proc/self/mounts
	compopt -o filenames 2>/dev/null
	for d in $(compgen -d -- "$cur"); do COMPREPLY+=("$d"); done
}

_seekscope() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	local bin=${COMP_WORDS[0]} cmd="" i
	local commands
	commands="$(_seekscope_commands "$bin") help"
	COMPREPLY=()
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done
	# `--opt=VALUE`: complete VALUE as the option's argument (bash splits the word at '='
	# unless COMP_WORDBREAKS lacks it)
	if [[ $cur == = ]]; then
		cur=""
	elif [[ $prev == = && $COMP_CWORD -ge 2 ]]; then
		prev=${COMP_WORDS[COMP_CWORD-2]}
	elif [[ $cur == --*=* ]]; then
		prev=${cur%%=*}
		cur=${cur#*=}
	fi
	if [[ -z $cmd ]]; then
		if [[ $cur == -* ]]; then _seekscope_words "$(_seekscope_options "$bin" "")" "$cur"
		else _seekscope_words "$commands" "$cur"; fi
		return 0
	fi
	if [[ $cmd == help ]]; then
		[[ $COMP_CWORD -eq $((i + 1)) ]] && _seekscope_words "${commands% help}" "$cur"
		return 0
	fi
	# record: what follows the workload COMMAND (or --) is COMMAND's own
	local with_arg
	with_arg=" $(_seekscope_options "$bin" "$cmd" ARG | tr '\n' ' ') "
	if [[ $cmd == record ]]; then
		local j skip=0 w
		for ((j = i + 1; j < COMP_CWORD; j++)); do
			w=${COMP_WORDS[j]}
			if ((skip)); then   # an option's value; "--opt=VALUE" is split into 3 words
				[[ $w == = ]] || skip=0
				continue
			fi
			case $w in
			--) compopt -o default 2>/dev/null; COMPREPLY=(); [[ $j -eq $((COMP_CWORD - 1)) ]] &&
				# shellcheck disable=SC2207
				COMPREPLY=($(compgen -c -- "$cur")); return 0 ;;
			=) skip=1 ;;
			-*) [[ $with_arg == *" $w "* ]] && skip=1 ;;
			*) compopt -o default 2>/dev/null; return 0 ;;
			esac
		done
	fi
	case $cmd:$prev in
	*:-o|*:--output)
		case $cmd in
		plot) _seekscope_files "$cur" 'png|svg|pdf|html' ;;
		movie) _seekscope_files "$cur" 'mp4|webm|mkv' ;;
		mkarchive) _seekscope_files "$cur" 'tar|tar\.gz|tgz|tar\.xz|txz|tar\.bz2|tbz2|tar\.zst|tzst|zip|cpio' ;;
		*) _seekscope_files "$cur" 'sst' ;;
		esac
		return 0 ;;
	record:-d|record:--device) _seekscope_devices "$cur"; return 0 ;;
	record:-e|record:--events) _seekscope_list $'insert\nqueue' "$cur"; return 0 ;;
	record:--fsync) _seekscope_words "end file none" "$cur"; return 0 ;;
	record:--user)
		# shellcheck disable=SC2207
		COMPREPLY=($(compgen -u -- "$cur")); return 0 ;;
	record:--untar) _seekscope_files "$cur" 'tar|tar\.gz|tgz|tar\.xz|txz|tar\.bz2|tbz2|tar\.zst|tzst|zip|cpio' ; return 0 ;;
	record:--into|record:--map) compopt -o filenames 2>/dev/null
		# shellcheck disable=SC2207
		COMPREPLY=($(compgen -d -- "$cur")); return 0 ;;
	plot:-p|plot:--panels|movie:-p|movie:--panels)
		_seekscope_list "$(_seekscope_panels "$bin" "$cmd")" "$cur"; return 0 ;;
	movie:--style) _seekscope_words "grid spindle scan" "$cur"; return 0 ;;
	plot:-u|plot:--units) _seekscope_words "auto sectors mib gib" "$cur"; return 0 ;;
	plot:--color-by) _seekscope_words "class process dir dir:2 file" "$cur"; return 0 ;;
	plot:--format) _seekscope_words "png svg pdf html" "$cur"; return 0 ;;
	movie:--format) _seekscope_words "mp4 webm mkv" "$cur"; return 0 ;;
	convert:-f|convert:--fs) _seekscope_devices "$cur"
		local f; for f in $(compgen -f -- "$cur"); do [[ -f $f ]] && COMPREPLY+=("$f"); done
		return 0 ;;
	esac
	[[ $prev == -* && $with_arg == *" $prev "* ]] && return 0   # a value of the user's own
	if [[ $cur == -* ]]; then
		_seekscope_words "$(_seekscope_options "$bin" "$cmd")" "$cur"
		return 0
	fi
	case $cmd in
	report|plot|movie|dump|convert) _seekscope_traces "$cur" ;;
	esac
	return 0
}
complete -F _seekscope seekscope
