// SPDX-License-Identifier: MIT
/*
 * The run's lever table (levers.h, docs/levers.md): the functions that
 * hold most of the run, every loop holding a few percent of its function
 * modelled per lever, the savings weighed by the loops' share of the run.
 *
 * A loop is weighed by its self samples (those in blocks no inner loop
 * holds): an outer loop's modelled path holds its inner loops' blocks too,
 * and its share would count theirs twice.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "levers.h"
#include "../loops/analyze.h"
#include "../loops/mca.h"
#include "sidecar.h"

/*
 * How far a loop's measured saving may lie from its predicted one, in
 * points of the loop's time: the kernel pairs' worst agreement on the CPUs
 * they ran on (docs/levers.md: 6.3 points on a 23.5% prediction), with room
 * for the noise of a shared machine.
 */
static double loop_tolerance(double payoff)
{
	double rel = 0.35 * fabs(payoff);

	return rel > 5.0 ? rel : 5.0;
}

/* ---- the functions ---- */

static int add_func(struct lp_levers *lv, uint32_t core, uint32_t func, uint64_t samples)
{
	struct lp_lever_func *f = &lv->funcs[lv->nfuncs++];

	memset(f, 0, sizeof(*f));
	f->core = core;
	f->func = func;
	f->samples = samples;
	return 0;
}

/* Is (core, func) already in the table? */
static int chosen(const struct lp_levers *lv, uint32_t core, uint32_t func)
{
	for (uint32_t i = 0; i < lv->nfuncs; i++)
		if (lv->funcs[i].core == core && lv->funcs[i].func == func)
			return 1;
	return 0;
}

/* A recording's: the hottest over all cores until they hold share% of the wasm samples. */
static void choose_hottest(struct lp_levers *lv, const struct profile *p)
{
	uint64_t want = (uint64_t)ceil(lv->share / 100.0 * (double)lv->wasm_samples);

	while (lv->nfuncs < lv->max_funcs && lv->chosen_samples < want) {
		const struct attr_ranked *pick = NULL;
		uint32_t core = 0;

		for (uint32_t c = 0; c < p->attr.ncores; c++) {
			const struct attr_core *ac = &p->attr.cores[c];

			for (uint32_t i = 0; i < ac->nranked; i++) {
				if (chosen(lv, c, ac->ranked[i].func))
					continue;
				if (!pick || ac->ranked[i].samples > pick->samples) {
					pick = &ac->ranked[i];
					core = c;
				}
				break;
			}
		}
		if (!pick || !pick->samples)
			break;
		add_func(lv, core, pick->func, pick->samples);
		lv->chosen_samples += pick->samples;
	}
}

/* The frame-attribution sidecar report loaded for (core, func), or NULL. */
static const struct frames *sidecar_of(const struct profile *p, uint32_t core, uint32_t func)
{
	for (uint32_t i = 0; i < p->nfuncs; i++)
		if (p->funcs[i].core == core && p->funcs[i].func == func && p->funcs[i].sc)
			return p->funcs[i].sc->fr;
	return NULL;
}

static int build_func(struct lp_levers *lv, const struct profile *p, struct lp_lever_func *lf,
		      const struct lp_levers_opts *o, struct ap_err *err)
{
	const struct attr_core *c = &p->attr.cores[lf->core];
	const struct frames *fr = sidecar_of(p, lf->core, lf->func);

	if (cls_result__classify(&lf->cls, c->mod, lf->func, CWASM_ARCH_UNKNOWN, o->roles,
				 lv->static_only ? NULL : &p->hist, lf->core, c->first_base, err) ||
	    lp_func__build(&lf->lf, c->mod, lf->func, c->first_base, &lf->cls.f,
			   lv->static_only ? NULL : lf->cls.insn_samples, err) ||
	    (fr && lp_func__keep_frames(&lf->lf, &lf->cls.f, fr, err)))
		return -1;
	lf->lf.model_aliased = 1;
	if (lv->static_only)
		lf->lf.model_every = 1;
	else
		lf->lf.model_min_self = (uint64_t)ceil(lv->loop_min / 100.0 * (double)lf->samples);
	if (!lf->lf.model_min_self)
		lf->lf.model_min_self = 1;
	return 0;
}

/* how many of the largest functions a table without a recording decodes, looking for loops */
#define LP_LEVERS_STATIC_TRIES 1000

struct by_size {
	uint32_t core, func, size;
};

static int cmp_size(const void *a, const void *b)
{
	const struct by_size *x = a, *y = b;

	if (x->size != y->size)
		return x->size < y->size ? 1 : -1;
	return x->core != y->core ? (x->core < y->core ? -1 : 1) : (x->func < y->func ? -1 : 1);
}

