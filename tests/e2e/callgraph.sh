#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# aotperf report's call graphs (--children, --callers, --callees, --folded,
# the JSON) on real recordings of cores with a known static call tree
# (tests/fixtures/calltree.S: ct_leaf called from two callers, ct_rec
# recursive, ct_tail reached by a tail call; tests/fixtures/xcore.S: two
# cores of a component calling each other), against:
#
# * stock perf on the same samples: `perf script` after `aotperf inject
#   --direct` (perf's own unwinder over the CFI aotperf writes, and perf's
#   host symbols), folded by tests/e2e/folded_perf.awk: every stack with a
#   wasm frame equal, line for line; `perf report --children` equal;
# * the static call tree over aotperf's self counts: inclusive samples of
#   each function follow from the self counts and the caller edges, exactly
#   on --call-graph=dwarf; on -g exactly apart from the samples reported
#   as caller unknown, which are the samples at the prologue/epilogue
#   offsets objdump shows (never a wrong caller: every adjacent pair of
#   wasm frames is an edge of the static graph);
# * the format: one line per distinct stack, counts adding up to the
#   samples (Debian packages no flamegraph.pl to run).
#
#   tests/e2e/callgraph.sh BUILD_DIR
. "$(dirname "$0")/lib/common.sh"
. "$E2E/lib/asmcore.sh"

SRC=$(cd "$E2E/../.." && pwd)
FOLD=$E2E/folded_perf.awk

CT=$WORK/ct
mkdir -p "$CT"
asm_core "$SRC/tests/fixtures/calltree.S" "$CT/calltree.cwasm"
check_eq "calltree: fixture built" "$?" 0
C=$CT/calltree.cwasm
skips "$C.syms" "$CT/calltree.dis" >"$CT/skips"

# wasm FILE: the stacks holding a wasm frame, sorted (a stack through the
# vdso, __vdso_* or [vdso]: perf unwinds out of it, aotperf's libdw cannot:
# left out)
wasm() { grep 'local_func_' "$1" | grep -v 'vdso' | sort; }

# facts JSON: "SELF name n", "INCL name n", "EDGE caller callee n" with
# short names (the part after the last ':'), wasm functions only
facts() {
	jq -r '(.children[] | select(.kind == "wasm") |
		"SELF \(.name) \(.self_samples)", "INCL \(.name) \(.children_samples)"),
	       ((.callers // [])[] | .name as $f | .callers[] | select(.kind == "wasm") |
		"EDGE \(.name) \($f) \(.samples)")' "$1" |
		gawk '{ for (i = 2; i <= NF - 1; i++) sub(/^.*:/, "", $i); print }' | sort -u
}

# tree_check FACTS SLACK: the call tree's inclusive counts from the self
# counts; each function's inclusive count must lie in [want - SLACK, want]
tree_check() {
	gawk -v slack="$2" '
	$1 == "SELF" { s[$2] = $3 } $1 == "INCL" { g[$2] = $3 } $1 == "EDGE" { e[$2 " " $3] = $4 }
	function want(f, w) {
		if (g[f] > w || g[f] < w - slack) { printf "%s: inclusive %d, call tree %d\n", f, g[f], w; bad++ }
	}
	END {
		below = s["ct_main"] + s["ct_a"] + s["ct_b"] + s["ct_leaf"] + s["ct_rec"] + s["ct_tail"]
		want("entry_calltree", s["entry_calltree"] + below)
		want("ct_main", below)
		want("ct_rec", s["ct_rec"]); want("ct_tail", s["ct_tail"]); want("ct_leaf", s["ct_leaf"])
		want("ct_a", s["ct_a"] + e["ct_a ct_leaf"])
		want("ct_b", s["ct_b"] + s["ct_rec"] + e["ct_b ct_leaf"])
		if (e["ct_a ct_leaf"] + e["ct_b ct_leaf"] > s["ct_leaf"] ||
		    e["ct_a ct_leaf"] + e["ct_b ct_leaf"] < s["ct_leaf"] - slack) {
			print "ct_leaf: callers do not add up"; bad++ }
		if (e["ct_b ct_rec"] > g["ct_rec"] || e["ct_b ct_rec"] < g["ct_rec"] - slack) {
			print "ct_rec: not always under ct_b"; bad++ }
		if (!(s["ct_leaf"] && s["ct_rec"] && s["ct_tail"]) ||
		    (!slack && !(e["ct_a ct_leaf"] && e["ct_b ct_leaf"]))) {
			print "a function of the tree was never sampled"; bad++ }
		exit bad > 0
	}' "$1"
}

