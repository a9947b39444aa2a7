// SPDX-License-Identifier: MIT
/*
 * Registers pinned module-wide (docs/codegen-idioms.md, "Pinned
 * registers"): a generator that reserves rbx for vmctx and r15 for the
 * memory base (aarch64: x19, x20) never loads them in the function that
 * uses them. Such a register is read before any path writes it, is no
 * argument register and is never saved by the prologue: in the roles pass
 * it still holds the "caller's value" where it is read, and no save slot
 * or push records it. Among those, the one whose field 8 (the memory size)
 * is compared with an index right before an unsigned branch around a trap
 * block is vmctx; the base (or index) of the accesses that compare guards,
 * or the register added to their index, is the memory base.
 */
#include <string.h>
#include <strings.h>
#include "internal.h"

#define TRAP_LO 0x50
#define TRAP_HI 0x70
#define TRAP_WALK 5
#define SIZE_WALK 4
#define GUARD_WALK 8

static int arg_reg(enum cwasm_arch arch, enum cwasm_abi abi, uint8_t f)
{
	if (arch == CWASM_ARCH_AARCH64)
		return f >= A64_X0 && f < A64_X0 + 8;
	if (f == X86_RCX || f == X86_RDX || f == X86_R8 || f == X86_R9)
		return 1;
	return abi != CWASM_ABI_WIN64 && (f == X86_RDI || f == X86_RSI);
}

static int saved(const struct cls_flow *fl, uint8_t f)
{
	if (f < 32 && (fl->pushed & (1u << f)))
		return 1;
	for (uint32_t i = 0; i < fl->nsave_slot; i++)
		if (fl->save_slot[i].reg == f)
			return 1;
	return 0;
}

/* Register f, read at instruction i, could be pinned there. */
static int candidate(enum cwasm_arch arch, enum cwasm_abi abi, const struct cls_flow *fl,
		     uint32_t i, uint8_t f)
{
	if (!f || f >= CLS_NREG || fl->in[i].r[f] != R_CALLER || arg_reg(arch, abi, f) ||
	    saved(fl, f))
		return 0;
	if (arch == CWASM_ARCH_AARCH64)
		return f <= A64_X28;
	return f <= X86_R15 && f != X86_RSP && f != X86_RBP;
}

static int ends_block(const struct dc_insn *ni)
{
	return ni->kind == DC_JMP || ni->kind == DC_JCC || ni->kind == DC_RET ||
	       ni->kind == DC_DATA;
}

static int is_move_from(const struct dc_insn *ni, uint8_t *dst, uint8_t *src)
{
	if (ni->kind != DC_MOVE || ni->nops != 2 || ni->op[0].type != DC_OP_REG ||
	    ni->op[1].type != DC_OP_REG || ni->op[0].width != 8)
		return 0;
	*dst = ni->op[0].reg;
	*src = ni->op[1].reg;
	return 1;
}

/* A load of [g + TRAP_LO..TRAP_HI] (no index) into a register, or 0. */
static uint8_t trap_slot_load(const struct dc_insn *ni, uint64_t vm_set)
{
	const struct dc_op *m = dc_insn__mem_op(ni);

	if (ni->kind != DC_MOVE || ni->mem_write || !m || m->index || m->base >= 64 ||
	    !(vm_set & (1ull << m->base)) || m->val < TRAP_LO || m->val > TRAP_HI ||
	    ni->op[0].type != DC_OP_REG)
		return 0;
	return ni->op[0].reg;
}

/*
 * The block at t is a trap block of vmctx f: within a few instructions a
 * ud2/brk, or a call through a trap slot of f (or of a copy of f).
 */
static int trap_block(const struct dc_vec *nv, int64_t t, uint8_t f)
{
	uint64_t vm = 1ull << f, fn = 0;
	uint8_t d, s;

	for (int64_t k = t; t >= 0 && k < nv->n && k < t + TRAP_WALK; k++) {
		const struct dc_insn *ni = &nv->v[k];
		const struct dc_op *m = dc_insn__mem_op(ni);
		uint8_t r;

		if (ni->kind == DC_TRAP)
			return 1;
		if (ni->kind == DC_CALL) {
			if (!ni->indirect || !ni->nops)
				return 0;
			if (ni->op[0].type == DC_OP_REG)
				return ni->op[0].reg < 64 && (fn & (1ull << ni->op[0].reg));
			return m && !m->index && m->base < 64 && (vm & (1ull << m->base)) &&
			       m->val >= TRAP_LO && m->val <= TRAP_HI;
		}
		if (ends_block(ni))
			return 0;
		if (is_move_from(ni, &d, &s) && s < 64 && d < 64 && (vm & (1ull << s)))
			vm |= 1ull << d;
		else if ((r = trap_slot_load(ni, vm)) && r < 64)
			fn |= 1ull << r;
	}
	return 0;
}

