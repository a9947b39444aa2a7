#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# aotperf report's speed against what a user would otherwise run or pay,
# one line per case (issue 32's goals), wall clock, ratios:
#
#   report-dwarf/cat        report of a ~785 MB --call-graph=dwarf recording
#                           against cat FILE >/dev/null             <= 1.2
#   children-dwarf/cat      report --children, same file, against cat  <= 2
#   pipeline/report         the pipeline report replaces (perf script
#                           --show-mmap-events + perf report -g none -n
#                           --sort=dso,symbol) against report, ~42 MB
#                           dwarf recording: times faster            >= 20
#   perf-report/report      perf report --stdio against report, a
#                           48-94 KB recording: times faster         >= 5
#   report-small-ms         that report's milliseconds                <= 20
#   offcpu/cat              report (the off-CPU view) of a ~950 MB switch
#                           recording against cat                     <= 8
#   rss-dwarf/rss-42        (full run) peak memory of report on the big
#                           dwarf recording against the 42 MB one     <= 1.5
#
# Each case alternates its commands RUNS times (3 with --quick, else 7),
# page cache warm; the ratio is of the best wall times (the median's is
# beside it in the details, and the CPU seconds, user + sys, steadier on a
# shared machine). The recordings are made once and kept in BUILD/bench
# (a first run records for a few minutes; perf's build-id cache for them,
# with its copy of kallsyms, is BUILD/bench/debug). Results go to
# BUILD/bench/results.txt, which scripts/bench-table.sh turns into the
# README's table.
#
#   scripts/bench.sh BUILD [--quick]
set -euo pipefail
B=${1:-build}
quick=${2:-}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/scripts/bench-lib.sh"
runs=7
[ "$quick" = --quick ] && runs=3
start=$EPOCHREALTIME
load=$(cut -d' ' -f1-3 /proc/loadavg)

big=$BENCH_DIR/dwarf-big.data
mid=$BENCH_DIR/dwarf-42.data
small=$BENCH_DIR/plain-small.data
sw=$BENCH_DIR/switch-big.data
core_oc=$BENCH_DIR/offcpu.cwasm

# passes FILE CORE: the reads report takes of FILE (docs/formats-perf.md, "One
# read per run": 2 when an address-space record came after samples it holds)
passes() {
	printf 'read in %s pass(es)' "$("$B/aotperf" report -q -i "$1" --cwasm "$2" --json - 2>/dev/null |
		jq -r '.passes')"
}
mb() { gawk -v s="$(stat -c %s "$1")" 'BEGIN { printf "%.0f MB", s / 1048576 }'; }
kb() { gawk -v s="$(stat -c %s "$1")" 'BEGIN { printf "%.0f KB", s / 1024 }'; }

# the commands of the cases
read_big() { cat "$big"; }
report_big() { "$B/aotperf" report -q -i "$big" --cwasm "$SAMPLE"; }
children_big() { "$B/aotperf" report -q -i "$big" --cwasm "$SAMPLE" --children; }
report_mid() { "$B/aotperf" report -q -i "$mid" --cwasm "$SAMPLE"; }
pipeline_mid() {
	perf script -i "$mid" --show-mmap-events >/dev/null 2>&1
	perf report -i "$mid" -g none -n --sort=dso,symbol --stdio
}
report_small() { "$B/aotperf" report -q -i "$small" --cwasm "$SAMPLE"; }
perf_small() { perf report -i "$small" --stdio; }
read_sw() { cat "$sw"; }
report_sw() { "$B/aotperf" report -q -i "$sw" --cwasm "$core_oc"; }

# alternate RUNS NAME...: each command once a round, RUNS rounds
alternate() {
	local n=$1 c
	shift
	clear_times "$@"
	for _ in $(seq "$n"); do
		for c; do timed "$c" "$c"; done
	done
}

