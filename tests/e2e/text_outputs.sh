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
#    host symbols as perf names them (perf 6.1 and 6.12 keep the
#    versions: __libc_start_main@@GLIBC_2.34, so aotperf does too),
#    warnings wrapped, record's "% of run" and its cpu-clock fallback.
# Four short recordings; about 45 s with the browser check.
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
awk '/^Self: CPU time/ { t = 1; next } t && /^  \*/ { exit } t == 2 { print $1 } t && /^  function / { t = 2 }' \
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
# one shape: the page's data document is --json's, plus the listings
check "diff --html: the data document = diff --json's document (its functions, tests, verdicts)" \
	cmp -s <(jq -S 'del(.listings, .title)' "$WORK/d.doc.json") <(jq -S 'del(.title)' "$WORK/d.json")
# the text's rows, time and share = the JSON's (the first functions_listed rows;
# the JSON keeps ns and 4 decimals: within the text's last digit)
jq -r '.functions[:.functions_listed][] | "\(.label) \(.self_time.before.mean / 1e6) \(.self.after.mean)"' \
	"$WORK/d.json" >"$WORK/d.json.rows"
awk '/^Self: CPU time/ { t = 1; next } t && /^  \*/ { exit } t == 2 { print $1, $2, $NF } t && /^  function / { t = 2 }' \
	"$WORK/d.txt" >"$WORK/d.txt.rows"
check "diff text: each listed row's time before and share after = the JSON's" \
	gawk 'NR == FNR { w[FNR] = $0; n = FNR; next }
		{ split(w[FNR], x, " "); if (x[1] != $1 || (x[2] - $2) ^ 2 > 0.0001 || (x[3] - $3) ^ 2 > 0.0001) bad = 1 }
		END { exit bad || FNR != n || n == 0 }' "$WORK/d.json.rows" "$WORK/d.txt.rows"
check "diff --markdown: says the intervals are not adjusted and the p-values are" \
	grep -q "The CI is each function's own 95% interval, not adjusted" "$WORK/d.md"
if command -v chromium >/dev/null && command -v node >/dev/null &&
	[ -d "$ROOT/tests/browser/node_modules/playwright-core" ]; then
	(cd "$ROOT/tests/browser" && node diff.js --page "$WORK/d.html" --doc "$WORK/d.doc.json" \
		--json "$WORK/d.json" --shot "${ARTIFACTS:-$B/tests/artifacts}/diff_listings.png") >"$WORK/browser.txt" 2>&1
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

# ---- report text at 80 columns ----
"$AOTPERF" report -i "$WORK/a.data" --cwasm "$cwasm" --func br_table_dispatch --func zext_heavy \
	--json "$WORK/r.json" >"$WORK/r.txt" 2>"$WORK/r.err"
check_eq "report --func: exit 0" "$?" 0
check_eq "report at COLUMNS=80: no line longer than 80" "$(awk 'length > 80' "$WORK/r.txt")" ""
"$AOTPERF" diff -i "$WORK/b.data" --cwasm "$cwasm" -- -i "$WORK/a.data" --func zext_heavy \
	>"$WORK/d80.txt" 2>"$WORK/d80.err"
check_eq "diff at COLUMNS=80: no line longer than 80" "$(awk 'length > 80' "$WORK/d80.txt")" ""
# COLUMNS honoured: wider, the diff's function column takes the room
COLUMNS=120 "$AOTPERF" diff -q -i "$WORK/b.data" --cwasm "$cwasm" -- -i "$WORK/a.data" \
	>"$WORK/d120.txt" 2>/dev/null
check_eq "diff at COLUMNS=120: the table header 40 columns wider" \
	"$(awk '/^  function  *before/ { print length; exit }' "$WORK/d120.txt")" \
	"$(( $(awk '/^  function  *before/ { print length; exit }' "$WORK/d80.txt") + 40 ))"