# graph_check FOLDED: every adjacent pair of wasm frames is a call of the
# static graph (a "[caller unknown]" between two frames stands for one
# missing caller)
graph_check() {
	gawk '
	BEGIN {
		split("entry_calltree>ct_main ct_main>ct_a ct_main>ct_b ct_main>ct_tail ct_a>ct_leaf " \
		      "ct_b>ct_leaf ct_b>ct_rec ct_rec>ct_rec", v, " ")
		for (i in v) edge[v[i]] = 1
	}
	{
		n = split($0, f, ";"); sub(/ [0-9]+$/, "", f[n])
		for (i = 1; i < n; i++) {
			a = f[i]; b = f[i + 1]
			if (a !~ /local_func_/ || b !~ /local_func_/) continue
			sub(/^.*:/, "", a); sub(/^.*:/, "", b)
			if (!((a ">" b) in edge)) { print "not a call: " $0; bad++ }
		}
	}
	END { exit bad > 0 }' "$1"
}

# format_check FOLDED TOTAL: collapsed-stack lines, unique, adding up
format_check() {
	gawk -v total="$2" '
	!/^[^ ;][^;]*(;[^;]+)* [0-9]+$/ { print "bad line: " $0; bad++ }
	{ n = $NF; sub(/ [0-9]+$/, ""); if ($0 in seen) { print "twice: " $0; bad++ } seen[$0] = 1; sum += n }
	END { if (sum != total) { print "counts add up to " sum ", not " total; bad++ } exit bad > 0 }' "$1"
}

# ---- --call-graph=dwarf ----
D=$WORK/dwarf
mkdir -p "$D"
perf record -q -e cpu-clock:u -k mono -F 2000 --call-graph=dwarf,8192 -o "$D/perf.data" -- \
	"$LOADER" --ms 4000 --mix calltree "$C" >"$D/log" 2>&1
check_eq "dwarf: perf record --call-graph=dwarf: exit status" "$?" 0
"$AOTPERF" report -q -i "$D/perf.data" --cwasm "$C" --children --top 0 --callers ct_leaf \
	--callers ct_rec --callees local_func_5 --callees ct_rec --folded "$D/aot.folded" \
	--json "$D/aot.json" \
	>"$D/report.txt"
check_eq "dwarf: aotperf report --children --callers --callees --folded: exit status" "$?" 0
total=$(jq .total_samples "$D/aot.json")
check "dwarf: enough samples ($total)" test "${total:-0}" -ge 500
# every callers/callees table sorted by samples, (self) and the outermost line included
gawk '/^(callers|callees) of / { t = 1; prev = -1; next }
	t && /^  +(Samples|[0-9]+ samples in its stacks)/ { next }
	t && /^  +[0-9]+ +[0-9.]+% / { if (prev >= 0 && $1 > prev) bad = 1; prev = $1;
		if (/\(self\)$/) self = 1; next }
	{ t = 0 }
	END { exit bad || !self }' "$D/report.txt"
check "dwarf: callers/callees rows sorted by samples, (self) among them" test $? -eq 0
check_eq "dwarf: JSON mode" "$(jq -r .call_graph.mode "$D/aot.json")" dwarf
check_eq "dwarf: unwinding never stopped inside wasm code" "$(jq .call_graph.cut "$D/aot.json")" 0
check "dwarf: the text fits 80 columns" gawk 'length > 80 { exit 1 }' "$D/report.txt"
format_check "$D/aot.folded" "$total" >"$D/format.check"
check "dwarf: folded: one line per distinct stack, counts add up to the samples" test $? -eq 0
sed 's/^/    /' "$D/format.check"
graph_check "$D/aot.folded" >"$D/graph.check"
check "dwarf: folded: every caller is a caller of the static call tree" test $? -eq 0
sed 's/^/    /' "$D/graph.check" | head -5
facts "$D/aot.json" >"$D/facts"
tree_check "$D/facts" 0 >"$D/tree.check"
check "dwarf: inclusive samples follow the call tree over the self counts, exactly" test $? -eq 0
sed 's/^/    /' "$D/tree.check"
check "dwarf: the stacks reach the host's outermost frame (_start)" \
	grep -q '^_start;.*;local_func_6:entry_calltree;' "$D/aot.folded"

# the same samples through stock perf: aotperf inject --direct, perf script
"$AOTPERF" inject -q --direct --names wasm -i "$D/perf.data" --cwasm "$C" -o "$D/direct.data" \
	>/dev/null
