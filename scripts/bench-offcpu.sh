#!/usr/bin/env bash
# The off-CPU view's read speed (docs/offcpu.md, "Speed and memory"):
# `aotperf report` on a >= 900 MB recording with switch events (perf record
# -e cpu-clock -e sched:sched_switch -g --switch-events of the test loader's
# tests/fixtures/offcpu.S next to `perf bench sched pipe`, the form record
# --off-cpu takes with perf 6.1) against cat of the same file, best of 3
# wall and CPU (user + sys) seconds, page cache warm, and its peak memory
# against a small recording's. The target: within 2x of cat.
#
#   scripts/bench-offcpu.sh BUILD
set -euo pipefail
B=${1:-build}
out=$B/bench
mkdir -p "$out"
root=$(cd "$(dirname "$0")/.." && pwd)
C=$out/offcpu.cwasm
. "$root/tests/e2e/lib/asmcore.sh"
[ -f "$C" ] || asm_core "$root/tests/fixtures/offcpu.S" "$C" >/dev/null
data=$out/offcpu.data
small=$out/offcpu-small.data
rec() { # rec FILE LOOPS: the loader naps and burns while perf bench switches LOOPS times
	perf record -q -N -k mono -F 4000 -e cpu-clock -e sched:sched_switch -g --switch-events \
		-o "$1" -- sh -c "'$B/tests/loader' --wall --ms 600000 --mix offcpu:1 '$C' >/dev/null 2>&1 &
			perf bench sched pipe -l $2 >/dev/null; kill \$!; wait" >/dev/null 2>&1 || true
}
if [ ! -f "$data" ] || [ "$(stat -c %s "$data")" -lt $((900 << 20)) ]; then
	echo "recording $data (switch events; a few minutes) ..."
	rec "$data" 6000000
fi
[ -f "$small" ] || rec "$small" 100000
size=$(stat -c %s "$data")
[ "$size" -ge $((900 << 20)) ] || { echo "bench-offcpu: $data is only $size bytes, need 900 MB" >&2; exit 1; }

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
rss() { /usr/bin/time -f %M "$B/aotperf" report -q -i "$1" --cwasm "$C" 2>&1 >/dev/null | tail -n1; }
cat "$data" >/dev/null
t_cat=$(best3 cat "$data")
t_aot=$(best3 "$B/aotperf" report -q -i "$data" --cwasm "$C")
t_no=$(best3 "$B/aotperf" report -q -i "$data" --cwasm "$C" --off-cpu=no)
printf '\noff-CPU view: %s, %.1f MB, %s switch intervals (wall s, cpu s)\n' "$data" \
	"$(awk -v s="$size" 'BEGIN{print s/1048576}')" \
	"$("$B/aotperf" report -q -i "$data" --cwasm "$C" --json - | jq '.off_cpu.intervals')"
printf '%-48s %8s %8s\n' "cat file >/dev/null" $t_cat
printf '%-48s %8s %8s\n' "aotperf report (off-CPU view)" $t_aot
printf '%-48s %8s %8s\n' "aotperf report --off-cpu=no" $t_no
printf '%-48s %8s KB\n' "aotperf peak RSS, small recording" "$(rss "$small")"
printf '%-48s %8s KB\n' "aotperf peak RSS, $(awk -v s="$size" 'BEGIN{printf "%.0f", s/1048576}') MB recording" "$(rss "$data")"
echo "$t_aot $t_cat" | awk '{
	printf "ratio: aotperf report (off-CPU) / cat = %.2fx (wall), %.2fx (cpu) the time of reading the file (target: 2x)\n", $1 / $3, $2 / $4
}'
