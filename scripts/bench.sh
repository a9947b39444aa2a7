#!/usr/bin/env bash
# aotperf report against the pipeline it replaces (the seed helper's
# `perf script --show-mmap-events` + `perf report -g none -n
# --sort=dso,symbol`) and against reading the file with cat, on the same
# >= 40 MB recording with dwarf call graphs. Best of 5 wall-clock runs each.
set -euo pipefail
B=${1:-build}
out=$B/bench
mkdir -p "$out"
data=$out/dwarf.data
S=$B/fixtures/sample.cwasm
if [ ! -f "$data" ] || [ "$(stat -c %s "$data")" -lt $((40 << 20)) ]; then
	echo "recording $data (--call-graph=dwarf) ..."
	perf record -q -e cpu-clock -k mono -F 4000 --call-graph=dwarf -o "$data" -- \
		"$B/tests/loader" --ms 2500 "$S" >/dev/null 2>&1
fi
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
