#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# install-perf.sh: install perf (keyed to the running kernel where the
# distribution packages it that way) and what aotperf builds with, chosen
# from /etc/os-release. Idempotent: packages already installed are skipped.
#
#   Azure Linux 3   tdnf: kernel-tools-<uname -r>, else kernel-tools (warning)
#   Debian          apt-get: linux-perf, linux-source-<series>; then
#                   scripts/deps.sh builds libperf into .deps/libperf
#   Ubuntu          apt-get: linux-tools-common + linux-tools-<uname -r>,
#                   else linux-tools-generic (warning)
#   Fedora/RHEL     dnf: perf libperf-devel ...
#
# Environment: OS_RELEASE (default /etc/os-release), DEBIAN_KERNEL_SERIES
# (e.g. 6.1: which linux-source-X to install), AOTPERF_DEPS_SH (default
# scripts/deps.sh next to this folder), LIBPERF_DIR (as in the Makefile,
# default .deps/libperf/usr: a libperf already built there is kept).
set -euo pipefail

prog=install-perf
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OS_RELEASE=${OS_RELEASE:-/etc/os-release}
DEPS_SH=${AOTPERF_DEPS_SH:-$root/scripts/deps.sh}
LIBPERF_DIR=${LIBPERF_DIR:-$root/.deps/libperf/usr}

usage() {
	cat <<EOF
usage: kernel-tools-compat/install-perf.sh [--dry-run] [--perf-only]

Install perf and aotperf's build dependencies for this distribution
(read from \$OS_RELEASE, default /etc/os-release): Azure Linux 3 (tdnf),
Debian and Ubuntu (apt-get), Fedora/RHEL and relatives (dnf).
Packages already installed are skipped; sudo is used when not root.

  -n, --dry-run    print the commands that would change the system, run nothing
                   that does (package queries still run)
      --perf-only  perf only: no compilers, libraries or libperf
  -h, --help       this text

Exit status: 0 ok, 1 a command failed, 2 bad usage or unknown distribution.
EOF
}

dry=0 perf_only=0
while [ $# -gt 0 ]; do
	case $1 in
	-n|--dry-run) dry=1 ;;
	--perf-only) perf_only=1 ;;
	-h|--help) usage; exit 0 ;;
	*) echo "$prog: unknown option '$1'; see --help" >&2; exit 2 ;;
	esac
	shift
done

note() { echo "$prog: $*" >&2; }
warn() { echo "$prog: warning: $*" >&2; }
die() { local rc=$1; shift; echo "$prog: $*" >&2; exit "$rc"; }

# A word as the shell would need it typed: bare when safe, else %q-quoted.
shell_word() {
	if [[ $1 =~ ^[A-Za-z0-9_./:=+,@%-]+$ ]]; then
		printf '%s' "$1"
	else
		printf '%q' "$1"
	fi
}

# run CMD...: run it, or with --dry-run print it on stdout, exactly.
run() {
	local line="" w
	for w in "$@"; do line+="${line:+ }$(shell_word "$w")"; done
	if [ "$dry" = 1 ]; then
		printf '%s\n' "$line"
	else
		note "+ $line"
		"$@"
	fi
}

# os_field KEY: the value of KEY in os-release, unquoted ("" if absent).
os_field() {
	local line val
	while IFS= read -r line || [ -n "$line" ]; do
		case $line in
		"$1="*)
			val=${line#*=}
			case $val in
			\"*\") val=${val#\"}; val=${val%\"} ;;
			\'*\') val=${val#\'}; val=${val%\'} ;;
			esac
			printf '%s\n' "$val"
			return 0
			;;
		esac
	done <"$OS_RELEASE"
}

[ -r "$OS_RELEASE" ] || die 2 "cannot read $OS_RELEASE (set OS_RELEASE=PATH)"
os_id=$(os_field ID)
os_like=$(os_field ID_LIKE)
os_version=$(os_field VERSION_ID)

