#!/usr/bin/env bash
# aotperf report's views of a recording, each against stock perf on real
# recordings of the loader: several sampling events reported one by one
# (perf script's per-event counts), the samples outside wasm named
# (perf report --sort dso,sym), several processes of one recording
# (perf script --show-mmap-events), the event named in every JSON; and
# inputs said once (a core given twice, --func reading ./perf.data).
. "$(dirname "$0")/lib/common.sh"

S=$FIX/sample.cwasm
export HOME=$WORK	# perf's build-id cache: a scratch folder, not ~/.debug

# ref_event DATA EVENT OTHER: the independent per-function counts of one
# event's samples (the other event's sample lines dropped before ref_attr.awk)
ref_event() {
	local ts
	ts=$(syms_text_size "$S.syms")
	perf script -i "$1" --show-mmap-events -G -F pid,tid,time,ip,event 2>/dev/null |
		grep -v " $3: " | gawk -v textsize="$ts" -f "$E2E/ref_attr.awk" "$S.syms" - | sort
}
# counts_of JSON JQPATH: aotperf_counts of one object inside the report
counts_of() {
	jq -r "$2"' | "TOTAL \(.total_samples)", "CORE \(.attributed_samples)",
	       (.top_functions[] | "FUNC \(.local_func) \(.samples)")' "$1" | sort
}

# ---- 1. two sampling events: one report each ----
perf record -q -e cpu-clock,task-clock -k mono -F 2000 -o "$WORK/two.data" -- \
	"$LOADER" --ms 1500 "$S" >"$WORK/two.log" 2>&1
"$AOTPERF" report -q -i "$WORK/two.data" --cwasm "$S" --top 0 --json "$WORK/two.json" \
	--markdown "$WORK/two.md" >"$WORK/two.txt"
check_eq "two events: exit 0" "$?" 0
check_eq "two events: the JSON lists both, in the recording's order" \
	"$(jq -r '[.events[].event] | join(",")' "$WORK/two.json")" \
	"$(perf evlist -i "$WORK/two.data" 2>/dev/null | paste -sd,)"
for ev in cpu-clock task-clock; do
	other=task-clock; [ $ev = task-clock ] && other=cpu-clock
	ref_event "$WORK/two.data" $ev $other >"$WORK/ref.$ev"
	counts_of "$WORK/two.json" ".events[] | select(.event == \"$ev\")" >"$WORK/got.$ev"
	same_counts "two events: $ev's counts equal perf script's $ev samples ($(grep TOTAL "$WORK/ref.$ev"))" \
		"$WORK/got.$ev" "$WORK/ref.$ev"
	check "two events: $ev has samples of its own" test "$(awk '$1 == "TOTAL" { print $2 }' "$WORK/ref.$ev")" -ge 100
	# --event NAME: that event's report alone, the same counts
	"$AOTPERF" report -q -i "$WORK/two.data" --cwasm "$S" --top 0 --event $ev \
		--json "$WORK/one.$ev.json" >/dev/null
	aotperf_counts "$WORK/one.$ev.json" >"$WORK/sel.$ev"
	same_counts "two events: --event $ev gives the same counts" "$WORK/sel.$ev" "$WORK/ref.$ev"
	check_eq "two events: --event $ev names it, no events list" \
		"$(jq -r '"\(.event) \(.events)"' "$WORK/one.$ev.json")" "$ev null"
done
check_eq "two events: the top-level keys are the first event's" \
	"$(jq '[.event, .total_samples, .attributed_samples] == [.events[0].event,
	       .events[0].total_samples, .events[0].attributed_samples]' "$WORK/two.json")" true
check_eq "two events: a text section per event" "$(grep -c '^== event ' "$WORK/two.txt")" 2
check_eq "two events: a Markdown block per event" "$(grep -c '^## event ' "$WORK/two.md")" 2
"$AOTPERF" report -q -i "$WORK/two.data" --cwasm "$S" --html "$WORK/two.html" >/dev/null
check_eq "two events: --html: exit 0" "$?" 0
sed -n 's|^<script type="application/json" id="aotperf-data">\(.*\)</script>$|\1|p' \
	"$WORK/two.html" >"$WORK/two.doc.json"
for ev in cpu-clock task-clock; do
	jq -r --arg e "$ev" '.events[] | select(.event == $e) | "TOTAL \(.total_samples)",
		"CORE \(.attributed_samples)", (.cores[0].functions[] | select(.[1] > 0) |
		"FUNC \(.[0]) \(.[1])")' "$WORK/two.doc.json" | sort >"$WORK/html.$ev"
	same_counts "two events: the page's $ev entry (a block of its own) = perf script's $ev samples" \
		"$WORK/html.$ev" "$WORK/ref.$ev"
