#!/usr/bin/env bash
# aotperf report against an independent computation from perf script, on
# real recordings of the WAMR-like loader: plain, -g, dwarf call graphs,
# and a run that maps the core twice.
. "$(dirname "$0")/lib/common.sh"

S=$FIX/sample.cwasm
compare() { # compare NAME PERFDATA
	local name=$1 data=$2
	"$AOTPERF" report -q -i "$data" --cwasm "$S" --top 1000000 --json "$WORK/$name.json" \
		>"$WORK/$name.txt" 2>"$WORK/$name.err"
	check_eq "$name: aotperf report exit status" "$?" 0
	reference "$data" "$S.syms" >"$WORK/$name.ref"
	aotperf_counts "$WORK/$name.json" >"$WORK/$name.got"
	if diff -u "$WORK/$name.ref" "$WORK/$name.got" >"$WORK/$name.diff"; then
		ok "$name: per-function counts equal perf script's ($(grep -c FUNC "$WORK/$name.ref") functions, $(grep TOTAL "$WORK/$name.ref"))"
	else
		bad "$name: counts differ from perf script"; head -20 "$WORK/$name.diff"
	fi
	# the one-pass read and the two-pass read agree
	"$AOTPERF" report -q --two-pass -i "$data" --cwasm "$S" --top 1000000 \
		--json "$WORK/$name.2p.json" >/dev/null 2>&1
	aotperf_counts "$WORK/$name.2p.json" >"$WORK/$name.2p"
	check "$name: one pass and two passes give the same counts" diff -q "$WORK/$name.got" "$WORK/$name.2p"
	local core total
	core=$(awk '$1=="CORE"{print $2}' "$WORK/$name.ref")
	total=$(awk '$1=="TOTAL"{print $2}' "$WORK/$name.ref")
	check "$name: most samples are in the core ($core of $total)" test $((core * 2)) -gt "$total"
}

record "$WORK/plain.data" -- --ms 1500 "$S"
compare plain "$WORK/plain.data"

record "$WORK/g.data" -g -- --ms 1000 "$S"
compare callgraph-fp "$WORK/g.data"

record "$WORK/dwarf.data" --call-graph=dwarf -- --ms 800 "$S"
compare callgraph-dwarf "$WORK/dwarf.data"

record "$WORK/twice.data" -- --ms 1500 --twice "$S"
compare mapped-twice "$WORK/twice.data"
check_eq "mapped-twice: two mappings found" "$(jq .mapping.count "$WORK/mapped-twice.json")" 2
check_eq "mapped-twice: not authoritative" "$(jq .mapping.authoritative "$WORK/mapped-twice.json")" false
"$AOTPERF" report -q -i "$WORK/twice.data" --cwasm "$S" --require-size-match >/dev/null 2>"$WORK/req.err"
check_eq "mapped-twice: --require-size-match fails with status 1" "$?" 1
check "mapped-twice: --require-size-match says why" grep -q 'need exactly one' "$WORK/req.err"

# Unmapped halfway and mapped again: both mappings count, in time order.
record "$WORK/remap.data" -- --ms 1500 --remap "$S"
compare remapped "$WORK/remap.data"

# The v6 container (offsets only) of the same code attributes identically.
"$AOTPERF" report -q -i "$WORK/plain.data" --cwasm "$FIX/sample_v6.cwasm" --top 1000000 \
	--json "$WORK/v6.json" >/dev/null
aotperf_counts "$WORK/v6.json" >"$WORK/v6.got"
check "v6 .cwasm gives the same counts as v7" diff -q "$WORK/plain.got" "$WORK/v6.got"

# The hottest function is a kernel the loader ran, not a cold one.
hot=$(jq -r '.top_functions[0].name' "$WORK/plain.json")
check "plain: hottest function is a kernel ($hot)" test "${hot#cold}" = "$hot"

# Gates.
n=$(jq .total_samples "$WORK/plain.json")
"$AOTPERF" report -q -i "$WORK/plain.data" --cwasm "$S" --min-samples "$n" >/dev/null
check_eq "--min-samples equal to the count passes" "$?" 0
"$AOTPERF" report -q -i "$WORK/plain.data" --cwasm "$S" --min-samples $((n + 1)) >/dev/null 2>&1
check_eq "--min-samples above the count fails with 1" "$?" 1

# --event and --pid select samples.
"$AOTPERF" report -q -i "$WORK/plain.data" --cwasm "$S" --event cpu-clock --json "$WORK/ev.json" >/dev/null
check_eq "--event cpu-clock keeps all samples" "$(jq .total_samples "$WORK/ev.json")" "$n"
"$AOTPERF" report -q -i "$WORK/plain.data" --cwasm "$S" --event cycles >/dev/null 2>"$WORK/ev.err"
check_eq "--event of an absent event exits 2" "$?" 2
pid=$(perf script -i "$WORK/plain.data" -F pid 2>/dev/null | sort | uniq -c | sort -rn | awk 'NR==1{print $2}')
"$AOTPERF" report -q -i "$WORK/plain.data" --cwasm "$S" --pid "$pid" --json "$WORK/pid.json" >/dev/null
reference "$WORK/plain.data" "$S.syms" "$pid" >"$WORK/pid.ref"
aotperf_counts "$WORK/pid.json" >"$WORK/pid.got"
check "--pid $pid matches perf script --pid" diff -q "$WORK/pid.ref" "$WORK/pid.got"

# --base pins the mapping.
base=$(jq -r .text_base_hex "$WORK/plain.json")
"$AOTPERF" report -q -i "$WORK/plain.data" --cwasm "$S" --base "${base#0x}" --json "$WORK/base.json" >/dev/null
check_eq "--base gives the same attribution" "$(jq .attributed_samples "$WORK/base.json")" "$(jq .attributed_samples "$WORK/plain.json")"
check_eq "--base is reported as the override" "$(jq -r .mapping.override "$WORK/base.json")" "$base"

finish
