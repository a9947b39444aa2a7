#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Registers pinned module-wide (rbx = vmctx, r15 = memory base, set by the
# entry trampoline and never loaded by the kernel; tests/fixtures/pinned.S)
# and a br_table whose jump table sits after the function's ret, recorded
# with real perf through the loader. The kernel's static counts equal the
# classes its source is tagged with (expect.awk, by hand, not the
# classifier); its samples equal perf script's (ref_attr.awk); report
# --func, annotate (N, local_func_N, the wasm name with --cwasm; the
# default recording perf.jit.data) and classify of perf's AT&T and Intel
# text without bytes give one table; an unsymbolized recording and a wasm
# name without the core are refused in one line.
. "$(dirname "$0")/lib/common.sh"

export HOME=$WORK/home	# perf's build-id cache: never the user's ~/.debug
mkdir -p "$HOME"
P=$FIX/pinned.cwasm
record "$WORK/p.data" -- --ms 1500 --mix pinned_kernel:1 "$P"
check_eq "recorded" "$?" 0

rows() { sed -n '/^  class /,/^  total /{/^  class /d;p}' | awk '{ print $1, $2, $NF }'; }

"$AOTPERF" report -q -i "$WORK/p.data" --cwasm "$P" --func pinned_kernel \
	--json "$WORK/r.json" >"$WORK/r.txt"
check_eq "report --func exit status" "$?" 0
check "static counts == the classes pinned.S is tagged with" diff -u \
	<(awk '$1 == "pinned_kernel" { print $2, $3 }' "$FIX/pinned.expect" | sort) \
	<(jq -r '.classified_functions[0].classes | to_entries[] | select(.value.static_instructions > 0) |
		"\(.key) \(.value.static_instructions)"' "$WORK/r.json" | sort)
check_eq "roles: rbx and r15 pinned, found from the code" \
	"$(jq -r '.classified_functions[0].roles | "\(.pinned_vmctx) \(.pinned_membase)"' "$WORK/r.json")" \
	"rbx r15"
check "roles line says pinned" grep -q 'vmctx pinned rbx; membase pinned r15' "$WORK/r.txt"
check_eq "function samples == perf script's" \
	"$(jq -r '.classified_functions[0].samples' "$WORK/r.json")" \
	"$(reference "$WORK/p.data" "$FIX/pinned.cwasm.syms" | awk '$1 == "FUNC" && $2 == 0 { print $3 }')"
check "the kernel has samples in its bounds checks" \
	test "$(jq '.classified_functions[0].classes.bounds_check.samples' "$WORK/r.json")" -gt 0
check "the jump table after the ret is 3 entries of data, no call" \
	test "$(jq -c '[.classified_functions[0].classes | .data.static_instructions, .call_direct.static_instructions, .call_indirect.static_instructions]' "$WORK/r.json")" = "[3,0,0]"
# --roles still overrides: membase pinned by hand to another register
"$AOTPERF" report -q -i "$WORK/p.data" --cwasm "$P" --func pinned_kernel --roles membase=r14 \
	--json "$WORK/o.json" >/dev/null
check_eq "--roles membase=r14: no inferred memory base, no linear_mem" \
	"$(jq -r '.classified_functions[0] | "\(.roles.pinned_membase) \(.classes.linear_mem.static_instructions)"' "$WORK/o.json")" \
	"null 0"
rows <"$WORK/r.txt" >"$WORK/r.rows"

# annotate: the injected recording, by default when it is there
mkdir -p "$WORK/d"
cp "$WORK/p.data" "$WORK/d/perf.data"
"$AOTPERF" inject -q --direct -i "$WORK/d/perf.data" --cwasm "$P" -o "$WORK/d/perf.jit.data" >/dev/null
check_eq "inject" "$?" 0
for spec in 0 local_func_0; do
	(cd "$WORK/d" && "$AOTPERF" annotate "$spec") >"$WORK/a-$spec.txt" 2>"$WORK/a-$spec.err"
	check_eq "annotate $spec (no -i) exit status" "$?" 0
	check "annotate $spec read perf.jit.data" grep -q '^aotperf annotate: perf.jit.data local_func_0' \
		"$WORK/a-$spec.txt"
	check "annotate $spec table == report --func table" diff -u "$WORK/r.rows" \
		<(rows <"$WORK/a-$spec.txt")
done
(cd "$WORK/d" && "$AOTPERF" annotate --cwasm "$P" pinned_kernel) >"$WORK/a-name.txt" 2>&1
check_eq "annotate --cwasm F pinned_kernel exit status" "$?" 0
check "annotate of the wasm name table == report --func table" diff -u "$WORK/r.rows" \
	<(rows <"$WORK/a-name.txt")
(cd "$WORK/d" && "$AOTPERF" annotate pinned_kernel) >"$WORK/n.out" 2>"$WORK/n.err"
check_eq "a wasm name without the core: exit 2, nothing on stdout" "$?:$(wc -c <"$WORK/n.out")" "2:0"
check "a wasm name without the core: says to give N or the core" \
	grep -q "no symbol 'pinned_kernel'; its wasm functions are named local_func_N" "$WORK/n.err"
"$AOTPERF" annotate -i "$WORK/d/perf.data" 0 >"$WORK/u.out" 2>"$WORK/u.err"
check_eq "unsymbolized recording: exit 2" "$?" 2
check_eq "unsymbolized recording: one line saying what to run" "$(wc -l <"$WORK/u.err")" 1
check "unsymbolized recording: names aotperf inject" grep -q 'is not symbolized.*aotperf inject -i' \
	"$WORK/u.err"

# classify: perf's own text without raw bytes, AT&T and Intel
perf annotate -i "$WORK/d/perf.jit.data" --stdio -n local_func_0 2>/dev/null >"$WORK/att.txt"
perf annotate -i "$WORK/d/perf.jit.data" --stdio -n -M intel local_func_0 2>/dev/null >"$WORK/intel.txt"
for syn in att intel; do
	"$AOTPERF" classify --json "$WORK/$syn.json" "$WORK/$syn.txt" >"$WORK/$syn.out"
	check_eq "classify $syn text exit status" "$?" 0
	check "classify $syn read text" grep -q "decoded    text (" "$WORK/$syn.out"
	check "classify $syn text table == report --func table" diff -u "$WORK/r.rows" \
		<(rows <"$WORK/$syn.out")
	check_eq "classify $syn text: exact (not flagged approximate)" \
		"$(jq -r '.functions[0].approximate' "$WORK/$syn.json")" false
done
finish
