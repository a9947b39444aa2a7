#!/usr/bin/env bash
# aotperf report against the pipeline it replaces (the seed helper's
# `perf script --show-mmap-events` + `perf report -g none -n
# --sort=dso,symbol`) and against reading the file with cat, on the same
# >= 40 MB recording with dwarf call graphs. Best of 3 wall-clock runs each.
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

best() { # best-of-3 seconds of a shell command
	local b=
	for _ in 1 2 3; do
		local s e
		s=$(date +%s.%N)
		bash -c "$1" >/dev/null 2>&1
		e=$(date +%s.%N)
		b=$(awk -v b="$b" -v d="$(awk -v s="$s" -v e="$e" 'BEGIN{print e-s}')" \
			'BEGIN{ if (b == "" || d < b) print d; else print b }')
	done
	echo "$b"
}
cat "$data" >/dev/null # warm the page cache
t_cat=$(best "cat '$data' >/dev/null")
t_aot=$(best "'$B/aotperf' report -q -i '$data' --cwasm '$S'")
t_pipe=$(best "perf script -i '$data' --show-mmap-events >/dev/null; perf report -i '$data' -g none -n --sort=dso,symbol --stdio >/dev/null")
printf 'recording: %s, %.1f MB, %s samples\n' "$data" "$(awk -v s="$size" 'BEGIN{print s/1048576}')" \
	"$("$B/aotperf" report -q -i "$data" --cwasm "$S" | awk '/total samples/{print $3}')"
printf '%-48s %8.3f s\n' "cat file >/dev/null" "$t_cat"
printf '%-48s %8.3f s\n' "aotperf report" "$t_aot"
printf '%-48s %8.3f s\n' "perf script --show-mmap-events + perf report" "$t_pipe"
awk -v a="$t_aot" -v p="$t_pipe" -v c="$t_cat" 'BEGIN {
	printf "ratio: pipeline / aotperf = %.1fx faster\n", p / a
	printf "ratio: aotperf / cat      = %.2fx the time of reading the file\n", a / c
}'
