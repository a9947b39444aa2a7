// SPDX-License-Identifier: MIT
/*
 * The structural classifier: each instruction gets a class from its kind
 * and operands, then passes over the whole function find what only
 * context shows: a compare that branches to a trap stub is a bounds
 * check, the loads and adds that feed an indirect jump are dispatch.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

static const struct {
	const char *name;
	const char *desc;
} classes[CLS__COUNT] = {
	[CLS_SPILL_RELOAD] = { "spill_reload",
		"reads a frame slot (rbp/rsp-based on x86-64, x29/sp on aarch64), a load folded into an ALU op included" },
	[CLS_FRAME_STORE] = { "frame_store",
		"writes a frame slot (a store or a read-modify-write)" },
	[CLS_REG_MOVE] = { "reg_move",
		"register-to-register copy that is not a zero-extend (xchg, vector and fp moves included)" },
	[CLS_ZEXT_MOVE] = { "zext_move",
		"i32 zero-extend: a 32-bit move of a register to itself (mov esi,esi; mov w0,w0 = uxtw; ubfx/and self forms)" },
	[CLS_ALU] = { "alu",
		"arithmetic, logic, shift, compare, sign/zero extension of narrower values, constants (mov reg, imm)" },
	[CLS_LEA] = { "lea",
		"address generation (lea; adr/adrp)" },
	[CLS_BOUNDS_CHECK] = { "bounds_check",
		"a compare and the unsigned conditional branch after it to a trap stub; or a compare against a vmctx operand and its branch" },
	[CLS_LINEAR_MEM] = { "linear_mem",
		"memory access based on (or indexed by) the linear-memory base register; with membase=none, any [base+index*1]" },
	[CLS_OTHER_MEM] = { "other_mem",
		"any other memory access: vmctx fields, globals, tables, host pointers" },
	[CLS_DISPATCH] = { "dispatch",
		"indirect jump (jmp reg/mem, br xN) and the br_table sequence feeding it (table address, entry load, add)" },
	[CLS_CALL_DIRECT] = { "call_direct",
		"call to a fixed target (call label, bl)" },
	[CLS_CALL_INDIRECT] = { "call_indirect",
		"call through a register or memory (call r11, call [rax+8], blr)" },
	[CLS_COND_BRANCH] = { "cond_branch",
		"conditional branch that is not part of a bounds check (jcc, b.cond, cbz/cbnz, tbz/tbnz)" },
	[CLS_BRANCH] = { "branch",
		"direct unconditional jump (jmp label, b)" },
	[CLS_OTHER] = { "other",
		"ret, nop, push/pop, sp pre/post-indexed pair saves, traps (ud2, int3, brk), system instructions" },
	[CLS_DATA] = { "data",
		"bytes in text that are not code: br_table jump tables, padding before them, undecodable bytes" },
};

const char *cls__name(enum cls_class c)
{
	return (unsigned)c < CLS__COUNT ? classes[c].name : "?";
}

const char *cls__desc(enum cls_class c)
{
	return (unsigned)c < CLS__COUNT ? classes[c].desc : "?";
}

int cls__by_name(const char *name)
{
	for (int c = 0; c < CLS__COUNT; c++)
		if (!strcmp(classes[c].name, name))
			return c;
	return -1;
}

/* ---- register roles ---- */

