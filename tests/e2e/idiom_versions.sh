#!/usr/bin/env bash
# The generators' idioms in every container version they appeared in
# (tests/classify/classify.mk: x86 v6 legacy Win64, v7 and v9 legacy SysV,
# v11 SysV ELF64, v11 Win64 COFF64; aarch64 v11): each function's static
# counts equal the classes its source is tagged with (expect.awk, not the
# classifier), without a recording (report --func, any arch on this host)
# and on one. The x86 ones are recorded with the loader calling each
# function as the runtime does (--call-abi), and report --func, annotate
# (perf annotate --asm-raw of the symbolized recording) and classify
# (perf annotate's AT&T text) must agree on every class's samples.
. "$(dirname "$0")/lib/common.sh"

C=$B/classify
FUNCS="f_load_store f_br_table f_br_loop f_call_indirect f_calls"

statics() { # statics JSON: "FUNC CLASS COUNT", nonzero, of every classified function
	jq -r '.classified_functions[] | .name as $f | .classes | to_entries[] |
	       select(.value.static_instructions > 0) | "\($f) \(.key) \(.value.static_instructions)"' "$1" | sort
}
table() { # table JSON JQ_PATH: "class samples static" for every class
	jq -r "$2 | .classes | to_entries[] | \"\(.key) \(.value.samples) \(.value.static_instructions)\"" "$1"
}
target() { jq -c '.artifact_target | [.architecture, .abi, .format, .verified]' "$1"; }
roles() { jq -r '[.classified_functions[].roles | "\(.abi) \(.abi_source) \(.vmctx_param)"] | unique | join(";")' "$1"; }

# NAME CALL_ABI TARGET ROLES (CALL_ABI "-": static only)
while read -r name abi want_target want_roles; do
	cw=$C/$name.cwasm
	fargs=()
	for f in $FUNCS; do fargs+=(--func "$f"); done
	[ "${name#a64}" != "$name" ] && fargs=(--func a_load_store --func a_tail --func a_tail_direct --func a_reload --func a_pinned)

	# no recording
	"$AOTPERF" report --cwasm "$cw" "${fargs[@]}" --json "$WORK/$name.s.json" >"$WORK/$name.s.txt"
	check_eq "$name: static report exit status" "$?" 0
	check "$name: static counts == the tags, every function" diff -u "$C/$name.expect" <(statics "$WORK/$name.s.json")
	check_eq "$name: artifact_target" "$(target "$WORK/$name.s.json")" "$want_target"
	check_eq "$name: roles (abi, where it came from, vmctx parameter)" "$(roles "$WORK/$name.s.json")" "$want_roles"
	[ "$abi" = - ] && continue

	# recorded: each function called directly, in the target's convention
	# f_calls spends most of its time in its callees: a larger share of calls
	record "$WORK/$name.data" -- --ms 1500 --call-abi "$abi" \
		--mix f_load_store:1,f_br_table:1,f_br_loop:1,f_call_indirect:1,f_calls:3 "$cw"
	check_eq "$name: recorded (loader --call-abi $abi)" "$?" 0
	"$AOTPERF" report -q -i "$WORK/$name.data" --cwasm "$cw" "${fargs[@]}" --json "$WORK/$name.r.json" \
		>/dev/null
	check_eq "$name: report --func exit status" "$?" 0
	check "$name: recorded static counts == the tags" diff -u "$C/$name.expect" <(statics "$WORK/$name.r.json")
	check_eq "$name: every function has samples" \
		"$(jq '[.classified_functions[] | select(.samples >= 10)] | length' "$WORK/$name.r.json")" 5
	"$AOTPERF" inject -q --direct -i "$WORK/$name.data" --cwasm "$cw" -o "$WORK/$name.jit" >/dev/null
	check_eq "$name: inject --direct" "$?" 0
	i=0
	for f in $FUNCS; do
		n=$(jq ".classified_functions[$i].local_func" "$WORK/$name.r.json")
		table "$WORK/$name.r.json" ".classified_functions[$i]" >"$WORK/$name.$f.report"
		i=$((i + 1))
		"$AOTPERF" annotate -i "$WORK/$name.jit" --json "$WORK/$name.$f.ann.json" "local_func_$n" \
			>/dev/null 2>&1
		check_eq "$name $f: annotate exit status" "$?" 0
		table "$WORK/$name.$f.ann.json" '.functions[0]' >"$WORK/$name.$f.annotate"
		perf annotate -i "$WORK/$name.jit" --stdio -n "local_func_$n" 2>/dev/null >"$WORK/$name.$f.att"
		"$AOTPERF" classify --json "$WORK/$name.$f.cls.json" "$WORK/$name.$f.att" >/dev/null 2>&1
		check_eq "$name $f: classify exit status" "$?" 0
		table "$WORK/$name.$f.cls.json" '.functions[0]' >"$WORK/$name.$f.classify"
		if [ "$f" = f_br_loop ]; then
			# objdump decodes the inline jump table as code, its lines
			# running past the table's end: annotate (bytes) places their
			# samples on the instructions all the same; the text has no
			# bytes to find the code after the table by (docs/classes.md: limits;
			# f_br_table's lines end where the table does: exact)
			check "$name $f: annotate == report --func" \
				diff -u "$WORK/$name.$f.report" "$WORK/$name.$f.annotate"
			check "$name $f: classify (text) finds the dispatch" \
				awk '$1 == "dispatch" && $3 > 0 { f = 1 } END { exit !f }' "$WORK/$name.$f.classify"
			check_eq "$name $f: classify (text) says it is approximate" \
				"$(jq '.functions[0].approximate' "$WORK/$name.$f.cls.json")" true
		else
			check "$name $f: annotate == report --func" \
				diff -u "$WORK/$name.$f.report" "$WORK/$name.$f.annotate"
			check "$name $f: classify (AT&T text) == report --func" \
				diff -u "$WORK/$name.$f.report" "$WORK/$name.$f.classify"
		fi
	done
done <<'EOF'
x86_v6 win64 ["x86_64",null,"legacy-unspecified",false] win64 prologue rcx
x86_v7 sysv ["x86_64",null,"legacy-unspecified",false] sysv prologue rdi
x86_v9 sysv ["x86_64",null,"legacy-unspecified",false] sysv prologue rdi
x86_v11_sysv sysv ["x86_64","sysv","elf64-little",true] sysv target rdi
x86_v11_win64 win64 ["x86_64","win64","coff64",true] win64 target rcx
a64_v11 - ["aarch64","aapcs64","elf64-little",true] aapcs64 target x0
EOF
finish
