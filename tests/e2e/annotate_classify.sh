#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# aotperf annotate / classify against live perf: a plain C loop and the
# fixture kernels recorded with `perf record -e cpu-clock`, annotated by
# aotperf (perf annotate --asm-raw -M intel, decoded with capstone) and
# by perf itself in AT&T text piped to `aotperf classify`: the class
# tables must agree, the spill kernel must come out as frame traffic (no
# sidecar proves spills), the zero-extend kernel move-bound. Meant for tests/e2e/ (runs from here too):
#   bash tests/classify/e2e_annotate.sh BUILD_DIR
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=../e2e/lib/common.sh
. "$root/tests/e2e/lib/common.sh"

# the class rows of a table (between its "class" header and "total")
rows() { sed -n '/^  class /,/^  total /{/^  class /d;p}'; }

cat > "$WORK/hot.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
__attribute__((noinline)) unsigned hot(unsigned *a, unsigned n, unsigned k)
{
	unsigned s = 0;

	for (unsigned r = 0; r < k; r++)
		for (unsigned i = 0; i < n; i++)
			s = (s ^ a[i]) * 31 + (a[i] >> 3);
	return s;
}
int main(int argc, char **argv)
{
	static unsigned a[4096];

	for (unsigned i = 0; i < 4096; i++)
		a[i] = i * 2654435761u;
	printf("%u\n", hot(a, 4096, argc > 1 ? atoi(argv[1]) : 20000));
	return 0;
}
EOF
cat > "$WORK/kwrap.S" <<EOF
	.include "$root/tests/fixtures/kernels.S"
	.att_syntax
	.globl run_spill, run_zext
run_spill: jmp entry_spill_heavy
run_zext: jmp entry_zext_heavy
	.section .note.GNU-stack,"",@progbits
EOF
cat > "$WORK/kmain.c" <<'EOF'
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
uint32_t run_spill(void *vm, void *mem, uint32_t n);
uint32_t run_zext(void *vm, void *mem, uint32_t n);
int main(int argc, char **argv)
{
	static uint64_t vm[4];
	uint8_t *mem = calloc(1, 0x20000);
	uint32_t n = argc > 1 ? (uint32_t)atoi(argv[1]) : 1000000;

	vm[0] = (uintptr_t)mem;
	vm[1] = 0x10000;
	printf("%u\n", run_spill(vm, mem, n) + run_zext(vm, mem, n));
	return 0;
}
EOF
cc -O1 -o "$WORK/hot" "$WORK/hot.c" && cc -O1 -o "$WORK/kprog" "$WORK/kmain.c" "$WORK/kwrap.S" ||
	{ bad "build the test programs"; finish; exit; }
perf record -q -e cpu-clock -F 2000 -o "$WORK/h.data" "$WORK/hot" 20000 >/dev/null 2>&1
perf record -q -e cpu-clock -F 4000 -o "$WORK/k.data" "$WORK/kprog" 60000000 >/dev/null 2>&1

# annotate: raw bytes through capstone
"$AOTPERF" annotate -i "$WORK/h.data" --json "$WORK/h.json" --save "$WORK/h.txt" hot \
	>"$WORK/h.out" 2>"$WORK/h.err"
check_eq "annotate hot exits 0" "$?" 0
check "annotate names the symbol" grep -q '^symbol hot ' "$WORK/h.out"
check "annotate decoded the raw bytes" grep -q 'decoded    raw bytes (capstone), x86-64' "$WORK/h.out"
check "annotate saved perf's output (sample counts)" grep -q 'Samples |' "$WORK/h.txt"
check "annotate JSON has the classes" grep -q '"frame_load": {' "$WORK/h.json"
check "annotate JSON has the inferred roles" grep -q '"vmctx_param": "rdi"' "$WORK/h.json"
check "annotate JSON names the verdict" grep -q '"verdict": ' "$WORK/h.json"

