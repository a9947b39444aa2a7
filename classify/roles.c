// SPDX-License-Identifier: MIT
/*
 * Register roles inferred from the code: a forward data-flow pass over one
 * function that tracks, before every instruction, which registers hold
 * vmctx (the incoming parameter, its reserved frame slot, every reload and
 * move of it), the linear-memory base (vmctx field 0) and addresses derived
 * from it, the memory size (field 8), trap helpers (fields 0x50..0x70), and
 * callee-saved registers still holding the caller's value (so saves and
 * restores are told from spills). The idioms it relies on are described in
 * docs/codegen-idioms.md.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "internal.h"
#include "../util/search.h"

#define TRAP_FIELD_LO 0x50
#define TRAP_FIELD_HI 0x70
#define MAX_ROUNDS 64
#define PROLOGUE_SCAN 12

int cls__is_frame_base(const struct cls_roles *ovr, enum cwasm_arch arch, uint8_t fam)
{
	if (!fam)
		return 0;
	if (ovr && ovr->frame && fam == ovr->frame)
		return 1;
	if (arch == CWASM_ARCH_AARCH64)
		return fam == A64_X29 || fam == A64_SP;
	return fam == X86_RBP || fam == X86_RSP;
}

/* The first word of the text, lower case, against m (x86 AT&T suffixes allowed). */
static int mnem_is(const struct dc_insn *ni, const char *m)
{
	size_t n = strlen(m), k = strcspn(ni->text, " \t");

	if (strncasecmp(ni->text, m, n))
		return 0;
	return k == n || (k == n + 1 && strchr("bwlq", ni->text[n]));
}

static int is_gpr(enum cwasm_arch arch, uint8_t fam)
{
	return arch == CWASM_ARCH_AARCH64 ? fam >= A64_X0 && fam <= A64_X30 :
					    fam >= X86_RAX && fam <= X86_R15;
}

static int callee_saved(enum cwasm_arch arch, enum cwasm_abi abi, uint8_t fam)
{
	if (arch == CWASM_ARCH_AARCH64)
		return fam >= A64_X19 && fam <= A64_X30;
	switch (fam) {
	case X86_RBX: case X86_RBP: case X86_R12: case X86_R13: case X86_R14: case X86_R15:
		return 1;
	case X86_RSI: case X86_RDI:
		return abi == CWASM_ABI_WIN64;
	default:
		return 0;
	}
}

int cls__dests(enum cwasm_arch arch, const struct dc_insn *ni, uint8_t dst[2])
{
	int n = 0;

	switch (ni->kind) {
	case DC_CMP: case DC_JMP: case DC_JCC: case DC_RET: case DC_TRAP: case DC_NOP:
	case DC_DATA: case DC_CALL:
		return 0;
	case DC_STACK:
		if (mnem_is(ni, "pop") && ni->nops && ni->op[0].type == DC_OP_REG)
			dst[n++] = ni->op[0].reg;
		return n;
	default:
		break;
	}
	if (ni->mem_write || !ni->nops || ni->op[0].type != DC_OP_REG)
		return 0;
	dst[n++] = ni->op[0].reg;
	/* aarch64 load pair; x86 xchg */
	if (ni->nops >= 2 && ni->op[1].type == DC_OP_REG &&
	    ((arch == CWASM_ARCH_AARCH64 && ni->kind == DC_MOVE && ni->nops >= 3 &&
	      ni->op[2].type == DC_OP_MEM) ||
	     (arch != CWASM_ARCH_AARCH64 && mnem_is(ni, "xchg"))))
		dst[n++] = ni->op[1].reg;
	return n;
}

int cls__frame_slot(const struct cls_roles *ovr, enum cwasm_arch arch, const struct dc_insn *ni,
		    const struct cls_rstate *st, struct cls_slot *s)
{
	const struct dc_op *m = dc_insn__mem_op(ni);

	if (!m || ni->kind == DC_LEA)
		return 0;
	if (cls__is_frame_base(ovr, arch, m->base) && !m->index) {
		s->base = m->base;
		s->disp = m->val;
		s->reg = 0;
		return 1;
	}
	if (m->base < CLS_NREG && st->r[m->base] == R_FRAMEADDR)
		return 2;
	return 0;
}