check_eq "dwarf: aotperf inject --direct: exit status" "$?" 0
perf script -i "$D/direct.data" --no-inline -F ip,sym,symoff,dso 2>/dev/null |
	gawk -f "$FOLD" >"$D/perf.folded"
wasm "$D/perf.folded" >"$D/perf.wasm"
wasm "$D/aot.folded" >"$D/aot.wasm"
same_counts "dwarf: every wasm stack equals perf script's after inject --direct (host frames too)" \
	"$D/aot.wasm" "$D/perf.wasm"
# perf report --children: its percentages against aotperf's counts
perf report -i "$D/direct.data" --stdio --children --sort sym -g none 2>/dev/null |
	gawk 'match($0, /^ +([0-9.]+)% +[0-9.]+% +\[\.\] local_func_[0-9]+:([a-z_]+)/, m) {
		print m[2], m[1] }' >"$D/perf.children"
jq -r '.children[] | select(.kind == "wasm") | "\(.name) \(.children_samples)"' "$D/aot.json" |
	sed 's/^[^:]*://' >"$D/aot.children"
gawk -v tot="$total" 'FNR == NR { want[$1] = $2; next }
	{ got = $2 * tot / 100; d = got - want[$1]; if (d < 0) d = -d; n++
	  if (d > tot / 10000 + 1) { printf "%s: perf %.1f, aotperf %d\n", $1, got, want[$1]; bad++ } }
	END { exit bad > 0 || n < 7 }' "$D/aot.children" "$D/perf.children" >"$D/children.check"
check "dwarf: perf report --children after inject --direct equals aotperf's inclusive counts" \
	test $? -eq 0
sed 's/^/    /' "$D/children.check"

# jitdump + stock perf inject --jit: a perf that unwinds from the ELF
# files (libdw) can follow the jitted ELFs' CFI; Debian's (libunwind)
# reads CFI through the mappings, which jitted ELFs of back-to-back
# functions cannot have (docs/unwinding.md)
J=$WORK/jit
mkdir -p "$J"
"$AOTPERF" jitdump -q --names wasm -i "$D/perf.data" --cwasm "$C" -o "$J/marked.data" >/dev/null &&
	perf inject --jit -i "$J/marked.data" -o "$J/perf.jit.data" >/dev/null 2>&1
check_eq "jitdump: aotperf jitdump + perf inject --jit: exit status" "$?" 0
if perf report -v -i "$J/perf.jit.data" --stdio 2>&1 >/dev/null | grep -q 'unwind: find_proc_info'; then
	echo "skip: jitdump: this perf unwinds with libunwind, which cannot unwind jitted ELFs" \
		"of back-to-back functions; inject --direct is compared above"
else
	perf script -i "$J/perf.jit.data" --no-inline -F ip,sym,symoff,dso 2>/dev/null |
		gawk -f "$FOLD" >"$J/perf.folded"
	wasm "$J/perf.folded" >"$J/perf.wasm"
	same_counts "jitdump: every wasm stack equals perf script's after perf inject --jit" \
		"$D/aot.wasm" "$J/perf.wasm"
fi

# the one-pass read with the hook equals the two-pass read
"$AOTPERF" report -q -i "$D/perf.data" --cwasm "$C" --children --top 0 --two-pass \
	--folded "$D/two.folded" --json "$D/two.json" >/dev/null
echo "note: the hooked read took $(jq .passes "$D/aot.json") pass(es)"
check_eq "dwarf: two passes: the same children" "$(jq -c .children "$D/two.json" | sha256sum)" \
	"$(jq -c .children "$D/aot.json" | sha256sum)"
check_eq "dwarf: two passes: the same stacks" "$(sort "$D/two.folded" | sha256sum)" \
	"$(sort "$D/aot.folded" | sha256sum)"
# the core's mapping record three rounds late (past where a walk ahead
# looks): the hooked one pass starts over (its stacks forgotten), and the
# two-pass read finds the same stacks
maplen=$(( ($(syms_text_size "$C.syms") + 4095) / 4096 * 4096 ))
python3 "$E2E/late_mmap.py" "$D/perf.data" "$D/late.data" "$maplen" rounds=3
"$AOTPERF" report -q -i "$D/late.data" --cwasm "$C" --children --top 0 \
	--folded "$D/late.folded" --json "$D/late.json" >/dev/null
check_eq "dwarf: a late mapping record: the hooked read started over" \
	"$(jq .passes "$D/late.json")" 2
check_eq "dwarf: a late mapping record: the same stacks" "$(sort "$D/late.folded" | sha256sum)" \
	"$(sort "$D/aot.folded" | sha256sum)"
