// SPDX-License-Identifier: MIT
/* The frames view and the helper view's shares (frames.h), computed once. */
#include <stdlib.h>
#include <string.h>
#include "frames.h"
#include "../util/pct.h"

static void origin_fill(struct vf_origin *o, const char *name, const struct frames_count *c,
			const struct frames_count *more, uint64_t func_samples,
			uint64_t frame_samples, uint64_t run_total)
{
	memset(o, 0, sizeof(*o));
	o->name = name;
	for (int k = 0; k < 2; k++) {
		uint32_t n = c[k].insns + (more ? more[k].insns : 0);

		o->insns += n;
		*(k == FRAMES_LOAD ? &o->loads : &o->stores) = n;
		o->samples += c[k].samples + (more ? more[k].samples : 0);
	}
	o->pct_func = ap_pct(o->samples, func_samples);
	o->pct_frame = ap_pct(o->samples, frame_samples);
	o->pct_run = ap_pct(o->samples, run_total);
}

static int by_samples(const void *a, const void *b, void *ctx)
{
	const struct vf_origin *o = ctx;
	const struct vf_origin *x = &o[*(const uint32_t *)a], *y = &o[*(const uint32_t *)b];

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return strcmp(x->name, y->name);
}

void view_frames__init(struct view_frames *v, const struct profile_sidecar *sc,
		       uint64_t func_samples, uint64_t run_total)
{
	const struct frames_summary *s = sc->fr ? sc->sum : NULL;

	memset(v, 0, sizeof(*v));
	v->sc = sc;
	v->s = s;
	v->has_func_samples = func_samples != 0;
	if (!s)
		return;
	v->static_coverage_pct = ap_pct(s->attributed_frame_instructions, s->frame_instructions);
	v->sample_coverage_pct = ap_pct(s->attributed_frame_samples, s->frame_samples);
	v->origin_coverage_pct = ap_pct(s->proven_origin_frame_instructions,
					s->frame_instructions);
	v->origin_sample_coverage_pct = ap_pct(s->proven_origin_frame_samples, s->frame_samples);
	v->unknown_insns = s->frame_instructions - s->proven_origin_frame_instructions;
	v->unknown_samples = s->frame_samples - s->proven_origin_frame_samples;
	v->alloc_pct_func = ap_pct(s->sampled_allocator_loads + s->sampled_allocator_stores,
				   func_samples);
	for (int o = 0; o < FRAMES__NORIGINS; o++) {
		struct vf_origin *r = &v->rows[v->nrows];

		origin_fill(&v->origin[o], frames__origin_name(o), s->origin[o],
			    o == FRAMES_UNKNOWN ? s->uncovered : NULL, func_samples,
			    s->frame_samples, run_total);
		if (v->origin[o].insns)
			v->by_samples[v->nby_samples++] = (uint32_t)o;
		if (!s->origin[o][0].insns && !s->origin[o][1].insns)
			continue;
		origin_fill(r, o == FRAMES_UNKNOWN ? "unknown (listed)" : frames__origin_name(o),
			    s->origin[o], NULL, func_samples, s->frame_samples, run_total);
		v->nrows++;
	}
	if (s->uncovered[0].insns || s->uncovered[1].insns)
		origin_fill(&v->rows[v->nrows++], "not listed (unknown)", s->uncovered, NULL,
			    func_samples, s->frame_samples, run_total);
	qsort_r(v->by_samples, v->nby_samples, sizeof(v->by_samples[0]), by_samples, v->origin);
}

static int class_rank(const void *a, const void *b, void *ctx)
{
	const struct hv_class *c = ctx;
	const struct hv_class *x = &c[*(const uint32_t *)a], *y = &c[*(const uint32_t *)b];

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return strcmp(x->name, y->name);
}

void view_helper_func__init(struct view_helper_func *v, uint32_t func,
			    const struct helper_view *hv, uint64_t run_total)
{
	memset(v, 0, sizeof(*v));
	v->hv = hv;
	v->func = func;
	v->pct_run = ap_pct(hv->samples, run_total);
	for (uint32_t i = 0; i < hv->nclasses; i++) {
		v->class_pct[i] = ap_pct(hv->classes[i].samples, run_total);
		v->class_by_samples[i] = i;
	}
	qsort_r(v->class_by_samples, hv->nclasses, sizeof(v->class_by_samples[0]), class_rank,
		(void *)hv->classes);
	for (uint32_t i = 0; i < hv->nhot; i++)
		v->hot_pct[i] = ap_pct(hv->hot[i].samples, run_total);
}

void view_helper__set_func(struct view_helper *v, const struct profile_func *f)
{
	uint64_t total = v->in.p->attr.total_samples;

	v->in.f = f;
	if (!f || !f->hv)
		return;
	v->has_func = 1;
	view_helper_func__init(&v->func, f->func, f->hv, total);
	if (f->sc && f->sc->fr) {
		v->has_frames = 1;
		view_frames__init(&v->frames, f->sc, f->hv->samples, total);
	}
}

int view_helper__new(const struct view_helper_input *in, struct view_helper **out,
		     struct ap_err *err)
{
	struct view_helper *v = calloc(1, sizeof(*v));
	const struct attr_core *c = &in->p->attr.cores[0];
	uint64_t total = in->p->attr.total_samples;

	*out = NULL;
	if (!v)
		return ap_err_nomem(err);
	v->in = *in;
	v->read_pct = ap_pct(in->bytes_read, in->bytes_expected);
	v->text_mb = c->mod->text_size / 1048576.0;
	v->coverage_pct = ap_pct(c->samples, total);
	v->ntop = in->perf ? (uint32_t)(in->top < c->nranked ? in->top : c->nranked) : 0;
	v->top = calloc(v->ntop + 1, sizeof(*v->top));
	if (!v->top) {
		view_helper__delete(v);
		return ap_err_nomem(err);
	}
	for (uint32_t i = 0; i < v->ntop; i++) {
		const struct attr_ranked *k = &c->ranked[i];

		v->top[i] = (struct view_helper_top){ k->func, c->mod->funcs[k->func].size,
						      k->samples, ap_pct(k->samples, total) };
	}
	view_helper__set_func(v, in->f);
	*out = v;
	return 0;
}

void view_helper__delete(struct view_helper *v)
{
	if (!v)
		return;
	free(v->top);
	free(v);
}
