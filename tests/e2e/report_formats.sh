#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# One truth per view (issue 31, docs/views.md): aotperf report renders one
# view per event, so its text, JSON, Markdown and the HTML page's data
# document state the same numbers, names and verdicts for the same
# options. On real recordings of the loader (plain, -g, dwarf, two events,
# off-CPU), each printed in every format with --hot 2 --top 5
# --percent-limit 0.05, and checked:
#
#  * the run: samples, in wasm, outside wasm and their shares; the total
#    against perf script's count of the event's samples (independent);
#  * each core's mapping word and its function rows (rank, function,
#    samples, %run, bytes), the --top / --percent-limit cut the same in
#    every format;
#  * the samples outside wasm: the same rows in text and Markdown (the
#    Markdown listed 10 whatever --top said), the JSON's kept rows all at
#    or above the limit;
#  * each classified function: its class rows (samples, %func, %run,
#    static), the static total (instructions, not jump-table words: the
#    Markdown counted 39 where the text said 35), the verdict word, its
#    hottest instructions, their text = the page's listing's, and no
#    branch target by absolute address in any format (the Markdown and the
#    page printed "jae 0x7fa5adaa6188" where the text says "+0x58");
#  * record --off-cpu's summary = report's run card on the same file (it
#    counted the off-CPU view's tracepoint samples too: "1256 samples, 1150
#    in wasm (91.56%)" against report's 1155, 99.57%).
#
#   tests/e2e/report_formats.sh BUILD_DIR
. "$(dirname "$0")/lib/common.sh"
. "$E2E/lib/asmcore.sh"

S=$FIX/sample.cwasm
export COLUMNS=80
OPTS=(--hot 2 --top 5 --percent-limit 0.05)

# ---- extractors: the same lines out of each format ----

