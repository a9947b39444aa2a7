// SPDX-License-Identifier: MIT
/*
 * aarch64 rules (docs/unwinding.md, "aarch64"). The compiler's frames:
 *
 *   small (F <= 504)                     big
 *   stp x29, x30, [sp, #-F]!             sub sp, sp, #hi, lsl #12   (either
 *                                        sub sp, sp, #lo             or both)
 *                                        stp x29, x30, [sp]
 *   mov x29, sp                          mov x29, sp
 *   ... body: CFA = x29+F, x29 at CFA-F, x30 at CFA-F+8 ...
 *   ldp x29, x30, [sp], #F               ldp x29, x30, [sp]
 *                                        add sp, sp, #hi, lsl #12 / #lo
 *   ret | br xN | b target               ret | br xN | b target
 *
 * Before the frame record is stored the return address is still in x30
 * and the CFA is sp plus what was subtracted; once x29 is restored it is
 * sp plus what is left to add back. A function whose first words are
 * neither form gets one unknown row.
 *
 * Instructions are 4-byte words at 4-aligned offsets, so without
 * boundaries every word is taken as an instruction: then there is no
 * offset inside an instruction at which a pattern could be found. A word
 * that is data (this compiler puts none in aarch64 text: br_table is a
 * compare chain, constants are movz/movk) is never executed, so never
 * sampled; rows that hold only on such words change nothing. Every `ret`
 * gets the at-return rule (CFA = sp, x30 and x29 the caller's), right at
 * any return whatever precedes it. The epilogue rows hold from the word
 * after the ldp through the branch that ends it; an ldp with another size
 * than the prologue's, or one not followed by add/branch as above, makes
 * the rows unknown up to the next ret or branch.
 */
#include "internal.h"

#define A64_RET		0xd65f03c0u	/* ret (x30) */
#define A64_MOV_FP_SP	0x910003fdu	/* mov x29, sp */
#define A64_STP_FP_LR	0xa9007bfdu	/* stp x29, x30, [sp] */
#define A64_LDP_FP_LR	0xa9407bfdu	/* ldp x29, x30, [sp] */

static uint32_t word(const uint8_t *c, uint32_t off)
{
	return (uint32_t)c[off] | (uint32_t)c[off + 1] << 8 | (uint32_t)c[off + 2] << 16 |
	       (uint32_t)c[off + 3] << 24;
}

/* imm7 (scaled by 8) of stp/ldp x29, x30, [sp, ...] with writeback. */
static int32_t pair_imm(uint32_t w)
{
	int32_t imm7 = (int32_t)((w >> 15) & 0x7f);

	if (imm7 & 0x40)
		imm7 -= 0x80;
	return imm7 * 8;
}

/* stp x29, x30, [sp, #-F]! : F > 0 */
static int is_stp_pre(uint32_t w, int32_t *frame)
{
	if ((w & 0xffc07fffu) != 0xa9807bfdu || pair_imm(w) >= 0)
		return 0;
	*frame = -pair_imm(w);
	return 1;
}

/* ldp x29, x30, [sp], #F : F > 0 */
static int is_ldp_post(uint32_t w, int32_t *frame)
{
	if ((w & 0xffc07fffu) != 0xa8c07bfdu || pair_imm(w) <= 0)
		return 0;
	*frame = pair_imm(w);
	return 1;
}

/* sub sp, sp, #imm{, lsl #12} (sub = 1) or add sp, sp, ... (sub = 0) */
static int is_sp_adjust(uint32_t w, int sub, int32_t *amount)
{
	uint32_t base = sub ? 0xd10003ffu : 0x910003ffu;
	uint32_t imm = (w >> 10) & 0xfff;

	if ((w & 0xff8003ffu) != base || !imm)
		return 0;
	*amount = (int32_t)(w & (1u << 22) ? imm << 12 : imm);
	return 1;
}

static int is_branch_out(uint32_t w)
{
	return w == A64_RET || (w & 0xfffffc1fu) == 0xd61f0000u /* br xN */ ||
	       (w & 0xfc000000u) == 0x14000000u /* b */;
}

static struct unwind_row sp_rule(int32_t cfa_off, int saved, int32_t frame)
{
	struct unwind_row r = { .known = 1, .cfa_reg = UNWIND_REG_SP, .cfa_off = cfa_off };

	if (saved) {
		r.fp_where = r.ra_where = UNWIND_AT_CFA;
		r.fp_off = -frame;
		r.ra_off = -frame + 8;
	}
	return r;
}

static struct unwind_row body_rule(int32_t frame)
{
	struct unwind_row r = sp_rule(frame, 1, frame);

	r.cfa_reg = UNWIND_REG_FP;
	return r;
}

