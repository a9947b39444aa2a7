#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# What the off-CPU split by system call costs at recording time: perf's
# own system call loop (perf bench syscall basic: getppid N times) run
# bare, under record --off-cpu's switch form without the syscall
# tracepoints, and with raw_syscalls:sys_enter/sys_exit (call-graph=no) as
# record --off-cpu now records them. Prints, best of RUNS, microseconds
# per system call of each, and the recording's size per system call
# (16 MiB buffers; lost records are counted, so a full buffer cannot make
# it look cheaper unseen).
#
#   scripts/bench-offcpu-syscalls.sh [N] [RUNS]    (default 200000 3)
set -euo pipefail
n=${1:-200000}
runs=${2:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
base=(-q -N -k mono -m 16M -e cpu-clock/freq=4000,name=cpu-clock/ -e sched:sched_switch -g --switch-events)
sc=(-e raw_syscalls:sys_enter/call-graph=no/ -e raw_syscalls:sys_exit/call-graph=no/)

usecs() { sed -n 's/^ *\([0-9.]*\) usecs\/op$/\1/p' "$1"; }
best() { sort -g | head -n1; }
lost() { perf report -i "$1" --stats 2>/dev/null | gawk '/LOST/ { s += $NF } END { print s + 0 }'; }

for i in $(seq "$runs"); do
	perf bench syscall basic -l "$n" >"$tmp/bare.$i" 2>&1
	perf record "${base[@]}" -o "$tmp/sw.$i.data" -- perf bench syscall basic -l "$n" >"$tmp/sw.$i" 2>&1
	perf record "${base[@]}" "${sc[@]}" -o "$tmp/sc.$i.data" -- perf bench syscall basic -l "$n" \
		>"$tmp/sc.$i" 2>&1
done
b=$(for i in $(seq "$runs"); do usecs "$tmp/bare.$i"; done | best)
w=$(for i in $(seq "$runs"); do usecs "$tmp/sw.$i"; done | best)
s=$(for i in $(seq "$runs"); do usecs "$tmp/sc.$i"; done | best)
wsz=$(stat -c %s "$tmp/sw.1.data")
ssz=$(stat -c %s "$tmp/sc.1.data")
enters=$(perf script -i "$tmp/sc.1.data" -F event 2>/dev/null | grep -c 'raw_syscalls:sys_enter' || true)
echo "perf bench syscall basic -l $n (getppid), best of $runs, load: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '  %-46s %8s us/syscall\n' "bare" "$b" "switch form (record --off-cpu before)" "$w" \
	"switch form + raw_syscalls (record --off-cpu)" "$s"
gawk -v b="$b" -v w="$w" -v s="$s" -v n="$n" -v wsz="$wsz" -v ssz="$ssz" -v e="$enters" \
     -v lw="$(lost "$tmp/sw.1.data")" -v ls="$(lost "$tmp/sc.1.data")" 'BEGIN {
	printf "  the tracepoints add %.3f us per system call (%.0f%% over the switch form)\n",
		s - w, 100 * (s - w) / w
	printf "  recording: %d bytes without, %d with (%d sys_enter samples, %d + %d records lost)\n",
		wsz, ssz, e, lw, ls
	printf "  %.1f bytes per system call (%.1f per sys_enter recorded)\n", (ssz - wsz) / n,
		e ? (ssz - wsz) / e : 0
}'