# doc HTML: the page's data document
doc() { sed -n 's|^<script type="application/json" id="aotperf-data">\(.*\)</script>$|\1|p' "$1"; }
# md_rows: the cells of a Markdown table's body rows, '|'-separated and trimmed, code spans
# and escapes undone (stdin: the lines of one table)
md_cells() {
	gawk -F'|' '/^\|[-:| ]+\|$/ { next }
		{ out = ""; for (i = 2; i < NF; i++) { c = $i; gsub(/^ +| +$/, "", c); gsub(/`/, "", c)
			gsub(/\\/, "", c); out = out (i > 2 ? "|" : "") c } print out }'
}
# the run: "TOTAL n", "WASM n pct", "OUTSIDE n pct"
text_run() {
	gawk '/^  total samples/ { print "TOTAL", $3 }
	      /^  in wasm code/ { p = $5; gsub(/[(%]/, "", p); print "WASM", $4, p }
	      /^  outside wasm/ { p = $4; gsub(/[(%]/, "", p); print "OUTSIDE", $3, p; exit }' "$1"
}
md_run() {
	gawk '/^\| run / { t = 1; next } t && !/^\|/ { exit } t' "$1" | md_cells | gawk -F'|' '
		$1 == "samples" { print "TOTAL", $2 }
		$1 == "in wasm code" || $1 == "outside wasm" { split($2, a, /[ ()%]+/)
			print ($1 == "in wasm code" ? "WASM" : "OUTSIDE"), a[1], a[2] }'
}
json_run() {
	jq -r '"TOTAL \(.total_samples)", "WASM \(.attributed_samples) \(.attribution_coverage_pct)",
	       "OUTSIDE \(.outside_wasm.samples) \(.outside_wasm.percent_of_run)"' "$1"
}
# same_nums DESC A B: the same lines, numbers equal to the text's last digit (0.005)
same_nums() {
	if gawk '
		# a name cut to its width: the text keeps the front ("abc..."), Markdown
		# both ends ("ab…yz"); two words are the same name when neither says otherwise
		function parts(s, p) {
			p["cut"] = 1; p["tail"] = ""
			if (s ~ /\.\.\.$/) p["head"] = substr(s, 1, length(s) - 3)
			else if (index(s, "…")) { p["head"] = substr(s, 1, index(s, "…") - 1)
				p["tail"] = substr(s, index(s, "…") + length("…")) }
			else { p["head"] = s; p["cut"] = 0 }
		}
		function starts(s, t) { return substr(s, 1, length(t)) == t }
		function ends(s, t) { return t == "" || substr(s, length(s) - length(t) + 1) == t }
		function same_name(x, y,   px, py) {
			if (x == y) return 1
			parts(x, px); parts(y, py)
			if (!px["cut"] && !py["cut"]) return 0
			if (!starts(px["head"], py["head"]) && !starts(py["head"], px["head"])) return 0
			return (px["cut"] || ends(x, py["tail"])) && (py["cut"] || ends(y, px["tail"]))
		}
		NR == FNR { a[FNR] = $0; n = FNR; next }
		{ split(a[FNR], x, " "); m = split($0, y, " ")
		  for (i = 1; i <= m; i++) {
			if (y[i] ~ /^-?[0-9.]+$/ && x[i] ~ /^-?[0-9.]+$/) { if ((x[i] - y[i]) ^ 2 > 0.00003) bad = 1 }
			else if (!same_name(x[i], y[i])) bad = 1 }
		  if (split(a[FNR], x, " ") != m) bad = 1 }
		END { exit bad || FNR != n || !n }' "$2" "$3"; then
		ok "$1 ($(wc -l <"$2") lines)"
	else
		bad "$1"
		diff "$2" "$3" | head -n 8
	fi
}
# core 0's function rows: "rank local_func samples pct bytes"
text_funcs() {
	gawk '/^  rank  function/ { t = 1; next } t && /^$/ { exit }
	      t { p = $4; sub(/%/, "", p); f = $2; sub(/local_func_/, "", f); print $1, f, $3, p, $5 }' "$1"
}
md_funcs() {
	gawk '/^\| rank \| function/ { t = 1; next } t && !/^\|/ { exit } t' "$1" | md_cells |
		gawk -F'|' '$1 != "" { f = $2; sub(/local_func_/, "", f); p = $4; sub(/%/, "", p)
			print $1, f, $3, p, $5 }'
}
json_funcs() {
	jq -r '.cores[0].top_functions | to_entries[] |
	       "\(.key + 1) \(.value.local_func) \(.value.samples) \(.value.percent_of_run) \(.value.code_bytes)"' "$1"
}
# the samples outside wasm: "samples pct dso symbol" (the rows, then the rest's)
text_host() {
	gawk '/^  outside wasm/ { t = 1; next } t && !/^    / { exit }
	      t { p = $2; sub(/%/, "", p); s = $4; for (i = 5; i <= NF; i++) s = s " " $i; print $1, p, $3, s }' "$1"
}
md_host() {
	gawk '/^#### outside wasm/ { t = 1; next } t && /^\| samples/ { u = 1; next } u && !/^\|/ { exit } u' "$1" |
		md_cells | gawk -F'|' '{ p = $2; sub(/%/, "", p); l = $1 " " p " " $3 " " $4; sub(/ +$/, "", l); print l }'
}
json_host() { # JSON N: its first N rows, the DSO by its name as perf report prints it
	jq -r --argjson n "$2" '.outside_wasm.rows[:$n][] |
	       "\(.samples) \(.percent_of_run) \(.dso | sub(".*/"; "")) \(.symbol)"' "$1"
}
# the mapping word of core 0
text_how() { sed -n 's/^  mapping     0x[0-9a-f]* +0x[0-9a-f]* (\(.*\), [0-9]* mappings*)$/\1/p' "$1" | head -n1; }
md_how() { sed -n 's/.*+0x[0-9a-f]* (\(.*\), [0-9]* mapping(s)); .*/\1/p' "$1" | head -n1; }
# classified function K (0-based): its class rows "class samples func run static", total last
text_classes() {
	gawk -v k="$2" '/^function local_func_/ { n++ } n == k + 1 && /^  class / { t = 1; next }
		t { p = $3; r = $4; sub(/%/, "", p); sub(/%/, "", r); print $1, $2, p, r, $5 }
		t && /^  total / { exit }' "$1"
}
md_classes() {
	gawk -v k="$2" '/^#### `/ { n++ } n == k + 1 && /^\| class / { t = 1; next } t && !/^\|/ { exit } t' "$1" |
		md_cells | gawk -F'|' '{ p = $3; r = $4; sub(/%/, "", p); sub(/%/, "", r); print $1, $2, p, r, $5 }'
}
json_classes() { # JSON K: the classes text shows (samples or instructions), in its order, then the total
	jq -r --argjson k "$2" '.classified_functions[$k].classes | to_entries |
		map(select(.value.samples > 0 or .value.static_instructions > 0)) |
		(.[] | "\(.key) \(.value.samples) \(.value.percent_of_function) \(.value.percent_of_run) \(.value.static_instructions)"),
		"total \(map(.value.samples) | add) 100 \(map(.value.percent_of_run) | add) \(map(select(.key != "data") | .value.static_instructions) | add)"' "$1"
}
text_verdict() {
	gawk -v k="$2" '/^function local_func_/ { n++ } n == k + 1 && /^  verdict / {
		sub(/^  verdict +(=> )?/, ""); sub(/:.*/, ""); print; exit }' "$1"
}
md_verdict() {
	gawk -v k="$2" '/^#### `/ { n++ } n == k + 1 && /^\*\*verdict: / {
		sub(/^\*\*verdict: /, ""); sub(/\*\*.*/, ""); print; exit }' "$1"
}
# hottest instructions: "samples pct offset class"; Markdown and JSON with the instruction
text_hot() {
	gawk -v k="$2" '/^function local_func_/ { n++ } n == k + 1 && /^  hottest instructions/ { t = 1; next }
		t && /^  samples/ { next } t && /^$/ { exit }
		t { p = $2; sub(/%/, "", p); print $1, p, $3, $4 }' "$1"
}
md_hot() {
	gawk -v k="$2" '/^#### `/ { n++ } n == k + 1 && /^\| samples \|  *%func/ { t = 1; next }
		t && !/^\|/ { exit } t' "$1" | md_cells | gawk -F'|' '{ p = $2; sub(/%/, "", p); print $1, p, $3, $4 "|" $5 }'
}
json_hot() {
	jq -r --argjson k "$2" '.classified_functions[$k].hottest_instructions[] |
		"\(.samples) \(.percent_of_function) +0x\(.offset | tostring) \(.class)|\(.instruction)"' "$1" |
		gawk '{ split($3, a, "x"); $3 = sprintf("+0x%x", a[2]); print }'
}

# check_formats NAME DATA CWASM [report options]: every format once, compared
check_formats() {
	local n=$1 d=$2 c=$3 w=$WORK/$1
	shift 3
	"$AOTPERF" report -q -i "$d" --cwasm "$c" "${OPTS[@]}" "$@" --json "$w.json" \
		--markdown "$w.md" --html "$w.html" >"$w.txt" 2>"$w.err"
	check_eq "$n: report in every format: exit 0" "$?" 0
	doc "$w.html" >"$w.doc"
	check "$n: the page's document parses" jq -e . "$w.doc" >/dev/null
	# (the off-CPU tables, render/offcpu.c, are another view's)
	check_eq "$n: text at 80 columns" "$(awk '/^off-CPU \(/ { o = 1 } /^core / { o = 0 }
		!o && length > 80' "$w.txt" | wc -l)" 0

	text_run "$w.txt" >"$w.run.txt"
	md_run "$w.md" >"$w.run.md"
	json_run "$w.json" >"$w.run.json"
	json_run "$w.doc" >"$w.run.doc"
	same_nums "$n: the run, text = JSON" "$w.run.txt" "$w.run.json"
	same_nums "$n: the run, Markdown = JSON" "$w.run.md" "$w.run.json"
	check "$n: the run, the page's document = JSON" cmp -s "$w.run.doc" "$w.run.json"

	check_eq "$n: the mapping's word, Markdown = text" "$(md_how "$w.md")" "$(text_how "$w.txt")"
	check_eq "$n: the mapping's word, JSON = text" "$(jq -r '.cores[0].mapping.how' "$w.json")" \
		"$(text_how "$w.txt")"
	check_eq "$n: the mapping's word, the page's = text" "$(jq -r '.cores[0].mapping.how' "$w.doc")" \
		"$(text_how "$w.txt")"

	text_funcs "$w.txt" >"$w.f.txt"
	md_funcs "$w.md" >"$w.f.md"
	json_funcs "$w.json" >"$w.f.json"
	json_funcs "$w.doc" >"$w.f.doc"
	same_nums "$n: the functions (the cut once), text = JSON" "$w.f.txt" "$w.f.json"
	same_nums "$n: the functions, Markdown = JSON" "$w.f.md" "$w.f.json"
	check "$n: the functions, the page's document = JSON" cmp -s "$w.f.doc" "$w.f.json"
	check "$n: --top 5: at most 5 functions" test "$(wc -l <"$w.f.txt")" -le 5

	text_host "$w.txt" >"$w.h.txt"
	md_host "$w.md" >"$w.h.md"
	check "$n: samples outside wasm listed" test -s "$w.h.txt"
	same_nums "$n: outside wasm, Markdown = text (the same --top rows and the rest)" \
		"$w.h.md" "$w.h.txt"
	# every row can fall under --percent-limit (a few singletons at 0.0499%):
	# then the text has only "(N more)" and the JSON no rows
	local nh; nh=$(grep -vc ' (' "$w.h.txt")
	json_host "$w.json" "$nh" >"$w.h.json"
	if [ "$nh" -gt 0 ]; then
		same_nums "$n: outside wasm, text = JSON" <(grep -v ' (' "$w.h.txt") "$w.h.json"
	else
		check_eq "$n: outside wasm, no row shown: none in the JSON either" \
			"$(jq '.outside_wasm.rows | length' "$w.json")" 0
	fi
	check_eq "$n: outside wasm, every JSON row at or above --percent-limit" \
		"$(jq '[.outside_wasm.rows[] | select(.percent_of_run < 0.05)] | length' "$w.json")" 0
	check_eq "$n: outside wasm, the page's rows = JSON's" \
		"$(jq -c .outside_wasm "$w.doc")" "$(jq -c .outside_wasm "$w.json")"

	local k nf
	nf=$(jq '.classified_functions | length' "$w.json")
	check "$n: --hot 2: one or two functions classified ($nf)" test "$nf" -ge 1 -a "$nf" -le 2
	for ((k = 0; k < nf; k++)); do
		local fn
		fn=$(jq -r ".classified_functions[$k].name" "$w.json")
		text_classes "$w.txt" $k >"$w.c$k.txt"
		md_classes "$w.md" $k >"$w.c$k.md"
		json_classes "$w.json" $k >"$w.c$k.json"
		same_nums "$n: $fn: class rows and total, text = JSON" "$w.c$k.txt" "$w.c$k.json"
		same_nums "$n: $fn: class rows and total, Markdown = JSON" "$w.c$k.md" "$w.c$k.json"
		check_eq "$n: $fn: static instructions, the page's listing = the class table's total" \
			"$(jq --arg f "$fn" '.listings[] | select(.name == $f) | .instruction_count' "$w.doc")" \
			"$(awk '$1 == "total" { print $5 }' "$w.c$k.txt")"
		check_eq "$n: $fn: ... = the listing's entries that are not data" \
			"$(jq --arg f "$fn" '[.listings[] | select(.name == $f) | .insns[] | select(.class != "data")] | length' "$w.doc")" \
			"$(awk '$1 == "total" { print $5 }' "$w.c$k.txt")"
		check_eq "$n: $fn: the verdict, Markdown = text" "$(md_verdict "$w.md" $k)" \
			"$(text_verdict "$w.txt" $k)"
		check_eq "$n: $fn: the verdict, JSON = text" \
			"$(jq -r ".classified_functions[$k].levers.verdict" "$w.json")" "$(text_verdict "$w.txt" $k)"
		check_eq "$n: $fn: the verdict, the page's = JSON" \
			"$(jq -r ".classified_functions[$k].levers.verdict" "$w.doc")" \
			"$(jq -r ".classified_functions[$k].levers.verdict" "$w.json")"
		text_hot "$w.txt" $k >"$w.i$k.txt"
		md_hot "$w.md" $k >"$w.i$k.md"
		json_hot "$w.json" $k >"$w.i$k.json"
		same_nums "$n: $fn: hottest instructions, text = JSON" "$w.i$k.txt" \
			<(sed 's/|.*//' "$w.i$k.json")
		same_nums "$n: $fn: hottest instructions with their text, Markdown = JSON" "$w.i$k.md" \
			"$w.i$k.json"
		# the instruction text: the page's listing's at the same offset
		check_eq "$n: $fn: hottest instructions' text = the page's listing's" \
			"$(jq -r --arg f "$fn" --slurpfile j "$w.json" '
				[.listings[] | select(.name == $f) | .insns[] | {key: (.offset | tostring), value: .text}] | from_entries as $l |
				[$j[0].classified_functions[] | select(.name == $f) | .hottest_instructions[] |
				 select(.class != "data") | select($l[.offset | tostring] != .instruction)] | length' "$w.doc")" 0
	done
	# branches into the function by their offset, everywhere (the Markdown's and the
	# JSON's hottest instructions are the page's listing's text, checked above)
	check_eq "$n: no branch into its own function by absolute address (the page's listings)" \
		"$(jq '[.listings[] | (.address | ltrimstr("0x") | explode | reduce .[] as $c (0;
			. * 16 + ($c | if . >= 97 then . - 87 else . - 48 end))) as $a | .code_bytes as $n |
			.insns[] | .text | capture("^(j[a-z]+|call) 0x(?<t>[0-9a-f]+)$")? | .t | explode |
			reduce .[] as $c (0; . * 16 + ($c | if . >= 97 then . - 87 else . - 48 end)) |
			select(. >= $a and . < $a + $n)] | length' "$w.doc")" 0
	check "$n: branches into the function by offset (+0x) in the page's listings" \
		jq -e '[.listings[].insns[] | select(.text | test("^j[a-z]+ \\+0x"))] | length > 0' "$w.doc" >/dev/null
}

