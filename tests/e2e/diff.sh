#!/usr/bin/env bash
# aotperf diff and aotperf report -i a -i b ... on real recordings of the
# loader (tests/e2e/lib/diff_fixtures.sh):
#
#  * a before/after pair, 5 captures a side, recorded alternately: the after
#    build is sample.cwasm "recompiled" (2,382 functions moved) and runs a
#    known other mix (spill_heavy keeps 1/4 of the kernels' time, zext_heavy
#    1/4 -> 1/2, br_table_dispatch and bounds_checked_mem 1/4 -> 1/8);
#  * every share, spread and sample count against perf script + the
#    assembler's symbol list (diff_ref_shares), never against aotperf;
#  * the shares move by the known amounts, the changed kernels are flagged,
#    the unchanged one is not; the gate; the class tables of --func;
#  * a build with a renamed and a removed function; a two-core manifest;
#  * report -i x5: mean and spread per function;
#  * Markdown rendered by cmark-gfm (tables), the HTML page in Chromium
#    (tests/browser/check.js) where it is installed; 80 columns; bad input.
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/diff_fixtures.sh"
ROOT=$(cd "$E2E/../.." && pwd)
N=5
D=$WORK/p
SB=$FIX/sample.cwasm.syms

if ! diff_fixture_pair "$D" "$N" 1000 "$DIFF_MIX_KEEP"; then
	bad "recording the before/after pair"
	finish
	exit
fi
SA=$D/after.cwasm.syms
bef=() aft=() befs=() afts=()
for k in $(seq 1 "$N"); do
	befs+=("$D/before.$k.data"); afts+=("$D/after.$k.data")
	bef+=(-i "$D/before.$k.data"); aft+=(-i "$D/after.$k.data")
done
[ "$(diff_kernel_wasm "$SB" zext_heavy)" = "$(diff_kernel_wasm "$SA" zext_heavy)" ] &&
	ok "the after build keeps the wasm indices ($(cmp -l "$SB" "$SA" 2>/dev/null | wc -l) bytes of .syms differ)" ||
	bad "the after build keeps the wasm indices"
check "the after build moved functions" bash -c "! cmp -s '$SB' '$SA'"

# ref_side SYMS DATA...: per function with samples on the side, from perf
# script alone: "WASM MEAN SD MIN MAX SAMPLES" (shares in percent of each
# capture's samples; sd with n - 1)
ref_side() {
	local syms=$1 f
	shift
	for f in "$@"; do diff_ref_shares "$f" "$syms" | sed "s|^|$f |"; done | gawk -v nc=$# '
		{ sh[$1, $2] = 100 * $3 / $4; cnt[$2] += $3; w[$2] = 1; caps[$1] = 1 }
		END {
			for (x in w) {
				s = 0; mn = 1e9; mx = -1
				for (c in caps) {
					v = ((c, x) in sh) ? sh[c, x] : 0; s += v
					if (v < mn) mn = v
					if (v > mx) mx = v
				}
				m = s / nc; ss = 0
				for (c in caps) { v = ((c, x) in sh) ? sh[c, x] : 0; ss += (v - m) ^ 2 }
				printf "%d %.4f %.4f %.4f %.4f %d\n", x, m, (nc > 1 ? sqrt(ss / (nc - 1)) : 0), mn, mx, cnt[x]
			}
		}' | sort -n
}
# same_stats DESC OURS REF: the two "WASM MEAN SD MIN MAX SAMPLES" lists agree
# (JSON keeps 4 decimals), one line per function on both sides
same_stats() {
	local got
	got=$(gawk 'NR == FNR { r[$1] = $0; next }
		{ if (!($1 in r)) { print "extra " $1; next }
		  split(r[$1], v, " ")
		  for (i = 2; i <= 5; i++) if ((v[i] - $i) > 0.00015 || ($i - v[i]) > 0.00015) { print "wasm " $1 " field " i ": " $i " vs " v[i]; next }
		  if (v[6] != $6) { print "wasm " $1 " samples " $6 " vs " v[6]; next }
		  seen[$1] = 1; n++ }
		END { for (k in r) if (!(k in seen)) print "missing " k; print n " ok" }' "$3" "$2")
	case "$got" in
	[0-9]*" ok") ok "$1 (${got% ok} functions)" ;;
	*) bad "$1: $(head -3 <<<"$got" | tr '\n' ';')" ;;
	esac
}
ours_side() { # ours_side JSON before|after
	jq -r --arg s "$2" '.functions[] | select(.self[$s].samples > 0) |
		"\(.wasm_func) \(.self[$s].mean) \(.self[$s].sd) \(.self[$s].min) \(.self[$s].max) \(.self[$s].samples)"' "$1" | sort -n
}
ours_share() { # ours_share JSON NAME before|after: its mean share
	jq -r --arg n "$2" --arg s "$3" '.functions[] | select((.after_func.name // .before_func.name) == $n) | .self[$s].mean' "$1"
}
fits_80() { # fits_80 DESC FILE
	local w
	w=$(gawk '{ n = length($0); if (n > m) m = n } END { print m + 0 }' "$2")
	check "$1 fits 80 columns (widest $w)" test "$w" -le 80
}