results=$BENCH_DIR/results.txt
: >"$results.part"
met=0 cases=0
# line NAME NUM DEN GOAL_OP GOAL DETAIL: NAME's ratio of NUM's and DEN's best walls
line() {
	local name=$1 num=$2 den=$3 op=$4 goal=$5 detail=$6
	local r rm rc ok
	r=$(gawk -v a="$(stat_of "$num" 1 best)" -v b="$(stat_of "$den" 1 best)" 'BEGIN { printf "%.2f", a / b }')
	rm=$(gawk -v a="$(stat_of "$num" 1 median)" -v b="$(stat_of "$den" 1 median)" 'BEGIN { printf "%.2f", a / b }')
	rc=$(gawk -v a="$(stat_of "$num" 2 best)" -v b="$(stat_of "$den" 2 best)" \
		'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
	ok=$(gawk -v r="$r" -v g="$goal" -v op="$op" 'BEGIN { print (op == "<=" ? r <= g : r >= g) ? "met" : "MISSED" }')
	cases=$((cases + 1))
	[ "$ok" = met ] && met=$((met + 1))
	printf '%-20s %7s  (goal %s %s)\n' "$name" "$r" "$op" "$goal"
	printf '  median %s, by CPU %s; %s: %s %.3f s, %s %.3f s (best wall)\n' "$rm" "$rc" "$detail" \
		"$num" "$(stat_of "$num" 1 best)" "$den" "$(stat_of "$den" 1 best)" >&2
	printf 'case %s %s %s %s %s %s %s\n' "$name" "$r" "$rm" "$rc" "$op" "$goal" "$ok" >>"$results.part"
	printf 'detail %s %s\n' "$name" "$detail" >>"$results.part"
}
# line_ms NAME CMD GOAL DETAIL: NAME's best wall in milliseconds
line_ms() {
	local ms ok
	ms=$(gawk -v a="$(stat_of "$2" 1 best)" 'BEGIN { printf "%.1f", a * 1000 }')
	ok=$(gawk -v r="$ms" -v g="$3" 'BEGIN { print r <= g ? "met" : "MISSED" }')
	cases=$((cases + 1))
	[ "$ok" = met ] && met=$((met + 1))
	printf '%-20s %7s  (goal <= %s)\n' "$1" "$ms" "$3"
	printf 'case %s %s %s %s <= %s %s\n' "$1" "$ms" \
		"$(gawk -v a="$(stat_of "$2" 1 median)" 'BEGIN { printf "%.1f", a * 1000 }')" \
		"$(gawk -v a="$(stat_of "$2" 2 best)" 'BEGIN { printf "%.1f", a * 1000 }')" "$3" "$ok" \
		>>"$results.part"
	printf 'detail %s %s\n' "$1" "$4" >>"$results.part"
}

# each case's recording made (first run only) and read once (the page
# cache warm) just before it: a first run cut short still prints the
# cases before the cut
rec_dwarf "$big" 11800 --threads 2
cat "$big" >/dev/null
alternate "$runs" read_big report_big children_big
line report-dwarf/cat report_big read_big "<=" 1.2 "--call-graph=dwarf recording, $(mb "$big"), $(passes "$big" "$SAMPLE")"
line children-dwarf/cat children_big read_big "<=" 2 "report --children, $(mb "$big")"
rec_dwarf "$mid" 1250
cat "$mid" >/dev/null
alternate "$runs" pipeline_mid report_mid
line pipeline/report pipeline_mid report_mid ">=" 20 "--call-graph=dwarf recording, $(mb "$mid")"
rec_plain "$small" 400
cat "$small" >/dev/null
alternate "$((runs * 3))" perf_small report_small
line perf-report/report perf_small report_small ">=" 5 "recording without call graph, $(kb "$small")"
line_ms report-small-ms report_small 20 "$(kb "$small")"
rec_offcpu "$sw" 6000000
cat "$sw" >/dev/null
alternate "$runs" read_sw report_sw
line offcpu/cat report_sw read_sw "<=" 8 "switch recording (off-CPU view), $(mb "$sw"), $(passes "$sw" "$core_oc")"

if [ "$quick" != --quick ]; then
	rss() { /usr/bin/time -f %M "$B/aotperf" report -q -i "$1" --cwasm "$SAMPLE" --children 2>&1 >/dev/null |
		tail -n1; }
	r_big=$(rss "$big") r_mid=$(rss "$mid")
	r=$(gawk -v a="$r_big" -v b="$r_mid" 'BEGIN { printf "%.2f", a / b }')
	ok=$(gawk -v r="$r" 'BEGIN { print r <= 1.5 ? "met" : "MISSED" }')
	cases=$((cases + 1))
	[ "$ok" = met ] && met=$((met + 1))
	printf '%-20s %7s  (goal <= 1.5)\n' rss-dwarf/rss-42 "$r"
	printf '  report --children peak RSS: %s KB (%s), %s KB (%s)\n' "$r_big" "$(mb "$big")" "$r_mid" \
		"$(mb "$mid")" >&2
	printf 'case rss-dwarf/rss-42 %s %s %s <= 1.5 %s\n' "$r" "$r" "$r" "$ok" >>"$results.part"
	printf 'detail rss-dwarf/rss-42 peak RSS of report --children, %s KB against %s KB\n' "$r_big" \
		"$r_mid" >>"$results.part"
fi
{
	echo "date $(date -u +%Y-%m-%d)"
	echo "machine $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), Linux $(uname -r)"
	echo "load $load"
	echo "runs $runs"
	echo "mode ${quick:-full}"
	echo "commit $(git -C "$ROOT" describe --always --dirty 2>/dev/null || echo unknown)"
	cat "$results.part"
} >"$results"
rm -f "$results.part"
gawk -v s="$start" -v e="$EPOCHREALTIME" -v m="$met" -v c="$cases" -v l="$load" 'BEGIN {
	printf "goals met: %d of %d; %.0f s; load average before: %s\n", m, c, e - s, l }'
