#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# test-deps.sh: what the tests add to `make deps` (`make test-deps`):
# libFuzzer (clang), the exports' decoders (protoc, cmark-gfm), the V8
# comparison (wabt, node), the HTML report's browser test (chromium, node,
# npm), cppcheck (make lint), readelf-alikes (elfutils, llvm), xxd, the
# aarch64 fixtures and binaries (binutils and gcc for aarch64, qemu-user),
# libtraceevent, strace (how often a run reads the recording). Per distribution, from the same facts as install-perf.sh
# (AOTPERF_OS_RELEASE, AOTPERF_UNAME_R, AOTPERF_UNAME_M; see its --help).
# What a distribution does not package is named on one line, not an error.
# Names and their sources: docs/platforms.md.
set -euo pipefail

PKG_PROG=test-deps
dry=0
case ${1:-} in
-n|--dry-run) dry=1 ;;
-h|--help)
	cat <<EOF
usage: scripts/test-deps.sh [--dry-run]

Install what the tests add to make deps (make test-deps), for Azure Linux 3
(tdnf), Debian and Ubuntu (apt-get), Fedora and RHEL-like (dnf); what the
distribution does not package is named on one line. What is installed is
skipped; sudo when not root; an apt lock another process holds is waited for.

  -n, --dry-run  print every package-manager command, change nothing

Environment (a dry run for another machine; see install-perf.sh --help):
  AOTPERF_OS_RELEASE, AOTPERF_UNAME_R, AOTPERF_UNAME_M, AOTPERF_APT_LOCK_WAIT
Names and where each comes from: docs/platforms.md.
EOF
	exit 0
	;;
"") ;;
*) echo "$PKG_PROG: unknown option '$1'; see --help" >&2; exit 2 ;;
esac
PKG_DRY=$dry
# shellcheck source-path=SCRIPTDIR source=../kernel-tools-compat/pkg.sh
source "$(dirname "${BASH_SOURCE[0]}")/../kernel-tools-compat/pkg.sh"
pkg_init

# cannot "PKG..." WHY: the one line for what is not installed here and why.
cannot() { note "cannot install on $OS_ID $OS_VERSION $PKG_UNAME_M: $1 ($2)"; }

# A cross toolchain for aarch64 on other machines; on aarch64 the native
# binutils assemble the aarch64 fixtures (make A64_AS=as A64_NM=nm
# A64_OBJCOPY=objcopy A64_OBJDUMP=objdump).
if [ "$PKG_UNAME_M" = aarch64 ]; then a64=0; else a64=1; fi

case $DISTRO in
debian|ubuntu)
	# clang's major version per release: its libFuzzer and runtime packages.
	case $OS_ID:$OS_VERSION in
	debian:12) llvm=14 ;;
	debian:13) llvm=19 ;;
	ubuntu:22.04) llvm=14 ;;
	ubuntu:24.04) llvm=18 ;;
	*) llvm="" ;;
	esac
	pkgs=(clang protobuf-compiler cmark-gfm wabt elfutils cppcheck strace xxd llvm
	      libtraceevent-dev qemu-user-static nodejs:node npm:npm)
	[ -n "$llvm" ] && pkgs+=("libclang-rt-$llvm-dev" "libfuzzer-$llvm-dev")
	[ "$a64" = 1 ] && pkgs+=(binutils-aarch64-linux-gnu gcc-aarch64-linux-gnu)
	if [ "$DISTRO" = debian ]; then
		pkgs+=(chromium:chromium)
	else
		cannot chromium "Ubuntu ships it as a snap: snap install chromium"
	fi
	apt_install "${pkgs[@]}"
	# Debian x86_64: the aarch64 static build's own list (arm64 libraries
	# through dpkg --add-architecture), which scripts/cross-deps.sh keeps.
	cross=${AOTPERF_CROSS_DEPS:-$PKG_ROOT/scripts/cross-deps.sh}
	if [ "$DISTRO" = debian ] && [ "$PKG_UNAME_M" = x86_64 ] &&
	   { [ "$PKG_FOREIGN" = 1 ] || ! bash "$cross" --check; }; then
		run bash "$cross"
	fi
	[ -n "$llvm" ] || cannot "libclang-rt-N-dev libfuzzer-N-dev" "N: this release's clang, not known here"
	;;
azurelinux)
	# cppcheck is in the extended repository (SPECS-EXTENDED/cppcheck).
	rpm_installed cppcheck || rpm_install tdnf azurelinux-repos-extended
	pkgs=(clang compiler-rt llvm protobuf elfutils cppcheck strace vim-extra libtraceevent-devel
	      glibc-static nodejs:node nodejs-npm:npm)
	[ "$a64" = 1 ] && pkgs+=(binutils-aarch64-linux-gnu)
	rpm_install tdnf "${pkgs[@]}"
	# SPECS/binutils builds the aarch64 cross binutils on x86_64 only; no
	# spec builds an aarch64 cross gcc; SPECS/qemu sets user_static 0.
	if [ "$a64" = 1 ]; then
		cannot "chromium cmark-gfm wabt gcc-aarch64-linux-gnu qemu-user-static" \
		       "no Azure Linux 3 package: docs/platforms.md"
	else
		cannot "chromium cmark-gfm wabt binutils-aarch64-linux-gnu gcc-aarch64-linux-gnu qemu-user-static" \
		       "no Azure Linux 3 package; on aarch64 the native binutils serve: docs/platforms.md"
	fi
	;;
fedora)
	pkgs=(clang compiler-rt llvm protobuf-compiler elfutils cppcheck strace vim-common wabt
	      libtraceevent-devel glibc-static qemu-user-static nodejs:node npm:npm chromium:chromium)
	[ "$a64" = 1 ] && pkgs+=(binutils-aarch64-linux-gnu gcc-aarch64-linux-gnu)
	rpm_install dnf "${pkgs[@]}"
	cannot cmark-gfm "not known to be packaged for Fedora"
	;;
rhel)
	# CRB and EPEL enabled by install-perf.sh (make deps) first.
	pkgs=(clang compiler-rt llvm protobuf-compiler elfutils cppcheck strace vim-common
	      libtraceevent-devel glibc-static nodejs:node npm:npm chromium:chromium)
	rpm_install dnf "${pkgs[@]}"
	cannot "cmark-gfm wabt qemu-user-static binutils-aarch64-linux-gnu gcc-aarch64-linux-gnu" \
	       "not known to be packaged for RHEL 9 with CRB and EPEL"
	;;
*)
	die 2 "unsupported distribution ID='$OS_ID' (from $PKG_OS_RELEASE): install clang" \
	      "(libFuzzer), protoc, cmark-gfm, wabt, chromium, node, npm, cppcheck, xxd, llvm," \
	      "elfutils, libtraceevent, qemu-user-static, binutils and gcc for aarch64 by hand"
	;;
esac
note "done"
