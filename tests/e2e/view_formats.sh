#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# One view, every format, the same numbers (docs/views.md): the call graph
# of a -g and a --call-graph=dwarf recording (--children with --top and
# --percent-limit, --callers, --callees) and the off-CPU view (switch form,
# one recording with -F, one with -c N: samples without a period) rendered
# as text at 80 columns, JSON, Markdown and the HTML page by one report run
# each; tests/e2e/lib/view_formats.py checks that the text's rows are the
# JSON's and the Markdown's cell by cell and that the page's document
# holds the JSON's members; the numbers against perf script: self samples
# per wasm function (tests/e2e/ref_attr.awk), inclusive samples from perf's
# own unwinding after inject --direct (tests/e2e/folded_perf.awk), on-CPU
# time per process = the periods of its cpu-clock samples summed.
# compare, spills and frames: the same checker from tests/e2e/engines_v8.sh,
# spills.sh and frame_attribution.sh, on the recordings those make.
#
#   tests/e2e/view_formats.sh BUILD_DIR
. "$(dirname "$0")/lib/common.sh"
. "$E2E/lib/asmcore.sh"
. "$E2E/lib/view_formats.sh"

SRC=$(cd "$E2E/../.." && pwd)
# report_all OUT ARGS...: text at 80 columns (OUT.txt), OUT.json, OUT.md, OUT.html
report_all() {
	local out=$1
	shift
	COLUMNS=80 "$AOTPERF" report -q "$@" --json "$out.json" --markdown "$out.md" \
		--html "$out.html" >"$out.txt" 2>"$out.err"
	check_eq "report $*: exit status" "$?" 0
	check "report $*: the text fits 80 columns" gawk 'length > 80 { exit 1 }' "$out.txt"
}

C=$WORK/calltree.cwasm
asm_core "$SRC/tests/fixtures/calltree.S" "$C"
check_eq "calltree: fixture built" "$?" 0
for mode in g dwarf; do
	D=$WORK/$mode.data
	if [ "$mode" = g ]; then
		record "$D" -g -- --ms 1000 --mix calltree "$C"
	else
		perf record -q -e cpu-clock:u -k mono -F 2000 --call-graph=dwarf,8192 -o "$D" -- \
			"$LOADER" --ms 1000 --mix calltree "$C" >"$D.log" 2>&1
	fi
	check_eq "$mode: perf record: exit status" "$?" 0
	reference "$D" "$C.syms" >"$WORK/$mode.ref"
	report_all "$WORK/$mode" -i "$D" --cwasm "$C" --children --top 6 --percent-limit 1 \
		--callers ct_leaf --callees ct_main
	extra=()
	if [ "$mode" = dwarf ]; then
		"$AOTPERF" inject -q --direct --names wasm -i "$D" --cwasm "$C" -o "$WORK/direct.data" \
			>/dev/null
		perf script -i "$WORK/direct.data" --no-inline -F ip,sym,symoff,dso 2>/dev/null |
			gawk -f "$E2E/folded_perf.awk" | grep -v vdso >"$WORK/perf.folded"
		extra=(folded="$WORK/perf.folded")
	fi
	formats callgraph "$mode" "$WORK/$mode.txt" "$WORK/$mode.json" "$WORK/$mode.md" \
		"$WORK/$mode.html" ref="$WORK/$mode.ref" "${extra[@]}"
done

# ---- off-CPU: the switch form, with -F and with -c ----
O=$WORK/oc.cwasm
asm_core "$SRC/tests/fixtures/offcpu.S" "$O"
check_eq "offcpu: fixture built" "$?" 0
"$AOTPERF" record --off-cpu -F 2000 --cwasm "$O" -o "$WORK/ocf.data" --perf-arg -N --no-inject -- \
	"$LOADER" --wall --ms 800 --mix offcpu:1 "$O" >"$WORK/ocf.out" 2>"$WORK/ocf.log"
check_eq "offcpu -F: aotperf record --off-cpu: exit status" "$?" 0
perf record -q -N -k mono -e cpu-clock -c 1001001 -e sched:sched_switch -g --switch-events \
	-o "$WORK/occ.data" -- "$LOADER" --wall --ms 800 --mix offcpu:1 "$O" >"$WORK/occ.log" 2>&1
check_eq "offcpu -c 1001001: perf record: exit status" "$?" 0
for r in ocf occ; do
	report_all "$WORK/$r" -i "$WORK/$r.data" --cwasm "$O" --top 3
	perf script -i "$WORK/$r.data" -F pid,period,event 2>/dev/null |
		gawk '$3 == "cpu-clock:" { print $1, $2 }' >"$WORK/$r.periods"
	check "$r: perf script saw cpu-clock samples" test -s "$WORK/$r.periods"
	formats offcpu "$r" "$WORK/$r.txt" "$WORK/$r.json" "$WORK/$r.md" "$WORK/$r.html" \
		periods="$WORK/$r.periods" top=3
done
report_all "$WORK/och" -i "$WORK/ocf.data" --cwasm "$O" --children --cpu-state off --top 4
formats children_time "--cpu-state off" "$WORK/och.txt" "$WORK/och.json" "$WORK/och.md"
finish