# events DATA: the per-event sample counts perf script gives
event_counts() { perf script -i "$1" -F event 2>/dev/null | sed 's/: *$//' | sort | uniq -c | awk '{ print $2, $1 }'; }

# ---- plain ----
record "$WORK/plain.data" -- --ms 1000 "$S" || bad "recording plain"
check_formats plain "$WORK/plain.data" "$S"
check_eq "plain: samples = perf script's" "$(jq .total_samples "$WORK/plain.json")" \
	"$(event_counts "$WORK/plain.data" | awk '$1 == "cpu-clock" { print $2 }')"
reference "$WORK/plain.data" "$S.syms" >"$WORK/plain.ref"
check_eq "plain: in wasm = the independent attribution's" "$(jq .attributed_samples "$WORK/plain.json")" \
	"$(awk '$1 == "CORE" { print $2 }' "$WORK/plain.ref")"

# ---- -g and dwarf ----
record "$WORK/g.data" -g -- --ms 500 "$S" || bad "recording -g"
check_formats fp "$WORK/g.data" "$S"
record "$WORK/dwarf.data" --call-graph=dwarf -- --ms 300 "$S" || bad "recording dwarf"
check_formats dwarf "$WORK/dwarf.data" "$S"

# ---- two events: each event's view in every format ----
perf record -q -e cpu-clock,task-clock -k mono -F 2000 -o "$WORK/two.data" -- \
	"$LOADER" --ms 600 "$S" >"$WORK/two.log" 2>&1 || bad "recording two events"
