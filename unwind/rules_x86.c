// SPDX-License-Identifier: MIT
/*
 * x86-64 rules (docs/unwinding.md, "x86-64"). The compiler's frame:
 *
 *   0  55                push rbp        CFA = rsp+8,  ra at CFA-8
 *   1  48 89 e5          mov rbp, rsp    CFA = rsp+16, rbp at CFA-16
 *      (or 48 8b ec)
 *   4  ...               body            CFA = rbp+16, ra at CFA-8,
 *                                        rbp at CFA-16 (sub rsp, callee
 *                                        pushes and pops do not matter)
 *      48 89 ec          mov rsp, rbp    still the body rule
 *      5d / c9           pop rbp / leave still the body rule
 *      c3 or a jmp       ret, or a tail call: CFA = rsp+8, rbp restored
 *
 * A function whose first four bytes are not that prologue gets one
 * unknown row. Code after a ret or a tail jump is reached by a branch
 * from the body, so the body rule comes back after it.
 *
 * Without instruction boundaries (the runtime library), patterns are
 * found at any byte offset. Why that cannot change the unwind result of
 * a sampled ip, which is always an instruction start:
 *
 *  - The prologue is matched at offset 0 only, the function's entry and so
 *    an instruction start; 1 and 4 follow by decoding from there.
 *  - A c3 byte at x gets the at-return rule on [x, x+1) only. If x is not
 *    an instruction start, no sampled ip lies in [x, x+1). If it is, the
 *    instruction is RET (c3 is an opcode, never a prefix or a ModRM of an
 *    instruction that starts at x), and at any RET that returns, rsp
 *    points at the return address and rbp holds the caller's value: the
 *    at-return rule is right whatever bytes came before. So every c3 byte
 *    gets it, with or without boundaries.
 *  - A tail jump is a jmp that follows `pop rbp` (5d) or `leave` (c9).
 *    Seeing a 5d byte right before a jmp does not prove a pop: 5d is also
 *    a ModRM byte ([rbp+disp8]), a disp8 or the last byte of an
 *    immediate, and an ordinary jmp inside the body may follow it. The
 *    two readings need different rules, so without boundaries that jmp
 *    gets the unknown rule: a caller stops there instead of guessing.
 *    With boundaries the pop is known to be an instruction and the jmp
 *    gets the at-return rule.
 *
 * With boundaries, a `pop rbp`/`leave` that is followed by anything but
 * ret or jmp leaves a shape we do not know: unknown up to the next ret
 * (which gets the at-return rule, as every ret does) or jmp. Without
 * boundaries such a pop is taken on trust to be followed by ret or a
 * tail jump, as the compiler emits it.
 */
#include "internal.h"

static const struct unwind_row entry_rule = {
	.known = 1, .cfa_reg = UNWIND_REG_SP, .cfa_off = 8,
	.ra_where = UNWIND_AT_CFA, .ra_off = -8, .fp_where = UNWIND_SAME,
};
static const struct unwind_row pushed_rule = {
	.known = 1, .cfa_reg = UNWIND_REG_SP, .cfa_off = 16,
	.ra_where = UNWIND_AT_CFA, .ra_off = -8, .fp_where = UNWIND_AT_CFA, .fp_off = -16,
};
static const struct unwind_row body_rule = {
	.known = 1, .cfa_reg = UNWIND_REG_FP, .cfa_off = 16,
	.ra_where = UNWIND_AT_CFA, .ra_off = -8, .fp_where = UNWIND_AT_CFA, .fp_off = -16,
};
#define at_return_rule entry_rule

#define BODY_START 4

static int is_prologue(const uint8_t *c, uint32_t size)
{
	if (size < BODY_START || c[0] != 0x55 || c[1] != 0x48)
		return 0;
	return (c[2] == 0x89 && c[3] == 0xe5) || (c[2] == 0x8b && c[3] == 0xec);
}

/* Length of a jmp (rel32, rel8, or through a register) at p, else 0. */
static uint32_t jmp_len(const uint8_t *p, uint32_t avail)
{
	if (avail >= 5 && p[0] == 0xe9)
		return 5;
	if (avail >= 2 && p[0] == 0xeb)
		return 2;
	if (avail >= 2 && p[0] == 0xff && (p[1] & 0xf8) == 0xe0)
		return 2;
	if (avail >= 3 && p[0] == 0x41 && p[1] == 0xff && (p[2] & 0xf8) == 0xe0)
		return 3;
	return 0;
}

static int frame_pop(uint8_t b)
{
	return b == 0x5d || b == 0xc9;	/* pop rbp, leave */
}

static void scan_bytes(const uint8_t *c, uint32_t size, struct rowbuf *rb)
{
	for (uint32_t x = BODY_START; x < size; x++) {
		uint32_t len;

		if (c[x] == 0xc3) {
			rowbuf__put(rb, x, &at_return_rule);
			if (x + 1 < size)
				rowbuf__put(rb, x + 1, &body_rule);
		} else if (frame_pop(c[x]) && x + 1 < size &&
			   (len = jmp_len(c + x + 1, size - x - 1))) {
			rowbuf__put(rb, x + 1, &unwind_row_unknown);
			if (x + 1 + len < size)
				rowbuf__put(rb, x + 1 + len, &body_rule);
			x += len;
		}
	}
}

static int terminator(const uint8_t *c, uint32_t x, uint32_t size)
{
	return c[x] == 0xc3 || jmp_len(c + x, size - x) > 0;
}

static void scan_insns(const uint8_t *c, uint32_t size, const struct insn_starts *is,
		       struct rowbuf *rb)
{
	uint32_t i = 0;

	while (i < is->n && insn_at(is, i) < BODY_START)
		i++;
	for (; i < is->n && insn_at(is, i) < size; i++) {
		uint32_t x = insn_at(is, i), nx = insn_starts__next(is, i, size), y, z;

		if (c[x] == 0xc3) {
			rowbuf__put(rb, x, &at_return_rule);
			if (nx < size)
				rowbuf__put(rb, nx, &body_rule);
			continue;
		}
		if (!frame_pop(c[x]) || nx != x + 1 || nx >= size || c[nx] == 0xc3)
			continue;
		y = nx;
		if (jmp_len(c + y, size - y)) {
			z = insn_starts__next(is, i + 1, size);
			rowbuf__put(rb, y, &at_return_rule);
			if (z < size)
				rowbuf__put(rb, z, &body_rule);
			i++;
			continue;
		}
		/* the frame is gone but no ret or jmp follows */
		rowbuf__put(rb, y, &unwind_row_unknown);
		for (i++; i < is->n && insn_at(is, i) < size; i++)
			if (terminator(c, insn_at(is, i), size))
				break;
		if (i >= is->n || insn_at(is, i) >= size)
			break;
		if (c[insn_at(is, i)] == 0xc3)
			rowbuf__put(rb, insn_at(is, i), &at_return_rule);
		z = insn_starts__next(is, i, size);
		if (z < size)
			rowbuf__put(rb, z, &body_rule);
	}
}

void unwind_rules__x86(const uint8_t *code, uint32_t size, const struct insn_starts *is,
		       struct rowbuf *rb)
{
	if (!is_prologue(code, size)) {
		rowbuf__put(rb, 0, &unwind_row_unknown);
		return;
	}
	rowbuf__put(rb, 0, &entry_rule);
	rowbuf__put(rb, 1, &pushed_rule);
	rowbuf__put(rb, BODY_START, &body_rule);
	if (is->insn)
		scan_insns(code, size, is, rb);
	else
		scan_bytes(code, size, rb);
}
