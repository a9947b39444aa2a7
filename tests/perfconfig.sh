# SPDX-License-Identifier: MIT
# Sourced by tests/run.sh and tests/e2e/lib/common.sh. perf keeps a copy of
# every binary it records or injects in its build-id cache, ~/.debug by
# default (thousands of files per test run): the tests point it at a
# scratch folder through PERF_CONFIG, the config file perf reads instead of
# ~/.perfconfig.

# perfconfig_use DIR: perf's build-id cache in DIR/debug, unless the caller
# already chose a PERF_CONFIG (tests/run.sh sets one for the whole run).
perfconfig_use() {
	[ -z "${PERF_CONFIG:-}" ] || return 0
	printf '[buildid]\n\tdir = %s/debug\n' "$1" >"$1/perfconfig"
	export PERF_CONFIG=$1/perfconfig
}

# entries under ~/.debug (0 when it does not exist)
perfconfig_home_debug_count() {
	find "$HOME/.debug" 2>/dev/null | wc -l
}
