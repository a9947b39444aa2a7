# SPDX-License-Identifier: MIT
#
# Turn `aarch64-linux-gnu-objdump -d` of an object into what
# `perf annotate --stdio` prints for its symbols, one block per function
# (no aarch64 perf.data can be recorded here). raw=1 keeps the
# instruction words (--asm-raw). Every instruction line gets one sample;
# data words (.word) get none, as a jump table never executes.

function flush(   i) {
	if (sym == "")
		return
	printf " Percent |\tSource code & Disassembly of a64_v11.o for cpu-clock (%d samples, percent: local period)\n", n
	print "------------------------------------------------------------------------------------"
	print "         :"
	printf "         : 5      %s\n", sym
	for (i = 1; i <= nl; i++)
		print line[i]
	nl = 0
	n = 0
}

/^[0-9a-f]+ <[^>]+>:$/ {
	flush()
	sym = $0
	next
}
/^ +[0-9a-f]+:\t[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f] \t/ {
	split($0, f, "\t")
	addr = f[1]; sub(/^ +/, "", addr); sub(/:$/, "", addr)
	word = f[2]; sub(/ +$/, "", word)
	text = f[3]
	for (i = 4; i in f; i++)
		text = text "\t" f[i]
	w = text ~ /^\.(word|inst)/ ? "0.00" : "1.00"
	if (w == "1.00")
		n++
	line[++nl] = sprintf("%8s :   %s:%s%s", w, addr, raw ? "\t" word " \t" : "\t", text)
}
END {
	flush()
}
