#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# A new process's first samples before the records that introduce it
# (session/lookahead.h). perf writes a round's buffers one CPU after the
# other, so a child's FORK (written on its parent's CPU), and its exec and
# mappings when it moved CPUs, can come after its first samples. The one
# pass takes them ahead of their place, up to the end of the next round,
# instead of reading the file twice. Real recordings of `sh -c loader`
# (small buffers: many rounds) with the loader's introducing records moved
# after its first sample by late_intro.py:
#
#   - moved within the sample's round, or into the next: one pass, the
#     moved records read ahead (JSON read_ahead), and every number the same
#     as the two-pass read of the file as recorded, and perf script's own
#     per-function counts (perf orders by time itself);
#   - moved two rounds on, past where perf can write them: two passes, the
#     same numbers;
#   - the same for the off-CPU view of a switch recording.
#
# A recording whose one-pass read already takes two passes as recorded (a
# late mapping of a process already known, from another CPU: not taken
# ahead, docs/formats-perf.md) is not expected to read once when moved;
# the numbers are checked all the same.
. "$(dirname "$0")/lib/common.sh"
. "$E2E/lib/asmcore.sh"
C=$FIX/sample.cwasm
D=$WORK/sh.data
perf record -q -e cpu-clock -k mono -F 2000 -g -m 4 -o "$D" -- \
	sh -c "'$LOADER' --ms 600 '$C' >/dev/null" >"$D.log" 2>&1
check_eq "perf record -m 4 of sh -c loader: exit status" "$?" 0
nrounds=$(perf report -D -i "$D" 2>/dev/null | grep -c 'PERF_RECORD_FINISHED_ROUND')
check "the recording has rounds enough to move records past two ($nrounds)" test "$nrounds" -ge 4

# read NAME DATA [OPTS...]: the one-pass read's JSON and stacks of DATA
read_one() {
	local name=$1 data=$2; shift 2
	"$AOTPERF" report -q -i "$data" --cwasm "$C" --children --top 0 "$@" \
		--folded "$WORK/$name.folded" --json "$WORK/$name.json" >/dev/null
}
read_one ref "$D" --two-pass
check_eq "as recorded, two passes: exit status" "$?" 0
reference "$D" "$C.syms" >"$WORK/perf.counts"
# a recording can have a late record read ahead cannot take (a mapping of
# a process already known, from another CPU): then none of its copies reads once
read_one orig "$D"
orig=$(jq .passes "$WORK/orig.json")
echo "note: as recorded, the one-pass read took $orig pass(es)"

for where in 0 1 2; do
	L=$WORK/late$where.data
	moved=$(python3 "$E2E/late_intro.py" "$D" "$L" loader "$where")
	# its FORK at least, and its exec and mappings when its first sample came after
	# them; none when perf wrote them all after that sample already (one pass all the same)
	check "late_intro.py: the loader's introducing records after its first sample" \
		test -n "$moved"
	echo "note: $moved records moved"
	read_one "late$where" "$L"
	check_eq "moved $where round(s) on: exit status" "$?" 0
	if [ "$where" -lt 2 ] && [ "$orig" != 1 ]; then
		echo "note: as recorded it reads twice: one pass is not expected"
	elif [ "$where" -lt 2 ]; then
		check_eq "moved $where round(s) on: one pass" "$(jq .passes "$WORK/late$where.json")" 1
		check "moved $where round(s) on: the moved records read ahead" \
			test "$(jq .read_ahead "$WORK/late$where.json")" -ge "$(( moved > 0 ? moved : 1 ))"
	elif [ "${moved:-0}" -eq 0 ]; then
		echo "note: nothing moved: perf wrote the records after the first sample itself"
	else
		check_eq "moved $where rounds on: past the look-ahead, two passes" \
			"$(jq .passes "$WORK/late$where.json")" 2
	fi
	check_eq "moved $where round(s) on: the children as the two-pass read" \
		"$(jq -c .children "$WORK/late$where.json" | sha256sum)" \
		"$(jq -c .children "$WORK/ref.json" | sha256sum)"
	check_eq "moved $where round(s) on: the stacks as the two-pass read" \
		"$(sort "$WORK/late$where.folded" | sha256sum)" "$(sort "$WORK/ref.folded" | sha256sum)"
	check_eq "moved $where round(s) on: the host rows as the two-pass read" \
		"$(jq -c .outside_wasm "$WORK/late$where.json" | sha256sum)" \
		"$(jq -c .outside_wasm "$WORK/ref.json" | sha256sum)"
	aotperf_counts "$WORK/late$where.json" >"$WORK/late$where.counts"
	same_counts "moved $where round(s) on: per-function counts equal perf script's" \
		"$WORK/late$where.counts" "$WORK/perf.counts"
done

# the off-CPU view: its sched_switch samples and switch records, read once
SRC=$(cd "$E2E/../.." && pwd)
OC=$WORK/oc.cwasm
asm_core "$SRC/tests/fixtures/offcpu.S" "$OC"
check_eq "offcpu: fixture built" "$?" 0
O=$WORK/oc.data
perf record -q -N -k mono -m 4 -e cpu-clock/freq=2000,name=cpu-clock/ -e sched:sched_switch -g \
	--switch-events -o "$O" -- \
	sh -c "'$LOADER' --wall --ms 800 --mix offcpu:1 '$OC' >/dev/null" >"$O.log" 2>&1
check_eq "perf record of sh -c loader, switches: exit status" "$?" 0
"$AOTPERF" report -q -i "$O" --cwasm "$OC" --two-pass --json "$WORK/oc-ref.json" >/dev/null
check_eq "off-CPU, as recorded, two passes: exit status" "$?" 0
"$AOTPERF" report -q -i "$O" --cwasm "$OC" --json "$WORK/oc-orig.json" >/dev/null
orig=$(jq .passes "$WORK/oc-orig.json")
echo "note: off-CPU, as recorded, the one-pass read took $orig pass(es)"
moved=$(python3 "$E2E/late_intro.py" "$O" "$WORK/oc-late.data" loader)
echo "note: $moved records moved (0: perf wrote them after the first sample itself)"
"$AOTPERF" report -q -i "$WORK/oc-late.data" --cwasm "$OC" --json "$WORK/oc-late.json" >/dev/null
check_eq "off-CPU, introducing records moved: exit status" "$?" 0
if [ "$orig" = 1 ]; then
	check_eq "off-CPU, moved: one pass" "$(jq .passes "$WORK/oc-late.json")" 1
	check "off-CPU, moved: the moved records read ahead" \
		test "$(jq .read_ahead "$WORK/oc-late.json")" -ge "$(( ${moved:-1} > 0 ? ${moved:-1} : 1 ))"
else
	echo "note: off-CPU, as recorded it reads twice: one pass is not expected"
fi
check "off-CPU, moved: the view has waits ($(jq .off_cpu.intervals "$WORK/oc-late.json") intervals)" \
	test "$(jq '.off_cpu.intervals // 0' "$WORK/oc-late.json")" -gt 0
check_eq "off-CPU, moved: the off-CPU view as the two-pass read" \
	"$(jq -c .off_cpu "$WORK/oc-late.json" | sha256sum)" \
	"$(jq -c .off_cpu "$WORK/oc-ref.json" | sha256sum)"
check_eq "off-CPU, moved: the functions as the two-pass read" \
	"$(jq -c .top_functions "$WORK/oc-late.json" | sha256sum)" \
	"$(jq -c .top_functions "$WORK/oc-ref.json" | sha256sum)"
finish
