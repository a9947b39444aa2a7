#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Is it the right core? (docs/consistency.md) Two builds of one
# workload whose texts round up to the same pages: kernels.S as is and with
# a 13-byte function in front (every offset shifted), calltree.S as is and
# with 8-byte instead of 16-byte function alignment. Recorded with one,
# reported with the other, on plain, -g and --call-graph=dwarf recordings
# (-e cpu-clock): aotperf's figures against the assembler's listing
# (instruction starts, the jump table's .long lines, the source's `#= trap`
# marks) or objdump's instruction starts, and perf script's ips and call
# chains (consistency_ref.awk), exactly; the warning
# in the text, the JSON and on stderr, authoritative false, the right
# build authoritative with no warning; report --require-consistent; inject,
# jitdump, perfmap and record refusing the wrong build unless --force;
# attr's stderr warning with its JSON keys unchanged; one mapping phrase in
# the text, JSON, Markdown and HTML of one run, and no lever verdict from
# the other build's samples.
#
#   tests/e2e/consistency.sh BUILD_DIR
. "$(dirname "$0")/lib/common.sh"
. "$E2E/lib/asmcore.sh"
. "$E2E/lib/browser.sh"
ART=${ARTIFACTS:-$B/tests/artifacts}
mkdir -p "$ART"

SRC=$(cd "$E2E/../.." && pwd)
C=$WORK/cores
mkdir -p "$C"
# 13 bytes of code in front: mov eax, 1 / mov ecx, 2 / add eax, ecx / ret
sed 's/^\t\.text$/\t.text\npad_fn:\n\tmov eax, 1\n\tmov ecx, 2\n\tadd eax, ecx\n\tret/' \
	"$SRC/tests/fixtures/kernels.S" >"$C/kb.S"
sed 's/^\t\.p2align 4$/\t.p2align 3/' "$SRC/tests/fixtures/calltree.S" >"$C/ctb.S"
asm_core "$SRC/tests/fixtures/kernels.S" "$C/ka.cwasm" && asm_core "$C/kb.S" "$C/kb.cwasm" &&
	asm_core "$SRC/tests/fixtures/calltree.S" "$C/cta.cwasm" && asm_core "$C/ctb.S" "$C/ctb.cwasm"
check_eq "fixtures: four cores built" "$?" 0
# the kernels' listings: the assembler's own instruction starts and data
as -al="$C/ka.lst" -o /dev/null "$SRC/tests/fixtures/kernels.S" &&
	as -al="$C/kb.lst" -o /dev/null "$C/kb.S"
check_eq "fixtures: listings written" "$?" 0
pages() { echo $((($(stat -c %s "$1") + 4095) / 4096)); }
for p in "ka kb" "cta ctb"; do
	set -- $p
	check "fixtures: $1 and $2 differ in text size ($(stat -c %s "$C/$1.text"), $(stat -c %s "$C/$2.text")) but not in pages" \
		test "$(stat -c %s "$C/$1.text")" != "$(stat -c %s "$C/$2.text")" -a \
		"$(pages "$C/$1.text")" = "$(pages "$C/$2.text")"
done
check "fixtures: kb's functions start elsewhere than ka's" \
	test "$(awk '$4 == "spill_heavy" { print $2 }' "$C/ka.cwasm.syms")" != \
	"$(awk '$4 == "spill_heavy" { print $2 }' "$C/kb.cwasm.syms")"

D=$WORK/data
mkdir -p "$D"
record "$D/ka.data" -- --ms 1500 "$C/ka.cwasm"
record "$D/kb.data" -- --ms 1500 "$C/kb.cwasm"
record "$D/cta.g.data" -g -- --ms 1500 --mix calltree "$C/cta.cwasm"
record "$D/cta.dwarf.data" --call-graph=dwarf,8192 -- --ms 1000 --mix calltree "$C/cta.cwasm"
for f in ka kb cta.g cta.dwarf; do
	check "record $f: perf record succeeded" test -s "$D/$f.data"
done

# ref DATA CORE [-G]: consistency_ref.awk's figures for the core's one //anon
# mapping, from its listing when there is one (objdump decodes a jump table
# as instructions), else objdump's
ref() {
	local data=$1 core=$2 base view
	shift 2
	view=$C/$core.dis
	[ -f "$C/$core.lst" ] && view=$C/$core.lst
	base=$(perf script -i "$data" --show-mmap-events 2>/dev/null |
		sed -n 's/.*PERF_RECORD_MMAP2* .*\[\(0x[0-9a-f]*\)(0x1000) .*r-xp \/\/anon$/\1/p')
	[ "$(echo "$base" | wc -w)" = 1 ] || { echo "BASE? $base"; return; }
	perf script -i "$data" -F event,ip "$@" 2>/dev/null |
		gawk -v base="$base" -v size=4096 -f "$E2E/consistency_ref.awk" "$view" -
}
get() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }

