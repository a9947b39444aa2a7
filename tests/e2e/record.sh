#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# aotperf record: stock `perf record -k mono` on a command, then at once a
# symbolized perf.jit.data. Recorded on the static (-static) loader, which
# registers nothing: the command needs no cooperation. `perf report --sort
# sym -n` on the result must give exactly aotperf report's counts on the
# recording; -g, a manifest, --no-inject (its printed inject command run
# as printed, through a path with a space), a failing command (its status
# passed through, the recording still symbolized), Ctrl-C, and bad usage
# (exit 2, the command never runs). Prints (does not assert) the overhead
# over plain perf record.
#
#   tests/e2e/record.sh BUILD_DIR
. "$(dirname "$0")/lib/common.sh"

S=$FIX/sample.cwasm
M=$FIX/comp.cwasm.json
STATIC=$B/tests/loader-static

# compare DESC DATA JIT_DATA CORE_OPTS...: stock perf report on JIT_DATA
# against aotperf report on DATA
compare() {
	local desc=$1 data=$2 jit=$3; shift 3
	"$AOTPERF" report -q -i "$data" "$@" --top 100000 --json "$WORK/cmp.json" >/dev/null
	if [ "$1" = --manifest ]; then ours_cores "$WORK/cmp.json"; else ours "$WORK/cmp.json"; fi \
		>"$WORK/cmp.want"
	perf_counts "$jit" >"$WORK/cmp.got"
	same_counts "$desc" "$WORK/cmp.got" "$WORK/cmp.want"
}
now() { date +%s.%N; }

if [ ! -x "$STATIC" ]; then
	bad "$STATIC missing (make $STATIC; tests/loader/loader.mk)"
	finish; exit 1
fi
check "the loader under test is static (no program interpreter)" \
	bash -c "! readelf -l '$STATIC' | grep -q INTERP"
cd "$WORK" || exit 1

# 1. the static loader, default options
"$AOTPERF" record --cwasm "$S" -o "$WORK/X.data" -- "$STATIC" --ms 1000 "$S" \
	>"$WORK/x.out" 2>"$WORK/x.err"
check_eq "record: exit status" "$?" 0
check "record: wrote the recording and X.jit.data" test -s "$WORK/X.data" -a -s "$WORK/X.jit.data"
check "record: perf recorded with -k mono (CLOCK_MONOTONIC)" \
	bash -c "perf report -i '$WORK/X.data' --header-only 2>/dev/null | grep -q 'clockid: monotonic'"
compare "record: perf report counts equal aotperf report" "$WORK/X.data" "$WORK/X.jit.data" --cwasm "$S"
hot=$(jq -r '.top_functions[0].local_func' "$WORK/cmp.json")
check "record: prints perf report -i X.jit.data --sort sym" \
	grep -qxF "  perf report -i $WORK/X.jit.data --sort sym" "$WORK/x.out"
check "record: prints aotperf report on the recording" \
	grep -qxF "  aotperf report -i $WORK/X.data --cwasm $S" "$WORK/x.out"
check "record: prints perf annotate of the hottest, local_func_$hot" \
	grep -qxF "  perf annotate -i $WORK/X.jit.data --stdio -M intel local_func_$hot" "$WORK/x.out"
check "record: prints aotperf annotate and classify of it" \
	bash -c "grep -qxF '  aotperf annotate -i $WORK/X.jit.data local_func_$hot' '$WORK/x.out' &&
		 grep -q 'local_func_$hot | aotperf classify\$' '$WORK/x.out'"
if perf stat -e cycles -x, true 2>&1 | grep -q '<not'; then
	check "record: says it falls back to cpu-clock (no hardware cycles here)" \
		grep -q 'sampling cpu-clock' "$WORK/x.err"
fi
# the printed commands run as printed
sh -c "$(grep -F "  aotperf annotate" "$WORK/x.out" | sed "s|^  aotperf|'$AOTPERF'|")" \
	>"$WORK/ann.out" 2>&1
check "record: the printed aotperf annotate runs" grep -q "symbol local_func_$hot" "$WORK/ann.out"

# 2. -g: call graphs, self counts still equal
"$AOTPERF" record -q -g --cwasm "$S" -o "$WORK/G.data" -- "$STATIC" --ms 800 "$S" \
	>"$WORK/g.out" 2>&1
