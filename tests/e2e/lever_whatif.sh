#!/usr/bin/env bash
# tests/run.sh: alone
# Hot loops and the lever what-if against reality: kernel pairs
# (tests/fixtures/levers.S) built with and without one lever's
# instructions, recorded with perf and reported with --func.
#
#  1. the hottest loop of each kernel is found, with its samples (== the
#     sum of the instructions' samples in the blocks it names);
#  2. the model: the what-if of a lever on the "with" build equals the
#     model of the "without" build (deterministic: same llvm-mca, same
#     input but for the lever: tolerance 1%, llvm-mca's own rounding);
#  3. the -mcpu comes from the recording's cpuid, read here with
#     `perf report --header-only` (not by aotperf);
#  4. predicted payoff against measured: both builds timed in alternating
#     runs on this machine, median ns per loop trip; measured payoff =
#     1 - t_without / t_with. The machine is shared and noisy, and the model
#     assumes L1 hits: checked is the direction and rough size only: a
#     lever predicted to pay (>= 5%) must measure >= 2%; one predicted
#     not to (< 2%) must measure under 10%, the same tolerance either way;
#     a round that disagrees is measured again, up to 3 rounds. A br_table's
#     dispatch is measured and reported, not checked: the lever table calls
#     it not modelled (docs/levers.md) because these pairs disagree with the
#     model: lv_dispatch (the table against direct branches, what the
#     lever models) and lv_chain (against a compare-and-branch chain).
#  5. without llvm-mca the loops are still shown and the model section
#     says how to get it; a report without --func/--hot never runs it.
#  6. the run's lever table against measured builds (report --levers on
#     tests/fixtures/workload.S, docs/levers.md): each lever removed from
#     its function in a variant build; the time of a fixed number of trips
#     (perf stat task-clock) of the four builds alternating, 30 rounds, each
#     build's time the mean of its 6 fastest (the fastest alone is at the
#     mercy of one quiet, turbo moment on a shared machine); measured run
#     payoff = 1 - t_variant / t_base. The levers rank as the builds do
#     (each pair whose predictions differ by more than the larger of their
#     tolerances: closer is no claim), and each predicted run payoff is
#     within its tolerance (the JSON's tolerance_pct: the model's) plus the
#     measurement's noise (the larger half spread, (slowest - fastest) /
#     2 over the mean, of the two builds' 6 fastest runs) of the measured
#     one; up to 3 rounds of measuring, as in 4.
#  7. predicted against achieved: diff --levers of the workload against
#     each variant build, each recorded doing the same work: the run's
#     time before and after = perf script's periods summed, achieved =
#     100 x (1 - after / before) of them, each function's achieved saving
#     = its periods' change over the before run (ref_attr.awk), the
#     predictions = report --levers' on the same before recording; the
#     verdict and the fastest runs' payoff of 6 printed beside them;
#     without llvm-mca no prediction and the verdict says how to get one.
# LEVER_REPORT=FILE appends the predicted/measured table there.
. "$(dirname "$0")/lib/common.sh"
. "$E2E/lib/asmcore.sh"

MCA=""
for c in /usr/lib/llvm-*/bin/llvm-mca; do [ -x "$c" ] && MCA=$c; done
[ -z "$MCA" ] && MCA=$(command -v llvm-mca || true)

KERNELS="lv_zext:zext_move lv_frame:frame lv_bounds:bounds_check lv_vmctx:vmctx_reload
	lv_icall:dispatch"
ALL="lv_zext lv_frame lv_bounds lv_vmctx lv_dispatch lv_chain lv_icall"
for w in 1 0; do
	asm_core "$E2E/../fixtures/levers.S" "$WORK/w$w.cwasm" --defsym WITH=$w
	check_eq "levers.S assembles with WITH=$w" "$?" 0
