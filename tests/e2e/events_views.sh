#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The views of aotperf report on a recording of two sampling events, each
# reported on its own, against stock perf's per-event figures of the same
# samples (perf script -F event): the call graphs (--children, --callers
# per event, a text section and a JSON "events" entry each) against perf
# script's stacks after aotperf inject --direct; --folded refused without
# --event (a folded line carries no event); --min-samples gating each
# event's samples, not their sum; the HTML page's block per event.
#
# The two events sample at different periods (cpu-clock every 250 us,
# task-clock every 1 ms) so their figures differ: a view that showed one
# event twice, or their sum, fails.
#
#   tests/e2e/events_views.sh BUILD_DIR
. "$(dirname "$0")/lib/common.sh"
. "$E2E/lib/asmcore.sh"

SRC=$(cd "$E2E/../.." && pwd)
export HOME=$WORK	# perf's build-id cache: a scratch folder, not ~/.debug
C=$WORK/calltree.cwasm
asm_core "$SRC/tests/fixtures/calltree.S" "$C"
check_eq "calltree: fixture built" "$?" 0

EVS="cpu-clock/period=250000/,task-clock/period=1000000/"
perf record -q -e "$EVS" -k mono --call-graph=dwarf,8192 -o "$WORK/two.data" -- \
	"$LOADER" --ms 1500 --mix calltree "$C" >"$WORK/rec.log" 2>&1
check_eq "perf record of two events (dwarf): exit 0" "$?" 0
names=$(perf evlist -i "$WORK/two.data" 2>/dev/null | grep -v dummy | paste -sd' ')
ev1=${names% *}
ev2=${names#* }

# perf's side: aotperf inject --direct names the wasm frames in the file,
# perf script unwinds and prints them per event (events_ref below)
"$AOTPERF" inject -q --direct --names wasm -i "$WORK/two.data" --cwasm "$C" \
	-o "$WORK/direct.data" >/dev/null
check_eq "aotperf inject --direct: exit 0" "$?" 0
# per event: TOTAL (samples), INCL NAME (samples whose stack holds the wasm
# function NAME, once each), CALLER NAME (samples where ct_leaf's caller is
# NAME), SELF NAME (samples whose leaf is the wasm function NAME)
perf script -i "$WORK/direct.data" --no-inline -F event,ip,sym,dso 2>/dev/null | gawk '
	BEGIN { RS = ""; FS = "\n" }
	{
		ev = $1; sub(/^ */, "", ev); sub(/:.*/, "", ev)
		n[ev " TOTAL"]++
		delete seen; delete cseen
		for (i = 2; i <= NF; i++) {
			if (!match($i, /^[ \t]*[0-9a-f]+ (local_func_[0-9]+:[A-Za-z0-9_]+)/, m))
				continue
			if (i == 2) n[ev " SELF " m[1]]++
			if (!(m[1] in seen)) { seen[m[1]] = 1; n[ev " INCL " m[1]]++ }
			if (m[1] ~ /:ct_leaf$/ && i < NF &&
			    match($(i + 1), /^[ \t]*[0-9a-f]+ (local_func_[0-9]+:[A-Za-z0-9_]+)/, c) &&
			    !(c[1] in cseen)) {
				cseen[c[1]] = 1; n[ev " CALLER " c[1]]++
			}
		}
	}
	END { for (k in n) print k " " n[k] }' | sort >"$WORK/perf.ref"
t1=$(awk -v e="$ev1" '$1 == e && $2 == "TOTAL" { print $3 }' "$WORK/perf.ref")
t2=$(awk -v e="$ev2" '$1 == e && $2 == "TOTAL" { print $3 }' "$WORK/perf.ref")
check "perf script: both events have samples ($ev1 $t1, $ev2 $t2), in different numbers" \
	test "${t1:-0}" -ge 300 -a "${t2:-0}" -ge 100 -a "${t1:-0}" != "${t2:-0}"

# ---- call graphs, one per event ----
"$AOTPERF" report -q -i "$WORK/two.data" --cwasm "$C" --children --top 0 --callers ct_leaf \
	--json "$WORK/cg.json" >"$WORK/cg.txt" 2>"$WORK/cg.err"
check_eq "--children --callers on two events: exit 0" "$?" 0
check_eq "--children: the JSON's events, in the recording's order" \
	"$(jq -r '[.events[].event] | join(" ")' "$WORK/cg.json")" "$names"
jq -r '.events[] | .event as $e |
	"\($e) TOTAL \(.call_graph.samples)",
	(.children[] | select(.kind == "wasm") | "\($e) INCL \(.name) \(.children_samples)"),
	(.callers[0].callers[] | select(.kind == "wasm") | "\($e) CALLER \(.name) \(.samples)")' \
	"$WORK/cg.json" | sort >"$WORK/cg.got"
grep -v ' SELF ' "$WORK/perf.ref" >"$WORK/perf.cg"
same_counts "--children, --callers ct_leaf: each event's stacks = perf script's of that event" \
	"$WORK/cg.got" "$WORK/perf.cg"
check "--children: the callers of ct_leaf are there to compare ($(grep -c CALLER "$WORK/cg.got"))" \
	test "$(grep -c CALLER "$WORK/cg.got")" -ge 2
check_eq "--children: the top-level call graph is the first event's" \
	"$(jq '.call_graph == .events[0].call_graph and .children == .events[0].children' \
	"$WORK/cg.json")" true
check_eq "--children text: a section per event, each with its children table" \
	"$(gawk '/^== event / { e = $3 } /^  Children/ && e { n[e]++ } END { for (k in n) print k }' \
	"$WORK/cg.txt" | sort | paste -sd' ')" "$(echo "$names" | tr ' ' '\n' | sort | paste -sd' ')"
for e in "$ev1" "$ev2"; do
	check_eq "--children text: $e's section has its inclusive count of entry_calltree" \
		"$(gawk -v e="$e" '/^== event / { on = $3 == e } on && / local_func_6:entry_calltree$/ {
			print $3 }' "$WORK/cg.txt")" \
		"$(awk -v e="$e" '$1 == e && $2 == "INCL" && $3 == "local_func_6:entry_calltree" { print $4 }' \
		"$WORK/perf.ref")"
