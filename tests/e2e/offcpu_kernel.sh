#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Off-CPU time split by system call from the kernel frames of the stacks
# (docs/offcpu-syscalls.md), on real recordings of tests/fixtures/offcpu.S
# (naps in nanosleep through host_nap, spins, burns) and offcpu_sc.S
# (nanosleep and poll), checked against:
#
# * stock perf's own naming of the kernel frames: perf script's switch
#   records and sched_switch chains with their symbols, paired and split
#   by tests/e2e/offcpu_kernel_perf.awk (the innermost __x64_sys_NAME-like
#   frame perf names): per function and system call, within 0.5% or 20 us;
# * report --folded --cpu-state off|both: the "[sys] NAME" frames summed
#   per name = the JSON's per-function split; --pprof's off_cpu samples the
#   same per "[sys] NAME" location;
# * a recording with the raw_syscalls tracepoints (aotperf record
#   --off-cpu): the tracepoints' split (what report uses) and the kernel
#   frames' split (kernel_frame_syscalls) agree, and agree with perf script
#   (the workload's execve, entered before perf enabled the events, is
#   "none" to the tracepoints); on perf bench sched pipe, whose read
#   tail-calls ksys_read (no entry frame), the kernel frames say "unknown"
#   and never give a name more time than the tracepoints give it;
# * a copy of the recording whose kernel build id is doctored, and one
#   made with perf record -B (no build ids): no names, no split, and one
#   warning line saying why; with tracepoints their split stays.
#
# Needs kernel call chains (root, or perf_event_paranoid <= 1) and a
# recording made on the running kernel; else one "skip:" line.
#
#   tests/e2e/offcpu_kernel.sh BUILD_DIR
. "$(dirname "$0")/lib/common.sh"
. "$E2E/lib/asmcore.sh"

SRC=$(cd "$E2E/../.." && pwd)
C=$WORK/oc.cwasm
asm_core "$SRC/tests/fixtures/offcpu.S" "$C"
check_eq "offcpu: fixture built" "$?" 0

# the switch form without system call tracepoints
D=$WORK/k.data
perf record -q -N -k mono -e cpu-clock/freq=2000,name=cpu-clock/ -e sched:sched_switch -g \
	--switch-events -o "$D" -- "$LOADER" --wall --ms 1500 --mix offcpu:1 "$C" >"$D.log" 2>&1
check_eq "perf record: cpu-clock + sched_switch -g + switch events" "$?" 0
base=$(sed -n 's/.* mapped at \(0x[0-9a-f]*\) .*/\1/p' "$D.log" | head -n1)
perf script -i "$D" --ns -F tid,time,event,trace,ip,sym --show-switch-events 2>/dev/null \
	>"$WORK/k.script"
if ! grep -qE '^[[:space:]]+ffff[0-9a-f]+ __(x64|arm64)_sys_' "$WORK/k.script"; then
	echo "skip: no kernel call chains in sched_switch samples (uid $(id -u), paranoid" \
		"$(cat /proc/sys/kernel/perf_event_paranoid))"
	finish
	exit
fi
rec_id=$(perf buildid-list -i "$D" 2>/dev/null | gawk '$2 == "[kernel.kallsyms]" { print $1 }')
run_id=$(perf buildid-list -k 2>/dev/null)
if [ -z "$rec_id" ] || [ "$rec_id" != "$run_id" ]; then
	echo "skip: perf sees another kernel build id here (recorded '$rec_id', running '$run_id')"
	finish
	exit
fi
ok "perf script: sched_switch chains hold kernel frames with system call entries"

"$AOTPERF" report -i "$D" --cwasm "$C" --json "$WORK/r.json" >"$WORK/r.txt" 2>"$WORK/r.err"
check_eq "report: exit status" "$?" 0
check_eq "JSON: syscall_source" "$(jq -r '.off_cpu.syscall_source' "$WORK/r.json")" kernel_frames
check_eq "JSON: kernel_frames_named" "$(jq -r '.off_cpu.kernel_frames_named' "$WORK/r.json")" true
check_eq "no warning about kernel frames" "$(grep -c 'kernel frames' "$WORK/r.err")" 0
check "text: the by-system-call table says where it comes from" \
	grep -q '^  by system call (from the kernel frames' "$WORK/r.txt"

