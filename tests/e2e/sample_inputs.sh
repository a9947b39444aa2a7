#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The sample inputs for spills and compare (scripts/sample-inputs.sh; the
# commands in docs/recipes.md) work offline and as the docs say: the spill log names the bundled
# sample's functions (every metric line matches a function of the .cwasm's
# symbol list, by index and name) and `aotperf spills` joins all of them
# with a recording; the V8 recipe gives `aotperf compare` a turbofan
# function to set against the WAMR side. docs/recipes.md shows these commands.
. "$(dirname "$0")/lib/common.sh"
ROOT=$(cd "$E2E/../.." && pwd)
S=$FIX/sample.cwasm
O=$WORK/s
bash "$ROOT/scripts/sample-inputs.sh" "$B" "$O" >"$WORK/out" 2>&1
check_eq "scripts/sample-inputs.sh: exit 0" "$?" 0

# the log against the sample's own symbol list (tests/fixtures, independent of aotperf)
bad_lines=$(gawk 'NR == FNR { name[$1] = $4; next }
	match($0, /local_func=([0-9]+)/, f) && match($0, /name=([^ ]+)/, n) {
		if (name[f[1]] != n[1]) bad++ }
	END { print bad + 0 }' "$S.syms" "$O/spill.log")
check_eq "spill.log: every metric line names a function of the sample (index and name)" "$bad_lines" 0
nlog=$(grep -c 'aot-spill-metric' "$O/spill.log")
"$AOTPERF" spills "$O/spill.log" -i "$O/sample.data" --cwasm "$S" --top 0 --json "$WORK/sp.json" \
	>/dev/null 2>"$WORK/sp.err"
check_eq "aotperf spills on it, joined with the recording: exit 0" "$?" 0
check_eq "every log function is joined" "$(jq '.functions | length' "$WORK/sp.json")" "$nlog"

if [ -s "$O/node.jit.data" ]; then
	"$AOTPERF" compare -i "$O/wamr.data" --cwasm "$O/wm.cwasm" --func sum \
		--roles vmctx=rbx,membase=r15 --other "$O/node.jit.data" --json "$WORK/c.json" \
		>/dev/null 2>"$WORK/c.err"
	check_eq "aotperf compare on the V8 recipe: exit 0" "$?" 0
	check_eq "compare: V8's optimized sum" "$(jq -r '.other.symbol' "$WORK/c.json")" "JS:sum-2-turbofan"
elif [ -n "${CI:-}" ]; then
	bad "the V8 side was skipped: $(tail -1 "$WORK/out")"
else
	echo "SKIP: $(tail -1 "$WORK/out")"
fi
check "docs/recipes.md names scripts/sample-inputs.sh" grep -q 'scripts/sample-inputs.sh' "$ROOT/docs/recipes.md"
finish
