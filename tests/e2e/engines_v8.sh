#!/usr/bin/env bash
# Another engine's profile of the same wasm, for real: tests/engines/module.wat
# built with wabt, run under node (V8) with --perf-prof, recorded with perf
# record -k mono and injected with perf inject --jit. The reader
# (engines/, through test_engines --dump) must give stock perf report's
# counts per JS:<name>-<N>-<tier> symbol, map N to the WAMR side's
# local_func through the import count (wasm-objdump's function list and the
# fixture .cwasm's own symbol list, both independent of it), choose
# turbofan over liftoff, read the same counts from the jitdump alone, and
# find V8's instance and memory-base registers in the objdump of the code.
# Then aotperf compare against a real WAMR-side recording of the same module
# (the loader running wamr_module.S): samples per side equal perf's, static
# counts equal objdump's, the headroom arithmetic holds, the optimized tier
# is the one compared and said, Markdown renders, the page loads.
. "$(dirname "$0")/lib/common.sh"
. "$E2E/lib/view_formats.sh"

ROOT=$(cd "$E2E/../.." && pwd)
SRC=$ROOT/tests/engines
DUMP=$B/tests/test_engines
MKFIX=$B/tests/mkfixture

# What this test needs; in CI (CI=true) a missing tool is a failure.
missing=()
command -v node >/dev/null || missing+=("node (>= 16, for --perf-prof; preinstalled on these machines)")
command -v wat2wasm >/dev/null && command -v wasm-objdump >/dev/null ||
	missing+=("wat2wasm and wasm-objdump (Debian package wabt; scripts/test-deps.sh)")
for t in perf objdump as objcopy nm gawk; do
	command -v $t >/dev/null || missing+=("$t")
