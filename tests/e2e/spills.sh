#!/usr/bin/env bash
# aotperf spills: spill metric logs generated here for the fixture's
# functions (a never-run cold function is the #1 spiller, spill_heavy the
# #3), joined with a real recording of the loader. Every expectation is
# derived independently: the ranking with awk/sort over the generated log
# (the upstream skill's Step 3 one-liner), the runtime side from perf script
# (common.sh's reference), the frame reloads from objdump.
. "$(dirname "$0")/lib/common.sh"
. "$E2E/lib/view_formats.sh"

S=$FIX/sample.cwasm
SYMS=$S.syms
TOP=15
HEAVY=10

# gen_log SYMS MOD [VARIANT]: one metric line per function of a core, with
# [aot-codegen-timing] lines and junk between, keys in varying order and the
# the upstream skill's trailing text after spill_ld. Entry trampolines and
# br_table_dispatch are left out (WAMR_AOT_SPILL_METRIC_MIN_SPILLS=1 drops
# functions without spills). spill_heavy's spill_ld is HEAVY_LD; VARIANT
# "after" is the Step 6 sweep: spill_heavy one reload less, cold_2 50 less,
# cold_7 gone, br_table_dispatch new.
gen_log() {
	gawk -v mod="$2" -v variant="${3:-}" -v heavy="$HEAVY_LD" '
	{
		idx = $1; size = $3; name = $4
		if (name ~ /^entry_/) next
		if (name == "br_table_dispatch" && variant != "after") next
		if (name == "cold_7" && variant == "after") next
		ld = 1 + (idx * 7) % 20
		if (name == "cold_2") ld = variant == "after" ? 450 : 500
		if (name == "cold_15") ld = 120
		if (name == "spill_heavy") ld = variant == "after" ? heavy - 1 : heavy
		if (name == "zext_heavy") ld = 1
		if (NR % 40 == 0) printf "[aot-codegen-timing] local_func=%d ms=0.%d pass=regalloc\n", idx, NR % 9
		if (NR % 97 == 0) print "wamrc: note: spill_ld=999999 is not a metric line"
		insts = int(size / 3) + idx % 11
		if (idx % 2)
			printf "[aot-spill-metric] local_func=%d mod=%d name=%s insts=%d clobbers=%d slots=%d spilled_vregs=%d scalar=%d v128=0 slots_scalar=%d slots_v128=0 spill_ld=%d (emitted reloads) spill_st=%d remat=%d callee_saved=%d\n", idx, mod, name, insts, idx % 5, ld % 13, ld % 17, ld % 17, ld % 13, ld, int(ld / 2), idx % 3, 2
		else
			printf "wamrc[123]: [aot-spill-metric] spill_ld=%d spill_st=%d insts=%d name=%s local_func=%d mod=%d spilled_vregs=%d remat=%d\n", ld, int(ld / 2), insts, name, idx, mod, ld % 17, idx % 3
	}' "$1"
}

# The upstream skill's Step 3 ranking of a log: "spill_ld mod local_func", ties by mod, func.
awk_rank() { # awk_rank LOG FIELD
	gawk -v f="$2" '/\[aot-spill-metric\]/ {
		delete kv
		for (i = 1; i <= NF; i++) { n = index($i, "="); if (n) kv[substr($i, 1, n - 1)] = substr($i, n + 1) }
		printf "%d %d %d\n", kv[f], kv["mod"], kv["local_func"] }' "$1" |
		sort -k1,1nr -k2,2n -k3,3n
}

