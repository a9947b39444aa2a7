#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The HTML report's off-CPU view (docs/html-data.md, "Off-CPU time") on a
# real recording of tests/fixtures/offcpu.S (waits in host_nap, burns CPU
# in host_burn, spins), recorded as tests/e2e/offcpu.sh records it
# (aotperf record --off-cpu: with Debian's perf 6.1 cpu-clock +
# sched:sched_switch -g + --switch-events), checked against:
#
# * report --json of the same recording: the page's off_cpu_functions rows
#   = its off_cpu.functions, exactly;
# * the page's off_cpu_stacks tree: each node = its self + its children,
#   the roots = off_cpu_ns = the functions' off-CPU self time; per
#   innermost wasm function and state = perf script's switch records and
#   sched_switch chains (tests/e2e/offcpu_perf.awk), within 0.5% or 20 us
#   (as offcpu.sh: pairing at the recording's ends);
# * in headless Chromium (tests/browser/offcpu.js): after a click on
#   "off-CPU" the function table's values = the JSON's off_cpu_ns and perf
#   script's (same tolerance); "on-CPU" = the JSON's on_cpu_ns and perf
#   script's cpu-clock periods by innermost wasm frame
#   (tests/e2e/offcpu_on_perf.awk); "wall" = on + off as drawn; the
#   icicle's root holds each state's total; a screenshot in the off-CPU
#   state (saved to $ARTIFACTS, default BUILD/tests/artifacts);
# * a -g recording without switches, and --off-cpu=no: no off-CPU members
#   in the document, no switch on the page.
#
# Browser checks need chromium and tests/browser/setup.sh; without them
# they are skipped with a message unless AOTPERF_REQUIRE_BROWSER or CI is
# set (as tests/browser/exports.sh).
#
#   tests/e2e/offcpu_html.sh BUILD_DIR
. "$(dirname "$0")/lib/common.sh"
. "$E2E/lib/asmcore.sh"
. "$E2E/lib/browser.sh"

ROOT=$(cd "$E2E/../.." && pwd)
ART=${ARTIFACTS:-$B/tests/artifacts}
mkdir -p "$ART"
C=$WORK/oc.cwasm
asm_core "$ROOT/tests/fixtures/offcpu.S" "$C"
check_eq "offcpu_html: fixture built" "$?" 0

# the data document inside a page (one line: the page writes it minified)
doc_of() {
	sed -n 's|^<script type="application/json" id="aotperf-data">\(.*\)</script>$|\1|p' "$1"
}

D=$WORK/oc.data
"$AOTPERF" record --off-cpu -F 2000 --cwasm "$C" -o "$D" --perf-arg -N --no-inject -- \
	"$LOADER" --wall --ms 1500 --mix offcpu:1 "$C" >"$D.out" 2>"$D.log"
check_eq "aotperf record --off-cpu: exit status" "$?" 0
if grep -q 'BPF: offcpu-time' "$D.log"; then
	# a perf with BPF skeletons: the switch form, which perf script shows, by hand
	perf record -q -N -k mono -e cpu-clock/freq=2000,name=cpu-clock/ -e sched:sched_switch -g --switch-events \
		-o "$D" -- "$LOADER" --wall --ms 1500 --mix offcpu:1 "$C" >"$D.log" 2>&1
	check_eq "perf record: cpu-clock + sched_switch -g + switch events" "$?" 0
fi
base=$(sed -n 's/.* mapped at \(0x[0-9a-f]*\) .*/\1/p' "$D.log" | head -n1)

"$AOTPERF" report -q -i "$D" --cwasm "$C" --top 0 --json "$WORK/r.json" --html "$WORK/oc.html" >/dev/null
check_eq "report --json --html: exit status" "$?" 0
doc_of "$WORK/oc.html" >"$WORK/doc.json"
check_eq "the page has the report's off_cpu" "$(jq -c '.off_cpu.processes' "$WORK/doc.json")" \
	"$(jq -c '.off_cpu.processes' "$WORK/r.json")"
check_eq "off_cpu_functions rows = report --json's off_cpu.functions" \
	"$(jq -c '[.cores[0].off_cpu_functions[]] | sort' "$WORK/doc.json")" \
	"$(jq -c '[.off_cpu.functions[] | [.local_func, .on_cpu_ns, .on_cpu_incl_ns, .off_cpu_ns,
		.off_cpu_incl_ns]] | sort' "$WORK/r.json")"

# the off-CPU stack tree: sums, and per innermost wasm function and state against perf script
jq -r '.off_cpu_stacks.nodes | to_entries[] | [.key, .value.parent, .value.total, .value.self,
	.value.kind, .value.name] | @tsv' "$WORK/doc.json" >"$WORK/nodes"
check "off_cpu_stacks: wasm frames, the import waited in and the state leaves" \
	gawk -F '\t' '{ k[$5]++ } END { exit !(k["wasm"] && k["host"] && k["state"]) }' "$WORK/nodes"
