#!/usr/bin/env bash
# Hot loops and the lever what-if everywhere a function is shown, each
# checked against the JSON model of the same run or an independent
# computation (docs/levers.md):
#
#  1. report --func on the kernel pairs of tests/fixtures/levers.S: the
#     Markdown's what-if rows (rendered by cmark-gfm) = the JSON's whatif;
#     the HTML page's document holds the JSON's loops; in Chromium the
#     hottest loop's rows are the instructions inside its JSON blocks, the
#     what-if table is the document's (tests/browser/check.js, diff.js);
#  2. diff of the builds with and without the levers' instructions: each
#     side's hottest loop = llvm-mca rerun here on the diff JSON's input,
#     the change = after - before, and the after side = the what-if of the
#     lever on the before build (1%, as lever_whatif.sh); its page shows
#     the document's cycles (Chromium);
#  3. the frame lever with a frame-attribution sidecar touches the
#     accesses the sidecar calls allocator spills in the loop (counted
#     with jq from the sidecar), fewer than without it;
#  4. speed: for several functions one llvm-mca child per CPU, and the
#     children overlap in time (a stand-in llvm-mca logs start and end);
#  5. without llvm-mca the loops are still shown, and the Markdown, the
#     page and diff say how to get the model (make deps).
# compare's gap per lever is checked in engines_v8.sh (it needs node).
. "$(dirname "$0")/lib/common.sh"
. "$E2E/lib/asmcore.sh"
. "$E2E/lib/mca.sh"
ROOT=$(cd "$E2E/../.." && pwd)
need_mca
# cycles per iteration of an llvm-mca input, computed here: MCPU FILE
rerun() { mca_cycles "$1" "$2" | gawk '{ printf "%.2f", $1 }'; }
two() { gawk '{ printf "%.2f", $1 }'; }
within() { # within A B PCT: |A - B| <= PCT% of B (+0.011 for the 2 decimals)
	gawk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= p / 100 * b + 0.011) }'
}

for w in 1 0; do
	asm_core "$E2E/../fixtures/levers.S" "$WORK/w$w.cwasm" --defsym WITH=$w
	check_eq "levers.S assembles with WITH=$w" "$?" 0
	record "$WORK/w$w.data" -- --ms 1500 --mix lv_zext:1,lv_frame:1,lv_bounds:1,lv_vmctx:1 "$WORK/w$w.cwasm"
	check_eq "recorded WITH=$w" "$?" 0
done
fargs=(--func lv_zext --func lv_frame --func lv_bounds --func lv_vmctx)

# ---- 1. report: text, JSON, Markdown, HTML of one run ----
start=$(date +%s%N)
"$AOTPERF" report -q -i "$WORK/w1.data" --cwasm "$WORK/w1.cwasm" "${fargs[@]}" --json "$WORK/r.json" \
	--markdown "$WORK/r.md" --html "$WORK/r.html" >"$WORK/r.txt"
check_eq "report --func x4 --json --markdown --html: exit 0" "$?" 0
echo "note: report with 4 functions modelled: $(( ($(date +%s%N) - start) / 1000000 )) ms wall"
check_eq "every function's hottest loop modelled" \
	"$(jq '[.classified_functions[] | select(.loops[0].model.cycles_per_iteration > 0)] | length' "$WORK/r.json")" 4
mcpu=$(jq -r '.classified_functions[0].loops[0].model.mcpu' "$WORK/r.json")
check_eq "the JSON's input reruns to its cycles (lv_bounds, -mcpu=$mcpu)" \
	"$(jq -r '.classified_functions[] | select(.name == "lv_bounds") | .loops[0].model.input' "$WORK/r.json" \
		>"$WORK/b.s"; rerun "$mcpu" "$WORK/b.s")" \
	"$(jq '.classified_functions[] | select(.name == "lv_bounds") | .loops[0].model.cycles_per_iteration' "$WORK/r.json" | two)"

