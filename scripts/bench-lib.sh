# SPDX-License-Identifier: MIT
# Sourced by scripts/bench.sh: the benchmark's recordings, made once and
# kept in $B/bench (a recording is kept only when perf finished it), and
# its timings: alternating runs, wall and CPU seconds of each.
#
# perf's build-id cache for these recordings is $B/bench/debug (their
# perfconfig): perf record keeps its copy of kallsyms there, as it keeps
# one in ~/.debug for a user, and aotperf reads it through PERF_CONFIG.

BENCH_DIR=$B/bench
SAMPLE=$B/fixtures/sample.cwasm
mkdir -p "$BENCH_DIR"
printf '[buildid]\n\tdir = %s/debug\n' "$(cd "$BENCH_DIR" && pwd)" >"$BENCH_DIR/perfconfig"
export PERF_CONFIG=$BENCH_DIR/perfconfig

# kept OUT CMD...: OUT made by CMD (writing OUT.part) unless it is there
kept() {
	local out=$1
	shift
	[ -s "$out" ] && return 0
	echo "bench: recording $out (once; kept in $BENCH_DIR) ..." >&2
	rm -f "$out.part"
	"$@" >"$out.log" 2>&1 && [ -s "$out.part" ] && mv "$out.part" "$out" ||
		{ echo "bench: recording $out failed ($out.log)" >&2; return 1; }
}

# rec_dwarf OUT MS [loader options]: the sample core with --call-graph=dwarf,
# MS of CPU time per thread (4000 Hz: about 33 MB a CPU second)
rec_dwarf() {
	local out=$1 ms=$2
	shift 2
	kept "$out" perf record -q -e cpu-clock -k mono -F 4000 --call-graph=dwarf -o "$out.part" -- \
		"$B/tests/loader" "$@" --ms "$ms" "$SAMPLE"
}

# rec_plain OUT MS: the sample core, no call graph
rec_plain() {
	kept "$1" perf record -q -e cpu-clock -k mono -F 4000 -o "$1.part" -- \
		"$B/tests/loader" --ms "$2" "$SAMPLE"
}

# rec_offcpu OUT LOOPS: the off-CPU form of perf 6.1 (cpu-clock, sched_switch
# with call chains, switch events): tests/fixtures/offcpu.S's loader naps and
# burns while perf bench sched pipe switches LOOPS times
rec_offcpu() {
	local out=$1 loops=$2 core=$BENCH_DIR/offcpu.cwasm
	if [ ! -s "$core" ]; then
		(WORK=$BENCH_DIR; . "$ROOT/tests/e2e/lib/asmcore.sh"; asm_core "$ROOT/tests/fixtures/offcpu.S" "$core") \
			>/dev/null || return 1
	fi
	kept "$out" perf record -q -k mono -F 4000 -e cpu-clock -e sched:sched_switch -g \
		--switch-events -o "$out.part" -- sh -c "'$B/tests/loader' --wall --ms 600000 --mix offcpu:1 '$core' >/dev/null 2>&1 &
			perf bench sched pipe -l $loops >/dev/null; kill \$!; wait; true"
}

# ---- timing ---------------------------------------------------------------

# children's CPU seconds so far (user + sys) from bash's times, run in this
# shell (a command substitution's would be its own) into FILE
children_cpu() {
	times >"$1"
}
cpu_of() {
	gawk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/)
		printf "%.6f\n", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$1"
}

# timed NAME CMD...: one run of CMD (output dropped); its wall and CPU
# seconds appended to $BENCH_DIR/.t.NAME
timed() {
	local name=$1 t0 t1 c0 c1
	shift
	children_cpu "$BENCH_DIR/.times0"
	t0=$EPOCHREALTIME
	"$@" >/dev/null 2>&1
	t1=$EPOCHREALTIME
	children_cpu "$BENCH_DIR/.times1"
	c0=$(cpu_of "$BENCH_DIR/.times0")
	c1=$(cpu_of "$BENCH_DIR/.times1")
	gawk -v a="$t0" -v b="$t1" -v c="$c0" -v d="$c1" 'BEGIN { printf "%.6f %.6f\n", b - a, d - c }' \
		>>"$BENCH_DIR/.t.$name"
}

# clear_times NAME...: forget earlier runs
clear_times() {
	local c
	for c; do rm -f "$BENCH_DIR/.t.$c"; done
}

# stat_of NAME COL best|median: of the runs' wall (COL 1) or CPU (COL 2) seconds
stat_of() {
	sort -g -k"$2,$2" "$BENCH_DIR/.t.$1" | gawk -v c="$2" -v w="$3" '{ v[NR] = $c }
		END { if (w == "best") print v[1]; else print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}
