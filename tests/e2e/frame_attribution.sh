#!/usr/bin/env bash
# Frame-attribution sidecars in aotperf's views (report, annotate, the
# dlfilter, spills), on a real recording of the fixture kernels. The
# sidecars come from tests/fixtures/mksidecar.c with origins given by
# hand (tests/fixtures/sidecars/*.spec); every per-origin and per-slot
# sample count is checked against an independent count: perf script's raw
# ips, the loader's mapping, the .syms offsets and the sidecar's own
# [native_start, native_end) ranges read with jq, none of which goes
# through aotperf's decoder or its sample hash.
. "$(dirname "$0")/lib/common.sh"
. "$E2E/lib/view_formats.sh"

F=$FIX/frames.cwasm
SYMS=$F.syms
SIDE=$FIX/side/frames
PART=$FIX/side-partial/frames
EX=$E2E/../fixtures/sidecars
sym() { awk -v n="$1" '$4 == n { print $1, strtonum($2), $3 }' "$SYMS"; }
read -r SH SH_OFF SH_SIZE < <(sym spill_heavy)
read -r BT BT_OFF BT_SIZE < <(sym br_table_dispatch)

# ---- static: the compiler's own examples and a fixture sidecar validate ----
for ex in sidecar-v1-x86_64 sidecar-v2-aarch64; do
	"$AOTPERF" report --validate-frame-metadata --cwasm "$EX/$ex.cwasm" --func 0 \
		--frame-attribution "$EX/$ex" >"$WORK/v.out" 2>&1
	check_eq "$ex validates" "$?" 0
	check "$ex: the sidecar named, then what it is valid for" grep -q "^  valid: local_func_0 of .*, schema [12], module 0" "$WORK/v.out"
done
jq '.normalized_code_sha256 = ("0" * 64)' "$SIDE.mod0.func$SH.json" >"$WORK/bad.json"
"$AOTPERF" report --validate-frame-metadata --cwasm "$F" --func spill_heavy \
	--frame-metadata "$WORK/bad.json" >/dev/null 2>"$WORK/bad.err"
check_eq "a sidecar with a wrong code hash is refused with exit 2" "$?" 2
check_eq "... in one line" "$(wc -l <"$WORK/bad.err")" 1
check "... naming the file and the hash" grep -q "bad.json: normalized_code_sha256" "$WORK/bad.err"
"$AOTPERF" report --validate-frame-metadata --cwasm "$F" --func helper_mix \
	--frame-metadata "$SIDE.mod0.func$SH.json" >/dev/null 2>"$WORK/other.err"
check_eq "another function's sidecar is refused" "$?" 2
"$AOTPERF" report --validate-frame-metadata --cwasm "$FIX/sample.cwasm" --func spill_heavy \
	--frame-metadata "$SIDE.mod0.func$SH.json" >/dev/null 2>"$WORK/legacy.err"
check_eq "a legacy container cannot vouch for a sidecar" "$?" 2
check "... and says so" grep -q "cannot vouch" "$WORK/legacy.err"

