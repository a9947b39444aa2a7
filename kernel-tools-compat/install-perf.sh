#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# install-perf.sh: install perf (the one built for the running kernel) and
# what building and running aotperf need (`make deps`), chosen from
# os-release. Idempotent: what is installed is skipped. The tests' extra
# tools are scripts/test-deps.sh's job. Every package name, and the spec or
# package list it comes from: docs/platforms.md (tests/e2e/platforms.sh
# checks the two agree).
#
#   Azure Linux 3  tdnf: <owner>-tools-<uname -r>, where <owner> is the
#                  package that owns the running kernel (kernel, kernel-hwe,
#                  kernel-64k); azurelinux-repos-extended before
#                  capstone-devel; libperf built from the running kernel's
#                  source tarball (its spec's Source0)
#   Debian         apt-get: linux-perf, linux-source-<series>; libperf built
#                  from that tarball
#   Ubuntu         apt-get: linux-tools-common + linux-tools-<uname -r>,
#                  linux-source-<version>; libperf built from that tarball
#   Fedora         dnf: perf, libperf-devel
#   RHEL-like      dnf: as Fedora, after enabling CRB and EPEL
set -euo pipefail

PKG_PROG=install-perf
dry=0 perf_only=0
usage() {
	cat <<EOF
usage: kernel-tools-compat/install-perf.sh [--dry-run] [--perf-only]

Install perf and what building and running aotperf need (make deps) for
this distribution: Azure Linux 3 (tdnf), Debian and Ubuntu (apt-get),
Fedora and RHEL-like (dnf). What is installed is skipped; sudo is used
when not root; an apt lock another process holds is waited for.

  -n, --dry-run    print every package-manager command it would run (and
                   the libperf download and build), change nothing; queries
                   of installed packages still run
      --perf-only  perf only: no compilers, libraries or libperf
  -h, --help       this text

Environment (the facts it decides on; a dry run for another machine):
  AOTPERF_OS_RELEASE  os-release file to read (default /etc/os-release)
  AOTPERF_UNAME_R     the running kernel's release (default: uname -r)
  AOTPERF_UNAME_M     the machine (default: uname -m)
  AOTPERF_KERNEL_PKG  Azure Linux: the package that owns the running kernel
                      (kernel, kernel-hwe, kernel-64k). Default: rpm -qf of
                      /boot/vmlinuz-<uname -r>; when any AOTPERF_* fact above
                      is set, this machine is not asked and uname -r decides:
                      6.6.* is kernel, another series kernel-hwe. On arm64,
                      kernel-64k's uname -r looks like kernel's: say so here.
  AOTPERF_APT_LOCK_WAIT  seconds to wait for the apt lock (default 900)
  DEBIAN_KERNEL_SERIES   Debian: which linux-source-X (default: from
                         linux-perf's version, else the release)
  LIBPERF_DIR         as in the Makefile (default .deps/libperf/usr): a
                      libperf already there is kept

Exit status: 0 ok, 1 a command failed, 2 bad usage or unknown distribution.
Package names and where each comes from: docs/platforms.md.
EOF
}

while [ $# -gt 0 ]; do
	case $1 in
	-n|--dry-run) dry=1 ;;
	--perf-only) perf_only=1 ;;
	-h|--help) usage; exit 0 ;;
	*) echo "$PKG_PROG: unknown option '$1'; see --help" >&2; exit 2 ;;
	esac
	shift
done
PKG_DRY=$dry
# shellcheck source-path=SCRIPTDIR source=pkg.sh
source "$(dirname "${BASH_SOURCE[0]}")/pkg.sh"
root=$PKG_ROOT
LIBPERF_DIR=${LIBPERF_DIR:-$root/.deps/libperf/usr}
# build-libperf.sh installs under DESTDIR/usr: where the Makefile will look.
export LIBPERF_DEST=${LIBPERF_DIR%/usr}
BUILD_LIBPERF=${AOTPERF_BUILD_LIBPERF:-$root/scripts/build-libperf.sh}

# libperf_from_tarball TARBALL TOPDIR: build libperf unless it is there.
libperf_from_tarball() {
	if pkg_libperf_built "$LIBPERF_DIR"; then
		note "already built: libperf in $LIBPERF_DIR"
		return 0
	fi
	run bash "$BUILD_LIBPERF" "$1" "$2"
}

# ---- Azure Linux 3 -----------------------------------------------------------

# uname -r is <version>-<release> of the kernel package (kernel.spec's
# uname_r); a trailing .<arch> is not part of it.
azl_kernel_vr() { printf '%s\n' "${PKG_UNAME_R%".$PKG_UNAME_M"}"; }

