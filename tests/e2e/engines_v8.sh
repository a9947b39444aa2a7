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
. "$(dirname "$0")/lib/common.sh"

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

# ---- bad input: one clear line ----
printf 'not a perf.data' >"$WORK/junk.data"
out=$("$DUMP" --dump "$WORK/junk.data" 2>&1)
check "junk input: one line naming the file" bash -c '[ "$(wc -l <<<"$1")" = 1 ] && grep -q "junk.data" <<<"$1"' _ "$out"
out=$("$DUMP" --dump "$WORK/A/perf.data" 2>&1)
check "a recording without injection: says no engine code" grep -q "no code of another engine" <<<"$out"

finish
