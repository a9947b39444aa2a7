// SPDX-License-Identifier: MIT
/*
 * The structural classifier: each instruction gets a class from its kind,
 * its operands and the register roles before it (roles.c); then passes
 * over the whole function find what only context shows: a compare with
 * the memory size and its branch are a bounds check, the call through a
 * vmctx trap slot and what feeds it a trap block, the bound, loads and
 * adds that feed an indirect jump a br_table (docs/codegen-idioms.md).
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "internal.h"
#include "../util/search.h"

static const struct {
	const char *name;
	const char *desc;
} classes[CLS__COUNT] = {
	[CLS_FRAME_LOAD] = { "frame_load",
		"reads a frame slot (rbp/rsp, x29/sp) that nothing in the code attributes: a spill, a local or scratch; a load folded into an ALU op included" },
	[CLS_FRAME_STORE] = { "frame_store",
		"writes such a frame slot (a store or a read-modify-write)" },
	[CLS_FRAME_SAVE] = { "frame_save",
		"prologue save / epilogue restore: push/pop of rbp and callee saves, stp/ldp x29,x30, callee-saved str/ldr" },
	[CLS_VMCTX_SAVE] = { "vmctx_save",
		"stores the incoming vmctx into its reserved frame slot" },
	[CLS_VMCTX_RELOAD] = { "vmctx_reload",
		"reloads vmctx from that slot (runtime frame state, not a spill)" },
	[CLS_VMCTX_FIELD] = { "vmctx_field",
		"reads or writes a vmctx field: the memory base, globals, table and trap pointers" },
	[CLS_REG_MOVE] = { "reg_move",
		"register-to-register copy that is not a zero-extend (xchg, vector and fp moves included)" },
	[CLS_ZEXT_MOVE] = { "zext_move",
		"i32 zero-extend: a 32-bit move of a register to itself (mov esi,esi; mov w0,w0 = uxtw; ubfx/and self forms)" },
	[CLS_ALU] = { "alu",
		"arithmetic, logic, shift, compare, sign/zero extension of narrower values, constants (mov reg, imm)" },
	[CLS_LEA] = { "lea",
		"address generation (lea; adr/adrp)" },
	[CLS_BOUNDS_CHECK] = { "bounds_check",
		"a compare with the memory size (vmctx field 8), its branch, and on aarch64 the size load" },
	[CLS_LINEAR_MEM] = { "linear_mem",
		"memory access through an address derived from the linear-memory base (vmctx field 0)" },
	[CLS_OTHER_MEM] = { "other_mem",
		"any other memory access: tables, globals, host pointers" },
	[CLS_DISPATCH] = { "dispatch",
		"br_table: the bound check, table address, entry load, add and indirect jump; aarch64 cmp/b.eq chains" },
	[CLS_CALL_DIRECT] = { "call_direct",
		"call to a fixed target (call label, bl)" },
	[CLS_CALL_INDIRECT] = { "call_indirect",
		"call through a register or memory (call rax, call r11, blr x16)" },
	[CLS_TAIL_CALL] = { "tail_call",
		"a jump that leaves the function (b label outside it, br xN)" },
	[CLS_COND_BRANCH] = { "cond_branch",
		"conditional branch that is not part of a bounds check or dispatch (jcc, b.cond, cbz/cbnz, tbz/tbnz)" },
	[CLS_BRANCH] = { "branch",
		"direct unconditional jump inside the function (jmp label, b)" },
	[CLS_TRAP] = { "trap",
		"trap blocks: the call through a vmctx trap slot and the moves feeding it, ud2, int3, brk" },
	[CLS_OTHER] = { "other",
		"ret, nop, system instructions" },
	[CLS_DATA] = { "data",
		"bytes in text that are not code: br_table jump tables, padding before them, undecodable bytes" },
};

static const char *const details[CLS_D__COUNT] = {
	[CLS_D_NONE] = NULL,
	[CLS_D_BOUNDS_SIZE] = "bounds_size",
	[CLS_D_BOUNDS_CMP] = "bounds_cmp",
	[CLS_D_BOUNDS_BRANCH] = "bounds_branch",
	[CLS_D_MEMBASE_LOAD] = "membase_load",
	[CLS_D_DISPATCH_BOUND] = "dispatch_bound",
	[CLS_D_DISPATCH_DEFAULT] = "dispatch_default",
	[CLS_D_DISPATCH_TABLE] = "dispatch_table",
	[CLS_D_DISPATCH_ENTRY] = "dispatch_entry",
	[CLS_D_DISPATCH_ADD] = "dispatch_add",
	[CLS_D_DISPATCH_JUMP] = "dispatch_jump",
	[CLS_D_DISPATCH_CHAIN] = "dispatch_chain",
	[CLS_D_TRAP_CALL] = "trap_call",
	[CLS_D_TABLE_ENTRY] = "table_entry",
};

const char *cls__name(enum cls_class c)
{
	return (unsigned)c < CLS__COUNT ? classes[c].name : "?";
}

const char *cls__desc(enum cls_class c)
{
	return (unsigned)c < CLS__COUNT ? classes[c].desc : "?";
}

const char *cls__detail_name(enum cls_detail d)
{
	return (unsigned)d < CLS_D__COUNT ? details[d] : NULL;
}

int cls__by_name(const char *name)
{
	for (int c = 0; c < CLS__COUNT; c++)
		if (!strcmp(classes[c].name, name))
			return c;
	return -1;
}

int cls__is_stack_traffic(enum cls_class c)
{
	return c == CLS_FRAME_LOAD || c == CLS_FRAME_STORE || c == CLS_VMCTX_SAVE ||
	       c == CLS_VMCTX_RELOAD;
}

/* ---- role overrides ---- */

