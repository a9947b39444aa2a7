#!/usr/bin/env bash
# Install what aotperf builds and tests with, on Debian 12 (as root).
# libperf has no Debian package: build it from linux-source-6.1's
# tools/lib/perf into .deps/libperf (headers + static lib), once.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
pkgs=(build-essential pkg-config linux-perf libcapstone-dev libelf-dev libdw-dev
      libzstd-dev zstd linux-source-6.1 binutils binutils-aarch64-linux-gnu gawk jq)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	[ "$(id -u)" = 0 ] || { echo "deps: need root to install: ${missing[*]}" >&2; exit 1; }
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

dest=$here/.deps/libperf
if [ ! -f "$dest/usr/include/perf/event.h" ]; then
	tarball=$(ls /usr/src/linux-source-6.1.tar.* 2>/dev/null | head -n1)
	[ -n "$tarball" ] || { echo "deps: /usr/src/linux-source-6.1.tar.* not found" >&2; exit 1; }
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
	tar -xf "$tarball" -C "$work" --wildcards \
		'linux-source-6.1/tools/lib/*' 'linux-source-6.1/tools/include/*' \
		'linux-source-6.1/tools/build/*' 'linux-source-6.1/tools/scripts/*' \
		'linux-source-6.1/tools/arch/*' 'linux-source-6.1/scripts/*' \
		'linux-source-6.1/include/uapi/*'
	make -s -C "$work/linux-source-6.1/tools/lib/perf" install_headers install_lib \
		DESTDIR="$dest" prefix=/usr >/dev/null
fi
echo "deps: ok (libperf in $dest)"
