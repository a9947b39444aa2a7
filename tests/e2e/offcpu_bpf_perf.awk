# SPDX-License-Identifier: MIT
#
# Off-CPU time per wasm function from perf 6.12's own view of its BPF
# --off-cpu samples, independently of aotperf:
#
#   perf script -F tid,period,event,ip | gawk -v base=0xADDR \
#     -v syms=CORE.cwasm.syms -f offcpu_bpf_perf.awk
#
# Each offcpu-time sample's period is the nanoseconds its stack spent off
# CPU. The innermost frame inside the core's mapping [base, base + text)
# takes it as self time (the first user frame at its ip, the others at
# return address - 1, inside the call), every distinct wasm function on the
# chain as inclusive time; each call between two wasm frames on it (the
# callee's outermost occurrence) gets it as edge time. Prints "SELF name
# ns", "INCL name ns" and "EDGE caller callee ns".
# base, syms, n, off[], size[], name[], text and func_at(): lib/wasmsyms.awk
function flush(    k) {
	if (period && self != "")
		selfns[self] += period
	for (k in seen)
		incl[k] += period
	# chain[1] innermost; the outermost occurrence of each function
	delete outer
	for (i = nchain; i >= 1; i--)
		if (!(chain[i] in outer)) {
			outer[chain[i]] = 1
			if (i < nchain)
				edge[chain[i + 1] " " chain[i]] += period
		}
	delete seen
	period = 0; self = ""; insample = 0; nchain = 0
}
# a sample's first line: "TID PERIOD EVENT:"
/^ *[0-9]+ +[0-9]+ +[^ ]+:/ {
	flush()
	if ($3 == "offcpu-time:") {
		insample = 1; period = $2; user = 0
	}
	next
}
insample && /^[ \t]+[0-9a-f]+$/ {
	a = strtonum("0x" $1)
	if (a >= 0xffff800000000000)
		next
	a = user++ ? a - 1 : a
	if (a >= base && a < base + text && (fname = func_at(a - base)) != "") {
		if (self == "")
			self = fname
		seen[fname] = 1
		chain[++nchain] = fname
	}
}
END {
	flush()
	for (k in selfns)
		print "SELF", k, selfns[k]
	for (k in incl)
		print "INCL", k, incl[k]
	for (k in edge)
		print "EDGE", k, edge[k]
}