int cls__store_data(enum cwasm_arch arch, const struct dc_insn *ni, uint8_t *data)
{
	if (!ni->mem_write || ni->kind != DC_MOVE || ni->nops < 2)
		return 0;
	if (arch == CWASM_ARCH_AARCH64) {
		if (ni->op[0].type != DC_OP_REG || ni->op[0].width != 8)
			return 0;
		*data = ni->op[0].reg;
		return 1;
	}
	if (ni->op[0].type != DC_OP_MEM || ni->op[1].type != DC_OP_REG || ni->op[1].width != 8)
		return 0;
	*data = ni->op[1].reg;
	return 1;
}

static int slot_eq(const struct cls_slot *a, const struct cls_slot *b)
{
	return a->base == b->base && a->disp == b->disp;
}

int cls_flow__is_vmctx_slot(const struct cls_flow *fl, const struct cls_slot *s)
{
	for (uint32_t i = 0; i < fl->nvmctx_slot; i++)
		if (slot_eq(&fl->vmctx_slot[i], s))
			return 1;
	return 0;
}

int cls_flow__save_slot_reg(const struct cls_flow *fl, const struct cls_slot *s)
{
	for (uint32_t i = 0; i < fl->nsave_slot; i++)
		if (slot_eq(&fl->save_slot[i], s))
			return fl->save_slot[i].reg;
	return 0;
}

static uint8_t role(const struct cls_rstate *st, uint8_t fam)
{
	return fam < CLS_NREG ? st->r[fam] : R_UNK;
}

int cls__noreturn(const struct dc_insn *ni, const struct cls_rstate *st)
{
	const struct dc_op *m;

	if (ni->kind == DC_TRAP)
		return 1;
	if (ni->kind != DC_CALL || !ni->indirect || !ni->nops)
		return 0;
	if (ni->op[0].type == DC_OP_REG)
		return role(st, ni->op[0].reg) == R_TRAPFN;
	m = &ni->op[0];
	return m->type == DC_OP_MEM && role(st, m->base) == R_VMCTX && !m->index &&
	       m->val >= TRAP_FIELD_LO && m->val <= TRAP_FIELD_HI;
}

static uint8_t field_role(int64_t disp)
{
	if (disp == 0)
		return R_MEMBASE;
	if (disp == 8)
		return R_MEMSIZE;
	if (disp >= TRAP_FIELD_LO && disp <= TRAP_FIELD_HI)
		return R_TRAPFN;
	return R_FIELD;
}

static int is_ptr(uint8_t r)
{
	return r == R_MEMBASE || r == R_LINADDR;
}

/* An operand's role as a source: registers by state, immediates UNK. */
static uint8_t src_role(const struct cls_rstate *st, const struct dc_op *o)
{
	return o->type == DC_OP_REG ? role(st, o->reg) : R_UNK;
}

struct pass {
	enum cwasm_arch arch;
	enum cwasm_abi abi;
	const struct cls_roles *ovr;
	struct cls_flow *fl;
	struct cls_slot banned[CLS_MAX_SLOTS];
	uint32_t nbanned;
	int grew;
};

static int banned(const struct pass *p, const struct cls_slot *s)
{
	for (uint32_t i = 0; i < p->nbanned; i++)
		if (slot_eq(&p->banned[i], s))
			return 1;
	return 0;
}

static void add_slot(struct pass *p, struct cls_slot *set, uint32_t *n, const struct cls_slot *s)
{
	for (uint32_t i = 0; i < *n; i++)
		if (slot_eq(&set[i], s))
			return;
	if (*n < CLS_MAX_SLOTS && !banned(p, s)) {
		set[(*n)++] = *s;
		p->grew = 1;
	}
}

