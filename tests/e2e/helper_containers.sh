#!/usr/bin/env bash
# The containers of the upstream helper's unit tests (tests/test_aot_jit_attr.py
# upstream: versions outside 9-11, target info missing, duplicated, cut or
# inconsistent, layout faults), made here from the facts by mkfixture
# (--version, --target, and --case's byte surgery), through aotperf attr and
# aotperf report (docs/helper-interface.md, "What the drop-in refuses"):
# attr gives the helper's verdict (exit 1, the fault named as the helper
# names it) unless --accept-older says otherwise; report keeps reading
# versions 6 to 11, newer ones, containers without target info and the
# native profile, and refuses the broken ones as bad input (exit 2).
. "$(dirname "$0")/lib/common.sh"

F=$FIX/frames.cwasm	# version 11 SysV, sample.text's code
C=$WORK/cases
mkdir -p "$C"
record "$WORK/p.data" -- --ms 600 --mix spill_heavy:3,zext_heavy:1 "$F"
P=$WORK/p.data
"$AOTPERF" attr --perf "$P" --cwasm "$F" --json-out "$WORK/good.json" >/dev/null
check_eq "the good container (version 11, verified target info): attr exit 0" "$?" 0
good=$(jq -c '[.attributed_samples, .top_functions]' "$WORK/good.json")
check "the good one has samples in the core to compare" test "$(jq .attributed_samples "$WORK/good.json")" -gt 100

# the same code in each version and target form the compiler wrote
for v in 6 7 8 9 10 11; do
	"$B/tests/mkfixture" --text "$FIX/sample.text" --nm "$FIX/sample.nm" --version "$v" --imports 3 \
		--target sysv -o "$C/v$v.cwasm"
done
"$B/tests/mkfixture" --text "$FIX/sample.text" --nm "$FIX/sample.nm" --version 11 --imports 3 \
	--target legacy -o "$C/legacy.cwasm"
CASES="version=5 version=12 no-target dup-target short-target inconsistent-target native-target
	dup-offsets offset-past-text no-text no-function dup-text count-overrun overrun short-section
	short-header bad-magic"
for c in $CASES; do
	"$B/tests/mkfixture" --case "$c" --from "$F" -o "$C/$c.cwasm" ||
		bad "mkfixture --case $c"
done

# CASE|ATTR|MESSAGE|REPORT: attr's exit status and the helper's words for the
# fault (words the message holds), report's exit status; "-": no message (accepted)
while IFS='|' read -r c want msg rwant; do
	cw=$C/$c.cwasm
	rm -f "$WORK/c.json"
	"$AOTPERF" attr --perf "$P" --cwasm "$cw" --json-out "$WORK/c.json" >/dev/null 2>"$WORK/c.err"
	check_eq "$c: attr exit status" "$?" "$want"
	if [ "$msg" = - ]; then
		check_eq "$c: attr, the same attribution as the good one" \
			"$(jq -c '[.attributed_samples, .top_functions]' "$WORK/c.json")" "$good"
	else
		check "$c: attr names the fault as the helper does, one line, the file first" \
			awk -v f="$cw: " -v m="$msg" 'NR == 1 && index($0, f) == 1 && index($0, m) { ok = 1 }
				END { exit !(ok && NR == 1) }' "$WORK/c.err"
		check "$c: attr writes no JSON" test ! -e "$WORK/c.json"
	fi
	"$AOTPERF" report -q -i "$P" --cwasm "$cw" --arch x86_64 --json "$WORK/r.json" >/dev/null 2>&1
	check_eq "$c: report exit status" "$?" "$rwant"
	[ "$rwant" = 0 ] && check_eq "$c: report attributes it as the good one" \
		"$(jq .attributed_samples "$WORK/r.json")" "$(jq .attributed_samples "$WORK/good.json")"
