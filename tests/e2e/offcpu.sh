#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# aotperf report's off-CPU view on a real recording of a core that waits in
# host imports (tests/fixtures/offcpu.S: oc_nap_short naps 2 ms in the
# loader's host_nap, oc_nap_long 5 ms, oc_burn spins 1 ms in host_burn,
# oc_spin computes), recorded by aotperf record --off-cpu, which with
# Debian's perf 6.1 (no BPF skeletons) records cpu-clock +
# sched:sched_switch -g + --switch-events, checked against:
#
# * stock perf's own view: perf script's switch records and sched_switch
#   call chains, paired and attributed by tests/e2e/offcpu_perf.awk: the
#   same off-CPU time per function and state, within 0.5%;
# * the slept time the loader measured itself around each nanosleep
#   ("loader: host_nap 2000 us: N calls, T ns"): a nap function's off-CPU
#   time (state S) lies inside its calls, so between 90% and 100.1% of T,
#   and at least 98% of N x the nap asked for;
# * the CPU-burning import stays on CPU: oc_burn sleeps (S/D) under 1 ms
#   in all, and its on-CPU time (samples in host_burn, attributed to the
#   wasm function that called it) is at least a third of its calls x 1 ms;
# * report --folded --cpu-state off: the off-CPU stacks summed by innermost
#   wasm function and state = the same perf script computation; with both,
#   the on-CPU part adds up to perf script's cpu-clock periods;
# * the options: --off-cpu=no drops the view, --off-cpu on a recording
#   without switches fails with exit 2, so does --cpu-state off.
#
#   tests/e2e/offcpu.sh BUILD_DIR
. "$(dirname "$0")/lib/common.sh"
. "$E2E/lib/asmcore.sh"

SRC=$(cd "$E2E/../.." && pwd)
C=$WORK/oc.cwasm
asm_core "$SRC/tests/fixtures/offcpu.S" "$C"
check_eq "offcpu: fixture built" "$?" 0

D=$WORK/oc.data
"$AOTPERF" record --off-cpu -F 2000 --cwasm "$C" -o "$D" --perf-arg -N --no-inject -- \
	"$LOADER" --wall --ms 1500 --mix offcpu:1 "$C" >"$D.out" 2>"$D.log"
check_eq "aotperf record --off-cpu: exit status" "$?" 0
form=$(sed -n 's/^aotperf record: off-CPU: //p' "$D.log")
check "aotperf record --off-cpu says which form it records (${form:-nothing})" test -n "$form"
if grep -q 'BPF: offcpu-time' <<<"$form"; then
	# a perf with BPF skeletons: the switch form, on which the checks below rely, by hand
	perf record -q -N -k mono -e cpu-clock/freq=2000,name=cpu-clock/ -e sched:sched_switch -g --switch-events \
		-o "$D" -- "$LOADER" --wall --ms 1500 --mix offcpu:1 "$C" >"$D.log" 2>&1
	check_eq "perf record: cpu-clock + sched_switch -g + switch events" "$?" 0
else
	check "perf 6.1 without BPF: the tracepoint + switch-event form" \
		grep -q 'sched:sched_switch -g with --switch-events' <<<"$form"
fi
base=$(sed -n 's/.* mapped at \(0x[0-9a-f]*\) .*/\1/p' "$D.log" | head -n1)

"$AOTPERF" report -q -i "$D" --cwasm "$C" --json "$WORK/r.json" >"$WORK/r.txt" 2>"$WORK/r.err"
check_eq "report: exit status" "$?" 0
check "report: the off-CPU view is on by itself, with its note" \
	grep -q '^off-CPU (from switch records' "$WORK/r.txt"
check_eq "JSON: off_cpu.source" "$(jq -r '.off_cpu.source' "$WORK/r.json")" switch
check_eq "JSON: on-CPU samples are cpu-clock's, not the switches" "$(jq -r '.event' "$WORK/r.json")" \
	cpu-clock
check "JSON: top_functions rows carry off_cpu_ns and off_cpu_incl_ns" \
	jq -e '.top_functions | length > 0 and all(has("off_cpu_ns") and has("off_cpu_incl_ns"))' \
	"$WORK/r.json" >/dev/null

