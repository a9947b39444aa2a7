/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_DECODE_H
#define AOTPERF_DECODE_H
/*
 * Machine code and disassembly text reduced to one normalized instruction
 * (struct dc_insn): kind, operands in Intel order (destination first),
 * register families instead of names. Two front ends: capstone over raw
 * bytes (capstone.c) and perf annotate / objdump text (text.c); one
 * mnemonic table (mnem.c) and one register table (regs.c) serve both, so
 * the raw-byte and text paths cannot drift apart. Everything that reads
 * code (classify/, frames/, unwind/) starts here.
 */
#include <stddef.h>
#include <stdint.h>
#include "../cwasm/cwasm.h"
#include "../util/err.h"

/* Register families: x86 GPRs 1..16 (rax..r15), aarch64 x0..x30 1..31. */
enum {
	REG_NONE = 0,
	X86_RAX = 1, X86_RCX, X86_RDX, X86_RBX, X86_RSP, X86_RBP, X86_RSI, X86_RDI,
	X86_R8, X86_R9, X86_R10, X86_R11, X86_R12, X86_R13, X86_R14, X86_R15,
	X86_RIP = 17,
	A64_X0 = 1, A64_X16 = 17, A64_X19 = 20, A64_X28 = 29, A64_X29 = 30, A64_X30 = 31,
	A64_SP = 32, A64_XZR = 33,
	REG_VEC = 64,		/* + n: xmm/ymm/zmm n, v/q/d/s/h/b n */
	REG_OTHER = 127,	/* segment, flags, mask, x87 ... */
};

enum dc_kind {
	DC_OTHER,
	DC_MOVE,	/* mov family, aarch64 ld/st; xchg */
	DC_EXT,		/* movzx, movsx, movsxd */
	DC_LEA,		/* lea, adr, adrp */
	DC_CMP,		/* cmp, test, cmn, tst, ccmp */
	DC_ALU,
	DC_JMP,
	DC_JCC,
	DC_CALL,
	DC_RET,
	DC_TRAP,	/* ud2, int3, hlt, brk, udf */
	DC_NOP,
	DC_STACK,	/* push, pop, enter, leave */
	DC_DATA,
};

enum { DC_OP_NONE, DC_OP_REG, DC_OP_IMM, DC_OP_MEM };

struct dc_op {
	uint8_t type;
	uint8_t reg;		/* DC_OP_REG: family */
	uint8_t width;		/* DC_OP_REG: bytes; DC_OP_MEM: access bytes (0 unknown) */
	uint8_t base, index;	/* DC_OP_MEM families */
	uint8_t scale;
	int64_t val;		/* DC_OP_IMM value, DC_OP_MEM displacement */
};

#define DC_MAX_OPS 4

struct dc_insn {
	uint64_t addr;
	uint32_t size;
	uint8_t kind;
	uint8_t nops;
	uint8_t cc_unsigned;	/* DC_JCC on an unsigned condition */
	uint8_t indirect;	/* DC_JMP/DC_CALL through a register or memory */
	uint8_t mem_write;	/* the memory operand is written */
	uint8_t writeback;	/* aarch64 pre/post-index addressing */
	uint8_t has_target;	/* target: branch or pc-relative address */
	uint8_t zext_form;	/* aarch64 ubfx/and x,x,#0,#32 self forms */
	uint64_t target;
	struct dc_op op[DC_MAX_OPS];
	uint32_t ndata;		/* DC_DATA: table entries (0: a byte run); target: the entry's */
	char text[112];
};

/* A growing array of normalized instructions. */
struct dc_vec {
	struct dc_insn *v;
	uint32_t n, cap;
};

struct dc_insn *dc_vec__push(struct dc_vec *nv);
void dc_vec__exit(struct dc_vec *nv);
/* The index of the entry (instruction or data) starting at addr, or -1
 * (the entries are in address order). */
int64_t dc_vec__find(const struct dc_vec *nv, uint64_t addr);
/* mnem.c: ni's first memory operand, or NULL. */
const struct dc_op *dc_insn__mem_op(const struct dc_insn *ni);

/* regs.c: a register name (no '%') to family and width; 0 if unknown. */
int dc__reg_parse(enum cwasm_arch arch, const char *name, size_t len, uint8_t *fam,
		  uint8_t *width);
const char *dc__reg_name(enum cwasm_arch arch, uint8_t fam);

/* mnem.c: mnemonic to kind and flags, shared by both front ends. */
struct dc_mnem_info {
	uint8_t kind;
	uint8_t cc_unsigned;
	uint8_t mem_store;	/* aarch64 st* */
};
void dc__mnem(enum cwasm_arch arch, const char *mnem, int att, struct dc_mnem_info *mi);
/*
 * Fill kind, flags, memory direction and branch target from the mnemonic
 * and the operands already in ni (Intel order).
 */
void dc__finish(enum cwasm_arch arch, const char *mnem, int att, struct dc_insn *ni);
/* Skip instruction prefixes (lock, rep, cs, notrack, bnd, ...) in text. */
const char *dc__skip_prefixes(const char *s);

/* capstone.c: append capstone's decode of code[0..len) (at addr) to nv. */
int dc__decode(enum cwasm_arch arch, const uint8_t *code, size_t len, uint64_t addr,
		      struct dc_vec *nv, struct ap_err *err);
/*
 * The same as objdump sweeps it (the upstream helper's disassembly): jump
 * tables decoded as instructions, each undecodable byte (x86) or word
 * (aarch64) an instruction of kind DC_OTHER, "(bad)" or ".inst 0x...",
 * and the zero runs objdump skips ("...") no instruction.
 */
int dc__decode_sweep(enum cwasm_arch arch, const uint8_t *code, size_t len, uint64_t addr,
		     struct dc_vec *nv, struct ap_err *err);

/*
 * The table base of the indirect jump nv->v[j]: a pc-relative address
 * generated shortly before that lands just after the jump (within
 * DC_TABLE_PAD bytes of alignment), or further on (after the function's
 * ret) when it is the base of the entry load. 0 if none.
 */
#define DC_TABLE_PAD 16
uint64_t dc__table_base(const struct dc_vec *nv, uint32_t j);

/*
 * The bound of the jump table the indirect jump nv->v[j] dispatches
 * through: the `cmp IDX, N` and the unsigned branch right after it to the
 * default target, IDX being the index the entry load scales
 * (docs/codegen-idioms.md, br_table). The table then has exactly
 * nentries 4-byte entries.
 */
struct dc_table {
	uint32_t cmp;		/* index of the compare; the branch is cmp + 1 */
	uint32_t nentries;
	uint8_t index;		/* the index register */
};
int dc__table_bound(const struct dc_vec *nv, uint32_t j, struct dc_table *tb);

/* text.c: one instruction's text ("mov eax,DWORD PTR [rbp-0x8]"). */
void dc__parse_text(enum cwasm_arch arch, int att, const char *text, struct dc_insn *ni);

#endif