/* No recording: the largest functions with loops, over all cores. */
static int choose_static(struct lp_levers *lv, const struct profile *p,
			 const struct lp_levers_opts *o, struct ap_err *err)
{
	struct by_size *all;
	uint32_t n = 0, tries = 0;
	int ret = 0;

	for (uint32_t c = 0; c < p->attr.ncores; c++)
		n += p->attr.cores[c].mod->nfuncs;
	all = calloc(n + 1, sizeof(*all));
	if (!all)
		return ap_err_nomem(err);
	n = 0;
	for (uint32_t c = 0; c < p->attr.ncores; c++)
		for (uint32_t i = 0; i < p->attr.cores[c].mod->nfuncs; i++)
			if (p->attr.cores[c].mod->funcs[i].size)
				all[n++] = (struct by_size){ c, i, p->attr.cores[c].mod->funcs[i].size };
	qsort(all, n, sizeof(*all), cmp_size);
	for (uint32_t k = 0; k < n && lv->nfuncs < lv->max_funcs && tries < LP_LEVERS_STATIC_TRIES;
	     k++, tries++) {
		struct lp_lever_func *f = &lv->funcs[lv->nfuncs];

		add_func(lv, all[k].core, all[k].func, 0);
		if ((ret = build_func(lv, p, f, o, err)))
			break;
		if (!f->lf.nloops) {	/* nothing to model: the next one */
			lp_func__exit(&f->lf);
			cls_result__exit(&f->cls);
			lv->nfuncs--;
		}
	}
	free(all);
	return ret;
}

/* ---- the rows ---- */

/* The frame lever's upper end: the loop on a core that forwards the slot instead of renaming. */
static double frame_hi(const struct lp_loop *l, double payoff)
{
	double hi;

	if (!l->aliased_base.ok || !l->aliased_frame.ok || l->aliased_base.cycles_per_iter <= 0)
		return payoff;
	hi = 100.0 * (1.0 - l->aliased_frame.cycles_per_iter / l->aliased_base.cycles_per_iter);
	return hi > payoff ? hi : payoff;
}

/* One modelled loop into every lever's row; touched[lever] set when it counts for the function. */
static void add_loop(struct lp_levers *lv, struct lp_lever_func *lf, const struct lp_loop *l,
		     double weight, int *touched)
{
	for (int lever = 0; lever < LP__NLEVERS; lever++) {
		struct lp_lever_row *r = &lv->rows[lever];
		const struct lp_model_run *run = &l->lever[lever];
		double p;

		if (!run->removed)
			continue;
		touched[lever] = 1;
		r->removed += run->removed;
		if (run->not_modelled) {
			r->unmodelled_loops++;
			r->unmodelled_share += 100.0 * weight;
			snprintf(r->why, sizeof(r->why), "%s", run->not_modelled);
			continue;
		}
		p = lp_loop__payoff(l, lever);
		r->loops++;
		r->payoff += weight * p;
		r->payoff_hi += weight * (lever == LP_FRAME ? frame_hi(l, p) : p);
		r->tolerance += weight * loop_tolerance(p);
		lf->payoff[lever] += weight * p;
		lf->tolerance[lever] += weight * loop_tolerance(p);
		lf->touched[lever] = 1;
	}
}

/* The samples on the instructions lever touches in the function's modelled loops (each once). */
static uint64_t lever_samples(const struct lp_lever_func *lf, int lever, uint8_t *seen)
{
	const struct lp_func *f = &lf->lf;
	uint64_t n = 0;

	memset(seen, 0, lf->cls.f.ninsns + 1);
	for (uint32_t k = 0; k < f->nloops; k++) {
		const struct lp_loop *l = &f->loops[k];

		if (!l->base.ok)
			continue;
		for (uint32_t b = 0; b < l->nblocks; b++) {
			const struct lp_block *bl = &f->blocks[l->blocks[b]];

			if (!lp_func__on_path(f, l, l->blocks[b]))
				continue;
			for (uint32_t i = bl->first; i < bl->end; i++)
				if (!seen[i] && lp_whatif__touches(f, &lf->cls.f, lever, i)) {
					seen[i] = 1;
					n += f->samples ? f->samples[i] : 0;
				}
		}
	}
	return n;
}

/* The frame loads decoded in the function and those in its modelled loops (the lever's). */
static void frame_loads(struct lp_lever_func *lf, uint8_t *seen)
{
	lever_samples(lf, LP_FRAME, seen);
	for (uint32_t i = 0; i < lf->cls.f.ninsns; i++) {
		if (lf->cls.f.insns[i].cls != CLS_FRAME_LOAD)
			continue;
		lf->frame_loads++;
		lf->frame_loads_loops += seen[i];
	}
}

static void spill_of(struct lp_lever_func *lf, const struct lp_levers_opts *o)
{
	uint64_t v;

	if (o->spill_ld(o->spill_log, lf->core, lf->func, &v)) {
		lf->spill_known = 1;
		lf->spill_ld = v;
	}
}

static int cmp_rows(const void *a, const void *b)
{
	const struct lp_lever_row *x = a, *y = b;
	int xa = x->removed > 0, ya = y->removed > 0;

	if (xa != ya)
		return ya - xa;
	if (x->payoff != y->payoff)
		return x->payoff < y->payoff ? 1 : -1;
	return x->lever - y->lever;
}

