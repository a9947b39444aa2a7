# SPDX-License-Identifier: MIT
#
# llvm-mca for the loop and lever tests. Sourced after common.sh:
#   MCA        the newest /usr/lib/llvm-N/bin/llvm-mca, else llvm-mca on PATH, or ""
#   need_mca   without one: skip the script (fail it under CI) and exit
#   mca_cycles MCPU FILE: cycles per iteration of an input, as llvm-mca says
MCA=""
for c in /usr/lib/llvm-*/bin/llvm-mca; do [ -x "$c" ] && MCA=$c; done
[ -z "$MCA" ] && MCA=$(command -v llvm-mca || true)

need_mca() {
	[ -n "$MCA" ] && return 0
	if [ -n "${CI:-}" ]; then bad "no llvm-mca (make deps installs llvm)"; else
		echo "SKIP: no llvm-mca installed (make deps installs llvm)"; fi
	finish
	exit
}

mca_cycles() {
	"$MCA" -mcpu="$1" -iterations=100 "$2" 2>/dev/null |
		gawk '/^Iterations:/ { i = $2 } /^Total Cycles:/ { c = $3 } END { printf "%.4f", c / i }'
}
