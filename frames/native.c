// SPDX-License-Identifier: MIT
/*
 * The rules that read the machine code (docs/sidecar.md, "Native checks"):
 * the function is decoded with capstone between its inline data ranges,
 * every access must be exactly one decoded instruction of its kind, base,
 * offset and width, every call relocation the rel32 of a decoded call,
 * and on aarch64 the accesses must be exactly the frame loads/stores the
 * code holds, pairs, addressing modes and data registers included.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "../util/search.h"

int frames__decode(const struct frames *fr, const struct cwasm_module *mod, uint64_t addr,
		   struct dc_vec *out, struct ap_err *err)
{
	const uint8_t *code = fr__code(fr, mod);
	uint32_t cur = 0;

	for (uint32_t i = 0; i <= fr->ndata; i++) {
		uint32_t end = i < fr->ndata ? fr->data[i].native_start : fr->code_size;
		struct dc_insn *ni;

		if (end > cur && dc__decode(fr->arch, code + cur, end - cur, addr + cur, out, err))
			return -1;
		if (i == fr->ndata)
			break;
		ni = dc_vec__push(out);
		if (!ni)
			return ap_err_nomem(err);
		ni->addr = addr + fr->data[i].native_start;
		ni->size = fr->data[i].native_end - fr->data[i].native_start;
		ni->kind = DC_DATA;
		ni->ndata = ni->size / 4;
		snprintf(ni->text, sizeof(ni->text), "(inline data: %s)", fr->data[i].kind);
		cur = fr->data[i].native_end;
	}
	return 0;
}

/* The last instruction starting at or before off, or NULL. */
static const struct dc_insn *insn_at_or_before(const struct dc_vec *v, uint32_t off)
{
	size_t lo = ap_search__upper(v->v, v->n, AP_SEARCH_FIELD(v->v, addr), off);

	return lo ? &v->v[lo - 1] : NULL;
}

static const struct dc_insn *insn_at(const struct dc_vec *v, uint32_t off)
{
	const struct dc_insn *ni = insn_at_or_before(v, off);

	return ni && ni->addr == off ? ni : NULL;
}

/* Each access is exactly one decoded instruction. */
static int check_boundaries(const struct frames *fr, const struct dc_vec *v, struct ap_err *err)
{
	for (uint32_t i = 0; i < fr->nacc; i++) {
		const struct frames_access *x = &fr->acc[i];
		const struct dc_insn *ni = insn_at_or_before(v, x->native_start);

		if (!ni || ni->addr != x->native_start)
			return fr_err(err, fr, x, "not on an instruction boundary (the instruction "
				      "there spans [+0x%" PRIx64 ",+0x%" PRIx64 "))",
				      ni ? ni->addr : 0, ni ? ni->addr + ni->size : 0);
		if (ni->kind == DC_DATA)
			return fr_err(err, fr, x, "the bytes there do not decode as an instruction");
		if (ni->addr + ni->size != x->native_end)
			return fr_err(err, fr, x, "native_end +0x%x, but the instruction there is %u "
				      "bytes: %s", x->native_end, ni->size, ni->text);
	}
	return 0;
}

/* Each x86 call relocation is the rel32 of a decoded 5-byte call. */
static int check_calls(const struct frames *fr, const struct dc_vec *v, struct ap_err *err)
{
	for (uint32_t i = 0; i < fr->nrel32 + fr->nrelocs; i++) {
		uint32_t o = i < fr->nrel32 ? fr->rel32[i] : fr->relocs[i - fr->nrel32].native_start;
		const struct dc_insn *ni;

		if (fr->arch == CWASM_ARCH_X86_64) {
			ni = insn_at(v, o - 1);
			if (!ni || ni->kind != DC_CALL || ni->size != 5)
				return fr_err(err, fr, NULL, "%s: %u is not the rel32 field of a "
					      "decoded call instruction at +0x%x",
					      i < fr->nrel32 ? "direct_call_rel32_offsets" :
					      "normalized_relocations", o, o - 1);
		} else {
			ni = insn_at(v, o);
			if (!ni || ni->kind == DC_DATA)
				return fr_err(err, fr, NULL, "normalized_relocations: %u is not a "
					      "decoded instruction", o);
		}
	}
	return 0;
}

static int x86_access(const struct frames *fr, const struct frames_access *x,
		      const struct dc_insn *ni, struct ap_err *err)
{
	int v1 = fr->schema_version == 1;
	uint8_t base = v1 ? x->top.base : x->encoded_base == 4 ? FRAMES_RSP : FRAMES_RBP;
	int64_t off = v1 ? x->top.frame_offset : x->encoded_offset;
	struct frames_operand op;

	if (!frames__operand(fr->arch, ni, &op))
		return fr_err(err, fr, x, "not a frame load or store: %s", ni->text);
	if (op.kind != x->kind && !op.rmw)
		return fr_err(err, fr, x, "kind %s, but the instruction %s: %s",
			      frames__kind_name(x->kind), op.kind == FRAMES_LOAD ? "loads" : "stores",
			      ni->text);
	if (op.base != base)
		return fr_err(err, fr, x, "base %s, but the instruction's base is %s: %s",
			      frames__base_name(base), frames__base_name(op.base), ni->text);
	if (!op.complex && op.offset != off)
		return fr_err(err, fr, x, "frame offset %lld, but the instruction's is %lld: %s",
			      (long long)off, (long long)op.offset, ni->text);
	if (op.width && op.width != x->top.width)
		return fr_err(err, fr, x, "width %u, but the instruction accesses %u bytes: %s",
			      x->top.width, op.width, ni->text);
	return 0;
}