check_eq "record -g: exit status" "$?" 0
check "record -g: samples carry call chains" \
	bash -c "perf evlist -v -i '$WORK/G.data' 2>/dev/null | grep -q CALLCHAIN"
compare "record -g: perf report (self) counts equal aotperf report" "$WORK/G.data" \
	"$WORK/G.jit.data" --cwasm "$S"

# 3. a manifest of two cores (no -q here or below: it silences the next steps)
"$AOTPERF" record --manifest "$M" -o "$WORK/C.data" -- "$STATIC" --ms 1000 --manifest "$M" \
	>"$WORK/c.out" 2>&1
check_eq "record --manifest: exit status" "$?" 0
compare "record --manifest: perf report counts (mod0:/mod1:) equal aotperf report" \
	"$WORK/C.data" "$WORK/C.jit.data" --manifest "$M"
check "record --manifest: the hottest is named with its core" \
	grep -qE '^  aotperf annotate .* mod[0-9]+:local_func_[0-9]+$' "$WORK/c.out"

# 4. --no-inject, through a path with a space: the printed inject command works
mkdir -p "$WORK/with space"
"$AOTPERF" record --no-inject --cwasm "$S" -o "$WORK/with space/n.data" -- \
	"$STATIC" --ms 600 "$S" >"$WORK/n.out" 2>&1
check_eq "record --no-inject: exit status" "$?" 0
check "record --no-inject: no jit file" test ! -e "$WORK/with space/n.jit.data"
line=$(grep '^  aotperf inject ' "$WORK/n.out")
check "record --no-inject: prints the inject command" test -n "$line"
sh -c "'$AOTPERF' ${line#  aotperf }" >/dev/null 2>&1
check_eq "record --no-inject: the printed inject command runs as printed" "$?" 0
compare "record --no-inject: then the counts equal aotperf report" "$WORK/with space/n.data" \
	"$WORK/with space/n.jit.data" --cwasm "$S"

# 5. a failing command: status passed through, the recording still symbolized
"$AOTPERF" record --cwasm "$S" -o "$WORK/F.data" -- \
	sh -c '"$0" --ms 600 "$1"; exit 7' "$STATIC" "$S" >"$WORK/f.out" 2>"$WORK/f.err"
check_eq "failing command: its exit status passed through" "$?" 7
check "failing command: says so" grep -q 'the command failed (status 7)' "$WORK/f.err"
compare "failing command: still symbolized, counts equal aotperf report" "$WORK/F.data" \
	"$WORK/F.jit.data" --cwasm "$S"
"$AOTPERF" record -q --cwasm "$S" -o "$WORK/K.data" -- \
	sh -c '"$0" --ms 400 "$1"; kill -USR1 $$' "$STATIC" "$S" >/dev/null 2>&1
check_eq "command killed by signal 10: exit status 128+10" "$?" 138
check "command killed by a signal: still symbolized" test -s "$WORK/K.jit.data"
"$AOTPERF" record -q --cwasm "$S" -o "$WORK/E.data" -- "$WORK/no-such-program" >/dev/null 2>&1
rc=$?
check "a command that cannot start: non-zero exit ($rc), no jit file" \
	test "$rc" -ne 0 -a ! -e "$WORK/E.jit.data"

# 6. Ctrl-C: SIGINT to aotperf record reaches perf, which stops the
# command; the recording is still symbolized
"$AOTPERF" record -q --cwasm "$S" -o "$WORK/I.data" -- "$STATIC" --ms 30000 "$S" \
	>"$WORK/i.out" 2>&1 &
pid=$!
sleep 1.5
t0=$(now)
kill -INT "$pid"
wait "$pid"
rc=$?
t1=$(now)
check "SIGINT: the command stops at once (status $rc, $(printf '%.1f' "$(echo "$t1 - $t0" | bc)") s)" \
	test "$rc" -ne 0 -a "$(echo "$t1 - $t0 < 20" | bc)" = 1
compare "SIGINT: the recording is still symbolized, counts equal" "$WORK/I.data" \
	"$WORK/I.jit.data" --cwasm "$S"
# as a terminal does it: SIGINT to the whole process group
setsid bash -c "'$AOTPERF' record -q --cwasm '$S' -o '$WORK/T.data' -- '$STATIC' --ms 30000 '$S' \
	>'$WORK/t.out' 2>&1; echo \$? >'$WORK/t.rc'" &