void cls__roles_default(enum cwasm_arch arch, struct cls_roles *r)
{
	memset(r, 0, sizeof(*r));
	r->arch = arch;
}

void cls__roles_target(const struct cwasm_target *t, struct cls_roles *r)
{
	cls__roles_default(t->arch, r);
	r->abi = t->abi;
}

static int gpr_ok(enum cwasm_arch arch, uint8_t fam)
{
	return arch == CWASM_ARCH_AARCH64 ? fam >= A64_X0 && fam <= A64_SP
					  : fam >= X86_RAX && fam <= X86_R15;
}

int cls__roles_parse(struct cls_roles *r, const char *spec, struct ap_err *err)
{
	const char *p = spec;

	while (*p) {
		size_t len = strcspn(p, ",");
		const char *eq = memchr(p, '=', len);
		uint8_t fam = 0, width, *slot;
		size_t klen, vlen;

		if (!eq)
			return ap_errf(err, "roles: '%.*s' is not ROLE=REG", (int)len, p);
		klen = (size_t)(eq - p);
		vlen = len - klen - 1;
		if (klen == 5 && !strncmp(p, "vmctx", 5))
			slot = &r->vmctx;
		else if (klen == 7 && !strncmp(p, "membase", 7))
			slot = &r->membase;
		else if (klen == 5 && !strncmp(p, "frame", 5))
			slot = &r->frame;
		else
			return ap_errf(err, "roles: unknown role '%.*s' (vmctx, membase, frame)",
				       (int)klen, p);
		if (!(vlen == 4 && !strncmp(eq + 1, "none", 4)) &&
		    (!dc__reg_parse(r->arch, eq + 1, vlen, &fam, &width) || !gpr_ok(r->arch, fam)))
			return ap_errf(err, "roles: '%.*s' is not a general-purpose register",
				       (int)vlen, eq + 1);
		*slot = fam;
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

void cls__roles_str(const struct cls_roles *r, char *buf, size_t len)
{
	snprintf(buf, len, "vmctx=%s,membase=%s,frame=%s", dc__reg_name(r->arch, r->vmctx),
		 dc__reg_name(r->arch, r->membase), dc__reg_name(r->arch, r->frame));
}

/* ---- per-instruction classes ---- */

static int is_gpr32_self(const struct dc_op *a, const struct dc_op *b)
{
	return a->type == DC_OP_REG && b->type == DC_OP_REG && a->reg == b->reg && a->reg < REG_VEC &&
	       a->width == 4 && b->width == 4;
}

static enum cls_class move_class(const struct dc_insn *ni)
{
	if (ni->nops < 2)
		return CLS_OTHER;
	if (ni->op[1].type == DC_OP_IMM)
		return CLS_ALU;
	if (is_gpr32_self(&ni->op[0], &ni->op[1]))
		return CLS_ZEXT_MOVE;
	/* any other move of a register to itself does nothing: xchg ax,ax padding */
	if (ni->op[0].type == DC_OP_REG && ni->op[1].type == DC_OP_REG && ni->op[0].reg == ni->op[1].reg &&
	    ni->op[0].width == ni->op[1].width)
		return CLS_OTHER;
	return CLS_REG_MOVE;
}

static int mnem_is(const struct dc_insn *ni, const char *m)
{
	size_t n = strlen(m), k = strcspn(ni->text, " \t");

	if (strncasecmp(ni->text, m, n))
		return 0;
	return k == n || (k == n + 1 && strchr("bwlq", ni->text[n]));
}

struct ctx {
	const struct cls_roles *ovr;
	enum cwasm_arch arch;
	const struct dc_insn *v;
	uint32_t n;
	uint64_t lo, hi;
	const struct cls_flow *fl;
	const struct cls_func_roles *roles;
	uint8_t *cls, *det, *frame;
	uint8_t *target;	/* branch target (block leader) */
};

static uint8_t role_at(const struct ctx *c, uint32_t i, uint8_t fam)
{
	if (fam >= CLS_NREG || !fam)
		return R_UNK;
	if (c->fl->in[i].r[fam] != R_TOP)
		return c->fl->in[i].r[fam];
	/* unreached code: only the overrides and the pinned registers are known */
	if (fam == c->ovr->vmctx || fam == c->roles->pinned_vmctx)
		return R_VMCTX;
	if (fam == c->ovr->membase || fam == c->roles->pinned_membase)
		return R_MEMBASE;
	return R_UNK;
}

static int is_ptr(uint8_t r)
{
	return r == R_MEMBASE || r == R_LINADDR;
}

static enum cls_class stack_class(const struct ctx *c, uint32_t i)
{
	const struct dc_insn *ni = &c->v[i];
	uint8_t reg = ni->nops && ni->op[0].type == DC_OP_REG ? ni->op[0].reg : 0;

	c->frame[i] = 1;
	if (mnem_is(ni, "push"))
		return reg && role_at(c, i, reg) == R_CALLER ? CLS_FRAME_SAVE : CLS_FRAME_STORE;
	if (mnem_is(ni, "pop"))
		return reg && reg < 32 && (c->fl->pushed & (1u << reg)) ? CLS_FRAME_SAVE :
									 CLS_FRAME_LOAD;
	if (mnem_is(ni, "leave") || mnem_is(ni, "enter"))
		return CLS_FRAME_SAVE;
	c->frame[i] = 0;
	return CLS_OTHER;
}

static enum cls_class frame_class(const struct ctx *c, uint32_t i, int fs, const struct cls_slot *s)
{
	const struct dc_insn *ni = &c->v[i];
	uint8_t data, dst[2];
	int nd;

	c->frame[i] = 1;
	/* the frame record: stp/ldp x29, x30 */
	if (c->arch == CWASM_ARCH_AARCH64 && ni->nops >= 3 && ni->op[0].type == DC_OP_REG &&
	    ni->op[1].type == DC_OP_REG && ni->op[0].reg == A64_X29 && ni->op[1].reg == A64_X30)
		return CLS_FRAME_SAVE;
	if (fs == 1 && cls_flow__is_vmctx_slot(c->fl, s))
		return ni->mem_write ? CLS_VMCTX_SAVE : CLS_VMCTX_RELOAD;
	if (fs == 1 && cls__store_data(c->arch, ni, &data) && role_at(c, i, data) == R_CALLER &&
	    cls_flow__save_slot_reg(c->fl, s) == data)
		return CLS_FRAME_SAVE;
	nd = cls__dests(c->arch, ni, dst);
	if (fs == 1 && !ni->mem_write && nd && cls_flow__save_slot_reg(c->fl, s) == dst[0])
		return CLS_FRAME_SAVE;
	return ni->mem_write ? CLS_FRAME_STORE : CLS_FRAME_LOAD;
}

static enum cls_class base_class(const struct ctx *c, uint32_t i)
{
	const struct dc_insn *ni = &c->v[i];
	const struct dc_op *m;
	struct cls_slot s;
	int fs;

	switch (ni->kind) {
	case DC_DATA:
		c->det[i] = ni->ndata ? CLS_D_TABLE_ENTRY : CLS_D_NONE;
		return CLS_DATA;
	case DC_JMP:
		if (ni->indirect) {
			if (c->arch == CWASM_ARCH_AARCH64)
				return CLS_TAIL_CALL;
			c->det[i] = CLS_D_DISPATCH_JUMP;
			return CLS_DISPATCH;
		}
		return ni->has_target && (ni->target < c->lo || ni->target >= c->hi) ?
			       CLS_TAIL_CALL : CLS_BRANCH;
	case DC_JCC: return CLS_COND_BRANCH;
	case DC_CALL:
		if (cls__noreturn(ni, &c->fl->in[i])) {
			c->det[i] = CLS_D_TRAP_CALL;
			return CLS_TRAP;
		}
		return ni->indirect ? CLS_CALL_INDIRECT : CLS_CALL_DIRECT;
	case DC_TRAP: return CLS_TRAP;
	case DC_RET: case DC_NOP: return CLS_OTHER;
	case DC_STACK: return stack_class(c, i);
	case DC_LEA: return CLS_LEA;
	default: break;
	}
	m = dc_insn__mem_op(ni);
	if (m) {
		fs = cls__frame_slot(c->ovr, c->arch, ni, &c->fl->in[i], &s);
		if (fs)
			return frame_class(c, i, fs, &s);
		if (is_ptr(role_at(c, i, m->base)) || is_ptr(role_at(c, i, m->index)))
			return CLS_LINEAR_MEM;
		if (role_at(c, i, m->base) == R_VMCTX && !m->index) {
			if (m->val == 0 && !ni->mem_write && ni->kind == DC_MOVE)
				c->det[i] = CLS_D_MEMBASE_LOAD;
			return CLS_VMCTX_FIELD;
		}
		return CLS_OTHER_MEM;
	}
	if (ni->kind == DC_MOVE)
		return move_class(ni);
	if (ni->zext_form)
		return CLS_ZEXT_MOVE;
	if (ni->kind == DC_OTHER && !ni->nops)
		return CLS_OTHER;
	return CLS_ALU;
}

/* Walking back for what feeds an instruction stops at control flow and data. */
static int ends_walk(const struct dc_insn *ni)
{
	return ni->kind == DC_JMP || ni->kind == DC_JCC || ni->kind == DC_CALL ||
	       ni->kind == DC_RET || ni->kind == DC_TRAP || ni->kind == DC_DATA;
}

static int writes(const struct ctx *c, const struct dc_insn *ni, uint8_t reg)
{
	uint8_t dst[2];
	int n = cls__dests(c->arch, ni, dst);

	for (int k = 0; k < n; k++)
		if (dst[k] == reg)
			return 1;
	return 0;
}

/* ---- bounds checks ---- */

/* The load of the memory size into reg that a compare at i reads, or -1. */
static int64_t size_load(const struct ctx *c, uint32_t i, uint8_t reg)
{
	for (uint32_t k = i; k-- > 0 && i - k <= 8;) {
		const struct dc_insn *p = &c->v[k];
		const struct dc_op *m = dc_insn__mem_op(p);

		if (ends_walk(p))
			break;
		if (!writes(c, p, reg))
			continue;
		if (m && p->kind == DC_MOVE && role_at(c, k, m->base) == R_VMCTX && m->val == 8)
			return k;
		break;
	}
	return -1;
}

/*
 * A block of at most a few moves ending in ud2/brk at addr: the trap
 * stub other engines (and hand-written code) branch to on a failed
 * check. WAMR's own traps are calls through vmctx (mark_traps).
 */
static int ud2_block(const struct ctx *c, uint64_t addr, int known)
{
	uint32_t lo;

	if (!known)
		return 0;
	lo = (uint32_t)ap_search__lower(c->v, c->n, AP_SEARCH_FIELD(c->v, addr), addr);
	for (uint32_t k = lo; k < c->n && k < lo + 4 && c->v[k].addr >= addr; k++) {
		if (c->v[k].kind == DC_TRAP)
			return 1;
		if (ends_walk(&c->v[k]))
			return 0;
	}
	return 0;
}

static void mark_bounds(struct ctx *c)
{
	for (uint32_t i = 0; i < c->n; i++) {
		const struct dc_insn *ni = &c->v[i];
		const struct dc_op *m = dc_insn__mem_op(ni);
		int hit = 0;

		if (ni->kind != DC_CMP)
			continue;
		if (m && role_at(c, i, m->base) == R_VMCTX && !m->index && m->val == 8)
			hit = 1;
		for (int o = 0; o < ni->nops; o++) {
			int64_t ld;

			if (ni->op[o].type != DC_OP_REG || role_at(c, i, ni->op[o].reg) != R_MEMSIZE)
				continue;
			hit = 1;
			ld = size_load(c, i, ni->op[o].reg);
			if (ld >= 0) {
				c->cls[ld] = CLS_BOUNDS_CHECK;
				c->det[ld] = CLS_D_BOUNDS_SIZE;
			}
		}
		if (!hit && !(i + 1 < c->n && c->v[i + 1].kind == DC_JCC && c->v[i + 1].cc_unsigned &&
			      ud2_block(c, c->v[i + 1].target, c->v[i + 1].has_target)))
			continue;
		c->cls[i] = CLS_BOUNDS_CHECK;
		c->det[i] = CLS_D_BOUNDS_CMP;
		if (i + 1 < c->n && c->v[i + 1].kind == DC_JCC) {
			c->cls[i + 1] = CLS_BOUNDS_CHECK;
			c->det[i + 1] = CLS_D_BOUNDS_BRANCH;
		}
	}
}

/* ---- trap blocks ---- */

static uint8_t param0(const struct ctx *c)
{
	return c->roles->vmctx_param;
}

/*
 * A call through a trap slot takes the trap helper's address (loaded from
 * vmctx) and vmctx in the first parameter: the moves that set those two
 * right before it, inside its block, belong to the trap block.
 */
static void mark_traps(struct ctx *c)
{
	for (uint32_t i = 0; i < c->n; i++) {
		uint8_t tgt;

		if (c->det[i] != CLS_D_TRAP_CALL)
			continue;
		tgt = c->v[i].op[0].type == DC_OP_REG ? c->v[i].op[0].reg : 0;
		for (uint32_t k = i; k-- > 0 && i - k <= 4;) {
			const struct dc_insn *p = &c->v[k];

			if (ends_walk(p) || p->kind != DC_MOVE ||
			    !((tgt && writes(c, p, tgt)) || writes(c, p, param0(c))))
				break;
			c->cls[k] = CLS_TRAP;
			c->det[k] = CLS_D_NONE;
			if (c->target[k])
				break;
		}
	}
}

/* ---- br_table ---- */

/*
 * The sequence feeding an indirect jump through register R: walking back,
 * an add into R (its sources join the set), a load into a register of the
 * set (its base joins), the pc-relative address of the table; then the
 * bound compare of the entry's index and its branch (decode/decode.h).
 */
static void mark_feeders(struct ctx *c, const struct dc_vec *nv, uint32_t j)
{
	const struct dc_insn *v = c->v;
	uint8_t set[8];
	int nset = 0;
	struct dc_table tb;

	if (!v[j].nops || v[j].op[0].type != DC_OP_REG)
		return;
	set[nset++] = v[j].op[0].reg;
	for (uint32_t k = j; k-- > 0 && j - k <= 6 && nset;) {
		const struct dc_insn *p = &v[k];
		const struct dc_op *m = dc_insn__mem_op(p);
		uint8_t dst[2];
		int hit = 0, in = 0;

		if (ends_walk(p))
			break;
		if (cls__dests(c->arch, p, dst) != 1)
			continue;
		for (int s = 0; s < nset; s++)
			in |= set[s] == dst[0];
		if (!in)
			continue;
		if (p->kind == DC_LEA && p->has_target) {
			hit = CLS_D_DISPATCH_TABLE;
			for (int s = 0; s < nset; s++)
				if (set[s] == dst[0])
					set[s] = set[--nset];
		} else if ((p->kind == DC_EXT || p->kind == DC_MOVE) && m && m->index) {
			hit = CLS_D_DISPATCH_ENTRY;
			for (int s = 0; s < nset; s++)
				if (set[s] == dst[0])
					set[s] = set[--nset];
			if (nset < 8)
				set[nset++] = m->base;
		} else if ((p->kind == DC_ALU || p->kind == DC_OTHER) && !m && p->nops >= 2) {
			hit = CLS_D_DISPATCH_ADD;
			for (int o = 1; o < p->nops && nset < 8; o++)
				if (p->op[o].type == DC_OP_REG)
					set[nset++] = p->op[o].reg;
		}
		if (hit) {
			c->cls[k] = CLS_DISPATCH;
			c->det[k] = (uint8_t)hit;
		}
	}
	if (dc__table_bound(nv, j, &tb)) {
		c->cls[tb.cmp] = CLS_DISPATCH;
		c->det[tb.cmp] = CLS_D_DISPATCH_BOUND;
		c->cls[tb.cmp + 1] = CLS_DISPATCH;
		c->det[tb.cmp + 1] = CLS_D_DISPATCH_DEFAULT;
	}
}

/* aarch64 br_table: cmp wI, #k; b.eq Lk for k = k0, k0+1, ... (2 or more), then b default. */
static void mark_chains(struct ctx *c)
{
	const struct dc_insn *v = c->v;

	for (uint32_t i = 0; i + 3 < c->n;) {
		uint32_t k = i, pairs = 0;
		int64_t want = 0;
		uint8_t reg = 0;

		while (k + 1 < c->n && v[k].kind == DC_CMP && mnem_is(&v[k], "cmp") &&
		       v[k].nops == 2 && v[k].op[0].type == DC_OP_REG && v[k].op[1].type == DC_OP_IMM &&
		       (!pairs || (v[k].op[0].reg == reg && v[k].op[1].val == want)) &&
		       v[k + 1].kind == DC_JCC && !strncasecmp(v[k + 1].text, "b.eq", 4)) {
			reg = v[k].op[0].reg;
			want = v[k].op[1].val + 1;
			pairs++;
			k += 2;
		}
		if (pairs < 2) {
			i++;
			continue;
		}
		if (k < c->n && v[k].kind == DC_JMP && !v[k].indirect)
			k++;
		for (uint32_t x = i; x < k; x++) {
			c->cls[x] = CLS_DISPATCH;
			c->det[x] = CLS_D_DISPATCH_CHAIN;
		}
		i = k;
	}
}

static void mark_targets(struct ctx *c)
{
	for (uint32_t i = 0; i < c->n; i++) {
		const struct dc_insn *ni = &c->v[i];
		size_t k;

		if (!((ni->kind == DC_JMP || ni->kind == DC_JCC || ni->kind == DC_DATA) &&
		      ni->has_target))
			continue;
		k = ap_search__lower(c->v, c->n, AP_SEARCH_FIELD(c->v, addr), ni->target);
		if (k < c->n && c->v[k].addr == ni->target)
			c->target[k] = 1;
	}
}

int cls_classify(const struct cls_roles *roles, const struct dc_vec *nv, uint64_t lo,
		 uint64_t hi, struct cls_func *out, struct ap_err *err)
{
	const struct dc_insn *v = nv->v;
	uint32_t n = nv->n;
	struct cls_flow fl;
	struct ctx c;
	uint8_t *buf;

	memset(out, 0, sizeof(*out));
	out->arch = roles->arch;
	if (cls_flow__run(roles, nv, lo, hi, &fl, &out->roles, err))
		return -1;
	buf = calloc(4, n ? n : 1);
	out->insns = calloc(n ? n : 1, sizeof(*out->insns));
	if (!buf || !out->insns) {
		free(buf);
		free(out->insns);
		out->insns = NULL;
		cls_flow__exit(&fl);
		return ap_err_nomem(err);
	}
	c = (struct ctx){ roles, roles->arch, v, n, lo, hi, &fl, &out->roles, buf, buf + n,
			  buf + 2 * (size_t)n, buf + 3 * (size_t)n };
	mark_targets(&c);
	for (uint32_t i = 0; i < n; i++)
		c.cls[i] = (uint8_t)base_class(&c, i);
	for (uint32_t i = 0; i < n; i++)
		if (c.cls[i] == CLS_DISPATCH && c.det[i] == CLS_D_DISPATCH_JUMP)
			mark_feeders(&c, nv, i);
	if (c.arch == CWASM_ARCH_AARCH64)
		mark_chains(&c);
	mark_bounds(&c);
	mark_traps(&c);
	for (uint32_t i = 0; i < n; i++) {
		struct cls_insn *d = &out->insns[i];

		d->addr = v[i].addr;
		d->offset = (uint32_t)(v[i].addr - lo);
		d->size = (uint16_t)(v[i].size > UINT16_MAX ? UINT16_MAX : v[i].size);
		d->cls = c.cls[i];
		d->detail = c.det[i];
		memcpy(d->text, v[i].text, sizeof(d->text));
		out->static_count[c.cls[i]]++;
		if (c.cls[i] == CLS_DATA)
			out->ndata_bytes += v[i].size;
	}
	out->ninsns = n;
	free(buf);
	cls_flow__exit(&fl);
	return cls_helper__fill(c.arch, v, n, out->insns) ? ap_err_nomem(err) : 0;
}

int cls__decode(enum cwasm_arch arch, const struct cls_roles *roles, const uint8_t *code,
		size_t len, uint64_t addr, struct cls_func *out, struct ap_err *err)
{
	struct dc_vec nv = { 0 };
	struct cls_roles def;
	int ret;

	if (!roles || roles->arch != arch) {
		if (roles)
			def = *roles;
		else
			cls__roles_default(arch, &def);
		def.arch = arch;
		roles = &def;
	}
	memset(out, 0, sizeof(*out));
	if (dc__decode(arch, code, len, addr, &nv, err)) {
		dc_vec__exit(&nv);
		return -1;
	}
	ret = cls_classify(roles, &nv, addr, addr + len, out, err);
	dc_vec__exit(&nv);
	return ret;
}

int cls__classify_func(const struct cwasm_module *m, uint32_t func, enum cwasm_arch arch,
		       const struct cls_roles *roles, uint64_t base, struct cls_func *out,
		       struct ap_err *err)
{
	const struct cwasm_func *fn;
	struct cls_roles r;

	memset(out, 0, sizeof(*out));
	if (func >= m->nfuncs)
		return ap_errf(err, "%s: no local function %u (%u functions)", m->path, func,
			       m->nfuncs);
	fn = &m->funcs[func];
	if ((uint64_t)fn->offset + fn->size > m->text_size)
		return ap_errf(err, "%s: local_func_%u lies outside the text", m->path, func);
	if (roles)
		r = *roles;
	else
		cls__roles_target(&m->target, &r);
	if (arch == CWASM_ARCH_UNKNOWN)
		arch = m->target.arch;
	else if (arch != m->target.arch)
		r.abi = CWASM_ABI_UNSPECIFIED; /* the target info is wrong: trust no part of it */
	if (arch == CWASM_ARCH_UNKNOWN)
		return ap_errf(err, "%s: the target info names no known architecture: give one "
			       "explicitly to decode it", m->path);
	r.arch = arch;
	return cls__decode(arch, &r, m->text + fn->offset, fn->size, base + fn->offset, out, err);
}

void cls_func__exit(struct cls_func *f)
{
	free(f->insns);
	memset(f, 0, sizeof(*f));
}

int64_t cls__insn_at(const struct cls_func *f, uint64_t addr)
{
	/* the last entry starting at or below addr */
	uint32_t lo = (uint32_t)ap_search__upper(f->insns, f->ninsns,
						 AP_SEARCH_FIELD(f->insns, addr), addr);

	if (!lo)
		return -1;
	lo--;
	return addr < f->insns[lo].addr + f->insns[lo].size ? (int64_t)lo : -1;
}

uint32_t cls__insn_count(const struct cls_func *f)
{
	return f->ninsns - f->static_count[CLS_DATA];
}
