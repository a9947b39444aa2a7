# SPDX-License-Identifier: MIT
#
# Off-CPU time per wasm function from stock perf's view of a recording made
# with -e sched:sched_switch -g --switch-events, independently of aotperf:
#
#   perf script --ns -F tid,time,event,trace,ip --show-switch-events |
#     gawk -v base=0xADDR -v syms=CORE.cwasm.syms -f offcpu_perf.awk
#
# perf script hands the records over sorted by time. A sched_switch sample
# names the state (prev_state=S) and its call chain; the innermost frame
# inside the core's mapping [base, base + text) is the function (the first
# user frame at its ip, the others at return address - 1, inside the call),
# looked up in the .syms file ("local offset size name"). The thread's next
# PERF_RECORD_SWITCH OUT starts the interval, its next IN ends it.
# Prints "OFF name state ns" per function and state, sorted by the caller;
# with -v counts=1 also "CNT name state intervals".
# base, syms, n, off[], size[], name[], text and func_at(): lib/wasmsyms.awk
# a record's first line: "TID TIME: EVENT..."
/^ *[0-9]+ +[0-9]+\.[0-9]+:/ {
	tid = $1
	t = $2; sub(/:$/, "", t)
	split(t, tp, ".")
	ns = tp[1] * 1000000000 + tp[2]
	insample = 0
	if ($0 ~ /sched:sched_switch:/) {
		match($0, /prev_state=([A-Za-z+]+)/, m)
		st = m[1]; sub(/\+$/, "", st)
		if (st != "S" && st != "D" && st != "R") st = "other"
		match($0, /prev_pid=([0-9]+)/, m)
		cur = m[1]
		state[cur] = st; fn[cur] = ""; user = 0
		insample = 1
	} else if ($0 ~ /PERF_RECORD_SWITCH OUT/) {
		if (tid in state) { out[tid] = ns; ofn[tid] = fn[tid]; ost[tid] = state[tid] }
		delete state[tid]
	} else if ($0 ~ /PERF_RECORD_SWITCH IN/) {
		if ((tid in out) && ofn[tid] != "") {
			total[ofn[tid] " " ost[tid]] += ns - out[tid]
			cnt[ofn[tid] " " ost[tid]]++
		}
		delete out[tid]
	}
	next
}
# a call chain line of the sched_switch sample: the innermost wasm frame
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
		print "OFF", k, total[k]
	if (counts)
		for (k in cnt)
			print "CNT", k, cnt[k]
}
