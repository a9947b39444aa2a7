#!/usr/bin/env bash
# aotperf report against the pipeline it replaces (docs/workflow.md, step 5:
# `perf script --show-mmap-events` + `perf report -g none -n
# --sort=dso,symbol`) and against reading the file with cat, on the same
# >= 40 MB recording with dwarf call graphs. Best of 5 wall-clock runs each.
# Then the call graph: `aotperf report --children --folded` on a >= 500 MB
# --call-graph=dwarf recording against cat and against `perf report
# --children` on the same samples after `aotperf inject --direct` (best
# of 3; perf's once), and its peak memory against the small file's.
set -euo pipefail
B=${1:-build}
out=$B/bench
mkdir -p "$out"
data=$out/dwarf.data
S=$B/fixtures/sample.cwasm
# record_at_least FILE MB MS [loader options]: a --call-graph=dwarf recording
# of at least MB megabytes (perf throttles on a busy machine: the run is
# doubled until it is long enough, up to 4 times)
record_at_least() {
	local f=$1 mb=$2 ms=$3 try
	shift 3
	for try in 1 2 3 4; do
		[ -f "$f" ] && [ "$(stat -c %s "$f")" -ge $((mb << 20)) ] && return 0
		echo "recording $f (--call-graph=dwarf, $((ms / 1000)) s) ..."
		perf record -q -e cpu-clock -k mono -F 4000 --call-graph=dwarf -o "$f" -- \
			"$B/tests/loader" "$@" --ms "$ms" "$S" >/dev/null 2>&1
		ms=$((ms * 2))
	done
}
record_at_least "$data" 40 2500
size=$(stat -c %s "$data")
[ "$size" -ge $((40 << 20)) ] || { echo "bench: $data is only $size bytes, need 40 MB" >&2; exit 1; }

best() { # best-of-5 wall-clock seconds of a command (no extra shell in between)
	local b="" t
	for _ in 1 2 3 4 5; do
		t=$( { TIMEFORMAT=%R; time "$@" >/dev/null 2>&1; } 2>&1 )
		b=$(awk -v b="$b" -v t="$t" 'BEGIN { print (b == "" || t < b) ? t : b }')
	done
	echo "$b"
}
read_file() { cat "$data" >/dev/null; }
aotperf_report() { "$B/aotperf" report -q -i "$data" --cwasm "$S"; }
seed_pipeline() {
	perf script -i "$data" --show-mmap-events >/dev/null
	perf report -i "$data" -g none -n --sort=dso,symbol --stdio >/dev/null
}
read_file # warm the page cache
t_cat=$(best read_file)
t_aot=$(best aotperf_report)
t_pipe=$(best seed_pipeline)
printf 'recording: %s, %.1f MB, %s samples\n' "$data" "$(awk -v s="$size" 'BEGIN{print s/1048576}')" \
	"$("$B/aotperf" report -q -i "$data" --cwasm "$S" | awk '/total samples/{print $3}')"
printf '%-48s %8.3f s\n' "cat file >/dev/null" "$t_cat"
printf '%-48s %8.3f s\n' "aotperf report" "$t_aot"
printf '%-48s %8.3f s\n' "perf script --show-mmap-events + perf report" "$t_pipe"
awk -v a="$t_aot" -v p="$t_pipe" -v c="$t_cat" 'BEGIN {
	printf "ratio: pipeline / aotperf = %.1fx faster\n", p / a
	printf "ratio: aotperf / cat      = %.2fx the time of reading the file\n", a / c
}'

# ---- the call graph on >= 500 MB ----
big=$out/callgraph.data
record_at_least "$big" 500 30000 --threads 2
bsize=$(stat -c %s "$big")
[ "$bsize" -ge $((500 << 20)) ] || { echo "bench: $big is only $bsize bytes, need 500 MB" >&2; exit 1; }
[ -f "$out/callgraph.jit.data" ] ||
	"$B/aotperf" inject -q --direct -i "$big" --cwasm "$S" -o "$out/callgraph.jit.data" >/dev/null
best3() { # best-of-3 "wall cpu" seconds (cpu: user + sys; the VM is shared)
	local b="" t
	for _ in 1 2 3; do
		t=$(/usr/bin/time -f '%e %U %S' "$@" 2>&1 >/dev/null | tail -n1 |
			awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }')
		b=$(echo "$b|$t" | awk -F'|' '{ split($1, x, " "); split($2, y, " ")
			if ($1 == "") print $2; else printf "%.3f %.3f\n", (y[1] < x[1] ? y[1] : x[1]),
			(y[2] < x[2] ? y[2] : x[2]) }')
	done
	echo "$b"
}
rss() { # peak resident KB of aotperf report --children on FILE
	/usr/bin/time -f %M "$B/aotperf" report -q -i "$1" --cwasm "$S" --children \
		--folded "$out/rss.folded" 2>&1 >/dev/null | tail -n1
}
cat "$big" >/dev/null
c_cat=$(best3 cat "$big")
c_aot=$(best3 "$B/aotperf" report -q -i "$big" --cwasm "$S" --children --folded "$out/cg.folded")
c_perf=$(/usr/bin/time -f '%e %U %S' perf report -i "$out/callgraph.jit.data" --children --stdio \
	--sort sym 2>&1 >/dev/null | tail -n1 | awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }')
printf '\ncall graph: %s, %.1f MB, %s samples (wall s, cpu s)\n' "$big" \
	"$(awk -v s="$bsize" 'BEGIN{print s/1048576}')" \
	"$("$B/aotperf" report -q -i "$big" --cwasm "$S" | awk '/total samples/{print $3}')"
printf '%-48s %8s %8s\n' "cat file >/dev/null" $c_cat
printf '%-48s %8s %8s\n' "aotperf report --children --folded" $c_aot
printf '%-48s %8s %8s\n' "perf report --children (after inject --direct)" $c_perf
printf '%-48s %8s KB\n' "aotperf peak RSS, $(awk -v s="$size" 'BEGIN{printf "%.0f", s/1048576}') MB file" "$(rss "$data")"
printf '%-48s %8s KB\n' "aotperf peak RSS, $(awk -v s="$bsize" 'BEGIN{printf "%.0f", s/1048576}') MB file" "$(rss "$big")"
echo "$c_aot $c_perf $c_cat" | awk '{
	printf "ratio: perf report --children / aotperf = %.1fx faster (wall), %.1fx (cpu)\n", $3 / $1, $4 / $2
	printf "ratio: aotperf --children / cat          = %.2fx (wall), %.2fx (cpu) the time of reading the file\n", $1 / $5, $2 / $6
}'
