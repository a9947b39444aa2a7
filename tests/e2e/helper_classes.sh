#!/usr/bin/env bash
# aotperf attr --func keeps the upstream helper's classes (issue 30 point 7:
# attr said "alu 400, cond_branch 5" where the helper said "other 222, alu
# 162, bounds_branch 5"): the helper disassembles a function with objdump,
# a br_table's jump table decoded as instructions, and classes each line by
# its mnemonic rules (jae is a bounds_branch wherever it is); the samples
# at an address no line starts at are unknown_instruction_boundary. The
# version 9 idioms (tests/classify/idiom_x86.S.in) are recorded with the
# loader calling each function as the runtime does, and every function's
# classes (samples and static counts) and instruction count are compared
# with the helper's rules applied by awk to objdump's own disassembly
# (tests/e2e/helper_classes.awk). The aarch64 idioms (the CoreMark
# harness's architecture) statically, through report's helper view, against
# the aarch64 objdump the fixtures are built with.
. "$(dirname "$0")/lib/common.sh"

C=$B/classify
cw=$C/x86_v9.cwasm
mix=$(awk '{ printf "%s%s:1", (NR > 1 ? "," : ""), $4 }' "$cw.syms")
record "$WORK/v9.data" -- --ms 1500 --call-abi sysv --mix "$mix" "$cw"
check_eq "recorded the v9 idioms (loader --call-abi sysv)" "$?" 0
# helper_view JSON: "CLASS samples static" and "COUNT n" of its classified_function, sorted
helper_view() {
	jq -r '.classified_function | (.classes | to_entries[] |
		"\(.key) \(.value.samples) \(.value.static_instructions)"), "COUNT \(.instruction_count)"' \
		"$1" | sort
}
base=$(sed -n 's/.* mapped at \(0x[0-9a-f]*\) .*/\1/p' "$WORK/v9.data.log" | head -1)
perf script -i "$WORK/v9.data" -F ip 2>/dev/null | awk '{ print $1 }' >"$WORK/ips"

while read -r n off size name; do
	dd if="$C/x86_v9.text" of="$WORK/f.bin" bs=1 skip=$((off)) count="$size" 2>/dev/null
	fbase=$(printf '0x%x' $((base + off)))
	objdump -D -b binary -m i386:x86-64 -M intel --adjust-vma="$fbase" "$WORK/f.bin" >"$WORK/f.dis"
	gawk -v base="$fbase" -v size="$size" -f "$E2E/helper_classes.awk" "$WORK/ips" "$WORK/f.dis" |
		sort >"$WORK/$name.ref"
	"$AOTPERF" attr --perf "$WORK/v9.data" --cwasm "$cw" --func "$n" --json-out "$WORK/$name.json" \
		>/dev/null
	check_eq "$name: attr --func exit status" "$?" 0
	helper_view "$WORK/$name.json" >"$WORK/$name.attr"
	check "$name: classes == the helper's rules over objdump ($(grep -c . "$WORK/$name.ref") lines)" \
		diff -u "$WORK/$name.ref" "$WORK/$name.attr"
	check "$name: has samples to compare" \
		test "$(jq .classified_function.samples "$WORK/$name.json")" -ge 10
done <"$cw.syms"

# the slip itself: the br_table's bound check is the helper's bounds_branch,
# its table decoded as instructions
check "f_br_table: jae is a bounds_branch" grep -q '^bounds_branch [0-9]* 1$' "$WORK/f_br_table.attr"
check "f_br_table: no cond_branch (the helper has none there)" bash -c "! grep -q '^cond_branch ' '$WORK/f_br_table.attr'"
"$AOTPERF" report -q -i "$WORK/v9.data" --cwasm "$cw" --func f_br_table --json "$WORK/r.json" >/dev/null
check "f_br_table: the table's bytes are instructions to the helper, data to report" \
	test "$(jq .classified_function.instruction_count "$WORK/f_br_table.json")" -gt \
	"$(jq '.classified_functions[0].instruction_count' "$WORK/r.json")"

# aarch64, static (no recording on this host): report --func's helper view
# is attr's (tests/e2e/helper_attr.sh)
A64_OBJDUMP=${A64_OBJDUMP:-aarch64-linux-gnu-objdump}
[ "$(uname -m)" = aarch64 ] && ! command -v "$A64_OBJDUMP" >/dev/null && A64_OBJDUMP=objdump
cw=$C/a64_v11.cwasm
while read -r n off size name; do
	dd if="$C/a64_v11.text" of="$WORK/f.bin" bs=1 skip=$((off)) count="$size" 2>/dev/null
	"$A64_OBJDUMP" -D -b binary -m aarch64 "$WORK/f.bin" >"$WORK/f.dis"
	gawk -v base=0 -v size="$size" -v arch=aarch64 -f "$E2E/helper_classes.awk" /dev/null "$WORK/f.dis" |
		sort >"$WORK/$name.ref"
	"$AOTPERF" report -q --cwasm "$cw" --func "$n" --json "$WORK/$name.json" >/dev/null
	check_eq "$name (aarch64): report --func exit status" "$?" 0
	helper_view "$WORK/$name.json" >"$WORK/$name.attr"
	check "$name (aarch64): classes == the helper's rules over objdump ($(grep -c . "$WORK/$name.ref") lines)" \
		diff -u "$WORK/$name.ref" "$WORK/$name.attr"
done <"$cw.syms"
check "aarch64: the bounds pair (cmp, b.ls after the [x19, #8] load) found" \
	grep -qh '^bounds_branch 0 [1-9]' "$WORK"/a_*.attr

finish
