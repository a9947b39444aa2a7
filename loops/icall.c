// SPDX-License-Identifier: MIT
/*
 * The instructions of each call_indirect that a direct call would not
 * need, for the dispatch lever (whatif.c): the table-length and signature
 * checks (a compare and the branch over a trap block through vmctx's
 * trap_unreachable slot, 0x58), the loads of the table, its length and the
 * signature arrays (vmctx fields and the memory they point to), and the
 * address arithmetic feeding the function pointer (docs/codegen-idioms.md,
 * call_indirect; docs/levers.md). Found walking back from the call to the
 * previous call: a register the call's target, or a check, depends on is
 * followed through table loads and add/shift arithmetic, and stops at a
 * register move (the element index: it stays, as do the wasm values it is
 * computed from), a frame or linear-memory load, or the vmctx reload.
 */
#include <stdlib.h>
#include <string.h>
#include "find.h"
#include "../decode/decode.h"

/* how far back from the call a check or table load is looked for */
#define ICALL_WINDOW 48
/* vmctx's trap_unreachable slot: the trap a failed table or signature check takes */
#define TRAP_UNREACHABLE_SLOT 0x58

/* Does the block starting at instruction i trap through trap_unreachable? */
static int unreachable_trap_at(const struct lp_func *lf, const struct dc_vec *nv, uint32_t i)
{
	const struct lp_block *b;

	if (i >= nv->n || lf->block_of[i] == UINT32_MAX)
		return 0;
	b = &lf->blocks[lf->block_of[i]];
	if (!b->trap || b->first != i)
		return 0;
	for (uint32_t k = b->first; k < b->end; k++)
		for (int o = 0; o < nv->v[k].nops; o++)
			if (nv->v[k].op[o].type == DC_OP_MEM &&
			    nv->v[k].op[o].val == TRAP_UNREACHABLE_SLOT)
				return 1;
	return 0;
}

static void add_reg(uint64_t *set, uint8_t r)
{
	if (r && r < 64)
		*set |= 1ULL << r;
}

/*
 * The registers an instruction reads: its registers but those in index (the
 * element index), and memory operands' bases (not their index).
 */
static void add_sources(uint64_t *set, const struct dc_insn *d, int from, uint64_t index)
{
	for (int o = from; o < d->nops; o++) {
		if (d->op[o].type == DC_OP_REG && d->op[o].reg < 64 && !(index >> d->op[o].reg & 1))
			add_reg(set, d->op[o].reg);
		else if (d->op[o].type == DC_OP_MEM)
			add_reg(set, d->op[o].base);
	}
}

static const struct dc_op *mem_op(const struct dc_insn *d)
{
	for (int o = 0; o < d->nops; o++)
		if (d->op[o].type == DC_OP_MEM)
			return &d->op[o];
	return NULL;
}

/* Arithmetic: decode/ leaves most ALU mnemonics DC_OTHER, with their operands. */
static int is_alu(const struct dc_insn *d)
{
	return d->kind == DC_ALU || (d->kind == DC_OTHER && d->nops >= 2);
}

/* The register an instruction writes: its first operand, for the kinds followed here. */
static uint8_t dest(const struct dc_insn *d)
{
	if ((d->kind != DC_MOVE && d->kind != DC_EXT && !is_alu(d) && d->kind != DC_LEA) ||
	    !d->nops || d->op[0].type != DC_OP_REG || d->mem_write)
		return 0;
	return d->op[0].reg < 64 ? d->op[0].reg : 0;
}

static int is_shift(const struct dc_insn *d)
{
	return !strncmp(d->text, "shl", 3) || !strncmp(d->text, "sal", 3) ||
	       !strncmp(d->text, "lsl", 3);
}

/*
 * One instruction that writes a followed register (dst): marked, and the
 * set updated; 0 when the walk stops following dst.
 */
