#!/usr/bin/env bash
# kernel-tools-compat/install-perf.sh and scripts/test-deps.sh: the
# distribution logic against fake os-release files and stub package
# managers (they log their arguments and answer queries from STUB_INSTALLED,
# STUB_AVAILABLE, STUB_KERNEL_OWNER), an apt lock really held by another
# process, then for real on this machine (Debian): --dry-run, and a real run
# that must change nothing. The package names per platform are
# tests/e2e/platforms.sh's (against docs/platforms.md).
# shellcheck disable=SC2016 # single-quoted bodies expand where they run
# shellcheck source-path=SCRIPTDIR source=lib/common.sh
source "$(dirname "$0")/lib/common.sh"
ROOT=$(cd "$E2E/../.." && pwd)
INSTALL=$ROOT/kernel-tools-compat/install-perf.sh
TESTDEPS=$ROOT/scripts/test-deps.sh
OSR=$ROOT/tests/kernel-tools-compat
STUBS=$WORK/stubs
LOG=$WORK/stub.log
mkdir -p "$STUBS"

# ---- stubs ---------------------------------------------------------------
stub() { # stub NAME BODY: a script that logs "NAME ARGS" then runs BODY
	{
		echo '#!/usr/bin/env bash'
		echo 'echo "$(basename "$0") $*" >>"$STUB_LOG"'
		echo 'has() { case " $1 " in *" $2 "*) return 0;; esac; return 1; }'
		printf '%s\n' "$2"
	} >"$STUBS/$1"
	chmod +x "$STUBS/$1"
}
{
stub uname 'case $1 in -r) echo "$STUB_UNAME_R";; -m) echo "${STUB_UNAME_M:-x86_64}";; *) echo Linux;; esac'
stub id 'case $1 in -u) echo "${STUB_UID:-0}";; *) echo "uid=${STUB_UID:-0}";; esac'
stub sudo 'exec "$@"'
stub dpkg-query '# -W -f=FMT PKG
fmt=$2 pkg=$3
has "$STUB_INSTALLED" "$pkg" || { echo "dpkg-query: no packages found matching $pkg" >&2; exit 1; }
case $fmt in *Status*) printf "install ok installed";; *Version*) printf "%s" "${STUB_PERF_VERSION:-6.1.192-3}";; esac'
stub apt-get 'exit 0'
stub apt-cache '# show PKG
has "$STUB_AVAILABLE" "$2" && { echo "Package: $2"; exit 0; }
echo "E: No packages found" >&2; exit 100'
stub rpm '# -q [--whatprovides] PKG | -qf --qf FMT FILE
if [ "$1" = -qf ]; then
	[ -n "${STUB_KERNEL_OWNER:-}" ] && { echo "$STUB_KERNEL_OWNER"; exit 0; }
	echo "file ${!#} is not owned by any package"; exit 1
fi
pkg=${!#}; has "$STUB_INSTALLED" "$pkg" && exit 0
echo "package $pkg is not installed"; exit 1'
stub tdnf '# install -y PKG...: fails (as tdnf does) when one is not available
if [ "$1" = install ]; then
	for p in "${@:3}"; do has "${STUB_UNAVAILABLE:-}" "$p" && { echo "Error(1011) : No matching packages" >&2; exit 1; }; done
fi
exit 0'
stub dnf '# -q repolist --enabled | install | config-manager
[ "$2" = repolist ] && { printf "%s\n" ${STUB_REPOS:-}; exit 0; }
exit 0'
stub curl 'exit 0'
stub build-libperf.sh 'exit 0'
stub cross-deps.sh 'exit 0'
}
export STUB_LOG=$LOG