# The package that owns the running kernel, or "" when none does.
azl_kernel_pkg() {
	local f name
	if [ -n "${AOTPERF_KERNEL_PKG:-}" ]; then
		printf '%s\n' "$AOTPERF_KERNEL_PKG"
		return 0
	fi
	if [ "$PKG_FOREIGN" = 1 ]; then
		case $PKG_UNAME_R in
		6.6.*) echo kernel ;;
		*) echo kernel-hwe ;;
		esac
		return 0
	fi
	for f in "/boot/vmlinuz-$PKG_UNAME_R" "/lib/modules/$PKG_UNAME_R"; do
		if name=$(rpm -qf --qf '%{NAME}\n' "$f" 2>/dev/null) && name=${name%%$'\n'*} &&
		   [ -n "$name" ] && [[ $name != *"not owned"* ]]; then
			printf '%s\n' "$name"
			return 0
		fi
	done
}

# The kernel's sources, from its spec's Source0 (SPECS/kernel/kernel.spec,
# SPECS/kernel-64k/kernel-64k.spec: rolling-lts/mariner-3; SPECS/kernel-hwe:
# rolling-lts/azl3-hwe). The source RPM in the (disabled) source repository
# holds the same tarball.
azl_libperf() {
	local owner=$1 ver branch url tarball
	ver=$(azl_kernel_vr)
	ver=${ver%%-*}
	case $owner in
	kernel|kernel-64k) branch=mariner-3 ;;
	kernel-hwe) branch=azl3-hwe ;;
	*)
		note "libperf: no source tarball known for a kernel from '${owner:-no package}':" \
		     "run scripts/build-libperf.sh on a kernel source tarball"
		return 0
		;;
	esac
	if pkg_libperf_built "$LIBPERF_DIR"; then
		note "already built: libperf in $LIBPERF_DIR"
		return 0
	fi
	url=https://github.com/microsoft/CBL-Mariner-Linux-Kernel/archive/rolling-lts/$branch/$ver.tar.gz
	tarball=$root/.deps/src/$owner-$ver.tar.gz
	run mkdir -p "$root/.deps/src"
	run curl -fL --retry 3 -o "$tarball" "$url"
	run bash "$BUILD_LIBPERF" "$tarball" "CBL-Mariner-Linux-Kernel-rolling-lts-$branch-$ver"
	run rm -f "$tarball"
}

install_azurelinux() {
	local owner vr tools
	vr=$(azl_kernel_vr)
	owner=$(azl_kernel_pkg)
	case $owner in
	kernel|kernel-hwe|kernel-64k)
		# <owner>-tools requires <owner> = V-R: the exact V-R installs no
		# other kernel; the bare name would pull the newest one in.
		tools=$owner-tools-$vr
		if rpm_installed "$tools"; then
			note "already installed: $tools"
		elif ! run "${SUDO[@]}" tdnf install -y "$tools"; then
			warn "$tools (perf for the running kernel) did not install; not" \
			     "falling back to $owner-tools, which would install a newer $owner:" \
			     "update the kernel (tdnf update $owner), reboot, run this again"
		fi
		;;
	*)
		warn "the running kernel $PKG_UNAME_R belongs to ${owner:-no package}" \
		     "(rpm -qf /boot/vmlinuz-$PKG_UNAME_R): no perf package is built for it;" \
		     "perf not installed (set AOTPERF_KERNEL_PKG to name the kernel package)"
		;;
	esac
	[ "$perf_only" = 1 ] && return 0
	# capstone-devel is in the extended repository only
	# (SPECS-EXTENDED/capstone); its repo file comes first.
	rpm_installed capstone-devel || rpm_install tdnf azurelinux-repos-extended
	rpm_install tdnf gcc make binutils gawk jq glibc-devel kernel-headers pkgconf \
		elfutils-libelf-devel elfutils-devel zstd-devel protobuf-c protobuf-c-devel zlib-devel libtraceevent-devel \
		capstone-devel tar gzip curl
	# azl3 packages no libperf headers (kernel-headers is UAPI only).
	azl_libperf "$owner"
}

# ---- Debian, Ubuntu ----------------------------------------------------------

# What Debian and Ubuntu build and run aotperf with (perf aside).
DEB_BUILD=(build-essential pkg-config libcapstone-dev libelf-dev libdw-dev libzstd-dev zstd
	   libprotobuf-c-dev protobuf-c-compiler zlib1g-dev libtraceevent-dev binutils gawk jq xz-utils)