/* The role a single register write gives its destination. */
static uint8_t dest_role(struct pass *p, const struct dc_insn *ni, const struct cls_rstate *st,
			 uint8_t dst)
{
	const struct dc_op *m = dc_insn__mem_op(ni);
	const struct dc_op *o = ni->op;
	struct cls_slot s;
	int fs;

	if (ni->kind == DC_STACK) /* pop: a restore of what was pushed */
		return p->fl->pushed & (1u << dst) ? R_CALLER : R_UNK;
	if (ni->op[0].width != 8)
		return R_UNK; /* a 32-bit result holds no pointer */
	if (ni->kind == DC_MOVE && ni->nops == 2 && o[1].type == DC_OP_REG) {
		uint8_t r = role(st, o[1].reg);

		return r == R_CALLER || r == R_TOP || o[1].width != 8 ? R_UNK : r;
	}
	if ((ni->kind == DC_MOVE) && m && !ni->mem_write) {
		fs = cls__frame_slot(p->ovr, p->arch, ni, st, &s);
		if (fs == 1 && cls_flow__is_vmctx_slot(p->fl, &s))
			return R_VMCTX;
		if (fs == 1 && cls_flow__save_slot_reg(p->fl, &s) == dst)
			return R_CALLER;
		if (!fs && role(st, m->base) == R_VMCTX && !m->index)
			return field_role(m->val);
		return R_UNK;
	}
	if (ni->kind == DC_LEA && m) {
		if (is_ptr(role(st, m->base)) || is_ptr(role(st, m->index)))
			return R_LINADDR;
		if (cls__is_frame_base(p->ovr, p->arch, m->base) && !m->index)
			return R_FRAMEADDR;
		return R_UNK;
	}
	if (mnem_is(ni, "add") && !m) {
		/* x86 add dst, src; aarch64 add xd, xn, xm|#imm */
		const struct dc_op *a = p->arch == CWASM_ARCH_AARCH64 ? &o[1] : &o[0];
		const struct dc_op *b = p->arch == CWASM_ARCH_AARCH64 ? &o[2] : &o[1];
		uint8_t ra, rb;

		if (ni->nops < (p->arch == CWASM_ARCH_AARCH64 ? 3 : 2))
			return R_UNK;
		ra = src_role(st, a);
		rb = src_role(st, b);
		if ((is_ptr(ra) && !is_ptr(rb) && rb != R_VMCTX) ||
		    (is_ptr(rb) && !is_ptr(ra) && ra != R_VMCTX))
			return R_LINADDR;
		if (a->type == DC_OP_REG && cls__is_frame_base(p->ovr, p->arch, a->reg) &&
		    b->type == DC_OP_IMM)
			return R_FRAMEADDR;
		return R_UNK;
	}
	return R_UNK;
}

static void force(const struct cls_roles *ovr, struct cls_rstate *st)
{
	if (ovr && ovr->vmctx && ovr->vmctx < CLS_NREG)
		st->r[ovr->vmctx] = R_VMCTX;
	if (ovr && ovr->membase && ovr->membase < CLS_NREG)
		st->r[ovr->membase] = R_MEMBASE;
}

/* The state after ni; records the slots it proves. */
static void transfer(struct pass *p, const struct dc_insn *ni, const struct cls_rstate *in,
		     struct cls_rstate *out)
{
	uint8_t dst[2], r[2], data;
	struct cls_slot s;
	int nd;

	*out = *in;
	if (ni->kind == DC_CALL) {
		for (uint8_t f = 1; f < CLS_NREG; f++)
			if (is_gpr(p->arch, f) && !callee_saved(p->arch, p->abi, f))
				out->r[f] = R_UNK;
		force(p->ovr, out);
		return;
	}
	if (ni->kind == DC_STACK && mnem_is(ni, "push") && ni->nops &&
	    ni->op[0].type == DC_OP_REG && role(in, ni->op[0].reg) == R_CALLER &&
	    ni->op[0].reg < 32)
		p->fl->pushed |= 1u << ni->op[0].reg;
	/* stores that prove a slot: vmctx into its slot, a callee save */
	if (cls__store_data(p->arch, ni, &data) && cls__frame_slot(p->ovr, p->arch, ni, in, &s) == 1) {
		if (role(in, data) == R_VMCTX)
			add_slot(p, p->fl->vmctx_slot, &p->fl->nvmctx_slot, &s);
		else if (role(in, data) == R_CALLER) {
			s.reg = data;
			add_slot(p, p->fl->save_slot, &p->fl->nsave_slot, &s);
		}
	}
	nd = cls__dests(p->arch, ni, dst);
	if (nd == 2 && p->arch == CWASM_ARCH_AARCH64) {
		/* ldp: fp/lr restore or nothing we track */
		int fp_lr = dst[0] == A64_X29 && dst[1] == A64_X30;

		r[0] = r[1] = fp_lr ? R_CALLER : R_UNK;
	} else {
		for (int k = 0; k < nd; k++)
			r[k] = nd == 1 ? dest_role(p, ni, in, dst[k]) : R_UNK;
	}
	for (int k = 0; k < nd; k++)
		if (dst[k] < CLS_NREG)
			out->r[dst[k]] = r[k];
	/* writeback bases, implicit x86 writes (mul, div, cqo, string ops) */
	if (ni->writeback) {
		const struct dc_op *m = dc_insn__mem_op(ni);

		if (m && !cls__is_frame_base(p->ovr, p->arch, m->base) && m->base < CLS_NREG)
			out->r[m->base] = R_UNK;
	}
	if (p->arch != CWASM_ARCH_AARCH64 && (ni->kind == DC_ALU || ni->kind == DC_OTHER) &&
	    ni->nops <= 1) {
		out->r[X86_RAX] = out->r[X86_RDX] = R_UNK;
		if (!ni->nops)
			out->r[X86_RCX] = out->r[X86_RSI] = out->r[X86_RDI] = R_UNK;
	}
	force(p->ovr, out);
}

