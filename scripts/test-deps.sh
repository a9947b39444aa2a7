#!/usr/bin/env bash
# What the tests and the exports need beyond perf and the core build
# (kernel-tools-compat/install-perf.sh installs those), on Debian:
# libFuzzer (clang), pprof (protobuf-c, zlib; protoc decodes in tests),
# GFM table checks (cmark-gfm), the V8 comparison (wabt), host-frame
# unwinding (libdw, elfutils' readelf), the HTML report's browser test
# (chromium), the hot-loop throughput model of report --func/--hot
# (llvm: llvm-mca, run as a program; aotperf works without it). Installs only what is missing; elsewhere it says what to get.
set -euo pipefail
pkgs=(clang libclang-rt-14-dev libfuzzer-14-dev libprotobuf-c-dev protobuf-c-compiler
      protobuf-compiler zlib1g-dev cmark-gfm wabt libdw-dev elfutils chromium llvm)
if ! command -v dpkg-query >/dev/null 2>&1; then
	echo "test-deps: not a Debian system: install the equivalents of: ${pkgs[*]}" >&2
	exit 0
fi
bash "$(dirname "$0")/cross-deps.sh"	# aarch64 cross build + qemu: tests/e2e/static.sh
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
[ "$(id -u)" = 0 ] || { echo "test-deps: need root to install: ${missing[*]}" >&2; exit 1; }
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "test-deps: installed ${missing[*]}"