# cut text ends in "..." (never "..")
check "cut names and instructions end in '...' (report, diff)" \
	bash -c "! grep -hE '[^.]\\.\\.( |\$)' '$WORK/r.txt' '$WORK/d80.txt'"
check "report: something was cut (the loop's class list)" grep -q '\.\.\.' "$WORK/r.txt"

# class tables: rows with neither samples nor instructions hidden; --all-classes shows all
jq -r '.classified_functions[] | .classes | to_entries[] |
	select(.value.samples > 0 or .value.static_instructions > 0) | .key' "$WORK/r.json" |
	sort >"$WORK/cls.want"
sed -n '/^  class /,/^  total /{/^  class /d;/^  total /d;p}' "$WORK/r.txt" | awk '{ print $1 }' |
	sort >"$WORK/cls.got"
check "class tables: the rows = the classes with samples or instructions (report --json)" \
	cmp -s "$WORK/cls.got" "$WORK/cls.want"
"$AOTPERF" report -i "$WORK/a.data" --cwasm "$cwasm" --func zext_heavy --all-classes \
	>"$WORK/all.txt" 2>/dev/null
check_eq "--all-classes: every class of the JSON" \
	"$(sed -n '/^  class /,/^  total /{/^  class /d;/^  total /d;p}' "$WORK/all.txt" | wc -l)" \
	"$(jq '.classified_functions[0].classes | length' "$WORK/r.json")"
# labels align: the values of the table's footer start in one column, the
# header's counts end in one
check_eq "labels: frame traffic, vmctx slot, levers, verdict values at column 19" \
	"$(grep -E '^  (frame traffic|vmctx slot|levers|verdict) ' "$WORK/r.txt" |
		awk '{ print substr($0, 19, 1) != " " && substr($0, 18, 1) == " " }' | sort -u)" 1
check_eq "labels: levers' second line under its first" \
	"$(grep -A1 '^  levers' "$WORK/r.txt" | awk 'NR % 3 == 2 { match($0, /[^ ]/); print RSTART }' | sort -u)" 19
check_eq "header: total, in wasm, outside wasm counts end in one column" \
	"$(grep -E '^  (total samples|in wasm code|outside wasm) ' "$WORK/r.txt" |
		awk '{ match($0, /[0-9]+  /); print RSTART + RLENGTH }' | sort -u | wc -l)" 1
check_eq "outside wasm: symbols in one column" \
	"$(awk '/^  outside wasm/ { h = 1; next } h && /^    / && !/more\)$/ { print index($0, $4) }
		h && !/^    / { exit }' "$WORK/r.txt" | sort -u | wc -l)" 1

# branch targets as offsets, as objdump of the core's text says (decoding
# from each listed branch: a linear sweep loses step in the jump tables)
gawk '/^function local_func_[0-9]+ \(/ { fn = $3; gsub(/[():]/, "", fn) }
	/^ +[0-9]+ +[0-9.]+%  \+0x[0-9a-f]+ +[a-z_]+ +j[a-z]+ \+0x/ { print fn, $3, $5, $6 }' \
	"$WORK/r.txt" | sort -u >"$WORK/br.got"
while read -r fn at _; do
	off=$(awk -v n="$fn" '$4 == n { print $2 }' "$cwasm.syms")
	objdump -D -b binary -m i386:x86-64 -M intel --start-address=$((off + at)) \
		--stop-address=$((off + at + 8)) "$FIX/sample.text" |
		gawk -v fn="$fn" -v f=$((off)) '$NF ~ /^0x[0-9a-f]+$/ && $(NF - 1) ~ /^j/ {
			a = strtonum("0x" substr($1, 1, length($1) - 1))
			printf "%s +0x%x %s +0x%x\n", fn, a - f, $(NF - 1), strtonum($NF) - f; exit }'