# ours: "OFF name state ns" for every function and state with time
jq -r '.off_cpu.functions[] | .name as $n | .off_cpu_by_state | to_entries[] |
	select(.value > 0) | "OFF \($n) \(.key) \(.value)"' "$WORK/r.json" | sort >"$WORK/ours"
perf script -i "$D" --ns -F tid,time,event,trace,ip --show-switch-events 2>/dev/null |
	gawk -v base="$base" -v syms="$C.syms" -f "$E2E/lib/wasmsyms.awk" -f "$E2E/offcpu_perf.awk" | sort >"$WORK/perf"
# every function and state either side has, within 0.5% (or 20 us)
cmp_out=$(gawk 'FNR == NR { a[$2 " " $3] = $4; next } { b[$2 " " $3] = $4 }
	END {
		for (k in a) if (!(k in b)) b[k] = 0
		for (k in b) {
			x = a[k] + 0; y = b[k]; d = x > y ? x - y : y - x
			if (d > 20000 && d > y * 0.005) printf "%s: aotperf %d, perf script %d; ", k, x, y
		}
	}' "$WORK/ours" "$WORK/perf")
check_eq "off-CPU per function and state = perf script's switch records and chains" "$cmp_out" ""
check "perf script saw both nap functions asleep" grep -q 'oc_nap_long S' "$WORK/perf"

# --folded --cpu-state off: each line's innermost wasm frame and state leaf, summed
"$AOTPERF" report -q -i "$D" --cwasm "$C" --folded "$WORK/off.folded" --cpu-state off >/dev/null
check_eq "--folded --cpu-state off: exit status" "$?" 0
gawk -f "$E2E/offcpu_folded.awk" "$WORK/off.folded" | sort >"$WORK/ours.folded"
cmp_out=$(gawk 'FNR == NR { a[$2 " " $3] = $4; next } { b[$2 " " $3] = $4 }
	END {
		for (k in a) if (!(k in b)) b[k] = 0
		for (k in b) {
			x = a[k] + 0; y = b[k]; d = x > y ? x - y : y - x
			if (d > 20000 && d > y * 0.005) printf "%s: folded %d, perf script %d; ", k, x, y
		}
	}' "$WORK/ours.folded" "$WORK/perf")
check_eq "folded off-CPU stacks by innermost function and state = perf script's" "$cmp_out" ""
# (with its system call between the import and the state: offcpu_kernel.sh checks it)
check "folded off-CPU: the nap's stack runs through its caller and the import" \
	grep -qE '^local_func_[0-9]+:entry_offcpu;local_func_[0-9]+:oc_nap_long;host_nap;(\[sys\] [a-z_]*nanosleep;)?\[S\] [0-9]+$' \
	"$WORK/off.folded"
"$AOTPERF" report -q -i "$D" --cwasm "$C" --folded "$WORK/both.folded" --cpu-state both >/dev/null
on=$(perf script -i "$D" -F event,period 2>/dev/null | gawk '/cpu-clock/ { s += $1 } END { printf "%d", s }')
check "folded --cpu-state both: off-CPU lines plus on-CPU time = perf script's cpu-clock periods" \
	gawk -v on="$on" -v lines="$(wc -l <"$WORK/both.folded")" \
	     -v both="$(gawk '{ s += $NF } END { printf "%d", s }' "$WORK/both.folded")" \
	     -v off="$(gawk '{ s += $NF } END { printf "%d", s }' "$WORK/off.folded")" \
	     'BEGIN { d = both - off - on; exit !(on > 0 && d <= lines && -d <= lines) }'
# --children --cpu-state off: the Self column against perf script's per-function sums
"$AOTPERF" report -q -i "$D" --cwasm "$C" --children --cpu-state off >"$WORK/ch.txt"
check_eq "--children --cpu-state off: exit status" "$?" 0
cmp_out=$(gawk 'FNR == NR { sum[$2] += $4 / 1e6; next }
	/off-CPU time per wasm function/ { on = 1; next }
	on && NF == 3 && $3 ~ /local_func_/ {
		n = $3; sub(/^local_func_[0-9]+:/, "", n); got[n] = $2
	}
	END {
		for (n in sum) {
			x = got[n] + 0; y = sum[n]; d = x > y ? x - y : y - x
			if (d > 0.02 && d > y * 0.005) printf "%s: %.3f ms, perf script %.3f; ", n, x, y
		}
	}' "$WORK/perf" "$WORK/ch.txt")
check_eq "--children --cpu-state off: self per function = perf script's" "$cmp_out" ""
"$AOTPERF" report -q -i "$D" --cwasm "$C" --folded "$WORK/x.folded" --cpu-state sideways \
	>/dev/null 2>"$WORK/x.err"
check_eq "--cpu-state sideways: exit 2" "$?" 2

# field NAME JQ: a function row's field
field() { jq -r --arg n "$1" ".off_cpu.functions[] | select(.name == \$n) | $2" "$WORK/r.json"; }
for nap in 2000:oc_nap_short 5000:oc_nap_long; do
	us=${nap%%:*} fn=${nap#*:}
	read -r calls took < <(sed -n "s/^loader: host_nap $us us: \([0-9]*\) calls, \([0-9]*\) ns/\1 \2/p" \
		"$D.log")
	s=$(field "$fn" '.off_cpu_by_state.S')
	check "$fn: asleep $s ns of the $took ns its $calls naps took (90%..100.1%)" \
		gawk -v s="$s" -v t="$took" 'BEGIN { exit !(s >= 0.9 * t && s <= 1.001 * t) }'
	check "$fn: asleep at least 98% of $calls x $us us" \
		gawk -v s="$s" -v c="$calls" -v u="$us" 'BEGIN { exit !(c > 20 && s >= 0.98 * c * u * 1000) }'
	check_eq "$fn: waits in the host import" "$(field "$fn" '.waits_in')" host_nap
done
check "entry_offcpu: inclusive off-CPU holds both naps" \
	gawk -v e="$(field entry_offcpu '.off_cpu_incl_ns')" \
	     -v a="$(field oc_nap_short '.off_cpu_ns')" -v b="$(field oc_nap_long '.off_cpu_ns')" \
	     'BEGIN { exit !(e >= a + b) }'

calls=$(sed -n 's/^loader: host_nap 2000 us: \([0-9]*\) calls.*/\1/p' "$D.log")
sleep_ns=$(field oc_burn '.off_cpu_by_state.S + .off_cpu_by_state.D')
on_ns=$(field oc_burn '.on_cpu_ns')
check "oc_burn: the CPU-burning import does not sleep (${sleep_ns:-?} ns S+D)" \
	gawk -v s="${sleep_ns:-0}" 'BEGIN { exit !(s < 1000000) }'
check "oc_burn: on CPU in host_burn ($on_ns ns for $calls calls of 1 ms)" \
	gawk -v o="$on_ns" -v c="$calls" 'BEGIN { exit !(o >= c * 1000000 / 3) }'

"$AOTPERF" report -q -i "$D" --cwasm "$C" --off-cpu=no --json - >"$WORK/no.json"
check_eq "--off-cpu=no: no off_cpu member" "$(jq 'has("off_cpu")' "$WORK/no.json")" false

P=$WORK/plain.data
perf record -q -N -k mono -e cpu-clock -o "$P" -- "$LOADER" --wall --ms 200 --mix offcpu:1 "$C" \
	>"$P.log" 2>&1
"$AOTPERF" report -q -i "$P" --cwasm "$C" --off-cpu >/dev/null 2>"$WORK/plain.err"
check_eq "--off-cpu without switches: exit 2" "$?" 2
check "--off-cpu without switches: says what to record" grep -q 'record --off-cpu' "$WORK/plain.err"
"$AOTPERF" report -q -i "$P" --cwasm "$C" --folded "$WORK/p.folded" --cpu-state off \
	>/dev/null 2>"$WORK/p.err"
check_eq "--cpu-state off without switches: exit 2" "$?" 2
check "--cpu-state off without switches: no partial output" test ! -e "$WORK/p.folded"
finish