# Frame-slot reads of a fixture function from objdump: a [rbp/rsp] source
# operand, or a compared/pushed frame slot; not the vmctx slot [rbp-0x8]
# (its reloads are runtime state, not spills: tests/fixtures/kernels.S).
objdump_frame_loads() { # objdump_frame_loads NAME
	objdump -d -M intel --no-show-raw-insn "$FIX/sample.core.o" | gawk -v fn="$1" '
	/^[0-9a-f]+ <.*>:$/ { in_fn = ($2 == "<" fn ">:"); next }
	in_fn && /^ *[0-9a-f]+:/ {
		sub(/^ *[0-9a-f]+:[ \t]*/, ""); m = $1; ops = $0; sub(/^[a-z0-9]+[ \t]*/, "", ops)
		c = index(ops, ","); dst = c ? substr(ops, 1, c - 1) : ops; src = c ? substr(ops, c + 1) : ""
		if (src ~ /\[rbp-0x8\]/) next
		if (src ~ /\[(rbp|rsp)/ || (dst ~ /\[(rbp|rsp)/ && m ~ /^(cmp|test|push)$/)) n++
	}
	END { print n + 0 }'
}

idx_of() { gawk -v n="$1" '$4 == n { print $1 }' "$2"; }

HEAVY_LD=$(objdump_frame_loads spill_heavy)
check "objdump finds spill_heavy's frame reloads ($HEAVY_LD)" test "$HEAVY_LD" -gt 20
LOG=$WORK/spill.log
gen_log "$SYMS" 0 >"$LOG"
gen_log "$SYMS" 0 after >"$WORK/after.log"
heavy=$(idx_of spill_heavy "$SYMS")
zext=$(idx_of zext_heavy "$SYMS")

# ---- ranking alone ----
"$AOTPERF" spills "$LOG" --json "$WORK/rank.json" >"$WORK/rank.txt" 2>"$WORK/rank.err"
check_eq "ranking: exit status" "$?" 0
check_eq "ranking: no warnings" "$(wc -c <"$WORK/rank.err")" 0
check_eq "ranking: every metric line is a function" "$(jq .function_count "$WORK/rank.json")" \
	"$(grep -c '\[aot-spill-metric\]' "$LOG")"
check_eq "ranking: line count" "$(jq .lines "$WORK/rank.json")" "$(wc -l <"$LOG")"
awk_rank "$LOG" spill_ld | head -n $TOP | gawk '{ print $2, $3, $1 }' >"$WORK/rank.want"
jq -r '.functions[] | "\(.mod) \(.local_func) \(.metrics.spill_ld)"' "$WORK/rank.json" >"$WORK/rank.got"
check "ranking: top $TOP by spill_ld equal the awk ranking" diff -u "$WORK/rank.want" "$WORK/rank.got"
check_eq "ranking: spill_ld total" "$(jq .totals.spill_ld "$WORK/rank.json")" \
	"$(awk_rank "$LOG" spill_ld | gawk '{ t += $1 } END { print t }')"
check "ranking: text lists the #1 spiller first" \
	gawk -v f="local_func_$(head -n1 "$WORK/rank.want" | cut -d' ' -f2)" '$1 == 1 && $3 == f { ok = 1 } END { exit !ok }' "$WORK/rank.txt"

"$AOTPERF" spills "$LOG" --sort insts --top 7 --json "$WORK/insts.json" >/dev/null
awk_rank "$LOG" insts | head -n 7 | gawk '{ print $2, $3, $1 }' >"$WORK/insts.want"
jq -r '.functions[] | "\(.mod) \(.local_func) \(.metrics.insts)"' "$WORK/insts.json" >"$WORK/insts.got"
check "--sort insts --top 7 equals the awk ranking" diff -u "$WORK/insts.want" "$WORK/insts.got"

# --sort on a field only some lines carry (clobbers: odd lines): those rank first
"$AOTPERF" spills "$LOG" --sort clobbers --top 0 --json "$WORK/clob.json" >/dev/null
check_eq "--sort clobbers: functions without it rank last" \
	"$(jq '[.functions[] | has("metrics") and (.metrics | has("clobbers"))] | . == (. | sort | reverse)' "$WORK/clob.json")" true
check_eq "--top 0 lists all" "$(jq '.functions | length' "$WORK/clob.json")" "$(jq .function_count "$WORK/clob.json")"

# stdin gives the same result
"$AOTPERF" spills - --json "$WORK/stdin.json" <"$LOG" >/dev/null
jq -c .functions "$WORK/stdin.json" >"$WORK/stdin.fn"
jq -c .functions "$WORK/rank.json" >"$WORK/rank.fn"
check "LOG on stdin gives the same ranking" cmp -s "$WORK/stdin.fn" "$WORK/rank.fn"

# ---- static cross-check: spill_ld against objdump's frame reloads ----
"$AOTPERF" spills "$LOG" --cwasm "$S" --top 0 --json "$WORK/static.json" >"$WORK/static.txt"
check_eq "cross-check: exit status" "$?" 0
check_eq "cross-check: spill_heavy's frame reloads equal objdump's" \
	"$(jq ".functions[] | select(.local_func == $heavy) | .static_frame_loads" "$WORK/static.json")" "$HEAVY_LD"
check_eq "cross-check: spill_heavy's ratio is 1 (spill_ld = its frame reloads)" \
	"$(jq ".functions[] | select(.local_func == $heavy) | .static_to_spill_ld" "$WORK/static.json")" 1
zl=$(objdump_frame_loads zext_heavy)
check_eq "cross-check: zext_heavy's frame reloads equal objdump's ($zl)" \
	"$(jq ".functions[] | select(.local_func == $zext) | .static_frame_loads" "$WORK/static.json")" "$zl"
check "cross-check: the text explains the ratio" grep -q 'ratio = frame_ld / spill_ld' "$WORK/static.txt"

# ---- joined with a recording ----
record "$WORK/run.data" -- --ms 1500 --mix spill_heavy:6,zext_heavy:3,br_table_dispatch:2,bounds_checked_mem:1 "$S"
check_eq "loader ran under perf" "$?" 0
reference "$WORK/run.data" "$SYMS" >"$WORK/ref"
"$AOTPERF" spills "$LOG" -q -i "$WORK/run.data" --cwasm "$S" --top $TOP --json "$WORK/join.json" \
	>"$WORK/join.txt" 2>"$WORK/join.err"
check_eq "joined: exit status" "$?" 0
total=$(gawk '$1 == "TOTAL" { print $2 }' "$WORK/ref")
check_eq "joined: total samples equal perf script's" "$(jq .total_samples "$WORK/join.json")" "$total"
# per listed function: samples from perf script (0 when it has none)
jq -r '.functions[] | "\(.local_func) \(.samples)"' "$WORK/join.json" >"$WORK/join.got"
gawk 'NR == FNR { if ($1 == "FUNC") s[$2] = $3; next } { print $1, ($1 in s) ? s[$1] : 0 }' \
	"$WORK/ref" "$WORK/join.got" >"$WORK/join.want"
check "joined: samples of the listed functions equal perf script's" diff -u "$WORK/join.want" "$WORK/join.got"

# expected flags, from the awk ranking and perf script's counts
awk_rank "$LOG" spill_ld | gawk '{ print NR, $3, $1 }' >"$WORK/spill.rank" # rank func spill_ld
gawk -v total="$total" -v heavy=$HEAVY '
	FILENAME == ARGV[1] { if ($1 == "FUNC") s[$2] = $3; next }
	{ if ($1 <= heavy && $3 > 0 && 100 * s[$2] / total < 0.1) print $2 }' \
	"$WORK/ref" "$WORK/spill.rank" >"$WORK/cold.want"
jq -r '.runtime_cold_spillers[].local_func' "$WORK/join.json" >"$WORK/cold.got"
check "joined: runtime-cold heavy spillers are the top $HEAVY (--heavy default) with under 0.1% of run" diff -u "$WORK/cold.want" "$WORK/cold.got"
check "joined: the cold list names the #1 spiller" grep -qx "$(head -n1 "$WORK/spill.rank" | cut -d' ' -f2)" "$WORK/cold.got"
gawk -v total="$total" -v heavy=$HEAVY '
	FILENAME == ARGV[1] { r[$2] = $1; ld[$2] = $3; if ($1 == 1) max = $3; next }
	$1 == "FUNC" && 100 * $3 / total >= 5 {
		few = !($2 in r) || (r[$2] > heavy && ld[$2] * 10 < max)
		print $3, $2, ($2 in r) ? r[$2] : "null", few ? "true" : "false" }' \
	"$WORK/spill.rank" "$WORK/ref" | sort -k1,1nr -k2,2n | head -n $TOP | cut -d' ' -f2- >"$WORK/hot.want"
jq -r '.hot_functions[] | "\(.local_func) \(.spill_rank) \(.few_spills)"' "$WORK/join.json" >"$WORK/hot.got"
check "joined: hot functions (>= 5% of run) with their spiller rank and few-spills flag" diff -u "$WORK/hot.want" "$WORK/hot.got"
check "joined: zext_heavy is hot with few spills" grep -qx "$zext [0-9]* true" "$WORK/hot.got"

# the lesson line, rebuilt from the references
hot=$(gawk '$1 == "FUNC" { print $3, $2 }' "$WORK/ref" | sort -k1,1nr -k2,2n | head -n1)
hot_fn=${hot#* }
hot_rank=$(gawk -v f="$hot_fn" '$2 == f { print $1 }' "$WORK/spill.rank")
hot_pct=$(gawk -v n="${hot% *}" -v t="$total" 'BEGIN { printf "%.1f", 100 * n / t }')
first=$(head -n1 "$WORK/spill.rank" | cut -d' ' -f2)
want="the #1 compile-time spiller local_func_$first is runtime-cold (0 samples); the hottest function local_func_$hot_fn ($hot_pct% of run) is spiller #$hot_rank"
check_eq "joined: the lesson" "$(jq -r .lesson "$WORK/join.json")" "$want"
check "joined: the text prints the lesson" \
	grep -qF "lesson: $want" <(sed -n '/^lesson: /,$p' "$WORK/join.txt" | tr -s ' \n' '  ')
check_eq "joined: the text fits 80 columns" "$(awk 'length > 80' "$WORK/join.txt" | wc -l)" 0
formats spills "joined, formats" "$WORK/join.txt" "$WORK/join.json"
# the heavy-spiller cut is --heavy's, whatever --top lists
for t in 3 0; do
	"$AOTPERF" spills "$LOG" -q -i "$WORK/run.data" --cwasm "$S" --top $t --json "$WORK/top$t.json" \
		>/dev/null 2>&1
	check_eq "joined --top $t: the same cold spillers and few-spills flags" \
		"$(jq -c '[.runtime_cold_spillers[].local_func, (.hot_functions[:3][] | [.local_func, .few_spills])]' "$WORK/top$t.json")" \
		"$(jq -c '[.runtime_cold_spillers[].local_func, (.hot_functions[:3][] | [.local_func, .few_spills])]' "$WORK/join.json")"
done
"$AOTPERF" spills "$LOG" -q -i "$WORK/run.data" --cwasm "$S" --heavy 1 --json "$WORK/h1.json" \
	>/dev/null 2>&1
check "joined --heavy 1: only the #1 spiller can be a cold heavy spiller" \
	test "$(jq '[.runtime_cold_spillers[] | select(.spill_rank > 1)] | length' "$WORK/h1.json")" = 0 -a \
	"$(jq '.heavy' "$WORK/h1.json")" = 1
"$AOTPERF" spills "$LOG" -q -i "$WORK/run.data" --cwasm "$S" --wide >"$WORK/wide.txt" 2>&1
check "joined --wide: every column, frame_ld too" grep -q 'insts .*sp_vregs .*spill_st .*frame_ld' \
	"$WORK/wide.txt"
COLUMNS=200 "$AOTPERF" spills "$LOG" -q -i "$WORK/run.data" --cwasm "$S" >"$WORK/c200.txt" 2>&1
check "joined, COLUMNS=200: every column" grep -q 'insts .*sp_vregs .*spill_st .*frame_ld' \
	"$WORK/c200.txt"
"$AOTPERF" spills "$LOG" -q -i "$WORK/run.data" --cwasm "$S" --json - >"$WORK/stdout.json" 2>&1
check_eq "--json - writes the JSON to stdout, no text" "$(jq -r .tool "$WORK/stdout.json")" "aotperf spills"
check "--json - writes no file named -" test ! -e "$WORK/-" -a ! -e ./-
"$AOTPERF" spills "$LOG" -q -i "$WORK/run.data" --cwasm "$S" --roles vmctx=nonsense \
	>"$WORK/roles.out" 2>"$WORK/roles.err"
check_eq "--roles nonsense: exit 2 before any output" "$?:$(wc -c <"$WORK/roles.out")" "2:0"
check_eq "joined: the hottest function is spill_heavy" "$hot_fn" "$heavy"

# ---- --vs: the register-supply sweep ----
"$AOTPERF" spills "$LOG" --vs "$WORK/after.log" --top 0 --json "$WORK/vs.json" >"$WORK/vs.txt"
check_eq "--vs: exit status" "$?" 0
# independent join of the two logs: mod func before after
join_logs() {
	gawk 'FNR == 1 { side++ }
	/\[aot-spill-metric\]/ {
		delete kv
		for (i = 1; i <= NF; i++) { n = index($i, "="); if (n) kv[substr($i, 1, n - 1)] = substr($i, n + 1) }
		k = kv["mod"] " " kv["local_func"]; keys[k]; v[side, k] = kv["spill_ld"] + 0; has[side, k] = 1 }
	END { for (k in keys) print k, has[1, k] ? v[1, k] : "null", has[2, k] ? v[2, k] : "null" }' "$1" "$2"
}
join_logs "$LOG" "$WORK/after.log" | sort >"$WORK/vs.want"
jq -r '.vs.functions[] | "\(.mod) \(.local_func) \(.before) \(.after)"' "$WORK/vs.json" | sort >"$WORK/vs.got"
check "--vs: every function's before/after equals the awk join" diff -q "$WORK/vs.want" "$WORK/vs.got"
check_eq "--vs: functions only before" "$(jq .vs.only_before "$WORK/vs.json")" "$(grep -c ' null$' "$WORK/vs.want")"
check_eq "--vs: functions only after" "$(jq .vs.only_after "$WORK/vs.json")" "$(gawk '$3 == "null"' "$WORK/vs.want" | wc -l)"
# sorted by |delta| (absent = 0), ties by mod, func
gawk '{ a = $3 == "null" ? 0 : $3; b = $4 == "null" ? 0 : $4; d = b - a; print (d < 0 ? -d : d), $1, $2 }' "$WORK/vs.want" |
	sort -k1,1nr -k2,2n -k3,3n | head -n 5 | cut -d' ' -f2- >"$WORK/vsord.want"
jq -r '.vs.functions[:5][] | "\(.mod) \(.local_func)"' "$WORK/vs.json" >"$WORK/vsord.got"
check "--vs: sorted by |delta|" diff -u "$WORK/vsord.want" "$WORK/vsord.got"
check_eq "--vs: spill_heavy moved by one reload" \
	"$(jq ".vs.functions[] | select(.local_func == $heavy) | .delta" "$WORK/vs.json")" -1
check "--vs: only-before functions are marked" grep -q 'only-before' "$WORK/vs.txt"

# with the recording: the hottest first, and its move spelled out
"$AOTPERF" spills "$LOG" -q --vs "$WORK/after.log" -i "$WORK/run.data" --cwasm "$S" \
	--json "$WORK/vsrun.json" >"$WORK/vsrun.txt"
formats spills "--vs, formats" "$WORK/vsrun.txt" "$WORK/vsrun.json"
check_eq "--vs with a recording: the hottest function first" \
	"$(jq '.vs.functions[0].local_func' "$WORK/vsrun.json")" "$hot_fn"
pct=$(gawk -v a="$HEAVY_LD" 'BEGIN { printf "%+.1f", 100 * ((a - 1) - a) / a }')
check "--vs with a recording: did the hot function's spill_ld move? ($HEAVY_LD -> $((HEAVY_LD - 1)))" \
	grep -qF "spill_ld $HEAVY_LD -> $((HEAVY_LD - 1)) ($pct%)" "$WORK/vsrun.txt"

# ---- a component: log modules are manifest idx ----
M=$FIX/comp.cwasm.json
{ gen_log "$FIX/comp.0.cwasm.syms" 0; gen_log "$FIX/comp.1.cwasm.syms" 1; } >"$WORK/comp.log"
record "$WORK/comp.data" -- --ms 1000 --mix spill_heavy:3,zext_heavy:1 --manifest "$M"
"$AOTPERF" report -q -i "$WORK/comp.data" --manifest "$M" --top 1000000 --json "$WORK/comp.report.json" >/dev/null
"$AOTPERF" spills "$WORK/comp.log" -q -i "$WORK/comp.data" --manifest "$M" --top 0 \
	--json "$WORK/comp.json" >"$WORK/comp.txt"
check_eq "component: exit status" "$?" 0
# every function of the log with samples in aotperf report, by (module idx, local_func)
gawk '/\[aot-spill-metric\]/ { for (i = 1; i <= NF; i++) { n = index($i, "="); if (n) kv[substr($i, 1, n - 1)] = substr($i, n + 1) }
	print kv["mod"], kv["local_func"] }' "$WORK/comp.log" >"$WORK/comp.keys"
jq -r '.cores[] | .module_idx as $m | .top_functions[] | "\($m) \(.local_func) \(.samples)"' \
	"$WORK/comp.report.json" | gawk 'NR == FNR { k[$1 " " $2]; next } ($1 " " $2) in k' "$WORK/comp.keys" - |
	sort >"$WORK/comp.want2"
jq -r '.functions[] | select(.samples > 0) | "\(.mod) \(.local_func) \(.samples)"' "$WORK/comp.json" |
	sort >"$WORK/comp.got"
check "component: per-module samples equal aotperf report's" diff -u "$WORK/comp.want2" "$WORK/comp.got"
check "component: both modules have joined samples" test "$(cut -d' ' -f1 "$WORK/comp.got" | sort -u | wc -l)" -eq 2
check "component: functions are labelled with their module" grep -q 'mod1 local_func_' "$WORK/comp.txt"

# a lone per-core file is mod 0 unless --mod says otherwise
gen_log "$FIX/comp.1.cwasm.syms" 1 >"$WORK/mod1.log"
"$AOTPERF" spills "$WORK/mod1.log" --cwasm "$FIX/comp.1.cwasm" --json "$WORK/mod1.json" >/dev/null 2>"$WORK/mod1.err"
check "lone core without --mod: warns that nothing matches" grep -q 'needs --mod N' "$WORK/mod1.err"
"$AOTPERF" spills "$WORK/mod1.log" --cwasm "$FIX/comp.1.cwasm" --mod 1 --json "$WORK/mod1.json" >/dev/null 2>"$WORK/mod1.err"
check_eq "lone core with --mod 1: no warning" "$(wc -c <"$WORK/mod1.err")" 0
check_eq "lone core with --mod 1: spill_heavy cross-checked" \
	"$(jq ".functions[] | select(.name == \"spill_heavy\") | .static_frame_loads" "$WORK/mod1.json")" "$HEAVY_LD"

# ---- errors: one line naming the file and line, exit 2, nothing written ----
fails() { # fails DESC PATTERN ARGS...: exit 2, one stderr line matching, no JSON
	local d=$1 pat=$2; shift 2
	rm -f "$WORK/err.json"
	"$AOTPERF" spills "$@" --json "$WORK/err.json" >"$WORK/err.out" 2>"$WORK/err.txt"
	local rc=$?
	if [ $rc -eq 2 ] && [ "$(wc -l <"$WORK/err.txt")" -eq 1 ] && grep -qF -- "$pat" "$WORK/err.txt" &&
		[ ! -e "$WORK/err.json" ] && [ ! -s "$WORK/err.out" ]; then
		ok "$d"
	else
		bad "$d: rc=$rc, stderr: $(cat "$WORK/err.txt")"
	fi
}
# break the first metric line from line 100 on, and another from line 200 on
gawk 'FNR >= 100 && /\[aot-spill-metric\]/ && !done { sub(/spill_ld=[0-9]+/, "spill_ld=many"); done = 1 } 1' \
	"$LOG" >"$WORK/bad.log"
badline=$(grep -n 'spill_ld=many' "$WORK/bad.log" | cut -d: -f1)
fails "malformed spill_ld names LOG:LINE" "$WORK/bad.log:$badline: malformed" "$WORK/bad.log"
gawk 'FNR >= 200 && /\[aot-spill-metric\]/ && !done { sub(/local_func=[0-9]+/, ""); done = 1 } 1' \
	"$LOG" >"$WORK/nofunc.log"
nofunc=$(diff "$LOG" "$WORK/nofunc.log" | gawk '/^[0-9]+c[0-9]+$/ { split($1, a, "c"); print a[1]; exit }')
fails "missing local_func names LOG:LINE" "$WORK/nofunc.log:$nofunc: malformed [aot-spill-metric] line: no local_func" "$WORK/nofunc.log"
"$AOTPERF" spills "$WORK/bad.log" --lenient --json "$WORK/len.json" >/dev/null 2>"$WORK/len.err"
check_eq "--lenient: exit status" "$?" 0
check "--lenient: warns with LOG:LINE" grep -qF "$WORK/bad.log:$badline: skipped" "$WORK/len.err"
check_eq "--lenient: one function fewer" "$(jq .function_count "$WORK/len.json")" $(( $(jq .function_count "$WORK/rank.json") - 1 ))
pat="\[aot-spill-metric\].* local_func=$heavy "
{ cat "$LOG"; grep -m1 "$pat" "$LOG"; } >"$WORK/dup.log"
l1=$(grep -n "$pat" "$WORK/dup.log" | head -n1 | cut -d: -f1)
l2=$(grep -n "$pat" "$WORK/dup.log" | tail -n1 | cut -d: -f1)
fails "repeated (mod, local_func) names both lines" "$WORK/dup.log:$l2: mod 0 local_func $heavy repeats line $l1" "$WORK/dup.log"
fails "--lenient does not excuse a repeat" "repeats line $l1" "$WORK/dup.log" --lenient
printf '[aot-codegen-timing] x=1\n' >"$WORK/none.log"
fails "a log without metric lines" "no usable [aot-spill-metric] lines" "$WORK/none.log"
fails "a missing log" "$WORK/missing.log: No such file" "$WORK/missing.log"
fails "--sort of an absent field" "no numeric field 'nonesuch'" "$LOG" --sort nonesuch
nf=$(wc -l <"$SYMS")
{ cat "$LOG"; echo "[aot-spill-metric] local_func=$nf mod=0 spill_ld=3"; } >"$WORK/past.log"
fails "a function past the core's count" "local_func $nf, but" "$WORK/past.log" --cwasm "$S"
fails "--pid without -i" "need -i" "$LOG" --pid 1
fails "no LOG" "no LOG given" --top 3
fails "--vs of a malformed log" "$WORK/bad.log:$badline:" "$LOG" --vs "$WORK/bad.log"
fails "two lone cores of one module" "give --mod N" "$LOG" --cwasm "$S" --cwasm "$FIX/sample_v6.cwasm"

finish
