#!/usr/bin/env bash
# kernel-tools-compat/install-perf.sh: the distribution logic against fake
# os-release files and stub package managers (they log their arguments and
# answer queries from STUB_INSTALLED / STUB_AVAILABLE), then for real on this
# machine (Debian): --dry-run, and a real run that must change nothing.
# shellcheck disable=SC2016 # single-quoted bodies expand where they run
# shellcheck source-path=SCRIPTDIR source=lib/common.sh
source "$(dirname "$0")/lib/common.sh"
ROOT=$(cd "$E2E/../.." && pwd)
INSTALL=$ROOT/kernel-tools-compat/install-perf.sh
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
stub uname 'case $1 in -r) echo "$STUB_UNAME_R";; -m) echo x86_64;; *) echo Linux;; esac'
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
stub rpm '# -q [--whatprovides] PKG
pkg=${!#}; has "$STUB_INSTALLED" "$pkg" && exit 0
echo "package $pkg is not installed"; exit 1'
stub tdnf '# -q repoquery --available SPEC | install -y PKG...
if [ "$2" = repoquery ]; then has "$STUB_AVAILABLE" "${!#}" && echo "${!#}.x86_64"; exit 0; fi
exit 0'
stub dnf 'exit 0'
stub deps.sh 'exit 0'
}
export STUB_LOG=$LOG

# inst OSNAME [args...]: run the installer with the stubs first on PATH;
# sets rc, out (stdout), log (the stubs' log); stderr is in $WORK/err.
inst() {
	local os=$1; shift
	: >"$LOG"
	PATH=$STUBS:$PATH OS_RELEASE=$OSR/os-release.$os AOTPERF_DEPS_SH=$STUBS/deps.sh \
		LIBPERF_DIR=$WORK/no-libperf bash "$INSTALL" "$@" >"$WORK/out" 2>"$WORK/err"
	rc=$?
	out=$(cat "$WORK/out"); log=$(cat "$LOG")
}
# the install commands the stubs saw (queries left out)
installs() { grep -E ' (install|update)( |$)|^deps\.sh' "$LOG" || true; }
has_line() { grep -qxF -- "$2" <<<"$1"; } # has_line TEXT LINE
no_installs() { [ -z "$(installs)" ]; }

AZ_K=6.6.64.2-7.azl3
AZ_DEPS="gcc make binutils gawk jq capstone-devel elfutils-libelf-devel elfutils-devel libzstd-devel kernel-headers"
DEB_DEPS="build-essential pkg-config libcapstone-dev libelf-dev libdw-dev libzstd-dev zstd libtraceevent-dev binutils binutils-aarch64-linux-gnu gawk jq"
APT="env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends"
FED_DEPS="libperf-devel capstone-devel elfutils-libelf-devel elfutils-devel libzstd-devel jq gcc make binutils gawk"

# ---- Azure Linux 3 ---------------------------------------------------------
export STUB_UNAME_R=$AZ_K STUB_INSTALLED="" STUB_AVAILABLE="kernel-tools-$AZ_K" STUB_UID=0
inst azurelinux --dry-run
check_eq "azure dry-run: exit" "$rc" 0
check_eq "azure dry-run: exact commands" "$out" "tdnf install -y kernel-tools-$AZ_K
tdnf install -y $AZ_DEPS"
check "azure dry-run: nothing installed" no_installs
check "azure: libperf-devel absent is explained" grep -q 'no libperf-devel.*kernel' "$WORK/err"
check "azure: no fallback warning when kernel-tools-<uname -r> exists" \
	bash -c '! grep -q warning "$1"' _ "$WORK/err"

inst azurelinux
check_eq "azure real: exit" "$rc" 0
check_eq "azure real: stubs saw the installs" "$(installs)" "tdnf install -y kernel-tools-$AZ_K
tdnf install -y $AZ_DEPS"

STUB_UNAME_R=$AZ_K.x86_64 inst azurelinux --dry-run --perf-only
check_eq "azure: a trailing .<arch> is not part of the package version" "$out" \
	"tdnf install -y kernel-tools-$AZ_K"

