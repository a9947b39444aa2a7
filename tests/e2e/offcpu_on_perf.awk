# SPDX-License-Identifier: MIT
#
# On-CPU time per wasm function from stock perf's view of a -g recording,
# independently of aotperf (the on-CPU half of the wall-clock view,
# docs/offcpu.md "Intervals and attribution"):
#
#   perf script --ns -F tid,time,event,period,ip |
#     gawk -v base=0xADDR -v syms=CORE.cwasm.syms -v event=cpu-clock -f offcpu_on_perf.awk
#
# Each sample of the event: its period to the innermost frame inside the
# core's mapping [base, base + text) (the first user frame at its ip, the
# others at return address - 1, inside the call), looked up in the .syms
# file ("local offset size name"), and to every wasm function on the chain
# once. Prints "ON name ns" (innermost), "ONINCL name ns" and "ONTOTAL ns"
# (every sample of the event, wasm or not).
# base, syms, n, off[], size[], name[], text and func_at(): lib/wasmsyms.awk
function flush(    k) {
	if (!insample)
		return
	if (self != "")
		on[self] += period
	for (k in seen)
		incl[k] += period
	insample = 0
}
# a record's first line: "TID TIME: PERIOD EVENT:"
/^ *[0-9]+ +[0-9]+\.[0-9]+:/ {
	flush()
	if ($4 == event ":") {
		insample = 1; period = $3; total += period
		self = ""; user = 0
		delete seen
	}
	next
}
insample && /^[ \t]+[0-9a-f]+$/ {
	a = strtonum("0x" $1)
	if (a >= 0xffff800000000000)
		next
	a = user++ ? a - 1 : a
	if (a >= base && a < base + text) {
		fn = func_at(a - base)
		if (fn != "") {
			if (self == "")
				self = fn
			seen[fn] = 1
		}
	}
}
END {
	flush()
	for (k in on)
		print "ON", k, on[k]
	for (k in incl)
		print "ONINCL", k, incl[k]
	print "ONTOTAL", total + 0
}
