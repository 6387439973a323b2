#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Installs the Debian packages seekscope needs to build, test, benchmark and run its samples.
# Does nothing when they are all present; otherwise needs root (apt-get).  Used by
# `make deps` (and so by `make check` and `make demo`) and by .ci/run.
set -eu
PKGS=(
	# build
	gcc make pkg-config
	libtracefs-dev libtraceevent-dev libcairo2-dev libarchive-dev
	libext2fs-dev libblkid-dev zlib1g-dev libtracecmd-dev
	# tests and samples: filesystems on loop devices, archives, JSON/XML checks
	util-linux mount fdisk xfsprogs e2fsprogs tar gzip xz-utils bzip2 zstd
	python3 libxml2-utils poppler-utils
	# benchmarks
	fio trace-cmd time blktrace
	# hardening: valgrind memcheck (make valgrind), clang + libFuzzer runtime (make fuzz)
	valgrind clang libclang-rt-dev
)
missing=()
for p in "${PKGS[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0
if [[ $(id -u) -ne 0 ]]; then
	echo "seekscope needs these Debian packages: ${missing[*]}" >&2
	echo "install them as root: apt-get install ${missing[*]}" >&2
	exit 1
fi
echo "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