# ---- 5 captures a side ----
"$AOTPERF" diff "${bef[@]}" --cwasm "$FIX/sample.cwasm" -- "${aft[@]}" --cwasm "$D/after.cwasm" \
	--func zext_heavy --func spill_heavy --top 0 --json "$WORK/d.json" --markdown "$WORK/d.md" \
	--html "$WORK/d.html" >"$WORK/d.txt" 2>"$WORK/d.err"
check_eq "diff 5 vs 5: exit 0" "$?" 0
ref_side "$SB" "${befs[@]}" >"$WORK/ref.before"
ref_side "$SA" "${afts[@]}" >"$WORK/ref.after"
ours_side "$WORK/d.json" before >"$WORK/ours.before"
ours_side "$WORK/d.json" after >"$WORK/ours.after"
same_stats "before: mean, sd, min, max, samples per function = perf script's" "$WORK/ours.before" "$WORK/ref.before"
same_stats "after: mean, sd, min, max, samples per function = perf script's" "$WORK/ours.after" "$WORK/ref.after"
check_eq "5 vs 5 uses Welch's test" "$(jq -r '[.functions[] | select(.self.change.test != "none") | .self.change.test] | unique | join(",")' "$WORK/d.json")" welch
check_eq "no rename, removal or addition in the shifted build" \
	"$(jq '[.renamed, .added, .removed, .moved_names] | map(length) | add' "$WORK/d.json")" 0

