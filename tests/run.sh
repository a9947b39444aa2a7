#!/usr/bin/env bash
# Run every unit test binary and end-to-end script against one build folder;
# each prints "N passed, N failed" last. Prints the sum the same way.
set -u
B=${1:?usage: tests/run.sh BUILD_DIR}
root=$(cd "$(dirname "$0")/.." && pwd)
B=$(cd "$B" && pwd)
export FIXTURES=$B/fixtures AOTPERF=$B/aotperf BUILD=$B
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
scratch=$(mktemp -d "${TMPDIR:-/tmp}/aotperf-tests.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
export TMPDIR=$scratch
# perf keeps a copy of every binary it records or injects in its build-id
# cache, ~/.debug by default: thousands of files per run. The tests point it
# at the scratch folder (PERF_CONFIG names a config file, as `perf config`
# documents), and the run fails if ~/.debug grew anyway.
. "$root/tests/perfconfig.sh"; perfconfig_use "$scratch"
debug_before=$(perfconfig_home_debug_count)

# Tests run JOBS at a time (AOTPERF_TEST_JOBS, default the number of CPUs):
# each has its own scratch folder. A script with the line
# "# tests/run.sh: alone" (timed measurements) runs after the others, by itself.
jobs=${AOTPERF_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
[ "$jobs" -ge 1 ] 2>/dev/null || jobs=1
passed=0 failed=0 broken=()
# report NAME: sum and print one finished test from its log, rc and time
report() {
	local name=$1 log=$scratch/$(basename "$1").log line p f rc secs
	rc=$(cat "$log.rc" 2>/dev/null || echo 1); secs=$(cat "$log.secs" 2>/dev/null || echo 0)
	line=$(grep -E '[0-9]+ passed, [0-9]+ failed' "$log" | tail -n1)
	p=$(grep -oE '[0-9]+ passed' <<<"$line" | grep -oE '[0-9]+' || echo 0)
	f=$(grep -oE '[0-9]+ failed' <<<"$line" | grep -oE '[0-9]+' || echo 0)
	[ -n "$p" ] || p=0; [ -n "$f" ] || f=0
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
	passed=$((passed + p)); failed=$((failed + f))
	if [ "$f" -ne 0 ]; then
		broken+=("$name")
		echo "FAIL $name (rc=$rc, $p passed, $f failed, ${secs}s)"
		# its failed checks wherever they are in the log, then the log's end
		grep -E '^(FAIL|not ok)' "$log" | head -n 20 | sed 's/^/    /'
		sed 's/^/    /' "$log" | tail -n 40
	else
		echo "ok   $name ($p passed, ${secs}s)"
	fi
}
# start NAME CMD...: run one test in the background, its log beside the others
start() {
	local name=$1; shift
	local log=$scratch/$(basename "$name").log
	( s=$SECONDS; "$@" >"$log" 2>&1; echo $? >"$log.rc"; echo $((SECONDS - s)) >"$log.secs" ) &
	running[$!]=$name
}
# reap: wait for any one running test and report it
reap() {
	local pid=
	while [ -z "$pid" ] || [ -z "${running[$pid]:-}" ]; do
		pid=
		wait -n -p pid "${!running[@]}"
	done
	report "${running[$pid]}"; unset "running[$pid]"
}
declare -A running=()
queue=() alone=()
for t in "$B"/tests/test_*; do
	[ -x "$t" ] && queue+=("unit/$(basename "$t")|$t")
done
for s in "$root"/tests/e2e/*.sh; do
	[ -f "$s" ] || continue
	if grep -qx '# tests/run.sh: alone' "$s"; then alone+=("e2e/$(basename "$s")|$s")
	else queue+=("e2e/$(basename "$s")|$s"); fi
done
for q in "${queue[@]}"; do
	while [ "${#running[@]}" -ge "$jobs" ]; do reap; done
	case $q in unit/*) start "${q%%|*}" "${q#*|}" ;; *) start "${q%%|*}" bash "${q#*|}" "$B" ;; esac
done
while [ "${#running[@]}" -gt 0 ]; do reap; done
for q in "${alone[@]}"; do start "${q%%|*}" bash "${q#*|}" "$B"; reap; done

debug_after=$(perfconfig_home_debug_count)
if [ "$debug_after" -gt "$debug_before" ]; then
	echo "FAIL perf build-id cache: ~/.debug grew from $debug_before to $debug_after entries during the tests"
	failed=$((failed + 1)); broken+=("~/.debug")
else
	passed=$((passed + 1))
fi
[ ${#broken[@]} -eq 0 ] || echo "failing: ${broken[*]}"
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