# Markdown: the what-if rows as the JSON has them (payoff 1 decimal, cycles 2)
jq -r '.classified_functions[] | .loops[0] as $l | $l.whatif | to_entries[] |
	"\(.key) \(if .value.removed == 0 then "-" elif .value.payoff_pct == null then "n/m"
		else (.value.payoff_pct * 10 | round / 10 | tostring) end) \(.value.removed)"' \
	"$WORK/r.json" | gawk '{ if ($2 != "-" && $2 != "n/m") $2 = sprintf("%.1f%%", $2); print }' | sort >"$WORK/md.want"
# (its columns the text's: lever, removed, cycles/iter, payoff, %samples, model)
gawk -F '|' '$2 ~ /^ `(zext_move|frame|bounds_check|vmctx_reload|dispatch)` *$/ {
	l = $2; gsub(/[ `]/, "", l); p = $5; gsub(/ /, "", p); r = $3; gsub(/ /, "", r); print l, p, r }' \
	"$WORK/r.md" | sort >"$WORK/md.got"
check "Markdown: the what-if rows (lever, payoff, removed) = the JSON's ($(wc -l <"$WORK/md.want"))" \
	cmp -s "$WORK/md.got" "$WORK/md.want"
if command -v cmark-gfm >/dev/null 2>&1; then
	cmark-gfm --extension table "$WORK/r.md" >"$WORK/r.md.html"
	# per function: classes, hottest instructions, loops, what-if
	check_eq "Markdown: every table renders (cmark-gfm)" "$(grep -c '<table>' "$WORK/r.md.html")" \
		$((2 + $(jq 'if .total_samples > .attributed_samples then 1 else 0 end' "$WORK/r.json") + 4 * 4))
elif [ -n "${CI:-}" ]; then
	bad "cmark-gfm is not installed (scripts/test-deps.sh installs it)"
fi

# HTML: the page's document holds the JSON's loops
sed -n 's|^<script type="application/json" id="aotperf-data">\(.*\)</script>$|\1|p' "$WORK/r.html" >"$WORK/doc.json"
check "HTML: the document's loops = report --json's" cmp -s \
	<(jq -S '[.classified_functions[] | .loops | map(del(.model.tool))]' "$WORK/doc.json") \
	<(jq -S '[.classified_functions[] | .loops | map(del(.model.tool))]' "$WORK/r.json")
. "$E2E/lib/browser.sh"
why=$(browser_why)
if [ -z "$why" ]; then
	ART=${ARTIFACTS:-$B/tests/artifacts}
	mkdir -p "$ART"
	browser_run browser check.js --page "$WORK/r.html" --doc "$WORK/doc.json" \
		--shot "$ART/loops.png" --loopshot "$ART/loops-listing.png"
	grep -q "hottest loop's instructions are marked" "$WORK/browser.check" || bad "browser: no loop checks ran"
else
	browser_skip "$why"
fi

# ---- 2. diff: the builds with and without the levers' instructions ----
"$AOTPERF" diff -q -i "$WORK/w1.data" --cwasm "$WORK/w1.cwasm" -- -i "$WORK/w0.data" --cwasm "$WORK/w0.cwasm" \
	--func lv_bounds --func lv_zext --json "$WORK/d.json" --markdown "$WORK/d.md" --html "$WORK/d.html" \
	>"$WORK/d.txt"
check_eq "diff --func x2: exit 0" "$?" 0
for kl in lv_bounds:bounds_check lv_zext:zext_move; do
	f=${kl%%:*} lv=${kl#*:}
	q=".classified_functions[] | select(.spec == \"$f\") | .hottest_loop"
	dm=$(jq -r "$q.mcpu" "$WORK/d.json")
	for s in before after; do
		jq -r "$q.$s.input" "$WORK/d.json" >"$WORK/d.$f.$s.s"
		check_eq "diff $f: $s = llvm-mca rerun on its input" \
			"$(jq "$q.$s.cycles_per_iteration" "$WORK/d.json" | two)" "$(rerun "$dm" "$WORK/d.$f.$s.s")"
	done
	check "diff $f: change = after - before" within \
		"$(jq "$q.change_cycles_per_iteration" "$WORK/d.json")" \
		"$(jq "$q | .after.cycles_per_iteration - .before.cycles_per_iteration" "$WORK/d.json")" 0
	wi=$(jq ".classified_functions[] | select(.name == \"$f\") | .loops[0].whatif.$lv.cycles_per_iteration" "$WORK/r.json")
	check "diff $f: after ($(jq "$q.after.cycles_per_iteration" "$WORK/d.json")) = report's what-if $lv on the before build ($wi), 1%" \
		within "$(jq "$q.after.cycles_per_iteration" "$WORK/d.json")" "$wi" 1
done
check "diff text: the predicted cycles before and after" \
	grep -q "hottest loop, cycles per iteration (llvm-mca -mcpu=$mcpu)" "$WORK/d.txt"
w=$(gawk '{ n = length($0); if (n > m) m = n } END { print m + 0 }' "$WORK/d.txt")
check "diff text fits 80 columns (widest $w)" test "$w" -le 80
check_eq "diff Markdown: the predicted cycles per --func" \
	"$(grep -c '^hottest loop, predicted by llvm-mca' "$WORK/d.md")" 2

if [ -z "$why" ]; then
	sed -n 's|^<script type="application/json" id="aotperf-data">\(.*\)</script>$|\1|p' "$WORK/d.html" >"$WORK/dd.json"
	(cd "$ROOT/tests/browser" && node diff.js --page "$WORK/d.html" --doc "$WORK/dd.json" \
		--json "$WORK/d.json" --shot "$ART/loops-diff.png") >"$WORK/d.check" 2>&1
	check "diff page: the hottest loops' table = the document's cycles" \
		grep -q "^ok: hottest loops before/after: the document's cycles (2)" "$WORK/d.check"
	check "diff page: the other checks pass" bash -c "! grep -q '^FAIL' '$WORK/d.check'"
fi

# ---- 3. the frame lever with the compiler's sidecar: allocator spills only ----
F=$FIX/frames.cwasm
record "$WORK/fr.data" -- --ms 1500 "$F"
"$AOTPERF" report -q -i "$WORK/fr.data" --cwasm "$F" --func spill_heavy --json "$WORK/fa.json" >/dev/null
"$AOTPERF" report -q -i "$WORK/fr.data" --cwasm "$F" --func spill_heavy \
	--frame-attribution "$FIX/side/frames" --json "$WORK/fb.json" >"$WORK/fb.txt"
check_eq "report --frame-attribution --func spill_heavy: exit 0" "$?" 0
lf=$(jq '.classified_functions[0].local_func' "$WORK/fb.json")
spills=$(jq -r --argjson b "$(jq -c '.classified_functions[0].loops[0].blocks' "$WORK/fb.json")" \
	'[.accesses[] | select(.origin == "allocator_spill") | select(. as $a | $b |
	  any($a.native_start >= .[0] and $a.native_start < .[1]))] | length' "$FIX/side/frames.mod0.func$lf.json")
q='.classified_functions[0].loops[0].whatif.frame'
check_eq "frame lever with the sidecar: the allocator spills in the loop ($spills, jq on the sidecar)" \
	"$(jq -r "$q | \"\(.scope) \(.removed)\"" "$WORK/fb.json")" "allocator_spills $spills"
check_eq "... fewer than without it ($(jq "$q.removed" "$WORK/fa.json"), scope frame_accesses)" \
	"$(jq "$q | .removed > $spills and .scope == \"frame_accesses\"" "$WORK/fa.json")" true
check "frame lever: the text says the sidecar limits it" grep -q "allocator spills only" "$WORK/fb.txt"

# ---- 5. no llvm-mca (AOTPERF_LLVM_MCA empty): loops shown, how to get the model said ----
AOTPERF_LLVM_MCA= "$AOTPERF" report -q -i "$WORK/w1.data" --cwasm "$WORK/w1.cwasm" --func lv_bounds \
	--markdown "$WORK/n.md" --html "$WORK/n.html" >/dev/null
check_eq "no llvm-mca: report --markdown --html: exit 0" "$?" 0
check "no llvm-mca: Markdown has the loops table and says make deps" \
	bash -c "grep -q '^\*\*hot loops\*\* (1' '$WORK/n.md' && grep -q 'throughput model: no llvm-mca.*make deps' '$WORK/n.md'"
AOTPERF_LLVM_MCA= "$AOTPERF" diff -q -i "$WORK/w1.data" --cwasm "$WORK/w1.cwasm" -- -i "$WORK/w0.data" \
	--cwasm "$WORK/w0.cwasm" --func lv_bounds --json "$WORK/nd.json" >"$WORK/nd.txt"
check_eq "no llvm-mca: diff's hottest loop: no numbers, the note says make deps" \
	"$(jq -c '.classified_functions[0].hottest_loop | [.before, .after, (.note | test("make deps"))]' "$WORK/nd.json")" \
	'[null,null,true]'
if [ -z "$why" ]; then
	sed -n 's|^<script type="application/json" id="aotperf-data">\(.*\)</script>$|\1|p' "$WORK/n.html" >"$WORK/n.json"
	(cd "$ROOT/tests/browser" && node check.js --page "$WORK/n.html" --doc "$WORK/n.json" \
		--shot "$ART/loops-nomodel.png") >"$WORK/n.check" 2>&1
	check "no llvm-mca: the page marks the loop and says how to get the model" \
		grep -q "^ok: no model: the page says why and how to get it" "$WORK/n.check"
	check "no llvm-mca: the page's other checks pass" bash -c "! grep -q '^FAIL' '$WORK/n.check'"
fi

# ---- 4. parallel llvm-mca: a stand-in that logs each child's start and end ----
# It sits where Debian puts llvm-mca (.../llvm-N/bin/), N the real one's, so
# aotperf knows the version as for the real tool; a run that llvm-mca ends
# with "is not a recognized processor" (a model this LLVM lacks) is logged
# "refused", any other "ran".
sdir=$WORK/bin
case $MCA in */llvm-[0-9]*/bin/llvm-mca) sdir=$WORK/$(basename "$(dirname "$(dirname "$MCA")")")/bin ;; esac
mkdir -p "$sdir"
cat >"$sdir/llvm-mca" <<EOF
#!/bin/sh
echo "start \$(date +%s%N)" >>"$WORK/mca.log"
"$MCA" "\$@" 2>"$WORK/mca.err.\$\$"
rc=\$?
r=ran; grep -q 'is not a recognized processor' "$WORK/mca.err.\$\$" && r=refused
cat "$WORK/mca.err.\$\$" >&2; rm -f "$WORK/mca.err.\$\$"
echo "end \$(date +%s%N) \$r" >>"$WORK/mca.log"
exit \$rc
EOF
chmod +x "$sdir/llvm-mca"
AOTPERF_LLVM_MCA=$sdir/llvm-mca "$AOTPERF" report -q -i "$WORK/w1.data" --cwasm "$WORK/w1.cwasm" "${fargs[@]}" >/dev/null
ncpu=$(nproc)
want=$(( ncpu < 4 ? ncpu : 4 ))
check_eq "4 functions: one llvm-mca child per CPU ($want)" "$(grep -c '^end .* ran$' "$WORK/mca.log")" "$want"
# the models this LLVM's version predates are never tried (loops/mcpu.c's
# table covers AMD's chains: znver5 since LLVM 19, znver4 since 16)
case $sdir:$(grep -m1 '^vendor_id' /proc/cpuinfo) in
*/llvm-[0-9]*/bin:*AuthenticAMD*)
	check_eq "llvm-mca at ${sdir#"$WORK"/}: no child started with a model it lacks" \
		"$(grep -c '^end .* refused$' "$WORK/mca.log")" 0 ;;
esac
if [ "$want" -gt 1 ]; then
	# the second child starts before the first ends
	check "the children overlap (run in parallel)" gawk '
		$1 == "start" { s[++ns] = $2 } $1 == "end" { e[++ne] = $2 }
		END { exit !(s[2] < e[1]) }' "$WORK/mca.log"
fi
finish