SUDO=()
if [ "$(id -u)" != 0 ]; then
	if [ "$dry" = 1 ] || command -v sudo >/dev/null 2>&1; then
		SUDO=(sudo)
	else
		die 1 "not root and no sudo: run this as root"
	fi
fi

deb_installed() {
	dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

# An exact name-version-release, a name, or a capability (libzstd-devel is
# a Provides of zstd-devel on Azure Linux).
rpm_installed() {
	rpm -q "$1" >/dev/null 2>&1 || rpm -q --whatprovides "$1" >/dev/null 2>&1
}

apt_updated=0
apt_update() {
	[ "$apt_updated" = 1 ] && return 0
	apt_updated=1
	run "${SUDO[@]}" apt-get update -qq
}

# apt_install PKG...: install those not installed yet.
apt_install() {
	local p missing=()
	for p in "$@"; do deb_installed "$p" || missing+=("$p"); done
	if [ ${#missing[@]} -eq 0 ]; then
		note "already installed: $*"
		return 0
	fi
	apt_update
	run "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends "${missing[@]}"
}

# rpm_install TOOL PKG...: install with tdnf or dnf those not installed yet.
rpm_install() {
	local tool=$1 p missing=()
	shift
	for p in "$@"; do rpm_installed "$p" || missing+=("$p"); done
	if [ ${#missing[@]} -eq 0 ]; then
		note "already installed: $*"
		return 0
	fi
	run "${SUDO[@]}" "$tool" install -y "${missing[@]}"
}

# The running kernel's version as a package version: uname -r without a
# trailing ".<arch>" (Fedora style) or "+<flavour>" suffix.
kernel_pkg_version() {
	local r m
	r=$(uname -r)
	m=$(uname -m)
	r=${r%".$m"}
	printf '%s\n' "${r%%+*}"
}

install_azurelinux() {
	local kver tools
	kver=$(kernel_pkg_version)
	if rpm_installed "kernel-tools-$kver"; then
		tools=kernel-tools-$kver
	elif tdnf -q repoquery --available "kernel-tools-$kver" 2>/dev/null |
		grep -qF "kernel-tools-$kver"; then
		tools=kernel-tools-$kver
	else
		warn "kernel-tools-$kver (the running kernel) is not in the enabled" \
		     "repositories; falling back to kernel-tools, whose perf may not match" \
		     "the kernel (usually still records; check with 'aotperf doctor')"
		tools=kernel-tools
	fi
	rpm_install tdnf "$tools"
	[ "$perf_only" = 1 ] && return 0
	rpm_install tdnf gcc make binutils gawk jq capstone-devel elfutils-libelf-devel elfutils-devel \
		libzstd-devel kernel-headers
	if rpm_installed libperf-devel; then
		note "already installed: libperf-devel (build with: make LIBPERF_DIR=/usr)"
	elif tdnf -q repoquery --available libperf-devel 2>/dev/null | grep -qF libperf-devel; then
		rpm_install tdnf libperf-devel
		note "libperf from libperf-devel: build with make LIBPERF_DIR=/usr"
	else
		note "tdnf has no libperf-devel: libperf's headers come from the kernel" \
		     "source (tools/lib/perf): in a kernel tree matching $kver run" \
		     "make -C tools/lib/perf install_headers install_lib DESTDIR=$root/.deps/libperf prefix=/usr"
	fi
}

# Debian's kernel series (its linux-perf and linux-source-X): from the
# installed linux-perf's version, else from the release.
debian_series() {
	local v
	if [ -n "${DEBIAN_KERNEL_SERIES:-}" ]; then
		printf '%s\n' "$DEBIAN_KERNEL_SERIES"
		return 0
	fi
	v=$(dpkg-query -W -f='${Version}' linux-perf 2>/dev/null || true)
	if [[ $v =~ ^([0-9]+\.[0-9]+)\. ]]; then
		printf '%s\n' "${BASH_REMATCH[1]}"
		return 0
	fi
	case $os_version in
	11) echo 5.10 ;;
	12) echo 6.1 ;;
	13) echo 6.12 ;;
	*) echo "" ;;
	esac
}

install_debian() {
	local series src
	apt_install linux-perf
	[ "$perf_only" = 1 ] && return 0
	series=$(debian_series)
	if [ -n "$series" ]; then
		src=linux-source-$series
	else
		warn "unknown Debian release '$os_version': installing linux-source" \
		     "(set DEBIAN_KERNEL_SERIES to choose linux-source-X)"
		src=linux-source
	fi
	apt_install build-essential pkg-config libcapstone-dev libelf-dev libdw-dev libzstd-dev zstd libtraceevent-dev \
		binutils binutils-aarch64-linux-gnu gawk jq "$src"
	# libperf has no Debian package: scripts/deps.sh builds it from the
	# linux-source tarball (it re-checks its own package list, all present now).
	if [ -f "$LIBPERF_DIR/include/perf/event.h" ]; then
		note "already built: libperf in $LIBPERF_DIR"
	elif [ "$series" = 6.1 ] && [ -f "$DEPS_SH" ]; then
		run bash "$DEPS_SH"
	else
		note "build libperf from /usr/src/$src.tar.*: extract tools/ include/uapi" \
		     "scripts/ and run make -C tools/lib/perf install_headers install_lib" \
		     "DESTDIR=$root/.deps/libperf prefix=/usr (scripts/deps.sh does this for 6.1)"
	fi
}

install_ubuntu() {
	local kver tools
	kver=$(uname -r)
	if deb_installed "linux-tools-$kver"; then
		tools=linux-tools-$kver
	else
		apt_update
		if apt-cache show "linux-tools-$kver" >/dev/null 2>&1; then
			tools=linux-tools-$kver
		else
			warn "linux-tools-$kver (the running kernel) is not in the apt lists;" \
			     "falling back to linux-tools-generic: /usr/bin/perf will refuse a" \
			     "kernel it has no tools for, so run /usr/lib/linux-tools/*/perf directly"
			tools=linux-tools-generic
		fi
	fi
	apt_install linux-tools-common "$tools"
	[ "$perf_only" = 1 ] && return 0
	apt_install build-essential pkg-config libcapstone-dev libelf-dev libdw-dev libzstd-dev zstd libtraceevent-dev \
		binutils binutils-aarch64-linux-gnu gawk jq
	note "Ubuntu has no libperf package: build it from a kernel tree's tools/lib/perf" \
	     "(make -C tools/lib/perf install_headers install_lib DESTDIR=$root/.deps/libperf prefix=/usr)"
}

install_fedora() {
	rpm_install dnf perf
	[ "$perf_only" = 1 ] && return 0
	rpm_install dnf libperf-devel capstone-devel elfutils-libelf-devel elfutils-devel libzstd-devel jq \
		gcc make binutils gawk
	note "libperf from libperf-devel: build with make LIBPERF_DIR=/usr"
}

distro=""
case $os_id in
azurelinux) distro=azurelinux ;;
debian) distro=debian ;;
ubuntu) distro=ubuntu ;;
fedora|rhel|centos|rocky|almalinux) distro=fedora ;;
*)
	case " $os_like " in
	*" ubuntu "*) distro=ubuntu ;;
	*" fedora "*|*" rhel "*) distro=fedora ;;
	esac
	;;
esac
[ -n "$distro" ] || die 2 "unsupported distribution ID='$os_id' ID_LIKE='$os_like' (from $OS_RELEASE):" \
	"supported are azurelinux, debian, ubuntu, fedora/rhel and ID_LIKE fedora/rhel;" \
	"install perf, capstone, libelf, libdw, libzstd, jq and libperf's headers by hand"

note "$distro (ID=$os_id${os_version:+ VERSION_ID=$os_version}), kernel $(uname -r)$([ "$dry" = 1 ] && echo ', dry run')"
"install_$distro"
note "done"