done
if [ ${#missing[@]} -gt 0 ]; then
	for m in "${missing[@]}"; do
		if [ -n "${CI:-}" ]; then bad "needs $m"; else echo "SKIP: needs $m"; fi
	done
	finish
	exit
fi
node_major=$(node -e 'console.log(process.versions.node.split(".")[0])')
if [ "$node_major" -lt 16 ]; then
	if [ -n "${CI:-}" ]; then bad "node $(node --version): needs >= 16"; else
		echo "SKIP: node $(node --version): needs >= 16"; fi
	finish
	exit
fi
echo "node $(node --version), $(wat2wasm --version 2>&1 | head -1 | sed 's/^/wabt /')"

# ---- the module, and the WAMR side's fixture of it ----
wat2wasm --debug-names "$SRC/module.wat" -o "$WORK/named.wasm"
wat2wasm "$SRC/module.wat" -o "$WORK/plain.wasm"
as -o "$WORK/wm.o" "$SRC/wamr_module.S"
objcopy -O binary -j .text "$WORK/wm.o" "$WORK/wm.text"
nm -n --defined-only "$WORK/wm.o" >"$WORK/wm.nm"

# wasm-objdump's view: "func[N] <name>" for defined functions, and the
# function imports (which come first in the index space).
wasm-objdump -x "$WORK/named.wasm" >"$WORK/objdump.txt"
imports=$(gawk '/^Import\[/ { s = 1; next } /^[A-Z]/ { s = 0 }
	s && /^ - func\[/ { n++ } END { print n + 0 }' "$WORK/objdump.txt")
gawk '/^Function\[/ { s = 1; next } /^[A-Z]/ { s = 0 }
	s && match($0, /func\[([0-9]+)\].*<([^>]+)>/, m) { print m[1], m[2] }' \
	"$WORK/objdump.txt" >"$WORK/wasm-names"
check_eq "module.wat has 2 function imports (wasm-objdump)" "$imports" 2
"$MKFIX" --text "$WORK/wm.text" --nm "$WORK/wm.nm" --version 7 --imports "$imports" \
	-o "$WORK/wm.cwasm" >/dev/null
# the fixture's locals 0..3 are module.wat's functions 2..5, by name
check_eq "WAMR fixture: local N is wasm N+2 by name" \
	"$(gawk -v k="$imports" 'NR == FNR { n[$1] = $2; next }
		($1 + k) in n { print ($4 == n[$1 + k]) ? "same" : "differ:" $4 }' \
		"$WORK/wasm-names" "$WORK/wm.cwasm.syms" | sort | uniq -c | sed 's/^ *//')" \
	"4 same"

# ---- runs under node ----
# run NAME WASM [node flags]: perf.data, jit-<pid>.dump and the injected file
run() {
	local name=$1 wasm=$2; shift 2
	mkdir -p "$WORK/$name"
	(cd "$WORK/$name" && perf record -q -e cpu-clock -k mono -F 2000 -o perf.data -- \
		node --perf-prof "$@" "$SRC/run.js" "$wasm" 1200 >node.log 2>&1) &&
	perf inject --jit -i "$WORK/$name/perf.data" -o "$WORK/$name/perf.jit.data" \
		2>"$WORK/$name/inject.log"
}

# stock perf's self samples per wasm symbol: "NAME COUNT" (rows of one name summed)
perf_wasm_counts() {
	perf report -i "$1" --stdio --no-children --sort sym -n 2>/dev/null |
		gawk '$3 == "[.]" && $4 ~ /^JS:.*-[0-9]+-(liftoff|turbofan)$/ && NF == 4 { n[$4] += $2 }
		END { for (k in n) print k, n[k] }' | sort
}
perf_total() {
	perf report -i "$1" --stdio --no-children --sort sym -n 2>/dev/null |
		gawk '$1 ~ /%$/ { t += $2 } END { print t + 0 }'
}
# the reader's code objects with samples, the same way
ours_wasm_counts() {
	gawk '$1 == "CODE" && $2 > 0 { n[$4] += $2 } END { for (k in n) print k, n[k] }' "$1" | sort
}

# local_func, index and name of each function the reader found, checked
# against wasm-objdump's names and the fixture's symbol list
check_mapping() { # check_mapping DESC DUMPFILE NAMED(0/1)
	local got
	got=$(gawk -v k="$imports" -v named="$3" '
		FILENAME ~ /wasm-names$/ { wn[$1] = $2; next }
		FILENAME ~ /syms$/ { ln[$1] = $4; next }
		$1 == "FUNC" && $6 == "function" {
			idx = $2; loc = $3; name = $7
			if (loc != idx - k) { print "local " loc " for wasm " idx; next }
			if (wn[idx] != ln[loc]) { print "wasm " idx " is " wn[idx] ", local " loc " is " ln[loc]; next }
			if (named && name != wn[idx]) { print "wasm " idx " named " name; next }
			if (!named && name != "-") { print "wasm " idx " named " name " without a name section"; next }
			print "ok"
		}' "$WORK/wasm-names" "$WORK/wm.cwasm.syms" "$2" | sort | uniq -c | sed 's/^ *//')
	case "$got" in
	[0-9]*" ok") ok "$1 ($got)" ;;
	*) bad "$1: $got" ;;
	esac
}

# ---- run A: turbofan only (--no-liftoff), names from the name section ----
if run A "$WORK/named.wasm" --no-liftoff; then
	A=$WORK/A
	"$DUMP" --dump "$A/perf.jit.data" --cwasm "$WORK/wm.cwasm" --classify 2 >"$A/ours" 2>"$A/err"
	check "A: the reader reads the injected recording" test -s "$A/ours"
	perf_wasm_counts "$A/perf.jit.data" >"$A/perf.counts"
	ours_wasm_counts "$A/ours" >"$A/ours.counts"
	same_counts "A: per-symbol samples equal perf report's" "$A/ours.counts" "$A/perf.counts"
	check_eq "A: total samples equal perf report's" \
		"$(gawk '$1 == "TOTAL" { print $2 }' "$A/ours")" "$(perf_total "$A/perf.jit.data")"
	sum_n=$(gawk '$1 == "JS:sum-2-turbofan" { print $2 }' "$A/perf.counts")
	check "A: sum has enough samples to test with (${sum_n:-0} >= 100)" test "${sum_n:-0}" -ge 100
	check_eq "A: the engine is v8" "$(gawk '$1 == "TOTAL" { print $7 }' "$A/ours")" v8
	check_eq "A: no liftoff code with --no-liftoff" \
		"$(grep -c -- '-liftoff$' "$A/ours" || true)" 0
	check_mapping "A: wasm N = local_func N-2, names agree" "$A/ours" 1
	check_eq "A: no warnings against the WAMR side" "$(grep -c '^WARN' "$A/ours" || true)" 0
	check_eq "A: wasm-to-js wrappers are the two imports" \
		"$(gawk '$1 == "FUNC" && $6 == "wrapper" { print $2 }' "$A/ours" | sort | tr '\n' ' ')" "0 1 "

	# classes of sum: V8 passes the instance in rsi (its x64 wasm calling
	# convention); the memory base is loaded from one instance field.
	read -r _ _ status vmctx membase field used < <(grep '^ROLES 2 ' "$A/ours")
	check_eq "A: sum: roles found, vmctx is V8's instance register" "$status $vmctx" "found rsi"
	so=$(grep -l 'JS:sum-2-turbofan' "$A"/jitted-*.so | head -1)
	objdump -d -M intel --no-show-raw-insn "$so" >"$A/sum.objdump"
	check "A: objdump shows $membase loaded from [rsi+$(printf '0x%x' "$field")]" \
		grep -qE "mov +$membase,QWORD PTR \[rsi\+$(printf '0x%x' "$field")\]" "$A/sum.objdump"
	# accesses through the base within the classified bytes, from objdump's text
	lin=$(gawk -v r="$membase" -v end=$((0x80 + used)) '
		match($0, /^ *([0-9a-f]+):\t([a-z]+)/, m) && strtonum("0x" m[1]) < end &&
		m[2] != "lea" && m[2] !~ /^nop/ &&
		($0 ~ "\\[" r "[]+-]" || $0 ~ "\\+" r "\\*") { n++ } END { print n + 0 }' "$A/sum.objdump")
	check_eq "A: sum: linear_mem instructions = objdump's accesses through $membase" \
		"$(gawk '$1 == "CLASS" && $2 == 2 && $3 == "linear_mem" { print $5 }' "$A/ours")" "$lin"
	check "A: sum: linear memory accesses were found (${lin:-0})" test "${lin:-0}" -gt 0
	check_eq "A: sum: per-instruction samples add up to perf report's count" \
		"$(gawk '$1 == "CLASS" && $2 == 2 { t += $4 } END { print t + 0 }' "$A/ours")" "$sum_n"
else
	bad "A: node --perf-prof --no-liftoff under perf record, then perf inject --jit"
	cat "$WORK/A/node.log" "$WORK/A/inject.log" 2>/dev/null | head -20
fi

# ---- run B: default tiers (liftoff, then turbofan), no name section ----
if run B "$WORK/plain.wasm"; then
	Bd=$WORK/B
	"$DUMP" --dump "$Bd/perf.jit.data" --imports "$imports" >"$Bd/ours" 2>"$Bd/err"
	perf_wasm_counts "$Bd/perf.jit.data" >"$Bd/perf.counts"
	ours_wasm_counts "$Bd/ours" >"$Bd/ours.counts"
	same_counts "B: per-symbol samples equal perf report's" "$Bd/ours.counts" "$Bd/perf.counts"
	check_eq "B: total samples equal perf report's" \
		"$(gawk '$1 == "TOTAL" { print $2 }' "$Bd/ours")" "$(perf_total "$Bd/perf.jit.data")"
	check "B: V8 started on liftoff code" grep -qE '^CODE [0-9]+ [0-9]+ JS:.*-liftoff$' "$Bd/ours"
	check_mapping "B: wasm N = local_func N-2 without names" "$Bd/ours" 0
	# a function with both tiers is compared on its turbofan code
	check_eq "B: functions with a turbofan tier use it" \
		"$(gawk '$1 == "CODE" && $4 ~ /-turbofan$/ { tf[$3] = 1 }
			$1 == "FUNC" && $6 == "function" && ($2 in tf) { print $5 }' "$Bd/ours" |
			sort | uniq -c | sed 's/^ *//' | sed 's/^[0-9]* //')" turbofan
	dump=$(ls "$Bd"/jit-*.dump 2>/dev/null | head -1)
	if [ -n "$dump" ]; then
		# the dump alone, with the recording perf inject never touched
		"$DUMP" --dump "$Bd/perf.data" --imports "$imports" --jitdump "$dump" \
			>"$Bd/ours.jitdump" 2>"$Bd/err.jitdump"
		ours_wasm_counts "$Bd/ours.jitdump" >"$Bd/jitdump.counts"
		same_counts "B: jitdump + plain recording: perf report's counts too" \
			"$Bd/jitdump.counts" "$Bd/perf.counts"
		check_eq "B: jitdump + plain recording: same functions and tiers" \
			"$(grep '^FUNC' "$Bd/ours.jitdump" | md5sum)" "$(grep '^FUNC' "$Bd/ours" | md5sum)"
		"$DUMP" --dump - --imports "$imports" --jitdump "$dump" >"$Bd/ours.static" 2>&1
		check_eq "B: jitdump alone: every wasm code object, no samples" \
			"$(gawk '$1 == "CODE" { print $3, $4 }' "$Bd/ours.static" | sort | md5sum)" \
			"$(gawk '$1 == "CODE" { print $3, $4 }' "$Bd/ours" | sort | md5sum)"
	else
		bad "B: node left no jit-<pid>.dump"
	fi
else
	bad "B: node --perf-prof under perf record, then perf inject --jit"
	cat "$WORK/B/node.log" "$WORK/B/inject.log" 2>/dev/null | head -20
fi

# ---- aotperf compare: the WAMR side of the same module against V8 ----
# the WAMR fixture pins vmctx in rbx and the memory base in r15 (its
# idiom, tests/engines/wamr_module.S), which --roles says
ROLES=vmctx=rbx,membase=r15
record "$WORK/wamr.data" -- --ms 1200 --mix sum:2,dispatch:1 "$WORK/wm.cwasm"
reference "$WORK/wamr.data" "$WORK/wm.cwasm.syms" >"$WORK/wamr.ref"
wamr_total=$(gawk '$1 == "TOTAL" { print $2 }' "$WORK/wamr.ref")
wamr_sum=$(gawk '$1 == "FUNC" && $2 == 0 { print $3 }' "$WORK/wamr.ref")
check "WAMR side: sum has enough samples (${wamr_sum:-0} >= 100)" test "${wamr_sum:-0}" -ge 100
# linear-memory accesses of sum in the WAMR fixture, from objdump: [r15+...]
objdump -d -M intel --no-show-raw-insn "$WORK/wm.o" >"$WORK/wm.objdump"
wamr_lin=$(gawk '/^[0-9a-f]+ <sum>:/ { s = 1; next } /^[0-9a-f]+ </ { s = 0 }
	s && /\[r15\+/ { n++ } END { print n + 0 }' "$WORK/wm.objdump")
near() { # near DESC GOT WANT TOL
	if gawk -v g="$2" -v w="$3" -v t="$4" 'BEGIN { exit !((g - w) <= t && (w - g) <= t) }'; then
		ok "$1 ($2)"
	else
		bad "$1: $2, expected $3 +- $4"
	fi
}
if [ -n "${A:-}" ] && [ -s "$A/perf.jit.data" ]; then
	"$AOTPERF" compare -i "$WORK/wamr.data" --cwasm "$WORK/wm.cwasm" --func sum --roles "$ROLES" \
		--other "$A/perf.jit.data" --json "$WORK/c.json" --markdown "$WORK/c.md" \
		--html "$WORK/c.html" >"$WORK/c.txt" 2>"$WORK/c.err"
	check_eq "compare: exit 0" "$?" 0
	J=$WORK/c.json
	formats compare "formats" "$WORK/c.txt" "$J" "$WORK/c.md" "$WORK/c.html"
	check_eq "compare: V8's symbol for wasm 2 (local 0), optimized" \
		"$(jq -r '"\(.wasm_func) \(.wamr.local_func) \(.other.symbol) \(.other.tier)"' "$J")" \
		"2 0 JS:sum-2-turbofan optimized"
	check_eq "compare: WAMR samples of sum and of the run = perf script's" \
		"$(jq -r '"\(.wamr.samples) \(.wamr.total_samples)"' "$J")" "$wamr_sum $wamr_total"
	check_eq "compare: V8 samples of sum = perf report's" "$(jq .other.samples "$J")" "$sum_n"
	check_eq "compare: V8 run total = perf report's" "$(jq .other.total_samples "$J")" \
		"$(perf_total "$A/perf.jit.data")"
	check_eq "compare: WAMR linear_mem static = objdump's [r15+] accesses" \
		"$(jq .wamr.classes.linear_mem.static_instructions "$J")" "$wamr_lin"
	check_eq "compare: V8 linear_mem static = objdump's accesses through $membase" \
		"$(jq .other.classes.linear_mem.static_instructions "$J")" "$lin"
	check_eq "compare: class samples add up on both sides" \
		"$(jq '"\([.wamr.classes[].samples] | add) \([.other.classes[].samples] | add)"' -r "$J")" \
		"$wamr_sum $sum_n"
	check_eq "compare: the estimate is from samples (both sides >= 50)" \
		"$(jq -r .headroom.basis "$J")" samples
	# the estimate's arithmetic from the class sample counts (exact), against
	# the JSON's reduction (3 decimals) and headroom (2 decimals)
	jq -r '
		def share(side; cls): (cls | map(side.classes[.].samples) | add) * 100 / side.samples;
		{ stack: ["frame_load", "frame_store"], moves: ["reg_move", "zext_move"],
		  bounds: ["bounds_check"], dispatch: ["dispatch"] } as $L
		| (100 * .wamr.samples / .wamr.total_samples) as $hot
		| . as $d | .headroom.levers[] | select(.status == "estimated")
		| share($d.wamr; $L[.lever]) as $w | share($d.other; $L[.lever]) as $o
		| (if $w > 0 then ([1 - $o / $w, 0] | max) else 0 end) as $red
		| "\(.lever) \($red) \(.reduction) \($hot * $w / 100 * $red) \(.headroom_percent_of_run)"' \
		"$J" >"$WORK/levers"
	hot=$(jq .headroom.hot_percent_of_run "$J")
	near "compare: hot share = WAMR's samples / its run" "$hot" \
		"$(gawk -v a="$wamr_sum" -v b="$wamr_total" 'BEGIN { printf "%.4f", 100 * a / b }')" 0.006
	bad_levers=$(gawk '{
		if (($2 - $3) > 0.0006 || ($3 - $2) > 0.0006) print $1 " reduction " $3 " want " $2
		if (($4 - $5) > 0.006 || ($5 - $4) > 0.006) print $1 " headroom " $5 " want " $4
	}' "$WORK/levers")
	check_eq "compare: reduction = 1 - V8/WAMR share, headroom = hot x share x reduction" \
		"${bad_levers:-ok} ($(wc -l <"$WORK/levers") levers)" "ok (4 levers)"
	near "compare: stack lever = frame_load + frame_store share of WAMR's samples" \
		"$(jq '.headroom.levers[] | select(.lever == "stack") | .wamr_percent_of_function' "$J")" \
		"$(jq '100 * (.wamr.classes.frame_load.samples + .wamr.classes.frame_store.samples) / .wamr.samples' "$J")" 0.006
	near "compare: per-class delta = V8 share - WAMR share (alu)" \
		"$(jq .sampled_delta_points.alu "$J")" \
		"$(jq '.other.classes.alu.percent_of_function - .wamr.classes.alu.percent_of_function' "$J")" 0.011
	check "compare: text says which tier and labels the estimate" \
		bash -c "grep -q 'optimized (turbofan) tier' '$WORK/c.txt' && grep -q 'ESTIMATE' '$WORK/c.txt'"
	w=$(gawk '{ n = length($0); if (n > m) m = n } END { print m + 0 }' "$WORK/c.txt")
	check "compare: text fits 80 columns (widest $w)" test "$w" -le 80
	# both hottest loops modelled on the WAMR recording's CPU (docs/levers.md): each side's cycles = llvm-mca rerun here on the JSON's
	# input, the gap = WAMR - V8, per lever = WAMR's what-if - V8
	mca=""
	for m in /usr/lib/llvm-*/bin/llvm-mca; do [ -x "$m" ] && mca=$m; done
	L='.hottest_loop'
	if [ -n "$mca" ] && jq -e "$L.wamr and $L.v8" "$J" >/dev/null; then
		mcpu=$(jq -r "$L.mcpu" "$J")
		for s in wamr v8; do
			jq -r "$L.$s.input" "$J" >"$WORK/loop.$s.s"
			got=$("$mca" -mcpu="$mcpu" -iterations=100 "$WORK/loop.$s.s" 2>/dev/null |
				gawk '/^Iterations:/ { i = $2 } /^Total Cycles:/ { c = $3 } END { printf "%.2f", c / i }')
			check_eq "compare: $s's hottest loop = llvm-mca rerun on its input (-mcpu=$mcpu)" \
				"$(jq -r "$L.$s.cycles_per_iteration" "$J" | gawk '{ printf "%.2f", $1 }')" "$got"
		done
		near "compare: gap = WAMR - V8 cycles per iteration" "$(jq "$L.gap_cycles_per_iteration" "$J")" \
			"$(jq "$L.wamr.cycles_per_iteration - $L.v8.cycles_per_iteration" "$J")" 0.011
		check_eq "compare: per lever, gap = WAMR's what-if - V8's (every lever)" \
			"$(jq "$L.v8.cycles_per_iteration as \$o | [$L.levers[] | select(((.gap_cycles_per_iteration - (.cycles_per_iteration - \$o)) | if . < 0 then -. else . end) <= 0.011)] | length" "$J")" \
			"$(jq "$L.levers | length" "$J")"
		check "compare: the text shows the gap per lever" grep -q "^    bounds_check " "$WORK/c.txt"
		sed -n '/hottest loop, cycles per iteration/,/need not do/p' "$WORK/c.txt"
	elif [ -n "${CI:-}" ]; then
		bad "compare: both hottest loops modelled (llvm-mca: ${mca:-none})"
	fi
	if command -v cmark-gfm >/dev/null; then
		# 4, and the hottest loops' two when both are modelled
		check_eq "compare: Markdown renders its tables (cmark-gfm)" \
			"$(cmark-gfm -e table "$WORK/c.md" | grep -c '<table>')" \
			"$(jq "4 + (if $L.tool then 1 else 0 end) + (if $L.wamr and $L.v8 then 1 else 0 end)" "$J")"
	elif [ -n "${CI:-}" ]; then
		bad "cmark-gfm is needed to check the Markdown"
	else
		echo "SKIP: compare Markdown: cmark-gfm is not installed"
	fi
	if command -v chromium >/dev/null && [ -d "$ROOT/tests/browser/node_modules/playwright-core" ]; then
		python3 -c '
import json, re, sys
s = open(sys.argv[1]).read()
m = re.search(r"<script type=\"application/json\" id=\"aotperf-data\">(.*?)</script>", s, re.S)
json.dump(json.loads(m.group(1)), open(sys.argv[2], "w"))' "$WORK/c.html" "$WORK/c.doc.json"
		(cd "$ROOT/tests/browser" && node check.js --page "$WORK/c.html" --doc "$WORK/c.doc.json" \
			--shot "${ARTIFACTS:-$B/tests/artifacts}/compare.png") >"$WORK/cb.txt" 2>&1
		while IFS= read -r line; do
			case $line in
			ok:*) ok "compare page: ${line#ok: }" ;;
			FAIL:*) bad "compare page: ${line#FAIL: }" ;;
			esac
		done <"$WORK/cb.txt"
	elif [ -n "${AOTPERF_REQUIRE_BROWSER:-}${CI:-}" ]; then
		bad "the browser check of the compare page cannot run"
	else
		echo "SKIP: browser check of the compare page: needs chromium and tests/browser/setup.sh"
	fi
	out=$("$AOTPERF" compare -i "$WORK/wamr.data" --cwasm "$WORK/wm.cwasm" --func unused \
		--other "$A/perf.jit.data" 2>&1 >/dev/null)
	check_eq "compare: a function V8 never compiled: exit 2" "$?" 2
	check "compare: ... one line naming wasm 5" bash -c '[ "$(wc -l <<<"$1")" = 1 ] && grep -q "no code for wasm function 5" <<<"$1"' _ "$out"
	# all of its outputs or none (util/outset.h): --html in a missing folder
	echo "old compare" >"$WORK/c2.json"
	"$AOTPERF" compare -q -i "$WORK/wamr.data" --cwasm "$WORK/wm.cwasm" --func sum --roles "$ROLES" \
		--other "$A/perf.jit.data" --json "$WORK/c2.json" --markdown "$WORK/c2.md" \
		--html "$WORK/missing/c2.html" >/dev/null 2>&1
	check_eq "compare, the last output unwritable: exit 2" "$?" 2
	check "compare: --json keeps its old content, no --markdown, no temporary" \
		test "$(cat "$WORK/c2.json")" = "old compare" -a ! -e "$WORK/c2.md" -a \
		-z "$(ls "$WORK" | grep '^c2\..*\.tmp\.')"
fi
if [ -n "${Bd:-}" ] && [ -s "$Bd/perf.jit.data" ]; then
	# default tiers, no name section: turbofan is compared, liftoff's samples are said
	"$AOTPERF" compare -q -i "$WORK/wamr.data" --cwasm "$WORK/wm.cwasm" --roles "$ROLES" \
		--other "$Bd/perf.jit.data" --json "$WORK/cb.json" >"$WORK/cb.txt" 2>&1
	check_eq "compare B: exit 0, the hottest WAMR function picked (sum)" \
		"$?:$(jq -r '"\(.wamr.picked_hottest) \(.wasm_func)"' "$WORK/cb.json")" "0:true 2"
	check_eq "compare B: the turbofan code is compared" "$(jq -r .other.tier_name "$WORK/cb.json")" turbofan
	lo=$(gawk '$1 ~ /^JS:.*-2-liftoff$/ { n += $2 } END { print n + 0 }' "$Bd/perf.counts")
	if [ "${lo:-0}" -gt 0 ]; then
		check "compare B: liftoff's $lo samples are said, not compared" \
			grep -q "also $lo samples in baseline-tier code" "$WORK/cb.txt"
	else
		check_eq "compare B: no liftoff samples to mention" "$(grep -c 'baseline-tier' "$WORK/cb.txt")" 0
	fi
	check_eq "compare B: baseline samples in the JSON = perf report's" \
		"$(jq .other.tier_samples.baseline "$WORK/cb.json")" "${lo:-0}"
fi

# ---- bad input: one clear line ----
printf 'not a perf.data' >"$WORK/junk.data"
out=$("$DUMP" --dump "$WORK/junk.data" 2>&1)
check "junk input: one line naming the file" bash -c '[ "$(wc -l <<<"$1")" = 1 ] && grep -q "junk.data" <<<"$1"' _ "$out"
out=$("$DUMP" --dump "$WORK/A/perf.data" 2>&1)
check "a recording without injection: says no engine code" grep -q "no code of another engine" <<<"$out"

finish