# the host's executable (its frames under every stack) 400 records late: the
# host frames it names were looked up before it came, so the read starts over
python3 "$E2E/late_mmap.py" "$D/perf.data" "$D/late-host.data" "name=$(basename "$LOADER")" 400
"$AOTPERF" report -q -i "$D/late-host.data" --cwasm "$C" --children --top 0 \
	--folded "$D/late-host.folded" --json "$D/late-host.json" >/dev/null
check_eq "dwarf: the host's mapping record late: the hooked read started over" \
	"$(jq .passes "$D/late-host.json")" 2
check_eq "dwarf: the host's mapping record late: the same stacks" \
	"$(sort "$D/late-host.folded" | sha256sum)" "$(sort "$D/aot.folded" | sha256sum)"

# ---- -g: the kernel's frame-pointer chains ----
G=$WORK/fp
mkdir -p "$G"
perf record -q -e cpu-clock:u -k mono -F 2000 -g -o "$G/perf.data" -- \
	"$LOADER" --ms 2000 --mix calltree "$C" >"$G/log" 2>&1
check_eq "fp: perf record -g: exit status" "$?" 0
"$AOTPERF" report -q -i "$G/perf.data" --cwasm "$C" --children --top 0 --callers ct_leaf \
	--callers ct_rec --folded "$G/aot.folded" --json "$G/aot.json" >"$G/report.txt"
check_eq "fp: aotperf report: exit status" "$?" 0
gtotal=$(jq .total_samples "$G/aot.json")
unknown=$(jq .call_graph.caller_unknown "$G/aot.json")
check_eq "fp: JSON mode" "$(jq -r .call_graph.mode "$G/aot.json")" fp
check "fp: samples where the chain skipped the caller (${unknown:-0} of $gtotal)" \
	test "${unknown:-0}" -ge 10
check "fp: the report says how many have their caller unknown" \
	grep -q "caller unknown *$unknown " "$G/report.txt"
check "fp: the text fits 80 columns" gawk 'length > 80 { exit 1 }' "$G/report.txt"
"$AOTPERF" inject -q --direct --names wasm -i "$G/perf.data" --cwasm "$C" -o "$G/direct.data" \
	>/dev/null
perf script -i "$G/direct.data" --no-inline -F ip,sym,symoff,dso 2>/dev/null |
	gawk -v skips="$CT/skips" -f "$FOLD" >"$G/perf.folded"
check_eq "fp: caller unknown exactly at the prologue/epilogue offsets objdump shows" \
	"$(gawk '$1 == "SKIPPED" { print $2 }' "$G/perf.folded")" "$unknown"
wasm "$G/perf.folded" >"$G/perf.wasm"
wasm "$G/aot.folded" >"$G/aot.wasm"
same_counts "fp: every wasm stack equals perf script's chain, the marker where objdump says" \
	"$G/aot.wasm" "$G/perf.wasm"
graph_check "$G/aot.folded" >"$G/graph.check"
check "fp: no wrong caller: every caller is a caller of the static call tree" test $? -eq 0
sed 's/^/    /' "$G/graph.check" | head -5
format_check "$G/aot.folded" "$gtotal" >"$G/format.check"
check "fp: folded: one line per distinct stack, counts add up" test $? -eq 0
facts "$G/aot.json" >"$G/facts"
tree_check "$G/facts" "$unknown" >"$G/tree.check"
check "fp: inclusive samples follow the call tree, short by at most the caller-unknown samples" \
	test $? -eq 0
sed 's/^/    /' "$G/tree.check"

# ---- a component: calls across cores ----
X=$WORK/xcore
mkdir -p "$X"
asm_core "$SRC/tests/fixtures/xcore.S" "$X/xc.0.cwasm" --defsym CORE=0 &&
	asm_core "$SRC/tests/fixtures/xcore.S" "$X/xc.1.cwasm" --pad-to 5000 --defsym CORE=1 &&
	manifest "$X/xc.cwasm.json" "$X/xc.0.cwasm" "$X/xc.1.cwasm"
check_eq "xcore: two cores and their manifest built" "$?" 0
perf record -q -e cpu-clock:u -k mono -F 2000 --call-graph=dwarf,8192 -o "$X/perf.data" -- \
	"$LOADER" --ms 2000 --mix xcore --import 1:x1_work --manifest "$X/xc.cwasm.json" \
	>"$X/log" 2>&1
