# SPDX-License-Identifier: MIT
#
# Off-CPU time by system call from stock perf's view of a recording made
# with -e sched:sched_switch -g --switch-events -e raw_syscalls:sys_enter
# -e raw_syscalls:sys_exit, independently of aotperf:
#
#   perf script --ns -F tid,time,event,trace,ip --show-switch-events |
#     gawk -v base=0xADDR -v syms=CORE.cwasm.syms -f offcpu_syscalls_perf.awk
#
# perf script hands the records over sorted by time. Per thread, the last
# sys_enter's "NR n" is the system call in progress until its sys_exit. A
# thread's PERF_RECORD_SWITCH OUT starts an interval, its next IN ends it;
# the interval belongs to the system call in progress at the OUT (-1: none)
# and, when a sched_switch sample came just before the OUT, to the
# innermost wasm function on that sample's call chain (as offcpu_perf.awk).
# Prints "SC nr ns intervals" over every interval, and "FSC name nr ns
# intervals" per innermost wasm function; sorted by the caller.
# base, syms, n, off[], size[], name[], text and func_at(): lib/wasmsyms.awk
/^ *[0-9]+ +[0-9]+\.[0-9]+:/ {
	tid = $1
	t = $2; sub(/:$/, "", t)
	split(t, tp, ".")
	ns = tp[1] * 1000000000 + tp[2]
	insample = 0
	if (tid == 0)
		next
	if ($0 ~ /raw_syscalls:sys_enter:/) {
		match($0, /NR (-?[0-9]+)/, m)
		sc[tid] = m[1]
	} else if ($0 ~ /raw_syscalls:sys_exit:/) {
		delete sc[tid]
	} else if ($0 ~ /sched:sched_switch:/) {
		match($0, /prev_pid=([0-9]+)/, m)
		cur = m[1]
		has[cur] = 1; fn[cur] = ""; user = 0
		insample = 1
	} else if ($0 ~ /PERF_RECORD_SWITCH OUT/) {
		out[tid] = ns
		ofn[tid] = (tid in has) ? fn[tid] : ""
		osc[tid] = (tid in sc) ? sc[tid] : -1
		delete has[tid]
	} else if ($0 ~ /PERF_RECORD_SWITCH IN/) {
		if (tid in out) {
			d = ns - out[tid]
			total[osc[tid]] += d; cnt[osc[tid]]++
			if (ofn[tid] != "") {
				k = ofn[tid] " " osc[tid]
				ftotal[k] += d; fcnt[k]++
			}
		}
		delete out[tid]
	}
	next
}
insample && /^[ \t]+[0-9a-f]+$/ {
	a = strtonum("0x" $1)
	if (a >= 0xffff800000000000 || fn[cur] != "")
		next
	a = user++ ? a - 1 : a
	if (a >= base && a < base + text)
		fn[cur] = func_at(a - base)
}
END {
	for (k in total)
		print "SC", k, total[k], cnt[k]
	for (k in ftotal)
		print "FSC", k, ftotal[k], fcnt[k]
}
