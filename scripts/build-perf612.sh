#!/usr/bin/env bash
# Build perf 6.12 from Debian's linux-source-6.12 into a folder outside the
# repository, to check aotperf against a newer perf than Debian 12's 6.1
# (docs/install.md, "perf versions").
#
#   scripts/build-perf612.sh [PREFIX]     default ~/.cache/aotperf/perf-6.12
#
# Prints the path of the installed perf binary on its last line.
# Environment: JOBS (default 2), NICE (default 19), TARBALL (default
# /usr/src/linux-source-6.12.tar.xz, package linux-source-6.12).
# Build needs (Debian): flex bison libelf-dev libdw-dev libzstd-dev libcap-dev
# libnuma-dev libslang2-dev libunwind-dev libperl-dev python3-dev
# libtraceevent-dev libbabeltrace-dev systemtap-sdt-dev libcapstone-dev
# libssl-dev pkg-config.
set -euo pipefail
prefix=${1:-${HOME}/.cache/aotperf/perf-6.12}
tarball=${TARBALL:-/usr/src/linux-source-6.12.tar.xz}
jobs=${JOBS:-2}
nice=${NICE:-19}

if [ -x "$prefix/bin/perf" ]; then
	echo "build-perf612: already built"
	echo "$prefix/bin/perf"
	exit 0
fi
[ -f "$tarball" ] || { echo "build-perf612: $tarball not found (apt-get install linux-source-6.12)" >&2; exit 1; }

src=$prefix/src
obj=$prefix/obj
mkdir -p "$src" "$obj"
if [ ! -f "$src/tools/perf/Makefile" ]; then
	# perf's build needs these parts of the kernel tree, not the whole of it.
	top=$(basename "$tarball" .tar.xz)
	tar -xJf "$tarball" -C "$src" --strip-components=1 \
		"$top/tools" "$top/include" "$top/arch" "$top/scripts" \
		"$top/lib" "$top/Makefile" "$top/kernel" 2>/dev/null || \
	tar -xJf "$tarball" -C "$src" --strip-components=1
fi
nice -n "$nice" make -s -C "$src/tools/perf" -j"$jobs" O="$obj" prefix="$prefix" \
	NO_JEVENTS=1 install-bin >"$prefix/build.log" 2>&1 || {
	tail -n 30 "$prefix/build.log" >&2
	echo "build-perf612: build failed, log in $prefix/build.log" >&2
	exit 1
}
"$prefix/bin/perf" version >/dev/null
echo "$prefix/bin/perf"