check_eq "xcore: perf record --call-graph=dwarf: exit status" "$?" 0
"$AOTPERF" report -q -i "$X/perf.data" --manifest "$X/xc.cwasm.json" --children --top 0 \
	--callers mod1:x1_work --callees x0_main --folded "$X/aot.folded" --json "$X/aot.json" \
	>"$X/report.txt"
check_eq "xcore: aotperf report --manifest: exit status" "$?" 0
xtotal=$(jq .total_samples "$X/aot.json")
jq -r '.callers[0].callers[] | "\(.name) \(.samples)"' "$X/aot.json" >"$X/callers"
c0=$(gawk '$1 ~ /^mod0:.*:x0_main$/ { print $2 }' "$X/callers")
c1=$(gawk '$1 ~ /^mod1:.*:x1_loop$/ { print $2 }' "$X/callers")
check "xcore: x1_work's callers: mod0's x0_main (${c0:-0}) and mod1's x1_loop (${c1:-0})" \
	test "${c0:-0}" -ge 50 -a "${c1:-0}" -ge 50
check_eq "xcore: x1_work has no other caller" "$(wc -l <"$X/callers")" 2
jq -r '.children[] | select(.kind == "wasm") | "\(.name) \(.children_samples) \(.self_samples)"' \
	"$X/aot.json" | sed 's/^\(mod[01]\):local_func_[0-9]*:/\1:/' >"$X/children"
gawk -v c0="$c0" -v c1="$c1" '{ g[$1] = $2; s[$1] = $3 }
	END {
		work = s["mod1:x1_work"] + s["mod1:x1_leaf"]
		if (g["mod1:x1_work"] != work) { print "x1_work: " g["mod1:x1_work"] " != " work; bad++ }
		if (c0 + c1 != work) { print "x1_work callers: " c0 " + " c1 " != " work; bad++ }
		if (g["mod0:x0_main"] != s["mod0:x0_main"] + s["mod0:x0_leaf"] + c0) {
			print "x0_main: " g["mod0:x0_main"]; bad++ }
		if (g["mod1:x1_loop"] != s["mod1:x1_loop"] + c1) { print "x1_loop: " g["mod1:x1_loop"]; bad++ }
		exit bad > 0
	}' "$X/children" >"$X/tree.check"
check "xcore: inclusive samples across cores follow the call tree over the self counts" \
	test $? -eq 0
sed 's/^/    /' "$X/tree.check"
check "xcore: stacks hold frames of both cores (mod0's x0_main above mod1's x1_work)" \
	grep -q 'mod0:local_func_[0-9]*:x0_main;mod1:local_func_[0-9]*:x1_work' "$X/aot.folded"
format_check "$X/aot.folded" "$xtotal" >"$X/format.check"
check "xcore: folded: one line per distinct stack, counts add up" test $? -eq 0
"$AOTPERF" inject -q --direct --names wasm -i "$X/perf.data" --manifest "$X/xc.cwasm.json" \
	-o "$X/direct.data" >/dev/null
perf script -i "$X/direct.data" --no-inline -F ip,sym,symoff,dso 2>/dev/null |
	gawk -f "$FOLD" >"$X/perf.folded"
wasm "$X/perf.folded" >"$X/perf.wasm"
wasm "$X/aot.folded" >"$X/aot.wasm"
same_counts "xcore: every wasm stack equals perf script's after inject --direct" \
	"$X/aot.wasm" "$X/perf.wasm"

# ---- refusals ----
P=$WORK/plain
mkdir -p "$P"
perf record -q -e cpu-clock:u -k mono -F 999 -o "$P/perf.data" -- \
	"$LOADER" --ms 200 --mix calltree "$C" >/dev/null 2>&1
"$AOTPERF" report -q -i "$P/perf.data" --cwasm "$C" --children >"$P/out" 2>"$P/err"
check_eq "plain recording: --children: exit 2" "$?" 2
check "plain recording: one line naming the file and what to record" \
	bash -c "[ \$(wc -l <'$P/err') -eq 1 ] && grep -q 'perf.data: no call chains' '$P/err'"
"$AOTPERF" report -q -i "$D/perf.data" --cwasm "$C" --callers no_such_fn >/dev/null 2>"$P/err2"
check_eq "--callers of a function in no stack: exit 2" "$?" 2
"$AOTPERF" report -q -i "$D/perf.data" --cwasm "$C" --folded "$D/perf.data" >/dev/null 2>&1
check_eq "--folded over the input: refused (exit 2)" "$?" 2
check "--folded over the input: the input is untouched" test -s "$D/perf.data"

finish
