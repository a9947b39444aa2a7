#!/usr/bin/env bash
# docs/json.md names every key the commands write (issue 31's JSON doc):
# every command that writes JSON runs on real recordings (plain, -g, two
# events, a component's cores, off-CPU, several recordings, a sidecar,
# another engine when node is here) and each document's keys
# (scripts/json-keys.sh) must all be named in the page that documents it:
# docs/json.md, with docs/helper-interface.md's JSON section for the
# upstream helper's keys (attr, and the sidecar keys report carries), and
# docs/html-data.md for the HTML pages' data documents.
#
#   tests/e2e/docs_json.sh BUILD_DIR
. "$(dirname "$0")/lib/common.sh"
ROOT=$(cd "$E2E/../.." && pwd)
KEYS=$ROOT/scripts/json-keys.sh
S=$FIX/sample.cwasm
F=$FIX/frames.cwasm
SIDE=$FIX/side/frames
J=$WORK/json
mkdir -p "$J"
# objects whose keys are data (class, lever, state, origin, tier names; a
# spill log's fields; the lever tables' per-lever objects), not names the docs list
MAPS=(-m classes -m classes.before -m classes.after -m whatif -m off_cpu_by_state
	-m origins -m hottest_loop.levers -m sampled_delta_points -m class_delta_points
	-m tier_samples -m metrics -m functions.levers -m functions.predicted -m functions.tolerance)

# the pages each document is held against
sed -n '/^## JSON/,/^## Text output/p' "$ROOT/docs/helper-interface.md" >"$WORK/helper.md"
cat "$ROOT/docs/json.md" "$WORK/helper.md" >"$WORK/json.md"
cat "$ROOT/docs/html-data.md" "$WORK/json.md" >"$WORK/html.md"
check "docs/helper-interface.md has its JSON section" grep -q '^## JSON' "$WORK/helper.md"

# documented DESC DOC FILE...: every key of the files is named in DOC
documented() {
	local desc=$1 doc=$2 f
	shift 2
	for f in "$@"; do
		[ -s "$f" ] && jq -e 'type == "object"' "$f" >/dev/null ||
			{ bad "$desc: $(basename "$f") is no JSON document"; return; }
	done
	"$KEYS" missing "${MAPS[@]}" "$doc" "$@" >"$WORK/missing"
	check "$desc: every key is documented ($("$KEYS" paths "${MAPS[@]}" "$@" | wc -l) paths)$(
		[ -s "$WORK/missing" ] && printf '; missing:\n%s' "$(cat "$WORK/missing")")" \
		test ! -s "$WORK/missing"
}
# data DOC.html OUT.json: the data document inside an HTML page
data() {
	gawk 'BEGIN { tag = "<script type=\"application/json\" id=\"aotperf-data\">" }
	      !on && i = index($0, tag) { on = 1; $0 = substr($0, i + length(tag)) }
	      on { if (i = index($0, "</script>")) { print substr($0, 1, i - 1); exit } print }' \
		"$1" >"$2"
}

# ---- the recordings ----
# a plain recording, a spill log of the sample, and V8's side when node is here
bash "$ROOT/scripts/sample-inputs.sh" "$B" "$WORK/si" >"$WORK/si.log" 2>&1
check_eq "scripts/sample-inputs.sh: exit status" "$?" 0
P=$WORK/si/sample.data
record "$WORK/g.data" -g -- --ms 300 "$S"
record "$WORK/ev.data" -e task-clock -- --ms 300 "$S"
record "$WORK/man.data" -- --ms 300 --manifest "$FIX/comp.cwasm.json"
record "$WORK/fr.data" -- --ms 300 --mix spill_heavy:3,br_table_dispatch:1 "$F"
"$AOTPERF" record -q --off-cpu -F 2000 --cwasm "$S" -o "$WORK/off.data" --no-inject -- \
	"$LOADER" --wall --ms 400 "$S" >/dev/null 2>&1
check_eq "aotperf record --off-cpu: exit status" "$?" 0

# ---- report ----
run() { "$AOTPERF" "$@" >/dev/null 2>"$WORK/err" || bad "$* ($(head -c 300 "$WORK/err"))"; }
run report -q -i "$P" --cwasm "$S" --levers --spill-log "$WORK/si/spill.log" --json "$J/r-plain.json"
run report -q -i "$WORK/g.data" --cwasm "$S" --hot 2 --children --callers 1504 \
	--callees 1504 --json "$J/r-g.json" --html "$WORK/r-g.html"
run report -q -i "$WORK/ev.data" --cwasm "$S" --json "$J/r-ev.json"
run report -q -i "$WORK/man.data" --manifest "$FIX/comp.cwasm.json" --json "$J/r-man.json"
run report -q --cwasm "$S" --func 1504 --json "$J/r-static.json"
run report -q -i "$WORK/off.data" --cwasm "$S" --json "$J/r-off.json" --html "$WORK/r-off.html"
run report -q -i "$WORK/fr.data" --cwasm "$F" --func spill_heavy --func 2 \
	--frame-attribution "$SIDE" --json "$J/r-fr.json"