STUB_AVAILABLE="" inst azurelinux --dry-run --perf-only
check_eq "azure fallback: plain kernel-tools" "$out" "tdnf install -y kernel-tools"
check "azure fallback: warns" grep -q "warning: kernel-tools-$AZ_K .*falling back to kernel-tools" \
	"$WORK/err"

STUB_AVAILABLE="kernel-tools-$AZ_K libperf-devel" inst azurelinux --dry-run
check_eq "azure: libperf-devel installed when tdnf has it" "$out" \
	"tdnf install -y kernel-tools-$AZ_K
tdnf install -y $AZ_DEPS
tdnf install -y libperf-devel"

STUB_INSTALLED="kernel-tools-$AZ_K $AZ_DEPS" inst azurelinux --dry-run
check_eq "azure idempotent: dry-run prints nothing" "$out" ""
STUB_INSTALLED="kernel-tools-$AZ_K $AZ_DEPS" inst azurelinux
check "azure idempotent: no install command" no_installs
check_eq "azure idempotent: exit" "$rc" 0
STUB_INSTALLED="kernel-tools $AZ_DEPS" STUB_AVAILABLE="" inst azurelinux
check "azure fallback idempotent: kernel-tools installed, nothing to do" no_installs

STUB_UID=1000 inst azurelinux --dry-run --perf-only
check_eq "azure non-root: sudo" "$out" "sudo tdnf install -y kernel-tools-$AZ_K"
STUB_UID=1000 inst azurelinux --perf-only
check "azure non-root real: through sudo" has_line "$log" "sudo tdnf install -y kernel-tools-$AZ_K"
inst azurelinux --dry-run --perf-only
check "root: no sudo" bash -c '! grep -q sudo "$1"' _ "$WORK/out"

# ---- Debian ----------------------------------------------------------------
export STUB_UNAME_R=6.1.0-26-amd64 STUB_AVAILABLE=""
inst debian --dry-run
check_eq "debian dry-run: exit" "$rc" 0
check_eq "debian dry-run: exact commands" "$out" "apt-get update -qq
$APT linux-perf
$APT $DEB_DEPS linux-source-6.1
bash $STUBS/deps.sh"
check "debian dry-run: nothing installed" no_installs

inst debian
check_eq "debian real: update once, installs, then deps.sh's libperf build" "$(installs)" \
	"apt-get update -qq
apt-get install -y -q --no-install-recommends linux-perf
apt-get install -y -q --no-install-recommends $DEB_DEPS linux-source-6.1
deps.sh "

inst debian --perf-only --dry-run
check_eq "debian --perf-only" "$out" "apt-get update -qq
$APT linux-perf"

STUB_INSTALLED="linux-perf $DEB_DEPS" STUB_PERF_VERSION=6.1.192-3 inst debian --dry-run
check_eq "debian: only what is missing" "$out" "apt-get update -qq
$APT linux-source-6.1
bash $STUBS/deps.sh"

STUB_INSTALLED="linux-perf $DEB_DEPS linux-source-6.12" STUB_PERF_VERSION=6.12.48-1 \
	inst debian --dry-run
check "debian: kernel series from linux-perf's version (no deps.sh off 6.1)" \
	bash -c '[ -z "$(cat "$1")" ] && grep -q "linux-source-6.12.tar" "$2"' _ "$WORK/out" "$WORK/err"

inst debian13 --dry-run
check "debian 13: linux-source-6.12" has_line "$out" "$APT $DEB_DEPS linux-source-6.12"

STUB_INSTALLED="linux-perf $DEB_DEPS linux-source-6.1" inst debian
check "debian idempotent: only the libperf build runs" \
	bash -c '[ "$(grep -cE " install| update" "$1")" = 0 ] && grep -qx "deps.sh " "$1"' _ "$LOG"
mkdir -p "$WORK/no-libperf/include/perf" && : >"$WORK/no-libperf/include/perf/event.h"
STUB_INSTALLED="linux-perf $DEB_DEPS linux-source-6.1" inst debian
check "debian idempotent with libperf built: nothing runs" no_installs
rm -rf "$WORK/no-libperf"

