// SPDX-License-Identifier: MIT
/*
 * One function as the upstream helper reports it (docs/helper-interface.md,
 * "Instruction classes"): decoded as the helper decodes it (objdump's
 * sweep, a jump table's bytes as instructions; with a sidecar, the code
 * between its inline data ranges), every instruction in the helper's class
 * by the helper's rules (with a sidecar the origin classes first), weighted
 * by the samples at its first byte; a sample anywhere else in the function
 * is an off-boundary class of its own, with static count 0. The classes'
 * samples add up to the function's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sidecar.h"
#include "../util/search.h"

#define CLASS_SKID "inline_data_or_sample_skid"
#define CLASS_BOUNDARY "unknown_instruction_boundary"

enum { MARK_NONE, MARK_START, MARK_DATA };

struct hv_build {
	struct helper_view *hv;
	struct hv_hot *hot;		/* every sampled address, ranked at the end */
	uint32_t nhot, cap_hot;
	uint64_t addr0;			/* the address of the function's first byte */
};

static int add_class(struct helper_view *hv, const char *name, uint64_t samples, int insn)
{
	uint32_t i;

	for (i = 0; i < hv->nclasses; i++)
		if (!strcmp(hv->classes[i].name, name))
			break;
	if (i == hv->nclasses) {
		if (i == HV_MAX_CLASSES)
			return -1;
		hv->classes[hv->nclasses++] = (struct hv_class){ .name = name };
	}
	hv->classes[i].samples += samples;
	hv->classes[i].static_insns += insn ? 1 : 0;
	return 0;
}

static int add_hot(struct hv_build *b, uint64_t samples, uint32_t off, const char *text,
		   const char *cls)
{
	struct hv_hot *h;

	if (b->nhot == b->cap_hot) {
		uint32_t cap = b->cap_hot ? 2 * b->cap_hot : 64;
		struct hv_hot *n = realloc(b->hot, cap * sizeof(*n));

		if (!n)
			return -1;
		b->hot = n;
		b->cap_hot = cap;
	}
	h = &b->hot[b->nhot++];
	h->samples = samples;
	h->addr = b->addr0 + off;
	/* an instruction's text, or "<class>" for a byte no instruction starts at */
	snprintf(h->text, sizeof(h->text), cls ? "<%s>" : "%s", cls ? cls : text ? text : "");
	return 0;
}

/* One instruction: its class, its samples, a candidate for the hottest. */
static int insn(struct hv_build *b, uint8_t *mark, uint32_t size, uint32_t off,
		const char *cls, const char *text, uint64_t samples)
{
	if (off < size)
		mark[off] = MARK_START;
	b->hv->instruction_count++;
	if (add_class(b->hv, cls, samples, 1))
		return -1;
	return samples ? add_hot(b, samples, off, text, NULL) : 0;
}

/* The entry of cf that is an instruction at offset off, or -1. */
static int64_t cls_at(const struct cls_func *cf, uint32_t off)
{
	/* entries are in address order */
	size_t lo = ap_search__lower(cf->insns, cf->ninsns, AP_SEARCH_FIELD(cf->insns, offset), off);

	if (lo < cf->ninsns && cf->insns[lo].offset == off && cf->insns[lo].cls != CLS_DATA)
		return lo;
	return -1;
}

/* With a sidecar: its decode (code between its inline data ranges), origins first. */
static int from_sidecar(struct hv_build *b, const struct profile_sidecar *sc,
			const struct cls_func *cf, uint32_t fn_off, uint8_t *mark, uint32_t size)
{
	uint8_t *hc = malloc(sc->insns.n + 1);
	int ret = 0;

	if (!hc || cls_helper__stream(cf->arch, sc->insns.v, sc->insns.n, hc)) {
		free(hc);
		return -1;
	}
	for (uint32_t i = 0; i < sc->insns.n && !ret; i++) {
		const struct dc_insn *ni = &sc->insns.v[i];
		uint32_t off = (uint32_t)(ni->addr - fn_off);
		int64_t at = cls_at(cf, off);
		const char *cls;

		if (ni->kind == DC_DATA) {
			for (uint32_t k = off; k < off + ni->size && k < size; k++)
				mark[k] = MARK_DATA;
			continue;
		}
		cls = frames__insn_class(sc->fr, ni, off, NULL);
		/* aotperf's decode shows branch targets at the mapped address */
		ret = insn(b, mark, size, off, cls ? cls : cls_helper__name(hc[i]),
			   at >= 0 ? cf->insns[at].text : ni->text, sc->samples[i]);
	}
	free(hc);
	return ret;
}

