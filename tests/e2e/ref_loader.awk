# Independent attribution from the loader's own account of where it mapped
# each core (its stderr: "loader: pid P core PATH mapped at 0xADDR len N"),
# the assembler's symbol tables and `perf script -G -F pid,ip,event` output.
# Usage: gawk -f ref_loader.awk CORES RANGES PERF_SCRIPT_OUTPUT
#   CORES:  "core_index syms_path" per line (the order aotperf reports them)
#   RANGES: "pid start_hex core_index" per loader line
# Prints "TOTAL n" and "FUNC core index n" for every function hit.
function find(c, off,   lo, hi, mid) {
	lo = 0; hi = nf[c] - 1
	if (hi < 0 || off < offs[c, 0] || off >= tsize[c]) return -1
	while (lo < hi) {
		mid = int((lo + hi + 1) / 2)
		if (offs[c, mid] <= off) lo = mid; else hi = mid - 1
	}
	return idx[c, lo]
}
FILENAME == ARGV[1] {
	c = $1
	while ((getline line < $2) > 0) {
		split(line, f, " ")
		k = nf[c] + 0
		offs[c, k] = strtonum(f[2]); idx[c, k] = f[1]; nf[c] = k + 1
		tsize[c] = strtonum(f[2]) + f[3]
	}
	close($2)
	next
}
FILENAME == ARGV[2] { k = nr + 0; rp[k] = $1; rs[k] = strtonum($2); rc[k] = $3; nr = k + 1; next }
/cpu-clock:/ {
	total++
	pid = $1; sub("/.*", "", pid)
	ip = strtonum("0x" $NF)
	for (i = 0; i < nr; i++) {
		if (rp[i] != pid || ip < rs[i] || ip >= rs[i] + tsize[rc[i]]) continue
		fn = find(rc[i], ip - rs[i])
		if (fn >= 0) hits[rc[i] " " fn]++
		break
	}
}
END {
	print "TOTAL", total + 0
	for (k in hits) print "FUNC", k, hits[k]
}
