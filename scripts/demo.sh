#!/usr/bin/env bash
# The main job end to end on the bundled sample: a WAMR-like loader maps
# sample.cwasm (mmap RW, copy, mprotect RX) and runs its hot kernels under a
# real `perf record`; stock perf sees one [JIT] bucket, aotperf names it.
set -euo pipefail
B=${1:-build}
out=$B/demo
mkdir -p "$out"
echo "== perf record (cpu-clock, -k mono) of the loader running $B/fixtures/sample.cwasm"
perf record -q -e cpu-clock -k mono -F 999 -g -o "$out/perf.data" -- \
	"$B/tests/loader" --ms 2000 "$B/fixtures/sample.cwasm"
echo
echo "== what stock perf shows: perf report --sort dso"
perf report -i "$out/perf.data" --stdio --no-children --sort dso -g none 2>/dev/null | grep -v '^#' | grep -v '^$' | head -5
echo
echo "== aotperf report (also as HTML, Markdown and pprof)"
"$B/aotperf" report -i "$out/perf.data" --cwasm "$B/fixtures/sample.cwasm" --top 10 \
	--json "$out/report.json" --html "$out/report.html" --markdown "$out/report.md" \
	--pprof "$out/profile.pb.gz"
echo
echo "== stock perf, after aotperf inject: perf report -i perf.jit.data --sort sym"
"$B/aotperf" inject -q -i "$out/perf.data" --cwasm "$B/fixtures/sample.cwasm" -o "$out/perf.jit.data"
perf report -i "$out/perf.jit.data" --stdio --no-children --sort sym -g none 2>/dev/null |
	grep -v '^#' | grep -v '^$' | head -6
echo
echo "== the hottest function's instruction mix: aotperf report --hot 1"
"$B/aotperf" report -q -i "$out/perf.data" --cwasm "$B/fixtures/sample.cwasm" --top 0 --hot 1 |
	sed -n '/^function/,$p'
echo
echo "The outputs, in $out:"
echo "  report.html    the HTML report: open it in a browser (one file, no network)"
echo "  report.md      the report as Markdown tables, to paste into an issue"
echo "  profile.pb.gz  pprof: go tool pprof, Grafana Pyroscope, Parca"
echo "  report.json    the JSON report"
echo "  perf.jit.data  the symbolized recording for perf report and perf annotate"