void cls__roles_default(enum cwasm_arch arch, struct cls_roles *r)
{
	r->arch = arch;
	if (arch == CWASM_ARCH_AARCH64) {
		r->vmctx = A64_X19;
		r->membase = A64_X28;
		r->frame = A64_X29;
	} else {
		r->vmctx = X86_RBX;
		r->membase = X86_R15;
		r->frame = X86_RBP;
	}
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

static uint8_t sp_fam(const struct cls_roles *r)
{
	return r->arch == CWASM_ARCH_AARCH64 ? A64_SP : X86_RSP;
}

static const struct dc_op *mem_op(const struct dc_insn *ni)
{
	for (int i = 0; i < ni->nops; i++)
		if (ni->op[i].type == DC_OP_MEM)
			return &ni->op[i];
	return NULL;
}

static int is_frame(const struct cls_roles *r, const struct dc_op *m)
{
	return m->base && (m->base == r->frame || m->base == sp_fam(r));
}

static int is_linear(const struct cls_roles *r, const struct dc_op *m)
{
	if (r->membase)
		return m->base == r->membase || m->index == r->membase;
	/* no pinned base: wasm addressing is [base + index], unscaled */
	return m->base && m->index && m->scale <= 1 && !is_frame(r, m) &&
	       m->base != r->vmctx && m->base != X86_RIP;
}

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

static enum cls_class base_class(const struct cls_roles *r, const struct dc_insn *ni)
{
	const struct dc_op *m;

	switch (ni->kind) {
	case DC_DATA: return CLS_DATA;
	case DC_JMP: return ni->indirect ? CLS_DISPATCH : CLS_BRANCH;
	case DC_JCC: return CLS_COND_BRANCH;
	case DC_CALL: return ni->indirect ? CLS_CALL_INDIRECT : CLS_CALL_DIRECT;
	case DC_RET: case DC_TRAP: case DC_NOP: case DC_STACK: return CLS_OTHER;
	case DC_LEA: return CLS_LEA;
	default: break;
	}
	m = mem_op(ni);
	if (m) {
		if (is_linear(r, m))
			return CLS_LINEAR_MEM;
		if (is_frame(r, m)) {
			if (ni->writeback) /* aarch64 push/pop idiom */
				return CLS_OTHER;
			return ni->mem_write ? CLS_FRAME_STORE : CLS_SPILL_RELOAD;
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

/* Index of the instruction starting at addr, or -1. */
static int64_t find_addr(const struct dc_insn *v, uint32_t n, uint64_t addr)
{
	uint32_t lo = 0, hi = n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (v[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo].addr == addr ? (int64_t)lo : -1;
}

/*
 * A trap stub: a short block that ends in a trap instruction, or in a
 * call that never returns (the function ends, or a trap follows it).
 */
static int is_trap_block(const struct dc_insn *v, uint32_t n, uint64_t addr)
{
	int64_t i = find_addr(v, n, addr);

	for (int k = 0; i >= 0 && (uint32_t)i < n && k < 8; i++, k++) {
		switch (v[i].kind) {
		case DC_TRAP:
			return 1;
		case DC_CALL:
			if ((uint32_t)i + 1 == n)
				return 1;
			break;
		case DC_JMP: case DC_JCC: case DC_RET: case DC_DATA:
			return 0;
		default:
			break;
		}
	}
	return 0;
}

/* Walking back for what feeds an instruction stops at control flow and data. */
static int ends_walk(const struct dc_insn *ni)
{
	return ni->kind == DC_JMP || ni->kind == DC_JCC || ni->kind == DC_CALL ||
	       ni->kind == DC_RET || ni->kind == DC_TRAP || ni->kind == DC_DATA;
}

static int writes_reg(const struct dc_insn *ni, uint8_t *reg)
{
	if (!ni->nops || ni->op[0].type != DC_OP_REG || ni->mem_write || ni->kind == DC_CMP)
		return 0;
	*reg = ni->op[0].reg;
	return 1;
}

static int in_set(const uint8_t *set, int n, uint8_t r)
{
	for (int i = 0; i < n; i++)
		if (set[i] == r)
			return 1;
	return 0;
}

static int set_del(uint8_t *set, int n, uint8_t r)
{
	for (int i = 0; i < n; i++)
		if (set[i] == r) {
			set[i] = set[--n];
			break;
		}
	return n;
}

/*
 * The br_table sequence feeding an indirect jump through register R:
 * walking back, an add into R (its sources join the set), a load into a
 * register of the set (its base joins), the pc-relative address of the
 * table.
 */
static void mark_feeders(const struct dc_insn *v, uint32_t j, uint8_t *cls)
{
	uint8_t set[8];
	int nset = 0;

	if (!v[j].nops || v[j].op[0].type != DC_OP_REG)
		return;
	set[nset++] = v[j].op[0].reg;
	for (uint32_t k = j; k-- > 0 && j - k <= 6 && nset;) {
		const struct dc_insn *p = &v[k];
		const struct dc_op *m = mem_op(p);
		uint8_t dst;
		int hit = 0;

		if (ends_walk(p))
			break;
		if (!writes_reg(p, &dst) || !in_set(set, nset, dst))
			continue;
		if (p->kind == DC_LEA && p->has_target) {
			hit = 1;
			nset = set_del(set, nset, dst);
		} else if ((p->kind == DC_EXT || p->kind == DC_MOVE) && m && m->index) {
			hit = 1;
			nset = set_del(set, nset, dst);
			if (nset < 8)
				set[nset++] = m->base;
		} else if ((p->kind == DC_ALU || p->kind == DC_OTHER) && !m && p->nops >= 2) {
			hit = 1;
			for (int i = 1; i < p->nops && nset < 8; i++)
				if (p->op[i].type == DC_OP_REG)
					set[nset++] = p->op[i].reg;
		}
		if (hit)
			cls[k] = CLS_DISPATCH;
	}
}

/* Does the compare read a memory operand based on the vmctx register? */
static int cmp_vmctx(const struct cls_roles *r, const struct dc_insn *ni)
{
	const struct dc_op *m = mem_op(ni);

	return r->vmctx && m && m->base == r->vmctx;
}

/*
 * The load of the memory size from vmctx that feeds a compare's register
 * operand (aarch64 cannot compare against memory): the latest write of
 * that register a few instructions back. Index or -1.
 */
static int64_t size_load(const struct cls_roles *r, const struct dc_insn *v, uint32_t i)
{
	if (!r->vmctx)
		return -1;
	for (int o = 0; o < v[i].nops; o++) {
		uint8_t reg = v[i].op[o].reg, dst;

		if (v[i].op[o].type != DC_OP_REG)
			continue;
		for (uint32_t k = i; k-- > 0 && i - k <= 4;) {
			const struct dc_op *m = mem_op(&v[k]);

			if (ends_walk(&v[k]))
				break;
			if (!writes_reg(&v[k], &dst) || dst != reg)
				continue;
			if (m && m->base == r->vmctx && (v[k].kind == DC_MOVE || v[k].kind == DC_EXT))
				return k;
			break;
		}
	}
	return -1;
}

static void mark_bounds(const struct cls_roles *r, const struct dc_insn *v, uint32_t n,
			uint8_t *cls)
{
	for (uint32_t i = 0; i + 1 < n; i++) {
		const struct dc_insn *c = &v[i], *b = &v[i + 1];
		int64_t ld;
		int trap;

		if (c->kind != DC_CMP || b->kind != DC_JCC)
			continue;
		trap = b->cc_unsigned && b->has_target && is_trap_block(v, n, b->target);
		if (!trap && !cmp_vmctx(r, c))
			continue;
		cls[i] = cls[i + 1] = CLS_BOUNDS_CHECK;
		ld = size_load(r, v, i);
		if (ld >= 0)
			cls[ld] = CLS_BOUNDS_CHECK;
	}
}

int cls_classify(const struct cls_roles *roles, const struct dc_vec *nv, uint64_t lo,
		 struct cls_func *out, struct ap_err *err)
{
	const struct dc_insn *v = nv->v;
	uint32_t n = nv->n;
	uint8_t *cls;

	memset(out, 0, sizeof(*out));
	cls = malloc(n ? n : 1);
	out->insns = calloc(n ? n : 1, sizeof(*out->insns));
	if (!cls || !out->insns) {
		free(cls);
		free(out->insns);
		out->insns = NULL;
		return ap_err_nomem(err);
	}
	for (uint32_t i = 0; i < n; i++)
		cls[i] = (uint8_t)base_class(roles, &v[i]);
	for (uint32_t i = 0; i < n; i++)
		if (v[i].kind == DC_JMP && v[i].indirect)
			mark_feeders(v, i, cls);
	mark_bounds(roles, v, n, cls);
	for (uint32_t i = 0; i < n; i++) {
		struct cls_insn *d = &out->insns[i];

		d->addr = v[i].addr;
		d->offset = (uint32_t)(v[i].addr - lo);
		d->size = (uint16_t)(v[i].size > UINT16_MAX ? UINT16_MAX : v[i].size);
		d->cls = cls[i];
		memcpy(d->text, v[i].text, sizeof(d->text));
		out->static_count[cls[i]]++;
		if (cls[i] == CLS_DATA)
			out->ndata_bytes += v[i].size;
	}
	out->ninsns = n;
	free(cls);
	return 0;
}

int cls__decode(enum cwasm_arch arch, const struct cls_roles *roles, const uint8_t *code,
		size_t len, uint64_t addr, struct cls_func *out, struct ap_err *err)
{
	struct dc_vec nv = { 0 };
	struct cls_roles def;
	int ret;

	if (!roles) {
		cls__roles_default(arch, &def);
		roles = &def;
	}
	memset(out, 0, sizeof(*out));
	if (dc__decode(arch, code, len, addr, &nv, err)) {
		dc_vec__exit(&nv);
		return -1;
	}
	ret = cls_classify(roles, &nv, addr, out, err);
	dc_vec__exit(&nv);
	return ret;
}

void cls_func__exit(struct cls_func *f)
{
	free(f->insns);
	memset(f, 0, sizeof(*f));
}

int64_t cls__insn_at(const struct cls_func *f, uint64_t addr)
{
	uint32_t lo = 0, hi = f->ninsns;

	/* the last entry starting at or below addr */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (f->insns[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return -1;
	lo--;
	return addr < f->insns[lo].addr + f->insns[lo].size ? (int64_t)lo : -1;
}

uint32_t cls__insn_count(const struct cls_func *f)
{
	return f->ninsns - f->static_count[CLS_DATA];
}
