# SPDX-License-Identifier: MIT
#
# Check `perf script --no-inline -F ip,sym,symoff` callchains of the
# call-tree fixture (tests/fixtures/calltree.S) against its static call
# graph, written out here by hand. Input: samples separated by blank
# lines, one frame per line, leaf first. Variables:
#   mode=dwarf  every chain from its first wasm frame up to entry_calltree
#               must follow the static graph (frame i+1 a caller of frame
#               i), then leave the core (a host frame, or nothing)
#   mode=fp     the kernel's frame-pointer walk: at a "skip" offset (see
#               skips) the second frame is a caller's caller; elsewhere a
#               caller
#   skips=FILE  lines "NAME OFFSET": offsets where rbp still holds the
#               caller's frame (before mov rbp, rsp; after pop rbp/leave)
# Prints "KEY VALUE" lines: samples, valid, invalid, truncated, host (a
# host frame follows entry_calltree), skip_total, skip_valid; SELF f n
# (first wasm frame) and INCL f n (samples whose chain holds f).

function short(sym,   m) {
	if (match(sym, /local_func_[0-9]+:(ct_[a-z]+|entry_calltree)/, m))
		return m[1]
	return ""
}
function is_caller(callee, caller) {
	return index(" " callers[callee] " ", " " caller " ") > 0
}
function is_grand(callee, caller,   n, i, c) {
	n = split(callers[callee], c, " ")
	for (i = 1; i <= n; i++)
		if (is_caller(c[i], caller))
			return 1
	return 0
}
BEGIN {
	if (skips != "")
		while ((getline line < skips) > 0) {
			split(line, w, " ")
			skip[w[1] " " w[2]] = 1
		}
	RS = ""; FS = "\n"
	callers["ct_leaf"] = "ct_a ct_b"
	callers["ct_rec"] = "ct_b ct_rec"
	callers["ct_tail"] = "ct_main"	# ct_a tail-calls it: ct_a's frame is gone
	callers["ct_a"] = "ct_main"
	callers["ct_b"] = "ct_main"
	callers["ct_main"] = "entry_calltree"
	callers["entry_calltree"] = ""
}
{
	n = 0
	for (i = 1; i <= NF; i++) {
		if ($i !~ /[^ \t]/)
			continue
		line = $i
		sub(/^[ \t]+[0-9a-f]+[ \t]+/, "", line)
		sym[++n] = short(line)
		off[n] = ""
		if (match(line, /\+0x([0-9a-f]+)/, m))
			off[n] = strtonum("0x" m[1])
	}
	first = 0
	for (i = 1; i <= n; i++)
		if (sym[i] != "") { first = i; break }
	if (!first)
		next
	samples++
	SELF[sym[first]]++
	delete seen
	for (i = first; i <= n; i++)
		if (sym[i] != "" && !(sym[i] in seen)) {
			seen[sym[i]] = 1
			INCL[sym[i]]++
		}
	if (mode == "fp") {
		f = sym[first]; c = first < n ? sym[first + 1] : ""
		# host callers (no frame pointers there), or recursion
		if (f == "entry_calltree" || f == "ct_main" || f == "ct_rec")
			next
		if ((f " " off[first]) in skip) {
			skip_total++
			if (is_grand(f, c) && !is_caller(f, c))
				skip_valid++
		} else if (is_caller(f, c)) {
			valid++
		} else {
			invalid++
		}
		next
	}
	ok = 1
	for (i = first; i <= n && sym[i] != "entry_calltree"; i++) {
		if (i == n || sym[i + 1] == "") {
			truncated++
			ok = 0
			break
		}
		if (!is_caller(sym[i], sym[i + 1])) {
			ok = 0
			if (invalid++ < 5)
				printf "note: %s+0x%x called from %s\n", sym[i], off[i], sym[i + 1] > "/dev/stderr"
			break
		}
	}
	if (ok) {
		valid++
		if (i < n)
			host++
	}
}
END {
	printf "samples %d\nvalid %d\ninvalid %d\ntruncated %d\nhost %d\n", samples, valid, invalid, truncated, host
	printf "skip_total %d\nskip_valid %d\n", skip_total, skip_valid
	for (f in callers)
		printf "SELF %s %d\nINCL %s %d\n", f, SELF[f], f, INCL[f]
}
