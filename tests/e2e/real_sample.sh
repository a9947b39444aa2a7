#!/usr/bin/env bash
# The real compiler's output (test_minimal.aot: v6, legacy target info,
# Win64 convention, 3 functions) through every command that decodes code:
# report --func without a recording, report --func/--hot on a recording
# (the loader calls _start as the runtime does, which calls local_func_1
# through the function-pointer array), annotate on the jitdump and the
# direct route, classify of perf annotate's AT&T text, the dlfilter's class
# mix, spills' static cross-check, and --arch on each of them.
#
# Expected classes: tests/fixtures/real/test_minimal.tagged, the text read
# by hand, one tag per instruction. Its lines are checked against objdump's
# listing of the file's text (found here by parsing the container with awk,
# not with aotperf), and the counts per function come from the tags.
. "$(dirname "$0")/lib/common.sh"

T=$FIX/real/test_minimal.aot
TAGGED=$E2E/../fixtures/real/test_minimal.tagged
DLF=$B/aotperf-dlfilter.so

# sections FILE: "type offset size" per section (u32 magic, u32 version, then
# u32 type, u32 size, payload), and "func OFFSET" per v6 function-table entry
xxd -p "$T" | tr -d '\n' | gawk '
	function u32(o) { return strtonum("0x" substr(h, 2 * o + 7, 2) substr(h, 2 * o + 5, 2) \
					substr(h, 2 * o + 3, 2) substr(h, 2 * o + 1, 2)) }
	{ h = $0; n = length(h) / 2; o = 8
	  while (o + 8 <= n) {
		t = u32(o); s = u32(o + 4); print "section", t, o + 8, s
		if (t == 3) for (i = 0; i < u32(o + 8); i++) print "func", u32(o + 12 + 4 * i)
		o += 8 + s
	  } }' >"$WORK/layout"
read -r _ _ toff tsize < <(grep '^section 2 ' "$WORK/layout")
check_eq "container: text section found by hand" "$toff $tsize" "64 269"
dd if="$T" of="$WORK/text" bs=1 skip="$toff" count="$tsize" 2>/dev/null

# the tagged listing is objdump's, line for line (whitespace aside)
norm() { sed -E 's/[ \t]+/ /g; s/^ //; s/ $//'; }
objdump -D -b binary -m i386:x86-64 -M intel "$WORK/text" | grep -E '^ +[0-9a-f]+:' | norm \
	>"$WORK/objdump.lst"
grep -E '^ +[0-9a-f]+:' "$TAGGED" | sed 's/#=.*//' | norm >"$WORK/tagged.lst"
check "tagged listing == objdump -D of the text" diff -u "$WORK/objdump.lst" "$WORK/tagged.lst"
# each function label sits on its function's first offset (the function table)
check_eq "tagged labels start at the function table's offsets" \
	"$(awk '/^local_func_[0-9]+:/ { getline; sub(/:.*/, ""); gsub(/ /, ""); printf "%d ", strtonum("0x" $0) }' "$TAGGED")" \
	"$(awk '$1 == "func" { printf "%d ", $2 }' "$WORK/layout")"
# expected "FUNC CLASS COUNT" lines from the tags
gawk '/^local_func_[0-9]+:/ { f = $1; sub(/:/, "", f); sub(/local_func_/, "", f) }
      /#= / { c = $0; sub(/.*#= */, "", c); n[f " " c]++ }
      END { for (k in n) print k, n[k] }' "$TAGGED" | sort >"$WORK/expect"
check_eq "49 + 11 + 11 tagged instructions" "$(awk '{ s += $3 } END { print s }' "$WORK/expect")" 71

statics() { # statics JSON [JQ path to the function object]: "CLASS COUNT", nonzero
	jq -r "${2:-.classified_functions[0]} | .classes | to_entries[] |
	       select(.value.static_instructions > 0) | \"\(.key) \(.value.static_instructions)\"" "$1" | sort
}
want() { awk -v f="$1" '$1 == f { print $2, $3 }' "$WORK/expect" | sort; }
table() { # table JSON JQ_PATH: "class samples static" for every class
	jq -r "$2 | .classes | to_entries[] | \"\(.key) \(.value.samples) \(.value.static_instructions)\"" "$1"
}

# ---- no recording: report --func prints the static table ----
for f in 0 1 2; do
	"$AOTPERF" report --cwasm "$T" --func "$f" --json "$WORK/s$f.json" >"$WORK/s$f.txt" 2>"$WORK/s$f.err"
	check_eq "static report --func $f: exit status" "$?" 0
	check "static report --func $f: counts == the tags" diff -u <(want "$f") <(statics "$WORK/s$f.json")
