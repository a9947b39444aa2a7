/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_UNWIND_INTERNAL_H
#define AOTPERF_UNWIND_INTERNAL_H
/*
 * What the per-architecture rule finders (rules_x86.c, rules_a64.c) share
 * with table.c: a growing array of rows, appended in ascending offset
 * order, with equal neighbours merged.
 */
#include "unwind.h"

struct rowbuf {
	struct unwind_row *v;
	uint32_t n, cap;
	uint32_t base;		/* first row of the function being built */
	int oom;
};

/* Append R at offset OFF (>= the last row's of this function); drops a
 * row equal to the one before it, replaces one at the same offset. */
void rowbuf__put(struct rowbuf *rb, uint32_t off, const struct unwind_row *r);

/* Equal rules (offsets ignored). */
int unwind_row__same(const struct unwind_row *a, const struct unwind_row *b);

/* Rows that hold nowhere: the unknown rule. */
extern const struct unwind_row unwind_row_unknown;

/*
 * Instruction starts of one function: insn[0..n) ascending text offsets,
 * bias the function's own text offset; or insn NULL for "bytes only".
 */
struct insn_starts {
	const uint32_t *insn;
	uint32_t n;
	uint32_t bias;
};

/* The i-th start, relative to the function. */
static inline uint32_t insn_at(const struct insn_starts *is, uint32_t i)
{
	return is->insn[i] - is->bias;
}

/* 1 if OFF (function-relative) is an instruction start, *idx its index;
 * always 1 without boundaries. */
int insn_starts__has(const struct insn_starts *is, uint32_t off, uint32_t *idx);
/* The instruction start (function-relative) after the one at index IDX,
 * or END. */
uint32_t insn_starts__next(const struct insn_starts *is, uint32_t idx, uint32_t end);

/* Append the rows of one function (code[0..size)) to rb. */
void unwind_rules__x86(const uint8_t *code, uint32_t size, const struct insn_starts *is,
		       struct rowbuf *rb);
void unwind_rules__a64(const uint8_t *code, uint32_t size, const struct insn_starts *is,
		       struct rowbuf *rb);

#endif