# ---- Ubuntu ----------------------------------------------------------------
export STUB_UNAME_R=6.8.0-45-generic STUB_INSTALLED="" STUB_AVAILABLE="linux-tools-6.8.0-45-generic"
inst ubuntu --dry-run
check_eq "ubuntu dry-run: exact commands" "$out" "apt-get update -qq
$APT linux-tools-common linux-tools-6.8.0-45-generic
$APT $DEB_DEPS"
check "ubuntu: libperf note" grep -q 'no libperf package' "$WORK/err"
inst ubuntu
check_eq "ubuntu real" "$(installs)" "apt-get update -qq
apt-get install -y -q --no-install-recommends linux-tools-common linux-tools-6.8.0-45-generic
apt-get install -y -q --no-install-recommends $DEB_DEPS"

STUB_AVAILABLE="" inst ubuntu --dry-run --perf-only
check_eq "ubuntu fallback: linux-tools-generic" "$out" "apt-get update -qq
$APT linux-tools-common linux-tools-generic"
check "ubuntu fallback: warns" grep -q 'warning: linux-tools-6.8.0-45-generic .*linux-tools-generic' \
	"$WORK/err"

STUB_INSTALLED="linux-tools-common linux-tools-6.8.0-45-generic $DEB_DEPS" inst ubuntu
check "ubuntu idempotent: no install, no update" no_installs
inst mint --dry-run --perf-only
check "ID_LIKE ubuntu (Mint) goes the Ubuntu way" has_line "$out" \
	"$APT linux-tools-common linux-tools-6.8.0-45-generic"

# ---- Fedora / RHEL ---------------------------------------------------------
export STUB_UNAME_R=6.11.4-301.fc41.x86_64 STUB_INSTALLED="" STUB_AVAILABLE=""
for os in fedora rhel rocky oracle; do
	inst "$os" --dry-run
	check_eq "$os dry-run: exact commands" "$out" "dnf install -y perf
dnf install -y $FED_DEPS"
done
inst fedora
check_eq "fedora real" "$(installs)" "dnf install -y perf
dnf install -y $FED_DEPS"
STUB_INSTALLED="perf $FED_DEPS" inst fedora
check "fedora idempotent: no install command" no_installs
STUB_INSTALLED="perf" inst fedora --dry-run
check_eq "fedora: only the missing ones" "$out" "dnf install -y $FED_DEPS"

# ---- errors ----------------------------------------------------------------
inst arch --dry-run
check_eq "unknown distro: exit 2" "$rc" 2
check "unknown distro: says so" grep -q "unsupported distribution ID='arch'" "$WORK/err"
check "unknown distro: no command" bash -c '[ -z "$1" ] && [ -z "$2" ]' _ "$out" "$(installs)"
inst debian --bogus
check_eq "bad option: exit 2" "$rc" 2
inst debian --help
check "--help: exit 0 and usage" bash -c '[ "$1" = 0 ] && grep -q "^usage:" "$2"' _ "$rc" "$WORK/out"
OS_RELEASE=$WORK/missing bash "$INSTALL" --dry-run >/dev/null 2>&1
check_eq "missing os-release: exit 2" "$?" 2

# ---- this machine, for real --------------------------------------------------
if grep -qx 'ID=debian' /etc/os-release; then
	dry=$(bash "$INSTALL" --dry-run 2>"$WORK/err")
	check_eq "this machine: --dry-run exits 0" "$?" 0
	if [ -z "$dry" ]; then
		ok "this machine: --dry-run has nothing to do (all installed, libperf built)"
		bash "$INSTALL" >"$WORK/out" 2>"$WORK/err"
		check_eq "this machine: real run exits 0" "$?" 0
		check "this machine: real run ran no command" \
			bash -c '! grep -q "^install-perf: + " "$1" && [ ! -s "$2" ]' _ "$WORK/err" "$WORK/out"
		check "this machine: real run reports linux-perf installed" \
			grep -q 'already installed: linux-perf' "$WORK/err"
	else
		bad "this machine: --dry-run wants to run (run make deps first): $dry"
	fi
else
	echo "skip: this machine is not Debian; the real runs are Debian-only"
fi

finish