# pair NAME DATA CORE RIGHT [perf script option]: report DATA with CORE, checked
pair() {
	local name=$1 data=$2 core=$3 right=$4 o="$WORK/$1"
	shift 4
	"$AOTPERF" report -i "$data" --cwasm "$C/$core.cwasm" --json "$o.json" >"$o.txt" 2>"$o.err"
	check_eq "$name: report exit status" "$?" 0
	ref "$data" "$core" "$@" >"$o.ref"
	local ips on rets after rdat rtrap past checked cons mid dat pad trap nret bret
	ips=$(get IPS "$o.ref"); on=$(get ON_START "$o.ref")
	rets=$(get RETS "$o.ref"); after=$(get AFTER_CALL "$o.ref")
	rdat=$(get IN_DATA "$o.ref"); rtrap=$(get IN_TRAP "$o.ref"); past=$(get PAST_TEXT "$o.ref")
	read -r checked cons mid dat pad trap nret bret < <(jq -r '.consistency |
		"\(.checked) \(.consistent) \(.mid_instruction) \(.in_data) \(.in_padding) \(.in_trap) \(.returns) \(.bad_return)"' "$o.json")
	echo "   $name: aotperf $cons of $checked ($(jq .consistency.percent "$o.json")%);" \
		"independent: $on of $ips ips on instruction starts ($rtrap in traps), $after of $rets returns after a call"
	check "$name: enough samples in the core ($ips)" test "${ips:-0}" -ge 300
	check_eq "$name: addresses checked = perf script's ips in the mapping + return addresses" \
		"$checked" "$((ips + rets))"
	check_eq "$name: return addresses checked = perf script's" "$nret" "$rets"
	check_eq "$name: returns after a call = the calls before them" "$((nret - bret))" "$after"
	check_eq "$name: mid-instruction = ips on no instruction start, in no data, in the text" \
		"$mid" "$((ips - on - rdat - past))"
	check_eq "$name: in data = ips in the jump table's bytes" "$dat" "$rdat"
	check_eq "$name: in trap blocks = ips on the source's trap instructions" "$trap" "$rtrap"
	check_eq "$name: consistent ips + trap + padding = ips on a start + past the text" \
		"$((cons - after + trap + pad))" "$((on + past))"
	if [ "$right" = right ]; then
		check_eq "$name: every ip on an instruction start" "$on" "$ips"
		check_eq "$name: every address consistent" "$cons" "$checked"
		check_eq "$name: consistency.ok" "$(jq .consistency.ok "$o.json")" true
		check_eq "$name: authoritative" "$(jq .authoritative "$o.json")" true
		check_eq "$name: no warning in the JSON" "$(jq '.warnings | length' "$o.json")" 0
		check "$name: no warning on stderr" test ! -s "$o.err"
		check "$name: the text says it fits" grep -q "consistency $checked of $checked sampled" "$o.txt"
		check "$name: no NOT line" test -z "$(grep 'NOT consistent' "$o.txt")"
	else
		check "$name: the independent view says it is not that code either ($((on - rtrap)) of $ips)" \
			test $(((on - rtrap) * 100)) -lt $((ips * 99))
		check_eq "$name: consistency.ok" "$(jq .consistency.ok "$o.json")" false
		check_eq "$name: authoritative" "$(jq .authoritative "$o.json")" false
		check_eq "$name: mapping.authoritative" "$(jq .mapping.authoritative "$o.json")" false
		check_eq "$name: the mapping itself is still unique" "$(jq .mapping.count "$o.json")" 1
		check "$name: the JSON warning names the file and the figures" \
			jq -e --arg f "$core.cwasm: only $cons of $checked sampled addresses" \
			'[.warnings[] | select(contains($f))] | length == 1' "$o.json"
		check "$name: the same warning on stderr" grep -q "warning: .*$core.cwasm: only $cons of $checked" "$o.err"
		check "$name: the text says NOT consistent" grep -q "NOT consistent: $mid mid-instruction" "$o.txt"
		check "$name: the text still says why the mapping was picked" grep -q "exact size, unique" "$o.txt"
	fi
}

pair "plain, right" "$D/ka.data" ka right
pair "plain, other build" "$D/ka.data" kb wrong
pair "plain, other build the other way" "$D/kb.data" ka wrong
check "plain, other build the other way: samples in trap blocks counted" \
	test "$(jq .consistency.in_trap "$WORK/plain, other build the other way.json")" -gt 0
pair "-g, right" "$D/cta.g.data" cta right
pair "-g, other build" "$D/cta.g.data" ctb wrong
check "-g: return addresses checked" test "$(jq .consistency.returns "$WORK/-g, right.json")" -gt 100
pair "dwarf, right" "$D/cta.dwarf.data" cta right -G
pair "dwarf, other build" "$D/cta.dwarf.data" ctb wrong -G
# where aotperf unwinds the dwarf stacks (--children), their wasm return addresses are checked too
"$AOTPERF" report -q -i "$D/cta.dwarf.data" --cwasm "$C/cta.cwasm" --children --json "$WORK/dwc.json" \
	>/dev/null
check "dwarf --children, right: return addresses checked, each after a call" \
	jq -e '.consistency | .returns > 100 and .bad_return == 0 and .ok and
	       .checked == .consistent' "$WORK/dwc.json"
check_eq "dwarf --children, right: the same ips as without" \
	"$(jq '.consistency | .checked - .returns' "$WORK/dwc.json")" \
	"$(jq .consistency.checked "$WORK/dwarf, right.json")"

# the other build's core under the dwarf stacks: its addresses have no unwind
# rule, so the walk stops there (counted as cut) instead of handing the same
# registers back and forth between the wasm and host unwinders for ever
timeout 60 "$AOTPERF" report -q -i "$D/cta.dwarf.data" --cwasm "$C/ctb.cwasm" --children \
	--json "$WORK/dwc.wrong.json" >/dev/null 2>&1
check_eq "dwarf --children, other build: finishes (within 60 s) with exit 0" "$?" 0
check "dwarf --children, other build: the walks it could not take are counted as cut" \
	jq -e '.call_graph.cut > 0 and .call_graph.samples == .total_samples' "$WORK/dwc.wrong.json"
check_eq "dwarf --children, right: no walk cut" "$(jq .call_graph.cut "$WORK/dwc.json")" 0

# --require-consistent: a gate for scripts
"$AOTPERF" report -q -i "$D/ka.data" --cwasm "$C/kb.cwasm" --require-consistent >/dev/null 2>"$WORK/req.err"
check_eq "--require-consistent, other build: exit 1" "$?" 1
check "--require-consistent says why" grep -q "require-consistent: .*kb.cwasm: only" "$WORK/req.err"
"$AOTPERF" report -q -i "$D/ka.data" --cwasm "$C/ka.cwasm" --require-consistent >/dev/null
check_eq "--require-consistent, right build: exit 0" "$?" 0

# One phrase for the mapping in every format of one run, and no lever
# verdict from another build's samples (docs/consistency.md)
F=$WORK/fmt
"$AOTPERF" report -q -i "$D/ka.data" --cwasm "$C/kb.cwasm" --hot 1 --json "$F.json" --markdown "$F.md" \
	--html "$F.html" >"$F.txt"
check_eq "formats, other build: report exit status" "$?" 0
how=$(jq -r .mapping.how "$F.json")
check_eq "formats, other build: the JSON's mapping.how: unique, and NOT consistent" \
	"$how" "exact size, unique, NOT consistent"
check "formats, other build: the text says the same" grep -qF "($how, 1 mapping)" "$F.txt"
check "formats, other build: the Markdown says the same" grep -qF "($how, 1 mapping(s))" "$F.md"
sed -n 's|^<script type="application/json" id="aotperf-data">\(.*\)</script>$|\1|p' "$F.html" >"$F.doc.json"
check_eq "formats, other build: the page's document says the same" "$(jq -r .mapping.how "$F.doc.json")" "$how"
check "formats, other build: the text warns above the class table" \
	test "$(grep -n 'NOT authoritative: its samples do not fit' "$F.txt" | cut -d: -f1)" -lt \
	"$(grep -n '^  class  ' "$F.txt" | cut -d: -f1)"
check "formats, other build: the text's verdict is none, and why" \
	grep -qx "  verdict         none: its samples do not fit its code (another build?)" "$F.txt"
check "formats, other build: no line claims a lever" test -z "$(grep -E 'verdict *=>|Pays most' "$F.txt")"
check_eq "formats, other build: JSON levers.verdict null, no_verdict why" \
	"$(jq -c '.classified_functions[0].levers | [.verdict, .no_verdict]' "$F.json")" \
	'[null,"its samples do not fit its code (another build?)"]'
check "formats, other build: the Markdown's verdict is none" grep -qF "**verdict: none**: its samples" "$F.md"
check "formats, other build: no Markdown line claims a lever" test -z "$(grep -F 'Pays most' "$F.md")"
"$AOTPERF" report -q -i "$D/ka.data" --cwasm "$C/ka.cwasm" --hot 1 --json "$F.right.json" >"$F.right.txt"
check_eq "formats, right build: mapping.how" "$(jq -r .mapping.how "$F.right.json")" "exact size, unique"
check "formats, right build: a verdict" grep -q "verdict *=> " "$F.right.txt"
why=$(browser_why)
if [ -z "$why" ]; then	# the core card shows mapping.how (tests/browser/check.js)
	browser_run page check.js --page "$F.html" --doc "$F.doc.json" --shot "$ART/other-build.png"
else
	browser_skip "$why"
fi

# The writers refuse another build unless --force, and write nothing.
O=$WORK/out
mkdir -p "$O"
for cmd in inject jitdump perfmap; do
	"$AOTPERF" $cmd -q -i "$D/ka.data" --cwasm "$C/kb.cwasm" -o "$O/$cmd.out" >/dev/null 2>"$O/$cmd.err"
	check_eq "$cmd, other build: exit 1" "$?" 1
	check "$cmd, other build: says why and how to force" grep -q "kb.cwasm: only .*--force" "$O/$cmd.err"
	check "$cmd, other build: nothing written" test -z "$(ls "$O" | grep -v '\.err$')"
done
for cmd in inject jitdump perfmap; do
	"$AOTPERF" $cmd -q -i "$D/ka.data" --cwasm "$C/kb.cwasm" -o "$O/$cmd.out" --force >/dev/null 2>&1
	check_eq "$cmd --force, other build: exit 0" "$?" 0
	check "$cmd --force: written" test -s "$O/$cmd.out"
done
"$AOTPERF" inject -q -i "$D/ka.data" --cwasm "$C/ka.cwasm" -o "$O/right.jit.data" >/dev/null
check_eq "inject, right build: exit 0" "$?" 0

# record: the recording is kept, not symbolized without --force
"$AOTPERF" record -q -e cpu-clock -o "$O/rec.data" --cwasm "$C/kb.cwasm" -- \
	"$LOADER" --ms 800 "$C/ka.cwasm" >"$O/rec.out" 2>"$O/rec.err"
check_eq "record, other build: exit 1" "$?" 1
check "record, other build: says why" grep -q "kb.cwasm: only .*--force" "$O/rec.err"
check "record, other build: the recording is kept" test -s "$O/rec.data"
check "record, other build: no perf.jit.data" test ! -e "$O/rec.jit.data"
"$AOTPERF" record -q -e cpu-clock -o "$O/recf.data" --force --cwasm "$C/kb.cwasm" -- \
	"$LOADER" --ms 800 "$C/ka.cwasm" >/dev/null 2>&1
check_eq "record --force, other build: exit 0" "$?" 0
check "record --force: symbolized" test -s "$O/recf.jit.data"

# attr: the helper's keys and meaning, the warning on stderr (asm_core writes
# version 7 containers: --accept-older)
"$AOTPERF" attr --accept-older --perf "$D/ka.data" --cwasm "$C/ka.cwasm" --json-out "$O/ra.json" >/dev/null 2>"$O/ra.err"
check_eq "attr, right build: exit 0" "$?" 0
check "attr, right build: no warning" test ! -s "$O/ra.err"
"$AOTPERF" attr --accept-older --perf "$D/ka.data" --cwasm "$C/kb.cwasm" --json-out "$O/wa.json" >/dev/null 2>"$O/wa.err"
check_eq "attr, other build: exit 0 (the helper's meaning)" "$?" 0
cons=$(jq -r '.consistency | "\(.consistent) of \(.checked)"' "$WORK/plain, other build.json")
check "attr, other build: report's warning on stderr" grep -q "warning: .*kb.cwasm: only $cons sampled" "$O/wa.err"
check_eq "attr, other build: the same JSON keys" "$(jq -c '[paths | map(tostring) | join(".")] |
	map(select(test("^top_functions\\.[0-9]") | not)) | sort' "$O/wa.json")" \
	"$(jq -c '[paths | map(tostring) | join(".")] |
	map(select(test("^top_functions\\.[0-9]") | not)) | sort' "$O/ra.json")"

finish