done
mix=$(printf '%s:1,' $ALL)
mix=${mix%,}
fargs=()
for f in $ALL; do fargs+=(--func "$f"); done
for w in 1 0; do
	record "$WORK/w$w.data" -- --ms 5000 --mix "$mix" "$WORK/w$w.cwasm"
	check_eq "recorded build WITH=$w" "$?" 0
	"$AOTPERF" report -q -i "$WORK/w$w.data" --cwasm "$WORK/w$w.cwasm" "${fargs[@]}" \
		--json "$WORK/w$w.json" >"$WORK/w$w.txt"
	check_eq "report --func, WITH=$w" "$?" 0
done

# 1. loops: one per kernel; its samples == perf script's sample ips inside its blocks
for w in 1 0; do
	base=$(jq '.cores[0].mapping.base' "$WORK/w$w.json")
	perf script -i "$WORK/w$w.data" -F ip 2>/dev/null >"$WORK/w$w.ips"
	for f in $ALL; do
		q=".classified_functions[] | select(.name == \"$f\")"
		check_eq "$f WITH=$w: one loop, depth 1" \
			"$(jq -r "[$q | .loops[] | .depth] | map(tostring) | join(\",\")" "$WORK/w$w.json")" 1
		check "$f WITH=$w: the loop holds most of the function's samples" \
			jq -e "$q | .loops[0].samples * 10 >= .samples * 8 and .samples >= 100" \
			"$WORK/w$w.json" >/dev/null
		foff=$(gawk -v f="$f" '$4 == f { print strtonum($2) }' "$WORK/w$w.cwasm.syms")
		jq -r "$q | .loops[0].blocks[] | \"\(.[0]) \(.[1])\"" "$WORK/w$w.json" >"$WORK/$f.$w.blocks"
		ref=$(gawk -v base="$base" -v foff="$foff" 'NR == FNR { lo[NR] = $1; hi[NR] = $2; n = NR; next }
			{ o = strtonum("0x" $1) - base - foff
			  for (i = 1; i <= n; i++) if (o >= lo[i] && o < hi[i]) { c++; break } }
			END { print c + 0 }' "$WORK/$f.$w.blocks" "$WORK/w$w.ips")
		check_eq "$f WITH=$w: loop samples == perf script's ips in its blocks" \
			"$(jq "$q | .loops[0].samples" "$WORK/w$w.json")" "$ref"
	done
done
check "text: the hottest loop's listing and the verdict" \
	grep -q "hot loops" "$WORK/w1.txt"
check "text: a verdict line per modelled function" \
	test "$(grep -c 'verdict:' "$WORK/w1.txt")" -eq 7

if [ -z "$MCA" ]; then
	echo "skip: no llvm-mca installed (make deps installs llvm)"
	finish
	exit
fi

# 3. the CPU model: from the recording's header, read independently
cpuid=$(perf report -i "$WORK/w1.data" --header-only 2>/dev/null | sed -n 's/^# cpuid : //p')
reason=$(jq -r '.classified_functions[0].loops[0].model.mcpu_reason' "$WORK/w1.json")
check "mcpu_reason names the recording's cpuid ($cpuid)" grep -qF "cpuid $cpuid" <<<"$reason"
mcpu=$(jq -r '.classified_functions[0].loops[0].model.mcpu' "$WORK/w1.json")
check "-mcpu $mcpu is one llvm-mca knows" \
	bash -c "'$MCA' -mtriple=x86_64-unknown-linux-gnu -mcpu=help </dev/null 2>&1 | grep -qw -- '$mcpu'"
# the input in the JSON reruns to the same cycles
jq -r '.classified_functions[2].loops[0].model.input' "$WORK/w1.json" >"$WORK/in.s"
rerun=$("$MCA" -mcpu="$mcpu" -iterations=100 "$WORK/in.s" 2>/dev/null |
	awk '/^Iterations:/ { i = $2 } /^Total Cycles:/ { c = $3 } END { printf "%.2f", c / i }')
check_eq "lv_bounds: the JSON's input reruns to its cycles_per_iteration" "$rerun" \
	"$(jq -r '.classified_functions[2].loops[0].model.cycles_per_iteration | . * 100 | round / 100 | tostring' \
		"$WORK/w1.json" | awk '{ printf "%.2f", $1 }')"

# 2. what-if on "with" == model of "without"
for kl in $KERNELS; do
	f=${kl%%:*} lv=${kl#*:}
	q=".classified_functions[] | select(.name == \"$f\") | .loops[0]"
	wi=$(jq "$q | .whatif.$lv.cycles_per_iteration" "$WORK/w1.json")
	rm=$(jq "$q | .whatif.$lv.removed" "$WORK/w1.json")
	wo=$(jq "$q | .model.cycles_per_iteration" "$WORK/w0.json")
	check "$f: the lever touches instructions ($rm)" test "$rm" -gt 0
	check "$f: what-if $lv on WITH=1 ($wi) == model of WITH=0 ($wo), 1%" \
		awk -v a="$wi" -v b="$wo" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.01 * b) }'
	check_eq "$f: nothing left for $lv on WITH=0" \
		"$(jq "$q | .whatif.$lv.removed" "$WORK/w0.json")" 0