check_eq "off_cpu_stacks: every node's ns = its self + its children's; the roots = off_cpu_ns" \
	"$(gawk -F '\t' '{ par[$1] = $2; tot[$1] = $3; self[$1] = $4; kids[$2] += $3; n = $1 + 1 }
		END { for (i = 0; i < n; i++) if (tot[i] != self[i] + kids[i]) bad++
		      print bad + 0, kids[-1] }' "$WORK/nodes")" \
	"0 $(jq '.off_cpu_stacks.off_cpu_ns' "$WORK/doc.json")"
check_eq "off_cpu_stacks: off_cpu_ns = the functions' off-CPU self time" \
	"$(jq '.off_cpu_stacks.off_cpu_ns' "$WORK/doc.json")" "$(jq '[.off_cpu.functions[].off_cpu_ns] | add' "$WORK/r.json")"
# "OFF name state ns": each state leaf to the nearest wasm frame above it
gawk -F '\t' '{ par[$1] = $2; kind[$1] = $5; nm[$1] = $6; self[$1] = $4 }
	END {
		for (i in kind) {
			if (kind[i] != "state") continue
			for (a = par[i]; a >= 0 && kind[a] != "wasm"; a = par[a]) ;
			n = nm[a]; sub(/^local_func_[0-9]+:/, "", n); st = nm[i]; gsub(/[][]/, "", st)
			s[n " " st] += self[i]
		}
		for (k in s) print "OFF " k " " s[k]
	}' "$WORK/nodes" | sort >"$WORK/ours"
perf script -i "$D" --ns -F tid,time,event,trace,ip --show-switch-events 2>/dev/null |
	gawk -v base="$base" -v syms="$C.syms" -f "$E2E/lib/wasmsyms.awk" -f "$E2E/offcpu_perf.awk" | sort >"$WORK/perf"
cmp_out=$(gawk 'FNR == NR { a[$2 " " $3] = $4; next } { b[$2 " " $3] = $4 }
	END {
		for (k in a) if (!(k in b)) b[k] = 0
		for (k in b) {
			x = a[k] + 0; y = b[k]; d = x > y ? x - y : y - x
			if (d > 20000 && d > y * 0.005) printf "%s: page %d, perf script %d; ", k, x, y
		}
	}' "$WORK/ours" "$WORK/perf")
check_eq "off_cpu_stacks by innermost function and state = perf script's switch records and chains" "$cmp_out" ""
check "perf script saw the long nap asleep" grep -q '^OFF oc_nap_long S ' "$WORK/perf"
perf script -i "$D" --ns -F tid,time,event,period,ip 2>/dev/null |
	gawk -v base="$base" -v syms="$C.syms" -v event=cpu-clock -f "$E2E/lib/wasmsyms.awk" -f "$E2E/offcpu_on_perf.awk" >"$WORK/perf.on"
check "perf script: on-CPU time in oc_spin" grep -q '^ON oc_spin ' "$WORK/perf.on"
cat "$WORK/perf" "$WORK/perf.on" >"$WORK/ref"

# without off-CPU data: a -g recording without switches, and --off-cpu=no
P=$WORK/plain.data
perf record -q -N -k mono -e cpu-clock -F 2000 -g -o "$P" -- "$LOADER" --wall --ms 300 --mix offcpu:1 "$C" \
	>"$P.log" 2>&1
"$AOTPERF" report -q -i "$P" --cwasm "$C" --html "$WORK/plain.html" >/dev/null
check_eq "no switches: report --html: exit status" "$?" 0
doc_of "$WORK/plain.html" >"$WORK/plain.json"
check_eq "no switches: no off-CPU members in the document" \
	"$(jq -c '[has("off_cpu"), has("off_cpu_stacks"), (.cores[0] | has("off_cpu_functions")), has("stacks")]' \
	"$WORK/plain.json")" '[false,false,false,true]'
"$AOTPERF" report -q -i "$D" --cwasm "$C" --off-cpu=no --html "$WORK/no.html" >/dev/null
doc_of "$WORK/no.html" >"$WORK/no.json"
check_eq "--off-cpu=no: no off-CPU members in the document" \
	"$(jq -c '[has("off_cpu"), has("off_cpu_stacks"), (.cores[0] | has("off_cpu_functions"))]' \
	"$WORK/no.json")" '[false,false,false]'

# ---- in the browser ----
browser() { # browser NAME [offcpu.js options]
	local name=$1
	shift
	browser_run "$name" offcpu.js "$@"
}
why=$(browser_why)
if [ -z "$why" ]; then
	browser offcpu --page "$WORK/oc.html" --doc "$WORK/doc.json" --json "$WORK/r.json" --ref "$WORK/ref" \
		--shot "$ART/offcpu-off.png"
	grep -q '^shot:' "$WORK/offcpu.check" || bad "offcpu: no screenshot"
	browser plain --page "$WORK/plain.html" --doc "$WORK/plain.json" --no-switch 1
	browser off-cpu-no --page "$WORK/no.html" --doc "$WORK/no.json" --no-switch 1
else
	browser_skip "$why"
fi
finish