static int follow(const struct dc_insn *d, uint8_t cls, uint8_t dst, uint64_t *set)
{
	const struct dc_op *m = mem_op(d);

	*set &= ~(1ULL << dst);
	if ((d->kind == DC_MOVE || d->kind == DC_EXT) && m && !d->mem_write)
		/* a table, length or signature load; a wasm value's load stops it */
		return (cls == CLS_VMCTX_FIELD || cls == CLS_OTHER_MEM) ?
			       (add_reg(set, m->base), 1) : 0;
	if (is_alu(d) && is_shift(d))
		return 1;	/* the element index scaled: the index itself stays */
	if ((is_alu(d) || d->kind == DC_LEA) && !m) {
		add_sources(set, d, 0, 0);
		return 1;
	}
	return 0;
}

/* The start of the window before call i: its previous call, or ICALL_WINDOW back. */
static uint32_t window(const struct lp_func *lf, const struct dc_vec *nv, const struct cls_func *f,
		       uint32_t i)
{
	uint32_t k = i;

	while (k > 0 && i - k < ICALL_WINDOW) {
		const struct dc_insn *d = &nv->v[k - 1];

		if ((d->kind == DC_CALL || d->kind == DC_RET) && f->insns[k - 1].cls != CLS_TRAP &&
		    lf->block_of[k - 1] != UINT32_MAX && !lf->blocks[lf->block_of[k - 1]].trap)
			break;
		k--;
	}
	return k;
}

/* The element index: registers a table access scales (a memory index, a shift's target). */
static uint64_t index_regs(const struct dc_vec *nv, uint32_t from, uint32_t to)
{
	uint64_t index = 0;

	for (uint32_t k = from; k < to; k++) {
		const struct dc_insn *d = &nv->v[k];
		const struct dc_op *m = mem_op(d);

		if (m)
			add_reg(&index, m->index);
		if (is_alu(d) && is_shift(d) && d->op[0].type == DC_OP_REG)
			add_reg(&index, d->op[0].reg);
	}
	return index;
}

/* Mark the call_indirect at i and what feeds it, back to the previous call. */
static void mark_one(struct lp_func *lf, const struct dc_vec *nv, const struct cls_func *f,
		     uint32_t i)
{
	uint64_t set = 0, index;
	uint32_t stop = window(lf, nv, f, i);

	index = index_regs(nv, stop, i);
	lf->icall[i] = LP_ICALL_CALL;
	add_sources(&set, &nv->v[i], 0, index);
	for (uint32_t k = i; k-- > stop;) {
		const struct dc_insn *d = &nv->v[k];
		uint8_t cls = f->insns[k].cls, dst = dest(d);

		if (d->kind == DC_DATA || cls == CLS_TRAP || lf->block_of[k] == UINT32_MAX ||
		    lf->blocks[lf->block_of[k]].trap)
			continue;
		if (d->kind == DC_JCC && k > stop && unreachable_trap_at(lf, nv, k + 1) &&
		    nv->v[k - 1].kind == DC_CMP && f->insns[k - 1].cls != CLS_BOUNDS_CHECK) {
			/* a table or signature check: what it compares is the table's */
			lf->icall[k] = lf->icall[k - 1] = LP_ICALL_CHECK;
			add_sources(&set, &nv->v[k - 1], 0, index);
			k--;
			continue;
		}
		if (cls == CLS_VMCTX_RELOAD || !dst || !(set >> dst & 1))
			continue;
		if (follow(d, cls, dst, &set))
			lf->icall[k] = LP_ICALL_CHECK;
	}
}

int lp_icall__mark(struct lp_func *lf, const struct dc_vec *nv, const struct cls_func *f,
		   struct ap_err *err)
{
	for (uint32_t i = 0; i < nv->n; i++) {
		if (f->insns[i].cls != CLS_CALL_INDIRECT)
			continue;
		if (!lf->icall && !(lf->icall = calloc(nv->n + 1, 1)))
			return ap_err_nomem(err);
		mark_one(lf, nv, f, i);
	}
	return 0;
}
