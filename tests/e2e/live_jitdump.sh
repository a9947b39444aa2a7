#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The embeddable jitdump writer inside the WAMR-like loader (--jitdump: one
# aotjit_register_cwasm() call after each mprotect), with stock perf and no
# aotperf step between recording and report: `perf record -k mono`, then
# `perf inject --jit` and `perf report --sort sym -n` must name the
# functions with exactly aotperf report's per-function counts on the
# original perf.data. Cases: one core; a forked child that maps (its own
# dump is used); four threads registering their own copies at once; a
# two-core manifest (names mod<idx>:local_func_N); the static loader.
# Also prints (does not assert) the writer's cost per registered function.
#
#   tests/e2e/live_jitdump.sh BUILD_DIR
. "$(dirname "$0")/lib/common.sh"

S=$FIX/sample.cwasm
M=$FIX/comp.cwasm.json
STATIC=$B/tests/loader-static

# live NAME LOADER [loader args...]: record with the writer on, then stock
# perf inject --jit; the dumps go to $WORK/NAME/jit
live() {
	local name=$1 loader=$2; shift 2
	local d=$WORK/$name
	mkdir -p "$d/jit"
	JITDUMPDIR=$d/jit perf record -q -e cpu-clock -k mono -F 2000 -o "$d/perf.data" -- \
		"$loader" --jitdump "$@" >"$d/log" 2>&1
	check_eq "$name: loader --jitdump under perf record -k mono: exit status" "$?" 0
	check "$name: the loader registered with the writer" grep -q 'jitdump /' "$d/log"
	check "$name: no writer warning" bash -c "! grep -q 'warning: jitdump' '$d/log'"
	perf inject --jit -i "$d/perf.data" -o "$d/perf.jit.data" >"$d/inject.log" 2>&1
	check_eq "$name: stock perf inject --jit: exit status" "$?" 0
}

# 1. one core
live plain "$LOADER" --ms 1200 "$S"
d=$WORK/plain
"$AOTPERF" report -q -i "$d/perf.data" --cwasm "$S" --top 100000 --json "$d/ref.json" >/dev/null
ours "$d/ref.json" >"$d/ref.counts"
perf_counts "$d/perf.jit.data" >"$d/got.counts"
same_counts "plain: perf report counts equal aotperf report" "$d/got.counts" "$d/ref.counts"
pid=$(awk '/ mapped at / { print $3; exit }' "$d/log")
check "plain: the dump is jit-<pid>.dump" bash -c "ls '$d'/jit/.debug/jit/*/jit-$pid.dump >/dev/null"
njitted=$(find "$d/jit" -name "jitted-$pid-*.so" | wc -l)
check_eq "plain: perf inject wrote one ELF per function" "$njitted" "$(grep -c . "$S.syms")"
check "plain: no [JIT] bucket left" bash -c "! perf report -i '$d/perf.jit.data' --stdio --sort sym 2>/dev/null | grep -q '\\[JIT\\]'"
hot=$(jq -r '.top_functions[0].local_func' "$d/ref.json")
check "plain: perf annotate disassembles the hottest, local_func_$hot" \
	bash -c "perf annotate -i '$d/perf.jit.data' --stdio local_func_$hot 2>/dev/null | grep -qE '^ +[0-9.]+ +: +[0-9a-f]+:'"

# 2. --fork: the parent only waits; the child maps, registers and runs
live fork "$LOADER" --fork --ms 1200 "$S"
d=$WORK/fork
parent=$(awk '/ forked child / { print $3; exit }' "$d/log")
child=$(awk '/ forked child / { print $6; exit }' "$d/log")
check "fork: the loader forked (parent ${parent:-?}, child ${child:-?})" \
	test -n "$parent" -a -n "$child" -a "$parent" != "$child"
check "fork: the child mapped the core" grep -q "pid $child core .* mapped at" "$d/log"
dumps=$(find "$d/jit" -name 'jit-*.dump' -printf '%f\n')
check_eq "fork: one dump, the child's" "$dumps" "jit-$child.dump"
"$AOTPERF" report -q -i "$d/perf.data" --cwasm "$S" --top 100000 --json "$d/ref.json" >/dev/null
ours "$d/ref.json" >"$d/ref.counts"
perf_counts "$d/perf.jit.data" >"$d/got.counts"
same_counts "fork: perf report counts equal aotperf report" "$d/got.counts" "$d/ref.counts"

# 3. four threads, each mapping and registering its own copy at once
live threads "$LOADER" --threads 4 --ms 1200 "$S"
d=$WORK/threads
check_eq "threads: four mappings" "$(grep -c ' mapped at ' "$d/log")" 4
check_eq "threads: four registrations, one dump" \
	"$(grep -c ' jitdump /' "$d/log") $(find "$d/jit" -name 'jit-*.dump' | wc -l)" "4 1"
