#!/usr/bin/env bash
# the cats are deliberate: they make the pipes this test is about
# shellcheck disable=SC2002
# SPDX-License-Identifier: GPL-2.0-or-later
# `-` for standard input and output, unprivileged: report, dump, plot and convert read a trace
# from a pipe, /dev/stdin, a FIFO, <(cmd) and a redirected file with the same result as from its
# name; convert -o - and plot -o - --format write what -o FILE writes, movie -o - --format a
# movie ffprobe reads, byte for byte (but the
# trace header's creation time); plot -o - needs --format; a terminal is refused on either side
# (one line, nothing drawn); blktrace cannot come from stdin; the spool leaves nothing in
# $TMPDIR.  Prints TAP.
source "$(dirname "$0")/../lib/tap.sh"
GEN=${GEN_TRACE:-build/tests/tools/gen-trace}
GENBT=${GEN_BLKTRACE:-build/tests/tools/gen-blktrace}
plan 42
need CMD "$GEN"
make_workdir
d=$WORK
"$GEN" -o "$d/a.sst" -n 3000 -P >/dev/null || exit 1
mkdir "$d/tmp"
export TMPDIR=$d/tmp

# same_but_name FILE1 FILE2: equal but for their first line (which names the trace)
same_but_name() { cmp -s <(tail -n +2 "$1") <(tail -n +2 "$2"); }

"$SEEKSCOPE" report "$d/a.sst" >"$d/r.file"
cat "$d/a.sst" | "$SEEKSCOPE" report - >"$d/r.pipe" 2>"$d/err"
ok $? "report - reads a pipe"
same_but_name "$d/r.file" "$d/r.pipe"; ok $? "... the same report as from the file"
is "$(head -1 "$d/r.pipe")" "-" "... which it names -"
"$SEEKSCOPE" report - <"$d/a.sst" >"$d/r.redir"
same_but_name "$d/r.file" "$d/r.redir"; ok $? "report - < FILE: the same report"
cat "$d/a.sst" | "$SEEKSCOPE" report /dev/stdin >"$d/r.devstdin"
same_but_name "$d/r.file" "$d/r.devstdin"; ok $? "report /dev/stdin (a pipe): the same report"
"$SEEKSCOPE" report <(cat "$d/a.sst") >"$d/r.procsub"
same_but_name "$d/r.file" "$d/r.procsub"; ok $? "report <(cat FILE): the same report"
mkfifo "$d/fifo"
cat "$d/a.sst" >"$d/fifo" &
"$SEEKSCOPE" report "$d/fifo" >"$d/r.fifo"; wait
same_but_name "$d/r.file" "$d/r.fifo"; ok $? "report FIFO: the same report"
"$SEEKSCOPE" report --json "$d/a.sst" | sed 's/"file":"[^"]*"//' >"$d/j.file"
cat "$d/a.sst" | "$SEEKSCOPE" report --json - | sed 's/"file":"[^"]*"//' >"$d/j.pipe"
cmp -s "$d/j.file" "$d/j.pipe"; ok $? "report --json -: the same JSON but the file name"
is "$(find "$d/tmp" -mindepth 1 | wc -l)" 0 "the spooled copies left nothing in \$TMPDIR"

"$SEEKSCOPE" dump "$d/a.sst" >"$d/d.file"
cat "$d/a.sst" | "$SEEKSCOPE" dump - >"$d/d.pipe"
ok $? "dump - reads a pipe"
same_but_name "$d/d.file" "$d/d.pipe"; ok $? "... every line as from the file but the first"
is "$(grep -vc '^#' "$d/d.pipe")" 6000 "... 6000 events"

