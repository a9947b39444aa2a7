#!/usr/bin/env bash
# report --frame-attribution: sidecars are generated here from objdump's
# view of the fixture kernels (every rbp-relative access becomes an entry,
# its origin chosen by slot), then report's per-origin totals are checked
# against awk over the same sidecar and the raw sample ips of perf script,
# neither of which goes through aotperf's decoder or its sample hash.
# One entry is planted where no frame access exists and one real access
# is left out: both must come back as disagreements.
. "$(dirname "$0")/lib/common.sh"

S=$FIX/sample.cwasm
SYMS=$S.syms
TEXT=$FIX/sample.text
P=$WORK/side/sample
mkdir -p "$WORK/side"

sym() { awk -v n="$1" '$4 == n { print $1, strtonum($2), $3 }' "$SYMS"; }

# gen_sidecar NAME PLANT DROP: objdump's instructions of function NAME ->
# a sidecar. PLANT: also list the first shift (in the hot loop, no memory
# operand) as explicit_frame_storage. DROP: leave out the first load of
# slot -0x68 (in the loop too). Origins by slot: -0x2c (the trip count the runtime passes)
# fixed_runtime_frame_state, -0x38/-0x40 (pc, sp) wasm_local_or_phi, the
# rest allocator_spill. Every other range is written as hex strings.
gen_sidecar() {
	local name=$1 plant=$2 drop=$3 idx off size
	read -r idx off size < <(sym "$name")
	objdump -D -b binary -m i386:x86-64 -M intel --no-show-raw-insn \
		--start-address="$off" --stop-address=$((off + size)) "$TEXT" |
	gawk -v off="$off" -v size="$size" -v idx="$idx" -v plant="$plant" -v drop="$drop" '
	/^ +[0-9a-f]+:\t/ {
		a = strtonum("0x" gensub(/^ +([0-9a-f]+):.*/, "\\1", 1)) - off
		t = $0; sub(/^[^\t]*\t/, "", t)
		addr[n] = a; text[n++] = t
	}
	function origin(slot) {
		if (slot == -0x2c) return "fixed_runtime_frame_state"
		if (slot == -0x38 || slot == -0x40) return "wasm_local_or_phi"
		return "allocator_spill"
	}
	function emit(s, e, kind, slot, org) {
		printf "%s\n    {", (k++ ? "," : "")
		if (k % 2) printf "\"start\": %d, \"end\": %d", s, e
		else printf "\"start\": \"0x%x\", \"end\": \"0x%x\"", s, e
		if (kind != "") printf ", \"kind\": \"%s\"", kind
		if (slot != "") printf ", \"slot\": %d", slot
		printf ", \"origin\": \"%s\"}", org
	}
	END {
		addr[n] = size
		printf "{\"schema\": \"wamr-aot-frame-attribution\", \"version\": 1,\n"
		printf " \"mod\": 0, \"local_func\": %d, \"name\": \"generated\",\n \"accesses\": [", idx
		for (i = 0; i < n; i++) {
			if (match(text[i], /\[rbp([-+])0x([0-9a-f]+)\]/, m)) {
				slot = strtonum("0x" m[2]) * (m[1] == "-" ? -1 : 1)
				# Intel order: a memory destination is written
				kind = text[i] ~ /^[a-z0-9]+ +[A-Z]+ PTR \[rbp/ ? "store" : "load"
				if (drop && slot == -0x68 && kind == "load" && !dropped++) continue
				emit(addr[i], addr[i + 1], kind, slot, origin(slot))
			} else if (plant && !planted && text[i] ~ /^shr /) {
				planted = 1
				emit(addr[i], addr[i + 1], "", "", "explicit_frame_storage")
			}
		}
		printf "\n]}\n"
	}'
}

# ips PERFDATA NAME: "offset count" of the samples inside function NAME,
# from perf script's raw ips and the loader's anonymous text mapping.
ips() {
	local idx off size ts
	read -r idx off size < <(sym "$2")
	ts=$(syms_text_size "$SYMS")
	perf script -i "$1" --show-mmap-events -G -F pid,ip,event 2>/dev/null |
	gawk -v ts="$ts" -v off="$off" -v size="$size" '
	BEGIN { explen = int((ts + 4095) / 4096) * 4096 }
	/PERF_RECORD_MMAP2? / {
		split($0, a, "[][()]")
		if ($0 ~ /r-x/ && $0 ~ /\/\/anon/ && strtonum(a[3]) == explen)
			base = strtonum(a[2])
		next
	}
	/cpu-clock:/ && base {
		o = strtonum("0x" $NF) - base - off
		if (o >= 0 && o < size) hits[o]++
	}
	END { for (o in hits) print o, hits[o] }'
}

# expect SIDECAR IPS: "origin accesses samples" over the sidecar's ranges
expect() {
	jq -r '.accesses[] | [(.start | tostring), (.end | tostring), .origin] | @tsv' "$1" |
	gawk -F'\t' -v ipsf="$2" '
	BEGIN { while ((getline l < ipsf) > 0) { split(l, f, " "); h[f[1]] = f[2] } }
	{
		s = strtonum($1); e = strtonum($2)
		acc[$3]++
		for (o = s; o < e; o++) smp[$3] += h[o]
	}
	END { for (k in acc) print k, acc[k], smp[k] + 0 }' | sort
}

# got JSON: the same lines from report's frame_attribution (non-empty origins)
got() {
	jq -r '.classified_function.frame_attribution.origins | to_entries[] |
	       select(.value.static_accesses > 0) |
	       "\(.key) \(.value.static_accesses) \(.value.samples)"' "$1" | sort
}

record "$WORK/p.data" -- --ms 1000 "$S"
check_eq "recording" "$?" 0

gen_sidecar spill_heavy 1 1 >"$P.mod0.func1501.json"
gen_sidecar br_table_dispatch 0 0 >"$P.mod0.func1503.json"
check "generated sidecars are JSON" jq -e . "$P.mod0.func1501.json" "$P.mod0.func1503.json" >/dev/null

"$AOTPERF" report -q -i "$WORK/p.data" --cwasm "$S" --func spill_heavy \
	--frame-attribution "$P" --json "$WORK/r.json" >"$WORK/r.txt" 2>"$WORK/r.err"
check_eq "report --frame-attribution exit status" "$?" 0
check "function has samples" test "$(jq .classified_function.samples "$WORK/r.json")" -gt 20
check_eq "frame_attribution.present" "$(jq .classified_function.frame_attribution.present "$WORK/r.json")" true

ips "$WORK/p.data" spill_heavy >"$WORK/ips"
check_eq "perf script ips add up to report's function samples" \
	"$(awk '{ s += $2 } END { print s + 0 }' "$WORK/ips")" \
	"$(jq .classified_function.samples "$WORK/r.json")"
expect "$P.mod0.func1501.json" "$WORK/ips" >"$WORK/want"
got "$WORK/r.json" >"$WORK/got"
check "origin totals == awk over sidecar + perf script ips" diff -u "$WORK/want" "$WORK/got"
check "all three kinds of origin are present" test "$(wc -l <"$WORK/got")" -eq 4

# disagreements: the planted entry and the dropped access, exactly
fa() { jq -r ".classified_function.frame_attribution.$1" "$WORK/r.json"; }
check_eq "planted entry reported sidecar_only" "$(fa disagreements.sidecar_only.instructions)" 1
check_eq "dropped access reported heuristic_only" "$(fa disagreements.heuristic_only.instructions)" 1
check_eq "no kind mismatches (objdump and capstone agree on stores)" \
	"$(fa disagreements.kind_mismatch.instructions)" 0
planted_off=$(jq -r '[.accesses[] | select(.origin == "explicit_frame_storage")][0].start' \
	"$P.mod0.func1501.json")
check_eq "planted entry listed at its offset" \
	"$(fa 'disagreements.listed[] | select(.type == "sidecar_only") | .offset')" \
	"$(printf '%d' "$planted_off")"
check_eq "dropped access is the first load of slot -0x68" \
	"$(fa 'disagreements.listed[] | select(.type == "heuristic_only") | .instruction')" \
	"mov rdx, qword ptr [rbp - 0x68]"
at() { awk -v o="$1" '$1 == o { n = $2 } END { print n + 0 }' "$WORK/ips"; }
check_eq "planted entry's samples == perf script's at its offset" \
	"$(fa disagreements.sidecar_only.samples)" "$(at "$(printf '%d' "$planted_off")")"
check_eq "dropped access's samples == perf script's at its offset" \
	"$(fa disagreements.heuristic_only.samples)" \
	"$(at "$(fa 'disagreements.listed[] | select(.type == "heuristic_only") | .offset')")"
check_eq "the dropped access is the heuristic's stack traffic with no sidecar access" \
	"$(fa heuristic_stack_traffic.no_sidecar_access.samples)" "$(fa disagreements.heuristic_only.samples)"
# (c): the heuristic's stack traffic split by the compiler's origin
check_eq "heuristic stack traffic == heuristic classes" "$(fa heuristic_stack_traffic.instructions)" \
	"$(jq '.classified_function.stack_traffic.static_instructions' "$WORK/r.json")"
check_eq "allocator spills in the heuristic's stack traffic == sidecar allocator_spill" \
	"$(fa heuristic_stack_traffic.by_origin.allocator_spill.samples)" \
	"$(awk '$1 == "allocator_spill" { print $3 }' "$WORK/want")"
check_eq "no explicit storage in the heuristic's stack traffic" \
	"$(fa heuristic_stack_traffic.by_origin.explicit_frame_storage.instructions)" 0
check "text report has the origins table and disagreements" \
	grep -q "wasm_local_or_phi" "$WORK/r.txt"
check "text report lists the planted entry" grep -q "sidecar_only" "$WORK/r.txt"

# a second function with a jump table in its text: a clean sidecar, no disagreements
"$AOTPERF" report -q -i "$WORK/p.data" --cwasm "$S" --func br_table_dispatch \
	--frame-attribution "$P" --json "$WORK/z.json" >/dev/null
check_eq "br_table_dispatch: its two frame accesses found" \
	"$(jq '.classified_function.frame_attribution.accesses' "$WORK/z.json")" 2
check_eq "br_table_dispatch: no disagreements" \
	"$(jq '[.classified_function.frame_attribution.disagreements |
		.heuristic_only, .sidecar_only, .kind_mismatch | .instructions] | add' "$WORK/z.json")" 0

