#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# aotperf report's off-CPU view on perf 6.12's BPF `perf record --off-cpu`
# (offcpu-time samples: one per distinct stack, its period the nanoseconds
# off CPU) of tests/fixtures/offcpu.S (oc_nap_short naps 2 ms in the
# loader's host_nap, oc_nap_long 5 ms, oc_burn spins 1 ms in host_burn),
# checked against:
#
# * perf 6.12's own `perf script` of the offcpu-time samples, attributed by
#   tests/e2e/offcpu_bpf_perf.awk: self and inclusive off-CPU time per wasm
#   function, exactly (the same integers summed), and so is report
#   --folded --cpu-state off summed by innermost function, --children and
#   --callers/--callees --cpu-state off, and --pprof's off_cpu sample type;
# * the split by system call: none when the stacks hold no kernel frames
#   (perf 6.12's BPF program records user stacks), with one warning;
# * the slept time the loader measured around each nanosleep: a nap
#   function's off-CPU time is at least 90% of it and at least 98% of its
#   calls x the nap asked for; oc_burn stays on CPU (under 10 ms off);
# * the process's wall time is the run's span (the samples' made-up time,
#   written at the end, is not a moment of it): under 60 s.
#
# Records live with perf 6.12 built with BPF skeletons (PERF612, else
# ~/.cache/aotperf/perf-6.12/bin/perf: scripts/build-perf612.sh) where it
# can load BPF programs; else (CI: Debian 12's perf 6.1 ignores --off-cpu)
# the same checks run on perf 6.12's committed recording and its perf
# script (tests/fixtures/perf612/remake-offcpu.sh), said in one line.
#
#   tests/e2e/offcpu_bpf.sh BUILD_DIR
. "$(dirname "$0")/lib/common.sh"
. "$E2E/lib/asmcore.sh"

SRC=$(cd "$E2E/../.." && pwd)
FX=$SRC/tests/fixtures/perf612
P612=${PERF612:-$HOME/.cache/aotperf/perf-6.12/bin/perf}
[ -x "$P612" ] && "$P612" version 2>/dev/null | grep -q '^perf version 6\.12' || P612=

# live: record here with perf 6.12; else its committed recording
# (tests/fixtures/perf612/remake-offcpu.sh), perf 6.12's perf script of it
# the reference. $D.log: the loader's stderr; $SCRIPT: perf script -F
# tid,period,event,ip of $D.
D=$WORK/bpf.data SCRIPT=$WORK/bpf.script
live=
if [ -n "$P612" ]; then
	C=$WORK/oc.cwasm
	asm_core "$SRC/tests/fixtures/offcpu.S" "$C"
	check_eq "offcpu: fixture built" "$?" 0
	"$P612" record -q -N -k mono -F 2000 -e cpu-clock -g --off-cpu -o "$D" -- \
		"$LOADER" --wall --ms 1500 --mix offcpu:1 "$C" >"$D.out" 2>"$D.log"
	rc=$?
	"$P612" script -i "$D" -F tid,period,event,ip >"$SCRIPT" 2>/dev/null
	if [ "$rc" -eq 0 ] && grep -q 'offcpu-time:' "$SCRIPT"; then
		live=1
	else
		echo "note: perf 6.12 record --off-cpu does not work here (exit $rc:" \
			"$(grep -v '^loader' "$D.log" | head -n1)); the committed recording instead"
	fi
fi
if [ -z "$live" ]; then
	echo "note: perf 6.12's committed BPF recording (tests/fixtures/perf612/offcpu.*)"
	C=$WORK/oc.cwasm
	cp "$FX/offcpu.cwasm" "$C" && cp "$FX/offcpu.cwasm.syms" "$C.syms" &&
		cp "$FX/offcpu.data" "$D" && cp "$FX/offcpu.loader" "$D.log" &&
		cp "$FX/offcpu.script" "$SCRIPT"
	check_eq "committed perf 6.12 off-CPU fixture copied" "$?" 0
	check "the fixture holds offcpu-time samples" grep -q 'offcpu-time:' "$SCRIPT"
fi
base=$(sed -n 's/.* mapped at \(0x[0-9a-f]*\) .*/\1/p' "$D.log" | head -n1)

"$AOTPERF" report -q -i "$D" --cwasm "$C" --json "$WORK/r.json" >"$WORK/r.txt" 2>"$WORK/r.err"
check_eq "report: exit status" "$?" 0
check "report: the off-CPU view is on by itself, from offcpu-time" \
	grep -q '^off-CPU (from offcpu-time' "$WORK/r.txt"
check_eq "the core fits the recording (consistency, authoritative)" \
	"$(jq -c '[.cores[0].consistency.ok, .cores[0].authoritative]' "$WORK/r.json")" '[true,true]'
