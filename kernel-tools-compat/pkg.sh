# SPDX-License-Identifier: MIT
# shellcheck shell=bash disable=SC2034 # its variables are for the scripts that source it
#
# pkg.sh: what install-perf.sh and scripts/test-deps.sh share, sourced by
# both: the facts they decide on (os-release, uname -r, uname -m, each with
# an AOTPERF_* override), the distribution family, and package installs that
# skip what is installed, print instead of running under --dry-run, use sudo
# when not root, and wait for an apt lock another process holds.
#
# The caller sets PKG_PROG (message prefix) and PKG_DRY (1: dry run) first.

PKG_PROG=${PKG_PROG:-pkg}
PKG_DRY=${PKG_DRY:-0}
PKG_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# OS_RELEASE is the older name of AOTPERF_OS_RELEASE, still honoured.
PKG_OS_RELEASE=${AOTPERF_OS_RELEASE:-${OS_RELEASE:-/etc/os-release}}
PKG_UNAME_R=${AOTPERF_UNAME_R:-$(uname -r)}
PKG_UNAME_M=${AOTPERF_UNAME_M:-$(uname -m)}
# Another machine's facts: this machine's kernel owner, installed packages,
# package lists and libperf build say nothing about it, so they are not asked.
PKG_FOREIGN=0
if [ -n "${AOTPERF_OS_RELEASE:-}${AOTPERF_UNAME_R:-}${AOTPERF_UNAME_M:-}" ]; then
	PKG_FOREIGN=1
fi
# Seconds to wait for an apt lock another process holds.
PKG_APT_LOCK_WAIT=${AOTPERF_APT_LOCK_WAIT:-900}

note() { echo "$PKG_PROG: $*" >&2; }
warn() { echo "$PKG_PROG: warning: $*" >&2; }
die() { local rc=$1; shift; echo "$PKG_PROG: $*" >&2; exit "$rc"; }

# A word as the shell would need it typed: bare when safe, else %q-quoted.
shell_word() {
	if [[ $1 =~ ^[A-Za-z0-9_./:=+,@%-]+$ ]]; then
		printf '%s' "$1"
	else
		printf '%q' "$1"
	fi
}

# run CMD...: run it, or under --dry-run print it on stdout, exactly.
run() {
	local line="" w
	for w in "$@"; do line+="${line:+ }$(shell_word "$w")"; done
	if [ "$PKG_DRY" = 1 ]; then
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
	done <"$PKG_OS_RELEASE"
}

# pkg_libperf_built DIR: DIR (a LIBPERF_DIR) holds libperf's headers.
pkg_libperf_built() { [ "$PKG_FOREIGN" = 0 ] && [ -f "$1/include/perf/event.h" ]; }

# pkg_init: read os-release into OS_ID, OS_LIKE, OS_VERSION and the family
# into DISTRO (azurelinux, debian, ubuntu, fedora, rhel; "" if unknown);
# set SUDO.
pkg_init() {
	[ -r "$PKG_OS_RELEASE" ] ||
		die 2 "cannot read $PKG_OS_RELEASE (set AOTPERF_OS_RELEASE=PATH)"
	OS_ID=$(os_field ID)
	OS_LIKE=$(os_field ID_LIKE)
	OS_VERSION=$(os_field VERSION_ID)
	DISTRO=""
	case $OS_ID in
	azurelinux) DISTRO=azurelinux ;;
	debian) DISTRO=debian ;;
	ubuntu) DISTRO=ubuntu ;;
	fedora) DISTRO=fedora ;;
	rhel|centos|rocky|almalinux|ol) DISTRO=rhel ;;
	*)
		case " $OS_LIKE " in
		*" ubuntu "*) DISTRO=ubuntu ;;
		*" rhel "*|*" centos "*) DISTRO=rhel ;;
		*" fedora "*) DISTRO=fedora ;;
		esac
		;;
	esac
	SUDO=()
	if [ "$(id -u)" != 0 ]; then
		if [ "$PKG_DRY" = 1 ] || command -v sudo >/dev/null 2>&1; then
			SUDO=(sudo)
		else
			die 1 "not root and no sudo: run this as root"
		fi
	fi
}

# ---- installed? ----------------------------------------------------------
# For another machine's facts nothing counts as installed: this machine's
# package database says nothing about it.