/* Rows of the prologue; returns the body's first offset, or 0 if none. */
static uint32_t prologue(const uint8_t *c, uint32_t size, struct rowbuf *rb, int32_t *frame)
{
	const struct unwind_row entry = sp_rule(0, 0, 0);
	int32_t sub = 0, amount;
	uint32_t off = 0;

	if (size >= 8 && is_stp_pre(word(c, 0), frame) && word(c, 4) == A64_MOV_FP_SP) {
		const struct unwind_row saved = sp_rule(*frame, 1, *frame);
		const struct unwind_row body = body_rule(*frame);

		rowbuf__put(rb, 0, &entry);
		rowbuf__put(rb, 4, &saved);
		rowbuf__put(rb, 8, &body);
		return 8;
	}
	while (off < 8 && off + 4 <= size && is_sp_adjust(word(c, off), 1, &amount)) {
		sub += amount;
		off += 4;
	}
	if (!off || off + 8 > size || word(c, off) != A64_STP_FP_LR ||
	    word(c, off + 4) != A64_MOV_FP_SP)
		return 0;
	*frame = sub;
	rowbuf__put(rb, 0, &entry);
	for (uint32_t k = 0, acc = 0; k < off; k += 4) {
		struct unwind_row r;

		is_sp_adjust(word(c, k), 1, &amount);
		acc += (uint32_t)amount;
		r = sp_rule((int32_t)acc, 0, 0);
		rowbuf__put(rb, k + 4, &r);
	}
	{
		const struct unwind_row saved = sp_rule(sub, 1, sub);
		const struct unwind_row body = body_rule(sub);

		rowbuf__put(rb, off + 4, &saved);
		rowbuf__put(rb, off + 8, &body);
	}
	return off + 8;
}

static int is_start(const struct insn_starts *is, uint32_t x)
{
	uint32_t idx;

	return insn_starts__has(is, x, &idx);
}

/* Unknown from X up to the next ret or branch; returns the offset after
 * it (the body rule again from there), or SIZE. */
static uint32_t unknown_until_branch(const uint8_t *c, uint32_t size,
				     const struct insn_starts *is, uint32_t x,
				     struct rowbuf *rb)
{
	rowbuf__put(rb, x, &unwind_row_unknown);
	for (; x + 4 <= size; x += 4) {
		uint32_t w;

		if (!is_start(is, x))
			continue;
		w = word(c, x);
		if (!is_branch_out(w))
			continue;
		if (w == A64_RET) {
			const struct unwind_row ret = sp_rule(0, 0, 0);

			rowbuf__put(rb, x, &ret);
		}
		return x + 4;
	}
	return size;
}

/* After `ldp x29, x30, [sp]` at X: the adds back to sp + 0, then a
 * branch out. Returns the offset where the body rule resumes. */
static uint32_t big_epilogue(const uint8_t *c, uint32_t size, const struct insn_starts *is,
			     uint32_t x, int32_t frame, struct rowbuf *rb)
{
	int32_t left = frame, amount;
	uint32_t y = x + 4;
	struct unwind_row r = sp_rule(left, 0, 0);

	rowbuf__put(rb, y, &r);
	while (left > 0 && y + 4 <= size && is_start(is, y) &&
	       is_sp_adjust(word(c, y), 0, &amount) && amount <= left) {
		left -= amount;
		r = sp_rule(left, 0, 0);
		y += 4;
		rowbuf__put(rb, y, &r);
	}
	if (left == 0 && y + 4 <= size && is_start(is, y) && is_branch_out(word(c, y)))
		return y + 4;
	return unknown_until_branch(c, size, is, y, rb);
}

void unwind_rules__a64(const uint8_t *code, uint32_t size, const struct insn_starts *is,
		       struct rowbuf *rb)
{
	const struct unwind_row at_return = sp_rule(0, 0, 0);
	struct unwind_row body;
	int32_t frame = 0, f2;
	uint32_t x;

	x = prologue(code, size, rb, &frame);
	if (!x) {
		rowbuf__put(rb, 0, &unwind_row_unknown);
		return;
	}
	body = body_rule(frame);
	while (x + 4 <= size) {
		uint32_t w, resume;

		if (!is_start(is, x)) {
			x += 4;
			continue;
		}
		w = word(code, x);
		if (w == A64_RET) {
			rowbuf__put(rb, x, &at_return);
			resume = x + 4;
		} else if (is_ldp_post(w, &f2)) {
			if (f2 == frame && x + 8 <= size && is_start(is, x + 4) &&
			    is_branch_out(word(code, x + 4))) {
				rowbuf__put(rb, x + 4, &at_return);
				resume = x + 8;
			} else {
				resume = unknown_until_branch(code, size, is, x + 4, rb);
			}
		} else if (w == A64_LDP_FP_LR) {
			resume = big_epilogue(code, size, is, x, frame, rb);
		} else {
			x += 4;
			continue;
		}
		if (resume < size)
			rowbuf__put(rb, resume, &body);
		x = resume;
	}
}
