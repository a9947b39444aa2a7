#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The embeddable jitdump writer with stock perf and nothing else: a small
# stand-in runtime (tests/jitdump/live_demo.c, linked with the runtime
# library's sources alone: jitdump/jitdump.c and the .cwasm walker) maps a code blob RX and registers it; `perf record -k mono`, then
# `perf inject --jit` and `perf report` / `perf annotate` must name and
# disassemble its functions. Also: a child that maps and registers after a
# fork gets its own dump, and a perf map with aotperf's marker line works
# with plain `perf report`.
#
#   tests/e2e/jitdump_live.sh BUILD_DIR
. "$(dirname "$0")/lib/common.sh"
ROOT=$(cd "$E2E/../.." && pwd)

DEMO=$WORK/live_demo
cc -std=c11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Werror -I"$ROOT" \
	-o "$DEMO" "$ROOT/tests/jitdump/live_demo.c" "$ROOT"/jitdump/*.c "$ROOT"/unwind/*.c \
	"$ROOT/cwasm/walk.c" "$ROOT/cwasm/target.c" "$ROOT/cwasm/name.c" \
	-lpthread >"$WORK/cc.log" 2>&1
check "live_demo builds with the runtime library's sources alone (libc + pthreads)" [ -x "$DEMO" ] ||
	{ cat "$WORK/cc.log"; finish; exit 1; }

# The blob: two hot loops between cold functions, as raw text + nm listing.
cat >"$WORK/blob.S" <<'EOF'
	.intel_syntax noprefix
	.text
cold_0:
	xor eax, eax
	ret
	.p2align 4
hot_a:
	mov rcx, rdi
	xor eax, eax
.La:	imul rax, rax, 3
	add rax, rcx
	dec rcx
	jnz .La
	ret
	.p2align 4
hot_b:
	mov rcx, rdi
	mov eax, 1
.Lb:	lea rax, [rax + rax * 4 + 7]
	xor rax, rcx
	dec rcx
	jnz .Lb
	ret
	.p2align 4
cold_1:
	mov eax, 1
	ret
EOF
as -o "$WORK/blob.o" "$WORK/blob.S" &&
	objcopy -O binary -j .text "$WORK/blob.o" "$WORK/blob.bin" &&
	nm -n "$WORK/blob.o" >"$WORK/blob.nm"
check "blob assembled" [ -s "$WORK/blob.bin" ]

# pct REPORT SYM: the Overhead percentage of SYM in a --sort sym report
pct() {
	awk -v s="$2" '$NF == s { sub("%", "", $1); print $1; exit }' "$1"
}

# run_case NAME [live_demo options]: record, inject, report
run_case() {
	local name=$1; shift
	local d=$WORK/$name
	mkdir -p "$d/jit"
	perf record -q -e cpu-clock -k mono -F 2000 -o "$d/perf.data" -- \
		"$DEMO" --ms 1000 --dir "$d/jit" "$@" "$WORK/blob.bin" "$WORK/blob.nm" \
		>"$d/demo.log" 2>"$d/record.log"
	check "$name: perf record of live_demo" [ -s "$d/perf.data" ]
	sed 's/^/    /' "$d/demo.log"

	local pid dump
	pid=$(awk '/^live_demo: pid/ { print $3; exit }' "$d/demo.log")
	dump=$(awk '/^live_demo: pid/ { print $NF; exit }' "$d/demo.log")
	check_eq "$name: dump named after the registering pid" "$dump" "$d/jit/jit-$pid.dump"
	check "$name: dump written" [ -s "$dump" ]

	perf inject --jit -i "$d/perf.data" -o "$d/perf.jit.data" >"$d/inject.log" 2>&1
	check "$name: perf inject --jit" [ -s "$d/perf.jit.data" ]
	local njitted
	njitted=$(find "$d/jit" -name "jitted-$pid-*.so" | wc -l)
	check_eq "$name: perf inject wrote one ELF per function" "$njitted" \
		"$(wc -l <"$WORK/blob.nm")"

	perf report --stdio --sort sym -i "$d/perf.jit.data" >"$d/report.txt" 2>"$d/report.err"
	local a b
	a=$(pct "$d/report.txt" hot_a)
	b=$(pct "$d/report.txt" hot_b)
	check "$name: perf report names hot_a (${a:-none}%)" [ -n "$a" ]
	check "$name: perf report names hot_b (${b:-none}%)" [ -n "$b" ]
	check "$name: hot_a (3x the trips) outweighs hot_b" \
		awk -v a="${a:-0}" -v b="${b:-0}" 'BEGIN { exit !(a > b && a > 30) }'
	check "$name: no [JIT] bucket left for the code" \
		bash -c "! grep -q '\\[JIT\\] tid $pid' '$d/report.txt'"

	perf annotate --stdio -i "$d/perf.jit.data" hot_a >"$d/annotate.txt" 2>&1
	check "$name: perf annotate disassembles hot_a" grep -q "imul" "$d/annotate.txt"
	echo "$pid" >"$d/pid"
}

run_case plain
run_case fork --fork
# the parent opened the writer; the child registered: two dumps, the
# parent's holds no code, the child's all of it
d=$WORK/fork
check "fork: the child's dump is not the parent's" \
	bash -c "[ \$(ls '$d/jit'/jit-*.dump | wc -l) -eq 2 ]"

# A perf map led by aotperf's marker line (symbolize/perfmap.h) symbolizes
# the original recording, with no inject: perf reads the marker as a
# zero-size symbol at 0, which no sample can hit.
d=$WORK/plain
pid=$(cat "$d/pid")
base=$(awk '/^live_demo: pid/ { print $5; exit }' "$d/demo.log")
map=/tmp/perf-$pid.map
if [ -e "$map" ] || [ -L "$map" ]; then
	bad "perfmap: $map already exists; not touching it"
else
	{
		echo "0 0 aotperf-perf-map"
		awk -v base=$((base)) '
			{ off[NR] = strtonum("0x" $1); name[NR] = $3 }
			END { size = '"$(stat -c %s "$WORK/blob.bin")"'
			      for (i = 1; i <= NR; i++) {
				end = i < NR ? off[i + 1] : size
				printf "%x %x %s\n", base + off[i], end - off[i], name[i] } }' \
			"$WORK/blob.nm"
	} >"$map"
	perf report --stdio --sort sym -i "$d/perf.data" >"$d/report-map.txt" 2>/dev/null
	rm -f "$map"
	a=$(pct "$d/report-map.txt" hot_a)
	check "perfmap: marker line ignored, perf report names hot_a (${a:-none}%)" [ -n "$a" ]
	check "perfmap: the marker never shows as a symbol" \
		bash -c "! grep -q aotperf-perf-map '$d/report-map.txt'"
fi

finish