/* The register loaded from [f+8] that the compare at i reads (aarch64's form), or 0. */
static uint8_t size_reg_base(const struct dc_vec *nv, uint32_t i, uint8_t reg, uint32_t *at)
{
	for (uint32_t k = i; k-- > 0 && i - k <= SIZE_WALK;) {
		const struct dc_insn *p = &nv->v[k];
		const struct dc_op *m = dc_insn__mem_op(p);

		if (ends_block(p) || p->kind == DC_CALL)
			return 0;
		if (!p->nops || p->op[0].type != DC_OP_REG || p->op[0].reg != reg || p->mem_write)
			continue;
		if (p->kind == DC_MOVE && m && !m->index && m->val == 8) {
			*at = k;
			return m->base;
		}
		return 0;
	}
	return 0;
}

/*
 * The compare at i reads field 8 of register f (in memory, or through a
 * register loaded from it): f, and where f is read in *at; else 0.
 */
static uint8_t size_compare(const struct dc_vec *nv, uint32_t i, uint32_t *at)
{
	const struct dc_insn *ni = &nv->v[i];
	const struct dc_op *m = dc_insn__mem_op(ni);

	if (ni->kind != DC_CMP)
		return 0;
	*at = i;
	if (m)
		return !m->index && m->val == 8 ? m->base : 0;
	for (int o = 0; o < ni->nops; o++) {
		uint8_t b;

		if (ni->op[o].type == DC_OP_REG && (b = size_reg_base(nv, i, ni->op[o].reg, at)))
			return b;
	}
	return 0;
}

/*
 * A bounds check at compare i: an unsigned branch right after it, one of
 * whose two ways is a trap block of vmctx f; the other way's index in *ok.
 */
static int bounds_check(const struct dc_vec *nv, uint32_t i, uint8_t f, int64_t *ok)
{
	const struct dc_insn *br = i + 1 < nv->n ? &nv->v[i + 1] : NULL;
	int64_t t;

	if (!br || br->kind != DC_JCC || !br->cc_unsigned || !br->has_target)
		return 0;
	t = dc_vec__find(nv, br->target);
	if (trap_block(nv, i + 2, f)) {
		*ok = t;
		return t >= 0;
	}
	if (t >= 0 && trap_block(nv, t, f)) {
		*ok = i + 2 < nv->n ? (int64_t)i + 2 : -1;
		return *ok >= 0;
	}
	return 0;
}

/* The registers the guarded block at ok uses as a memory base: votes[] += 1. */
static void guarded_bases(enum cwasm_arch arch, enum cwasm_abi abi, const struct cls_flow *fl,
			  const struct dc_vec *nv, int64_t ok, uint8_t vmctx, uint32_t *votes)
{
	for (int64_t k = ok; k < nv->n && k < ok + GUARD_WALK; k++) {
		const struct dc_insn *ni = &nv->v[k];
		const struct dc_op *m = dc_insn__mem_op(ni);
		uint8_t c[2] = { 0, 0 };

		if (ends_block(ni) || ni->kind == DC_CALL || ni->kind == DC_TRAP ||
		    fl->in[k].r[0] == R_TOP)
			break;
		if (m && ni->kind != DC_LEA) {
			c[0] = m->base;
			c[1] = m->index;
		} else if (ni->kind == DC_ALU && !strncasecmp(ni->text, "add", 3) && ni->nops >= 2) {
			/* x86 add rax, r15; aarch64 add x16, x20, x15 */
			for (int o = 1; o < ni->nops && o < 3; o++)
				if (ni->op[o].type == DC_OP_REG && ni->op[o].width == 8)
					c[o - 1] = ni->op[o].reg;
		}
		for (int x = 0; x < 2; x++)
			if (c[x] && c[x] != vmctx && candidate(arch, abi, fl, (uint32_t)k, c[x]))
				votes[c[x]]++;
	}
}

void cls__pinned(enum cwasm_arch arch, enum cwasm_abi abi, const struct cls_flow *fl,
		 const struct dc_vec *nv, uint8_t *vmctx, uint8_t *membase)
{
	uint32_t vm_votes[CLS_NREG] = { 0 }, mb_votes[CLS_NREG] = { 0 };
	uint8_t best = 0;

	*vmctx = *membase = 0;
	/* vmctx: field 8 of a pinned candidate compared before a branch around a trap */
	for (uint32_t i = 0; i < nv->n; i++) {
		uint32_t at;
		uint8_t f;
		int64_t ok;

		if (fl->in[i].r[0] == R_TOP || !(f = size_compare(nv, i, &at)))
			continue;
		if (candidate(arch, abi, fl, at, f) && bounds_check(nv, i, f, &ok))
			vm_votes[f]++;
	}
	for (uint8_t f = 1; f < CLS_NREG; f++)
		if (vm_votes[f] > vm_votes[best])
			best = f;
	*vmctx = best;
	/* the memory base: what the accesses those checks guard are based on */
	for (uint32_t i = 0; i < nv->n; i++) {
		uint32_t at;
		uint8_t f;
		int64_t ok;

		if (fl->in[i].r[0] == R_TOP || !(f = size_compare(nv, i, &at)))
			continue;
		if (!(f == *vmctx || fl->in[at].r[f] == R_VMCTX) || !bounds_check(nv, i, f, &ok))
			continue;
		guarded_bases(arch, abi, fl, nv, ok, *vmctx, mb_votes);
	}
	best = 0;
	for (uint8_t f = 1; f < CLS_NREG; f++)
		if (mb_votes[f] > mb_votes[best])
			best = f;
	*membase = best;
}
