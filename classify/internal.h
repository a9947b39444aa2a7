/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_CLASSIFY_INTERNAL_H
#define AOTPERF_CLASSIFY_INTERNAL_H
/*
 * Inside classify/: both front ends (capstone in decode.c, perf annotate
 * text in text.c) reduce an instruction to a struct cls_ni, and one
 * structural pass (classify.c) gives the classes. Operands are in Intel
 * order: destination first.
 */
#include <stdint.h>
#include "classify.h"

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

enum ni_kind {
	NI_OTHER,
	NI_MOVE,	/* mov family, aarch64 ld/st; xchg */
	NI_EXT,		/* movzx, movsx, movsxd */
	NI_LEA,		/* lea, adr, adrp */
	NI_CMP,		/* cmp, test, cmn, tst, ccmp */
	NI_ALU,
	NI_JMP,
	NI_JCC,
	NI_CALL,
	NI_RET,
	NI_TRAP,	/* ud2, int3, hlt, brk, udf */
	NI_NOP,
	NI_STACK,	/* push, pop, enter, leave */
	NI_DATA,
};

enum { OP_NONE, OP_REG, OP_IMM, OP_MEM };

struct ni_op {
	uint8_t type;
	uint8_t reg;		/* OP_REG: family */
	uint8_t width;		/* OP_REG: bytes (0 unknown) */
	uint8_t base, index;	/* OP_MEM families */
	uint8_t scale;
	int64_t val;		/* OP_IMM value, OP_MEM displacement */
};

#define NI_MAX_OPS 4

struct cls_ni {
	uint64_t addr;
	uint32_t size;
	uint8_t kind;
	uint8_t nops;
	uint8_t cc_unsigned;	/* NI_JCC on an unsigned condition */
	uint8_t indirect;	/* NI_JMP/NI_CALL through a register or memory */
	uint8_t mem_write;	/* the memory operand is written */
	uint8_t writeback;	/* aarch64 pre/post-index addressing */
	uint8_t has_target;	/* target: branch or pc-relative address */
	uint8_t zext_form;	/* aarch64 ubfx/and x,x,#0,#32 self forms */
	uint64_t target;
	struct ni_op op[NI_MAX_OPS];
	uint32_t ndata;		/* NI_DATA: table entries (0: a byte run) */
	char text[112];
};

/* A growing array of normalized instructions. */
struct ni_vec {
	struct cls_ni *v;
	uint32_t n, cap;
};

struct cls_ni *ni_vec__push(struct ni_vec *nv);
void ni_vec__free(struct ni_vec *nv);

/* regs.c: a register name (no '%') to family and width; 0 if unknown. */
int cls_reg_parse(enum cwasm_arch arch, const char *name, size_t len, uint8_t *fam,
		  uint8_t *width);
const char *cls_reg_name(enum cwasm_arch arch, uint8_t fam);

/* mnem.c: mnemonic to kind and flags, shared by both front ends. */
struct mnem_info {
	uint8_t kind;
	uint8_t cc_unsigned;
	uint8_t mem_store;	/* aarch64 st* */
};
void cls_mnem(enum cwasm_arch arch, const char *mnem, int att, struct mnem_info *mi);
/*
 * Fill kind, flags, memory direction and branch target from the mnemonic
 * and the operands already in ni (Intel order).
 */
void cls_ni_finish(enum cwasm_arch arch, const char *mnem, int att, struct cls_ni *ni);
/* Skip instruction prefixes (lock, rep, cs, notrack, bnd, ...) in text. */
const char *cls_skip_prefixes(const char *s);

/* decode.c: append capstone's decode of code[0..len) (at addr) to nv. */
int cls_decode_append(enum cwasm_arch arch, const uint8_t *code, size_t len, uint64_t addr,
		      struct ni_vec *nv, struct ap_err *err);

/*
 * The table base of the indirect jump nv->v[j]: a pc-relative address
 * generated shortly before that lands just after the jump. 0 if none.
 */
uint64_t cls_table_base(const struct ni_vec *nv, uint32_t j);

/* text.c: one instruction's text ("mov eax,DWORD PTR [rbp-0x8]"). */
void cls_text_parse(enum cwasm_arch arch, int att, const char *text, struct cls_ni *ni);

/*
 * classify.c: classes for nv (address order) of a function starting at
 * lo, into out (which takes the text and sizes).
 */
int cls_classify(const struct cls_roles *roles, const struct ni_vec *nv, uint64_t lo,
		 struct cls_func *out, struct ap_err *err);

#endif