done
check "static report: says there is no recording" grep -q 'static classes, no recording' "$WORK/s2.txt"
check "static report: the target line" grep -qx '  target      x86_64, ABI not recorded (legacy-unspecified)' \
	"$WORK/s2.txt"
check_eq "static report JSON: static, samples null" \
	"$(jq -c '[.static, .perf, .classified_functions[0].classes.linear_mem.samples]' "$WORK/s2.json")" \
	'[true,null,null]'
check_eq "artifact_target of a legacy v6 file" "$(jq -c .artifact_target "$WORK/s2.json")" \
	'{"architecture":"x86_64","abi":null,"format":"legacy-unspecified","verified":false,"profile":null,"decoded_as":"x86_64","arch_override":false}'
check_eq "roles: vmctx from rcx parked at [rbp-0x8], reloaded into r10" \
	"$(jq -r '.classified_functions[0].roles | "\(.abi) \(.abi_source) \(.vmctx_param) \(.vmctx_slot) \(.vmctx_registers | join(","))"' "$WORK/s2.json")" \
	"win64 prologue rcx [rbp-0x8] r10"
"$AOTPERF" report --cwasm "$T" --func _start --json "$WORK/n.json" >/dev/null
check_eq "the export name _start is local_func_2" "$(jq .classified_functions[0].local_func "$WORK/n.json")" 2
check "every text line fits 80 columns (bar the core line with the path)" \
	awk 'length > 80 && !/^core / { bad = 1; print } END { exit bad }' "$WORK/s2.txt"
# --arch: any core decodes as either arch; an alias is accepted
"$AOTPERF" report --cwasm "$T" --func 2 --arch x64 --json "$WORK/x64.json" >/dev/null
check "--arch x64 == the target's x86_64" diff -u <(statics "$WORK/x64.json") <(statics "$WORK/s2.json")
"$AOTPERF" report --cwasm "$T" --func 2 --arch arm64 --json "$WORK/a64.json" >"$WORK/a64.txt"
check_eq "--arch arm64 decodes as aarch64 (exit 0)" "$?" 0
check_eq "--arch arm64: artifact_target keeps the file's word, decoded_as aarch64" \
	"$(jq -c '.artifact_target | [.architecture, .decoded_as, .arch_override]' "$WORK/a64.json")" \
	'["x86_64","aarch64",true]'
check "--arch arm64: the text says so" grep -q '^  decoded as  aarch64 (overridden)$' "$WORK/a64.txt"

# ---- a recording: the loader calls _start(vmctx, 1) as the runtime does ----
record "$WORK/p.data" -- --ms 2000 --call-abi win64 --mix _start "$T"
check_eq "recorded _start" "$?" 0
"$AOTPERF" report -q -i "$WORK/p.data" --cwasm "$T" --func 2 --json "$WORK/r.json" >"$WORK/r.txt"
check_eq "report --func 2: exit status" "$?" 0
check "report --func 2: statics == the tags" diff -u <(want 2) <(statics "$WORK/r.json")
check "report --func 2: samples" test "$(jq .classified_functions[0].samples "$WORK/r.json")" -gt 100
check_eq "report --func 2: no frame traffic (every frame access is runtime state)" \
	"$(jq '.classified_functions[0].frame_traffic.static_instructions' "$WORK/r.json")" 0
check "report --func 2: samples land on vmctx reloads or their field loads" \
	test "$(jq '.classified_functions[0].classes | .vmctx_reload.samples + .vmctx_field.samples' "$WORK/r.json")" -gt 0
check "report: the target line" grep -qx '  target      x86_64, ABI not recorded (legacy-unspecified)' "$WORK/r.txt"
check_eq "report JSON: artifact_target" "$(jq -c '.artifact_target | [.architecture, .abi, .format, .verified]' "$WORK/r.json")" \
	'["x86_64",null,"legacy-unspecified",false]'
"$AOTPERF" report -q -i "$WORK/p.data" --cwasm "$T" --hot 2 --json "$WORK/hot.json" >/dev/null
check_eq "--hot 2: _start and the function it calls indirectly" \
	"$(jq -c '[.classified_functions[].local_func]' "$WORK/hot.json")" '[2,1]'