done

# ---- --folded: a folded line has no event ----
"$AOTPERF" report -q -i "$WORK/two.data" --cwasm "$C" --folded "$WORK/two.folded" \
	>"$WORK/f.out" 2>"$WORK/f.err"
check_eq "--folded on two events: exit 2" "$?" 2
check_eq "--folded on two events: one line naming --event, nothing written" \
	"$(wc -l <"$WORK/f.err") $(grep -c -- '--event' "$WORK/f.err") $(test -e "$WORK/two.folded" &&
	echo file)" "1 1 "
"$AOTPERF" report -q -i "$WORK/two.data" --cwasm "$C" --event "$ev2" --folded "$WORK/two.folded" \
	>/dev/null
check_eq "--folded --event $ev2: its lines add up to perf script's $ev2 samples" \
	"$(gawk '{ s += $NF } END { print s }' "$WORK/two.folded")" "$t2"

# ---- --min-samples: each event's samples ----
lo=$(( t1 < t2 ? t1 : t2 )); hi=$(( t1 > t2 ? t1 : t2 ))
"$AOTPERF" report -q -i "$WORK/two.data" --cwasm "$C" --min-samples "$lo" >/dev/null 2>&1
check_eq "--min-samples $lo (the smaller event's samples): exit 0" "$?" 0
"$AOTPERF" report -q -i "$WORK/two.data" --cwasm "$C" --min-samples $((lo + 1)) \
	>/dev/null 2>"$WORK/m.err"
check_eq "--min-samples $((lo + 1)) (under the sum $((t1 + t2)), over one event): exit 1" "$?" 1
small=$ev1; [ "$t2" -lt "$t1" ] && small=$ev2
check "--min-samples: the message names the event short of samples" \
	grep -q -- "--min-samples: $lo samples of $small, need $((lo + 1))" "$WORK/m.err"
"$AOTPERF" report -q -i "$WORK/two.data" --cwasm "$C" --event "$ev2" --min-samples "$t2" >/dev/null
check_eq "--min-samples $t2 --event $ev2: exit 0" "$?" 0
"$AOTPERF" report -q -i "$WORK/two.data" --cwasm "$C" --event "$ev2" --min-samples $((t2 + 1)) \
	>/dev/null 2>&1
check_eq "--min-samples $((t2 + 1)) --event $ev2: exit 1" "$?" 1
"$AOTPERF" report -q -i "$WORK/two.data" --cwasm "$C" --min-samples "$hi" >/dev/null 2>&1
check_eq "--min-samples $hi (the larger event's, over the other's): exit 1" "$?" 1

# ---- --html: a block per event ----
"$AOTPERF" report -q -i "$WORK/two.data" --cwasm "$C" --html "$WORK/two.html" >/dev/null
check_eq "--html on two events: exit 0" "$?" 0
sed -n 's|^<script type="application/json" id="aotperf-data">\(.*\)</script>$|\1|p' \
	"$WORK/two.html" >"$WORK/two.doc.json"
check_eq "--html: the page's document lists the events, in order" \
	"$(jq -r '[.events[].event] | join(" ")' "$WORK/two.doc.json")" "$names"
# each event's entry: its stack tree and its functions' self samples = perf script's
jq -r '.events[] | .event as $e |
	"\($e) TOTAL \([.stacks.nodes[] | select(.parent < 0) | .total] | add)",
	(.cores[0].functions[] | select(.[1] > 0) | "\($e) SELF local_func_\(.[0]):\(.[3]) \(.[1])")' \
	"$WORK/two.doc.json" | sort >"$WORK/html.got"
grep -E ' (TOTAL|SELF) ' "$WORK/perf.ref" >"$WORK/perf.self"
same_counts "--html: each event's stack tree and self samples = perf script's of that event" \
	"$WORK/html.got" "$WORK/perf.self"
check_eq "--html: each event's listings (the hottest functions closely)" \
	"$(jq '[.events[] | .listings | length > 0] | all' "$WORK/two.doc.json")" true
"$AOTPERF" report -q -i "$WORK/two.data" --cwasm "$C" --event "$ev2" --html "$WORK/one.html" \
	>/dev/null
check_eq "--html --event $ev2: a one-event page (no events list)" \
	"$(sed -n 's|^<script type="application/json" id="aotperf-data">\(.*\)</script>$|\1|p' \
	"$WORK/one.html" | jq -r '"\(.event) \(.events)"')" "$ev2 null"
# in the browser (tests/browser/check.js): a block per event, each drawn from its own entry
. "$E2E/lib/browser.sh"
why=$(browser_why)
if [ -z "$why" ]; then
	ART=${ARTIFACTS:-$B/tests/artifacts}
	mkdir -p "$ART"
	browser_run browser check.js --page "$WORK/two.html" --doc "$WORK/two.doc.json" \
		--shot "$ART/events.png" --samples "$t1"
	check "browser: a check per event's block ran" \
		test "$(grep -c "^ok: $ev2: " "$WORK/browser.check")" -ge 4
else
	browser_skip "$why"
fi

finish