# within BOTH of 0.5% or 20 us: "KEY ns" lines of two files, every key either side has
near() {
	gawk 'FNR == NR { a[$1] = $2; next } { b[$1] = $2 }
	END {
		for (k in a) if (!(k in b)) b[k] = 0
		for (k in b) {
			x = a[k] + 0; y = b[k]; d = x > y ? x - y : y - x
			if (d > 20000 && d > y * 0.005) printf "%s: aotperf %d, perf script %d; ", k, x, y
		}
	}' "$1" "$2"
}
gawk -v base="$base" -v syms="$C.syms" -f "$E2E/lib/wasmsyms.awk" -f "$E2E/offcpu_kernel_perf.awk" "$WORK/k.script" \
	>"$WORK/perf"
jq -r '.off_cpu.functions[] | .name as $n | .syscalls[] | "\($n)/\(.name) \(.ns)"' \
	"$WORK/r.json" | sort >"$WORK/ours.fsc"
gawk '$1 == "FSC" { print $2 "/" $3, $4 }' "$WORK/perf" | sort >"$WORK/perf.fsc"
check_eq "off-CPU per function and system call = perf script's kernel frames" \
	"$(near "$WORK/ours.fsc" "$WORK/perf.fsc")" ""
# "unknown" left out on both sides: aotperf also counts there the intervals
# whose sched_switch sample was lost (no stack), which perf script cannot
# show; a wait in a tail-called system call is unknown to both
jq -r '.off_cpu.syscalls[] | select(.name != "unknown") | "\(.name) \(.ns)"' "$WORK/r.json" |
	sort >"$WORK/ours.sc"
gawk '$1 == "SC" && $2 != "unknown" { print $2, $3 }' "$WORK/perf" | sort >"$WORK/perf.sc"
check_eq "off-CPU per system call but unknown (all intervals) = perf script's" \
	"$(near "$WORK/ours.sc" "$WORK/perf.sc")" ""
nap=$(gawk '$1 == "oc_nap_long/nanosleep" || $1 == "oc_nap_long/clock_nanosleep" { print $1 }' \
	"$WORK/perf.fsc")
check "perf script: oc_nap_long waits in a sleep system call (${nap:-none})" test -n "$nap"
check "oc_spin: preempted outside any system call (none)" grep -q '^oc_spin/none ' "$WORK/ours.fsc"

# --folded: the [sys] frames summed per name = the JSON's per-function split
"$AOTPERF" report -q -i "$D" --cwasm "$C" --folded "$WORK/off.folded" --cpu-state off >/dev/null
check_eq "--folded --cpu-state off: exit status" "$?" 0
# "NAME ns" per [sys] frame, "none" for lines without one
sysum() {
	gawk '{ ns = $NF; s = "none"; k = split($0, fr, ";")
		for (i = 1; i <= k; i++) if (fr[i] ~ /^\[sys\] /) { s = fr[i]; sub(/^\[sys\] /, "", s) }
		t[s] += ns } END { for (x in t) print x, t[x] }' "$1" | sort
}
sysum "$WORK/off.folded" >"$WORK/folded.sc"
jq -r '[.off_cpu.functions[].syscalls[]] | group_by(.name)[] | "\(.[0].name) \(map(.ns) | add)"' \
	"$WORK/r.json" | sort >"$WORK/json.sc"
check "folded [sys] frames per name = the JSON's per-function split, exactly" \
	diff "$WORK/folded.sc" "$WORK/json.sc"
check "folded: the nap's stack runs through the import, then its system call" \
	grep -qE '^local_func_[0-9]+:entry_offcpu;local_func_[0-9]+:oc_nap_long;host_nap;\[sys\] [a-z_]*nanosleep;\[S\] [0-9]+$' \
	"$WORK/off.folded"
"$AOTPERF" report -q -i "$D" --cwasm "$C" --folded "$WORK/both.folded" --cpu-state both >/dev/null
check "folded --cpu-state both: the same off-CPU lines" \
	bash -c "grep -F -x -f '$WORK/off.folded' '$WORK/both.folded' | cmp -s - '$WORK/off.folded'"