done <<'EOF'
v6|1|incompatible aot_version=6; tool supports [9, 10, 11]|0
v7|1|incompatible aot_version=7; tool supports [9, 10, 11]|0
v8|1|incompatible aot_version=8; tool supports [9, 10, 11]|0
v9|0|-|0
v10|0|-|0
v11|0|-|0
legacy|0|-|0
version=5|1|incompatible aot_version=5; tool supports|2
version=12|1|incompatible aot_version=12; tool supports|0
no-target|1|missing target-info section|0
native-target|1|target-info reserved field is nonzero|0
dup-target|1|duplicate target|2
short-target|1|39 bytes|2
inconsistent-target|1|e_machine 0x3e|2
dup-offsets|1|functions 0 and 1 both start|2
offset-past-text|1|past the text|2
no-text|1|no text section|2
no-function|1|no function section|2
dup-text|1|duplicate text|2
count-overrun|1|entries|2
overrun|1|claims|2
short-section|1|truncated section header|2
short-header|1|truncated .cwasm header|2
bad-magic|1|not a .cwasm|2
EOF

# --accept-older: aotperf's reading, the helper's document
for c in v6 v7 v8 no-target; do
	"$AOTPERF" attr --accept-older --perf "$P" --cwasm "$C/$c.cwasm" --arch x86_64 \
		--json-out "$WORK/o.json" >/dev/null
	check_eq "$c --accept-older: attr exit 0" "$?" 0
	check_eq "$c --accept-older: the same attribution as the good one" \
		"$(jq -c '[.attributed_samples, .top_functions]' "$WORK/o.json")" "$good"
done
check_eq "no-target --accept-older: no target info said as such" \
	"$(jq -c .artifact_target "$WORK/o.json")" '{"abi":null,"architecture":null,"format":null,"verified":false}'
for c in version=12 version=5 native-target dup-target; do
	"$AOTPERF" attr --accept-older --perf "$P" --cwasm "$C/$c.cwasm" >/dev/null 2>&1
	check_eq "$c --accept-older: still refused (exit 1)" "$?" 1
done

# a sidecar naming version 8 (the compiler's, for spill_heavy of the v8 core):
# the helper refuses the container before the sidecar
read -r SH _ < <(awk '$4 == "spill_heavy" { print $1 }' "$F.syms")
"$B/tests/mksidecar" --cwasm "$C/v8.cwasm" --func spill_heavy \
	--spec "$E2E/../fixtures/sidecars/spill_heavy.spec" -o "$C/v8.side.json"
check_eq "the v8 sidecar names version 8" "$(jq .cwasm_aot_version "$C/v8.side.json")" 8
"$AOTPERF" attr --perf "$P" --cwasm "$C/v8.cwasm" --func "$SH" --frame-metadata "$C/v8.side.json" \
	>/dev/null 2>"$WORK/s.err"
check_eq "v8 with its sidecar: attr exit 1" "$?" 1
check "... the container's version named" grep -q "v8.cwasm: incompatible aot_version=8" "$WORK/s.err"
"$AOTPERF" attr --accept-older --perf "$P" --cwasm "$C/v8.cwasm" --func "$SH" \
	--frame-metadata "$C/v8.side.json" --json-out "$WORK/s.json" >/dev/null
check_eq "v8 with its sidecar, --accept-older: attr exit 0" "$?" 0
check_eq "... the sidecar read" "$(jq '.classified_function.frame_metadata_identity.schema_version' "$WORK/s.json")" 1
"$AOTPERF" report -q -i "$P" --cwasm "$C/v8.cwasm" --func "$SH" --frame-metadata "$C/v8.side.json" \
	>/dev/null
check_eq "v8 with its sidecar: report exit 0" "$?" 0
# the helper's other target-info refusal with a sidecar: legacy target info
"$B/tests/mksidecar" --cwasm "$F" --func spill_heavy \
	--spec "$E2E/../fixtures/sidecars/spill_heavy.spec" -o "$C/v11.side.json"
"$AOTPERF" attr --perf "$P" --cwasm "$C/legacy.cwasm" --func "$SH" --frame-metadata "$C/v11.side.json" \
	>/dev/null 2>"$WORK/l.err"
check_eq "legacy target info with a sidecar: attr exit 1" "$?" 1
check "... the legacy target info named" grep -q "legacy" "$WORK/l.err"

finish
