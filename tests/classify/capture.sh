#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Re-capture the perf annotate samples in this folder (annot-*.txt): the
# fixture kernels (tests/fixtures/kernels.S) and a small C loop, each run
# natively under `perf record -e cpu-clock`, then annotated in the
# variants the classifier must read. Not part of the build: the captured
# text is checked in, so the tests do not depend on this machine's perf.
# The checked-in captures predate the kernels' move to the generator's
# idioms: they are of the pinned rbx/r15 code (docs/codegen-idioms.md), which
# tests/unit/test_classify.c reads with --roles vmctx=rbx,membase=r15;
# re-capturing changes the counts that test expects.
#
#   tests/classify/capture.sh        (from the repository root)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$root/tests/classify
tmp=$(mktemp -d "${TMPDIR:-/tmp}/aotperf-capture.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

cat > "$tmp/kwrap.S" <<EOF
	.include "$root/tests/fixtures/kernels.S"
	.att_syntax
	.globl run_spill, run_zext, run_bt, run_bc
run_spill: jmp entry_spill_heavy
run_zext: jmp entry_zext_heavy
run_bt: jmp entry_br_table_dispatch
run_bc: jmp entry_bounds_checked_mem
	.section .note.GNU-stack,"",@progbits
EOF
cat > "$tmp/kmain.c" <<'EOF'
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
uint32_t run_spill(void *vm, void *mem, uint32_t n);
uint32_t run_zext(void *vm, void *mem, uint32_t n);
uint32_t run_bt(void *vm, void *mem, uint32_t n);
uint32_t run_bc(void *vm, void *mem, uint32_t n);
int main(int argc, char **argv)
{
	static uint64_t vm[4];
	uint8_t *mem = calloc(1, 0x20000);
	uint32_t n = argc > 1 ? (uint32_t)atoi(argv[1]) : 1000000, s = 0;

	vm[0] = (uintptr_t)mem;
	vm[1] = 0x10000;
	for (int i = 0; i < 0x10000; i++)
		mem[i] = (uint8_t)(i * 7);
	s += run_spill(vm, mem, n);
	s += run_zext(vm, mem, n * 2);
	s += run_bt(vm, mem, n * 3);
	s += run_bc(vm, mem, n);
	printf("%u\n", s);
	return 0;
}
EOF
cat > "$tmp/hot.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
__attribute__((noinline)) unsigned hot(unsigned *a, unsigned n, unsigned k)
{
	unsigned s = 0;

	for (unsigned r = 0; r < k; r++)
		for (unsigned i = 0; i < n; i++) {
			switch (a[i] & 7) {
			case 0: s += a[i]; break;
			case 1: s ^= a[i] << 3; break;
			case 2: s -= i; break;
			case 3: s = s * 31 + 7; break;
			case 4: s = (s >> 3) | (s << 29); break;
			case 5: s += r * i; break;
			case 6: s ^= 0x55aa; break;
			default: s = ~s; break;
			}
		}
	return s;
}
int main(int argc, char **argv)
{
	unsigned n = 4096, a[4096];

	for (unsigned i = 0; i < n; i++)
		a[i] = i * 2654435761u;
	printf("%u\n", hot(a, n, argc > 1 ? atoi(argv[1]) : 30000));
	return 0;
}
EOF
cc -O1 -no-pie -o "$tmp/kprog" "$tmp/kmain.c" "$tmp/kwrap.S"
cc -O1 -no-pie -o "$tmp/hot" "$tmp/hot.c"
perf record -q -e cpu-clock -F 4000 -o "$tmp/k.data" "$tmp/kprog" 20000000 >/dev/null
perf record -q -e cpu-clock -o "$tmp/h.data" "$tmp/hot" 20000 >/dev/null

ann() { local data=$1 file=$2; shift 2; perf annotate -i "$tmp/$data" --stdio "$@" 2>/dev/null > "$out/$file"; }
ann k.data annot-spill-intel-raw.txt -M intel --asm-raw spill_heavy
ann k.data annot-spill-att.txt spill_heavy
ann k.data annot-zext-att.txt zext_heavy
ann k.data annot-zext-intel-raw-n.txt -M intel --asm-raw -n zext_heavy
ann k.data annot-brtable-intel-raw.txt -M intel --asm-raw br_table_dispatch
ann k.data annot-brtable-att.txt br_table_dispatch
ann k.data annot-brtable-att-raw-n.txt --asm-raw -n br_table_dispatch
ann k.data annot-multi-intel.txt -M intel --dsos kprog
ann h.data annot-c-hot-intel-raw.txt -M intel --asm-raw hot
ann h.data annot-c-hot-att.txt hot
echo "captured into $out"
