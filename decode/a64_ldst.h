/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_DECODE_A64_LDST_H
#define AOTPERF_DECODE_A64_LDST_H
/*
 * Exact aarch64 load/store encodings, from the instruction word's bits:
 * direction, base register, byte offset, addressing mode, access width,
 * pair, data registers and their class, writeback. Only the forms the
 * compiler uses for frame traffic (docs/sidecar.md, "aarch64 encodings")
 * are recognized; any other word is "not one of them" (0), so a caller can
 * tell exactly which instructions the compiler's frame records describe.
 */
#include <stddef.h>
#include <stdint.h>

enum a64_mode {
	A64_MODE_NONE = 0,
	A64_MODE_UNSIGNED_SCALED,	/* ldr/str Rt, [Rn, #imm12 * size] */
	A64_MODE_SIGNED_UNSCALED,	/* ldur/stur Rt, [Rn, #simm9] */
	A64_MODE_SIGNED_PAIR,		/* ldp/stp Rt, Rt2, [Rn, #simm7 * size] */
	A64_MODE_PRE_INDEX,		/* stp Rt, Rt2, [Rn, #simm7 * size]! */
	A64_MODE_POST_INDEX,		/* ldp Rt, Rt2, [Rn], #simm7 * size */
	A64_MODE_SIMD_ZERO_OFFSET,	/* ldr/str Qt|St|Dt, [Rn] (imm12 == 0) */
	A64_MODE_MATERIALIZED,		/* not an encoding: the base holds a computed frame address */
	A64_MODE__COUNT
};

enum a64_regclass { A64_GPR = 0, A64_SIMD = 1 };

struct a64_ldst {
	uint8_t is_store;
	uint8_t rn;		/* base register number, 31 = sp */
	int32_t offset;		/* bytes added to the base before the access (0 for post-index) */
	uint8_t mode;		/* enum a64_mode */
	uint8_t width;		/* bytes per data register */
	uint8_t pair;		/* two data registers, at offset and offset + width */
	uint8_t nregs;
	uint8_t reg[2];		/* data register numbers (31 = zr for a gpr) */
	uint8_t regclass;	/* enum a64_regclass, the same for both */
	uint8_t writeback;	/* the base register is updated */
	int32_t wb_amount;	/* by this many bytes */
};

/* Decode one little-endian instruction word; 1 if it is one of the forms, else 0. */
int a64__ldst(uint32_t word, struct a64_ldst *out);
/* "unsigned_scaled", ... "materialized"; NULL for NONE. */
const char *a64__mode_name(enum a64_mode mode);
/* Parse a mode name (len bytes); A64_MODE_NONE when unknown. */
enum a64_mode a64__mode_parse(const char *s, size_t len);

#endif