# inst OSNAME [args...]: run the installer with the stubs first on PATH;
# sets rc, out (stdout), log (the stubs' log); stderr is in $WORK/err.
# OS_RELEASE (not AOTPERF_OS_RELEASE) keeps the run "this machine's": the
# stubs answer its queries.
inst() { run_script "$INSTALL" "$@"; }
tdeps() { run_script "$TESTDEPS" "$@"; }
run_script() {
	local script=$1 os=$2; shift 2
	: >"$LOG"
	PATH=$STUBS:$PATH OS_RELEASE=$OSR/os-release.$os AOTPERF_BUILD_LIBPERF=$STUBS/build-libperf.sh \
		AOTPERF_CROSS_DEPS=$STUBS/cross-deps.sh \
		LIBPERF_DIR=$WORK/no-libperf bash "$script" "$@" >"$WORK/out" 2>"$WORK/err"
	rc=$?
	out=$(cat "$WORK/out"); log=$(cat "$LOG")
}
# the commands that change the system, as the stubs saw them (queries left out)
installs() { grep -E ' (install|update|config-manager)( |$)|^(build-libperf\.sh|curl) ' "$LOG" || true; }
has_line() { grep -qxF -- "$2" <<<"$1"; } # has_line TEXT LINE
no_installs() { [ -z "$(installs)" ]; }
libperf_built() { mkdir -p "$WORK/no-libperf/include/perf" && : >"$WORK/no-libperf/include/perf/event.h"; }
libperf_gone() { rm -rf "$WORK/no-libperf"; }

AZ_K=6.6.64.2-7.azl3
AZ_DEPS="gcc make binutils gawk jq glibc-devel kernel-headers pkgconf elfutils-libelf-devel elfutils-devel zstd-devel protobuf-c protobuf-c-devel zlib-devel libtraceevent-devel capstone-devel tar gzip curl"
AZ_SRC=$ROOT/.deps/src/kernel-6.6.64.2.tar.gz
AZ_URL=https://github.com/microsoft/CBL-Mariner-Linux-Kernel/archive/rolling-lts/mariner-3/6.6.64.2.tar.gz
DEB_DEPS="build-essential pkg-config libcapstone-dev libelf-dev libdw-dev libzstd-dev zstd libprotobuf-c-dev protobuf-c-compiler zlib1g-dev libtraceevent-dev binutils gawk jq xz-utils"
APT_GET="apt-get -o DPkg::Lock::Timeout=900"
APT="env DEBIAN_FRONTEND=noninteractive $APT_GET install -y -q --no-install-recommends"
FED_DEPS="gcc make binutils gawk jq glibc-devel pkgconf-pkg-config elfutils-libelf-devel elfutils-devel libzstd-devel protobuf-c-devel protobuf-c-compiler zlib-devel libtraceevent-devel capstone-devel libperf-devel"

# ---- Azure Linux 3 ---------------------------------------------------------
export STUB_UNAME_R=$AZ_K STUB_INSTALLED="" STUB_KERNEL_OWNER=kernel STUB_UID=0
inst azurelinux --dry-run
check_eq "azure dry-run: exit" "$rc" 0
check_eq "azure dry-run: exact commands, extended repository before capstone-devel" "$out" \
	"tdnf install -y kernel-tools-$AZ_K
tdnf install -y azurelinux-repos-extended
tdnf install -y $AZ_DEPS
mkdir -p $ROOT/.deps/src
curl -fL --retry 3 -o $AZ_SRC $AZ_URL
bash $STUBS/build-libperf.sh $AZ_SRC CBL-Mariner-Linux-Kernel-rolling-lts-mariner-3-6.6.64.2
rm -f $AZ_SRC"
check "azure dry-run: nothing installed" no_installs
check "azure: the kernel's owner is asked of rpm" grep -qxF "rpm -qf --qf %{NAME}\\n /boot/vmlinuz-$AZ_K" "$LOG"

inst azurelinux
check_eq "azure real: exit" "$rc" 0
check_eq "azure real: the stubs saw the installs, the download and the build" "$(installs)" \
	"tdnf install -y kernel-tools-$AZ_K
tdnf install -y azurelinux-repos-extended
tdnf install -y $AZ_DEPS
curl -fL --retry 3 -o $AZ_SRC $AZ_URL
build-libperf.sh $AZ_SRC CBL-Mariner-Linux-Kernel-rolling-lts-mariner-3-6.6.64.2"

STUB_UNAME_R=$AZ_K.x86_64 inst azurelinux --dry-run --perf-only
check_eq "azure: a trailing .<arch> is not part of the package version" "$out" \
	"tdnf install -y kernel-tools-$AZ_K"
