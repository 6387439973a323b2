#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Installs the Debian packages seekscope needs, by purpose:
#   build  compile seekscope and its manual pages
#   check  build + what `make check` uses (filesystems on loop devices, archives, XML/PDF checks,
#          ffprobe for the movies, man to render the manual pages, fio for the iolog replay,
#          headless Chromium driven by Selenium for the HTML viewer)
#   demo   build + what `make demo` uses
#   all    check + benchmarks, valgrind and clang/libFuzzer (what .ci/run uses; the default)
# Does nothing when they are all present.  As root on a machine with apt it installs what is
# missing; otherwise (not root, or no apt) it names what is missing and how to install it, and
# exits 1.  Used by `make deps` / `make check` / `make demo` and by .ci/run.
set -eu
purpose=${1:-all}

# Debian package | what it provides (a pkg-config module "pc:NAME", a command, a file, a C
# header "hdr:PATH") | Fedora package
BUILD='
gcc            cmd:gcc            gcc
make           cmd:make           make
xxd            cmd:xxd            vim-common
pkg-config     cmd:pkg-config     pkgconf-pkg-config
scdoc          cmd:scdoc          scdoc
libtracefs-dev pc:libtracefs      libtracefs-devel
libtraceevent-dev pc:libtraceevent libtraceevent-devel
libtracecmd-dev pc:libtracecmd    libtracecmd-devel
libcairo2-dev  pc:cairo           cairo-devel
libpng-dev     pc:libpng          libpng-devel
libarchive-dev pc:libarchive      libarchive-devel
libext2fs-dev  pc:ext2fs          e2fsprogs-devel
libblkid-dev   pc:blkid           libblkid-devel
xfslibs-dev    hdr:xfs/xfs.h      xfsprogs-devel
zlib1g-dev     pc:zlib            zlib-devel
libzstd-dev    pc:libzstd         libzstd-devel
libdeflate-dev pc:libdeflate      libdeflate-devel
libavcodec-dev pc:libavcodec      libavcodec-free-devel
libavformat-dev pc:libavformat    libavformat-free-devel
libavutil-dev  pc:libavutil       libavutil-free-devel
libswscale-dev pc:libswscale      libswscale-free-devel
'
FS='
util-linux     cmd:losetup        util-linux
mount          cmd:mount          util-linux-core
fdisk          cmd:sfdisk         util-linux
xfsprogs       cmd:mkfs.xfs       xfsprogs
e2fsprogs      cmd:mkfs.ext4      e2fsprogs
tar            cmd:tar            tar
gzip           cmd:gzip           gzip
'
CHECK='
xz-utils       cmd:xz             xz
bzip2          cmd:bzip2          bzip2
zstd           cmd:zstd           zstd
python3        cmd:python3        python3
libxml2-utils  cmd:xmllint        libxml2
poppler-utils  cmd:pdftoppm       poppler-utils
man-db         cmd:man            man-db
bsdutils       cmd:script         util-linux
trace-cmd      cmd:trace-cmd      trace-cmd
ffmpeg         cmd:ffprobe        ffmpeg-free
fio            cmd:fio            fio
chromium       cmd:chromium       chromium
chromium-driver cmd:chromedriver  chromedriver
python3-selenium file:selenium    python3-selenium
strace         cmd:strace         strace
'
EXTRA='
time           cmd:/usr/bin/time  time
blktrace       cmd:blktrace       blktrace
valgrind       cmd:valgrind       valgrind
clang          cmd:clang          clang
libclang-rt-dev file:libclang_rt.fuzzer compiler-rt
'
case $purpose in
build) want=$BUILD ;;
demo) want=$BUILD$FS ;;
check) want=$BUILD$FS$CHECK ;;
all) want=$BUILD$FS$CHECK$EXTRA ;;
*) echo "usage: $0 [build|check|demo|all]" >&2; exit 2 ;;
esac

have() {   # have PROVIDES: is it there, asked without a package manager
	case $1 in
	pc:*) pkg-config --exists "${1#pc:}" 2>/dev/null ;;
	cmd:*) command -v "${1#cmd:}" >/dev/null 2>&1 ;;
	file:*) find /usr/lib /usr/lib64 /usr/local/lib -name "${1#file:}*" -print -quit 2>/dev/null | grep -q . ;;
	hdr:*) printf '#include <%s>\n' "${1#hdr:}" | ${CC:-cc} -E -x c - >/dev/null 2>&1 ;;
	esac
}

missing=() missing_fedora=() missing_what=()
while read -r deb provides fedora; do
	[[ -n $deb ]] || continue
	if command -v dpkg-query >/dev/null 2>&1; then
		dpkg-query -W -f='${Status}' "$deb" 2>/dev/null | grep -q 'install ok installed' && continue
	elif have "$provides"; then
		continue
	fi
	missing+=("$deb"); missing_fedora+=("$fedora"); missing_what+=("${provides#*:}")
done <<< "$want"
[[ ${#missing[@]} -eq 0 ]] && exit 0

if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
	echo "installing: ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
	exit 0
fi
{
	echo "seekscope ($purpose) needs: ${missing_what[*]}"
	if command -v apt-get >/dev/null 2>&1; then
		echo "  install them as root: apt-get install ${missing[*]}"
	else
		echo "  Debian/Ubuntu packages: ${missing[*]}"
		echo "  Fedora packages:        ${missing_fedora[*]}"
		echo "  (libraries are named by their pkg-config module: any distribution's -dev/-devel package of it will do)"
	fi
} >&2
exit 1
