# SPDX-License-Identifier: MIT
#
# `perf script -F ip,sym,symoff,dso --no-inline` callchains to collapsed
# stacks ("outer;...;leaf COUNT"), as stackcollapse-perf.pl folds them: a
# frame perf cannot name ("[unknown]") becomes its file's base name in
# brackets; offsets are dropped. The independent side of
# tests/e2e/callgraph.sh. Input: samples separated by blank lines, one
# frame per line, leaf first. Variables:
#   skips=FILE  lines "NAME OFFSET" (tests/e2e/lib/asmcore.sh): a -g chain
#               whose leaf is a wasm function NAME+OFFSET skipped the
#               immediate caller; "[caller unknown]" is put in its place
#   lr=1        perf on arm64 (-g, which samples x30 there) puts the
#               leaf's x30 - 1 (an odd address; the kernel's entries are
#               4-aligned return addresses) second: kept, and no marker,
#               where skips lists the leaf (x30 is the skipped caller's
#               return address there); dropped elsewhere (x30 is stale
#               there, or repeats the chain's next entry)
# Also prints "SKIPPED N", the samples that got the marker (with lr=1:
# whose second frame came from x30).
BEGIN {
	if (skips != "")
		while ((getline l < skips) > 0) {
			split(l, w, " ")
			skip[w[1] " " w[2]] = 1
		}
	RS = ""; FS = "\n"
}
{
	n = 0
	for (i = 1; i <= NF; i++) {
		line = $i
		if (line !~ /[^ \t]/)
			continue
		addr[n + 1] = line ~ /^[ \t]+[0-9a-f]+[ \t]/ ? strtonum("0x" gensub(/^[ \t]+([0-9a-f]+).*/, "\\1", 1, line)) : 0
		sub(/^[ \t]+[0-9a-f]+[ \t]+/, "", line)
		dso = ""
		if (match(line, / \(([^()]*)\)$/, m)) {
			dso = m[1]
			line = substr(line, 1, RSTART - 1)
		}
		off[n + 1] = -1
		if (match(line, /\+0x([0-9a-f]+)$/, m)) {
			off[n + 1] = strtonum("0x" m[1])
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
	short = f[1]
	sub(/^.*:/, "", short)
	marker = f[1] ~ /local_func_/ && n > 1 && ((short " " off[1]) in skip)
	if (lr && n > 2 && addr[2] % 2) {
		if (!marker) {		# drop perf's frame from a stale x30
			for (i = 2; i < n; i++)
				f[i] = f[i + 1]
			n--
		}
		skipped += marker
		marker = 0
	}
	s = f[n]
	for (i = n - 1; i >= 1; i--)
		s = s ";" (i == 1 && marker ? "[caller unknown];" : "") f[i]
	if (n == 1)
		s = f[1]
	skipped += marker
	count[s]++
}
END {
	for (s in count)
		print s, count[s]
	print "SKIPPED", skipped + 0
}
