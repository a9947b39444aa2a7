#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The off-CPU view of a pipe-mode recording (docs/offcpu.md, "Pipe mode"):
# perf record -o - of cpu-clock + sched:sched_switch -g + --switch-events
# of the test loader running tests/fixtures/offcpu.S, whose tracepoint
# formats travel in a HEADER_TRACING_DATA record. Checked:
#
# * the pipe form saved to a file, read as a file: the off-CPU time per
#   function and state = perf script -i FILE's switch records and chains
#   (tests/e2e/offcpu_perf.awk), within 0.5%, and the naps against the
#   sleep the loader measured, as tests/e2e/offcpu.sh checks file mode;
# * the same bytes on stdin, a file and a real pipe (read once, put in
#   time order round by round): the same view, on-CPU counts too;
# * perf record -o - | aotperf report -i - live: the same view as the
#   stream saved by tee and read as a file;
# * a tracing-data record cut short, with a damaged section, a sched_switch
#   format off the kernel's layout or a size past the limit: exit 2, one
#   line naming the input, no output file.
#
#   tests/e2e/offcpu_pipe.sh BUILD_DIR
. "$(dirname "$0")/lib/common.sh"
. "$E2E/lib/asmcore.sh"

SRC=$(cd "$E2E/../.." && pwd)
C=$WORK/oc.cwasm
asm_core "$SRC/tests/fixtures/offcpu.S" "$C"
check_eq "offcpu pipe: fixture built" "$?" 0
EVENTS=(-e cpu-clock/freq=2000,name=cpu-clock/ -e sched:sched_switch -g --switch-events)

P=$WORK/pipe.data
perf record -q -N -k mono "${EVENTS[@]}" -o - -- "$LOADER" --wall --ms 1500 --mix offcpu:1 "$C" \
	>"$P" 2>"$P.log"
check_eq "perf record -o - > FILE: exit status" "$?" 0
check_eq "the recording is pipe mode (header size 16)" "$(od -An -t u8 -j 8 -N 8 "$P" | tr -d ' ')" 16
base=$(sed -n 's/.* mapped at \(0x[0-9a-f]*\) .*/\1/p' "$P.log" | head -n1)

"$AOTPERF" report -q -i "$P" --cwasm "$C" --json "$WORK/f.json" >"$WORK/f.txt" 2>"$WORK/f.err"
check_eq "report -i FILE (pipe mode): exit status" "$?" 0
check "report -i FILE (pipe mode): the off-CPU view is on" grep -q '^off-CPU (from switch records' \
	"$WORK/f.txt"
check_eq "JSON: off_cpu.source, the on-CPU event" \
	"$(jq -r '"\(.off_cpu.source) \(.event)"' "$WORK/f.json")" "switch cpu-clock"

# "OFF name state ns" of ours and of perf script, compared as offcpu.sh does
offs() {
	jq -r '.off_cpu.functions[] | .name as $n | .off_cpu_by_state | to_entries[] |
		select(.value > 0) | "OFF \($n) \(.key) \(.value)"' "$1" | sort
}
offs "$WORK/f.json" >"$WORK/ours"
# perf 6.1 applies -F to a pipe-mode file's events late: the chains keep their symbols
perf script -i "$P" --ns -F tid,time,event,trace,ip --show-switch-events 2>/dev/null |
	sed -E 's/^(\t *[0-9a-f]+) .*/\1/' |
	gawk -v base="$base" -v syms="$C.syms" -f "$E2E/lib/wasmsyms.awk" -f "$E2E/offcpu_perf.awk" | sort >"$WORK/perf"
