#!/usr/bin/env bash
# perf report's filters and options on aotperf report, diff and the call
# graph views, each against perf's own selection of the same recording:
# perf script's comm, pid/tid, cpu and time columns filtered in awk
# (filter_script.awk; perf script --time for perf's percent slices), then
# attributed independently (ref_attr.awk). One recording: two processes
# (loader and loaderB, one a CPU each with taskset), the first with two
# threads, -g and --sample-cpu. And -q: errors and the requested output only.
. "$(dirname "$0")/lib/common.sh"

S=$FIX/sample.cwasm
export HOME=$WORK	# perf's build-id cache: a scratch folder, not ~/.debug
TS=$(syms_text_size "$S.syms")
ln -s "$LOADER" "$WORK/loaderB"	# a second command name

# the shell spins a little on its own (CPU time, so samples even on a busy
# machine): "--pid L,B minus the shell" then always leaves samples out
perf record -q -g --sample-cpu -e cpu-clock -k mono -F 2000 -o "$WORK/rec.data" -- sh -c \
	"taskset -c 0 '$LOADER' --threads 2 --ms 600 '$S' & taskset -c 1 '$WORK/loaderB' --ms 600 '$S' &
	 i=0; while [ \$i -lt 30000 ]; do i=\$((i + 1)); done; wait" \
	>"$WORK/rec.log" 2>&1
perf script -i "$WORK/rec.data" --ns --show-mmap-events -G -F comm,pid,tid,cpu,time,ip,event \
	2>/dev/null >"$WORK/script.txt"

# ref [awk -v options]: the independent counts of the samples perf script's columns keep
ref() {
	gawk "$@" -f "$E2E/filter_script.awk" "$WORK/script.txt" |
		gawk -v textsize="$TS" -f "$E2E/ref_attr.awk" "$S.syms" - | sort
}
# ours NAME [report options]: aotperf report's counts with those options
ours() {
	local name=$1; shift
	"$AOTPERF" report -q -i "$WORK/rec.data" --cwasm "$S" --top 0 --json "$WORK/$name.json" "$@" \
		>"$WORK/$name.txt" 2>"$WORK/$name.err"
	aotperf_counts "$WORK/$name.json"
}
total_of() { awk '$1 == "TOTAL" { print $2 }' "$1"; }

# the processes and threads perf saw, from its own columns
LPID=$(awk '$1 == "loader" && $5 == "cpu-clock:" { split($2, p, "/"); print p[1]; exit }' "$WORK/script.txt")
BPID=$(awk '$1 == "loaderB" && $5 == "cpu-clock:" { split($2, p, "/"); print p[1]; exit }' "$WORK/script.txt")
TIDS=$(awk -v p="$LPID" '$1 == "loader" && $5 == "cpu-clock:" { split($2, t, "/");
	if (t[1] == p && t[2] != p) print t[2] }' "$WORK/script.txt" | sort -u | paste -sd,)
ref >"$WORK/ref.all"
check "the recording: both processes and two threads ($LPID $BPID $TIDS)" \
	test -n "$LPID" -a -n "$BPID" -a "$(echo "$TIDS" | tr , '\n' | wc -l)" = 2
check "the recording: enough samples ($(total_of "$WORK/ref.all"))" test "$(total_of "$WORK/ref.all")" -ge 200
ours all >"$WORK/got.all"
same_counts "no filter: every sample" "$WORK/got.all" "$WORK/ref.all"