# a function without a sidecar: a note, not an error
"$AOTPERF" report -q -i "$WORK/p.data" --cwasm "$S" --func zext_heavy \
	--frame-attribution "$P" --json "$WORK/n.json" >"$WORK/n.txt"
check_eq "missing sidecar: exit 0" "$?" 0
check_eq "missing sidecar: present false" \
	"$(jq .classified_function.frame_attribution.present "$WORK/n.json")" false
check "missing sidecar: noted in the text" grep -q "no sidecar .*func1502.json" "$WORK/n.txt"

"$AOTPERF" report -q -i "$WORK/p.data" --cwasm "$S" --frame-attribution "$P" >/dev/null 2>"$WORK/nf.err"
check_eq "--frame-attribution without --func/--hot: exit 2" "$?" 2
"$AOTPERF" report -q -i "$WORK/p.data" --cwasm "$S" --hot 4 --frame-attribution "$P" \
	--json "$WORK/h.json" >/dev/null
check_eq "--hot 4: a sidecar is used exactly where one exists" \
	"$(jq -r '.classified_functions[] | "\(.local_func) \(.frame_attribution.present)"' "$WORK/h.json")" \
	"$(jq -r '.classified_functions[].local_func' "$WORK/h.json" | while read -r n; do
		if [ -f "$P.mod0.func$n.json" ]; then echo "$n true"; else echo "$n false"; fi
	done)"