cmp_out=$(gawk 'FNR == NR { a[$2 " " $3] = $4; next } { b[$2 " " $3] = $4 }
	END {
		for (k in a) if (!(k in b)) b[k] = 0
		for (k in b) {
			x = a[k] + 0; y = b[k]; d = x > y ? x - y : y - x
			if (d > 20000 && d > y * 0.005) printf "%s: aotperf %d, perf script %d; ", k, x, y
		}
	}' "$WORK/ours" "$WORK/perf")
check_eq "pipe-mode file: off-CPU per function and state = perf script's" "$cmp_out" ""
check "perf script saw both nap functions asleep" grep -q 'oc_nap_long S' "$WORK/perf"

field() { jq -r --arg n "$2" ".off_cpu.functions[] | select(.name == \$n) | $3" "$1"; }
for nap in 2000:oc_nap_short 5000:oc_nap_long; do
	us=${nap%%:*} fn=${nap#*:}
	read -r calls took < <(sed -n "s/^loader: host_nap $us us: \([0-9]*\) calls, \([0-9]*\) ns/\1 \2/p" \
		"$P.log")
	s=$(field "$WORK/f.json" "$fn" '.off_cpu_by_state.S')
	check "$fn: asleep $s ns of the $took ns its $calls naps took (90%..100.1%)" \
		gawk -v s="$s" -v t="$took" 'BEGIN { exit !(s >= 0.9 * t && s <= 1.001 * t) }'
	check "$fn: asleep at least 98% of $calls x $us us" \
		gawk -v s="$s" -v c="$calls" -v u="$us" 'BEGIN { exit !(c > 20 && s >= 0.98 * c * u * 1000) }'
	check_eq "$fn: waits in the host import" "$(field "$WORK/f.json" "$fn" '.waits_in')" host_nap
done

# the same bytes on stdin: a file (read as one), then through a pipe (read once)
"$AOTPERF" report -q -i - --cwasm "$C" --json "$WORK/s.json" <"$P" >/dev/null 2>&1
check_eq "report -i - < FILE: exit status" "$?" 0
check_eq "report -i - < FILE: the same off-CPU view" "$(jq -c .off_cpu "$WORK/s.json")" \
	"$(jq -c .off_cpu "$WORK/f.json")"
cat "$P" | "$AOTPERF" report -q -i - --cwasm "$C" --json "$WORK/p.json" >/dev/null 2>"$WORK/p.err"
check_eq "cat FILE | report -i -: exit status" "$?" 0
check_eq "through a pipe: the on-CPU event picked, the view's source" \
	"$(jq -r '"\(.event) \(.off_cpu.source)"' "$WORK/p.json")" "cpu-clock switch"
procs() { jq -c '[.off_cpu.processes[] | del(.off_cpu_wasm_ns)], .off_cpu.intervals' "$1"; }
check_eq "through a pipe: per-process off-CPU times and intervals = the file's" \
	"$(procs "$WORK/p.json")" "$(procs "$WORK/f.json")"
echo "info: off-CPU time in wasm: file $(jq '.off_cpu.processes[0].off_cpu_wasm_ns' "$WORK/f.json") ns," \
	"through a pipe $(jq '.off_cpu.processes[0].off_cpu_wasm_ns' "$WORK/p.json") ns"
# read once, but put back in time order round by round as perf does: the same view
check_eq "through a pipe: the same off-CPU view as the file" "$(jq -c .off_cpu "$WORK/p.json")" \
	"$(jq -c .off_cpu "$WORK/f.json")"
check_eq "through a pipe: the same on-CPU counts as the file" \
	"$(jq -c '[.total_samples, .attributed_samples, .top_functions]' "$WORK/p.json")" \
	"$(jq -c '[.total_samples, .attributed_samples, .top_functions]' "$WORK/f.json")"
"$AOTPERF" report -q -i - --cwasm "$C" --off-cpu=no --event cpu-clock --json - <"$P" \
	>"$WORK/no.json" 2>/dev/null
check_eq "--off-cpu=no --event cpu-clock on stdin: no off_cpu member" \
	"$(jq 'has("off_cpu")' "$WORK/no.json")" false

# live: perf record -o - | aotperf report -i -, the stream kept by tee
L=$WORK/live.data
perf record -q -N -k mono "${EVENTS[@]}" -o - -- "$LOADER" --wall --ms 1000 --mix offcpu:1 "$C" \
	2>"$L.log" | tee "$L" | "$AOTPERF" report -q -i - --cwasm "$C" --json "$WORK/live.json" \
	>"$WORK/live.txt" 2>"$WORK/live.err"
check_eq "perf record -o - | tee | report -i -: exit statuses" "${PIPESTATUS[*]}" "0 0 0"
check "live: the off-CPU view is on" grep -q '^off-CPU (from switch records' "$WORK/live.txt"
"$AOTPERF" report -q -i "$L" --cwasm "$C" --json "$WORK/lf.json" >/dev/null 2>&1
check_eq "live: the off-CPU view = the stream read as a file" "$(jq -c .off_cpu "$WORK/live.json")" \
	"$(jq -c .off_cpu "$WORK/lf.json")"
check "live: off-CPU time in the nap functions" \
	gawk -v s="$(field "$WORK/live.json" oc_nap_short '.off_cpu_ns')" 'BEGIN { exit !(s > 0) }'

# damaged tracing data: where its record is (the first of type 66), by its header
tdoff=$(python3 - "$P" <<'EOF'
import struct, sys
d = open(sys.argv[1], 'rb').read()
off = 16
while off + 8 <= len(d):
    t, _, sz = struct.unpack_from('<IHH', d, off)
    if t == 66:
        print(off, struct.unpack_from('<I', d, off + 8)[0])
        break
    off += sz
EOF
)
read -r toff tsize <<<"$tdoff"
check "the recording holds a tracing data record (${tdoff:-none})" test -n "${tsize:-}"
head -c $((toff + 16 + tsize / 2)) "$P" >"$WORK/cut.data"
python3 - "$P" "$toff" <<'EOF'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
o = int(sys.argv[2])
m = bytearray(d); m[o + 16:o + 19] = b'xyz'; open(sys.argv[1] + '.magic', 'wb').write(m)
h = bytearray(d); struct.pack_into('<I', h, o + 8, 0xfffffff0); open(sys.argv[1] + '.huge', 'wb').write(h)
# sched_switch's prev_state line off the kernel's layout, the length kept
f = bytearray(d); i = f.index(b' prev_state;\toffset:', o) + 13
f[i:i + 6] = b'offsex'; open(sys.argv[1] + '.format', 'wb').write(f)
EOF
mv "$P.magic" "$WORK/magic.data"; mv "$P.huge" "$WORK/huge.data"; mv "$P.format" "$WORK/format.data"
for bad in "cut:tracing data cut short: $((tsize / 2)) of $tsize bytes" \
	   "magic:tracing data: bad magic" "huge:tracing data record of 4294967280 bytes, over" \
	   "format:tracing data: the format of sched:sched_switch is not in the kernel's layout"; do
	name=${bad%%:*} want=${bad#*:}
	for how in pipe file; do
		rm -f "$WORK/bad.json"
		if [ "$how" = pipe ]; then
			cat "$WORK/$name.data" | "$AOTPERF" report -q -i - --cwasm "$C" \
				--json "$WORK/bad.json" >"$WORK/bad.out" 2>"$WORK/bad.err"
			rc=$? in=-
		else
			"$AOTPERF" report -q -i "$WORK/$name.data" --cwasm "$C" \
				--json "$WORK/bad.json" >"$WORK/bad.out" 2>"$WORK/bad.err"
			rc=$? in=$WORK/$name.data
		fi
		check_eq "$name tracing data ($how): exit 2, one line, no output" \
			"$rc $(wc -l <"$WORK/bad.err") $(wc -c <"$WORK/bad.out") $(test -e "$WORK/bad.json" && echo json)" \
			"2 1 0 "
		check "$name tracing data ($how): names the input and what is wrong" \
			grep -qF "aotperf report: $in: $want" "$WORK/bad.err"
	done
done
finish