check "--hot 2: local_func_1 statics == the tags" diff -u <(want 1) <(statics "$WORK/hot.json" '.classified_functions[1]')
table "$WORK/r.json" .classified_functions[0] >"$WORK/r.table"
"$AOTPERF" report -q -i "$WORK/p.data" --cwasm "$T" --func 2 --arch x86-64 --json "$WORK/rx.json" >/dev/null
check "report --arch x86-64: the same table" diff -u "$WORK/r.table" <(table "$WORK/rx.json" .classified_functions[0])

# annotate, on both symbolized routes, and classify of perf annotate's text
"$AOTPERF" inject -q -i "$WORK/p.data" --cwasm "$T" -o "$WORK/jit.data" >/dev/null
check_eq "inject (jitdump + perf inject --jit): exit status" "$?" 0
"$AOTPERF" inject -q --direct --arch x86_64 -i "$WORK/p.data" --cwasm "$T" -o "$WORK/direct.data" >/dev/null
check_eq "inject --direct --arch x86_64: exit status" "$?" 0
for route in jit direct; do
	"$AOTPERF" annotate -i "$WORK/$route.data" --json "$WORK/$route.ann.json" local_func_2 >/dev/null 2>&1
	check_eq "$route: annotate local_func_2 exit status" "$?" 0
	check "$route: annotate table == report --func table" \
		diff -u "$WORK/r.table" <(table "$WORK/$route.ann.json" '.functions[0]')
done
"$AOTPERF" jitdump -q -i "$WORK/p.data" --cwasm "$T" --arch amd64 -o "$WORK/marked.data" >/dev/null
check_eq "jitdump --arch amd64: exit status" "$?" 0
perf annotate -i "$WORK/jit.data" --stdio -n local_func_2 2>/dev/null >"$WORK/att.txt"
"$AOTPERF" classify --json "$WORK/cls.json" "$WORK/att.txt" >/dev/null 2>&1
check_eq "classify of AT&T text: exit status" "$?" 0
check "classify (AT&T text, no bytes) table == report --func table" \
	diff -u "$WORK/r.table" <(table "$WORK/cls.json" '.functions[0]')

# the dlfilter's class mix of func=2, and with arch=
if [ -f "$DLF" ] && perf script -h 2>&1 | grep -q -- --dlfilter; then
	for extra in "" arch=x86_64; do
		perf script -i "$WORK/p.data" --dlfilter "$DLF" --dlarg "$T" --dlarg func=2 \
			${extra:+--dlarg "$extra"} --dlarg "json=$WORK/d.json" --dlarg "out=$WORK/d.txt" \
			-F ip >/dev/null 2>"$WORK/d.err"
		check_eq "dlfilter ${extra:-(target arch)}: exit status" "$?" 0
		check "dlfilter ${extra:-(target arch)}: class mix == report --func table" \
			diff -u "$WORK/r.table" <(table "$WORK/d.json" .classified_functions[0])
	done
	check "dlfilter: the target line" grep -q '^  target      x86_64, ABI not recorded' "$WORK/d.txt"
else
	bad "no dlfilter to test ($DLF)"
fi

# spills: the static cross-check finds no unattributed frame reads (the old
# classifier counted the four vmctx reloads of _start as spill reloads)
printf '%s\n' '[aot-spill-metric] local_func=2 mod=0 name=_start insts=49 spill_ld=0 spill_st=0' \
	'[aot-spill-metric] local_func=1 mod=0 insts=11 spill_ld=0 spill_st=0' >"$WORK/spill.log"
for extra in "" "--arch x86_64"; do
	# shellcheck disable=SC2086
	"$AOTPERF" spills "$WORK/spill.log" -i "$WORK/p.data" --cwasm "$T" $extra \
		--json "$WORK/sp.json" >/dev/null 2>"$WORK/sp.err"
	check_eq "spills ${extra:-(target arch)}: exit status" "$?" 0
	check_eq "spills ${extra:-(target arch)}: static frame loads of 1 and 2 == the tags' frame_load" \
		"$(jq -r '[.functions[] | "\(.local_func)=\(.static_frame_loads)"] | sort | join(" ")' "$WORK/sp.json")" \
		"1=$(want 1 | awk '$1 == "frame_load" { n = $2 } END { print n + 0 }') 2=$(want 2 | awk '$1 == "frame_load" { n = $2 } END { print n + 0 }')"
	check "spills ${extra:-(target arch)}: nothing failed to decode" test ! -s "$WORK/sp.err"
done
finish