STUB_KERNEL_OWNER=kernel-hwe STUB_UNAME_R=6.12.83.1-1.azl3 inst azurelinux --dry-run
check "azure kernel-hwe: kernel-hwe-tools, the hwe sources" bash -c \
	'grep -qx "tdnf install -y kernel-hwe-tools-6.12.83.1-1.azl3" "$1" &&
	 grep -q "^curl .*/rolling-lts/azl3-hwe/6.12.83.1.tar.gz$" "$1"' _ "$WORK/out"
STUB_KERNEL_OWNER=kernel-64k STUB_UNAME_M=aarch64 inst azurelinux --dry-run --perf-only
check_eq "azure arm64 64k: kernel-64k-tools" "$out" "tdnf install -y kernel-64k-tools-$AZ_K"
AOTPERF_KERNEL_PKG=kernel-64k inst azurelinux --dry-run --perf-only
check_eq "azure: AOTPERF_KERNEL_PKG overrides rpm -qf" "$out" "tdnf install -y kernel-64k-tools-$AZ_K"

STUB_UNAVAILABLE="kernel-tools-$AZ_K" inst azurelinux --perf-only
check_eq "azure: perf for the running kernel not available: still exit 0" "$rc" 0
check_eq "azure: ... and no fallback to a package that installs a kernel" "$(installs)" \
	"tdnf install -y kernel-tools-$AZ_K"
check "azure: ... says why" grep -q "warning: kernel-tools-$AZ_K .*not falling back to kernel-tools" "$WORK/err"
STUB_KERNEL_OWNER="" inst azurelinux --dry-run --perf-only
check "azure: a kernel no package owns: no perf package, a warning" bash -c \
	'[ -z "$(cat "$1")" ] && grep -q "belongs to no package" "$2"' _ "$WORK/out" "$WORK/err"

libperf_built
STUB_INSTALLED="kernel-tools-$AZ_K $AZ_DEPS" inst azurelinux --dry-run
check_eq "azure idempotent: dry-run prints nothing" "$out" ""
STUB_INSTALLED="kernel-tools-$AZ_K $AZ_DEPS" inst azurelinux
check "azure idempotent: no command" no_installs
check_eq "azure idempotent: exit" "$rc" 0
STUB_INSTALLED="capstone-devel" inst azurelinux --dry-run
check "azure: capstone-devel installed, the extended repository is not asked for" \
	bash -c '! grep -q azurelinux-repos-extended "$1"' _ "$WORK/out"
libperf_gone

STUB_UID=1000 inst azurelinux --dry-run --perf-only
check_eq "azure non-root: sudo" "$out" "sudo tdnf install -y kernel-tools-$AZ_K"
STUB_UID=1000 inst azurelinux --perf-only
check "azure non-root real: through sudo" has_line "$log" "sudo tdnf install -y kernel-tools-$AZ_K"

# ---- Debian ----------------------------------------------------------------
export STUB_UNAME_R=6.1.0-26-amd64 STUB_AVAILABLE="" STUB_KERNEL_OWNER=""
inst debian --dry-run
check_eq "debian dry-run: exit" "$rc" 0
check_eq "debian dry-run: exact commands" "$out" "$APT_GET update -qq
$APT linux-perf
$APT $DEB_DEPS linux-source-6.1
bash $STUBS/build-libperf.sh /usr/src/linux-source-6.1.tar.xz linux-source-6.1"
check "debian dry-run: nothing installed" no_installs

inst debian
check_eq "debian real: update once, installs, then the libperf build" "$(installs)" \
	"apt-get -o DPkg::Lock::Timeout=900 update -qq
$APT_GET install -y -q --no-install-recommends linux-perf
$APT_GET install -y -q --no-install-recommends $DEB_DEPS linux-source-6.1
build-libperf.sh /usr/src/linux-source-6.1.tar.xz linux-source-6.1"

inst debian --perf-only --dry-run
check_eq "debian --perf-only" "$out" "$APT_GET update -qq
$APT linux-perf"

STUB_INSTALLED="linux-perf $DEB_DEPS linux-source-6.12" STUB_PERF_VERSION=6.12.48-1 \
	inst debian --dry-run
