# SPDX-License-Identifier: MIT
#
# `perf script -F ip,sym,dso --no-inline` callchains to collapsed stacks
# ("outer;...;leaf COUNT"), as stackcollapse-perf.pl folds them: a frame
# perf cannot name ("[unknown]") becomes its file's base name in
# brackets. Input: samples separated by blank lines, one frame per line,
# leaf first. The independent side of tests/e2e/callgraph.sh.
BEGIN { RS = ""; FS = "\n" }
{
	n = 0
	for (i = 1; i <= NF; i++) {
		line = $i
		if (line !~ /[^ \t]/)
			continue
		sub(/^[ \t]+[0-9a-f]+[ \t]+/, "", line)
		dso = ""
		if (match(line, / \(([^()]*)\)$/, m)) {
			dso = m[1]
			line = substr(line, 1, RSTART - 1)
		}
		if (line == "[unknown]" && dso != "" && dso != "[unknown]") {
			sub(/.*\//, "", dso)
			line = dso ~ /^\[.*\]$/ ? dso : "[" dso "]"
		}
		gsub(/;/, "_", line)
		f[++n] = line
	}
	if (!n)
		next
	s = f[n]
	for (i = n - 1; i >= 1; i--)
		s = s ";" f[i]
	count[s]++
}
END { for (s in count) print s, count[s] }
