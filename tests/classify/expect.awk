# SPDX-License-Identifier: MIT
#
# expect.awk: the expected class of every instruction of a fixture, from
# the tags its source carries, without the classifier: every instruction
# line of a .S ends in "#= CLASS" (x86) or "//= CLASS" (aarch64), every
# jump-table entry too. Prints "FUNCTION CLASS COUNT" lines, sorted.
# A function starts at a label that is not local (.L..., digits). An
# untagged instruction line is an error (exit 1), so nothing is skipped.
#
#   awk -f expect.awk FILE.S > FILE.expect

function fail(msg) {
	printf "%s:%d: %s\n", FILENAME, FNR, msg > "/dev/stderr"
	bad = 1
	exit 1
}

{
	line = $0
	tag = ""
	if (match(line, /(#|\/\/)= *[a-z_]+/)) {
		tag = substr(line, RSTART, RLENGTH)
		sub(/^(#|\/\/)= */, "", tag)
	}
	# drop comments, then labels in front of the statement
	code = line
	sub(/(#|\/\/).*/, "", code)
	while (match(code, /^[ \t]*[A-Za-z0-9_.$]+:/)) {
		lab = substr(code, RSTART, RLENGTH)
		sub(/^[ \t]*/, "", lab)
		sub(/:$/, "", lab)
		if (lab !~ /^\.L/ && lab !~ /^[0-9]+$/)
			fn = lab
		code = substr(code, RSTART + RLENGTH)
	}
	gsub(/^[ \t]+|[ \t]+$/, "", code)
	if (code == "")
		next
	if (code ~ /^\./ && code !~ /^\.(long|word|quad|byte)/)
		next	# directives
	if (tag == "")
		fail("untagged instruction: " code)
	if (fn == "")
		fail("instruction outside a function: " code)
	n[fn " " tag]++
}

END {
	if (bad)
		exit 1
	for (k in n)
		print k, n[k] | "sort"
}