# --pprof: off_cpu values per "[sys] NAME" location (protoc's decoding)
"$AOTPERF" report -q -i "$D" --cwasm "$C" --pprof "$WORK/p.pb.gz" >/dev/null
check_eq "--pprof: exit status" "$?" 0
gzip -dc "$WORK/p.pb.gz" | protoc --decode=perftools.profiles.Profile \
	--proto_path="$SRC/render" "$SRC/render/pprof.proto" >"$WORK/p.txt"
gawk -f "$E2E/lib/pprof_text.awk" -e '
	END {
		for (t = 1; t <= nt; t++)
			if (str[ttype[t]] == "off_cpu") off = t
		for (i = 1; i <= ns; i++) {
			if (!off || !val[i, off]) continue
			s = "none"
			for (k = 1; k <= sn[i]; k++) {
				nm = str[fn[lf[loc[i, k]]]]
				if (nm ~ /^\[sys\] /) { s = nm; sub(/^\[sys\] /, "", s) }
			}
			t2[s] += val[i, off]
		}
		for (x in t2) print x, t2[x]
	}' "$WORK/p.txt" | sort >"$WORK/pprof.sc"
check "--pprof off_cpu per [sys] location = the folded lines', exactly" \
	diff "$WORK/pprof.sc" "$WORK/folded.sc"

# a copy whose kernel build id is another's: no names, one line why
X=$WORK/other.data
cp "$D" "$X"
perl -0777 -pi -e 'BEGIN { $a = pack("H*", shift); ($b = $a) =~ s/^(.)/chr(ord($1) ^ 0xff)/se }
	s/\Q$a\E/$b/g' "$rec_id" "$X"
x_id=$(perf buildid-list -i "$X" 2>/dev/null | gawk '$2 == "[kernel.kallsyms]" { print $1 }')
check "the copy's kernel build id is another one ($x_id)" \
	test -n "$x_id" -a "$x_id" != "$rec_id"
"$AOTPERF" report -i "$X" --cwasm "$C" --json "$WORK/x.json" --folded "$WORK/x.folded" \
	--cpu-state off >/dev/null 2>"$WORK/x.err"
check_eq "another kernel: exit status" "$?" 0
check_eq "another kernel: kernel_frames_named" \
	"$(jq -r '.off_cpu.kernel_frames_named' "$WORK/x.json")" false
check_eq "another kernel: no split by system call" \
	"$(jq -r '.off_cpu | has("syscalls") or has("syscall_source")' "$WORK/x.json")" false
check_eq "another kernel: one warning line, why" \
	"$(grep -c "no split by system call from the kernel frames.*another kernel (build id $x_id, running $rec_id)" \
		"$WORK/x.err")/$(grep -c 'kernel frames' "$WORK/x.err")" 1/1
check_eq "another kernel: no [sys] frame in the folded stacks" \
	"$(grep -c '\[sys\]' "$WORK/x.folded")" 0
check_eq "another kernel: the same off-CPU time in the folded stacks" \
	"$(gawk '{ s += $NF } END { print s }' "$WORK/x.folded")" \
	"$(gawk '{ s += $NF } END { print s }' "$WORK/off.folded")"

# no build ids at all (perf record -B)
N=$WORK/nobid.data
perf record -q -N -B -k mono -e cpu-clock/freq=2000,name=cpu-clock/ -e sched:sched_switch -g \
	--switch-events -o "$N" -- "$LOADER" --wall --ms 300 --mix offcpu:1 "$C" >"$N.log" 2>&1
"$AOTPERF" report -i "$N" --cwasm "$C" --json "$WORK/n.json" >/dev/null 2>"$WORK/n.err"
check_eq "perf record -B: no kernel build id, one warning line" \
	"$(grep -c 'no split by system call from the kernel frames.*no kernel build id' "$WORK/n.err")" 1
check_eq "perf record -B: no split by system call" \
	"$(jq -r '.off_cpu | has("syscalls")' "$WORK/n.json")" false

