#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# seekscope movie from the command line, checked with ffprobe: exactly fps x length frames of
# the right duration in every container (--length), as many as the trace time needs (--speed),
# every style, several traces side by side, --skip-idle saying what it skipped; an unknown
# extension is one line naming what this FFmpeg writes (exit 2, nothing created); SIGINT stops
# the encode with exit 130 and leaves no file, final or temporary; on a terminal a progress bar
# is drawn and cleared; without FFmpeg (loaded only for movies) movie fails with one line and
# the other commands work.  (Which pixels light up in which frame: tests/unit/test_movie.c.)
source "$(dirname "$0")/../lib/tap.sh"
GEN=${GEN_TRACE:-build/tests/tools/gen-trace}
need CMD ffmpeg ffprobe
need PYTHON3
plan 35
make_workdir
d=$WORK

# frames FILE: "DURATION,FRAMES" of its video stream as ffprobe counts them (the container's
# duration when the stream has none, as in Matroska)
frames() {
	local n dur
	n=$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames \
		-of csv=p=0 "$1")
	dur=$(ffprobe -v error -select_streams v:0 -show_entries stream=duration -of csv=p=0 "$1")
	[[ $dur == N/A || -z $dur ]] && dur=$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$1")
	printf '%.3f,%s' "$dur" "$n"
}
# others DIR: entries of DIR other than the traces
others() { find "$1" -mindepth 1 -maxdepth 1 ! -name '*.sst' -printf '%f\n' | sort | tr '\n' ' '; }

"$GEN" -o "$d/u.sst" -P -n 3000 && "$GEN" -o "$d/idle.sst" -P -n 2000 -D 5000 &&
	"$GEN" -o "$d/ag.sst" -p ag -k 2 -n 2000
ok $? "traces generated"
small=(-s 640x480 --panels seeks)

for ext in mp4 webm mkv; do
	"$SEEKSCOPE" movie "$d/u.sst" -o "$d/u.$ext" --length 1.5 --fps 12 "${small[@]}" -q >"$d/out" 2>"$d/err"
	ok $? ".$ext: written"
	is "$(frames "$d/u.$ext")" "1.500,18" ".$ext: ffprobe: 1.5 s, 18 frames (12 fps x 1.5 s)"
done
[[ ! -s $d/out && ! -s $d/err ]]; ok $? "-q: nothing printed"

for style in grid spindle scan; do
	"$SEEKSCOPE" movie "$d/u.sst" -o "$d/$style.mp4" --style "$style" --length 1 --fps 10 "${small[@]}" -q
	is "$?,$(frames "$d/$style.mp4")" "0,1.000,10" "--style $style: 10 frames"
done

# --speed X: the trace's seconds / X at the rate, rounded up
dur=$("$SEEKSCOPE" report "$d/u.sst" | awk '$1 == "duration" { print $2 }')
want=$(awk -v d="$dur" 'BEGIN { f = d / 4 * 10; n = int(f); if (n < f) n++; print n }')
"$SEEKSCOPE" movie "$d/u.sst" -o "$d/speed.mp4" --speed 4 --fps 10 "${small[@]}" >"$d/out"
ok $? "--speed 4 over a $dur s trace"
is "$(frames "$d/speed.mp4" | cut -d, -f2)" "$want" "... ceil($dur / 4 x 10) frames"
grep -q "^$d/speed.mp4: $want frames at 10 fps" "$d/out"
ok $? "... the summary line says so: $(cat "$d/out")"

# two traces on one clock, and --x-range
"$SEEKSCOPE" movie "$d/u.sst" "$d/ag.sst" -l one -l two -o "$d/two.mp4" --length 1 --fps 8 \
	-s 960x640 -x 1:3 -q
is "$?,$(frames "$d/two.mp4")" "0,1.000,8" "two traces side by side, --x-range 1:3: 8 frames"

# --skip-idle: a trace idle for its first 5 s
"$SEEKSCOPE" movie "$d/idle.sst" -o "$d/idle.mp4" --skip-idle --length 1 --fps 10 "${small[@]}" >"$d/out"
is "$?,$(frames "$d/idle.mp4")" "0,1.000,10" "--skip-idle: still fps x length frames"
skipped=$(sed -n 's/.*, \([0-9.]*\) s idle skipped.*/\1/p' "$d/out")
awk -v s="$skipped" 'BEGIN { exit !(s >= 4.5 && s <= 5) }'
ok $? "... 4.5 to 5 s of the 5 s lead skipped: '$skipped'"

# bad input: one line, nothing written
"$SEEKSCOPE" movie "$d/u.sst" -o "$d/u.avi" >"$d/out" 2>"$d/err"; rc=$?
[[ $rc -eq 2 && $(wc -l <"$d/err") -eq 1 && ! -s $d/out ]]
ok $? "an unknown extension: exit 2 (got $rc), one line: $(cat "$d/err")"
grep -q "unknown movie extension .avi: this FFmpeg writes .mp4 (" "$d/err"
ok $? "... naming what this FFmpeg writes"
# several devices: a movie films one (--device), a trace of several without it is a misuse
GENBT=${GEN_BLKTRACE:-build/tests/tools/gen-blktrace}
mkdir -p "$d/bt"
"$GENBT" -o "$d/bt/a" -n 600 -d 7:0 && "$GENBT" -o "$d/bt/b" -n 300 -d 7:1 -s 7
"$SEEKSCOPE" movie "$d/bt" -o "$d/two-dev.mp4" --length 1 --fps 8 "${small[@]}" >"$d/out" 2>"$d/err"; rc=$?
is "$rc" 2 "a trace of two devices without --device: exit 2"
[[ $(wc -l <"$d/err") -eq 1 ]] && grep -q "has 2 devices (7:0, 7:1): a movie films one, name it with --device" "$d/err" &&
	[[ ! -e $d/two-dev.mp4 ]]
