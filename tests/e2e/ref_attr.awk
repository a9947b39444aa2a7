# Independent attribution from text: `perf script --show-mmap-events -G
# -F pid,tid,time,ip,event` output (time ordered by perf) plus the
# assembler's symbol list (.syms: "index offset_hex size name").
# Usage: awk -v textsize=N -f ref_attr.awk SYMS PERF_SCRIPT_OUTPUT
# Prints "TOTAL n", "CORE n" and "FUNC index n" for every function hit;
# with -F ...,period,... also each one's periods summed (the CPU time of
# cpu-clock, ns): "PERIOD TOTAL n", "PERIOD CORE n", "PERIOD FUNC index n".
function page_round(x) { return int((x + 4095) / 4096) * 4096 }
function find(off,   lo, hi, mid) {
	lo = 0; hi = nf - 1
	if (off < offs[0]) return -1
	while (lo < hi) {
		mid = int((lo + hi + 1) / 2)
		if (offs[mid] <= off) lo = mid; else hi = mid - 1
	}
	return lo
}
FNR == NR { nf += 0; offs[nf] = strtonum($2); idx[nf] = $1; nf++; next }
/PERF_RECORD_MMAP2? / {
	split($0, a, "[][()]")
	# a[2] = "0xSTART", a[3] = "0xLEN"
	pid = $1; sub("/.*", "", pid)
	start = strtonum(a[2]); len = strtonum(a[3])
	perm = $0; sub(/.*\]: /, "", perm)
	split(perm, pw, " ")
	if (pw[1] !~ /x/) next
	# a new executable mapping replaces any candidate it overlaps
	n = ncand[pid] + 0
	k = 0
	for (i = 0; i < n; i++) {
		s = cand[pid, i]
		if (start < s + explen && s < start + len) continue
		cand[pid, k++] = s
	}
	ncand[pid] = k
	if (pw[2] ~ /^\/\/anon/ && len == explen)
		cand[pid, ncand[pid]++] = start
	next
}
/cpu-clock:|task-clock:/ {
	total++
	pid = $1; sub("/.*", "", pid)
	ip = strtonum("0x" $NF)
	# the period, when printed, is the number before the event's name
	per = 0
	for (i = 2; i <= NF; i++)
		if ($i ~ /-clock:$/) {
			if ($(i - 1) ~ /^[0-9]+$/) { per = $(i - 1); periods = 1 }
			break
		}
	tper += per
	n = ncand[pid] + 0
	for (i = n - 1; i >= 0; i--) {
		s = cand[pid, i]
		if (ip >= s && ip < s + textsize) {
			f = find(ip - s)
			if (f >= 0) { core++; hits[idx[f]]++; cper += per; fper[idx[f]] += per }
			break
		}
	}
}
BEGIN { explen = page_round(textsize) }
END {
	print "TOTAL", total + 0
	print "CORE", core + 0
	for (f in hits) print "FUNC", f, hits[f]
	if (!periods)
		exit
	print "PERIOD TOTAL", tper + 0
	print "PERIOD CORE", cper + 0
	for (f in fper) print "PERIOD FUNC", f, fper[f]
}