for ev in cpu-clock task-clock; do
	check_formats "two-$ev" "$WORK/two.data" "$S" --event $ev
	check_eq "two-$ev: samples = perf script's $ev samples" "$(jq .total_samples "$WORK/two-$ev.json")" \
		"$(event_counts "$WORK/two.data" | awk -v e=$ev '$1 == e { print $2 }')"
done
"$AOTPERF" report -q -i "$WORK/two.data" --cwasm "$S" --json "$WORK/both.json" --markdown "$WORK/both.md" \
	--html "$WORK/both.html" >"$WORK/both.txt" 2>/dev/null
doc "$WORK/both.html" >"$WORK/both.doc"
check_eq "two events: each event's samples, text = JSON" \
	"$(awk '/^== event / { e = $3 } /^  total samples/ { print e, $3 }' "$WORK/both.txt")" \
	"$(jq -r '.events[] | "\(.event) \(.total_samples)"' "$WORK/both.json")"
check_eq "two events: each event's samples, Markdown = JSON" \
	"$(awk '/^## event / { e = $3; gsub(/`/, "", e) } /^\| samples +\| +[0-9]+ +\|$/ { print e, $4 }' "$WORK/both.md")" \
	"$(jq -r '.events[] | "\(.event) \(.total_samples)"' "$WORK/both.json")"