ok $? "... one line naming them, no movie ($(cat "$d/err"))"
"$SEEKSCOPE" movie "$d/bt" -o "$d/dev1.mp4" --device 7:1 --length 1 --fps 8 "${small[@]}" -q
is "$?,$(frames "$d/dev1.mp4")" "0,1.000,8" "--device 7:1: that device filmed, 8 frames"
"$SEEKSCOPE" movie "$d/bt" -o "$d/dev9.mp4" --device 9:9 -q 2>"$d/err"; rc=$?
is "$rc,$(grep -c 'has no device "9:9"' "$d/err")" "2,1" "--device a trace lacks: exit 2, saying so"
rm -rf "$d/bt"        # the checks below look at what else is in $d

"$SEEKSCOPE" movie "$d/u.sst" -o "$d/big.mp4" -s 640x240 --panels seeks,tput,iops,lat,qd -q 2>"$d/err"; rc=$?
[[ $rc -eq 2 && $(wc -l <"$d/err") -eq 1 ]]
ok $? "a size too small for the figure: exit 2 (got $rc): $(cat "$d/err")"
is "$(others "$d" | tr ' ' '\n' | grep -cE '^(\..*~|u\.avi|big\.mp4)$')" 0 "... no file left by either"

# SIGINT in the middle of an encode: exit 130, nothing under the name, no temporary file
rm -f "$d"/*.mp4 "$d"/*.webm "$d"/*.mkv
"$SEEKSCOPE" movie "$d/u.sst" -o "$d/int.mp4" --length 600 --fps 30 -s 1280x720 -q 2>"$d/err" &
pid=$!
for _ in $(seq 50); do [[ -n $(others "$d") ]] && break; sleep 0.1; done
sleep 0.5
kill -INT "$pid"
wait "$pid"; rc=$?
is "$rc" 130 "SIGINT during the encode: exit 130"
grep -qx "seekscope movie: interrupted, $d/int.mp4 not written" "$d/err"
ok $? "... one line: $(cat "$d/err")"
is "$(others "$d")" "err out " "... no movie and no temporary file left"

# on a terminal: a progress bar, cleared at the end, then the summary
on_pty "$d/tty.out" "$SEEKSCOPE" movie "$d/u.sst" -o "$d/tty.mp4" --length 2 --fps 15 "${small[@]}"
ok $? "on a terminal"
grep -q 'seekscope movie: \[#*\.*\] *[0-9]*%  frame [0-9]*/30' "$d/tty.out"
ok $? "... a progress bar counting to 30 frames"
# screen TTY-OUT: what a terminal shows at the end: the last line after the last \r
screen() { tr '\r' '\n' <"$1" | sed 's/\x1b\[K//g' | grep -v '^$' | tail -1; }
screen "$d/tty.out" | grep -q "^$d/tty.mp4: 30 frames at 15 fps (2.000 s)"
ok $? "... cleared, then the summary: $(screen "$d/tty.out")"
on_pty "$d/tty-int.out" --int 1.5 "$SEEKSCOPE" movie "$d/u.sst" -o "$d/tty-int.mp4" --length 600 \
	"${small[@]}"
rc=$?
[[ $rc -eq 130 && ! -e $d/tty-int.mp4 ]] &&
	screen "$d/tty-int.out" | grep -qx "seekscope movie: interrupted, $d/tty-int.mp4 not written"
ok $? "Ctrl-C on a terminal: exit 130 (got $rc), the bar replaced by one line, no file"

# without FFmpeg: its libavcodec hidden by an empty file in a private mount namespace
lib=$(cached_lib 'libavcodec\.so\.[0-9]+' "$SEEKSCOPE")
if have ROOT && have CMD unshare && have MOUNTNS && [[ -n $lib ]]; then
	: >"$d/empty.so"
	unshare -m sh -c 'mount --bind "$1" "$2" || exit 9
		"$3" movie "$4" -o "$5" --length 1 -q; echo "movie=$?"
		"$3" report "$4" >/dev/null; echo "report=$?"' \
		sh "$d/empty.so" "$lib" "$SEEKSCOPE" "$d/u.sst" "$d/noav.mp4" >"$d/noav.out" 2>"$d/noav.err"
	grep -qx 'movie=1' "$d/noav.out"
	ok $? "without FFmpeg: movie exits 1 ($(tr '\n' ' ' <"$d/noav.out"))"
	[[ $(wc -l <"$d/noav.err") -eq 1 ]] && grep -q "cannot load FFmpeg's libavcodec" "$d/noav.err"
	ok $? "... one line naming the library: $(head -1 "$d/noav.err")"
	grep -qx 'report=0' "$d/noav.out" && [[ ! -e $d/noav.mp4 ]]
	ok $? "... no movie written, and report works without FFmpeg"
else
	skip 3 "prerequisite: root, a private mount namespace and libavcodec in the loader's cache"
fi
done_testing