# classify: perf's own AT&T text (and -n counts) give the same table
perf annotate -i "$WORK/h.data" --stdio hot 2>/dev/null | "$AOTPERF" classify - >"$WORK/h-att.out"
check_eq "classify AT&T text exits 0" "$?" 0
check "AT&T text was parsed as text" grep -q 'decoded    text (AT&T)' "$WORK/h-att.out"
check_eq "AT&T text table == raw-byte table" "$(rows <"$WORK/h-att.out" | md5sum)" \
	"$(rows <"$WORK/h.out" | md5sum)"
perf annotate -i "$WORK/h.data" --stdio -n -M intel hot 2>/dev/null >"$WORK/h-n.txt"
"$AOTPERF" classify "$WORK/h-n.txt" >"$WORK/h-n.out"
check "-n input reads counts" grep -q 'values     sample counts (-n)' "$WORK/h-n.out"
check_eq "-n Intel static counts == raw" \
	"$(rows <"$WORK/h-n.out" | awk '{print $1, $NF}' | md5sum)" \
	"$(rows <"$WORK/h.out" | awk '{print $1, $NF}' | md5sum)"

# the fixture kernels: the decision the classifier exists for
"$AOTPERF" annotate -i "$WORK/k.data" spill_heavy >"$WORK/s.out" 2>&1
check "spill kernel is frame traffic" grep -q '=> frame traffic' "$WORK/s.out"
check "spill kernel: the sidecar is named as what splits it" grep -q 'sidecar splits it into spills' "$WORK/s.out"
check "spill kernel: vmctx reloads are runtime state" grep -q '^  vmctx_reload  *[0-9]' "$WORK/s.out"
"$AOTPERF" annotate -i "$WORK/k.data" --att zext_heavy >"$WORK/z.out" 2>&1
check "zero-extend kernel is move-bound" grep -q '=> move-bound' "$WORK/z.out"
perf annotate -i "$WORK/k.data" --stdio zext_heavy 2>/dev/null | "$AOTPERF" classify - >"$WORK/z-att.out"
check_eq "zext kernel: AT&T text table == raw" "$(rows <"$WORK/z-att.out" | md5sum)" \
	"$(rows <"$WORK/z.out" | md5sum)"

# errors: one line, exit 2
echo "not perf output" | "$AOTPERF" classify - >/dev/null 2>"$WORK/g.err"
check_eq "garbage exits 2" "$?" 2
check_eq "garbage message" "$(cat "$WORK/g.err")" \
	'aotperf classify: <stdin>: no perf annotate output found (expected "Percent |" blocks)'
"$AOTPERF" annotate -i "$WORK/h.data" no_such_symbol >/dev/null 2>"$WORK/n.err"
check_eq "unknown symbol exits 2" "$?" 2
check "unknown symbol says so" grep -q "has no samples in 'no_such_symbol'" "$WORK/n.err"
# perf found the symbol but could not disassemble it: perf's own reason, not "no samples"
"$AOTPERF" annotate -i "$WORK/h.data" --objdump "$WORK/no-objdump" hot >/dev/null 2>"$WORK/o.err"
check_eq "objdump missing: exits 2" "$?" 2
check "objdump missing: says perf could not disassemble, with perf's reason" \
	grep -q "could not disassemble 'hot': Error running $WORK/no-objdump" "$WORK/o.err"
check "objdump missing: does not blame samples" bash -c "! grep -q 'no samples' '$WORK/o.err'"
"$AOTPERF" annotate -i "$WORK/h.data" --roles vmctx=zz hot >"$WORK/r.out" 2>"$WORK/r.err"
check_eq "--roles with no such register: exit 2 before perf runs, nothing printed" \
	"$?:$(wc -c <"$WORK/r.out")" "2:0"
check "--roles with no such register: says which" grep -q "'zz' is not a general-purpose register" \
	"$WORK/r.err"
PERF=/nonexistent/perf "$AOTPERF" annotate -i "$WORK/h.data" hot >/dev/null 2>"$WORK/p.err"
check_eq "missing perf exits 2" "$?" 2
check "missing perf says so" grep -q 'perf not found' "$WORK/p.err"
finish