# convert: the header's creation time (bytes 24..31) is the only difference between two runs
same_trace() { cmp -s <(head -c 24 "$1") <(head -c 24 "$2") && cmp -s -i 32 "$1" "$2"; }
"$SEEKSCOPE" convert "$d/a.sst" -o "$d/c.file.sst"
"$SEEKSCOPE" convert "$d/a.sst" -o - >"$d/c.out.sst" 2>"$d/err"
ok $? "convert -o - writes to stdout"
same_trace "$d/c.file.sst" "$d/c.out.sst"; ok $? "... the same bytes as -o FILE"
[[ ! -e $d/- && ! -e ./- ]]; ok $? "... and no file named -"
# (the copy's meta convert.input names its input: -)
cat "$d/a.sst" | "$SEEKSCOPE" convert - -o "$d/c.stdin.sst"
cat "$d/a.sst" | "$SEEKSCOPE" convert - -o - | cat >"$d/c.pipe.sst"
same_trace "$d/c.stdin.sst" "$d/c.pipe.sst"; ok $? "convert - -o - in a pipeline: the same bytes as convert - -o FILE"
cmp -s <("$SEEKSCOPE" dump "$d/c.file.sst" | grep -v '^#') <("$SEEKSCOPE" dump "$d/c.pipe.sst" | grep -v '^#')
ok $? "... the same events as converted from the file"
"$SEEKSCOPE" convert -q "$d/a.sst" --to fio -o "$d/c.iolog"
cat "$d/a.sst" | "$SEEKSCOPE" convert -q - --to fio -o - >"$d/c.pipe.iolog"
cmp -s "$d/c.iolog" "$d/c.pipe.iolog"; ok $? "convert - --to fio -o -: the same iolog"

for f in png svg html; do
	"$SEEKSCOPE" plot -q "$d/a.sst" -o "$d/p.$f"
	cat "$d/a.sst" | "$SEEKSCOPE" plot -q - -l a.sst -o - --format "$f" >"$d/p.out.$f"
	# the page names its trace: the file's name, or -
	[[ $f != html ]] || sed -i "s|$d/a.sst|-|g" "$d/p.$f"
	[[ -s $d/p.out.$f ]] && cmp -s "$d/p.$f" "$d/p.out.$f"
	ok $? "plot - -o - --format $f: the same bytes as plot FILE -o x.$f"
done
"$SEEKSCOPE" plot -q "$d/a.sst" -o - --format pdf >"$d/p.out.pdf"
[[ $(head -c 5 "$d/p.out.pdf") == %PDF- ]]; ok $? "plot -o - --format pdf: a PDF"
"$SEEKSCOPE" plot "$d/a.sst" -o - >"$d/p.none" 2>"$d/err"; rc=$?
is "$rc:$(wc -l <"$d/err"):$(wc -c <"$d/p.none")" "2:1:0" "plot -o - without --format: exit 2, one line, nothing written"
grep -q -- '--format' "$d/err"; ok $? "... which asks for --format"
"$SEEKSCOPE" plot "$d/a.sst" -o "$d/x.png" --format svg 2>/dev/null
is "$?" 2 "--format svg with -o x.png: exit 2"
(cd "$d" && "$SEEKSCOPE" plot -q a.sst --format svg) && [[ -s $d/a.svg && ! -e $d/a.png ]]
ok $? "--format svg without -o: the default name ends in .svg"
"$SEEKSCOPE" plot "$d/a.sst" --format jpg 2>/dev/null; is "$?" 2 "--format jpg: exit 2"
(cd "$d" && cat a.sst | "$SEEKSCOPE" plot -q -) && [[ -s $d/stdin.png && ! -e $d/-.png ]]
ok $? "plot - without -o: stdin.png, never -.png"

# movie -o -: a container that needs no seeking back (mkv), or a fragmented MP4
if have CMD ffprobe; then
	mo=(--length 2 --fps 10 --size 640x560)
	cat "$d/a.sst" | "$SEEKSCOPE" movie - -o - --format mkv "${mo[@]}" 2>"$d/err" | cat >"$d/m.mkv"
	is "$(ffprobe -v error -count_frames -show_entries stream=nb_read_frames -of csv=p=0 "$d/m.mkv")" 20 \
		"movie - -o - --format mkv: 20 frames (ffprobe)"
	grep -q '^standard output: 20 frames' "$d/err"; ok $? "... the summary on stderr"
	"$SEEKSCOPE" movie -q "$d/a.sst" -o - --format mp4 "${mo[@]}" | cat >"$d/m.mp4"
	is "$(ffprobe -v error -count_frames -show_entries stream=nb_read_frames -of csv=p=0 "$d/m.mp4")" 20 \
		"movie -o - --format mp4 into a pipe: 20 frames (ffprobe)"