/*
 * Without one: the function whole as objdump sweeps it, a jump table's
 * bytes decoded as instructions, each in the helper's class.
 */
static int from_sweep(struct hv_build *b, const struct cwasm_module *m, const struct cwasm_func *fn,
		      enum cwasm_arch arch, const struct attr_hist *hist, uint32_t core, uint8_t *mark,
		      struct ap_err *err)
{
	struct dc_vec nv = { 0 };
	uint8_t *hc = NULL;
	int ret = dc__decode_sweep(arch, m->text + fn->offset, fn->size, b->addr0, &nv, err);

	if (!ret) {
		hc = malloc(nv.n + 1);
		ret = !hc || cls_helper__stream(arch, nv.v, nv.n, hc) ? ap_err_nomem(err) : 0;
	}
	for (uint32_t i = 0; i < nv.n && !ret; i++) {
		uint32_t off = (uint32_t)(nv.v[i].addr - b->addr0);
		uint64_t s = hist ? attr_hist__get(hist, core, (uint64_t)fn->offset + off) : 0;

		if (insn(b, mark, fn->size, off, cls_helper__name(hc[i]), nv.v[i].text, s))
			ret = ap_err_nomem(err);
	}
	free(hc);
	dc_vec__exit(&nv);
	return ret;
}

/* Samples at bytes no instruction starts at. */
static int off_boundary(struct hv_build *b, const uint8_t *mark, uint32_t size,
			const struct attr_hist *hist, uint32_t core, uint32_t fn_off)
{
	for (uint32_t k = 0; hist && hist->n && k < size; k++) {
		uint64_t s = mark[k] == MARK_START ? 0 : attr_hist__get(hist, core, (uint64_t)fn_off + k);
		const char *cls = mark[k] == MARK_DATA ? CLASS_SKID : CLASS_BOUNDARY;

		if (!s)
			continue;
		if (add_class(b->hv, cls, s, 0) || add_hot(b, s, k, NULL, cls))
			return -1;
	}
	return 0;
}

static int hot_cmp(const void *a, const void *b)
{
	const struct hv_hot *x = a, *y = b;
	int c;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	if (x->addr != y->addr)
		return x->addr > y->addr ? -1 : 1;
	c = strcmp(x->text, y->text);
	return c > 0 ? -1 : c < 0;
}

static int class_cmp(const void *a, const void *b)
{
	return strcmp(((const struct hv_class *)a)->name, ((const struct hv_class *)b)->name);
}

int helper_view__build(struct helper_view **out, const struct cwasm_module *m, uint32_t func,
		       const struct cls_func *cf, const struct profile_sidecar *sc,
		       const struct attr_hist *hist, uint32_t core, int have_base, uint64_t base,
		       struct ap_err *err)
{
	const struct cwasm_func *fn = &m->funcs[func];
	struct hv_build b = { 0 };
	uint8_t *mark = calloc(fn->size + 1, 1);
	int r;

	helper_view__delete(*out);
	*out = NULL;
	b.hv = calloc(1, sizeof(*b.hv));
	if (!b.hv || !mark)
		goto nomem;
	b.addr0 = have_base ? base + fn->offset : 0;
	if (hist)
		b.hv->samples = attr_hist__sum(hist, core, fn->offset, fn->size);
	if (sc && sc->fr)
		r = from_sidecar(&b, sc, cf, fn->offset, mark, fn->size) ? ap_err_nomem(err) : 0;
	else
		r = from_sweep(&b, m, fn, cf->arch, hist, core, mark, err);
	if (r)
		goto fail;
	if (off_boundary(&b, mark, fn->size, hist, core, fn->offset))
		goto nomem;
	if (!(sc && sc->fr))
		for (uint32_t i = 0; i < b.hv->nclasses; i++)
			if (!strncmp(b.hv->classes[i].name, "frame_", 6))
				b.hv->unattributed_frame += b.hv->classes[i].static_insns;
	qsort(b.hv->classes, b.hv->nclasses, sizeof(b.hv->classes[0]), class_cmp);
	if (b.nhot)
		qsort(b.hot, b.nhot, sizeof(*b.hot), hot_cmp);
	b.hv->nhot = b.nhot < HV_HOT_MAX ? b.nhot : HV_HOT_MAX;
	if (b.nhot)
		memcpy(b.hv->hot, b.hot, b.hv->nhot * sizeof(*b.hot));
	free(b.hot);
	free(mark);
	*out = b.hv;
	return 0;
nomem:
	ap_err_nomem(err);
fail:
	free(b.hot);
	free(mark);
	free(b.hv);
	return -1;
}

void helper_view__delete(struct helper_view *hv)
{
	free(hv);
}
