# perf report's sample filters applied to perf script's own text, for
# report_filters.sh: an independent selection to hold aotperf's against.
# Input: perf script --ns --show-mmap-events -G -F comm,pid,tid,cpu,time,ip,event
# Options (-v, each optional): comms=a,b pids=1,2 tids=3 cpus=0,1
# lo=SEC.NSEC hi=SEC.NSEC (inclusive, perf's --time), times=FILE (the
# sample times to keep, one per line, e.g. from perf script --time 10%/2).
# Output: every line in ref_attr.awk's form ("pid/tid time: ..."), sample
# lines only when they pass every filter given.
function ns(t,   p) { split(t, p, "."); return p[1] * 1000000000 + p[2] }
function set(list, arr,   v, i, n) { n = split(list, v, ","); for (i = 1; i <= n; i++) arr[v[i]] = 1; return n }
BEGIN {
	ncomm = set(comms, C); npid = set(pids, P); ntid = set(tids, T); ncpu = set(cpus, U)
	if (times != "") while ((getline l < times) > 0) { sub(/:.*/, "", l); gsub(/ /, "", l); W[l] = 1; nw++ }
}
{
	comm = $1; split($2, pt, "/"); cpu = $3; gsub(/[][]/, "", cpu); cpu += 0
	t = $4; sub(/:$/, "", t)
	if ($5 == "cpu-clock:") {
		if (ncomm && !(comm in C)) next
		if (npid && !(pt[1] in P)) next
		if (ntid && !(pt[2] in T)) next
		if (ncpu && !(cpu in U)) next
		if (lo != "" && ns(t) < ns(lo)) next
		if (hi != "" && ns(t) > ns(hi)) next
		if (nw && !(t in W)) next
	}
	$1 = ""; $3 = ""
	print
}