check_eq "debian: the kernel series from linux-perf's version" "$out" \
	"bash $STUBS/build-libperf.sh /usr/src/linux-source-6.12.tar.xz linux-source-6.12"
inst debian13 --dry-run
check "debian 13: linux-source-6.12" has_line "$out" "$APT $DEB_DEPS linux-source-6.12"

libperf_built
STUB_INSTALLED="linux-perf $DEB_DEPS linux-source-6.1" inst debian
check "debian idempotent with libperf built: nothing runs" no_installs
libperf_gone

# An apt lock held by another process: waited for, with a message, then on.
lock=$WORK/lock-frontend
: >"$lock"
flock "$lock" sleep 3 &
holder=$!
sleep 0.5
STUB_INSTALLED="$DEB_DEPS linux-source-6.1" AOTPERF_APT_LOCKS=$lock inst debian --perf-only
wait "$holder"
check_eq "apt lock held: exit 0 after the holder lets go" "$rc" 0
check "apt lock held: 'waiting for the apt lock held by PID $holder'" \
	grep -q "waiting for the apt lock held by PID $holder " "$WORK/err"
check "apt lock held: then installs" has_line "$(installs)" \
	"$APT_GET install -y -q --no-install-recommends linux-perf"
AOTPERF_APT_LOCKS=$lock inst debian --perf-only
check "apt lock free: no waiting message" bash -c '! grep -q waiting "$1"' _ "$WORK/err"

# ---- Ubuntu ----------------------------------------------------------------
export STUB_UNAME_R=6.8.0-45-generic STUB_INSTALLED="" STUB_AVAILABLE="linux-tools-6.8.0-45-generic"
UB_SRC="bash $STUBS/build-libperf.sh /usr/src/linux-source-6.8.0/linux-source-6.8.0.tar.bz2 linux-source-6.8.0"
inst ubuntu --dry-run
check_eq "ubuntu dry-run: exact commands" "$out" "$APT_GET update -qq
$APT linux-tools-common linux-tools-6.8.0-45-generic
$APT $DEB_DEPS bzip2 linux-source-6.8.0
$UB_SRC"
STUB_AVAILABLE="" inst ubuntu --dry-run --perf-only
check_eq "ubuntu fallback: linux-tools-generic (installs no kernel)" "$out" "$APT_GET update -qq
$APT linux-tools-common linux-tools-generic"
check "ubuntu fallback: warns" grep -q 'warning: linux-tools-6.8.0-45-generic .*linux-tools-generic' \
	"$WORK/err"
libperf_built
STUB_INSTALLED="linux-tools-common linux-tools-6.8.0-45-generic $DEB_DEPS bzip2 linux-source-6.8.0" inst ubuntu
check "ubuntu idempotent: no install, no update" no_installs
libperf_gone
inst mint --dry-run --perf-only
check "ID_LIKE ubuntu (Mint) goes the Ubuntu way" has_line "$out" \
	"$APT linux-tools-common linux-tools-6.8.0-45-generic"

# ---- Fedora / RHEL ---------------------------------------------------------
export STUB_UNAME_R=6.11.4-301.fc41.x86_64 STUB_INSTALLED="" STUB_AVAILABLE=""
inst fedora --dry-run
check_eq "fedora dry-run: exact commands" "$out" "dnf install -y perf
dnf install -y $FED_DEPS"
STUB_INSTALLED="perf $FED_DEPS" inst fedora
check "fedora idempotent: no install command" no_installs
for os in rocky oracle rhel; do
	inst "$os" --dry-run
	check "$os: perf and the build list" bash -c 'grep -qx "dnf install -y perf" "$1" &&
		grep -qx "dnf install -y $2" "$1"' _ "$WORK/out" "$FED_DEPS"
done
inst rocky --dry-run
check "rocky: EPEL and CRB before the build list" bash -c \
	'[ "$(sed -n 2,3p "$1")" = "dnf install -y dnf-plugins-core epel-release
