# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the benchmark scripts: source it, then `bench_dir "${2:-}"` sets DIR to the named
# directory (made if missing) or to a temporary one removed at exit, and moves to the source
# tree so that `make` builds what the benchmark needs.
bench_dir() {
	if [[ -n ${1:-} ]]; then
		dir=$1
		mkdir -p "$dir"
		dir=$(cd "$dir" && pwd)
	else
		dir=$(mktemp -d /tmp/ss-bench-XXXXXX)
		trap 'rm -rf "$dir"' EXIT
	fi
	cd "$(dirname "${BASH_SOURCE[0]}")/../.."
}