spid=$!
sleep 1.5
kill -INT -- -"$spid"
wait "$spid"
check_eq "Ctrl-C on the process group: exit status 130 (the command's SIGINT)" \
	"$(cat "$WORK/t.rc" 2>/dev/null)" 130
check "Ctrl-C on the process group: T.jit.data written" test -s "$WORK/T.jit.data"

# 7. bad usage: exit 2, and the command never runs
bad_usage() { # bad_usage DESC ARGS...
	local desc=$1; shift
	rm -f "$WORK/ran"
	"$AOTPERF" record "$@" >/dev/null 2>"$WORK/usage.err"
	local rc=$?
	if [ "$rc" = 2 ] && [ ! -e "$WORK/ran" ]; then ok "bad usage: $desc (exit 2)"
	else bad "bad usage: $desc: exit $rc$([ -e "$WORK/ran" ] && echo ', the command ran')"; fi
}
bad_usage "no command" --cwasm "$S" -o "$WORK/u.data"
bad_usage "no core" -o "$WORK/u.data" -- touch "$WORK/ran"
bad_usage "a core that does not exist" --cwasm "$WORK/nope.cwasm" -- touch "$WORK/ran"
bad_usage "-F not a number" -F fast --cwasm "$S" -- touch "$WORK/ran"
bad_usage "an unknown option" --bogus --cwasm "$S" -- touch "$WORK/ran"
bad_usage "-i (not a record option)" -i x.data --cwasm "$S" -- touch "$WORK/ran"
bad_usage "--jit-out equal to -o" --cwasm "$S" -o "$WORK/u.data" --jit-out "$WORK/u.data" \
	-- touch "$WORK/ran"
bad_usage "--names not a mode" --names fancy --cwasm "$S" -- touch "$WORK/ran"
bad_usage "an event perf does not know (perf records nothing)" --event no-such-event \
	--cwasm "$S" -o "$WORK/u.data" -- touch "$WORK/ran"
"$AOTPERF" record --help >"$WORK/help.out"
check_eq "--help: exit 0" "$?" 0
check "--help: usage text" grep -q '^usage: aotperf record' "$WORK/help.out"

# 8. overhead over plain perf record (printed, not asserted): wall time of
# the whole command minus the workload's own
t0=$(now); "$STATIC" --ms 1000 "$S" 2>/dev/null; t1=$(now)
perf record -q -k mono -F 999 -e cpu-clock -o "$WORK/P.data" -- "$STATIC" --ms 1000 "$S" \
	>/dev/null 2>&1; t2=$(now)
"$AOTPERF" record -q -e cpu-clock --cwasm "$S" -o "$WORK/A.data" -- "$STATIC" --ms 1000 "$S" \
	>/dev/null 2>&1; t3=$(now)
"$AOTPERF" record -q --cwasm "$S" -o "$WORK/D.data" -- "$STATIC" --ms 1000 "$S" \
	>/dev/null 2>&1; t4=$(now)
"$AOTPERF" record -q -e cpu-clock --jitdump --cwasm "$S" -o "$WORK/R.data" -- "$STATIC" --ms 1000 "$S" \
	>/dev/null 2>&1; t7=$(now)
t5=$(now); "$AOTPERF" inject -q --jitdump -i "$WORK/P.data" --cwasm "$S" -o "$WORK/P.jit.data" >/dev/null; t6=$(now)
gawk -v w="$(echo "$t1 - $t0" | bc)" -v p="$(echo "$t2 - $t1" | bc)" \
	-v a="$(echo "$t3 - $t2" | bc)" -v d="$(echo "$t4 - $t3" | bc)" \
	-v i="$(echo "$t6 - $t5" | bc)" -v n="$(grep -c . "$S.syms")" \
	-v r="$(echo "$t7 - $t4" | bc)" 'BEGIN {
	printf "measure: workload alone %.2f s; plain perf record %.2f s (+%.2f s)\n", w, p, p - w
	printf "measure: aotperf record -e cpu-clock (ELF image) %.2f s: +%.2f s over the workload, +%.2f s over plain perf record\n", a, a - w, a - p
	printf "measure: aotperf record (probing cycles) %.2f s: +%.2f s over plain perf record\n", d, d - p
	printf "measure: aotperf inject --jitdump alone %.2f s (%d functions through perf inject --jit)\n", i, n
	printf "measure: aotperf record -e cpu-clock --jitdump (perf inject --jit) %.2f s: +%.2f s over plain perf record\n", r, r - p
}'

finish