# each filter: aotperf's counts equal perf's selection, and differ from the whole
filter_case() { # filter_case DESC "AWK OPTS" REPORT OPTIONS...
	local desc=$1 awkopts=$2; shift 2
	local n=$((++ncase))
	# shellcheck disable=SC2086
	ref $awkopts >"$WORK/ref.$n"
	ours "f$n" "$@" >"$WORK/got.$n"
	same_counts "$desc: the counts of perf's selection ($(total_of "$WORK/ref.$n") samples)" \
		"$WORK/got.$n" "$WORK/ref.$n"
	check "$desc: not every sample (the filter did something)" \
		test "$(total_of "$WORK/ref.$n")" -lt "$(total_of "$WORK/ref.all")"
}
ncase=0
filter_case "--comm loaderB" "-v comms=loaderB" --comm loaderB
filter_case "-c loader (the thread's command)" "-v comms=loader" -c loader
filter_case "--pid B" "-v pids=$BPID" --pid "$BPID"
filter_case "--pid L,B minus the shell" "-v pids=$LPID,$BPID" --pid "$LPID,$BPID"
filter_case "--pid L --pid B (repeated)" "-v pids=$LPID,$BPID" --pid "$LPID" --pid "$BPID"
filter_case "--tid T1,T2" "-v tids=$TIDS" --tid "$TIDS"
filter_case "--cpu 1" "-v cpus=1" --cpu 1
filter_case "-C 0" "-v cpus=0" -C 0
filter_case "--cpu 0 --comms loader,sh (both must hold)" "-v cpus=0 -v comms=loader,sh" --cpu 0 --comms loader,sh
# time: windows between the 100th and 400th sample, perf's seconds.nanoseconds
T1=$(awk '$5 == "cpu-clock:" && ++n == 100 { sub(/:$/, "", $4); print $4 }' "$WORK/script.txt")
T2=$(awk '$5 == "cpu-clock:" && ++n == 400 { sub(/:$/, "", $4); print $4 }' "$WORK/script.txt")
filter_case "--time $T1,$T2" "-v lo=$T1 -v hi=$T2" --time "$T1,$T2"
filter_case "--time $T1, (open end)" "-v lo=$T1" --time "$T1,"
filter_case "--time ,$T1 (open start)" "-v hi=$T1" --time ",$T1"
T1US=$(echo "$T1" | cut -c1-$((${#T1} - 3)))	# microseconds, as perf script prints times
filter_case "--time $T1US, (microseconds)" "-v lo=${T1US}000" --time "$T1US,"
for pct in 10%/2 0%-10%,30%-40%; do
	tf=$WORK/times.$(echo "$pct" | tr -c '0-9\n' _)
	perf script -i "$WORK/rec.data" --ns --time "$pct" -F time 2>/dev/null >"$tf"
	filter_case "--time $pct (perf script --time's samples)" "-v times=$tf" --time "$pct"
done


# --sort: the samples per (comm, thread, cpu) as perf script's columns count them
"$AOTPERF" report -q -i "$WORK/rec.data" --cwasm "$S" --sort comm,pid,cpu --top 0 >"$WORK/s.txt"
awk '/^ +[0-9.]+% / { print $3, $4, $5, $2 }' "$WORK/s.txt" | sort >"$WORK/s.got"
awk '$5 == "cpu-clock:" { split($2, t, "/"); c = $3; gsub(/[][]/, "", c); n[$1 " " t[2] ":" $1 " " c + 0]++ }
	END { for (k in n) print k, n[k] }' "$WORK/script.txt" | sort >"$WORK/s.want"
same_counts "--sort comm,pid,cpu: perf script's counts per command, thread and CPU" "$WORK/s.got" "$WORK/s.want"
"$AOTPERF" report -q -i "$WORK/rec.data" --cwasm "$S" -s cpu --comm loader --percent-limit 1 >"$WORK/s2.txt"
awk '/^ +[0-9.]+% / { print $3, $2 }' "$WORK/s2.txt" | sort >"$WORK/s2.got"
awk '$5 == "cpu-clock:" && $1 == "loader" { c = $3; gsub(/[][]/, "", c); n[c + 0]++; t++ }
	END { for (k in n) if (n[k] * 100 >= t) print k, n[k] }' "$WORK/script.txt" | sort >"$WORK/s2.want"
same_counts "-s cpu --comm loader --percent-limit 1: perf script's counts per CPU" "$WORK/s2.got" "$WORK/s2.want"
# -n, --stdio, --sort sym: accepted, the default report
"$AOTPERF" report -q -i "$WORK/rec.data" --cwasm "$S" --top 0 >"$WORK/plain.txt"
"$AOTPERF" report -q -i "$WORK/rec.data" --cwasm "$S" --top 0 -n --stdio --sort sym >"$WORK/sym.txt"
check_eq "-n --stdio --sort sym: exit 0, the default report" \
	"$?$(cmp -s "$WORK/plain.txt" "$WORK/sym.txt" && echo same)" 0same
bad_sort=$("$AOTPERF" report -q -i "$WORK/rec.data" --cwasm "$S" --sort srcline 2>&1 >/dev/null; echo "rc $?")
check_eq "--sort srcline: refused in one line, exit 2" "$(echo "$bad_sort" | sed -n '$p') $(echo "$bad_sort" | grep -c 'not a key')" "rc 2 1"

# --percent-limit: the function rows at or over the limit of perf's counts, no other
PL=10
awk -v pl=$PL '$1 == "TOTAL" { t = $2 } $1 == "FUNC" { f[$2] = $3 }
	END { for (k in f) if (f[k] * 100 >= pl * t) print "local_func_" k }' "$WORK/ref.all" | sort >"$WORK/pl.want"
"$AOTPERF" report -q -i "$WORK/rec.data" --cwasm "$S" --top 0 --percent-limit $PL --json "$WORK/pl.json" \
	>"$WORK/pl.txt"
awk '$1 ~ /^[0-9]+$/ && $2 ~ /^local_func_/ { print $2 }' "$WORK/pl.txt" | sort >"$WORK/pl.got"
check_eq "--percent-limit $PL: the text lists the functions perf counts at $PL% or more" \
	"$(paste -sd' ' "$WORK/pl.got")" "$(paste -sd' ' "$WORK/pl.want")"
check_eq "--percent-limit $PL: the JSON lists the same" \
	"$(jq -r '.top_functions[] | "local_func_\(.local_func)"' "$WORK/pl.json" | sort | paste -sd' ')" \
	"$(paste -sd' ' "$WORK/pl.want")"
check "--percent-limit $PL: some function falls under it" \
	test "$(grep -c FUNC "$WORK/ref.all")" -gt "$(wc -l <"$WORK/pl.want")"
check "--percent-limit $PL: no outside-wasm row under it" \
	awk -v pl=$PL '/^  outside wasm/ { o = 1; next } o && /^ +[0-9]+ +[0-9.]+%/ && $0 !~ / more\)/ {
		v = $2; sub(/%/, "", v); if (v + 0 < pl) bad = 1 } /^$/ { o = 0 } END { exit bad }' "$WORK/pl.txt"

# the call-graph views and exports see the same samples
ref -v comms=loaderB >"$WORK/ref.b"
"$AOTPERF" report -q -i "$WORK/rec.data" --cwasm "$S" --comm loaderB --children --top 0 \
	--json "$WORK/ch.json" --folded "$WORK/ch.folded" --markdown "$WORK/ch.md" >"$WORK/ch.txt"
check_eq "--children --comm: the call graph's samples are perf's selection" \
	"$(jq .call_graph.samples "$WORK/ch.json")" "$(total_of "$WORK/ref.b")"
jq -r '.children[] | select(.kind == "wasm" and .self_samples > 0) | "FUNC \(.local_func) \(.self_samples)"' \
	"$WORK/ch.json" | sort >"$WORK/ch.got"
grep FUNC "$WORK/ref.b" >"$WORK/ch.want"
same_counts "--children --comm: each wasm function's self samples" "$WORK/ch.got" "$WORK/ch.want"
check_eq "--folded --comm: the stacks add up to perf's selection" \
	"$(awk '{ s += $NF } END { print s }' "$WORK/ch.folded")" "$(total_of "$WORK/ref.b")"
check "--markdown --comm: the total is perf's selection" \
	grep -q "$(total_of "$WORK/ref.b")" "$WORK/ch.md"
"$AOTPERF" report -q -i "$WORK/rec.data" --cwasm "$S" --comm loaderB --children --top 0 \
	--percent-limit 50 >"$WORK/chl.txt"
check "--children --percent-limit 50: no row under 50% inclusive" \
	awk '/^ +[0-9.]+% +[0-9.]+% / { v = $1; sub(/%/, "", v); if (v + 0 < 50) bad = 1 }
	     END { exit bad }' "$WORK/chl.txt"
check_eq "--children without the limit: rows under 50% there are" \
	"$(jq '[.children[] | select(.children_pct < 50)] | length > 0' "$WORK/ch.json")" true

# diff: --pid per side, --comm for both
ref -v pids="$LPID" >"$WORK/ref.l"
ref -v pids="$BPID" >"$WORK/ref.bp"
"$AOTPERF" diff -q -i "$WORK/rec.data" --cwasm "$S" --pid "$LPID" -- -i "$WORK/rec.data" --pid "$BPID" \
	--json "$WORK/d.json" >/dev/null
check_eq "diff --pid per side: each side's total is perf's selection" \
	"$(jq -r '"\(.before.captures[0].total_samples) \(.after.captures[0].total_samples)"' "$WORK/d.json")" \
	"$(total_of "$WORK/ref.l") $(total_of "$WORK/ref.bp")"
jq -r '.functions[] | select(.self.after.samples > 0) | "FUNC \(.after_func.local_func) \(.self.after.samples)"' \
	"$WORK/d.json" | sort >"$WORK/d.got"
grep FUNC "$WORK/ref.bp" >"$WORK/d.want"
same_counts "diff --pid: the after side's functions are perf's selection" "$WORK/d.got" "$WORK/d.want"
"$AOTPERF" diff -q -i "$WORK/rec.data" --cwasm "$S" -- -i "$WORK/rec.data" --comm loaderB \
	--json "$WORK/dc.json" >/dev/null
check_eq "diff --comm after '--': both sides keep loaderB's samples" \
	"$(jq -r '"\(.before.captures[0].total_samples) \(.after.captures[0].total_samples)"' "$WORK/dc.json")" \
	"$(total_of "$WORK/ref.b") $(total_of "$WORK/ref.b")"

# bad values and recordings: one line, exit 2
bad_case() { # bad_case DESC WANT_REGEX [report options]
	local desc=$1 want=$2; shift 2
	"$AOTPERF" report -q -i "$WORK/rec.data" --cwasm "$S" "$@" >"$WORK/bad.out" 2>"$WORK/bad.err"
	check_eq "$desc: exit 2, one line, nothing on stdout" \
		"$? $(wc -l <"$WORK/bad.err") $(wc -c <"$WORK/bad.out")" "2 1 0"
	check "$desc: says '$want'" grep -q -- "$want" "$WORK/bad.err"
}
bad_case "--time 1.2.3" "not perf's time form" --time 1.2.3
bad_case "--time 5,1 (end before start)" "not perf's time form" --time 5,1
bad_case "--time 10%-5%" "not perf's time form" --time 10%-5%
bad_case "--time 10%/2-3" "not perf's time form" --time 10%/2-3
bad_case "--cpu 3-1" "not a CPU list" --cpu 3-1
bad_case "--pid x" "--pid: 'x' is not a pid" --pid x
bad_case "--percent-limit 101" "--percent-limit: '101'" --percent-limit 101
bad_case "--comm nobody" "no samples pass --comm nobody" --comm nobody
record "$WORK/nocpu.data" -- --ms 200 "$S"
"$AOTPERF" report -q -i "$WORK/nocpu.data" --cwasm "$S" --cpu 0 >"$WORK/nc.out" 2>"$WORK/nc.err"
check_eq "--cpu on a recording without CPUs: exit 2, one line" "$? $(wc -l <"$WORK/nc.err")" "2 1"
check "--cpu on a recording without CPUs: says how to record them" grep -q -- "--sample-cpu" "$WORK/nc.err"
perf record -q -e cpu-clock -k mono -F 2000 -o - -- "$LOADER" --ms 200 "$S" 2>/dev/null >"$WORK/p.pipe"
"$AOTPERF" report -q -i - --cwasm "$S" --time 10%/2 <"$WORK/p.pipe" >"$WORK/tp.out" 2>"$WORK/tp.err"
check_eq "--time with percent on a pipe: exit 2, one line" "$? $(wc -l <"$WORK/tp.err")" "2 1"

# -q: nothing but errors and what was asked for (the files)
for cmd in inject jitdump perfmap; do
	case $cmd in
	inject) args=(-o "$WORK/q.inject.data") ;;
	jitdump) args=(-o "$WORK/q.jd.data") ;;
	perfmap) args=(-o "$WORK/q.map") ;;
	esac
	"$AOTPERF" $cmd -q -i "$WORK/nocpu.data" --cwasm "$S" "${args[@]}" >"$WORK/q.out" 2>"$WORK/q.err"
	rc=$?
	check_eq "$cmd -q: exit 0, nothing on stdout or stderr" "$rc $(cat "$WORK/q.out" "$WORK/q.err" | wc -c)" "0 0"
	check "$cmd -q: wrote ${args[1]##*/}" test -s "${args[1]}"
	"$AOTPERF" $cmd -i "$WORK/nocpu.data" --cwasm "$S" "${args[@]}" >"$WORK/v.out" 2>/dev/null
	check "$cmd without -q: says what it wrote" grep -q "^wrote " "$WORK/v.out"
done
(cd "$WORK" && "$AOTPERF" record -q --cwasm "$S" -o "$WORK/qr.data" -- "$LOADER" --ms 200 "$S" \
	>"$WORK/qr.out" 2>"$WORK/qr.err")
check_eq "record -q: exit 0, no summary or next steps" \
	"$? $(grep -c 'aotperf record\|next:' "$WORK/qr.out" "$WORK/qr.err" | awk -F: '{ s += $2 } END { print s }')" "0 0"
check "record -q: wrote the symbolized recording" test -s "$WORK/qr.jit.data"

finish