# the known change of mix, from aotperf's shares: each kernel's fraction of
# the kernels' time (helper_mix belongs to spill_heavy, its only caller)
frac() { # frac SIDE: "spill zext br bounds" fractions of the kernel total
	local s=$1 sp he ze br bo
	sp=$(ours_share "$WORK/d.json" spill_heavy "$s"); he=$(ours_share "$WORK/d.json" helper_mix "$s")
	ze=$(ours_share "$WORK/d.json" zext_heavy "$s"); br=$(ours_share "$WORK/d.json" br_table_dispatch "$s")
	bo=$(ours_share "$WORK/d.json" bounds_checked_mem "$s")
	gawk -v a="$sp" -v h="${he:-0}" -v b="$ze" -v c="$br" -v d="$bo" \
		'BEGIN { t = a + h + b + c + d; printf "%.3f %.3f %.3f %.3f\n", (a + h) / t, b / t, c / t, d / t }'
}
near() { # near DESC GOT WANT TOL
	if gawk -v g="$2" -v w="$3" -v t="$4" 'BEGIN { exit !((g - w) <= t && (w - g) <= t) }'; then
		ok "$1 ($2, expected $3 +- $4)"
	else
		bad "$1: $2, expected $3 +- $4"
	fi
}
read -r fsb fzb fbb fob <<<"$(frac before)"
read -r fsa fza fba foa <<<"$(frac after)"
near "before: zext_heavy has 1/4 of the kernels' time" "$fzb" 0.25 0.06
near "before: spill_heavy (+ helper_mix) has 1/4" "$fsb" 0.25 0.06
near "after: zext_heavy has 1/2" "$fza" 0.5 0.07
near "after: spill_heavy (+ helper_mix) still has 1/4" "$fsa" 0.25 0.06
near "after: br_table_dispatch has 1/8" "$fba" 0.125 0.05
near "after: bounds_checked_mem has 1/8" "$foa" 0.125 0.05
sig() { jq -r --arg n "$2" '.functions[] | select((.after_func.name // .before_func.name) == $n) |
	"\(.self.change.significant) \(if .self.change.points > 0 then "up" else "down" end)"' "$1"; }
check_eq "zext_heavy: flagged, up" "$(sig "$WORK/d.json" zext_heavy)" "true up"
# the halved kernels: down, the 95% interval of the change below 0 (per
# function; after Holm a run-to-run outlier can leave one of them unflagged)
ci_hi() { jq -r --arg n "$2" '.functions[] | select(.after_func.name == $n) | .self.change.ci_points[1] < 0' "$1"; }
check_eq "br_table_dispatch: down, its interval below 0" "$(ci_hi "$WORK/d.json" br_table_dispatch)" true
check_eq "bounds_checked_mem: down, its interval below 0" "$(ci_hi "$WORK/d.json" bounds_checked_mem)" true
pts=$(jq -r '.functions[] | select(.after_func.name == "spill_heavy") | .self.change.points' "$WORK/d.json")
near "spill_heavy (unchanged): its change is small" "$pts" 0 4
# the unchanged function at a 99.5% level (a chance flag in 0.5% of runs)
"$AOTPERF" diff -q "${bef[@]}" --cwasm "$FIX/sample.cwasm" -- "${aft[@]}" --cwasm "$D/after.cwasm" \
	--level 99.5 --json "$WORK/d995.json" >/dev/null 2>&1
check_eq "spill_heavy (unchanged) is not flagged at 99.5%" "$(sig "$WORK/d995.json" spill_heavy | cut -d' ' -f1)" false
# the level is a threshold on the same adjusted p: zext_heavy's is the 95%
# run's, and it is flagged exactly when that p is below 0.005 (whether it
# is depends on the five runs' spread: noted, not asserted)
zext_p() { jq -r '.functions[] | select((.after_func.name // .before_func.name) == "zext_heavy") |
	.self.change.p_adjusted' "$1"; }
check_eq "zext_heavy at 99.5%: the same adjusted p as at 95%" "$(zext_p "$WORK/d995.json")" \
	"$(zext_p "$WORK/d.json")"
check_eq "zext_heavy at 99.5%: flagged exactly when its adjusted p < 0.005" \
	"$(jq -r '.functions[] | select((.after_func.name // .before_func.name) == "zext_heavy") |
		.self.change | .significant == (.p_adjusted < 0.005)' "$WORK/d995.json")" true
echo "note: zext_heavy at 99.5%: $(sig "$WORK/d995.json" zext_heavy) (p $(zext_p "$WORK/d995.json"))"

# the text: what the JSON says, in 80 columns
fits_80 "diff text" "$WORK/d.txt"
check "text: 5 recordings a side" grep -q "^aotperf diff: 5 recordings before, 5 after" "$WORK/d.txt"
check "text: zext_heavy's row is the largest time change, starred" \
	bash -c "grep -A1 '^  function  *before  *after  *change' '$WORK/d.txt' | sed -n 2p | grep -q '^  zext_heavy .* \* '"
check "text: the class table of --func zext_heavy" grep -q "^Classes of zext_heavy, wasm $(diff_kernel_wasm "$SB" zext_heavy):" "$WORK/d.txt"

# --func: the class tables; the code only moved, so static counts agree,
# and the class samples add up to the function's samples (perf script)
zw=$(diff_kernel_wasm "$SB" zext_heavy)
check_eq "zext_heavy: class samples before = its samples (perf script)" \
	"$(jq '.classified_functions[] | select(.name == "zext_heavy") | [.classes[].samples_before] | add' "$WORK/d.json")" \
	"$(gawk -v w="$zw" '$1 == w { print $6 }' "$WORK/ref.before")"
check_eq "zext_heavy: class samples after = its samples (perf script)" \
	"$(jq '.classified_functions[] | select(.name == "zext_heavy") | [.classes[].samples_after] | add' "$WORK/d.json")" \
	"$(gawk -v w="$zw" '$1 == w { print $6 }' "$WORK/ref.after")"
check_eq "zext_heavy: the same static class counts in both builds" \
	"$(jq '[.classified_functions[] | .classes[] | select(.static_before != .static_after)] | length' "$WORK/d.json")" 0
check_eq "zext_heavy: zero-extends in its static counts" \
	"$(jq '.classified_functions[] | select(.name == "zext_heavy") | .classes.zext_move.static_before > 0' "$WORK/d.json")" true

# ---- the gate ----
"$AOTPERF" diff -q "${bef[@]}" --cwasm "$FIX/sample.cwasm" -- "${aft[@]}" --cwasm "$D/after.cwasm" \
	--func zext_heavy --fail-if-slower 10 --json "$WORK/g.json" >"$WORK/g.txt" 2>"$WORK/g.err"
check_eq "gate: zext_heavy slower by more than 10%: exit 1" "$?" 1
check "gate: one line naming it, on time per run" bash -c "[ \$(wc -l <'$WORK/g.err') = 1 ] && grep -q 'zext_heavy: time per run .* ms (.*slower by more than 10%' '$WORK/g.err'"
check_eq "gate: the JSON says failed" "$(jq .gate.failed "$WORK/g.json")" true
"$AOTPERF" diff -q "${bef[@]}" --cwasm "$FIX/sample.cwasm" -- "${aft[@]}" --cwasm "$D/after.cwasm" \
	--func zext_heavy --fail-if-slower 400 >/dev/null 2>&1
check_eq "gate: +100% is not slower by more than 400%" "$?" 0
"$AOTPERF" diff -q "${bef[@]}" --cwasm "$FIX/sample.cwasm" -- "${aft[@]}" --cwasm "$D/after.cwasm" \
	--func bounds_checked_mem --fail-if-slower 0 >/dev/null 2>&1
check_eq "gate: a function that got faster passes at 0%" "$?" 0
"$AOTPERF" diff -q "${bef[@]}" --cwasm "$FIX/sample.cwasm" -- "${aft[@]}" --cwasm "$D/after.cwasm" \
	--fail-if-slower 10 --json "$WORK/gh.json" >/dev/null 2>&1
check_eq "gate without --func judges the largest share before" \
	"$(jq '.gate.checks[0].wasm_func' "$WORK/gh.json")" \
	"$(jq '[.functions[] | select(.before_func != null and .after_func != null)] | max_by(.self.before.mean) | .wasm_func' "$WORK/gh.json")"

# ---- one capture a side: the z-test, and the warning ----
"$AOTPERF" diff -i "$D/before.1.data" --cwasm "$FIX/sample.cwasm" -- "$D/after.1.data" \
	--cwasm "$D/after.cwasm" --json "$WORK/d1.json" >/dev/null 2>"$WORK/d1.err"
check_eq "1 vs 1 uses the z-test" "$(jq -r '[.functions[] | select(.self.change.test != "none") | .self.change.test] | unique | join(",")' "$WORK/d1.json")" z
check "1 vs 1 warns that runs vary more than samples" grep -q "one recording on a side" "$WORK/d1.err"
diff_ref_shares "$D/before.1.data" "$SB" >"$WORK/r1"
check_eq "1 vs 1: zext_heavy's samples and total = perf script's" \
	"$(jq -r --argjson w "$zw" '.functions[] | select(.wasm_func == $w) | "\(.self.before.samples) \(.self.before.total_samples)"' "$WORK/d1.json")" \
	"$(gawk -v w="$zw" '$1 == w { print $2, $3 }' "$WORK/r1")"

# ---- a build with a renamed and a removed function ----
diff_renamed_cwasm "$D/renamed.cwasm"
diff_record "$D/renamed.data" "$D/renamed.cwasm" "$DIFF_MIX_BEFORE" 1000
"$AOTPERF" diff "$D/before.1.data" --cwasm "$FIX/sample.cwasm" -- "$D/renamed.data" \
	--cwasm "$D/renamed.cwasm" --json "$WORK/rn.json" >"$WORK/rn.txt" 2>"$WORK/rn.err"
check_eq "renamed build: exit 0" "$?" 0
w200=$(gawk -v i="$DIFF_IMPORTS" '$4 == "cold_200" { print $1 + i }' "$SB")
wlast=$(gawk -v i="$DIFF_IMPORTS" 'END { print $1 + i }' "$SB")
check_eq "renamed: cold_200 -> warm_200 at wasm $w200" \
	"$(jq -r '.renamed | map("\(.wasm_func) \(.before_name) \(.after_name)") | join(";")' "$WORK/rn.json")" \
	"$w200 cold_200 warm_200"
check_eq "removed: the last function, wasm $wlast" \
	"$(jq -r '.removed | map("\(.wasm_func) \(.before_local_func) \(.after_local_func)") | join(";")' "$WORK/rn.json")" \
	"$wlast $((wlast - DIFF_IMPORTS)) null"
check_eq "added: none" "$(jq '.added | length' "$WORK/rn.json")" 0
check "no warning that names moved" bash -c "! grep -q 'other wasm indices' '$WORK/rn.err'"
check "text lists the rename and the removal" bash -c "grep -q 'local_func_$((w200 - DIFF_IMPORTS)) cold_200 *local_func_$((w200 - DIFF_IMPORTS)) warm_200' '$WORK/rn.txt' && grep -q '^Removed (only in the before build): 1' '$WORK/rn.txt'"
ref_side "$D/renamed.cwasm.syms" "$D/renamed.data" >"$WORK/ref.rn"
ours_side "$WORK/rn.json" after >"$WORK/ours.rn"
same_stats "renamed build: after shares = perf script's over its own symbols" "$WORK/ours.rn" "$WORK/ref.rn"

# ---- a two-core manifest, two captures a side (same build) ----
man=$FIX/comp.cwasm.json
for k in 1 2; do
	record "$WORK/m$k.data" -- --ms 600 --manifest "$man"
	record "$WORK/n$k.data" -- --ms 600 --manifest "$man"
done
"$AOTPERF" diff -q -i "$WORK/m1.data" -i "$WORK/m2.data" --manifest "$man" -- \
	-i "$WORK/n1.data" -i "$WORK/n2.data" --json "$WORK/man.json" >"$WORK/man.txt" 2>&1
check_eq "manifest: exit 0 (the after side borrows the cores)" "$?" 0
check_eq "manifest: cores paired by idx" "$(jq -r '[.core_pairs[] | "\(.manifest_idx):\(.core)"] | join(" ")' "$WORK/man.json")" "0:mod0 1:mod1"
check_eq "manifest: functions named mod<M>:" "$(jq -r '[.functions[].core] | unique | join(" ")' "$WORK/man.json")" "mod0 mod1"
fits_80 "manifest diff text" "$WORK/man.txt"

# ---- call graphs: inclusive shares from -g recordings ----
# Each side's inclusive samples per function must equal what report
# --children counts in that recording (profile/stacks.h); a recording
# without call chains has no inclusive table.
record "$WORK/g1.data" -g -- --ms 600 "$FIX/sample.cwasm"
record "$WORK/g2.data" -g -- --ms 600 "$FIX/sample.cwasm"
"$AOTPERF" diff -q -i "$WORK/g1.data" --cwasm "$FIX/sample.cwasm" -- -i "$WORK/g2.data" \
	--json "$WORK/g.json" >"$WORK/g.txt" 2>&1
check_eq "call graphs: exit 0" "$?" 0
check "call graphs: the inclusive table is printed" grep -q '^Inclusive (call graphs)' "$WORK/g.txt"
for side in before after; do
	k=1; [ "$side" = after ] && k=2
	"$AOTPERF" report -q -i "$WORK/g$k.data" --cwasm "$FIX/sample.cwasm" --children --top 0 \
		--json "$WORK/gc$k.json" >/dev/null
	jq -r '.children[] | select(.kind == "wasm") | "\(.local_func) \(.children_samples)"' \
		"$WORK/gc$k.json" | sort -n >"$WORK/gc$k.ref"
	jq -r --arg s "$side" '.functions[] | select(.inclusive[$s].samples > 0) |
		"\(.[$s + "_func"].local_func) \(.inclusive[$s].samples)"' "$WORK/g.json" | sort -n >"$WORK/gc$k.ours"
	check "call graphs: $side inclusive samples = report --children's" \
		diff -u "$WORK/gc$k.ref" "$WORK/gc$k.ours"
done
check_eq "no call chains: no inclusive table" \
	"$(grep -c '^Inclusive' "$WORK/man.txt")" 0

# ---- report -i x5: mean and spread ----
"$AOTPERF" report -q "${bef[@]}" --cwasm "$FIX/sample.cwasm" --top 0 --func zext_heavy \
	--json "$WORK/rep.json" >"$WORK/rep.txt"
check_eq "report -i x5: exit 0" "$?" 0
jq -r '.cores[0].top_functions[] | "\(.wasm_func) \(.mean_percent_of_run) \(.sd) \(.min) \(.max) \(.samples)"' \
	"$WORK/rep.json" | sort -n >"$WORK/ours.rep"
same_stats "report -i x5: mean, sd, min, max, samples per function = perf script's" "$WORK/ours.rep" "$WORK/ref.before"
check_eq "report -i x5: recordings listed" "$(jq '.recordings | length' "$WORK/rep.json")" "$N"
check_eq "report -i x5: totals = perf script's" "$(jq '[.recordings[].total_samples] | join(" ")' "$WORK/rep.json" | tr -d '"')" \
	"$(for k in $(seq 1 $N); do diff_ref_shares "$D/before.$k.data" "$SB" | head -1 | cut -d' ' -f3; done | tr '\n' ' ' | sed 's/ $//')"
check_eq "report -i x5: --func class samples = the function's samples" \
	"$(jq '.classified_functions[0].classes | [.[].samples] | add' "$WORK/rep.json")" \
	"$(gawk -v w="$zw" '$1 == w { print $6 }' "$WORK/ref.before")"
check "report -i x5: the spread is printed" grep -q "^  rank  function  *mean%  *sd  *min  *max" "$WORK/rep.txt"
fits_80 "report -i x5 text" "$WORK/rep.txt"
"$AOTPERF" report -q "${bef[@]}" --cwasm "$FIX/sample.cwasm" --hot 2 >/dev/null 2>"$WORK/hot.err"
check_eq "report -i x5 --hot: exit 2" "$?" 2

# ---- Markdown: GitHub tables ----
if command -v cmark-gfm >/dev/null; then
	cmark-gfm -e table "$WORK/d.md" >"$WORK/d.md.html"
	# and per --func its hottest loop's predicted cycles when llvm-mca is installed
	check_eq "Markdown: 8 tables (each side's recordings and cores, times and shares, functions, 2 class tables), + the loops'" \
		"$(grep -c '<table>' "$WORK/d.md.html")" \
		"$(jq '8 + ([.classified_functions[] | select(.hottest_loop.tool)] | length)' "$WORK/d.json")"
	check_eq "Markdown: a row per function with samples" \
		"$(grep -c '<td><code>' "$WORK/d.md.html")" \
		"$(( $(jq '[.functions[] | select(.self.before.samples + .self.after.samples > 0)] | length' "$WORK/d.json") + $(jq '[.classified_functions[].classes[] | select(.static_before + .static_after + .samples_before + .samples_after > 0)] | length' "$WORK/d.json") + 2 * N + 2 ))"
	check "Markdown: no raw pipes outside tables" bash -c "! grep -q '<p>|' '$WORK/d.md.html'"
elif [ -n "${CI:-}" ]; then
	bad "cmark-gfm is needed to check the Markdown (apt-get install cmark-gfm)"
else
	echo "SKIP: Markdown rendering: cmark-gfm is not installed (apt-get install cmark-gfm)"
fi

# ---- HTML ----
check "HTML page written with the diff's document" grep -q '"tool":"aotperf diff"' "$WORK/d.html"
if command -v chromium >/dev/null && command -v node >/dev/null &&
	[ -d "$ROOT/tests/browser/node_modules/playwright-core" ]; then
	python3 -c '
import json, re, sys
s = open(sys.argv[1]).read()
m = re.search(r"<script type=\"application/json\" id=\"aotperf-data\">(.*?)</script>", s, re.S)
json.dump(json.loads(m.group(1)), open(sys.argv[2], "w"))' "$WORK/d.html" "$WORK/d.doc.json"
	(cd "$ROOT/tests/browser" && node diff.js --page "$WORK/d.html" --doc "$WORK/d.doc.json" \
		--json "$WORK/d.json" --shot "${ARTIFACTS:-$B/tests/artifacts}/diff.png") >"$WORK/browser.txt" 2>&1
	while IFS= read -r line; do
		case $line in
		ok:*) ok "diff page: ${line#ok: }" ;;
		FAIL:*) bad "diff page: ${line#FAIL: }" ;;
		esac
	done <"$WORK/browser.txt"