check_eq "JSON: off_cpu.source" "$(jq -r '.off_cpu.source' "$WORK/r.json")" offcpu-time
check_eq "JSON: intervals = perf script's offcpu-time samples" \
	"$(jq -r '.off_cpu.intervals' "$WORK/r.json")" \
	"$(grep -c 'offcpu-time:' "$SCRIPT")"

# the split by system call from kernel frames: perf 6.12's BPF stacks hold user frames
# only (as perf script shows them), so none, and one warning says why
kaddr=$("$P612" script -i "$D" -F event,ip 2>/dev/null |
	gawk '/offcpu-time:/ { on = 1; next } /:/ { on = 0 } on && $1 ~ /^ffff/ { n++ } END { print n + 0 }')
"$AOTPERF" report -i "$D" --cwasm "$C" --json "$WORK/k.json" >/dev/null 2>"$WORK/k.err"
if [ "$kaddr" -eq 0 ]; then
	check_eq "no kernel frames in the offcpu-time stacks: no split by system call" \
		"$(jq -r '.off_cpu | "\(has("syscalls")) \(.kernel_frames_unnamed_why)"' "$WORK/k.json")" \
		"false the stacks hold no kernel frames"
	check_eq "no kernel frames: one warning line" \
		"$(grep -c 'no split by system call from the kernel frames: the stacks hold no kernel' \
		"$WORK/k.err")" 1
else
	check_eq "kernel frames in the offcpu-time stacks: the split from them" \
		"$(jq -r '.off_cpu.syscall_source' "$WORK/k.json")" kernel_frames
fi

jq -r '.off_cpu.functions[] | select(.off_cpu_ns > 0) | "SELF \(.name) \(.off_cpu_ns)"' \
	"$WORK/r.json" >"$WORK/ours"
jq -r '.off_cpu.functions[] | select(.off_cpu_incl_ns > 0) | "INCL \(.name) \(.off_cpu_incl_ns)"' \
	"$WORK/r.json" >>"$WORK/ours"
gawk -v base="$base" -v syms="$C.syms" -f "$E2E/lib/wasmsyms.awk" -f "$E2E/offcpu_bpf_perf.awk" "$SCRIPT" >"$WORK/perf"
sort -o "$WORK/ours" "$WORK/ours"
sort -o "$WORK/perf" "$WORK/perf"
check "off-CPU self and inclusive per function = perf 6.12's perf script, exactly" \
	diff "$WORK/ours" <(grep -v '^EDGE' "$WORK/perf")
check "perf script saw both nap functions off CPU" grep -q 'SELF oc_nap_long' "$WORK/perf"

# --children --cpu-state off: the table's rows, "INCL name ms" and "SELF name ms"
"$AOTPERF" report -q -i "$D" --cwasm "$C" --children --cpu-state off >"$WORK/ch.txt"
check_eq "--children --cpu-state off: exit status" "$?" 0
gawk '/off-CPU time per wasm function/ { on = 1; next } on && NF == 3 && $3 ~ /local_func_/ {
	n = $3; sub(/^local_func_[0-9]+:/, "", n)
	if ($1 + 0 > 0) print "INCL", n, $1
	if ($2 + 0 > 0) print "SELF", n, $2 }' "$WORK/ch.txt" | sort >"$WORK/ch.ours"
gawk '$1 == "INCL" || $1 == "SELF" { printf "%s %s %.3f\n", $1, $2, $3 / 1e6 }' "$WORK/perf" |
	sort >"$WORK/ch.perf"
check "--children --cpu-state off = perf 6.12's perf script (ms)" diff "$WORK/ch.ours" "$WORK/ch.perf"

# --callers oc_nap_long, --callees entry_offcpu: edges between wasm frames
"$AOTPERF" report -q -i "$D" --cwasm "$C" --callers oc_nap_long --callers oc_nap_short \
	--callees entry_offcpu --cpu-state off >"$WORK/edges.txt"
check_eq "--callers/--callees --cpu-state off: exit status" "$?" 0
gawk '/^off-CPU callers of / { w = "callers"; f = $4; sub(/^local_func_[0-9]+:/, "", f); next }
	/^off-CPU callees of / { w = "callees"; f = $4; sub(/^local_func_[0-9]+:/, "", f); next }
	/^$/ { w = "" }
	w != "" && $3 ~ /^local_func_/ {
		o = $3; sub(/^local_func_[0-9]+:/, "", o)
		print "EDGE", (w == "callers" ? o " " f : f " " o), $1 }' "$WORK/edges.txt" |
	sort -u >"$WORK/edges.ours"
