#!/usr/bin/env bash
# One class table, three routes: aotperf report --func (perf.data + .cwasm),
# aotperf annotate (stock perf annotate of the symbolized recording) and
# aotperf classify (perf annotate text, AT&T, no raw bytes) must agree on
# the fixture kernels, in the generator's real idioms; each kernel's static
# counts equal the classes its source is tagged with (expect.awk, not the
# classifier); the spill kernel comes out as frame traffic (no sidecar
# proves spills), the zero-extend kernel move-bound, the br_table kernel
# dispatch-bound, the bounds kernel bounds-check-bound.
. "$(dirname "$0")/lib/common.sh"

S=$FIX/sample.cwasm
record "$WORK/p.data" -- --ms 1500 "$S"
"$AOTPERF" inject -q --direct -i "$WORK/p.data" --cwasm "$S" -o "$WORK/jit.data" >/dev/null
check_eq "symbolized recording" "$?" 0

table() { # table JSON JQ_PATH_TO_CLASSES: "class samples static" lines
	jq -r "$2 | to_entries[] | \"\(.key) \(.value.samples) \(.value.static_instructions)\"" "$1" | sort
}
statics() { awk '{ print $1, $3 }' "$1"; }

for k in spill_heavy zext_heavy br_table_dispatch bounds_checked_mem; do
	"$AOTPERF" report -q -i "$WORK/p.data" --cwasm "$S" --func "$k" --json "$WORK/$k.json" >"$WORK/$k.txt"
	check_eq "$k: report --func exit status" "$?" 0
	n=$(jq -r '.classified_functions[0].local_func' "$WORK/$k.json")
	table "$WORK/$k.json" '.classified_functions[0].classes' >"$WORK/$k.report"
	check "$k: report --func has samples" test "$(jq '.classified_functions[0].samples' "$WORK/$k.json")" -gt 20
	check "$k: static counts == the classes its source is tagged with" diff -u \
		<(awk -v k="$k" '$1 == k { print $2, $3 }' "$B/classify/kernels.expect" | sort) \
		<(jq -r '.classified_functions[0].classes | to_entries[] | select(.value.static_instructions > 0) |
			"\(.key) \(.value.static_instructions)"' "$WORK/$k.json" | sort)

	"$AOTPERF" annotate -i "$WORK/jit.data" --json "$WORK/$k.ann.json" "local_func_$n" >/dev/null 2>&1
	check_eq "$k: annotate local_func_$n exit status" "$?" 0
	table "$WORK/$k.ann.json" '.functions[0].classes' >"$WORK/$k.annotate"
	if [ "$k" = br_table_dispatch ]; then
		# perf annotate places samples on objdump's lines, and objdump
		# decodes the embedded jump table as code, so samples of the
		# first instructions after it land on a table line: compare what
		# is placed exactly (dispatch, bounds checks, statics, total)
		for c in dispatch bounds_check vmctx_reload; do
			check_eq "$k: annotate $c == report --func $c" \
				"$(grep "^$c " "$WORK/$k.annotate")" "$(grep "^$c " "$WORK/$k.report")"
		done
		check_eq "$k: annotate static counts == report --func static counts" \
			"$(statics "$WORK/$k.annotate")" "$(statics "$WORK/$k.report")"
	else
		check "$k: annotate (perf annotate --asm-raw) table == report --func table" \
			diff -u "$WORK/$k.report" "$WORK/$k.annotate"
	fi

	perf annotate -i "$WORK/jit.data" --stdio -n "local_func_$n" 2>/dev/null >"$WORK/$k.att"
	"$AOTPERF" classify --json "$WORK/$k.cls.json" "$WORK/$k.att" >/dev/null 2>&1
	check_eq "$k: classify of AT&T text exit status" "$?" 0
	table "$WORK/$k.cls.json" '.functions[0].classes' >"$WORK/$k.classify"
	if [ "$k" = br_table_dispatch ]; then
		# text without bytes: objdump's line across the inline table's end
		# hides where code resumes, so the table is approximate and says so
		check "$k: classify (text) finds the dispatch" \
			awk '$1 == "dispatch" && $3 > 0 { f = 1 } END { exit !f }' "$WORK/$k.classify"
		check_eq "$k: classify (text) says it is approximate" \
			"$(jq -r '.functions[0].approximate' "$WORK/$k.cls.json")" true
		check_eq "$k: classify (text) dispatch and bounds rows == report --func" \
			"$(grep -E '^(dispatch|bounds_check|linear_mem) ' "$WORK/$k.classify")" \
			"$(grep -E '^(dispatch|bounds_check|linear_mem) ' "$WORK/$k.report")"
	else
		check "$k: classify (AT&T text) table == report --func table" \
			diff -u "$WORK/$k.report" "$WORK/$k.classify"
		check_eq "$k: classify (text) is exact (not flagged approximate)" \
			"$(jq -r '.functions[0].approximate' "$WORK/$k.cls.json")" false
	fi
done
check_eq "spill_heavy is frame traffic (no proven spills)" \
	"$(jq -r .classified_functions[0].levers.verdict "$WORK/spill_heavy.json")" "frame traffic"
check_eq "zext_heavy is move-bound" \
	"$(jq -r .classified_functions[0].levers.verdict "$WORK/zext_heavy.json")" move-bound
check_eq "br_table_dispatch is dispatch-bound" \
	"$(jq -r .classified_functions[0].levers.verdict "$WORK/br_table_dispatch.json")" dispatch-bound
check_eq "bounds_checked_mem is bounds-check-bound" \
	"$(jq -r .classified_functions[0].levers.verdict "$WORK/bounds_checked_mem.json")" bounds-check-bound
check_eq "the roles come from the code: vmctx parked in [rbp-0x8], reloaded into r10" \
	"$(jq -r '.classified_functions[0].roles | "\(.abi) \(.abi_source) \(.vmctx_param) \(.vmctx_slot) \(.vmctx_registers | join(","))"' \
		"$WORK/zext_heavy.json")" "sysv prologue rdi [rbp-0x8] r10"

# --hot 2 picks the two hottest functions of the report
"$AOTPERF" report -q -i "$WORK/p.data" --cwasm "$S" --hot 2 --json "$WORK/hot.json" >/dev/null
check_eq "--hot 2 classifies the two hottest" \
	"$(jq -c '[.classified_functions[].local_func]' "$WORK/hot.json")" \
	"$(jq -c '[.top_functions[0:2][].local_func]' "$WORK/hot.json")"
# the upstream helper's JSON keys are all there
check "classified_function has the helper's keys (docs/helper-interface.md)" jq -e >/dev/null '.classified_function |
	has("local_func") and has("samples") and has("percent_of_run") and
	has("instruction_count") and has("classes") and has("hottest_instructions") and
	(.hottest_instructions[0] | has("samples") and has("percent_of_run") and
	 has("address") and has("instruction"))' "$WORK/hot.json"

"$AOTPERF" report -q -i "$WORK/p.data" --cwasm "$S" --func no_such_function >/dev/null 2>"$WORK/nf.err"
check_eq "--func of an unknown function exits 2" "$?" 2
printf 'this is not perf annotate output\n' >"$WORK/garbage.txt"
"$AOTPERF" classify "$WORK/garbage.txt" >/dev/null 2>"$WORK/g.err"
check_eq "classify of garbage exits 2" "$?" 2
check "classify of garbage names the file" grep -q garbage.txt "$WORK/g.err"
finish
