// SPDX-License-Identifier: MIT
/*
 * Register roles of another engine's wasm code, read from the code itself
 * (x86_64; docs/engines.md "Register roles"):
 *
 *  vmctx   the engine's instance / VMContext pointer arrives in a register
 *          (V8: rsi; Wasmtime: rdi) and the function loads its fields
 *          before that register is written: the register live at entry
 *          that most memory operands are based on;
 *  membase a 64-bit load from one vmctx field whose value then serves as
 *          the base (or the unscaled index) of [base + index] accesses:
 *          the field with the most such accesses; the register it is
 *          loaded into is the role (the busiest when there are several).
 *
 * Also here: where the code ends. Engines append data to a function's code
 * (V8's safepoint and handler tables, constant pools), so bytes after the
 * last instruction reachable from the entry are left out.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "../util/search.h"

static int is_gpr(uint8_t r)
{
	return r >= X86_RAX && r <= X86_R15;
}

/* The register an instruction writes (first operand), 0 if none. */
static uint8_t written_reg(const struct dc_insn *ni)
{
	if (!ni->nops || ni->op[0].type != DC_OP_REG || ni->kind == DC_CMP ||
	    ni->kind == DC_JMP || ni->kind == DC_JCC || ni->kind == DC_CALL)
		return 0;
	if (ni->kind == DC_STACK && strncmp(ni->text, "pop", 3))
		return 0; /* push reads its operand */
	return is_gpr(ni->op[0].reg) ? ni->op[0].reg : 0;
}

/* A 64-bit load of a register from [base + disp] (no index): 1 and the parts. */
static int field_load(const struct dc_insn *ni, uint8_t *dst, uint8_t *base, int64_t *disp)
{
	const struct dc_op *m;

	if (ni->kind != DC_MOVE || ni->nops != 2 || ni->op[0].type != DC_OP_REG ||
	    ni->op[0].width != 8 || ni->op[1].type != DC_OP_MEM || ni->mem_write)
		return 0;
	m = &ni->op[1];
	if (!is_gpr(m->base) || m->index || !is_gpr(ni->op[0].reg))
		return 0;
	*dst = ni->op[0].reg;
	*base = m->base;
	*disp = m->val;
	return 1;
}

/* [r + index] or [base + r*1]: r used the way wasm addresses linear memory. */
static int linear_use(const struct dc_insn *ni, uint8_t r)
{
	const struct dc_op *m = dc_insn__mem_op(ni);

	if (!m || ni->kind == DC_LEA || ni->kind == DC_NOP)
		return 0;
	return (m->base == r && m->index) || (m->index == r && m->scale <= 1 && m->base);
}

#define FOLLOW_MAX 400	/* instructions a loaded base is followed for */
#define MAX_FIELDS 64

struct field {
	int64_t disp;
	uint32_t uses;
	uint32_t reg_uses[X86_R15 + 1];
};

/* Uses of the value loaded into r at v[i], until r is written again. */
static uint32_t follow(const struct dc_insn *v, uint32_t n, uint32_t i, uint8_t r)
{
	uint32_t uses = 0;

	for (uint32_t k = i + 1; k < n && k - i <= FOLLOW_MAX; k++) {
		if (linear_use(&v[k], r))
			uses++;
		if (written_reg(&v[k]) == r || v[k].kind == DC_RET)
			break;
	}
	return uses;
}

static uint8_t pick_vmctx(const struct dc_insn *v, uint32_t n, uint32_t *loads)
{
	uint32_t entry_uses[X86_R15 + 1] = { 0 };
	uint32_t written = 0;
	uint8_t best = 0;

	for (uint32_t i = 0; i < n; i++) {
		const struct dc_op *m = dc_insn__mem_op(&v[i]);
		uint8_t w;

		/* nop [rax+rax*1] padding and lea compute nothing from memory */
		if (m && v[i].kind != DC_LEA && v[i].kind != DC_NOP && is_gpr(m->base) && m->base != X86_RSP &&
		    m->base != X86_RBP && !(written & (1u << m->base)))
			entry_uses[m->base]++;
		w = written_reg(&v[i]);
		if (w)
			written |= 1u << w;
	}
	for (uint8_t r = X86_RAX; r <= X86_R15; r++)
		if (entry_uses[r] > (best ? entry_uses[best] : 0))
			best = r;
	*loads = best ? entry_uses[best] : 0;
	return best;
}

static struct field *field_of(struct field *f, uint32_t *nf, int64_t disp)
{
	for (uint32_t i = 0; i < *nf; i++)
		if (f[i].disp == disp)
			return &f[i];
	if (*nf == MAX_FIELDS)
		return NULL;
	memset(&f[*nf], 0, sizeof(f[*nf]));
	f[*nf].disp = disp;
	return &f[(*nf)++];
}

static void pick_membase(const struct dc_insn *v, uint32_t n, struct eng_roles *o)
{
	struct field fields[MAX_FIELDS];
	const struct field *bf = NULL;
	uint32_t nf = 0;
	uint8_t dst, base, reg = 0;
	int64_t disp;

	for (uint32_t i = 0; i < n; i++) {
		struct field *f;
		uint32_t uses;

		if (!field_load(&v[i], &dst, &base, &disp) || base != o->roles.vmctx)
			continue;
		uses = follow(v, n, i, dst);
		if (!uses || !(f = field_of(fields, &nf, disp)))
			continue;
		f->uses += uses;
		f->reg_uses[dst] += uses;
	}
	for (uint32_t i = 0; i < nf; i++)
		if (!bf || fields[i].uses > bf->uses)
			bf = &fields[i];
	if (!bf)
		return;
	o->membase_field = bf->disp;
	for (uint8_t r = X86_RAX; r <= X86_R15; r++) {
		if (!bf->reg_uses[r])
			continue;
		o->membase_regs++;
		if (!reg || bf->reg_uses[r] > bf->reg_uses[reg])
			reg = r;
	}
	o->roles.membase = reg;
	o->membase_uses = bf->reg_uses[reg];
}

