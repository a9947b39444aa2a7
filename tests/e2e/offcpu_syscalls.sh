#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# aotperf report's off-CPU time by system call on a real recording of a
# core whose functions block in different system calls through host
# imports (tests/fixtures/offcpu_sc.S: sc_sleep naps 2 ms in the loader's
# host_nap, nanosleep; sc_poll waits 3 ms in host_poll, poll on no
# descriptors; sc_spin computes), recorded by aotperf record --off-cpu,
# which in the switch form adds raw_syscalls:sys_enter and sys_exit without
# call chains, checked against:
#
# * stock perf's own view: perf script's sys_enter / sys_exit / switch
#   records and sched_switch call chains (tests/e2e/offcpu_syscalls_perf.awk):
#   the same time per system call and per (function, system call), within
#   0.5% or 20 us, the same interval counts within 0.5% or 2;
# * the time the loader measured itself around each system call
#   ("loader: host_nap 2000 us: N calls, T ns"): a function's time in its
#   system call lies inside its calls, so between 90% and 100.1% of T, and
#   at least 98% of N x the wait asked for;
# * the names: the number sc_sleep waits in is nanosleep, sc_poll's poll,
#   and each one's time lies inside what perf trace -s (perf's own syscall
#   table) gives that name's calls (90%..100.1%);
# * each function's breakdown adds up to its off-CPU time, the overall
#   table to the processes' off-CPU time;
# * without syscall tracepoints (perf record by hand) the split comes from
#   the kernel frames when they are named (tests/e2e/offcpu_kernel.sh
#   checks it), else nothing is added.
#
#   tests/e2e/offcpu_syscalls.sh BUILD_DIR
. "$(dirname "$0")/lib/common.sh"
. "$E2E/lib/asmcore.sh"

SRC=$(cd "$E2E/../.." && pwd)
C=$WORK/sc.cwasm
asm_core "$SRC/tests/fixtures/offcpu_sc.S" "$C"
check_eq "offcpu_syscalls: fixture built" "$?" 0

D=$WORK/sc.data
"$AOTPERF" record --off-cpu -F 2000 --cwasm "$C" -o "$D" --perf-arg -N --no-inject -- \
	"$LOADER" --wall --ms 1500 --mix ocsys:1 "$C" >"$D.out" 2>"$D.log"
check_eq "aotperf record --off-cpu: exit status" "$?" 0
form=$(sed -n 's/^aotperf record: off-CPU: //p' "$D.log")
if grep -q 'BPF: offcpu-time' <<<"$form"; then
	# a perf with BPF skeletons: the switch form with the syscall tracepoints, by hand
	perf record -q -N -k mono -e cpu-clock/freq=2000,name=cpu-clock/ -e sched:sched_switch -g \
		--switch-events -e raw_syscalls:sys_enter/call-graph=no/ \
		-e raw_syscalls:sys_exit/call-graph=no/ \
		-o "$D" -- "$LOADER" --wall --ms 1500 --mix ocsys:1 "$C" >"$D.log" 2>&1
	check_eq "perf record: switch form + raw_syscalls" "$?" 0
else
	check "the switch form says it records raw_syscalls" grep -q 'raw_syscalls' <<<"$form"
fi
check "sys_enter recorded without call chains (cheap)" \
	bash -c "perf evlist -v -i '$D' 2>/dev/null | grep '^raw_syscalls:sys_enter' | grep -v CALLCHAIN | grep -q RAW"
base=$(sed -n 's/.* mapped at \(0x[0-9a-f]*\) .*/\1/p' "$D.log" | head -n1)

"$AOTPERF" report -q -i "$D" --cwasm "$C" --json "$WORK/r.json" >"$WORK/r.txt" 2>"$WORK/r.err"
check_eq "report: exit status" "$?" 0
check "text: the by-system-call table" grep -q '^  by system call' "$WORK/r.txt"
check_eq "text: no table of the syscall tracepoints' own" "$(grep -c '== event raw_syscalls' "$WORK/r.txt")" 0
check_eq "JSON: off_cpu.syscall_arch is the machine's" "$(jq -r '.off_cpu.syscall_arch' "$WORK/r.json")" \
	"$(uname -m)"

# ours: "SC nr ns intervals" and "FSC name nr ns intervals"
jq -r '(.off_cpu.syscalls[] | "SC \(.nr) \(.ns) \(.intervals)"),
       (.off_cpu.functions[] | .name as $n | .syscalls[] | "FSC \($n) \(.nr) \(.ns) \(.intervals)")' \
	"$WORK/r.json" | sort >"$WORK/ours"
perf script -i "$D" --ns -F tid,time,event,trace,ip --show-switch-events 2>/dev/null |
	gawk -v base="$base" -v syms="$C.syms" -f "$E2E/lib/wasmsyms.awk" -f "$E2E/offcpu_syscalls_perf.awk" | sort >"$WORK/perf"
# cmp_rows: every row either side, time within 0.5% or 20 us, intervals within 0.5% or 2
cmp_rows() {
	gawk 'function key(    k, i) { k = $1; for (i = 2; i < NF - 1; i++) k = k " " $i; return k }
	FNR == NR { a[key()] = $(NF - 1); ai[key()] = $NF; next }
	{ b[key()] = $(NF - 1); bi[key()] = $NF }
	END {
		for (k in a) if (!(k in b)) { b[k] = 0; bi[k] = 0 }
		for (k in b) {
			x = a[k] + 0; y = b[k]; d = x > y ? x - y : y - x
			xi = ai[k] + 0; yi = bi[k]; di = xi > yi ? xi - yi : yi - xi
			if ((d > 20000 && d > y * 0.005) || (di > 2 && di > yi * 0.005))
				printf "%s: aotperf %d ns %d, perf script %d ns %d; ", k, x, xi, y, yi
		}
	}' "$1" "$2"
}
check_eq "off-CPU per system call = perf script's sys_enter/sys_exit and switches" \
	"$(cmp_rows <(grep '^SC ' "$WORK/ours") <(grep '^SC ' "$WORK/perf"))" ""