elif [ -n "${AOTPERF_REQUIRE_BROWSER:-}${CI:-}" ]; then
	bad "the browser check of the diff page cannot run (chromium, node, tests/browser/setup.sh)"
else
	echo "SKIP: browser check of the diff page: needs chromium, node and tests/browser/setup.sh"
fi

# ---- bad input: exit 2, one line, nothing written, inputs untouched ----
one_line() { # one_line DESC PATTERN CMD...: exit 2 and one stderr line matching
	local d=$1 pat=$2 out rc
	shift 2
	out=$("$@" 2>&1 >/dev/null); rc=$?
	if [ "$rc" = 2 ] && [ "$(wc -l <<<"$out")" = 1 ] && grep -q -- "$pat" <<<"$out"; then
		ok "$d"
	else
		bad "$d: rc $rc: $out"
	fi
}
one_line "no '--': exit 2" "give the before build, '--'" \
	"$AOTPERF" diff -i "$D/before.1.data" --cwasm "$FIX/sample.cwasm"
one_line "a missing recording: named" "nosuch.data" \
	"$AOTPERF" diff -i "$D/before.1.data" --cwasm "$FIX/sample.cwasm" -- "$WORK/nosuch.data"
one_line "no recording after '--'" "no recording of the after build" \
	"$AOTPERF" diff -i "$D/before.1.data" --cwasm "$FIX/sample.cwasm" --
sum=$(md5sum <"$D/after.1.data")
one_line "--json onto an input: refused" "refusing to overwrite" \
	"$AOTPERF" diff -i "$D/before.1.data" --cwasm "$FIX/sample.cwasm" -- "$D/after.1.data" \
	--cwasm "$D/after.cwasm" --json "$D/after.1.data"
check_eq "the input is untouched" "$(md5sum <"$D/after.1.data")" "$sum"
one_line "stdin twice" "stdin can be read once" \
	"$AOTPERF" diff -i - -i - --cwasm "$FIX/sample.cwasm" -- "$D/after.1.data"
one_line "--gate-wasm alone" "needs --fail-if-slower" \
	"$AOTPERF" diff "$D/before.1.data" --cwasm "$FIX/sample.cwasm" -- "$D/after.1.data" --gate-wasm
one_line "--func that neither build has" "no_such_fn" \
	"$AOTPERF" diff "$D/before.1.data" --cwasm "$FIX/sample.cwasm" -- "$D/after.1.data" --func no_such_fn
check "no output file was left behind" bash -c "! ls '$D' | grep -qE '\\.(json|md|html)'"
# not in a pipe: fits_80 counts in this shell
fits_80 "diff --help" <("$AOTPERF" diff --help)

finish