done

# 4. measured: CPU ns per trip (perf stat task-clock: time spent descheduled
# on a shared machine is left out), the builds alternating, each assembled
# with its loops at 4 offsets from a 64-byte boundary (levers.S: placement
# alone moves these small loops by up to 40%); the median of the 8 runs
# per build
for pad in 0 16 32 48; do
	for w in 1 0; do
		asm_core "$E2E/../fixtures/levers.S" "$WORK/p$pad.w$w.cwasm" --defsym WITH=$w \
			--defsym PAD=$pad >/dev/null || bad "levers.S PAD=$pad WITH=$w"
	done
done
ns_per_trip() { # CWASM KERNEL
	local trips ms
	trips=$(perf stat -x, -e task-clock -o "$WORK/stat" -- "$LOADER" --ms 200 --mix "$2:1" "$1" 2>&1 \
		>/dev/null | sed -n 's/.* done: [0-9]* calls, \([0-9]*\) trips.*/\1/p')
	ms=$(awk -F, '$3 ~ /^task-clock/ { print $1 }' "$WORK/stat")
	awk -v t="$trips" -v ms="$ms" 'BEGIN { printf "%.4f\n", ms * 1e6 / t }'
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# measure KERNEL: $meas (payoff %), $t1 and $t0 (median ns per trip)
measure() {
	: >"$WORK/$1.t1"
	: >"$WORK/$1.t0"
	for _ in 1 2; do
		for pad in 0 16 32 48; do
			ns_per_trip "$WORK/p$pad.w1.cwasm" "$1" >>"$WORK/$1.t1"
			ns_per_trip "$WORK/p$pad.w0.cwasm" "$1" >>"$WORK/$1.t0"
		done
	done
	t1=$(median <"$WORK/$1.t1")
	t0=$(median <"$WORK/$1.t0")
	meas=$(awk -v a="$t1" -v b="$t0" 'BEGIN { printf "%.1f", 100 * (1 - b / a) }')
}
# fits PRED MEAS: the measured payoff agrees with the prediction (above)
jqe() { jq -e "$@" >/dev/null; }	# a jq test, quiet
fits() {
	awk -v p="$1" -v m="$2" 'BEGIN { if (p >= 5) exit !(m >= 2); if (p < 2) exit !(m < 10 && m > -10) }'
}
for kl in $KERNELS; do
	f=${kl%%:*} lv=${kl#*:}
	pred=$(jq ".classified_functions[] | select(.name == \"$f\") | .loops[0].whatif.$lv.payoff_pct" \
		"$WORK/w1.json")
	# a round that disagrees is measured again, up to 3 rounds: a busy
	# neighbour on a shared VM (another build on the sibling hyperthread)
	# moved one round of these loops by 28%; the last round decides
	rounds=""
	for round in 1 2 3; do
		measure "$f"
		rounds="$rounds${rounds:+, }$meas%"
		fits "$pred" "$meas" && break
	done
	echo "$f $lv: predicted ${pred}% measured ${meas}% (median ns/trip with $t1, without $t0; $mcpu; rounds: $rounds)"
	[ -n "${LEVER_REPORT:-}" ] &&
		echo "$f $lv predicted ${pred}% measured ${meas}% with ${t1}ns without ${t0}ns $mcpu" >>"$LEVER_REPORT"
	if [ "$pred" = null ]; then
		# not confirmed on this CPU model (docs/levers.md): the reason, no number
		check "$f: $lv not modelled on $mcpu, and why (measured ${meas}%)" jqe --arg m "$mcpu" \
			".classified_functions[] | select(.name == \"$f\") | .loops[0].whatif.$lv.not_modelled |
			 contains(\$m)" "$WORK/w1.json"
	elif awk -v p="$pred" 'BEGIN { exit !(p >= 5) }'; then
		check "$f: predicted to pay (${pred}%), measured ${meas}% >= 2%" fits "$pred" "$meas"
	elif awk -v p="$pred" 'BEGIN { exit !(p < 2) }'; then
		check "$f: predicted not to pay (${pred}%), measured ${meas}% within 10% of 0" \
			fits "$pred" "$meas"
	fi
done

# a br_table's dispatch against direct branches and against a compare chain: measured, reported
for f in lv_dispatch lv_chain; do
	pred=$(jq ".classified_functions[] | select(.name == \"$f\") | .loops[0].whatif.dispatch.payoff_pct" \
		"$WORK/w1.json")
	measure "$f"
	echo "$f dispatch (not modelled): predicted ${pred}% measured ${meas}% (median ns/trip with $t1, without $t0; $mcpu)"
	[ -n "${LEVER_REPORT:-}" ] &&
		echo "$f dispatch predicted ${pred}% measured ${meas}% with ${t1}ns without ${t0}ns $mcpu" >>"$LEVER_REPORT"
done

# 6. the run's lever table against the workload's variant builds
W="zext_move:NOZEXT bounds_check:NOBOUNDS dispatch:NOICALL"
asm_core "$E2E/../fixtures/workload.S" "$WORK/wl.cwasm" >/dev/null || bad "workload.S"
for lw in $W; do
	asm_core "$E2E/../fixtures/workload.S" "$WORK/wl.${lw#*:}.cwasm" --defsym "${lw#*:}=1" >/dev/null ||
		bad "workload.S ${lw#*:}=1"
done
record "$WORK/wl.data" -- --trips 200000 --mix wl_run:1 "$WORK/wl.cwasm"
check_eq "workload recorded" "$?" 0
"$AOTPERF" report -q -i "$WORK/wl.data" --cwasm "$WORK/wl.cwasm" --levers --json "$WORK/wl.json" \
	>"$WORK/wl.txt"
check_eq "report --levers on the workload" "$?" 0
ms_of() { # CWASM: CPU ms of 20000 trips
	perf stat -x, -e task-clock -o "$WORK/wstat" -- "$LOADER" --trips 20000 --mix wl_run:1 "$1" \
		>/dev/null 2>&1
	awk -F, '$3 ~ /^task-clock/ { print $1 }' "$WORK/wstat"
}
# 30 alternating rounds; per build the mean of its 6 fastest and their half
# spread, 50 x (slowest - fastest) / mean: $WORK/wl.fastest "NAME MS SPREAD"
measure_wl() {
	: >"$WORK/wl.times"
	for _ in $(seq 30); do
		echo "base $(ms_of "$WORK/wl.cwasm")" >>"$WORK/wl.times"
		for lw in $W; do
			echo "${lw#*:} $(ms_of "$WORK/wl.${lw#*:}.cwasm")" >>"$WORK/wl.times"
		done
	done
	sort -k1,1 -k2,2g "$WORK/wl.times" | awk '$1 != k { k = $1; n = 0; lo[k] = $2 }
		++n <= 6 { s[$1] += $2; hi[$1] = $2 }
		END { for (k in s) print k, s[k] / 6, 50 * (hi[k] - lo[k]) / (s[k] / 6) }' >"$WORK/wl.fastest"
}
# the levers' order where the model claims one: each pair whose predicted
# payoffs differ by more than the larger of their tolerances is measured in
# that order (a pair closer than that is no claim, and not checked)
ranks_agree() {
	gawk '$2 != "null" { n++; l[n] = $1; p[n] = $2; t[n] = $3; m[n] = $4 }
		END { for (i = 1; i <= n; i++) for (k = 1; k <= n; k++)
			if (p[i] - p[k] > (t[i] > t[k] ? t[i] : t[k]) && !(m[i] > m[k])) {
				print l[i] " over " l[k] " claimed, not measured"; bad = 1 }
		      exit bad }' "$WORK/wl.pm"
}
# within PRED TOL MEAS NOISE: |PRED - MEAS| <= TOL + NOISE
within_tol() {
	awk -v p="$1" -v t="$2" -v m="$3" -v n="$4" 'BEGIN { d = p - m; if (d < 0) d = -d; exit !(d <= t + n) }'
}
# 0 when every lever's measured payoff is within its tolerance (the model's)
# plus the measurement's noise (the larger half spread of the two builds' 6
# fastest runs), and the ranks agree
wl_fits() {
	local ok=0 base meas pred tol noise
	base=$(awk '$1 == "base" { print $2 }' "$WORK/wl.fastest")
	: >"$WORK/wl.pm"
	for lw in $W; do
		meas=$(awk -v v="${lw#*:}" -v b="$base" '$1 == v { printf "%.2f", 100 * (1 - $2 / b) }' \
			"$WORK/wl.fastest")
		pred=$(jq -r ".levers.rows[] | select(.lever == \"${lw%%:*}\") | .payoff_pct" "$WORK/wl.json")
		tol=$(jq -r ".levers.rows[] | select(.lever == \"${lw%%:*}\") | .tolerance_pct" "$WORK/wl.json")
		noise=$(awk -v v="${lw#*:}" '$1 == "base" || $1 == v { if ($3 > n) n = $3 } END { printf "%.2f", n }' \
			"$WORK/wl.fastest")
		echo "${lw%%:*} $pred $tol $meas $noise" >>"$WORK/wl.pm"
		[ "$pred" = null ] || within_tol "$pred" "$tol" "$meas" "$noise" || ok=1
	done
	ranks_agree || ok=1
	return $ok
}
for round in 1 2 3; do
	measure_wl
	wl_fits && break
done
echo "workload (load: $(uptime | sed 's/.*load average: //')): lever predicted tolerance measured noise"
sed 's/^/  /' "$WORK/wl.pm"
[ -n "${LEVER_REPORT:-}" ] && sed "s/^/workload $mcpu /" "$WORK/wl.pm" >>"$LEVER_REPORT"
check "workload: the levers rank as the measured builds do where the model claims an order (measured: $(sort -k4,4gr "$WORK/wl.pm" | cut -d' ' -f1 | paste -sd' '))" \
	ranks_agree
while read -r lv pred tol meas noise; do
	if [ "$pred" = null ]; then
		check "workload: $lv not modelled on $mcpu, and why (measured $meas% +-$noise)" jqe \
			--arg l "$lv" --arg m "$mcpu" '.levers.rows[] | select(.lever == $l) | .not_modelled |
			contains($m)' "$WORK/wl.json"
		continue
	fi
	check "workload: $lv predicted $pred% +-$tol, measured $meas% (+-$noise the runs' half spread)" \
		within_tol "$pred" "$tol" "$meas" "$noise"
done <"$WORK/wl.pm"

# diff --levers: the workload against each build with one lever applied,
# each recorded doing the same work. The run's and each function's time
# per run = their periods summed from perf script (ref_attr.awk); achieved
# = 100 x (1 - after / before) of those; the predictions = report
# --levers' on the same before recording.
periods() { # DATA CWASM: ref_attr.awk's PERIOD lines
	perf script -i "$1" --show-mmap-events -G -F pid,tid,time,ip,event,period 2>/dev/null |
		gawk -v textsize="$(syms_text_size "$2.syms")" -f "$E2E/ref_attr.awk" "$2.syms" - | grep '^PERIOD'
}
periods "$WORK/wl.data" "$WORK/wl.cwasm" >"$WORK/wl.periods"
for lw in $W; do
	v=${lw#*:} lever=${lw%%:*}
	record "$WORK/wl.$v.data" -- --trips 200000 --mix wl_run:1 "$WORK/wl.$v.cwasm"
	"$AOTPERF" diff -q --levers "$WORK/wl.data" --cwasm "$WORK/wl.cwasm" -- "$WORK/wl.$v.data" \
		--cwasm "$WORK/wl.$v.cwasm" --json "$WORK/d.$v.json" --markdown "$WORK/d.$v.md" \
		>"$WORK/d.$v.txt"
	check_eq "diff --levers, before against $v: exit status" "$?" 0
	periods "$WORK/wl.$v.data" "$WORK/wl.$v.cwasm" >"$WORK/$v.periods"
	b=$(awk '$2 == "TOTAL" { print $3 }' "$WORK/wl.periods")
	a=$(awk '$2 == "TOTAL" { print $3 }' "$WORK/$v.periods")
	check_eq "$v: the run's time before and after = perf script's periods" \
		"$(jq -r '.levers | "\(.run_before_ns) \(.run_after_ns)"' "$WORK/d.$v.json")" "$b $a"
	# to its two decimals (an exact half, 5.625, rounds either way by the formula)
	got=$(jq -r '.levers.achieved_pct' "$WORK/d.$v.json")
	check "$v: achieved $got = 100 x (1 - after / before), to 0.005" \
		awk -v g="$got" -v b="$b" -v a="$a" 'BEGIN { d = g - 100 * (1 - a / b); exit !(d <= 0.005001 && d >= -0.005001) }'
	check "$v: each lever's prediction = report --levers' on the before recording" cmp -s \
		<(jq -c '[.levers.rows[] | [.lever, .predicted_pct, .tolerance_pct]] | sort' "$WORK/d.$v.json") \
		<(jq -c '[.levers.rows[] | [.lever, .payoff_pct, .tolerance_pct]] | sort' "$WORK/wl.json")
	# per function: its saving over the before run from the periods, its predictions report's
	gawk -v b="$b" 'FNR == NR { name[$1] = $4; next }
		FILENAME ~ /wl.periods$/ && $2 == "FUNC" { pb[name[$3]] = $4; next }
		$2 == "FUNC" { pa[name[$3]] = $4 }
		END { for (f in pb) printf "%s %.2f\n", f, 100 * (pb[f] - pa[f]) / b }' \
		"$WORK/wl.cwasm.syms" "$WORK/wl.periods" "$WORK/$v.periods" | sort >"$WORK/$v.fwant"
	jq -r '.levers.functions[] | "\(.function) \(.achieved_pct)"' "$WORK/d.$v.json" |
		gawk '{ printf "%s %.2f\n", $1, $2 }' | sort >"$WORK/$v.fgot"
	check "$v: each table function's achieved saving = its periods' change over the before run ($(wc -l <"$WORK/$v.fgot"))" \
		bash -c "join '$WORK/$v.fgot' '$WORK/$v.fwant' | awk '{ d = \$2 - \$3; if (d < 0) d = -d; if (d > 0.011) exit 1 }
			END { exit NR == 0 }'"
	# a function no lever touches: the diff's group is null (docs/json.md), report's {}
	check "$v: each function's predictions = report --levers' functions[].levers" cmp -s \
		<(jq -c '[.levers.functions[] | [.function, (.predicted // {} | to_entries | map(select(.value != null)) | from_entries)]] | sort' "$WORK/d.$v.json") \
		<(jq -c '[.levers.functions[] | [.name, (.levers | map_values(.payoff_pct))]] | sort' "$WORK/wl.json")
	check "$v: text: the table and the verdict at 80 columns" bash -c \
		"grep -q '^  verdict: achieved' '$WORK/d.$v.txt' && ! awk 'length > 80 { exit 1 }' '$WORK/d.$v.txt' | grep -q ."
	check "$v: Markdown: the levers' section" grep -q '^## Levers: predicted against achieved' "$WORK/d.$v.md"
	echo "diff $v: $(jq -r '.levers.verdict' "$WORK/d.$v.json"); $lever predicted $(jq -r \
		".levers.rows[] | select(.lever == \"$lever\") | .predicted_pct" "$WORK/d.$v.json"), fastest runs $(
		awk -v v="$v" '$1 == "base" { b = $2 } $1 == v { m = $2 } END { printf "%.2f", 100 * (1 - m / b) }' "$WORK/wl.fastest")%"
done

AOTPERF_LLVM_MCA= "$AOTPERF" diff -q --levers "$WORK/wl.data" --cwasm "$WORK/wl.cwasm" -- \
	"$WORK/wl.NOICALL.data" --cwasm "$WORK/wl.NOICALL.cwasm" --json "$WORK/d.nomca.json" >/dev/null
check_eq "diff --levers without llvm-mca: no prediction, the verdict says how to get one" \
	"$(jq -c '[(.levers.rows | map(.predicted_pct) | unique), (.levers.verdict | test("make deps"))]' \
		"$WORK/d.nomca.json")" '[[null],true]'

# 5. no llvm-mca: loops shown, the model says how to get it
AOTPERF_LLVM_MCA= "$AOTPERF" report -q -i "$WORK/w1.data" --cwasm "$WORK/w1.cwasm" --func lv_bounds \
	--json "$WORK/nomca.json" >"$WORK/nomca.txt"
check_eq "no llvm-mca: report exit status" "$?" 0
check "no llvm-mca: loops still shown" grep -q "hot loops (1" "$WORK/nomca.txt"
check "no llvm-mca: the text says make deps" grep -q "make deps" "$WORK/nomca.txt"
check_eq "no llvm-mca: JSON loops without a model" \
	"$(jq -c '.classified_functions[0] | [(.loops | length), .loops[0].model, (.loops_model_note | test("make deps"))]' \
		"$WORK/nomca.json")" '[1,null,true]'
# a stand-in llvm-mca that leaves a mark: a report without --func/--hot never starts it
printf '#!/bin/sh\ntouch "%s/ran"\nexec "%s" "$@"\n' "$WORK" "$MCA" >"$WORK/mca.sh"
chmod +x "$WORK/mca.sh"
AOTPERF_LLVM_MCA=$WORK/mca.sh "$AOTPERF" report -q -i "$WORK/w1.data" --cwasm "$WORK/w1.cwasm" >/dev/null
check "no --func/--hot: llvm-mca not run" test ! -e "$WORK/ran"
AOTPERF_LLVM_MCA=$WORK/mca.sh "$AOTPERF" report -q -i "$WORK/w1.data" --cwasm "$WORK/w1.cwasm" \
	--hot 1 >/dev/null
check "--hot 1: llvm-mca run" test -e "$WORK/ran"
finish
