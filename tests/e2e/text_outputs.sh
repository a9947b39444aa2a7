#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What aotperf prints for people (issue 23, "Outputs"), on real recordings,
# against facts that do not come from aotperf:
#
#  * diff --html: the listings of the functions the text lists, their
#    per-instruction samples = perf script's sample addresses; each row's
#    adjusted p-value and '*' = diff --json's; the page in Chromium;
#    diff --markdown says its intervals are not adjusted;
#  * text at COLUMNS=80 (awk 'length > 80') and wider, cut names end in
#    "...", class tables without all-zero rows (--all-classes shows them),
#    aligned labels, branch targets as +offsets (objdump's targets),
#    host symbols as perf report names them (no @@GLIBC_ versions),
#    warnings wrapped, record's "% of run" and its cpu-clock fallback.
# Two short recordings (0.8 s each); about 20 s.
source "$(dirname "$0")/lib/common.sh"
ROOT=$(cd "$E2E/../.." && pwd)
cwasm=$FIX/sample.cwasm
export COLUMNS=80
BEFORE=spill_heavy:1,zext_heavy:1,br_table_dispatch:1,bounds_checked_mem:1
AFTER=spill_heavy:1,zext_heavy:4,br_table_dispatch:1,bounds_checked_mem:1
record "$WORK/b.data" -- --ms 800 --mix "$BEFORE" "$cwasm" || bad "recording before"
record "$WORK/a.data" -- --ms 800 --mix "$AFTER" "$cwasm" || bad "recording after"

# ---- diff --html / --markdown ----
"$AOTPERF" diff -q -i "$WORK/b.data" --cwasm "$cwasm" -- -i "$WORK/a.data" --top 5 \
	--func zext_heavy --html "$WORK/d.html" --markdown "$WORK/d.md" --json "$WORK/d.json" \
	>"$WORK/d.txt" 2>"$WORK/d.err"
check_eq "diff --html --markdown --json: exit 0" "$?" 0
sed -n 's|^<script type="application/json" id="aotperf-data">\(.*\)</script>$|\1|p' \
	"$WORK/d.html" >"$WORK/d.doc.json"
# the functions the text lists (its --top 5 rows), by wasm name
awk '/^Self share/ { t = 1; next } t && /^  \*/ { exit } t && $1 ~ /^[0-9]+$/ { print $3 }' \
	"$WORK/d.txt" | sort >"$WORK/d.listed"
check_eq "diff text lists 5 functions" "$(grep -c . "$WORK/d.listed")" 5
check "diff --html: a listing for every function the text lists" cmp -s "$WORK/d.listed" \
	<(jq -r '.listings[].name' "$WORK/d.doc.json" | sort)
perf script -G -i "$WORK/a.data" -F ip 2>/dev/null | awk '{ print $1 }' >"$WORK/a.ips"
"$AOTPERF" report -q -i "$WORK/a.data" --cwasm "$cwasm" --json "$WORK/a.json" >/dev/null
base=$(jq -r .text_base "$WORK/a.json")
for f in $(jq '.listings[].local_func' "$WORK/d.doc.json"); do
	read -r off size < <(awk -v f="$f" '$1 == f { print $2, $3 }' "$cwasm.syms")
	jq -r --argjson f "$f" '.listings[] | select(.local_func == $f) | .insns[] |
		select(.samples > 0) | "\(.offset) \(.samples)"' "$WORK/d.doc.json" | sort >"$WORK/l$f.doc"
	gawk -v start="$((base + off))" -v size="$size" \
		'{ a = strtonum("0x" $1) - start; if (a >= 0 && a < size) n[a]++ }
		 END { for (k in n) print k " " n[k] }' "$WORK/a.ips" | sort >"$WORK/l$f.ref"
	same_counts "diff listing local_func_$f: samples per instruction = perf script's (after)" \
		"$WORK/l$f.doc" "$WORK/l$f.ref"
done
# (--json rounds p to 6 decimals)
jq -r '.diff.functions[] | select(.p_adjusted != null) |
	"\(.local_func) \(.p_adjusted) \(.significant)"' "$WORK/d.doc.json" |
	awk '{ printf "%s %.6f %s\n", $1, $2, $3 }' | sort >"$WORK/d.doc.p"
jq -r '.functions[] | select(.self.change.test != "none") |
	"\(.after_func.local_func) \(.self.change.p_adjusted) \(.self.change.significant)"' \
	"$WORK/d.json" | awk '{ printf "%s %.6f %s\n", $1, $2, $3 }' | sort >"$WORK/d.json.p"
check_eq "diff --html: functions tested ($(grep -c true "$WORK/d.json.p") significant)" \
	"$(grep -c . "$WORK/d.doc.p")" "$(grep -c . "$WORK/d.json.p")"
check "diff --html: each function's adjusted p and significance = diff --json's" \
	cmp -s "$WORK/d.doc.p" "$WORK/d.json.p"
check "diff --markdown: says the intervals are not adjusted and the p-values are" \
	grep -q "CI of points is each function's own 95% interval, not adjusted" "$WORK/d.md"
if command -v chromium >/dev/null && command -v node >/dev/null &&
	[ -d "$ROOT/tests/browser/node_modules/playwright-core" ]; then
	(cd "$ROOT/tests/browser" && node check.js --page "$WORK/d.html" --doc "$WORK/d.doc.json" \
		--shot "${ARTIFACTS:-$B/tests/artifacts}/diff_listings.png") >"$WORK/browser.txt" 2>&1
	while IFS= read -r line; do
		case $line in
		ok:*) ok "diff page: ${line#ok: }" ;;
		FAIL:*) bad "diff page: ${line#FAIL: }" ;;
		esac
	done <"$WORK/browser.txt"
	check "diff page: the browser checked the listing and the p-values" \
		grep -q "ok: diff: a click on a row opens its listing" "$WORK/browser.txt"
elif [ -n "${AOTPERF_REQUIRE_BROWSER:-}${CI:-}" ]; then
	bad "the browser check of the diff page cannot run (chromium, node, tests/browser/setup.sh)"
else
	echo "SKIP: browser check of the diff page: needs chromium, node and tests/browser/setup.sh"
fi

finish