# Debian's kernel series (its linux-perf and linux-source-X): from the
# installed linux-perf's version, else from the release.
debian_series() {
	local v
	if [ -n "${DEBIAN_KERNEL_SERIES:-}" ]; then
		printf '%s\n' "$DEBIAN_KERNEL_SERIES"
		return 0
	fi
	if [ "$PKG_FOREIGN" = 0 ]; then
		v=$(dpkg-query -W -f='${Version}' linux-perf 2>/dev/null || true)
		if [[ $v =~ ^([0-9]+\.[0-9]+)\. ]]; then
			printf '%s\n' "${BASH_REMATCH[1]}"
			return 0
		fi
	fi
	case $OS_VERSION in
	11) echo 5.10 ;;
	12) echo 6.1 ;;
	13) echo 6.12 ;;
	*) echo "" ;;
	esac
}

install_debian() {
	local series
	apt_install linux-perf
	[ "$perf_only" = 1 ] && return 0
	series=$(debian_series)
	if [ -z "$series" ]; then
		apt_install "${DEB_BUILD[@]}"
		warn "unknown Debian release '$OS_VERSION': set DEBIAN_KERNEL_SERIES to choose" \
		     "linux-source-X, from which libperf is built"
		return 0
	fi
	apt_install "${DEB_BUILD[@]}" "linux-source-$series"
	# libperf has no Debian package: built from linux-source's tarball.
	libperf_from_tarball "/usr/src/linux-source-$series.tar.xz" "linux-source-$series"
}

install_ubuntu() {
	local tools kv
	tools=linux-tools-$PKG_UNAME_R
	if [ "$PKG_FOREIGN" = 0 ] && ! deb_installed "$tools"; then
		apt_update
		if ! apt-cache show "$tools" >/dev/null 2>&1; then
			warn "$tools (the running kernel) is not in the apt lists;" \
			     "falling back to linux-tools-generic: /usr/bin/perf will refuse a" \
			     "kernel it has no tools for, so run /usr/lib/linux-tools/*/perf directly"
			tools=linux-tools-generic
		fi
	fi
	apt_install linux-tools-common "$tools"
	[ "$perf_only" = 1 ] && return 0
	# Ubuntu's linux-source-<version> ships
	# /usr/src/linux-source-<version>/linux-source-<version>.tar.bz2.
	kv=${PKG_UNAME_R%%-*}
	apt_install "${DEB_BUILD[@]}" bzip2 "linux-source-$kv"
	libperf_from_tarball "/usr/src/linux-source-$kv/linux-source-$kv.tar.bz2" "linux-source-$kv"
}

# ---- Fedora, RHEL-like -------------------------------------------------------

RPM_BUILD=(gcc make binutils gawk jq glibc-devel pkgconf-pkg-config elfutils-libelf-devel
	   elfutils-devel libzstd-devel protobuf-c-devel protobuf-c-compiler zlib-devel libtraceevent-devel
	   capstone-devel libperf-devel)

install_fedora() {
	rpm_install dnf perf
	[ "$perf_only" = 1 ] && return 0
	rpm_install dnf "${RPM_BUILD[@]}"
	note "libperf from libperf-devel (/usr/include/perf): make finds it as is"
}

# RHEL 9 and its rebuilds: libperf-devel and protobuf-c-compiler are in
# CRB, capstone-devel in EPEL; dnf stops on the first name it cannot find.
install_rhel() {
	local repos
	rpm_install dnf perf
	[ "$perf_only" = 1 ] && return 0
	case $OS_ID in
	rhel|ol)
		note "enable CodeReady Builder and EPEL first (subscription-manager repos" \
		     "--enable codeready-builder-for-rhel-9-$PKG_UNAME_M-rpms; the epel-release" \
		     "package): not done here"
		;;
	*)
		rpm_install dnf dnf-plugins-core epel-release
		# (no "| grep -q": under pipefail an early grep exit fails the pipe)
		repos=$([ "$PKG_FOREIGN" = 1 ] || dnf -q repolist --enabled 2>/dev/null || true)
		if ! grep -q '^crb' <<<"$repos"; then
			run "${SUDO[@]}" dnf config-manager --set-enabled crb
		fi
		;;
	esac
	rpm_install dnf "${RPM_BUILD[@]}"
	note "libperf from libperf-devel (/usr/include/perf): make finds it as is"
}

pkg_init
[ -n "$DISTRO" ] || die 2 "unsupported distribution ID='$OS_ID' ID_LIKE='$OS_LIKE' (from $PKG_OS_RELEASE):" \
	"supported are azurelinux, debian, ubuntu, fedora, rhel and ID_LIKE ubuntu/fedora/rhel;" \
	"install perf, capstone, libelf, libdw, libzstd, protobuf-c, zlib, jq and libperf's headers by hand"

note "$DISTRO (ID=$OS_ID${OS_VERSION:+ VERSION_ID=$OS_VERSION}), kernel $PKG_UNAME_R $PKG_UNAME_M$([ "$dry" = 1 ] && echo ', dry run')"
"install_$DISTRO"
note "done"