# with the raw_syscalls tracepoints: they count; the kernel frames agree
SC=$WORK/sc.cwasm
asm_core "$SRC/tests/fixtures/offcpu_sc.S" "$SC"
T=$WORK/t.data
"$AOTPERF" record --off-cpu -F 2000 --cwasm "$SC" -o "$T" --perf-arg -N --no-inject -- \
	"$LOADER" --wall --ms 1500 --mix ocsys:1 "$SC" >"$T.out" 2>"$T.log"
check_eq "aotperf record --off-cpu: exit status" "$?" 0
tbase=$(sed -n 's/.* mapped at \(0x[0-9a-f]*\) .*/\1/p' "$T.log" | head -n1)
"$AOTPERF" report -q -i "$T" --cwasm "$SC" --json "$WORK/t.json" >/dev/null 2>&1
check_eq "tracepoints: syscall_source" "$(jq -r '.off_cpu.syscall_source' "$WORK/t.json")" \
	tracepoints
jq -r '.off_cpu.syscalls[] | "\(.name) \(.ns)"' "$WORK/t.json" | sort >"$WORK/t.tp"
jq -r '.off_cpu.kernel_frame_syscalls[] | "\(.name) \(.ns)"' "$WORK/t.json" | sort >"$WORK/t.kf"
check "tracepoints: both system calls waited in" \
	bash -c "grep -q '^nanosleep ' '$WORK/t.tp' && grep -q '^poll ' '$WORK/t.tp'"
# perf enables the events at the workload's exec: that execve's sys_enter is
# not recorded, so the tracepoints count a wait inside it as "none" (its
# entry unseen, docs/offcpu-syscalls.md) where the kernel frames say execve
as_tp() {
	gawk '$1 == "execve" { $1 = "none" } { t[$1] += $2 } END { for (k in t) print k, t[k] }' "$1" |
		sort
}
# a system call whose entry tail-calls its body (write -> ksys_write, as
# read below) leaves no entry frame: the kernel frames say "unknown" where
# the tracepoints name it. as_kf TP KF: TP with each name KF lacks counted
# as unknown, when KF has unknown time (a rare short write by the loader)
as_kf() {
	gawk 'FNR == NR { kf[$1] = $2; next }
		("unknown" in kf) && !($1 in kf) { $1 = "unknown" }
		{ t[$1] += $2 } END { for (k in t) print k, t[k] }' "$2" "$1" | sort
}
check_eq "tracepoints' split = the kernel frames' split (0.5% or 20 us; execve as none)" \
	"$(near <(as_tp "$WORK/t.kf") <(as_kf "$WORK/t.tp" "$WORK/t.kf"))" ""
perf script -i "$T" --ns -F tid,time,event,trace,ip,sym --show-switch-events 2>/dev/null |
	gawk -v base="$tbase" -v syms="$SC.syms" -f "$E2E/lib/wasmsyms.awk" -f "$E2E/offcpu_kernel_perf.awk" |
	gawk '$1 == "SC" { print $2, $3 }' | sort >"$WORK/t.perf"
check_eq "tracepoints' split = perf script's kernel frames (0.5% or 20 us; execve as none)" \
	"$(near <(as_kf "$WORK/t.tp" "$WORK/t.perf") <(as_tp "$WORK/t.perf"))" ""
check_eq "kernel frames' split = perf script's kernel frames (0.5% or 20 us)" \
	"$(near "$WORK/t.kf" "$WORK/t.perf")" ""
printf '%s\n' "measured (ms): tracepoints $(gawk '{ printf "%s %.3f ", $1, $2 / 1e6 }' "$WORK/t.tp")" \
	"              kernel frames $(gawk '{ printf "%s %.3f ", $1, $2 / 1e6 }' "$WORK/t.kf")"

# never confidently wrong: perf bench sched pipe waits in read, whose entry
# __x64_sys_read tail-calls ksys_read (no entry frame on the stack): the
# kernel frames leave it unknown, never another name or none
Q=$WORK/pipe.data
perf record -q -N -m 8M -k mono -e cpu-clock/freq=2000,name=cpu-clock/ -e sched:sched_switch -g \
	--switch-events -e raw_syscalls:sys_enter/call-graph=no/ \
	-e raw_syscalls:sys_exit/call-graph=no/ -o "$Q" -- bash -c "'$LOADER' --wall --ms 400 \
	--mix offcpu:1 '$C' >'$Q.log' 2>&1 & perf bench sched pipe -l 20000 >/dev/null; wait"
