#!/usr/bin/env bash
# What `make static ARCH=aarch64`, `make dist` and tests/e2e/static.sh need
# on an x86_64 Debian machine: libdw.a's own liblzma and libbz2 (static
# links), the aarch64 cross compiler, the arm64 static
# libraries aotperf links (through dpkg --add-architecture arm64),
# qemu-user-static to run the results, and file(1). Called from
# scripts/test-deps.sh; installs only what is missing. Elsewhere it says
# what to get.
set -euo pipefail
native=(gcc-aarch64-linux-gnu qemu-user-static file liblzma-dev libbz2-dev)
arm64=(libc6-dev libcapstone-dev libelf-dev libdw-dev libzstd-dev libprotobuf-c-dev
       zlib1g-dev liblzma-dev libbz2-dev libtraceevent-dev)
if ! command -v dpkg-query >/dev/null 2>&1 || [ "$(dpkg --print-architecture)" != amd64 ]; then
	echo "cross-deps: not an x86_64 Debian system: for the aarch64 static build install" \
		"an aarch64-linux-gnu-gcc, arm64 static libraries of: ${arm64[*]}, and qemu-aarch64-static" >&2
	exit 0
fi
missing=()
for p in "${native[@]}" "${arm64[@]/%/:arm64}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
# --check: exit 0 when nothing is missing, 1 otherwise; install nothing
[ "${1:-}" = --check ] && { [ ${#missing[@]} -eq 0 ]; exit; }
[ ${#missing[@]} -eq 0 ] && exit 0
[ "$(id -u)" = 0 ] || { echo "cross-deps: need root to install: ${missing[*]}" >&2; exit 1; }
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
	dpkg --add-architecture arm64
	echo "cross-deps: added the arm64 architecture (dpkg --add-architecture arm64)"
fi
apt=(apt-get -o DPkg::Lock::Timeout=900)
"${apt[@]}" update -qq
DEBIAN_FRONTEND=noninteractive "${apt[@]}" install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "cross-deps: installed ${missing[*]}"
