# The upstream helper's instruction classes of one function, computed
# the helper's way (docs/helper-interface.md, "Instruction classes"): its
# rules over objdump's Intel text, from the mnemonic and the operands'
# text alone, and the samples at each objdump line's address (elsewhere in
# the function: unknown_instruction_boundary). An independent check of
# aotperf attr --func (tests/e2e/helper_classes.sh).
#
#   objdump -D -b binary -m i386:x86-64 -M intel --adjust-vma=BASE F.bin > F.dis
#   gawk -v base=BASE -v size=N [-v arch=aarch64] -f helper_classes.awk IPS F.dis
#
# (aarch64: aarch64-linux-gnu-objdump -D -b binary -m aarch64.)
# IPS: one sample address a line (hex, perf script -F ip). Prints
# "CLASS samples static" per class and "COUNT n" (instructions); lines
# objdump continues an instruction longer than 7 bytes on are not counted
# as instructions of their own (the drop-in's documented difference).

function lc(s) { return tolower(s) }

# mnemonic and operands of text, split at commas outside brackets (_split_operands)
function split_ops(text, ops,    rest, n, depth, cur, i, c) {
	n = 0
	mn = text; rest = ""
	if (match(text, /[ \t]+/)) { mn = substr(text, 1, RSTART - 1); rest = substr(text, RSTART + RLENGTH) }
	mn = lc(mn)
	if (rest == "") return 0
	depth = 0; cur = ""
	for (i = 1; i <= length(rest); i++) {
		c = substr(rest, i, 1)
		if (c == "[") depth++
		else if (c == "]") depth = depth > 0 ? depth - 1 : 0
		if (c == "," && depth == 0) { ops[++n] = cur; cur = ""; continue }
		cur = cur c
	}
	if (cur != "") ops[++n] = cur
	return n
}