jqe() { jq -e "$@" >/dev/null; } # jqe FILTER FILE: the filter holds
check "report: several events give events[]" jqe '.events | length == 2' "$J/r-ev.json"
check "report: the off-CPU view is there" jqe '.off_cpu.functions | length > 0' "$J/r-off.json"
check "report: a sidecar's keys are there, and the note of a function without one" \
	jqe '.classified_functions[0].frame_attribution.coverage and
	     .classified_functions[1].frame_metadata_present == false' "$J/r-fr.json"
documented "report --json" "$WORK/json.md" "$J"/r-*.json

run report -q -i "$P" -i "$WORK/g.data" --cwasm "$S" --func 1504 --json "$J/cap.json"
check "report -i A -i B: recordings[]" jqe '.recordings | length == 2' "$J/cap.json"
documented "report -i A -i B --json" "$WORK/json.md" "$J/cap.json"

# ---- diff ----
run diff "$P" "$WORK/g.data" --cwasm "$S" -- "$WORK/g.data" "$P" --cwasm "$S" --func 1504 --levers \
	--fail-if-slower 5 --json "$J/d.json" --html "$WORK/d.html"
run diff "$WORK/off.data" --cwasm "$S" -- "$WORK/off.data" --cwasm "$S" --json "$J/d-off.json"
check "diff: off-CPU compared" jqe '.off_cpu.compared' "$J/d-off.json"
documented "diff --json" "$WORK/json.md" "$J"/d*.json

# ---- compare (V8's side needs node and wat2wasm) ----
if [ -s "$WORK/si/node.jit.data" ]; then
	run compare -i "$WORK/si/wamr.data" --cwasm "$WORK/si/wm.cwasm" --func sum \
		--roles vmctx=rbx,membase=r15 --other "$WORK/si/node.jit.data" --json "$J/c.json" \
		--html "$WORK/c.html"
	documented "compare --json" "$WORK/json.md" "$J/c.json"
else
	echo "skip: compare (no node or wat2wasm: $(tail -n1 "$WORK/si.log"))"
fi

# ---- spills: with a recording, cores and --vs ----
gawk '{ sub(/spill_ld=[0-9]+/, "spill_ld=" NR % 7); print }' "$WORK/si/spill.log" >"$WORK/after.log"
run spills "$WORK/si/spill.log" --vs "$WORK/after.log" -i "$P" --cwasm "$S" --json "$J/s.json"
run spills "$WORK/si/spill.log" --json "$J/s0.json"
documented "spills --json" "$WORK/json.md" "$J"/s*.json

# ---- classify and annotate ----
run inject -q -i "$WORK/g.data" --cwasm "$S" -o "$WORK/g.jit.data"
run annotate -i "$WORK/g.jit.data" local_func_1504 --json "$J/an.json"
perf annotate -i "$WORK/g.jit.data" --stdio -M intel local_func_1503 >"$WORK/ann.txt" 2>/dev/null
run classify "$WORK/ann.txt" --json "$J/cl.json"
documented "classify and annotate --json" "$WORK/json.md" "$J/an.json" "$J/cl.json"

# ---- doctor, the dlfilter, attr ----
"$AOTPERF" doctor --json >"$J/doctor.json" 2>/dev/null
documented "doctor --json" "$WORK/json.md" "$J/doctor.json"
if [ -e "$B/aotperf-dlfilter.so" ]; then
	perf script -i "$P" --dlfilter "$B/aotperf-dlfilter.so" --dlarg "$S" \
		--dlarg "json=$J/dl.json" --dlarg func=1504 >/dev/null 2>&1
	documented "the dlfilter's json=" "$WORK/json.md" "$J/dl.json"
fi
run attr --perf "$WORK/fr.data" --cwasm "$F" --func 1501 \
	--frame-metadata "$SIDE.mod0.func1501.json" --json-out "$J/a.json"
documented "attr --json-out (docs/helper-interface.md)" "$WORK/helper.md" "$J/a.json"

# ---- the HTML pages' data documents ----
for h in r-g r-off d c; do
	[ -e "$WORK/$h.html" ] || continue
	data "$WORK/$h.html" "$WORK/$h.data.json"
	documented "$h.html's data document (docs/html-data.md)" "$WORK/html.md" \
		"$WORK/$h.data.json"
done

# ---- the check itself fails on an undocumented key ----
sed 's/module_idx/-/g' "$WORK/json.md" >"$WORK/less.md"
check_eq "a page without module_idx: the manifest report's key is missing" \
	"$("$KEYS" missing "${MAPS[@]}" "$WORK/less.md" "$J/r-man.json" | cut -f1)" module_idx
finish
