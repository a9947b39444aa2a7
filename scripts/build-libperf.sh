#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# build-libperf.sh TARBALL [TOPDIR]: build libperf's headers and static
# library from a kernel source tarball's tools/lib/perf into .deps/libperf
# (the Makefile's default LIBPERF_DIR), once. No distribution packages
# libperf's headers except Fedora/RHEL (libperf-devel); install-perf.sh
# passes Debian's /usr/src/linux-source-X.tar.xz, Ubuntu's linux-source-X
# tarball, or on Azure Linux 3 the running kernel's source tarball (the
# kernel spec's Source0). TOPDIR is the tarball's top folder (default: its
# name without .tar.*). Needs make, a C compiler, tar and the tarball's
# decompressor; installs nothing. Environment: LIBPERF_DEST (default
# .deps/libperf next to this folder).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	echo "usage: scripts/build-libperf.sh TARBALL [TOPDIR]" >&2
	exit 2
fi
tarball=$1
top=${2:-$(basename "$tarball" | sed 's/\.tar\.[a-z0-9]*$//; s/\.tgz$//')}
dest=${LIBPERF_DEST:-$here/.deps/libperf}
if [ -f "$dest/usr/include/perf/event.h" ]; then
	echo "build-libperf: already built (libperf in $dest)"
	exit 0
fi
[ -r "$tarball" ] || { echo "build-libperf: $tarball: cannot read" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# tools/lib/perf's build reaches into these folders only.
tar -xf "$tarball" -C "$work" --wildcards \
	"$top/tools/lib/*" "$top/tools/include/*" "$top/tools/build/*" \
	"$top/tools/scripts/*" "$top/tools/arch/*" "$top/scripts/*" "$top/include/uapi/*"
make -s -C "$work/$top/tools/lib/perf" install_headers install_lib \
	DESTDIR="$dest" prefix=/usr >/dev/null
[ -f "$dest/usr/include/perf/event.h" ] ||
	{ echo "build-libperf: no perf/event.h in $dest after the build" >&2; exit 1; }
echo "build-libperf: ok (libperf from $(basename "$tarball") in $dest)"
