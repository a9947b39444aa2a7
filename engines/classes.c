// SPDX-License-Identifier: MIT
/*
 * The other engine's function through the same classifier as WAMR's
 * (classify/), with roles read from its code (roles.c), and the per-lever
 * headroom estimate a comparison prints.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

static int arch_of(uint16_t e_machine, enum cwasm_arch *arch)
{
	if (e_machine == 62)
		*arch = CWASM_ARCH_X86_64;
	else if (e_machine == 183)
		*arch = CWASM_ARCH_AARCH64;
	else
		return -1;
	return 0;
}

/* Without roles these classes cannot be told apart; say so, do not guess. */
static void mark_unavailable(struct eng_classes *c)
{
	switch (c->roles.status) {
	case ENG_ROLES_NONE:
		c->unavailable = 1u << CLS_LINEAR_MEM | 1u << CLS_OTHER_MEM |
				 1u << CLS_BOUNDS_CHECK;
		snprintf(c->unavailable_why, sizeof(c->unavailable_why),
			 "no vmctx or memory base: linear_mem and other_mem are one memory "
			 "class, bounds checks against vmctx fields are not seen");
		break;
	case ENG_ROLES_VMCTX:
		c->unavailable = 1u << CLS_LINEAR_MEM | 1u << CLS_OTHER_MEM;
		snprintf(c->unavailable_why, sizeof(c->unavailable_why),
			 "no memory base: linear_mem and other_mem are one memory class");
		break;
	default:
		break;
	}
}

/* Code objects of the same function and tier with the very same bytes. */
static int same_code(const struct eng_code *a, const struct eng_code *b)
{
	return a != b && a->name.tier == b->name.tier && a->size == b->size && a->bytes &&
	       b->bytes && !memcmp(a->bytes, b->bytes, a->size);
}

static void add_samples(struct eng_classes *c, const struct eng_code *code, uint64_t used)
{
	if (!code->offset_samples)
		return;
	for (uint64_t off = 0; off < used; off++) {
		int64_t k;

		if (!code->offset_samples[off])
			continue;
		k = cls__insn_at(&c->f, c->code->addr + off);
		if (k >= 0)
			c->insn_samples[k] += code->offset_samples[off];
	}
}

static int classify_code(const struct eng_profile *p, struct eng_classes *c, enum cwasm_arch arch,
			 struct ap_err *err)
{
	const struct eng_code *code = c->code;
	struct dc_vec nv = { 0 };
	uint32_t keep;

	if (dc__decode(arch, code->bytes, code->size, code->addr, &nv, err)) {
		dc_vec__exit(&nv);
		return -1;
	}
	keep = eng__reachable_end(nv.v, nv.n, code->addr, code->size);
	c->code_used = keep ? nv.v[keep - 1].addr + nv.v[keep - 1].size - code->addr : 0;
	eng_roles__from_insns(arch, nv.v, keep, &c->roles);
	dc_vec__exit(&nv);
	if (cls__decode(arch, &c->roles.roles, code->bytes, c->code_used, code->addr, &c->f, err))
		return -1;
	c->insn_samples = calloc(c->f.ninsns ? c->f.ninsns : 1, sizeof(uint64_t));
	if (!c->insn_samples)
		return ap_err_nomem(err);
	add_samples(c, code, c->code_used);
	c->samples = code->samples;
	for (uint32_t i = 0; i < c->func->ncodes; i++) {
		const struct eng_code *o = engines__code(p, c->func->codes[i]);

		if (!same_code(o, code))
			continue;
		add_samples(c, o, c->code_used);
		c->samples += o->samples;
		c->nmerged++;
	}
	cls__tabulate(&c->f, c->insn_samples, &c->table);
	mark_unavailable(c);
	return 0;
}

int engines__classify(const struct eng_profile *p, const struct eng_func *fn,
		      struct eng_classes *out, struct ap_err *err)
{
	enum cwasm_arch arch;