done
if command -v protoc >/dev/null 2>&1; then
	"$AOTPERF" report -q -i "$WORK/two.data" --cwasm "$S" --pprof "$WORK/two.pb.gz" >/dev/null
	gzip -dc "$WORK/two.pb.gz" | protoc --decode=perftools.profiles.Profile \
		--proto_path="$E2E/../../render" "$E2E/../../render/pprof.proto" >"$WORK/two.pb.txt"
	# the values of every sample, summed per sample type (value i: the i-th type)
	got=$(gawk '/^sample \{/ { s = 1; i = 0; next } s && /^\}/ { s = 0 }
		    s && $1 == "value:" { v[i++] += $2 }
		    END { printf "%d %d\n", v[0], v[1] }' "$WORK/two.pb.txt")
	check_eq "two events: pprof has a sample type per event, each summing to perf script's" \
		"$got" "$(awk '$1 == "TOTAL" { printf "%s ", $2 }' "$WORK/ref.cpu-clock" "$WORK/ref.task-clock" | sed 's/ $//')"
fi

# a pipe is read once: several events need --event
perf record -q -e cpu-clock,task-clock -k mono -F 2000 -o - -- "$LOADER" --ms 600 "$S" \
	>"$WORK/two.pipe" 2>"$WORK/pipe.log"
"$AOTPERF" report -q -i - --cwasm "$S" <"$WORK/two.pipe" >"$WORK/p.out" 2>"$WORK/p.err"
check_eq "two events in a pipe: exit 2" "$?" 2
check_eq "two events in a pipe: one line, nothing on stdout" \
	"$(wc -l <"$WORK/p.err") $(wc -c <"$WORK/p.out")" "1 0"
"$AOTPERF" report -q -i - --cwasm "$S" --event task-clock --json "$WORK/p.json" \
	<"$WORK/two.pipe" >/dev/null
check_eq "two events in a pipe: --event task-clock names it, perf script's count" \
	"$(jq -r '"\(.event) \(.total_samples)"' "$WORK/p.json")" \
	"task-clock $(perf script -i "$WORK/two.pipe" -F event 2>/dev/null | grep -c '^ *task-clock:')"

# ---- 2. one event: named in the JSON ----
record "$WORK/one.data" -- --ms 1500 "$S"
"$AOTPERF" report -q -i "$WORK/one.data" --cwasm "$S" --top 0 --json "$WORK/one.json" \
	>"$WORK/one.txt"
check_eq "one event: the JSON names it as perf does" "$(jq -r .event "$WORK/one.json")" \
	"$(perf evlist -i "$WORK/one.data" 2>/dev/null)"
check_eq "one event: no events list" "$(jq -r .events "$WORK/one.json")" null

# ---- 3. outside wasm: the host rows against perf report --sort dso,sym ----
# perf's rows, the core's own left out: the core is the //anon mapping of
# the core's page-rounded size (perf script --show-mmap-events), perf calls
# it "[JIT] tid PID" and names each address; a row is in the core when its
# address lies in the core's text. An unnamed address is perf's [unknown].
ts=$(syms_text_size "$S.syms")
cbase=$(perf script -i "$WORK/one.data" --show-mmap-events 2>/dev/null |
	gawk -v len="$(( (ts + 4095) / 4096 * 4096 ))" '/PERF_RECORD_MMAP2? .*r-xp \/\/anon/ {
		split($0, a, "[][()]"); if (strtonum(a[3]) == len) print strtonum(a[2]) }' | head -1)
perf report -i "$WORK/one.data" --stdio --no-children --sort dso,sym -n 2>/dev/null |
	gawk -v base="$cbase" -v ts="$ts" '
		/^#/ || NF < 4 { next }
		{
			n = $2; line = $0
			# dso: from the third field to the "[.]" / "[k]" marker
			m = match(line, / \[[.kgHu]\] /)
			head = substr(line, 1, m - 1); sym = substr(line, m + 5)
			sub(/^ *[0-9.]+% +[0-9]+ +/, "", head); sub(/ +$/, "", head); sub(/ +$/, "", sym)
			if (sym ~ /^0x[0-9a-f]+$/) {
				a = strtonum(sym)
				if (a >= base && a < base + ts) { core += n; next }
				sym = "[unknown]"
			}
			rows[head "|" sym] += n
		}
		END { for (r in rows) print "HOST " r " " rows[r]; print "INCORE " core + 0 }' |
	sort >"$WORK/host.ref"
# ours: the same rows, a path shortened to its file name as perf report prints
# it, C++ names demangled as perf does (a sanitized loader's libasan)
demangle() { if command -v c++filt >/dev/null 2>&1; then c++filt -p; else cat; fi; }
jq -r '.outside_wasm.rows[] | "\(.dso)\t\(.symbol)\t\(.samples)"' "$WORK/one.json" | demangle |
	gawk -F '\t' '{ d = $1; if (d ~ /^\//) { n = split(d, p, "/"); d = p[n] }; k[d "|" $2] += $3 }
		END { for (r in k) print "HOST " r " " k[r] }' >"$WORK/host.got"
echo "INCORE $(jq .attributed_samples "$WORK/one.json")" >>"$WORK/host.got"
sort -o "$WORK/host.got" "$WORK/host.got"
same_counts "outside wasm: the rows (dso, symbol, samples) are perf report --sort dso,sym's" \
	"$WORK/host.got" "$WORK/host.ref"
check_eq "outside wasm: the rows and the wasm samples add up to the total" \
	"$(jq '([.outside_wasm.rows[].samples] | add) + .attributed_samples' "$WORK/one.json")" \
	"$(perf script -i "$WORK/one.data" -F ip 2>/dev/null | wc -l)"
check "outside wasm: the text names the kernel as perf does" \
	grep -q '^ *[0-9]\+ .*\[kernel\.kallsyms\]' "$WORK/one.txt"

# ---- 4. two processes in one recording ----
perf record -q -e cpu-clock -k mono -F 2000 -o "$WORK/procs.data" -- \
	sh -c "'$LOADER' --ms 1200 '$S' & '$LOADER' --ms 1200 '$S'; wait" >"$WORK/procs.log" 2>&1
"$AOTPERF" report -q -i "$WORK/procs.data" --cwasm "$S" --top 0 --json "$WORK/procs.json" \
	>"$WORK/procs.txt"
check_eq "two processes: exit 0" "$?" 0
# perf script's view: per process its //anon core mapping, its command, its core samples
perf script -i "$WORK/procs.data" --show-mmap-events -F comm,pid 2>/dev/null |
	gawk -v len="$(( (ts + 4095) / 4096 * 4096 ))" '/PERF_RECORD_MMAP2? .*r-xp \/\/anon/ {
		split($0, a, "[][()]"); if (strtonum(a[3]) == len) printf "%s %s 0x%x\n", $2, $1, strtonum(a[2]) }' |
	sort >"$WORK/procs.maps"
