#!/usr/bin/env bash
# report --levers, the run's lever table (docs/levers.md), on the workload
# of tests/fixtures/workload.S (three hot functions, each bound by another
# lever, and one no lever touches), recorded with the loader. Every number
# is checked against an independent computation (timing against measured
# builds is lever_whatif.sh's, the one timed test):
#
#  1. the table's functions are the hottest until 90% of the wasm samples
#     (perf script's counts per function, ref_attr.awk), and
#     --levers-share/--levers-max change both;
#  2. each modelled loop: its self samples = perf script's ips in its
#     blocks; its llvm-mca input reruns to its cycles; each lever's what-if
#     on the base build = the model of the variant build without the lever
#     (NOZEXT, NOBOUNDS, NOICALL; report --func static), 1%;
#  3. each lever's predicted run payoff = the sum over the modelled loops of
#     (perf script's samples in the loop / all its samples) x (1 - the
#     variant's cycles / the base's cycles), computed here with awk; the
#     rows in payoff order and the verdict names the first and its margin;
#  4. text at 80 columns, the Markdown's rows (cmark-gfm) = the JSON's, the
#     page in Chromium: its lever table and chart are the document's;
#  5. levers.S: a br_table's dispatch is "not modelled" (the row says why,
#     its share of the run stated); a spill log reconciles the frame lever
#     (frame loads counted here from objdump);
#  6. without llvm-mca the table says how to get it; without a recording
#     the largest functions' mean loop savings; bad options exit 2 with one
#     line and write nothing.
. "$(dirname "$0")/lib/common.sh"
. "$E2E/lib/asmcore.sh"
. "$E2E/lib/mca.sh"
ROOT=$(cd "$E2E/../.." && pwd)
need_mca
jqe() { jq -e "$@" >/dev/null; }	# a jq test, quiet
within() { # A B PCT: |A - B| <= PCT% of |B| (+0.011 for 2 decimals)
	gawk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; if (b < 0) b = -b
		exit !(d <= p / 100 * b + 0.011) }'
}

W="zext_move:NOZEXT:wl_mix bounds_check:NOBOUNDS:wl_sum dispatch:NOICALL:wl_visit"
asm_core "$E2E/../fixtures/workload.S" "$WORK/wl.cwasm"
check_eq "workload.S assembles" "$?" 0
for lw in $W; do
	v=$(cut -d: -f2 <<<"$lw")
	asm_core "$E2E/../fixtures/workload.S" "$WORK/$v.cwasm" --defsym "$v=1" ||
		bad "workload.S $v=1"
done
record "$WORK/wl.data" -- --trips 200000 --mix wl_run:1 "$WORK/wl.cwasm"
check_eq "recorded the workload" "$?" 0
"$AOTPERF" report -q -i "$WORK/wl.data" --cwasm "$WORK/wl.cwasm" --levers --json "$WORK/r.json" \
	--markdown "$WORK/r.md" --html "$WORK/r.html" >"$WORK/r.txt"
check_eq "report --levers --json --markdown --html: exit 0" "$?" 0
J=$WORK/r.json
mcpu=$(jq -r '.levers.mcpu' "$J")

# ---- 1. the functions: the hottest until 90% of the wasm samples ----
reference "$WORK/wl.data" "$WORK/wl.cwasm.syms" >"$WORK/ref"
gawk 'NR == FNR { name[$1] = $4; next } $1 == "FUNC" { print $3, name[$2] }' \
	"$WORK/wl.cwasm.syms" "$WORK/ref" | sort -k1,1nr >"$WORK/ref.funcs"
wasm=$(gawk '{ s += $1 } END { print s }' "$WORK/ref.funcs")
want=$(gawk -v w="$wasm" -v share=90 -v max=20 '{ if (n >= max || 100 * s >= share * w) exit
	s += $1; n++; printf "%s ", $2 }' "$WORK/ref.funcs")
check_eq "the table's functions: the hottest until 90% of the wasm samples" \
	"$(jq -r '[.levers.functions[].name] | join(" ")' "$J") " "$want"
check_eq "function_samples: their samples (perf script)" "$(jq '.levers.function_samples' "$J")" \
	"$(gawk -v n="$(wc -w <<<"$want")" 'NR <= n { s += $1 } END { print s }' "$WORK/ref.funcs")"
check_eq "run_samples: every sample (perf script)" "$(jq '.levers.run_samples' "$J")" \
	"$(gawk '$1 == "TOTAL" { print $2 }' "$WORK/ref")"
"$AOTPERF" report -q -i "$WORK/wl.data" --cwasm "$WORK/wl.cwasm" --levers --levers-max 1 \
	--json "$WORK/max1.json" >/dev/null