check_eq "perf record: perf bench sched pipe + the loader, with raw_syscalls" "$?" 0
qbase=$(sed -n 's/.* mapped at \(0x[0-9a-f]*\) .*/\1/p' "$Q.log" | head -n1)
"$AOTPERF" report -q -i "$Q" --cwasm "$C" --json "$WORK/q.json" >/dev/null 2>&1
jq -r '.off_cpu.syscalls[] | "\(.name) \(.ns)"' "$WORK/q.json" | sort >"$WORK/q.tp"
jq -r '.off_cpu.kernel_frame_syscalls[] | "\(.name) \(.ns)"' "$WORK/q.json" | sort >"$WORK/q.kf"
perf script -i "$Q" --ns -F tid,time,event,trace,ip,sym --show-switch-events 2>/dev/null |
	gawk -v base="$qbase" -v syms="$C.syms" -f "$E2E/lib/wasmsyms.awk" -f "$E2E/offcpu_kernel_perf.awk" |
	gawk '$1 == "SC" { print $2, $3 }' | sort >"$WORK/q.perf"
# an interval whose sched_switch sample was lost (a loaded machine) is
# "unknown" to aotperf (no stack) and not counted by the awk: unknown at least
check_eq "pipe: kernel frames' split = perf script's kernel frames (0.5% or 20 us; unknown >=)" \
	"$(near <(grep -v '^unknown ' "$WORK/q.kf") <(grep -v '^unknown ' "$WORK/q.perf"))$(
	   gawk 'FNR == NR { a[$1] = $2; next } $1 == "unknown" && a["unknown"] + 20000 < $2 * 0.995 {
		printf "unknown: aotperf %d < perf script %d", a["unknown"], $2 }' "$WORK/q.kf" "$WORK/q.perf")" ""
check "pipe: the tracepoints see the waits in read" grep -q '^read ' "$WORK/q.tp"
check "pipe: the kernel frames leave some unknown" grep -q '^unknown ' "$WORK/q.kf"
# every name the kernel frames give (none too) holds no more than the
# tracepoints give it (execve: or none, when its entry went unrecorded)
check_eq "pipe: no kernel-frame name exceeds the tracepoints' time for it (0.5% or 20 us)" \
	"$(gawk 'FNR == NR { tp[$1] = $2; next } $1 != "unknown" {
		y = tp[$1] + ($1 == "execve" ? tp["none"] : 0)
		if ($2 > y + 20000 && $2 > y * 1.005) printf "%s: %d > %d; ", $1, $2, y
	}' "$WORK/q.tp" "$WORK/q.kf")" ""
printf '%s\n' "pipe (ms): tracepoints $(gawk '{ printf "%s %.3f ", $1, $2 / 1e6 }' "$WORK/q.tp")" \
	"           kernel frames $(gawk '{ printf "%s %.3f ", $1, $2 / 1e6 }' "$WORK/q.kf")"

TX=$WORK/t-other.data
cp "$T" "$TX"
t_id=$(perf buildid-list -i "$T" 2>/dev/null | gawk '$2 == "[kernel.kallsyms]" { print $1 }')
perl -0777 -pi -e 'BEGIN { $a = pack("H*", shift); ($b = $a) =~ s/^(.)/chr(ord($1) ^ 0xff)/se }
	s/\Q$a\E/$b/g' "$t_id" "$TX"
"$AOTPERF" report -i "$TX" --cwasm "$SC" --json "$WORK/tx.json" >/dev/null 2>"$WORK/tx.err"
check_eq "tracepoints, another kernel: their split stays, no kernel_frame_syscalls, no warning" \
	"$(jq -r '.off_cpu | "\(.syscall_source) \(has("kernel_frame_syscalls"))"' "$WORK/tx.json") $(grep -c 'kernel frames' "$WORK/tx.err")" \
	"tracepoints false 0"
check "tracepoints, another kernel: the same split" \
	diff <(jq -c '.off_cpu.syscalls' "$WORK/tx.json") <(jq -c '.off_cpu.syscalls' "$WORK/t.json")
finish