pid=$(awk '/ mapped at / { print $3; exit }' "$d/log")
njitted=$(find "$d/jit" -name "jitted-$pid-*.so" | wc -l)
check_eq "threads: perf inject wrote one ELF per function per thread" "$njitted" \
	$((4 * $(grep -c . "$S.syms")))
"$AOTPERF" report -q -i "$d/perf.data" --cwasm "$S" --top 100000 --json "$d/ref.json" >/dev/null
check_eq "threads: aotperf report sees the four mappings" \
	"$(jq -r '.mapping.count' "$d/ref.json")" 4
ours "$d/ref.json" >"$d/ref.counts"
perf_counts "$d/perf.jit.data" >"$d/got.counts"
same_counts "threads: perf report counts (summed over the copies) equal aotperf report" \
	"$d/got.counts" "$d/ref.counts"

# 4. a two-core manifest: names carry the core, as aotperf inject names them
live manifest "$LOADER" --ms 1200 --manifest "$M"
d=$WORK/manifest
"$AOTPERF" report -q -i "$d/perf.data" --manifest "$M" --top 100000 --json "$d/ref.json" >/dev/null
ours_cores "$d/ref.json" >"$d/ref.counts"
perf_counts "$d/perf.jit.data" >"$d/got.counts"
same_counts "manifest: perf report counts (mod0:/mod1:) equal aotperf report" \
	"$d/got.counts" "$d/ref.counts"

# 5. the static loader: the writer needs libc and pthreads only
if [ -x "$STATIC" ]; then
	live static "$STATIC" --ms 1000 "$S"
	d=$WORK/static
	"$AOTPERF" report -q -i "$d/perf.data" --cwasm "$S" --top 100000 --json "$d/ref.json" >/dev/null
	ours "$d/ref.json" >"$d/ref.counts"
	perf_counts "$d/perf.jit.data" >"$d/got.counts"
	same_counts "static: perf report counts equal aotperf report" "$d/got.counts" "$d/ref.counts"
else
	bad "static: $STATIC missing (make $STATIC; tests/loader/loader.mk)"
fi

# 6. optional: the LD_PRELOAD agent on the same writer, for a runtime that
# calls libc's mprotect; the static loader makes it see nothing (the
# runtime's default build: use aotperf record there)
PRELOAD=$B/aotperf-preload.so
if [ -f "$PRELOAD" ]; then
	for kind in dynamic static; do
		d=$WORK/preload-$kind
		loader=$LOADER
		[ $kind = static ] && loader=$STATIC
		mkdir -p "$d/jit"
		perf record -q -e cpu-clock -k mono -F 2000 -o "$d/perf.data" -- \
			env JITDUMPDIR="$d/jit" LD_PRELOAD="$PRELOAD" AOTPERF_CWASM="$S" \
			ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" \
			"$loader" --ms 1000 "$S" >"$d/log" 2>&1
		check_eq "preload ($kind loader): exit status" "$?" 0
		ndumps=$(find "$d/jit" -name 'jit-*.dump' | wc -l)
		if [ $kind = static ]; then
			check_eq "preload: a static runtime is invisible to it (no dump)" "$ndumps" 0
			continue
		fi
		check_eq "preload: the agent wrote one dump" "$ndumps" 1
		perf inject --jit -i "$d/perf.data" -o "$d/perf.jit.data" >"$d/inject.log" 2>&1
		"$AOTPERF" report -q -i "$d/perf.data" --cwasm "$S" --top 100000 --json "$d/ref.json" >/dev/null
		ours "$d/ref.json" >"$d/ref.counts"
		perf_counts "$d/perf.jit.data" >"$d/got.counts"
		same_counts "preload: perf report counts equal aotperf report" "$d/got.counts" "$d/ref.counts"
	done
else
	echo "skip: $PRELOAD not built (optional; tests/loader/loader.mk)"
fi

# 7. a writer that cannot write costs the names, never the run
JITDUMPDIR=$WORK/does-not-exist "$LOADER" --jitdump --ms 100 "$S" >"$WORK/nodir.log" 2>&1
check_eq "writer failure: the loader still runs (exit 0)" "$?" 0
check "writer failure: a warning, and the run completes" \
	bash -c "grep -q 'warning: jitdump' '$WORK/nodir.log' && grep -q ' done: ' '$WORK/nodir.log'"

# 8. the writer's cost per registered function (printed, not asserted):
# big.cwasm, 20,009 functions, mapped twice; the first call also opens the dump
mkdir -p "$WORK/cost"
JITDUMPDIR=$WORK/cost LOADER_TIMING=1 "$LOADER" --jitdump --twice --ms 50 "$FIX/big.cwasm" \
	>"$WORK/cost.log" 2>&1
check "cost: LOADER_TIMING=1 prints the register call's cost" \
	grep -q 'jitdump register .* functions in' "$WORK/cost.log"
grep 'jitdump register' "$WORK/cost.log" | sed 's/^loader: /measure: /'
echo "measure: dump size $(find "$WORK/cost" -name 'jit-*.dump' -printf '%s') bytes"

finish