else
	skip_need 3 CMD ffprobe
fi
"$SEEKSCOPE" movie "$d/a.sst" -o - 2>/dev/null; is "$?" 2 "movie -o - without --format: exit 2"

# blktrace is a set of per-CPU files: not from a pipe
if have CMD "$GENBT"; then
	"$GENBT" -o "$d/bt" -n 100 -c 1 -d 8:16
	cat "$d/bt.blktrace.0" | "$SEEKSCOPE" report - >/dev/null 2>"$d/err"; rc=$?
	[[ $rc -eq 1 && $(wc -l <"$d/err") -eq 1 ]] && grep -q 'blktrace.*standard input' "$d/err"
	ok $? "blktrace on stdin: exit 1, one line ($(cat "$d/err"))"
else
	skip_need 1 CMD "$GENBT"
fi
"$SEEKSCOPE" report - </dev/null >/dev/null 2>"$d/err"; rc=$?
[[ $rc -eq 1 ]] && grep -q 'empty file' "$d/err"; ok $? "empty stdin: exit 1, 'empty file'"
printf 'junk' | "$SEEKSCOPE" dump - >/dev/null 2>"$d/err"; rc=$?
[[ $rc -eq 1 && $(wc -l <"$d/err") -eq 1 ]]; ok $? "junk on stdin: exit 1, one line"
chmod 0500 "$d/tmp"
if [[ $(id -u) -ne 0 ]]; then
	cat "$d/a.sst" | "$SEEKSCOPE" report - >/dev/null 2>"$d/err"; rc=$?
	[[ $rc -eq 1 && $(wc -l <"$d/err") -eq 1 ]] && grep -q "temporary file in $d/tmp" "$d/err"
	ok $? "unwritable \$TMPDIR: exit 1, one line naming it"
else
	TMPDIR=$d/missing-dir; cat "$d/a.sst" | "$SEEKSCOPE" report - >/dev/null 2>"$d/err"; rc=$?
	TMPDIR=$d/tmp
	[[ $rc -eq 1 && $(wc -l <"$d/err") -eq 1 ]] && grep -q "temporary file in $d/missing-dir" "$d/err"
	ok $? "missing \$TMPDIR: exit 1, one line naming it"
fi
chmod 0700 "$d/tmp"

if have PYTHON3; then
	on_pty "$d/tty1" "$SEEKSCOPE" convert "$d/a.sst" -o -; rc=$?
	[[ $rc -eq 1 ]] && grep -q 'standard output is a terminal' "$d/tty1" && [[ $(wc -l <"$d/tty1") -eq 1 ]]
	ok $? "convert -o - on a terminal: exit 1, one line"
	on_pty "$d/tty2" "$SEEKSCOPE" plot "$d/a.sst" -o - --format png; rc=$?
	[[ $rc -eq 1 ]] && grep -q 'standard output is a terminal' "$d/tty2" && [[ $(wc -l <"$d/tty2") -eq 1 ]]
	ok $? "plot -o - on a terminal: exit 1, one line, no PNG bytes ($(wc -c <"$d/tty2") bytes)"
	on_pty "$d/tty5" "$SEEKSCOPE" movie "$d/a.sst" -o - --format mkv; rc=$?
	[[ $rc -eq 1 ]] && grep -q 'standard output is a terminal' "$d/tty5" && [[ $(wc -l <"$d/tty5") -eq 1 ]]
	ok $? "movie -o - on a terminal: exit 1, one line"
	on_pty "$d/tty3" "$SEEKSCOPE" report -; rc=$?
	[[ $rc -eq 1 ]] && grep -q 'standard input is a terminal' "$d/tty3"
	ok $? "report - with a terminal on stdin: exit 1, refused"
	on_pty "$d/tty4" bash -c "'$SEEKSCOPE' convert - -o '$d/t.sst' 2>&1 | cat"
	grep -q 'standard input is a terminal' "$d/tty4" && [[ ! -e $d/t.sst ]]
	ok $? "convert - from a terminal: refused, no output"
	is "$(find "$d/tmp" -mindepth 1 | wc -l)" 0 "nothing left in \$TMPDIR"
else
	skip_need 6 PYTHON3
fi
done_testing