# malformed sidecars: exit 2, one line naming the file
bad_sidecar() { # DESC CONTENT WANT_IN_MESSAGE
	printf '%s' "$2" >"$WORK/side/bad.mod0.func1501.json"
	"$AOTPERF" report -q -i "$WORK/p.data" --cwasm "$S" --func spill_heavy \
		--frame-attribution "$WORK/side/bad" >"$WORK/bad.out" 2>"$WORK/bad.err"
	check_eq "$1: exit 2" "$?" 2
	check "$1: one line naming the file and the problem" \
		test "$(wc -l <"$WORK/bad.err")" -eq 1 -a \
		"$(grep -c "bad.mod0.func1501.json.*$3" "$WORK/bad.err")" -eq 1
	check "$1: nothing on stdout" test ! -s "$WORK/bad.out"
}
bad_sidecar "wrong schema" '{"schema": "other", "accesses": []}' 'schema is "other"'
bad_sidecar "range past the function" \
	'{"schema": "wamr-aot-frame-attribution", "accesses": [{"start": 380, "end": 400, "origin": "allocator_spill"}]}' \
	'outside the function'
bad_sidecar "overlap" \
	'{"schema": "wamr-aot-frame-attribution", "accesses": [{"start": 10, "end": 16, "origin": "a"}, {"start": 12, "end": 20, "origin": "b"}]}' \
	'overlap'
bad_sidecar "origin not a string" \
	'{"schema": "wamr-aot-frame-attribution", "accesses": [{"start": 10, "end": 16, "origin": 3}]}' \
	'"origin" is a number'
bad_sidecar "wrong function" \
	'{"schema": "wamr-aot-frame-attribution", "local_func": 7, "accesses": []}' \
	'"local_func" is 7'
bad_sidecar "truncated JSON" '{"schema": "wamr-aot-frame-attribution", "acc' 'invalid JSON'
finish