: >"$WORK/procs.ref"
while read -r pid comm base; do
	core=$(reference "$WORK/procs.data" "$S.syms" "$pid" | awk '$1 == "CORE" { print $2 }')
	echo "$pid $comm $base $core" >>"$WORK/procs.ref"
done <"$WORK/procs.maps"
jq -r '.mappings[] | "\(.pid) \(.command) \(.base_hex) \(.samples)"' "$WORK/procs.json" |
	sort >"$WORK/procs.got"
check_eq "two processes: two mappings of the core, two pids" "$(wc -l <"$WORK/procs.ref")" 2
same_counts "two processes: each mapping's pid, command, base and samples are perf script's" \
	"$WORK/procs.got" "$WORK/procs.ref"
check_eq "two processes: the text has a line per process" "$(grep -c '^  process ' "$WORK/procs.txt")" 2
check_eq "two processes: each mapping's size is the core's page-rounded text" \
	"$(jq -r '[.mappings[].size] | unique | join(",")' "$WORK/procs.json")" \
	"$(( (ts + 4095) / 4096 * 4096 ))"
check_eq "one process: no process lines" "$(grep -c '^  process ' "$WORK/one.txt")" 0

# ---- 5. inputs said once ----
"$AOTPERF" report -q -i "$WORK/one.data" --cwasm "$S" --cwasm "$S" >"$WORK/tw.out" 2>"$WORK/tw.err"
check_eq "a core given twice: exit 2" "$?" 2
check_eq "a core given twice: one line, nothing on stdout" \
	"$(wc -l <"$WORK/tw.err") $(wc -c <"$WORK/tw.out")" "1 0"
check "a core given twice: says so" grep -q 'the same core as' "$WORK/tw.err"
cp "$S" "$WORK/copy.cwasm"
"$AOTPERF" report -q -i "$WORK/one.data" --cwasm "$S" --cwasm "$WORK/copy.cwasm" >/dev/null 2>&1
check_eq "a copy of a core given with it: exit 2" "$?" 2
# --func without -i reads ./perf.data, as report without --func does
mkdir "$WORK/cwd" && cp "$WORK/one.data" "$WORK/cwd/perf.data"
hot=$(jq -r '.top_functions[0].local_func' "$WORK/one.json")
(cd "$WORK/cwd" && "$AOTPERF" report -q --cwasm "$S" --func "$hot" --json "$WORK/f.json" \
	>"$WORK/f.txt")
check_eq "--func without -i: reads ./perf.data" "$(head -1 "$WORK/f.txt")" "aotperf report: perf.data"
check_eq "--func without -i: the function's samples are perf script's" \
	"$(jq -r .classified_functions[0].samples "$WORK/f.json")" \
	"$(reference "$WORK/one.data" "$S.syms" | awk -v f="$hot" '$1 == "FUNC" && $2 == f { print $3 }')"
rm "$WORK/cwd/perf.data"
(cd "$WORK/cwd" && "$AOTPERF" report -q --cwasm "$S" --func "$hot" >"$WORK/s.txt" 2>&1)
check_eq "--func without -i nor ./perf.data: static classes, said in one line" \
	"$(grep -c 'static classes, no recording' "$WORK/s.txt")" 1

finish