done <"$WORK/br.got" | sort -u >"$WORK/br.ref"
check "report: branches listed ($(grep -c . "$WORK/br.got"))" test -s "$WORK/br.got"
check "report: branch targets = objdump's, as offsets in the function" \
	bash -c "comm -23 '$WORK/br.got' '$WORK/br.ref' | grep -q . && exit 1 || exit 0"
check "report: no branch into the function by its absolute address" \
	bash -c "! grep -E '  j[a-z]+ 0x7f' '$WORK/r.txt'"

# warnings: wrapped at the width, the same words as the one line into a log
"$AOTPERF" diff -i "$WORK/b.data" --cwasm "$cwasm" -- -i "$WORK/a.data" >/dev/null 2>"$WORK/w80.err"
env -u COLUMNS "$AOTPERF" diff -i "$WORK/b.data" --cwasm "$cwasm" -- -i "$WORK/a.data" \
	>/dev/null 2>"$WORK/w1.err"
check "warning: one line longer than 80 into a log without COLUMNS" \
	test "$(awk 'length > 80' "$WORK/w1.err" | wc -l)" -ge 1
check_eq "warning at COLUMNS=80: no line longer than 80" "$(awk 'length > 80' "$WORK/w80.err" | wc -l)" 0
check_eq "warning at COLUMNS=80: the same words" "$(tr -s ' \n' '  ' <"$WORK/w80.err")" \
	"$(tr -s ' \n' '  ' <"$WORK/w1.err")"

# ---- host symbols as perf names them ----
record "$WORK/g.data" --call-graph=dwarf -- --ms 150 "$cwasm"
"$AOTPERF" report -q -i "$WORK/g.data" --cwasm "$cwasm" --children --top 0 \
	--json "$WORK/g.json" >/dev/null
perf script -i "$WORK/g.data" --no-inline -F ip,sym 2>/dev/null | awk 'NF >= 2 { print $2 }' |
	sort -u >"$WORK/g.perf"
jq -r '.children[] | select(.kind == "host") | .name' "$WORK/g.json" | sort -u >"$WORK/g.ours"
check "host frames: __libc_start_main named as perf script names it ($(grep -m1 '^__libc_start_main' "$WORK/g.perf"))" \
	bash -c "grep -qx -- \"\$(grep -m1 '^__libc_start_main' '$WORK/g.perf')\" '$WORK/g.ours'"
check "host frames: every versioned name (@GLIBC) is perf script's" \
	bash -c "! comm -23 <(grep @ '$WORK/g.ours') '$WORK/g.perf' | grep -q ."

# ---- record ----
"$AOTPERF" record -o "$WORK/rec.data" --cwasm "$cwasm" -- "$LOADER" --ms 300 "$cwasm" \
	>"$WORK/rec.txt" 2>"$WORK/rec.err"
check_eq "record: exit 0" "$?" 0
"$AOTPERF" report -q -i "$WORK/rec.data" --cwasm "$cwasm" >"$WORK/rec.report" 2>/dev/null
check_eq "record: '% of run' as report says it" \
	"$(grep -o '([0-9.]*% of run)' "$WORK/rec.txt" | head -1)" \
	"$(awk '/^  in wasm code/ { print $5, $6, $7 }' "$WORK/rec.report")"
if perf stat -e cycles -- true 2>&1 | grep -q 'not supported'; then
	"$AOTPERF" record -e cycles -o "$WORK/cyc.data" --cwasm "$cwasm" -- "$LOADER" --ms 200 "$cwasm" \
		>"$WORK/cyc.txt" 2>"$WORK/cyc.err"
	check_eq "record -e cycles (no hardware cycles here): perf recorded" \
		"$(perf evlist -i "$WORK/cyc.data" 2>/dev/null)" cpu-clock
	check "record -e cycles: says it fell back to cpu-clock" \
		grep -q 'warning: -e cycles: perf recorded cpu-clock instead' "$WORK/cyc.err"
else
	echo "SKIP: record -e cycles fallback: this machine counts hardware cycles"
fi

finish