deb_installed() {
	[ "$PKG_FOREIGN" = 0 ] || return 1
	# one status per architecture installed (multiarch): any will do
	case $(dpkg-query -W -f='${Status}\n' "$1" 2>/dev/null) in
	*"install ok installed"*) return 0 ;;
	esac
	return 1
}

# A name, a name-version-release, or a capability (Provides).
rpm_installed() {
	[ "$PKG_FOREIGN" = 0 ] || return 1
	rpm -q "$1" >/dev/null 2>&1 || rpm -q --whatprovides "$1" >/dev/null 2>&1
}

# A list entry is PKG or PKG:COMMAND; with a command, a COMMAND already on
# PATH counts as installed (Node.js from another source than the
# distribution's, whose npm package would conflict with it).
entry_names() { local e out=(); for e in "$@"; do out+=("${e%%:*}"); done; echo "${out[*]}"; }
entry_satisfied() { # entry_satisfied ENTRY CHECKFN
	local p=${1%%:*} c=""
	[ "$p" != "$1" ] && c=${1#*:}
	if [ -n "$c" ] && [ "$PKG_FOREIGN" = 0 ] && command -v "$c" >/dev/null 2>&1; then return 0; fi
	"$2" "$p"
}

# ---- apt ---------------------------------------------------------------------

# lock_holder FILE: the PID holding a POSIX lock on FILE (from /proc/locks:
# dpkg and apt take fcntl locks), or nothing.
lock_holder() {
	local ino
	ino=$(stat -c %i "$1" 2>/dev/null) || return 0
	[ -r /proc/locks ] || return 0
	awk -v ino="$ino" '$0 !~ /->/ {
		for (i = 2; i <= NF; i++)
			if ($i ~ ("^[0-9a-f]+:[0-9a-f]+:" ino "$")) { print $(i - 1); exit }
	}' /proc/locks
}

# apt_wait_lock: while another process holds apt's or dpkg's lock, say so
# once and wait (apt-get's own DPkg::Lock::Timeout covers the rest).
apt_wait_lock() {
	local f pid waited=0 said=""
	[ "$PKG_DRY" = 1 ] && return 0
	# AOTPERF_APT_LOCKS: other lock files (the tests hold one of their own)
	for f in ${AOTPERF_APT_LOCKS:-/var/lib/dpkg/lock-frontend /var/lib/dpkg/lock /var/lib/apt/lists/lock}; do
		while pid=$(lock_holder "$f") && [ -n "$pid" ] && [ "$pid" != $$ ]; do
			if [ "$said" != "$pid" ]; then
				note "waiting for the apt lock held by PID $pid" \
				     "($(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | cut -c1-60)) on $f"
				said=$pid
			fi
			[ "$waited" -ge "$PKG_APT_LOCK_WAIT" ] &&
				die 1 "the apt lock is still held by PID $pid after ${PKG_APT_LOCK_WAIT}s"
			sleep 2
			waited=$((waited + 2))
		done
	done
}

APT_OPTS=(-o "DPkg::Lock::Timeout=$PKG_APT_LOCK_WAIT")
apt_updated=0
apt_update() {
	[ "$apt_updated" = 1 ] && return 0
	apt_updated=1
	apt_wait_lock
	run "${SUDO[@]}" apt-get "${APT_OPTS[@]}" update -qq
}

# apt_install ENTRY...: install those not installed yet.
apt_install() {
	local e missing=()
	for e in "$@"; do entry_satisfied "$e" deb_installed || missing+=("${e%%:*}"); done
	if [ ${#missing[@]} -eq 0 ]; then
		note "already installed: $(entry_names "$@")"
		return 0
	fi
	apt_update
	apt_wait_lock
	run "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "${APT_OPTS[@]}" install -y -q \
		--no-install-recommends "${missing[@]}"
}

# ---- tdnf / dnf ----------------------------------------------------------

# rpm_install TOOL ENTRY...: install with tdnf or dnf those not installed yet.
# tdnf and dnf stop the whole transaction on one unknown name: callers keep
# names that may be missing out of a shared transaction.
rpm_install() {
	local tool=$1 e missing=()
	shift
	for e in "$@"; do entry_satisfied "$e" rpm_installed || missing+=("${e%%:*}"); done
	if [ ${#missing[@]} -eq 0 ]; then
		note "already installed: $(entry_names "$@")"
		return 0
	fi
	run "${SUDO[@]}" "$tool" install -y "${missing[@]}"
}
