#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Where the kernel rows' names come from, seen from outside with strace
# (profile/kallsyms.h, docs/formats-perf.md "Kernel symbols"): which
# files a report opens and how much of them it reads, not time.
#
#   - perf record keeps a copy of /proc/kallsyms in its build-id cache
#     (the folder PERF_CONFIG's buildid.dir names, as for every test): the
#     report reads that copy once, all of it, and neither /proc/kallsyms
#     nor /sys/kernel/notes;
#   - without the copy (PERF_BUILDID_DIR an empty folder), on the kernel
#     that was recorded: /proc/kallsyms once, and the same rows;
#   - a recording without kernel samples (cpu-clock:u): no kernel
#     symbols read at all, nor the kernel's build id;
#   - a copy of the recording whose kernel build id is another's, no
#     copy for it: neither file read, its kernel rows unnamed;
#   - the rows' names are perf report's own for the same samples.
#
# Needs kernel samples (perf_event_paranoid <= 1, or root) and
# /proc/kallsyms with addresses; else one "skip:" line.
#
#   tests/e2e/kernel_syms.sh BUILD_DIR
. "$(dirname "$0")/lib/common.sh"
. "$E2E/lib/traced.sh"

if ! command -v strace >/dev/null 2>&1; then
	bad "strace is not installed (scripts/test-deps.sh installs it)"
	finish
	exit
fi
S=$FIX/sample.cwasm
D=$WORK/k.data
# the loader beside a writer that lives in system calls: kernel rows on top
perf record -q -e cpu-clock -k mono -F 2000 -o "$D" -- sh -c \
	"'$LOADER' --ms 600 '$S' >/dev/null & dd if=/dev/zero of=/dev/null bs=16 count=400000 2>/dev/null; wait" \
	>"$WORK/k.log" 2>&1
check_eq "perf record: the loader and dd" "$?" 0
if ! perf script -i "$D" -F ip,sym 2>/dev/null | grep -q ' ffffffff[0-9a-f]* [a-z_]'; then
	echo "skip: no named kernel samples (uid $(id -u), paranoid $(cat /proc/sys/kernel/perf_event_paranoid))"
	finish
	exit
fi
kid=$(perf buildid-list -i "$D" 2>/dev/null | gawk '$2 == "[kernel.kallsyms]" { print $1 }')
cache=$(gawk -F'=' '/dir/ { gsub(/[ \t]/, "", $2); print $2 }' "$PERF_CONFIG")
copy="$cache/[kernel.kallsyms]/$kid/kallsyms"
check "perf record kept its copy of kallsyms for kernel $kid" test -n "$kid" -a -s "$copy"

# kernel rows: "SYMBOL SAMPLES" sorted, from a report's JSON
krows() { jq -r '.outside_wasm.rows[] | select(.dso == "[kernel.kallsyms]") | "\(.symbol) \(.samples)"' "$1" |
	sort; }

read -r opens bytes _ < <(traced "$copy" "$AOTPERF" report -q -i "$D" --cwasm "$S" --json "$WORK/c.json")
check_eq "report: exit status" "$(cat "$WORK/traced.rc")" 0
check_eq "report: perf's copy of kallsyms opened once" "$opens" 1
check_eq "report: all of it read" "$bytes" "$(stat -c %s "$copy")"
check_eq "report: /proc/kallsyms not opened" "$(traced_opens '^/proc/kallsyms$')" 0
check_eq "report: the running kernel's build id not read" "$(traced_opens '^/sys/kernel/notes$')" 0
krows "$WORK/c.json" >"$WORK/c.rows"
check "report: kernel rows named" grep -qv '^\[unknown\] ' "$WORK/c.rows"

# perf's names for the same kernel samples, summed per symbol (its own kallsyms)
perf report -i "$D" --stdio -n -g none --sort dso,sym 2>/dev/null |
	gawk '$3 == "[kernel.kallsyms]" && $4 == "[k]" { n[$5] += $2 } END { for (s in n) print s, n[s] }' |
	sort >"$WORK/perf.rows"
check "report: the kernel rows are perf report's ($(wc -l <"$WORK/perf.rows") symbols)" \
	diff "$WORK/c.rows" "$WORK/perf.rows"

empty=$WORK/no-cache
mkdir -p "$empty"
read -r opens bytes _ < <(PERF_BUILDID_DIR=$empty traced /proc/kallsyms "$AOTPERF" report -q -i "$D" \
	--cwasm "$S" --json "$WORK/p.json")
check_eq "no copy: exit status" "$(cat "$WORK/traced.rc")" 0
check_eq "no copy, the recorded kernel runs: /proc/kallsyms opened once" "$opens" 1
check_eq "no copy: the kernel's build id read" "$(traced_opens '^/sys/kernel/notes$')" 1
krows "$WORK/p.json" >"$WORK/p.rows"
check "no copy: the same kernel rows" diff "$WORK/c.rows" "$WORK/p.rows"

U=$WORK/user.data
perf record -q -e cpu-clock:u -k mono -F 2000 -o "$U" -- "$LOADER" --ms 400 "$S" >"$WORK/u.log" 2>&1
check_eq "perf record -e cpu-clock:u" "$?" 0
read -r opens _ < <(traced /proc/kallsyms "$AOTPERF" report -q -i "$U" --cwasm "$S")
check_eq "user samples only: exit status" "$(cat "$WORK/traced.rc")" 0
check_eq "user samples only: no kallsyms opened" "$(traced_opens 'kallsyms')" 0
check_eq "user samples only: the kernel's build id not read" "$(traced_opens '^/sys/kernel/notes$')" 0

# the recording's kernel build id made another's: no copy, not this kernel
X=$WORK/other.data
cp "$D" "$X"
perl -0777 -pi -e 'BEGIN { $a = pack("H*", shift); ($b = $a) =~ s/^(.)/chr(ord($1) ^ 0xff)/se }
	s/\Q$a\E/$b/g' "$kid" "$X"
read -r opens _ < <(traced /proc/kallsyms "$AOTPERF" report -q -i "$X" --cwasm "$S" --json "$WORK/x.json")
check_eq "another kernel: exit status" "$(cat "$WORK/traced.rc")" 0
check_eq "another kernel: no kallsyms opened" "$(traced_opens 'kallsyms')" 0
check_eq "another kernel: its kernel rows unnamed" "$(krows "$WORK/x.json" | grep -vc '^\[unknown\] ')" 0
check_eq "another kernel: the same kernel samples" \
	"$(krows "$WORK/x.json" | gawk '{ s += $2 } END { print s + 0 }')" \
	"$(gawk '{ s += $2 } END { print s + 0 }' "$WORK/c.rows")"
finish