static void explain(struct eng_roles *o)
{
	const char *vm = dc__reg_name(CWASM_ARCH_X86_64, o->roles.vmctx);
	const char *mb = dc__reg_name(CWASM_ARCH_X86_64, o->roles.membase);

	switch (o->status) {
	case ENG_ROLES_NONE:
		snprintf(o->why, sizeof(o->why), "no register live at entry serves as a base: "
			 "no vmctx pattern");
		break;
	case ENG_ROLES_VMCTX:
		snprintf(o->why, sizeof(o->why), "vmctx %s (live at entry, base of %u loads); "
			 "no vmctx field feeds [base + index] accesses", vm, o->vmctx_loads);
		break;
	default:
		snprintf(o->why, sizeof(o->why), "vmctx %s (live at entry, base of %u loads); "
			 "membase %s = [%s%s0x%" PRIx64 "], %u accesses%s", vm, o->vmctx_loads, mb,
			 vm, o->membase_field < 0 ? "-" : "+", o->membase_field < 0 ?
			 (uint64_t)-o->membase_field : (uint64_t)o->membase_field, o->membase_uses,
			 o->status == ENG_ROLES_AMBIGUOUS ? "; also loaded into other registers"
			 : "");
		break;
	}
}

void eng_roles__from_insns(enum cwasm_arch arch, const struct dc_insn *v, uint32_t n,
			   struct eng_roles *o)
{
	memset(o, 0, sizeof(*o));
	o->roles.arch = arch;
	o->membase_field = -1;
	if (arch != CWASM_ARCH_X86_64) {
		o->roles.frame = arch == CWASM_ARCH_AARCH64 ? A64_X29 : 0;
		snprintf(o->why, sizeof(o->why), "role inference reads x86_64 code only");
		return;
	}
	o->roles.frame = X86_RBP;
	o->roles.vmctx = pick_vmctx(v, n, &o->vmctx_loads);
	if (!o->roles.vmctx) {
		explain(o);
		return;
	}
	o->status = ENG_ROLES_VMCTX;
	pick_membase(v, n, o);
	if (o->roles.membase)
		o->status = o->membase_regs > 1 ? ENG_ROLES_AMBIGUOUS : ENG_ROLES_FOUND;
	explain(o);
}

int eng_roles__infer(enum cwasm_arch arch, const uint8_t *code, size_t len, uint64_t addr,
		     struct eng_roles *out, struct ap_err *err)
{
	struct dc_vec nv = { 0 };

	if (dc__decode(arch, code, len, addr, &nv, err)) {
		dc_vec__exit(&nv);
		return -1;
	}
	eng_roles__from_insns(arch, nv.v, eng__reachable_end(nv.v, nv.n, addr, len), out);
	dc_vec__exit(&nv);
	return 0;
}

/* ---- where the code ends ---- */

static int64_t index_at(const struct dc_insn *v, uint32_t n, uint64_t a)
{
	size_t lo = ap_search__lower(v, n, AP_SEARCH_FIELD(v, addr), a);

	return lo < n && v[lo].addr == a ? (int64_t)lo : -1;
}

/*
 * Instructions reachable from the first one: branches both ways, calls
 * fall through unless padding follows them (a trap call that never
 * returns). An indirect jump's targets are unknown: then nothing is cut.
 * Returns how many leading instructions to keep.
 */
uint32_t eng__reachable_end(const struct dc_insn *v, uint32_t n, uint64_t lo, uint64_t len)
{
	uint8_t *seen;
	uint32_t *stack, sp = 0, last = 0;

	if (!n)
		return 0;
	seen = calloc(n, 1);
	stack = malloc(n * sizeof(*stack));
	if (!seen || !stack) {
		free(seen);
		free(stack);
		return n;
	}
	stack[sp++] = 0;
	seen[0] = 1;
	while (sp) {
		uint32_t i = stack[--sp];
		const struct dc_insn *ni = &v[i];
		int64_t next[2] = { -1, -1 };

		last = i > last ? i : last;
		switch (ni->kind) {
		case DC_JMP:
			if (ni->indirect) {
				free(seen);
				free(stack);
				return n;
			}
			if (ni->has_target && ni->target - lo < len)
				next[0] = index_at(v, n, ni->target);
			break;
		case DC_JCC:
			if (ni->has_target && ni->target - lo < len)
				next[0] = index_at(v, n, ni->target);
			next[1] = i + 1 < n ? (int64_t)i + 1 : -1;
			break;
		case DC_CALL:
			if (i + 1 < n && v[i + 1].kind != DC_NOP)
				next[1] = (int64_t)i + 1;
			break;
		case DC_RET: case DC_TRAP: case DC_DATA:
			break;
		default:
			next[1] = i + 1 < n ? (int64_t)i + 1 : -1;
			break;
		}
		for (int k = 0; k < 2; k++)
			if (next[k] >= 0 && !seen[next[k]]) {
				seen[next[k]] = 1;
				stack[sp++] = (uint32_t)next[k];
			}
	}
	free(seen);
	free(stack);
	return last + 1;
}
