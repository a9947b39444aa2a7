// SPDX-License-Identifier: MIT
/*
 * The stepper (one frame to its caller), the walker over one sample, and
 * the frame-pointer-chain classifier; see unwind.h.
 */
#include <string.h>

#include "unwind.h"

int unwind__step(const struct unwind_row *row, const struct unwind_regs *in,
		 unwind_read_fn read, void *ctx, struct unwind_regs *out)
{
	uint64_t cfa, ra, fp;

	if (!row || !row->known)
		return UNWIND_NO_RULE;
	if (row->ra_where == UNWIND_SAME && !in->has_ra)
		return UNWIND_NO_RULE;
	cfa = (row->cfa_reg == UNWIND_REG_FP ? in->fp : in->sp) + (uint64_t)(int64_t)row->cfa_off;
	if (cfa < in->sp)
		return UNWIND_BAD_FRAME;
	if (row->ra_where == UNWIND_AT_CFA) {
		if (read(ctx, cfa + (uint64_t)(int64_t)row->ra_off, &ra))
			return UNWIND_NO_MEM;
	} else {
		ra = in->ra;
	}
	if (row->fp_where == UNWIND_AT_CFA) {
		if (read(ctx, cfa + (uint64_t)(int64_t)row->fp_off, &fp))
			return UNWIND_NO_MEM;
	} else {
		fp = in->fp;
	}
	memset(out, 0, sizeof(*out));
	out->ip = ra;
	out->sp = cfa;
	out->fp = fp;
	return UNWIND_OK;
}

int unwind_row__fp_skips_caller(const struct unwind_row *row)
{
	if (!row || !row->known)
		return -1;
	return row->cfa_reg == UNWIND_REG_SP;
}

int unwind_stack__read(void *ctx, uint64_t addr, uint64_t *val)
{
	const struct unwind_stack *st = ctx;
	const uint8_t *p;

	if (addr < st->sp || addr - st->sp > st->size || st->size - (addr - st->sp) < 8)
		return -1;
	p = st->data + (addr - st->sp);
	*val = (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
	       (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 |
	       (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
	return 0;
}

/* One host frame through the frame-pointer chain. */
static int step_host_fp(const struct unwind_regs *in, unwind_read_fn read, void *ctx,
			struct unwind_regs *out)
{
	uint64_t fp, ra;

	if (!in->fp || in->fp < in->sp || read(ctx, in->fp, &fp) || read(ctx, in->fp + 8, &ra))
		return UNWIND_NO_MEM;
	if (fp && fp <= in->fp)
		return UNWIND_BAD_FRAME;
	memset(out, 0, sizeof(*out));
	out->ip = ra;
	out->sp = in->fp + 16;
	out->fp = fp;
	return UNWIND_OK;
}

static int stop_of(int status)
{
	switch (status) {
	case UNWIND_NO_RULE:
		return UNWIND_STOP_NO_RULE;
	case UNWIND_NO_MEM:
		return UNWIND_STOP_NO_MEM;
	default:
		return UNWIND_STOP_BAD_FRAME;
	}
}

int unwind__walk(unwind_lookup_fn lookup, void *lctx, unwind_read_fn read, void *rctx,
		 struct unwind_regs *regs, unsigned flags, struct unwind_frame *frames,
		 uint32_t max, uint32_t *nframes)
{
	uint32_t n = 0;
	uint8_t by_fp = 0;

	*nframes = 0;
	for (;;) {
		/* a return address points after the call: look inside it */
		uint64_t at = n || (flags & UNWIND_WALK_RETURN_ADDR) ? regs->ip - 1 : regs->ip;
		const struct unwind_row *row = NULL;
		struct unwind_code code;
		struct unwind_regs next;
		struct unwind_frame *fr;
		uint32_t func = 0;
		int st;

		if (!regs->ip)
			return UNWIND_STOP_END;
		if (n == max)
			return UNWIND_STOP_MAX;
		if (!lookup(lctx, at, &code) && at >= code.base &&
		    at - code.base <= UINT32_MAX)
			row = unwind_table__row(code.table, (uint32_t)(at - code.base), &func);
		fr = &frames[n++];
		*nframes = n;
		memset(fr, 0, sizeof(*fr));
		fr->ip = regs->ip;
		fr->by_fp = by_fp;
		if (row) {
			fr->wasm = 1;
			fr->core = code.core;
			fr->func = func;
			st = unwind__step(row, regs, read, rctx, &next);
			if (st != UNWIND_OK)
				return stop_of(st);
			by_fp = 0;
		} else {
			if (!(flags & UNWIND_WALK_HOST_FP))
				return UNWIND_STOP_HOST;
			st = step_host_fp(regs, read, rctx, &next);
			if (st == UNWIND_NO_MEM || (st == UNWIND_OK && !next.ip))
				return UNWIND_STOP_END;
			if (st != UNWIND_OK)
				return stop_of(st);
			by_fp = 1;
		}
		/* callers sit higher on the stack; equal sp only at an entry */
		if (next.sp < regs->sp || (n > 1 && next.sp == regs->sp))
			return UNWIND_STOP_BAD_FRAME;
		*regs = next;
	}
}