check_eq "--levers-max 1: the hottest function alone" \
	"$(jq -r '[.levers.functions[].name] | join(" ")' "$WORK/max1.json")" "$(head -1 "$WORK/ref.funcs" | cut -d' ' -f2)"
"$AOTPERF" report -q -i "$WORK/wl.data" --cwasm "$WORK/wl.cwasm" --levers --levers-share 99.9 \
	--json "$WORK/all.json" >/dev/null
check "--levers-share 99.9: more functions than the default" \
	test "$(jq '.levers.functions | length' "$WORK/all.json")" -gt "$(jq '.levers.functions | length' "$J")"

# ---- 2. the modelled loops ----
base=$(jq '.cores[0].mapping.base' "$J")
perf script -i "$WORK/wl.data" -F ip 2>/dev/null >"$WORK/ips"
total=$(wc -l <"$WORK/ips")
: >"$WORK/expect"
for lw in $W; do
	lever=${lw%%:*} v=$(cut -d: -f2 <<<"$lw") f=${lw##*:}
	q=".levers.functions[] | select(.name == \"$f\") | .modelled_loops[0]"
	check "$f: in the table with a modelled loop" jqe "$q | .cycles_per_iteration > 0" "$J"
	foff=$(gawk -v f="$f" '$4 == f { print strtonum($2) }' "$WORK/wl.cwasm.syms")
	jq -r "$q | .blocks[] | \"\(.[0]) \(.[1])\"" "$J" >"$WORK/$f.blocks"
	self=$(gawk -v base="$base" -v foff="$foff" 'NR == FNR { lo[NR] = $1; hi[NR] = $2; n = NR; next }
		{ o = strtonum("0x" $1) - base - foff
		  for (i = 1; i <= n; i++) if (o >= lo[i] && o < hi[i]) { c++; break } }
		END { print c + 0 }' "$WORK/$f.blocks" "$WORK/ips")
	check_eq "$f: the loop's self samples = perf script's ips in its blocks" \
		"$(jq "$q | .self_samples" "$J")" "$self"
	jq -r "$q | .input" "$J" >"$WORK/$f.s"
	cb=$(mca_cycles "$mcpu" "$WORK/$f.s")
	check "$f: its input reruns to its cycles ($cb)" within "$(jq "$q | .cycles_per_iteration" "$J")" "$cb" 0
	(cd "$WORK" && "$AOTPERF" report -q --cwasm "$v.cwasm" --func "$f" --json "$v.json" >/dev/null)
	cv=$(jq '.classified_functions[0].loops[0].model.cycles_per_iteration' "$WORK/$v.json")
	wi=$(jq "$q | .whatif.$lever.cycles_per_iteration" "$J")
	check "$f: what-if $lever ($wi) = the $v build's model ($cv), 1%" within "$wi" "$cv" 1
	echo "$lever $self $cb $cv" >>"$WORK/expect"
done

# ---- 3. the run payoffs, recomputed ----
declare -A expv=()
for lw in $W; do
	lever=${lw%%:*}
	got=$(jq -r ".levers.rows[] | select(.lever == \"$lever\") | .payoff_pct" "$J")
	exp=$(gawk -v l="$lever" -v t="$total" '$1 == l { p += $2 / t * (1 - $4 / $3) } END { printf "%.2f", 100 * p }' \
		"$WORK/expect")
	if [ "$got" = null ]; then
		# a part of a lever the kernel pairs did not confirm on this CPU model
		# (docs/levers.md): no number, the reason instead
		check "$lever: not modelled on $mcpu, and why" jqe --arg l "$lever" --arg m "$mcpu" \
			'.levers.rows[] | select(.lever == $l) | .not_modelled | contains($m)' "$J"
		continue
	fi
	expv[$lever]=$exp
	check "$lever: predicted run payoff $got% = (loop samples / run) x (1 - variant / base) = $exp%" \
		gawk -v a="$got" -v b="$exp" 'BEGIN { d = a - b; exit !(d < 0.15 && d > -0.15) }'
done
check "each row's payoff = the sum of its functions' shares (functions[].levers)" jqe '.levers as $l |
	[$l.rows[] | select(.payoff_pct != null) | .lever as $v | (.payoff_pct - ([$l.functions[].levers[$v].payoff_pct //
	0] | add)) | fabs < 0.05] | all' "$J"
check "rows in payoff order" jqe '[.levers.rows[] | select(.payoff_pct != null) | .payoff_pct] |
	. == (sort | reverse)' "$J"
first=$(jq -r '[.levers.rows[] | select(.payoff_pct != null)][0].lever' "$J")
# the one the computation above puts first: zero-extends on the CPU models
# seen here (40% of the run at ~50% a loop), but a model can price them at
# nothing (0.0% on one CI machine's), and then another lever leads
want_first=$(for l in "${!expv[@]}"; do echo "${expv[$l]} $l"; done | sort -k1,1gr | head -n1 | cut -d' ' -f2)
check_eq "the first lever: the largest payoff computed here (${expv[$want_first]}% $mcpu)" "$first" "$want_first"
words=$(gawk -v l="$first" 'BEGIN { w["zext_move"] = "zero-extends"; w["bounds_check"] = "bounds checks"
	w["dispatch"] = "dispatch"; print w[l] }')
margin=$(jq -r '[.levers.rows[] | select(.payoff_pct != null)] | .[0].payoff_pct - .[1].payoff_pct |
	. * 10 | round / 10' "$J")
# the JSON's payoffs are rounded, the verdict's margin is not: 0.1 apart at most
check "the verdict names it and its margin ($margin points)" \
	jqe --arg w "pays most: $words" --argjson m "$margin" \
	'.levers.verdict | startswith($w) and
	 ((capture("(?<v>[0-9.]+) points more").v | tonumber) - $m | fabs <= 0.1001)' "$J"
check "unmodelled_pct = 100 - modelled_pct" jqe '.levers | (.unmodelled_pct + .modelled_pct - 100) |
	fabs < 0.02' "$J"

# ---- 4. text, Markdown, page ----
check "text: the lever table and its verdict" grep -q "^  verdict: pays most" "$WORK/r.txt"
check "text: 80 columns" test "$(gawk '{ if (length > m) m = length } END { print m + 0 }' "$WORK/r.txt")" -le 80
if command -v cmark-gfm >/dev/null; then
	cmark-gfm -e table "$WORK/r.md" >"$WORK/r.md.html"
	# each row as cmark-gfm renders it: "lever payoff" (the cells' text)
	tr -d '\n' <"$WORK/r.md.html" | sed 's|</tr>|</tr>\n|g' |
		gawk -F '</td>' '/<td><code>/ { l = $1; sub(/.*<code>/, "", l); sub(/<.*/, "", l)
			p = $6; sub(/.*>/, "", p); print l, p }' >"$WORK/md.rows"
	for lw in $W; do
		lever=${lw%%:*}
		row=$(jq -r ".levers.rows[] | select(.lever == \"$lever\") | .payoff_pct" "$J")
		check "Markdown: the $lever row's payoff ($(gawk -v l="$lever" '$1 == l { print $2 }' "$WORK/md.rows") = $row%)" \
			gawk -v l="$lever" -v want="$row" '$1 == l { d = $2 + 0 - want; ok = d < 0.051 && d > -0.051 }
				END { exit !ok }' "$WORK/md.rows"
	done
else
	echo "skip: Markdown: no cmark-gfm"
fi
why=""
command -v node >/dev/null || why="no node"
[ -n "$why" ] || [ -d "$ROOT/tests/browser/node_modules/playwright-core" ] ||
	why="playwright-core is not installed (bash tests/browser/setup.sh)"
if [ -z "$why" ]; then
	(cd "$ROOT/tests/browser" && node levers.js --page "$WORK/r.html" --doc "$J" \
		--shot "$WORK/levers.png") >"$WORK/b.check" 2>&1
	while read -r line; do
		case $line in
		ok:*) ok "browser: ${line#ok: }" ;;
		FAIL:*) bad "browser: ${line#FAIL: }" ;;
		esac
	done <"$WORK/b.check"
	grep -q "^ok: " "$WORK/b.check" || { bad "browser: no checks ran"; cat "$WORK/b.check"; }
	[ -n "${LEVERS_SHOT:-}" ] && cp "$WORK/levers.png" "$LEVERS_SHOT"
