#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Messages that can be acted on when there is nothing to attribute. No
# mapping of the core's size: the executable //anon mappings the recording
# has are listed (pid, command, base, size, samples: checked against perf
# script's mmap events and samples), or their absence is said; a core larger
# than every mapping (the wrong core) is told from a recording without any
# (the wrong recording); the list does not depend on the order of the
# records in the file (a mapping record late); --base is suggested only when a mapping could hold
# the core and no --base was given. `--pid N` with no samples lists the pids
# that have samples (checked against perf script).
. "$(dirname "$0")/lib/common.sh"
S=$FIX/sample.cwasm
record "$WORK/small.data" -- --ms 300 "$FIX/comp.0.cwasm"
record "$WORK/big.data" -- --ms 300 "$FIX/big.cwasm"
perf record -q -e cpu-clock -k mono -F 2000 -o "$WORK/sh.data" -- \
	sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done' >/dev/null 2>&1
size=$(gawk 'END { printf "%d\n", int((strtonum($2) + $3 + 4095) / 4096) * 4096 }' "$S.syms")

# perf script's executable //anon mappings and the samples in each: "pid 0xstart len samples"
ref_maps() {
	perf script -i "$1" --show-mmap-events -F pid,ip,event 2>/dev/null | gawk '
	/PERF_RECORD_MMAP2? / && / r-x. \/\/anon/ {
		split($0, a, "[][()]"); m = n++; pid[m] = $1; st[m] = strtonum(a[2]); ln[m] = strtonum(a[3])
		next }
	/cpu-clock:/ { ip = strtonum("0x" $3)
		for (m = n - 1; m >= 0; m--) if (pid[m] == $1 && ip >= st[m] && ip < st[m] + ln[m]) { c[m]++; break } }
	END { for (m = 0; m < n; m++) printf "%s 0x%x %d %d\n", pid[m], st[m], ln[m], c[m] + 0 }' | sort
}
# aotperf's list: the same fields (the command dropped)
our_maps() { gawk '/^    [0-9]+ / { print $1, $3, $4, $5 }' "$1" | sort; }

# 1. the wrong core: every mapping is smaller than its text
"$AOTPERF" report -i "$WORK/small.data" --cwasm "$S" >"$WORK/out" 2>"$WORK/err"
check_eq "smaller mappings only: exit 2" "$?" 2
check_eq "smaller mappings only: nothing on stdout" "$(wc -c <"$WORK/out")" 0
ref_maps "$WORK/small.data" >"$WORK/ref"
our_maps "$WORK/err" >"$WORK/got"
same_counts "smaller mappings only: the list is perf script's //anon r-x mappings and samples" \
	"$WORK/got" "$WORK/ref"
check "smaller mappings only: the command is named" grep -qE '^    [0-9]+ loader 0x' "$WORK/err"
check "smaller mappings only: says another core ran" \
	grep -qxF "  all are smaller than the text ($size bytes): another core ran (the wrong --cwasm or manifest, or another build of it?)" "$WORK/err"
check "smaller mappings only: no --base suggested (none could hold the core)" \
	bash -c "! grep -q -- --base '$WORK/err'"

# 2. a larger mapping: it could hold the core, so --base is suggested with its base
"$AOTPERF" report -i "$WORK/big.data" --cwasm "$S" >/dev/null 2>"$WORK/err"
check_eq "a larger mapping: exit 2" "$?" 2
ref_maps "$WORK/big.data" >"$WORK/ref"
our_maps "$WORK/err" >"$WORK/got"
same_counts "a larger mapping: the list is perf script's" "$WORK/got" "$WORK/ref"
base=$(sort -k4,4nr "$WORK/ref" | gawk -v s="$size" '$3 >= s { print $2; exit }')
check_eq "a larger mapping: suggests --base with the hottest one that can hold the core" \
	"$(grep -- '--base' "$WORK/err")" "  if the one at $base holds the core: --base $base"
# the mapping record 200 records late in the file (perf's per-CPU rounds can
# write it so): its samples still count in it, as in perf script's time order
bigmap=$(gawk '{ print $3; exit }' "$WORK/ref")
python3 "$E2E/late_mmap.py" "$WORK/big.data" "$WORK/late.data" "$bigmap" 200
"$AOTPERF" report -i "$WORK/late.data" --cwasm "$S" >/dev/null 2>"$WORK/err"
our_maps "$WORK/err" >"$WORK/got"
same_counts "a late mapping record: the same list" "$WORK/got" "$WORK/ref"
"$AOTPERF" report -i "$WORK/big.data" --cwasm "$S" --base 0x1000 >/dev/null 2>"$WORK/err"
check_eq "--base given: exit 2" "$?" 2
check "--base given: the list is still there" grep -qE '^    [0-9]+ loader 0x' "$WORK/err"
check "--base given: no --base suggested" bash -c "! grep -q -- '--base' '$WORK/err'"

# 3. the wrong recording: no executable anonymous mapping at all
"$AOTPERF" report -i "$WORK/sh.data" --cwasm "$S" >/dev/null 2>"$WORK/err"
check_eq "no anonymous code: exit 2" "$?" 2
check_eq "perf script agrees: no //anon r-x mapping" "$(ref_maps "$WORK/sh.data" | wc -l)" 0
check_eq "no anonymous code: says so, and nothing else" "$(tail -n +2 "$WORK/err")" \
	"  it has no executable anonymous mapping: no process in it mapped code of its own (the recording of another program?)"

# 4. --pid with no samples: the pids that have samples, as perf script counts them
"$AOTPERF" report -i "$WORK/small.data" --cwasm "$FIX/comp.0.cwasm" --pid 1 >/dev/null 2>"$WORK/err"
check_eq "--pid without samples: exit 2" "$?" 2
check_eq "--pid without samples: the error line" "$(head -1 "$WORK/err")" \
	"aotperf report: $WORK/small.data: no samples of the selected pid"
perf script -i "$WORK/small.data" -F pid 2>/dev/null | gawk '{ n[$1]++ } END { for (p in n) print p, n[p] }' |
	sort >"$WORK/ref"
gawk '/^    [0-9]+ / { print $1, $3 }' "$WORK/err" | sort >"$WORK/got"
same_counts "--pid without samples: lists the pids with samples and their counts" "$WORK/got" "$WORK/ref"
finish