static int rows(struct lp_levers *lv, const struct lp_levers_opts *o, struct ap_err *err)
{
	double denom = (double)(lv->static_only ? 1 : lv->run_samples);
	uint32_t nloops = 0;

	for (int lever = 0; lever < LP__NLEVERS; lever++)
		lv->rows[lever].lever = lever;
	for (uint32_t i = 0; i < lv->nfuncs; i++) {
		struct lp_lever_func *lf = &lv->funcs[i];
		int touched[LP__NLEVERS] = { 0 };
		uint8_t *seen = malloc(lf->cls.f.ninsns + 1);

		if (!seen)
			return ap_err_nomem(err);
		for (uint32_t k = 0; k < lf->lf.nloops; k++) {
			const struct lp_loop *l = &lf->lf.loops[k];

			if (!l->base.ok)
				continue;
			lf->modelled++;
			lf->modelled_samples += l->self_samples;
			nloops++;
			add_loop(lv, lf, l, lv->static_only ? 1.0 : (double)l->self_samples / denom,
				 touched);
		}
		lv->modelled_samples += lf->modelled_samples;
		for (int lever = 0; lever < LP__NLEVERS; lever++) {
			lv->rows[lever].functions += touched[lever];
			if (touched[lever])
				lv->rows[lever].samples += lever_samples(lf, lever, seen);
		}
		if (o->spill_ld) {
			spill_of(lf, o);
			frame_loads(lf, seen);
		}
		free(seen);
	}
	/* no run shares: the mean saving of a modelled loop */
	for (uint32_t i = 0; lv->static_only && nloops && i < lv->nfuncs; i++)
		for (int lever = 0; lever < LP__NLEVERS; lever++) {
			lv->funcs[i].payoff[lever] /= nloops;
			lv->funcs[i].tolerance[lever] /= nloops;
		}
	for (int lever = 0; lv->static_only && nloops && lever < LP__NLEVERS; lever++) {
		lv->rows[lever].payoff /= nloops;
		lv->rows[lever].payoff_hi /= nloops;
		lv->rows[lever].tolerance /= nloops;
		lv->rows[lever].unmodelled_share = 0;
	}
	qsort(lv->rows, LP__NLEVERS, sizeof(lv->rows[0]), cmp_rows);
	return 0;
}

int lp_levers__run(struct lp_levers *lv, const struct profile *p, const struct lp_levers_opts *o,
		   struct ap_err *err)
{
	struct lp_func **lfs = NULL;
	const struct cls_func **fs = NULL;
	uint32_t n = 0;
	int ret = -1;

	memset(lv, 0, sizeof(*lv));
	lv->static_only = p->source == PROFILE_STATIC;
	lv->share = o->share;
	lv->max_funcs = o->max_funcs < LP_LEVERS_MAX_FUNCS ? o->max_funcs : LP_LEVERS_MAX_FUNCS;
	lv->loop_min = o->loop_min;
	lv->spills_given = o->spill_ld != NULL;
	lv->run_samples = p->attr.total_samples;
	for (uint32_t c = 0; c < p->attr.ncores; c++)
		lv->wasm_samples += p->attr.cores[c].samples;
	lv->funcs = calloc(lv->max_funcs + 1, sizeof(*lv->funcs));
	lfs = calloc(lv->max_funcs + 1, sizeof(*lfs));
	fs = calloc(lv->max_funcs + 1, sizeof(*fs));
	if (!lv->funcs || !lfs || !fs) {
		ap_err_nomem(err);
		goto out;
	}
	if (lv->static_only ? choose_static(lv, p, o, err) : (choose_hottest(lv, p), 0))
		goto out;
	for (uint32_t i = 0; i < lv->nfuncs; i++) {
		if (!lv->static_only && build_func(lv, p, &lv->funcs[i], o, err))
			goto out;
		if (lv->funcs[i].lf.nloops) {
			lfs[n] = &lv->funcs[i].lf;
			fs[n++] = &lv->funcs[i].cls.f;
		}
	}
	if (lp__model(lfs, fs, n, p->source == PROFILE_STATIC ? NULL : p->cpuid, p->cpudesc, err))
		goto out;
	if (n)
		lv->model = lfs[0]->model;
	ret = rows(lv, o, err);
out:
	free(lfs);
	free(fs);
	return ret;
}

void lp_levers__exit(struct lp_levers *lv)
{
	for (uint32_t i = 0; lv->funcs && i < lv->nfuncs; i++) {
		lp_func__exit(&lv->funcs[i].lf);
		cls_result__exit(&lv->funcs[i].cls);
	}
	free(lv->funcs);
	memset(lv, 0, sizeof(*lv));
}

void lp_levers__delete(struct lp_levers *lv)
{
	if (!lv)
		return;
	lp_levers__exit(lv);
	free(lv);
}

const struct lp_lever_row *lp_levers__row(const struct lp_levers *lv, int lever)
{
	for (int i = 0; i < LP__NLEVERS; i++)
		if (lv->rows[i].lever == lever)
			return &lv->rows[i];
	return NULL;
}