elif [ -n "${CI:-}" ]; then
	bad "browser checks are required here but cannot run: $why"
else
	echo "skip: browser checks: $why"
fi

# ---- 5. not modelled: a br_table's dispatch; the spill log ----
asm_core "$E2E/../fixtures/levers.S" "$WORK/lv.cwasm" --defsym WITH=1 >/dev/null 2>&1
record "$WORK/lv.data" -- --ms 1500 --mix lv_dispatch:1,lv_frame:1 "$WORK/lv.cwasm"
check_eq "recorded levers.S" "$?" 0
fidx=$(gawk '$4 == "lv_frame" { print $1 }' "$WORK/lv.cwasm.syms")
printf 'noise\n[aot-spill-metric] mod=0 local_func=%s insts=30 spill_ld=1 spill_st=1\n' "$fidx" >"$WORK/spill.log"
"$AOTPERF" report -q -i "$WORK/lv.data" --cwasm "$WORK/lv.cwasm" --levers --spill-log "$WORK/spill.log" \
	--json "$WORK/lv.json" >"$WORK/lv.txt"
check_eq "levers.S: report --levers --spill-log" "$?" 0
check "dispatch: not modelled, with the reason" jqe '.levers.rows[] | select(.lever == "dispatch") |
	.payoff_pct == null and .unmodelled_loops == 1 and (.not_modelled | test("br_table"))' "$WORK/lv.json"