# ---- schema 2: the aarch64 idioms' generated sidecars, statically ----
A64=$B/classify/a64_v11.cwasm
for fn in a_load_store a_reload; do
	n=$(awk -v k=$fn '$4 == k { print $1 }' "$A64.syms")
	side=$FIX/side-a64/a64.mod0.func$n.json
	"$AOTPERF" attr --cwasm "$A64" --arch aarch64 --func "$n" --frame-metadata "$side" \
		--validate-frame-metadata --json-out "$WORK/$fn.json" >/dev/null
	check_eq "$fn (schema 2) validates" "$?" 0
	check "$fn: static instructions per origin == the sidecar's accesses per origin" diff \
		<(jq -r '[.accesses[].origin] | group_by(.) | map("\(.[0]) \(length)") | .[]' "$side") \
		<(jq -r '.classified_function.frame_attribution.origins | to_entries[] |
			 "\(.key) \(.value.static_instructions)"' "$WORK/$fn.json")
done
check_eq "a_reload: the allocator slot's value, stored once and reloaded once" \
	"$(jq -c '.classified_function.frame_attribution.allocator_contributors[] | [.slot, .vreg, .static_loads, .static_stores]' \
		"$WORK/a_reload.json")" '[0,5,1,1]'
check_eq "a_load_store: its frame record pair is fixed state, listed once" \
	"$(jq '.classified_function.classes.fixed_runtime_frame_state_store.static_instructions' "$WORK/a_load_store.json")" 4

# ---- a recording ----
record "$WORK/p.data" -- --ms 1500 --mix spill_heavy:3,br_table_dispatch:1 "$F"
check "loader ran" test -s "$WORK/p.data"

# ips NAME: "offset count" of every sample in function NAME, from perf
# script's raw ips and the anonymous mapping of the text's page-rounded size
ips() {
	local idx off size ts
	read -r idx off size < <(sym "$1")
	ts=$(syms_text_size "$SYMS")
	perf script -i "$WORK/p.data" --show-mmap-events -G -F ip,event 2>/dev/null |
	gawk -v ts="$ts" -v off="$off" -v size="$size" '
	BEGIN { explen = int((ts + 4095) / 4096) * 4096 }
	/PERF_RECORD_MMAP2? / {
		split($0, a, "[][()]")
		if ($0 ~ /r-xp/ && $0 ~ /\/\/anon/ && strtonum(a[3]) == explen) base = strtonum(a[2])
		next
	}
	/cpu-clock:/ && base {
		o = strtonum("0x" $NF) - base - off
		if (o >= 0 && o < size) hits[o]++
	}
	END { for (o in hits) print o, hits[o] }' | sort -n
}
ips spill_heavy >"$WORK/sh.ips"
ips br_table_dispatch >"$WORK/bt.ips"
check "spill_heavy has samples" test "$(awk '{ n += $2 } END { print n + 0 }' "$WORK/sh.ips")" -gt 300

# by_origin SIDECAR IPS: "origin samples" over the sidecar's access ranges
by_origin() {
	jq -r '.accesses[] | "\(.native_start) \(.native_end) \(.origin)"' "$1" |
	gawk -v ipsf="$2" '
	BEGIN { while ((getline l < ipsf) > 0) { split(l, f, " "); h[f[1]] = f[2] } }
	{ for (o = $1; o < $2; o++) n[$3] += h[o]; seen[$3] = 1 }
	END { for (k in seen) print k, n[k] + 0 }' | sort
}
# by_slot SIDECAR IPS: "slot samples" of the allocator accesses (one component each on x86)
by_slot() {
	jq -r '.accesses[] | select(.origin == "allocator_spill") | "\(.native_start) \(.native_end) \(.slot)"' "$1" |
	gawk -v ipsf="$2" '
	BEGIN { while ((getline l < ipsf) > 0) { split(l, f, " "); h[f[1]] = f[2] } }
	{ for (o = $1; o < $2; o++) n[$3] += h[o]; seen[$3] = 1 }
	END { for (k in seen) print k, n[k] + 0 }' | sort -n
}
# origins JSON FILTER: "origin samples" from a frame_attribution object
origins() { jq -r "$2 | .origins | to_entries[] | \"\(.key) \(.value.samples)\"" "$1" | sort; }

"$AOTPERF" report -q -i "$WORK/p.data" --cwasm "$F" --func spill_heavy --func br_table_dispatch \
	--frame-attribution "$SIDE" --json "$WORK/r.json" >"$WORK/r.txt"
check_eq "report --frame-attribution exit status" "$?" 0
SH_FA='.classified_functions[0].frame_attribution'
BT_FA='.classified_functions[1].frame_attribution'
by_origin "$SIDE.mod0.func$SH.json" "$WORK/sh.ips" >"$WORK/sh.want"
origins "$WORK/r.json" "$SH_FA" >"$WORK/sh.got"
same_counts "spill_heavy: samples per origin == perf script ips in the sidecar's ranges" \
	"$WORK/sh.got" "$WORK/sh.want"
by_origin "$SIDE.mod0.func$BT.json" "$WORK/bt.ips" >"$WORK/bt.want"
origins "$WORK/r.json" "$BT_FA" >"$WORK/bt.got"
same_counts "br_table_dispatch (inline jump table): samples per origin, the same way" \
	"$WORK/bt.got" "$WORK/bt.want"
check "the helper's classified_function carries the same origins" \
	diff <(origins "$WORK/r.json" '.classified_function.frame_attribution') "$WORK/sh.got"

by_slot "$SIDE.mod0.func$SH.json" "$WORK/sh.ips" >"$WORK/slot.want"
jq -r "$SH_FA | .allocator_contributors[] | \"\(.slot) \(.samples)\"" "$WORK/r.json" |
	sort -n >"$WORK/slot.got"
same_counts "allocator contributors: samples per slot == ips at the slot's accesses" \
	"$WORK/slot.got" "$WORK/slot.want"
alloc=$(jq "$SH_FA | .origins.allocator_spill.samples" "$WORK/r.json")
check_eq "contributors' samples add up to the allocator origin's" \
	"$(jq "[$SH_FA | .allocator_contributors[].samples] | add" "$WORK/r.json")" "$alloc"
check_eq "... and to the reconciliation's sampled reloads + spill stores" \
	"$(jq "$SH_FA | .reconciliation | .sampled_allocator_loads + .sampled_allocator_stores" \
		"$WORK/r.json")" "$alloc"
check_eq "the ambiguous slot 3 is listed with both candidate values" \
	"$(jq -c "$SH_FA | .allocator_contributors[] | select(.slot == 3) | [.vreg, .vreg_ambiguous, .candidate_vregs]" \
		"$WORK/r.json")" '[null,true,[13,14]]'
check_eq "reconciliation: emitted == spill metric == the spec's 17/15" \
	"$(jq -c "$SH_FA | .reconciliation | [.emitted_allocator_loads, .emitted_allocator_stores, .spill_metric_loads, .spill_metric_stores, .matches]" \
		"$WORK/r.json")" '[17,15,17,15,true]'
check_eq "every frame instruction proven: coverage 100%, no unknown" \
	"$(jq -c "$SH_FA | .coverage | [.static_coverage_pct, .origin_coverage_pct, .unknown_frame_instructions]" \
		"$WORK/r.json")" '[100,100,0]'
fsamp=$(awk '{ n += $2 } END { print n }' "$WORK/sh.ips")
check_eq "the function's samples == its ips" "$(jq '.classified_functions[0].samples' "$WORK/r.json")" "$fsamp"
want_pct=$(awk -v a="$alloc" -v f="$fsamp" 'BEGIN { printf "%.4f", 100 * a / f }')
check_eq "levers.spills_pct == allocator samples / function samples" \
	"$(jq -r '.classified_functions[0].levers.spills_pct' "$WORK/r.json" | awk '{ printf "%.4f", $1 }')" \
	"$want_pct"
check_eq "the verdict uses the proven spills" \
	"$(jq -r '.classified_functions[0].levers.verdict' "$WORK/r.json")" spill-bound
check "text: the origins table, contributors and reconciliation" \
	grep -q "reconcile  emitted allocator ld/st=17/15 == spill metric 17/15 (match)" "$WORK/r.txt"
check "the origins section fits 80 columns (but the sidecar's path)" \
	test "$(awk '/frame origins/ { on = 1; next } /hottest instructions/ { on = 0 }
		     on && length > m { m = length } END { print m + 0 }' "$WORK/r.txt")" -le 80

# ---- a sidecar that leaves slot 0 out: those instructions are unproven ----
"$AOTPERF" report -q -i "$WORK/p.data" --cwasm "$F" --func spill_heavy \
	--frame-attribution "$PART" --json "$WORK/part.json" >"$WORK/part.txt"
formats frames "partial sidecar" "$WORK/part.txt" "$WORK/part.json"
formats frames "whole sidecar" "$WORK/r.txt" "$WORK/r.json"
check_eq "partial sidecar: exit status" "$?" 0
jq -r '.accesses[] | select(.frame_offset == -72) | "\(.native_start) \(.native_end) x"' \
	"$SIDE.mod0.func$SH.json" | gawk -v ipsf="$WORK/sh.ips" '
	BEGIN { while ((getline l < ipsf) > 0) { split(l, f, " "); h[f[1]] = f[2] } }
	{ k++; for (o = $1; o < $2; o++) n += h[o] } END { print k, n + 0 }' >"$WORK/gap.want"
check_eq "unknown frame instructions == the left-out accesses (count, samples)" \
	"$(jq -r '.classified_functions[0].frame_attribution.coverage | "\(.unknown_frame_instructions) \(.unknown_frame_samples)"' \
		"$WORK/part.json")" "$(cat "$WORK/gap.want")"
check_eq "... each listed with its offset" \
	"$(jq '.classified_functions[0].frame_attribution.unknown_instructions | map(select(.frame_offset == -72)) | length' \
		"$WORK/part.json")" "$(cut -d' ' -f1 "$WORK/gap.want")"
check "... in the text too" grep -q "frame instructions without a proven origin" "$WORK/part.txt"

# ---- no sidecar for a function: noted, not an error ----
"$AOTPERF" report -q -i "$WORK/p.data" --cwasm "$F" --func 0 --frame-attribution "$SIDE" \
	--json "$WORK/none.json" >"$WORK/none.txt"
check_eq "a function without a sidecar: exit 0" "$?" 0
check "... noted" grep -q "no sidecar" "$WORK/none.txt"
check_eq "... and in the JSON" "$(jq '.classified_functions[0].frame_metadata_present' "$WORK/none.json")" false
"$AOTPERF" report -q -i "$WORK/p.data" --cwasm "$F" --func spill_heavy \
	--frame-metadata "$SIDE.mod0.func$SH.json" --json "$WORK/meta.json" >/dev/null
check "--frame-metadata FILE: the same origins" \
	diff <(origins "$WORK/meta.json" "$SH_FA") "$WORK/sh.got"
"$AOTPERF" report -q -i "$WORK/p.data" --cwasm "$F" --func spill_heavy --frame-metadata "$WORK/bad.json" \
	--json "$WORK/badr.json" >"$WORK/badr.out" 2>"$WORK/badr.err"
check_eq "report with a refused sidecar: exit 2" "$?" 2
check "... nothing printed but the one error line" test ! -s "$WORK/badr.out" -a "$(wc -l <"$WORK/badr.err")" -eq 1
check "... and no JSON written" test ! -e "$WORK/badr.json"

# ---- annotate: the listing's samples, the same origins ----
"$AOTPERF" inject -q -i "$WORK/p.data" --cwasm "$F" -o "$WORK/jit.data" >/dev/null 2>&1
"$AOTPERF" annotate -i "$WORK/jit.data" --cwasm "$F" --frame-attribution "$SIDE" \
	--json "$WORK/ann.json" "local_func_$SH" >"$WORK/ann.txt" 2>"$WORK/ann.err"
check_eq "annotate --frame-attribution exit status" "$?" 0
check "annotate: origins == report's" diff <(origins "$WORK/ann.json" '.frame_attribution') "$WORK/sh.got"
check "annotate: the verdict uses the proven spills" grep -q "=> spill-bound" "$WORK/ann.txt"

# ---- the dlfilter ----
if [ -f "$B/aotperf-dlfilter.so" ]; then
	perf script -i "$WORK/p.data" --dlfilter "$B/aotperf-dlfilter.so" --dlarg "$F" \
		--dlarg func=spill_heavy --dlarg "frame-attribution=$SIDE" --dlarg quiet \
		--dlarg "json=$WORK/dlf.json" --dlarg "out=$WORK/dlf.txt" >/dev/null 2>"$WORK/dlf.err"
	check_eq "dlfilter frame-attribution= exit status" "$?" 0
	check "dlfilter: origins == report's" diff <(origins "$WORK/dlf.json" "$SH_FA") "$WORK/sh.got"
	check "dlfilter: the origins in its summary" grep -q "frame origins  sidecar" "$WORK/dlf.txt"
	perf script -i "$WORK/p.data" --dlfilter "$B/aotperf-dlfilter.so" --dlarg "$F" \
		--dlarg func=spill_heavy --dlarg "frame-metadata=$WORK/bad.json" >/dev/null 2>"$WORK/dlfb.err"
	check "dlfilter: a refused sidecar stops perf before the run" grep -q "bad.json" "$WORK/dlfb.err"
fi

# ---- spills: the log's spill_ld/st against the sidecar's ----
cat >"$WORK/spill.log" <<EOF
[aot-spill-metric] local_func=$SH mod=0 name=spill_heavy insts=99 clobbers=3 slots=6 spilled_vregs=7 scalar=7 v128=0 slots_scalar=6 slots_v128=0 spill_ld=17 spill_st=15 remat=0 callee_saved=1
[aot-spill-metric] local_func=$BT mod=0 name=br_table_dispatch insts=90 clobbers=1 slots=0 spilled_vregs=0 scalar=0 v128=0 slots_scalar=0 slots_v128=0 spill_ld=2 spill_st=0 remat=0 callee_saved=4
EOF
"$AOTPERF" spills "$WORK/spill.log" -q -i "$WORK/p.data" --cwasm "$F" --frame-attribution "$SIDE" \
	--json "$WORK/sp.json" >"$WORK/sp.txt"
check_eq "spills --frame-attribution exit status" "$?" 0
check "spills: the sidecar's 17/15 == the log's" grep -q "sidecar ld/st 17/15 == log 17/15" "$WORK/sp.txt"
check "spills: a log of another build is flagged" grep -q "sidecar ld/st 0/0 != log 2/0 (another build?)" "$WORK/sp.txt"
check "spills JSON: the same origins" \
	diff <(origins "$WORK/sp.json" '.frame_origins[] | select(.local_func == '"$SH"') | .frame_attribution') \
	"$WORK/sh.got"

finish
