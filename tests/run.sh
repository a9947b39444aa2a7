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

passed=0 failed=0 broken=()
run_one() {
	local name=$1; shift
	local log=$scratch/$(basename "$name").log
	local start=$SECONDS
	"$@" >"$log" 2>&1
	local rc=$? line p f
	line=$(grep -E '[0-9]+ passed, [0-9]+ failed' "$log" | tail -n1)
	p=$(grep -oE '[0-9]+ passed' <<<"$line" | grep -oE '[0-9]+' || echo 0)
	f=$(grep -oE '[0-9]+ failed' <<<"$line" | grep -oE '[0-9]+' || echo 0)
	[ -n "$p" ] || p=0; [ -n "$f" ] || f=0
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
	passed=$((passed + p)); failed=$((failed + f))
	if [ "$f" -ne 0 ]; then
		broken+=("$name")
		echo "FAIL $name (rc=$rc, $p passed, $f failed, $((SECONDS - start))s)"
		sed 's/^/    /' "$log" | tail -n 40
	else
		echo "ok   $name ($p passed, $((SECONDS - start))s)"
	fi
}

for t in "$B"/tests/test_*; do
	[ -x "$t" ] || continue
	run_one "unit/$(basename "$t")" "$t"
done
for s in "$root"/tests/e2e/*.sh; do
	[ -f "$s" ] || continue
	run_one "e2e/$(basename "$s")" bash "$s" "$B"
done

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