check_eq "two events: each event's samples, the page's = JSON" \
	"$(jq -r '.events[] | "\(.event) \(.total_samples)"' "$WORK/both.doc")" \
	"$(jq -r '.events[] | "\(.event) \(.total_samples)"' "$WORK/both.json")"

# ---- off-CPU: record's summary is report's run card ----
SRC=$(cd "$E2E/../.." && pwd)
C=$WORK/oc.cwasm
asm_core "$SRC/tests/fixtures/offcpu.S" "$C" || bad "offcpu fixture"
"$AOTPERF" record --off-cpu -F 2000 --cwasm "$C" -o "$WORK/oc.data" --perf-arg -N --no-inject -- \
	"$LOADER" --wall --ms 800 --mix offcpu:1 "$C" >"$WORK/oc.out" 2>"$WORK/oc.log"
check_eq "off-CPU: aotperf record --off-cpu: exit 0" "$?" 0
check "off-CPU: the recording has the off-CPU view's tracepoint samples besides cpu-clock" \
	test "$(event_counts "$WORK/oc.data" | grep -vc '^cpu-clock ')" -ge 1
check_formats offcpu "$WORK/oc.data" "$C"
check_eq "off-CPU: record's summary = report's run card (samples, in wasm, share)" \
	"$(sed -n 's/^aotperf record: .*: \([0-9]*\) samples, \([0-9]*\) in wasm code (\([0-9.]*\)% of run)$/\1 \2 \3/p' "$WORK/oc.out")" \
	"$(jq -r '"\(.total_samples) \(.attributed_samples) \(.attribution_coverage_pct * 100 | round / 100 | tostring)"' "$WORK/offcpu.json" |
		awk '{ printf "%s %s %.2f\n", $1, $2, $3 }')"
check_eq "off-CPU: ... its samples are cpu-clock's, as perf script counts them" \
	"$(jq .total_samples "$WORK/offcpu.json")" \
	"$(event_counts "$WORK/oc.data" | awk '$1 == "cpu-clock" { print $2 }')"

finish