static int meet_into(struct cls_rstate *dst, const struct cls_rstate *src)
{
	int changed = 0;

	for (int f = 0; f < CLS_NREG; f++) {
		uint8_t a = dst->r[f], b = src->r[f], m;

		m = a == R_TOP ? b : b == R_TOP ? a : a == b ? a : R_UNK;
		if (m != a) {
			dst->r[f] = m;
			changed = 1;
		}
	}
	return changed;
}

static int reached(const struct cls_rstate *s)
{
	return s->r[0] != R_TOP;
}

static int64_t find_addr(const struct dc_insn *v, uint32_t n, uint64_t addr)
{
	size_t lo = ap_search__lower(v, n, AP_SEARCH_FIELD(v, addr), addr);

	return lo < n && v[lo].addr == addr && v[lo].kind != DC_DATA ? (int64_t)lo : -1;
}

/* The first entry of the jump table of the indirect jump at j (or j + 1). */
static uint32_t table_start(const struct dc_vec *nv, uint32_t j)
{
	uint64_t tb = dc__table_base(nv, j);
	uint32_t lo;

	if (tb < nv->v[j].addr + nv->v[j].size + DC_TABLE_PAD)
		return j + 1;
	lo = (uint32_t)ap_search__lower(nv->v, nv->n, AP_SEARCH_FIELD(nv->v, addr), tb);
	return lo < nv->n && nv->v[lo].addr == tb ? lo : nv->n;
}

/* The parameter register the prologue parks in a frame slot (legacy containers). */
static uint8_t prologue_param(const struct cls_roles *ovr, const struct dc_vec *nv)
{
	for (uint32_t i = 0; i < nv->n && i < PROLOGUE_SCAN; i++) {
		const struct dc_insn *ni = &nv->v[i];

		if (ni->kind == DC_JMP || ni->kind == DC_JCC || ni->kind == DC_CALL ||
		    ni->kind == DC_RET)
			break;
		if (ni->kind == DC_MOVE && ni->mem_write && ni->nops == 2 &&
		    ni->op[0].type == DC_OP_MEM && ni->op[1].type == DC_OP_REG &&
		    ni->op[1].width == 8 && cls__is_frame_base(ovr, CWASM_ARCH_X86_64, ni->op[0].base) &&
		    (ni->op[1].reg == X86_RDI || ni->op[1].reg == X86_RCX))
			return ni->op[1].reg;
	}
	return 0;
}