# parse_frame_operand: "store", "load" or ""
function frame_kind(text,    ops, n, i, e) {
	n = split_ops(text, ops)
	if (mn == "push" && n && ops[1] !~ /\[/) return "store"
	if (mn == "pop" && n && ops[1] !~ /\[/) return "load"
	if (mn ~ /^lea/) return ""
	for (i = 1; i <= n; i++) {
		if (!match(ops[i], /\[[^\]]+\]/)) continue
		e = lc(substr(ops[i], RSTART + 1, RLENGTH - 2)); gsub(/[ \t]+/, "", e)
		if (e !~ /(^|[^a-z0-9_])(rbp|rsp)([^a-z0-9_]|$)/) continue
		return mn ~ /^mov/ && i == 1 ? "store" : "load"
	}
	return ""
}

function classify(text,    f, m, is_mov) {
	f = frame_kind(text)
	if (f != "") return "frame_" f "_unattributed"
	m = mn
	is_mov = m ~ /^(mov|movzx|movsx|movsxd|movsd|movss|movdqu|movdqa|movaps|movups|movq|movd)$/
	if (m == "cmp" && text ~ /\[(rbx|r10|r11)\+0x8\]/) return "bounds_cmp"
	if (m ~ /^(ja|jae|jb|jbe)$/) return "bounds_branch"
	if (m == "call") return "call"
	if (m == "jmp") return text ~ /jmp[ \t]+r(ax|10|11)/ ? "dispatch_jmp" : "jmp"
	if (m ~ /^(je|jne|jl|jle|jg|jge|js|jns|jp|jnp|jo|jno)$/) return "cond_branch"
	if (is_mov && text ~ /\[/ && text !~ /rip/) return "mem_access"
	if (is_mov) return "regmov"
	if (m ~ /^(add|sub|and|or|xor|shl|shr|sar|imul|mul|inc|dec|neg|not|test|lea|sete|setne|seta|cdqe|cqo)$/)
		return "alu"
	return "other"
}

# parse_aarch64_memory_operand(frame_only=True): "load", "store" or ""
function a64_frame(text,    ops, n, i) {
	n = split_ops(text, ops)
	if (mn !~ /^(ldr|ldrb|ldrh|ldrsb|ldrsh|ldrsw|ldur|ldurb|ldurh|ldursb|ldursh|ldursw|ldp|ldpsw|str|strb|strh|stur|sturb|sturh|stp)$/)
		return ""
	for (i = 1; i <= n; i++)
		if (lc(ops[i]) ~ /\[[ \t]*(x29|fp|sp)([^a-z0-9_]|$)/)
			return mn ~ /^ld/ ? "load" : "store"
	return ""
}

function a64_reg(s) {
	s = lc(s); gsub(/^[ \t]+|[ \t]+$/, "", s)
	return s ~ /^([xw]([0-9]|[12][0-9]|30)|sp|xzr|wzr|[bhsdqv]([0-9]|[12][0-9]|3[01]))$/
}

function a64_classify(text,    f, ops, n, i, anybr) {
	f = a64_frame(text)
	if (f != "") return "frame_" f "_unattributed"
	n = split_ops(text, ops)
	if (mn == "bl" || mn == "blr") return "call"
	if (mn == "br") return "indirect_dispatch"
	if (mn == "b") return "direct_branch"
	if (mn ~ /^b\./ || mn ~ /^(cbz|cbnz|tbz|tbnz)$/) return "cond_branch"
	anybr = 0
	for (i = 1; i <= n; i++) if (ops[i] ~ /\[/) anybr = 1
	if (mn ~ /^(ldr|ldur|str|stur|ldp|stp)/ && anybr)
		return lc(text) ~ /\[[ \t]*x20[ \t]*(,|\])/ ? "linear_memory" : "mem_access"
	if (mn == "mov" && n == 2 && a64_reg(ops[1]) && a64_reg(ops[2])) return "regmov"
	if (mn ~ /^(add|adds|sub|subs|adc|adcs|sbc|sbcs|and|ands|orr|eor|bic|bics|madd|msub|mul|mneg|udiv|sdiv|lsl|lsr|asr|ror|extr|ubfm|sbfm|bfm|uxtb|uxth|sxtb|sxth|sxtw|cmp|cmn|tst|csel|csinc|csinv|csneg|adr|adrp)$/)
		return "alu"
	return "other"
}

FILENAME == ARGV[1] { hits[strtonum("0x" $1)]++; next }

# "  addr:\tbytes\ttext"; a line without text continues the one before
/^ *[0-9a-f]+:\t/ {
	nf = split($0, p, "\t")
	if (nf < 3) next
	a = p[1]; sub(/^ +/, "", a); sub(/:.*/, "", a); a = strtonum("0x" a)
	text = p[3]
	for (k = 4; k <= nf; k++) text = text "\t" p[k]
	sub(/^[ \t]+/, "", text); sub(/[ \t]+$/, "", text)
	count++
	if (arch != "aarch64") {
		c = classify(text)
		static[c]++; samples[c] += hits[a]; start[a] = 1
		next
	}
	# aarch64: classes after the stream pass, in END
	addr[count] = a; txt[count] = text; cls[count] = a64_classify(text); split_ops(text); mnem[count] = mn
}

END {
	# classify_instruction_stream: cmp/cmn + b.hi/hs/lo/ls, [x19, #8] in the three before
	for (i = 1; i < count && arch == "aarch64"; i++) {
		if (mnem[i] !~ /^(cmp|cmn)$/ || mnem[i + 1] !~ /^b\.(hi|hs|lo|ls)$/) continue
		w = ""
		for (j = (i - 3 > 1 ? i - 3 : 1); j < i; j++) w = w " " txt[j]
		if (lc(w) ~ /\[[ \t]*x19[ \t]*,[ \t]*#?(0x)?0*8[ \t]*\]/) { cls[i] = "bounds_cmp"; cls[i + 1] = "bounds_branch" }
	}
	for (i = 1; i <= count && arch == "aarch64"; i++) {
		static[cls[i]]++; samples[cls[i]] += hits[addr[i]]; start[addr[i]] = 1
	}
	b = strtonum(base)
	for (a in hits)
		if (a + 0 >= b && a + 0 < b + size && !(a in start)) samples["unknown_instruction_boundary"] += hits[a]
	for (c in static) printf "%s %d %d\n", c, samples[c], static[c]
	if ("unknown_instruction_boundary" in samples)
		printf "unknown_instruction_boundary %d 0\n", samples["unknown_instruction_boundary"]
	printf "COUNT %d\n", count
}
