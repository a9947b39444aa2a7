#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# aotperf doctor's fixes name only commands and paths that exist here: the
# install script by its absolute path where this aotperf's checkout has it
# (and not at all for a copy of aotperf outside a checkout), an installed
# perf of the kernel's version when the perf checked is of another one,
# sudo only where sudo is installed, one package manager that is there.
. "$(dirname "$0")/lib/common.sh"
REAL_PERF=$(command -v perf)
kver=$(uname -r | sed -E 's/^([0-9]+\.[0-9]+).*/\1/')
fixes() { jq -r '.checks[] | select(.fix != null) | .fix' <<<"$1"; }
# every path-looking word of the fixes (/..., ending before a space or ;)
paths_exist() {
	local p
	for p in $(fixes "$1" | grep -oE '(^|[ =])/[^ ;,)]+' | sed -E 's/^[ =]//'); do
		case $p in /etc/sysctl.d/*|/proc/*) continue ;; esac
		[ -e "$p" ] || { echo "missing: $p"; return 1; }
	done
}
# stub perfs: $WORK/old/perf of version 1.2.3, $WORK/new/perf_K.M of the kernel's
mkdir -p "$WORK/old" "$WORK/new" "$WORK/bin"
stub() { # stub FILE VERSION
	printf '#!/bin/sh\n[ "$1" = --version ] && { echo "perf version %s"; exit 0; }\nexec "%s" "$@"\n' \
		"$2" "$REAL_PERF" >"$1"
	chmod +x "$1"
}
stub "$WORK/old/perf" 1.2.3
stub "$WORK/new/perf_$kver" "$kver.7"

# 1. run from outside the checkout: the install script by an absolute path that exists
json=$(cd / && PATH=$WORK/old:$PATH TMPDIR=$WORK "$AOTPERF" doctor --json 2>/dev/null)
fix=$(jq -r '.checks[] | select(.name == "perf_version") | .fix' <<<"$json")
check "another version, none of the kernel's installed: the fix is an install hint ($fix)" \
	grep -qE 'install' <<<"$fix"
check "... it names the checkout's install-perf.sh by its absolute path, which exists" \
	test -x "$(grep -oE '/[^ ]*/kernel-tools-compat/install-perf\.sh' <<<"$fix")"
check "every path the fixes name exists" paths_exist "$json"

# 2. a copy of aotperf outside any checkout names no install script
cp "$AOTPERF" "$WORK/bin/aotperf"
json=$(cd / && PATH=$WORK/old:$PATH TMPDIR=$WORK "$WORK/bin/aotperf" doctor --json 2>/dev/null)
check "outside a checkout: no install-perf.sh named" \
	bash -c '! grep -q install-perf <<<"$1"' _ "$(fixes "$json")"
check "outside a checkout: every path the fixes name exists" paths_exist "$json"

# 3. an installed perf of the kernel's version is named instead
json=$(cd / && PATH=$WORK/old:$WORK/new:$PATH TMPDIR=$WORK "$AOTPERF" doctor --json 2>/dev/null)
fix=$(jq -r '.checks[] | select(.name == "perf_version") | .fix' <<<"$json")
check_eq "a perf of the kernel's version installed: the fix names it" "$fix" \
	"$WORK/new/perf_$kver is installed (perf version $kver.7, the kernel's version): use it, PERF=$WORK/new/perf_$kver aotperf ..."

# 4. the package manager a fix names is installed here
json=$(cd / && PATH=$WORK/old:$PATH TMPDIR=$WORK "$AOTPERF" doctor --json 2>/dev/null)
n=0
for prog in $(fixes "$json" | grep -oE '(^|: |; )(sudo|apt-get|tdnf|dnf) ' | grep -oE '[a-z-]+'); do
	check "the fixes' $prog is installed" command -v "$prog"
	n=$((n + 1))
done
check "a fix names a package manager ($n)" test "$n" -gt 0
finish