static void pick_abi(const struct cls_roles *ovr, const struct dc_vec *nv, struct cls_func_roles *out)
{
	enum cwasm_arch arch = ovr->arch;

	out->abi = ovr->abi;
	out->abi_source = CLS_ABI_TARGET;
	if (arch == CWASM_ARCH_AARCH64) {
		if (out->abi == CWASM_ABI_UNSPECIFIED) {
			out->abi = CWASM_ABI_AAPCS64;
			out->abi_source = CLS_ABI_DEFAULT;
		}
		out->vmctx_param = A64_X0;
		out->frame = A64_X29;
		return;
	}
	out->frame = X86_RBP;
	if (out->abi == CWASM_ABI_UNSPECIFIED || out->abi == CWASM_ABI_AAPCS64) {
		uint8_t reg = prologue_param(ovr, nv);

		out->abi = reg == X86_RCX ? CWASM_ABI_WIN64 : CWASM_ABI_SYSV;
		out->abi_source = reg ? CLS_ABI_PROLOGUE : CLS_ABI_DEFAULT;
	}
	out->vmctx_param = out->abi == CWASM_ABI_WIN64 ? X86_RCX : X86_RDI;
}

static void entry_state(const struct pass *p, uint8_t param, struct cls_rstate *st)
{
	for (uint8_t f = 0; f < CLS_NREG; f++)
		st->r[f] = callee_saved(p->arch, p->abi, f) ? R_CALLER : R_UNK;
	if (param)
		st->r[param] = R_VMCTX;
	force(p->ovr, st);
}

/*
 * The state out of an indirect jump whose table entries are unknown (perf
 * annotate text shows no bytes) into every later instruction that nothing
 * falls through to: the blocks its entries may name.
 */
static int meet_blocks(const struct dc_vec *nv, uint32_t j, struct cls_flow *fl,
		       const struct cls_rstate *out)
{
	const struct dc_insn *v = nv->v;
	int changed = 0;

	for (uint32_t k = j + 1; k < nv->n; k++) {
		const struct dc_insn *p = &v[k - 1];

		if (v[k].kind == DC_DATA)
			continue;
		if (p->kind == DC_DATA || p->kind == DC_JMP || p->kind == DC_RET ||
		    p->kind == DC_TRAP)
			changed |= meet_into(&fl->in[k], out);
	}
	return changed;
}

/*
 * One data-flow solution; 1 if a slot set grew on the way (states met
 * before a slot was known may be too pessimistic: solve again).
 */
static int solve(struct pass *p, const struct dc_vec *nv, uint64_t lo, uint64_t hi, uint8_t param)
{
	const struct dc_insn *v = nv->v;
	struct cls_flow *fl = p->fl;
	uint32_t n = nv->n;
	int changed = 1, rounds = 0, grew = 0;

	memset(fl->in, 0, (n ? n : 1) * sizeof(*fl->in));
	fl->pushed = 0;
	p->grew = 0;
	if (!n)
		return 0;
	entry_state(p, param, &fl->in[0]);
	while (changed && rounds++ < MAX_ROUNDS) {
		changed = 0;
		for (uint32_t i = 0; i < n; i++) {
			struct cls_rstate out;
			const struct dc_insn *ni = &v[i];
			int64_t t;

			if (!reached(&fl->in[i]) || ni->kind == DC_DATA)
				continue;
			transfer(p, ni, &fl->in[i], &out);
			if (i + 1 < n && ni->kind != DC_JMP && ni->kind != DC_RET &&
			    !cls__noreturn(ni, &fl->in[i]) && v[i + 1].kind != DC_DATA)
				changed |= meet_into(&fl->in[i + 1], &out);
			if ((ni->kind == DC_JMP || ni->kind == DC_JCC) && ni->has_target &&
			    ni->target >= lo && ni->target < hi &&
			    (t = find_addr(v, n, ni->target)) >= 0)
				changed |= meet_into(&fl->in[t], &out);
			/* a jump table's entries (inline, or where its lea points) are this jump's targets */
			if (ni->kind == DC_JMP && ni->indirect) {
				int known = 0, any = 0;

				for (uint32_t k = table_start(nv, i); k < n && v[k].kind == DC_DATA; k++) {
					any |= v[k].ndata != 0;
					if (v[k].has_target && (t = find_addr(v, n, v[k].target)) >= 0) {
						changed |= meet_into(&fl->in[t], &out);
						known = 1;
					}
				}
				/* text: entries without values; any later block start may be one */
				if (any && !known)
					changed |= meet_blocks(nv, i, fl, &out);
			}
		}
		grew |= p->grew;
		p->grew = 0;
	}
	return grew;
}