	memset(out, 0, sizeof(*out));
	out->func = fn;
	out->code = engines__code(p, (uint32_t)fn->best);
	out->run_total = p->sum.total_samples;
	if (!out->code)
		return ap_errf(err, "engine profile: wasm function %u has no code", fn->wasm_index);
	out->code_bytes = out->code->size;
	if (!out->code->bytes)
		return ap_errf(err, "%s: no code bytes for %s", out->code->file,
			       out->code->raw_name);
	if (arch_of(out->code->e_machine, &arch))
		return ap_errf(err, "%s: code for machine %u, not x86_64 or aarch64",
			       out->code->file, out->code->e_machine);
	if (classify_code(p, out, arch, err)) {
		eng_classes__exit(out);
		return -1;
	}
	return 0;
}

void eng_classes__exit(struct eng_classes *c)
{
	cls_func__exit(&c->f);
	free(c->insn_samples);
	c->insn_samples = NULL;
}

/* ---- headroom ---- */

static const struct {
	const char *name;
	enum cls_class cls[2];
	int ncls;
} levers[ENG_LEVER__COUNT] = {
	[ENG_LEVER_STACK] = { "stack", { CLS_FRAME_LOAD, CLS_FRAME_STORE }, 2 },
	[ENG_LEVER_MOVES] = { "moves", { CLS_REG_MOVE, CLS_ZEXT_MOVE }, 2 },
	[ENG_LEVER_BOUNDS] = { "bounds", { CLS_BOUNDS_CHECK, CLS_BOUNDS_CHECK }, 1 },
	[ENG_LEVER_DISPATCH] = { "dispatch", { CLS_DISPATCH, CLS_DISPATCH }, 1 },
};

const char *eng_lever__name(enum eng_lever l)
{
	return (unsigned)l < ENG_LEVER__COUNT ? levers[l].name : "?";
}

/* A class's share of the function, percent: of samples, or of static instructions. */
static double share(const struct cls_table *t, int sampled, int cls)
{
	uint64_t total = 0;

	if (sampled)
		return t->total ? 100.0 * (double)t->samples[cls] / (double)t->total : 0.0;
	for (int c = 0; c < CLS__COUNT; c++)
		if (c != CLS_DATA)
			total += t->static_count[c];
	return total && cls != CLS_DATA ? 100.0 * t->static_count[cls] / (double)total : 0.0;
}

void engines__headroom(const struct cls_table *wamr, uint64_t wamr_run_total,
		       const struct eng_classes *other, uint64_t min_samples,
		       struct eng_headroom *out)
{
	const struct cls_table *o = &other->table;

	memset(out, 0, sizeof(*out));
	out->sampled = wamr->total >= min_samples && o->total >= min_samples && wamr->total &&
		       o->total && !wamr->percent_only;
	if (wamr_run_total && !wamr->percent_only)
		out->hot_pct = 100.0 * (double)wamr->total / (double)wamr_run_total;
	for (int c = 0; c < CLS__COUNT; c++)
		out->class_delta[c] = share(o, out->sampled, c) - share(wamr, out->sampled, c);
	for (int l = 0; l < ENG_LEVER__COUNT; l++) {
		struct eng_lever_est *e = &out->lever[l];

		e->available = 1;
		for (int k = 0; k < levers[l].ncls; k++) {
			e->wamr_pct += share(wamr, out->sampled, levers[l].cls[k]);
			e->other_pct += share(o, out->sampled, levers[l].cls[k]);
			if (other->unavailable & (1u << levers[l].cls[k]))
				e->available = 0;
		}
		if (!e->available || e->wamr_pct <= 0.0)
			continue;
		e->reduction = 1.0 - e->other_pct / e->wamr_pct;
		if (e->reduction < 0.0)
			e->reduction = 0.0;
		e->headroom_pct = out->hot_pct * e->wamr_pct / 100.0 * e->reduction;
	}
}
