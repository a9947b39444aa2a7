# Independent check of sampled addresses against a core's instructions, from
# the assembler's or objdump's view and perf script alone (no aotperf code):
# which sampled ips land on an instruction start, in data, on a trap block's
# instruction, past the text; which return addresses follow a call.
# Usage: gawk -v base=HEX -v size=N [-v a64=1] -f consistency_ref.awk CORE SCRIPT
#   CORE    objdump -d [-M intel] --no-show-raw-insn of the core's object, or
#           its `as -al` listing (file name ending in .lst): `.long` lines
#           are data, lines the source marks `#= trap` (aarch64: `//= trap`)
#           a trap block
#   SCRIPT  perf script -F event,ip output (with or without call chains)
#   a64=1   aarch64 code: a call is bl or blr; an odd address in a chain is
#           no return address but perf's x30 - 1 (tests/e2e/folded_perf.awk),
#           left out
# Prints IPS (ips in [base, base+size)), ON_START (of those, on an
# instruction start), IN_DATA, IN_TRAP (on a trap block's instruction),
# PAST_TEXT; RETS (user return addresses into the mapping), AFTER_CALL.
function flush(   i, a, o, first) {
	first = 1
	for (i = 0; i < nchain; i++) {
		a = chain[i]
		if (a >= 2 ^ 63) { kernel = 1; continue }	# a kernel address (aarch64 user space reaches 2^48)
		o = a - b
		if (first && !kernel) {
			if (o >= 0 && o < size) {
				ips++
				if (o in start) { on_start++; if (o in trap) in_trap++ }
				else if (o in data) in_data++
				else if (o >= text_end) past_text++
			}
		} else if (!first && o > 0 && o <= size && !(a64 && o % 2)) {
			rets++
			if ((o in prev) && txt[prev[o]] ~ /^(call|blr?)([ \t]|$)/) after_call++
		}
		first = 0
	}
	nchain = 0; kernel = 0
}
function insn(a, t, len) {
	start[a] = 1; txt[a] = t
	if (have_last) prev[a] = last
	last = a; have_last = 1
	if (a + len > text_end) text_end = a + len
}
FNR == NR && FILENAME ~ /\.lst$/ {
	# "  LINE ADDR BYTES<tab>SOURCE"; continuation lines carry no address
	if (match($0, /^ *[0-9]+ ([0-9a-f]{4}) ([0-9A-F]+) +\t(.*)$/, m)) {
		a = strtonum("0x" m[1]); t = m[3]; sub(/^[ \t]+/, "", t)
		sub(/^[0-9A-Za-z_.]+:[ \t]*/, "", t)	# a label in front
		if (t ~ /^\.long/) {
			for (k = 0; k < 4; k++) data[a + k] = 1
			if (a + 4 > text_end) text_end = a + 4
			have_last = 0
		} else {
			insn(a, t, length(m[2]) / 2)
			if (t ~ /(#|\/\/)= trap/) trap[a] = 1
		}
	}
	next
}
FNR == NR {
	if (match($0, /^ +([0-9a-f]+):\t(.*)$/, m)) insn(strtonum("0x" m[1]), m[2], 1)
	next
}
FNR == 1 { b = strtonum(base) }
/^[^ \t].*: / {		# "cpu-clock: [ip]": a new sample
	flush()
	if (NF >= 2) chain[nchain++] = strtonum("0x" $2)
	next
}
/^[ \t]+[0-9a-f]+/ { chain[nchain++] = strtonum("0x" $1); next }
END {
	flush()
	printf "IPS %d\nON_START %d\nIN_DATA %d\nIN_TRAP %d\nPAST_TEXT %d\nRETS %d\nAFTER_CALL %d\n",
		ips, on_start, in_data, in_trap, past_text, rets, after_call
}