/* A slot that also receives other values is not reserved: ban it and solve again. */
static int bad_slot(struct pass *p, const struct dc_vec *nv)
{
	struct cls_flow *fl = p->fl;

	for (uint32_t i = 0; i < nv->n; i++) {
		const struct dc_insn *ni = &nv->v[i];
		struct cls_slot s;
		uint8_t data;
		int vm, sv;

		if (!reached(&fl->in[i]) || !ni->mem_write ||
		    cls__frame_slot(p->ovr, p->arch, ni, &fl->in[i], &s) != 1)
			continue;
		vm = cls_flow__is_vmctx_slot(fl, &s);
		sv = cls_flow__save_slot_reg(fl, &s);
		if (!vm && !sv)
			continue;
		if (!cls__store_data(p->arch, ni, &data))
			data = 0;
		if ((vm && role(&fl->in[i], data) == R_VMCTX) ||
		    (sv && data == sv && role(&fl->in[i], data) == R_CALLER))
			continue;
		if (p->nbanned < CLS_MAX_SLOTS)
			p->banned[p->nbanned++] = s;
		return 1;
	}
	return 0;
}

static void summarize(const struct pass *p, const struct dc_vec *nv, struct cls_func_roles *out)
{
	const struct cls_flow *fl = p->fl;

	if (fl->nvmctx_slot) {
		out->has_slot = 1;
		out->slot_base = fl->vmctx_slot[0].base;
		out->slot_disp = (int32_t)fl->vmctx_slot[0].disp;
	}
	for (uint32_t i = 0; i < nv->n; i++) {
		if (!reached(&fl->in[i]))
			continue;
		for (uint8_t f = 1; f < CLS_NREG && f < 64; f++) {
			if (fl->in[i].r[f] == R_VMCTX && f != out->vmctx_param)
				out->vmctx_regs |= 1ull << f;
			if (fl->in[i].r[f] == R_MEMBASE)
				out->membase_regs |= 1ull << f;
		}
	}
}

static void run_rounds(struct pass *p, const struct dc_vec *nv, uint64_t lo, uint64_t hi,
		       uint8_t param)
{
	struct cls_flow *fl = p->fl;

	for (int round = 0; round < 8; round++) {
		fl->nvmctx_slot = fl->nsave_slot = 0;
		for (int again = 0; again < 4 && solve(p, nv, lo, hi, param); again++)
			;
		if (!bad_slot(p, nv))
			break;
	}
}

int cls_flow__run(const struct cls_roles *ovr, const struct dc_vec *nv, uint64_t lo,
		  uint64_t hi, struct cls_flow *fl, struct cls_func_roles *out,
		  struct ap_err *err)
{
	struct cls_roles eff;
	uint8_t pv, pm;
	struct pass p;

	memset(fl, 0, sizeof(*fl));
	memset(out, 0, sizeof(*out));
	fl->in = calloc(nv->n ? nv->n : 1, sizeof(*fl->in));
	if (!fl->in)
		return ap_err_nomem(err);
	out->arch = ovr->arch;
	out->override = *ovr;
	pick_abi(ovr, nv, out);
	if (ovr->frame)
		out->frame = ovr->frame;
	memset(&p, 0, sizeof(p));
	p.arch = ovr->arch;
	p.abi = out->abi;
	p.ovr = ovr;
	p.fl = fl;
	run_rounds(&p, nv, lo, hi, out->vmctx_param);
	/* registers pinned module-wide: solve again with them held (pinned.c) */
	eff = *ovr;
	cls__pinned(p.arch, p.abi, fl, nv, &pv, &pm);
	if (!ovr->vmctx && pv)
		eff.vmctx = out->pinned_vmctx = pv;
	if (!ovr->membase && pm)
		eff.membase = out->pinned_membase = pm;
	if (out->pinned_vmctx || out->pinned_membase) {
		memset(&p.banned, 0, sizeof(p.banned));
		p.nbanned = 0;
		p.ovr = &eff;
		/* the vmctx parameter is a wasm argument when vmctx is pinned */
		run_rounds(&p, nv, lo, hi, out->pinned_vmctx ? 0 : out->vmctx_param);
	}
	summarize(&p, nv, out);
	return 0;
}

void cls_flow__exit(struct cls_flow *fl)
{
	free(fl->in);
	memset(fl, 0, sizeof(*fl));
}