dnf config-manager --set-enabled crb" ]' _ "$WORK/out"
STUB_INSTALLED="perf dnf-plugins-core epel-release $FED_DEPS" STUB_REPOS="crb appstream" inst rocky
check "rocky idempotent (crb enabled): no command" no_installs
inst rhel --dry-run
check "rhel: says how to enable CRB and EPEL, runs nothing for it" bash -c \
	'grep -q "subscription-manager repos" "$2" && ! grep -q config-manager "$1"' _ "$WORK/out" "$WORK/err"

# ---- test-deps -------------------------------------------------------------
export STUB_UNAME_R=6.1.0-26-amd64 STUB_INSTALLED=""
tdeps debian --dry-run
check_eq "test-deps debian: exit" "$rc" 0
check "test-deps debian: one apt install of the test tools" bash -c \
	'[ "$(grep -c " install " "$1")" = 1 ] && grep -q " cmark-gfm .* libfuzzer-14-dev " "$1"' _ "$WORK/out"
ln -sf /bin/true "$STUBS/node"
tdeps debian --dry-run
check "test-deps: node on PATH from elsewhere: Debian's nodejs not asked for" \
	bash -c '! grep -q " nodejs " "$1"' _ "$WORK/out"
rm -f "$STUBS/node"
STUB_INSTALLED="clang protobuf-compiler cmark-gfm wabt elfutils cppcheck strace xxd llvm libtraceevent-dev qemu-user-static nodejs npm libclang-rt-14-dev libfuzzer-14-dev binutils-aarch64-linux-gnu gcc-aarch64-linux-gnu chromium" \
	tdeps debian
check "test-deps debian idempotent: no command" no_installs
STUB_UNAME_R=$AZ_K tdeps azurelinux
check_eq "test-deps azure: exit 0 though some tools are not packaged" "$rc" 0
check_eq "test-deps azure: one line for what it cannot install" \
	"$(grep -c 'cannot install on azurelinux 3.0 x86_64: chromium ' "$WORK/err")" 1
tdeps arch --dry-run
check_eq "test-deps unknown distro: exit 2" "$rc" 2

# ---- errors ----------------------------------------------------------------
inst arch --dry-run
check_eq "unknown distro: exit 2" "$rc" 2
check "unknown distro: says so" grep -q "unsupported distribution ID='arch'" "$WORK/err"
check "unknown distro: no command" bash -c '[ -z "$1" ] && [ -z "$2" ]' _ "$out" "$(installs)"
inst debian --bogus
check_eq "bad option: exit 2" "$rc" 2
inst debian --help
check "--help: exit 0, usage and every override" bash -c '[ "$1" = 0 ] && grep -q "^usage:" "$2" &&
	for v in AOTPERF_OS_RELEASE AOTPERF_UNAME_R AOTPERF_UNAME_M AOTPERF_KERNEL_PKG; do
		grep -q "$v" "$2" || exit 1; done' _ "$rc" "$WORK/out"
AOTPERF_OS_RELEASE=$WORK/missing bash "$INSTALL" --dry-run >/dev/null 2>&1
check_eq "missing os-release: exit 2" "$?" 2

# ---- this machine, for real --------------------------------------------------
if grep -qx 'ID=debian' /etc/os-release; then
	for s in "$INSTALL" "$TESTDEPS"; do
		n=$(basename "$s")
		dry=$(bash "$s" --dry-run 2>"$WORK/err")
		check_eq "this machine: $n --dry-run exits 0" "$?" 0
		if [ -z "$dry" ]; then
			ok "this machine: $n --dry-run has nothing to do (all installed)"
			bash "$s" >"$WORK/out" 2>"$WORK/err"
			check_eq "this machine: $n real run exits 0" "$?" 0
			check "this machine: $n real run ran no command" \
				bash -c '! grep -q ": + " "$1" && [ ! -s "$2" ]' _ "$WORK/err" "$WORK/out"
		else
			bad "this machine: $n --dry-run wants to run (run make deps test-deps first): $dry"
		fi
	done
	check "this machine: install-perf reports linux-perf installed" \
		bash -c 'bash "$1" 2>&1 | grep -q "already installed: linux-perf"' _ "$INSTALL"
else
	echo "skip: this machine is not Debian; the real runs are Debian-only"
fi

finish