check_eq "off-CPU per function and system call = perf script's" \
	"$(cmp_rows <(grep '^FSC ' "$WORK/ours") <(grep '^FSC ' "$WORK/perf"))" ""
check "perf script saw sc_sleep in nanosleep (35) and sc_poll in poll (7)" \
	bash -c "grep -q '^FSC sc_sleep 35 ' '$WORK/perf' && grep -q '^FSC sc_poll 7 ' '$WORK/perf'"

# fsc FUNCTION NAME: the function's time in the named system call
fsc() { jq -r --arg f "$1" --arg s "$2" '[.off_cpu.functions[] | select(.name == $f) | .syscalls[] |
	select(.name == $s) | .ns] | add // 0' "$WORK/r.json"; }
for w in host_nap:2000:sc_sleep:nanosleep host_poll:3000:sc_poll:poll; do
	IFS=: read -r imp us fn sc <<<"$w"
	read -r calls took < <(sed -n "s/^loader: $imp $us us: \([0-9]*\) calls, \([0-9]*\) ns/\1 \2/p" \
		"$D.log")
	ns=$(fsc "$fn" "$sc")
	check "$fn: off CPU in $sc $ns ns of the ${took:-?} ns its ${calls:-?} calls took (90%..100.1%)" \
		gawk -v s="$ns" -v t="${took:-0}" 'BEGIN { exit !(t > 0 && s >= 0.9 * t && s <= 1.001 * t) }'
	check "$fn: in $sc at least 98% of ${calls:-?} x $us us" \
		gawk -v s="$ns" -v c="${calls:-0}" -v u="$us" 'BEGIN { exit !(c > 20 && s >= 0.98 * c * u * 1000) }'
	check_eq "$fn: its top system call" \
		"$(jq -r --arg f "$fn" '.off_cpu.functions[] | select(.name == $f) | .syscalls[0].name' \
		"$WORK/r.json")" "$sc"
done
# the names, independently: perf trace -s names system calls from perf's own
# table (the kernel's syscall_64.tbl); off CPU in one lies inside its calls
perf trace -i "$D" -s -o "$WORK/trace.txt" >/dev/null 2>&1
for sc in nanosleep poll; do
	ms=$(gawk -v s="$sc" '$1 == s && $2 ~ /^[0-9]+$/ { print $4; exit }' "$WORK/trace.txt")
	ns=$(jq -r --arg s "$sc" '[.off_cpu.syscalls[] | select(.name == $s) | .ns] | add // 0' "$WORK/r.json")
	check "$sc: off CPU $ns ns, 90%..100.1% of the ${ms:-?} ms perf trace -s gives its calls" \
		gawk -v n="$ns" -v m="${ms:-0}" 'BEGIN { t = m * 1e6; exit !(t > 0 && n >= 0.9 * t && n <= 1.001 * t) }'
done
check_eq "each function's syscalls add up to its off-CPU time" \
	"$(jq -r '[.off_cpu.functions[] | select(((.syscalls | map(.ns) | add) // 0) != .off_cpu_ns) |
	.name] | join(",")' "$WORK/r.json")" ""
check_eq "the by-system-call table adds up to the processes' off-CPU time" \
	"$(jq '(.off_cpu.syscalls | map(.ns) | add) == (.off_cpu.processes | map(.off_cpu_ns) | add)' \
	"$WORK/r.json")" true
check "text: nanosleep and poll rows" \
	bash -c "grep -q '^  nanosleep  ' '$WORK/r.txt' && grep -q '^  poll  ' '$WORK/r.txt'"

# without the syscall tracepoints: the off-CPU view as before
P=$WORK/plain.data
perf record -q -N -k mono -e cpu-clock/freq=2000,name=cpu-clock/ -e sched:sched_switch -g \
	--switch-events -o "$P" -- "$LOADER" --wall --ms 300 --mix ocsys:1 "$C" >"$P.log" 2>&1
check_eq "perf record without raw_syscalls: exit status" "$?" 0
"$AOTPERF" report -q -i "$P" --cwasm "$C" --json "$WORK/p.json" >"$WORK/p.txt" 2>&1
check_eq "without syscall tracepoints: report exit status" "$?" 0
# the kernel frames' split when they are named (the recording made on this kernel)
named=$(jq -r '.off_cpu.kernel_frames_named' "$WORK/p.json")
if [ "$named" = true ]; then
	check_eq "without syscall tracepoints: the split from the kernel frames" \
		"$(jq -r '.off_cpu.syscall_source' "$WORK/p.json")" kernel_frames
	check_eq "without syscall tracepoints: the table says so" \
		"$(grep -c 'by system call (from the kernel frames' "$WORK/p.txt")" 1
else
	check_eq "without syscall tracepoints, kernel frames not named: no syscalls in the JSON" \
		"$(jq '.off_cpu | has("syscalls") or has("syscall_arch") or any(.functions[]; has("syscalls"))' \
		"$WORK/p.json")" false
	check_eq "without syscall tracepoints, kernel frames not named: no by-system-call table" \
		"$(grep -c 'by system call' "$WORK/p.txt")" 0
fi
finish
