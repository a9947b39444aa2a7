# SPDX-License-Identifier: MIT
#
# report --folded --cpu-state off, summed per innermost wasm function and
# state: "OFF name state ns", as offcpu_perf.awk prints perf script's view.
# A line is "outer;...;local_func_N:name;[host frame;][STATE] NS".
{
	ns = $NF
	line = $0
	sub(/ [0-9]+$/, "", line)
	k = split(line, fr, ";")
	st = fr[k]
	gsub(/[][]/, "", st)
	f = ""
	for (i = k - 1; i >= 1; i--)
		if (fr[i] ~ /^(mod[0-9]+:)?local_func_[0-9]+/) {
			f = fr[i]
			sub(/^(mod[0-9]+:)?local_func_[0-9]+:/, "", f)
			break
		}
	if (f != "")
		t[f " " st] += ns
}
END {
	for (x in t)
		print "OFF", x, t[x]
}
