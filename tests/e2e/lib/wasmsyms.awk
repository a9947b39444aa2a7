# SPDX-License-Identifier: MIT
#
# The wasm functions of a core for the tests' independent awk references
# of perf script output (tests/e2e/offcpu_*_perf.awk), given first:
#   gawk -v base=0xMAPPED -v syms=CORE.cwasm.syms -f lib/wasmsyms.awk -f X.awk
# base: where the loader mapped the core (strtonum'd); syms: its lines
# "INDEX OFFSET SIZE NAME" that asm_core writes (CORE.cwasm.syms).
# Sets n, off[], size[], name[] (1..n) and text (the end of the last
# function), and func_at(a): the name of the function holding text
# offset a, "" for none.
BEGIN {
	base = strtonum(base)
	while ((getline line < syms) > 0) {
		split(line, f, " ")
		n++
		off[n] = strtonum(f[2]); size[n] = strtonum(f[3]); name[n] = f[4]
		if (off[n] + size[n] > text)
			text = off[n] + size[n]
	}
}
function func_at(a,    i) {
	for (i = 1; i <= n; i++)
		if (a >= off[i] && a < off[i] + size[i])
			return name[i]
	return ""
}