static const char *text_at(const struct dc_vec *v, uint32_t off)
{
	const struct dc_insn *ni = insn_at(v, off);

	return ni ? ni->text : "(no instruction)";
}

static int a64_access(const struct frames *fr, const struct frames_access *x,
		      const struct fr_a64_access *d, const struct dc_vec *v, struct ap_err *err)
{
	const struct a64_ldst *ls = &d->ls;
	uint8_t mode = ls->rn == 29 || ls->rn == 31 ? ls->mode : A64_MODE_MATERIALIZED;
	const char *text = text_at(v, d->off);
	const char *want;

	if (x->kind != (ls->is_store ? FRAMES_STORE : FRAMES_LOAD))
		return fr_err(err, fr, x, "kind %s, but the instruction %s: %s",
			      frames__kind_name(x->kind), ls->is_store ? "stores" : "loads", text);
	if (x->encoded_base != ls->rn)
		return fr_err(err, fr, x, "encoded_base %s%d, but the instruction's is %s%d: %s",
			      x->encoded_base == 31 ? "sp" : "x", x->encoded_base == 31 ? 0 : x->encoded_base,
			      ls->rn == 31 ? "sp" : "x", ls->rn == 31 ? 0 : ls->rn, text);
	if (x->encoded_offset != ls->offset)
		return fr_err(err, fr, x, "encoded_offset %d, but the instruction's is %d: %s",
			      x->encoded_offset, ls->offset, text);
	if (x->addressing_mode != mode)
		return fr_err(err, fr, x, "addressing_mode %s, but the instruction's is %s: %s",
			      a64__mode_name(x->addressing_mode), a64__mode_name(mode), text);
	if (x->ncomp != ls->nregs)
		return fr_err(err, fr, x, "%u components, but the instruction moves %u registers: "
			      "%s", x->ncomp, ls->nregs, text);
	for (unsigned int i = 0; i < ls->nregs; i++) {
		const struct frames_component *c = &x->comp[i];
		int64_t off = d->base_offset_wide + ls->offset + (int64_t)i * ls->width;

		if (c->base != d->base || c->frame_offset != off)
			return fr_err(err, fr, x, "component %u at %s%+d, but the instruction "
				      "addresses %s%+lld: %s", i, frames__base_name(c->base),
				      c->frame_offset, frames__base_name(d->base), (long long)off, text);
		if (c->width != ls->width)
			return fr_err(err, fr, x, "component %u width %u, but the instruction moves "
				      "%u bytes per register: %s", i, c->width, ls->width, text);
		if (c->data_register != ls->reg[i] || c->data_register_class != ls->regclass)
			return fr_err(err, fr, x, "component %u data register %s%d, but the "
				      "instruction's is %s%u: %s", i,
				      c->data_register_class == A64_SIMD ? "v" : "r", c->data_register,
				      ls->regclass == A64_SIMD ? "v" : "r", ls->reg[i], text);
	}
	if (d->base != FRAMES_SP)
		return 0;
	/* sp-based: the frame record pair, or outgoing argument space */
	if (ls->nregs == 2 && ls->regclass == A64_GPR && ls->reg[0] == 29 && ls->reg[1] == 30)
		want = ls->is_store ? "prologue_saved_fp_lr" : "epilogue_restored_fp_lr";
	else
		want = "outgoing_abi_frame";
	for (unsigned int i = 0; i < x->ncomp; i++)
		if (strcmp(x->comp[i].detail, want))
			return fr_err(err, fr, x, "detail %s, but an sp-based access of these "
				      "registers is %s: %s", x->comp[i].detail, want, text);
	return 0;
}

/* The accesses and the decoded frame loads/stores are the same set. */
static int check_a64(const struct frames *fr, const uint8_t *code, const struct dc_vec *v,
		     struct ap_err *err)
{
	struct fr_a64_access *d;
	uint32_t nd, i = 0, j = 0;
	int ret = 0;

	if (fr->code_size % 4)
		return fr_err(err, fr, NULL, "code_size %u is not a whole number of aarch64 "
			      "instructions", fr->code_size);
	if (fr__a64_accesses(fr, code, fr->code_size, &d, &nd, err))
		return -1;
	while (!ret && (i < fr->nacc || j < nd)) {
		const struct frames_access *x = i < fr->nacc ? &fr->acc[i] : NULL;

		if (x && (j == nd || x->native_start < d[j].off)) {
			ret = fr_err(err, fr, x, "not a frame load or store of the forms the "
				     "compiler records: %s", text_at(v, x->native_start));
		} else if (!x || d[j].off < x->native_start) {
			ret = fr_err(err, fr, NULL, "the frame %s at +0x%x is not in accesses: %s",
				     d[j].ls.is_store ? "store" : "load", d[j].off,
				     text_at(v, d[j].off));
		} else {
			ret = a64_access(fr, x, &d[j], v, err);
			i++;
			j++;
		}
	}
	free(d);
	return ret;
}

int fr__check_native(const struct frames *fr, const struct cwasm_module *mod,
		     struct ap_err *err)
{
	struct dc_vec v = { 0 };
	int ret;

	if (frames__decode(fr, mod, 0, &v, err)) {
		dc_vec__exit(&v);
		return -1;
	}
	ret = check_boundaries(fr, &v, err) || check_calls(fr, &v, err) ? -1 : 0;
	if (!ret && fr->arch == CWASM_ARCH_X86_64) {
		for (uint32_t i = 0; i < fr->nacc && !ret; i++)
			ret = x86_access(fr, &fr->acc[i], insn_at(&v, fr->acc[i].native_start), err);
	} else if (!ret) {
		ret = check_a64(fr, fr__code(fr, mod), &v, err);
	}
	dc_vec__exit(&v);
	return ret;
}