gawk '$1 == "EDGE" { printf "EDGE %s %s %.3f\n", $2, $3, $4 / 1e6 }' "$WORK/perf" |
	sort -u >"$WORK/edges.perf"
check "--callers/--callees --cpu-state off = perf 6.12's perf script's calls (ms)" \
	diff "$WORK/edges.ours" "$WORK/edges.perf"
check "perf script saw entry_offcpu call oc_nap_long off CPU" \
	grep -q '^EDGE entry_offcpu oc_nap_long' "$WORK/edges.perf"
"$AOTPERF" report -q -i "$D" --cwasm "$C" --folded "$WORK/off.folded" --cpu-state off >/dev/null
check_eq "--folded --cpu-state off: exit status" "$?" 0
gawk -f "$E2E/offcpu_folded.awk" "$WORK/off.folded" | gawk '{ print "SELF", $2, $4 }' | sort \
	>"$WORK/folded.self"
check "folded off-CPU stacks by innermost function = perf 6.12's perf script, exactly" \
	diff "$WORK/folded.self" <(grep '^SELF' "$WORK/perf")

# --pprof: an off_cpu sample type in nanoseconds; its values summed by the
# innermost wasm function of each sample's stack (protoc's decoding)
"$AOTPERF" report -q -i "$D" --cwasm "$C" --pprof "$WORK/p.pb.gz" >/dev/null
check_eq "--pprof: exit status" "$?" 0
gzip -dc "$WORK/p.pb.gz" | protoc --decode=perftools.profiles.Profile \
	--proto_path="$SRC/render" "$SRC/render/pprof.proto" >"$WORK/p.txt"
gawk -f "$E2E/lib/pprof_text.awk" -e '
	END {
		for (t = 1; t <= nt; t++)
			if (str[ttype[t]] == "off_cpu") { off = t; print "TYPE off_cpu " str[tunit[t]] }
		for (i = 1; i <= ns; i++) {
			if (!off || !val[i, off]) continue
			for (k = 1; k <= sn[i]; k++) {
				f = lf[loc[i, k]]
				if (str[fs[f]] ~ /^local_func_[0-9]+$/) {
					n = str[fn[f]]; sub(/^local_func_[0-9]+:/, "", n)
					self[n] += val[i, off]; break
				}
			}
		}
		for (n in self) print "SELF", n, self[n]
	}' "$WORK/p.txt" | sort >"$WORK/p.sum"
check_eq "--pprof: an off_cpu sample type in nanoseconds" \
	"$(grep '^TYPE' "$WORK/p.sum")" "TYPE off_cpu nanoseconds"
check "--pprof: off_cpu per innermost wasm function = perf 6.12's perf script, exactly" \
	diff <(grep '^SELF' "$WORK/p.sum") <(grep '^SELF' "$WORK/perf")

field() { jq -r --arg n "$1" ".off_cpu.functions[] | select(.name == \$n) | $2" "$WORK/r.json"; }
for nap in 2000:oc_nap_short 5000:oc_nap_long; do
	us=${nap%%:*} fn=${nap#*:}
	read -r calls took < <(sed -n "s/^loader: host_nap $us us: \([0-9]*\) calls, \([0-9]*\) ns/\1 \2/p" \
		"$D.log")
	s=$(field "$fn" '.off_cpu_ns')
	check "$fn: off CPU $s ns, at least 90% of the $took ns its $calls naps took" \
		gawk -v s="$s" -v t="$took" 'BEGIN { exit !(s >= 0.9 * t) }'
	check "$fn: off CPU at least 98% of $calls x $us us" \
		gawk -v s="$s" -v c="$calls" -v u="$us" 'BEGIN { exit !(c > 20 && s >= 0.98 * c * u * 1000) }'
	if [ -n "$live" ]; then
		check_eq "$fn: waits in the host import" "$(field "$fn" '.waits_in')" host_nap
	else
		# the committed recording's loader binary is not this build (or
		# not here): its frames are named by the file, never by this
		# build's symbols
		check_eq "$fn: waits in the recorded loader (another build: by its file)" \
			"$(field "$fn" '.waits_in')" loader
	fi
done
burn=$(field oc_burn '.off_cpu_ns')
check "oc_burn: the CPU-burning import stays on CPU (${burn:-?} ns off)" \
	gawk -v s="${burn:-0}" 'BEGIN { exit !(s < 10000000) }'
wall=$(jq -r '.off_cpu.processes[0].wall_ns' "$WORK/r.json")
check "the process's wall time is the run's span ($wall ns)" \
	gawk -v w="$wall" 'BEGIN { exit !(w > 1000000000 && w < 60000000000) }'
finish