lvd=$(gawk '$4 == "lv_dispatch" { print $1 }' "$WORK/lv.cwasm.syms")
check "its share of the run: the lv_dispatch loop's self samples / run" \
	jqe --argjson f "$lvd" '.levers as $l | ($l.functions[] | select(.local_func == $f) |
	.modelled_loops[0].self_samples) as $s | ($l.rows[] | select(.lever == "dispatch") | .unmodelled_pct) as $u |
	(100 * $s / $l.run_samples - $u | fabs) < 0.01' "$WORK/lv.json"
check "text: dispatch not modelled" grep -q "dispatch: not modelled in 1 loop" "$WORK/lv.txt"
# lv_frame's frame loads from objdump: loads from a frame slot below the vmctx slot
objdump -d -M intel --no-show-raw-insn "$WORK/lv.o" | gawk '/<lv_frame>:/ { on = 1; next } /^$/ { on = 0 }
	on && /mov +e[a-z]+,DWORD PTR \[rbp-0x[0-9a-f]+\]/ { n++ } END { print n + 0 }' >"$WORK/nload"
check_eq "spill log: lv_frame's spill_ld and its frame loads (objdump)" \
	"$(jq -c --argjson f "$fidx" '.levers.functions[] | select(.local_func == $f) | [.spill_ld, .frame_loads, .frame_loads_in_loops]' \
		"$WORK/lv.json")" "[1,$(cat "$WORK/nload"),$(cat "$WORK/nload")]"
check "text: the frame lever reconciled with the log" grep -q "local_func_$fidx: spill_ld 1, 1 frame loads" "$WORK/lv.txt"

# ---- 6. no llvm-mca, no recording, bad options ----
AOTPERF_LLVM_MCA= "$AOTPERF" report -q -i "$WORK/wl.data" --cwasm "$WORK/wl.cwasm" --levers \
	--json "$WORK/nomca.json" >"$WORK/nomca.txt"
check_eq "no llvm-mca: exit 0" "$?" 0
check "no llvm-mca: the table says make deps" jqe '.levers.model_note | test("make deps")' \
	"$WORK/nomca.json"
check "no llvm-mca: no payoffs" jqe '[.levers.rows[].payoff_pct] | all(. == null)' "$WORK/nomca.json"
(cd "$WORK" && "$AOTPERF" report -q --cwasm wl.cwasm --levers --json static.json >static.txt)
check_eq "no recording: exit 0" "$?" 0
check "no recording: static, every loop of the largest functions" jqe '.levers.static and
	(.levers.functions | length) > 0 and ([.levers.rows[] | select(.payoff_pct != null)] | length) > 0' \
	"$WORK/static.json"
check "no recording: the text says so" grep -q "levers (no recording)" "$WORK/static.txt"
check "no recording: no samples nor run shares in the text" \
	bash -c "grep -q '^  lever .* mean loop saving' '$WORK/static.txt' && ! grep -qE '%run|of the run\)' '$WORK/static.txt'"
for a in "--levers-share 0" "--levers-share 101" "--levers-max 0" "--levers-loop-min x" \
	"--spill-log $WORK/nope.log"; do
	# shellcheck disable=SC2086
	"$AOTPERF" report -q -i "$WORK/wl.data" --cwasm "$WORK/wl.cwasm" $a --json "$WORK/bad.json" \
		>"$WORK/bad.out" 2>"$WORK/bad.err"
	rc=$?
	check "$a: exit 2, one line, no output file" test "$rc" -eq 2 -a "$(wc -l <"$WORK/bad.err")" -eq 1 \
		-a ! -e "$WORK/bad.json"
done
"$AOTPERF" report -q -i "$WORK/wl.data" -i "$WORK/wl.data" --cwasm "$WORK/wl.cwasm" --levers \
	>/dev/null 2>"$WORK/bad.err"
check_eq "--levers with two -i: exit 2" "$?" 2
finish
