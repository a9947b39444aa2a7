// SPDX-License-Identifier: MIT
/* The view of aotperf compare (compare.h): its tables, filled and cut once. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include "compare.h"
#include "internal.h"
#include "../compare/side.h"
#include "../util/pct.h"

/* A share of the run or of a function: two decimals everywhere. */
static uint32_t pct_col(struct vcols *s, const char *key, const char *head, unsigned flags)
{
	uint32_t c = vcols__add(s, key, head, VT_PERCENT, flags);

	vcols__prec(s, 2, 2);
	return c;
}

static int sides(struct view_compare *v)
{
	const struct view_compare_input *in = &v->in;
	const struct cwasm_module *m = in->wamr->mods[in->core];
	const struct eng_summary *es = engines__summary(in->other);
	struct vcols s = { 0 };
	struct vt_table *t;

	vcols__add(&s, "engine", "engine", VT_TEXT, 0);
	vcols__add(&s, "code", "code", VT_TEXT, VT_CODE);
	vcols__add(&s, "tier", "tier", VT_TEXT, 0);
	vcols__add(&s, "samples", "samples", VT_COUNT, 0);
	vcols__add(&s, "total_samples", "of", VT_COUNT, VT_NO_MD);
	pct_col(&s, "percent_of_run", "% of run", 0);
	vcols__add(&s, "recording", "recording", VT_TEXT, 0);
	if (!(t = v->sides = vt_table__new(s.c, s.n)) || vt_table__add_row(t) ||
	    vt_table__strf(t, 1, "local_func_%" PRIu32, in->func) ||
	    vt_table__strf(t, 6, "%s%s (%s)", in->wamr->captures[0].label,
			   in->wamr->ncaptures > 1 ? " …" : "", m->path))
		return -1;
	vt_table__str(t, 0, "WAMR");
	vt_table__str(t, 2, "AOT");
	vt_table__u64(t, 3, in->wamr_samples);
	vt_table__u64(t, 4, v->wamr_run_total);
	vt_table__dbl(t, 5, ap_pct(in->wamr_samples, v->wamr_run_total));
	if (vt_table__add_row(t))
		return -1;
	vt_table__str(t, 0, v->engine);
	vt_table__str(t, 1, in->oc->code->raw_name);
	vt_table__str(t, 2, v->tier);
	vt_table__u64(t, 3, in->oc->samples);
	vt_table__u64(t, 4, es->total_samples);
	vt_table__dbl(t, 5, ap_pct(in->oc->samples, es->total_samples));
	vt_table__str(t, 6, in->other_label);
	return vt_table__cut(t, NULL);
}

/* The class table's columns. */
enum { CL_NAME, CL_CLASS, CL_SHOWN, CL_SW, CL_SO, CL_DELTA, CL_PW, CL_PO, CL_POINTS };

/* A row of static counts (so absent: unavailable) and shares (absent: "-", "n/a"). */
static void class_row(struct view_compare *v, uint32_t sw, uint32_t so, int avail, uint64_t nw,
		      uint64_t no, const struct cls_table *w, const struct cls_table *o)
{
	struct vt_table *t = v->classes;

	vt_table__u64(t, CL_SW, sw);
	if (avail) {
		vt_table__u64(t, CL_SO, so);
		vt_table__i64(t, CL_DELTA, (int64_t)so - (int64_t)sw);
	}
	if (w->total)
		vt_table__dbl(t, CL_PW, ap_pct(nw, w->total));
	if (avail && o->total)
		vt_table__dbl(t, CL_PO, ap_pct(no, o->total));
	else if (!avail)
		vt_table__word(t, CL_PO, "n/a");
}

static int classes(struct view_compare *v)
{
	const struct cls_table *w = v->in.wamr_table, *o = &v->in.oc->table;
	uint32_t unavail = v->in.oc->unavailable, sw = 0, so = 0;
	struct vt_cut cut = { .sort_col = -1, .pct_col = -1, .show_col = CL_SHOWN };
	unsigned hide = VT_NO_TEXT | VT_NO_MD;
	struct vcols s = { 0 };
	struct vt_table *t;

	vcols__add(&s, NULL, "class", VT_TEXT, VT_CODE);
	vcols__add(&s, "class", "class", VT_INT, hide);
	vcols__add(&s, "shown", "shown", VT_COUNT, hide);
	vcols__add(&s, NULL, "WAMR", VT_COUNT, 0);
	s.c[CL_SW].md_head = "static WAMR";
	vcols__add(&s, NULL, v->engine, VT_COUNT, 0);
	s.c[CL_SO].md_head = v->h_static;
	s.c[CL_SO].absent = "n/a";
	vcols__add(&s, NULL, "delta", VT_INT, VT_SIGNED);
	s.c[CL_DELTA].md_head = "static delta";
	s.c[CL_DELTA].absent = "n/a";
	pct_col(&s, NULL, "WAMR%", 0);
	s.c[CL_PW].md_head = "% of samples WAMR";
	s.c[CL_PW].absent = "-";
	pct_col(&s, NULL, v->h_share, 0);
	s.c[CL_PO].md_head = v->h_share_md;
	s.c[CL_PO].absent = "-";
	vcols__add(&s, "points", "points", VT_POINTS, 0);
	vcols__prec(&s, 2, 2);
	if (!(t = v->classes = vt_table__new(s.c, s.n)))
		return -1;
	v->has_points = w->total && o->total;
	for (int k = 0; k < CLS__COUNT; k++) {
		int avail = !(unavail & (1u << k));

		sw += w->static_count[k];
		so += o->static_count[k];
		if (vt_table__add_row(t))
			return -1;
		vt_table__str(t, CL_NAME, cls__name((enum cls_class)k));
		vt_table__i64(t, CL_CLASS, k);
		vt_table__u64(t, CL_SHOWN, w->static_count[k] || w->samples[k] ||
					  o->static_count[k] || o->samples[k]);
		class_row(v, w->static_count[k], o->static_count[k], avail, w->samples[k],
			  o->samples[k], w, o);
		if (avail && v->has_points)
			vt_table__dbl(t, CL_POINTS, ap_pct(o->samples[k], o->total) -
						    ap_pct(w->samples[k], w->total));
	}
	if (unavail & (1u << CLS_LINEAR_MEM)) {
		if (vt_table__add_row(t))
			return -1;
		vt_table__str(t, CL_NAME, "memory (both)");
		vt_table__u64(t, CL_SHOWN, 1);
		class_row(v, w->static_count[CLS_LINEAR_MEM] + w->static_count[CLS_OTHER_MEM],
			  o->static_count[CLS_LINEAR_MEM] + o->static_count[CLS_OTHER_MEM], 1,
			  w->samples[CLS_LINEAR_MEM] + w->samples[CLS_OTHER_MEM],
			  o->samples[CLS_LINEAR_MEM] + o->samples[CLS_OTHER_MEM], w, o);
	}
	if (vt_table__add_row(t))
		return -1;
	vt_table__str(t, CL_NAME, "total");
	vt_table__u64(t, CL_SHOWN, 1);
	class_row(v, sw, so, 1, w->total, o->total, w, o);
	return vt_table__cut(t, &cut);
}

static int levers(struct view_compare *v)
{
	const struct eng_headroom *h = v->in.h;
	struct vcols s = { 0 };
	struct vt_table *t;

	vcols__add(&s, "lever", "lever", VT_TEXT, 0);
	vcols__add(&s, "status", "status", VT_TEXT, VT_NO_TEXT | VT_NO_MD);
	pct_col(&s, "wamr_percent_of_function", "WAMR %func", 0);
	s.c[2].md_head = "WAMR % of function";
	pct_col(&s, "other_percent_of_function", v->h_lever, 0);
	vcols__add(&s, "reduction", "reduction", VT_RATIO, VT_NO_TEXT | VT_NO_MD);
	vcols__prec(&s, 3, 3);
	vcols__add(&s, NULL, "reduction", VT_PERCENT, VT_PCT);
	vcols__prec(&s, 0, -1);
	pct_col(&s, "headroom_percent_of_run", "headroom % of run", 0);
	s.c[6].md_head = "headroom, % of WAMR run (estimate)";
	if (!(t = v->levers = vt_table__new(s.c, s.n)))
		return -1;
	for (int l = 0; l < ENG_LEVER__COUNT; l++) {
		const struct eng_lever_est *x = &h->lever[l];

		if (vt_table__add_row(t))
			return -1;
		vt_table__str(t, 0, eng_lever__name((enum eng_lever)l));
		vt_table__str(t, 1, x->available ? "estimated" : "unavailable");
		vt_table__dbl(t, 2, x->wamr_pct);
		vt_table__dbl(t, 3, x->other_pct);
		vt_table__dbl(t, 4, x->reduction);
		vt_table__dbl(t, 5, 100.0 * x->reduction);
		vt_table__dbl(t, 6, x->headroom_pct);
		/* a class it needs is unavailable: the numbers stay in the JSON */
		for (uint32_t c = 3; !x->available && c <= 6; c++)
			vt_table__word(t, c, "n/a");
	}
	return vt_table__cut(t, NULL);
}

struct frow {
	uint64_t wamr, other;
	uint32_t idx;
};

static int by_samples(const void *x, const void *y)
{
	const struct frow *a = x, *b = y;

	if (a->wamr != b->wamr)
		return a->wamr > b->wamr ? -1 : 1;
	if (a->other != b->other)
		return a->other > b->other ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* The functions both engines ran (the other engine's of the compared module). */
static int funcs(struct view_compare *v)
{
	const struct view_compare_input *in = &v->in;
	const struct cwasm_module *m = in->wamr->mods[in->core];
	uint64_t other_total = engines__summary(in->other)->total_samples;
	struct vt_cut cut = { .sort_col = -1, .pct_col = -1, .show_col = -1, .top = in->top };
	uint32_t nf = engines__nfuncs(in->other), n = 0;
	struct frow *rows = malloc((nf ? nf : 1) * sizeof(*rows));
	unsigned hide = VT_NO_TEXT | VT_NO_MD;
	struct vcols s = { 0 };
	struct vt_table *t;
	int ret = -1;

	vcols__add(&s, "wasm_func", "wasm", VT_COUNT, 0);
	vcols__add(&s, "local_func", "local", VT_INT, 0);
	vcols__add(&s, "name", "name", VT_TEXT, VT_FLEX | VT_CODE);
	vcols__add(&s, "core", "core", VT_TEXT, hide);
	vcols__add(&s, "wamr_samples", "WAMR samples", VT_COUNT, hide);
	pct_col(&s, "wamr_percent_of_run", "WAMR", 0);
	s.c[5].md_head = "WAMR % of run";
	vcols__add(&s, "other_samples", "samples", VT_COUNT, hide);
	pct_col(&s, "other_percent_of_run", v->engine, 0);
	s.c[7].md_head = v->h_run;
	vcols__add(&s, "other_tier", "tier", VT_TEXT, hide);
	vcols__add(&s, NULL, "tier compared", VT_TEXT, 0);
	s.c[9].md_head = v->h_tier;
	if (!rows || !(t = v->funcs = vt_table__new(s.c, s.n)))
		goto out;
	for (uint32_t i = 0; i < nf; i++) {
		const struct eng_func *f = engines__func(in->other, i);

		if (f->kind != ENG_KIND_FUNCTION || f->local_func < 0 ||
		    f->module != in->oc->func->module)
			continue;
		rows[n++] = (struct frow){ cmp_side__func_samples(in->wamr, in->core,
								  (uint32_t)f->local_func),
					   f->samples, i };
	}
	qsort(rows, n, sizeof(*rows), by_samples);
	for (uint32_t i = 0; i < n; i++) {
		const struct eng_func *f = engines__func(in->other, rows[i].idx);
		const struct eng_code *c = engines__code(in->other, (uint32_t)f->best);
		const char *nm = (uint32_t)f->local_func < m->nfuncs ? m->funcs[f->local_func].name
								      : NULL;

		if (vt_table__add_row(t))
			goto out;
		vt_table__u64(t, 0, f->wasm_index);
		vt_table__i64(t, 1, f->local_func);
		vt_table__str(t, 2, nm ? nm : f->name);
		vt_table__str(t, 3, core_set__core_name(m));
		vt_table__u64(t, 4, rows[i].wamr);
		vt_table__dbl(t, 5, ap_pct(rows[i].wamr, v->wamr_run_total));
		vt_table__u64(t, 6, f->samples);
		vt_table__dbl(t, 7, ap_pct(f->samples, other_total));
		vt_table__str(t, 8, eng_tier__name(c->name.tier));
		vt_table__str(t, 9, c->name.tier_name ? c->name.tier_name
						      : eng_tier__name(c->name.tier));
	}
	ret = vt_table__cut(t, &cut);
out:
	free(rows);
	return ret;
}

int view_compare__new(const struct view_compare_input *in, struct view_compare **out,
		      struct ap_err *err)
{
	struct view_compare *v = calloc(1, sizeof(*v));
	const struct eng_code *c = in->oc->code;

	*out = NULL;
	if (!v)
		return ap_err_nomem(err);
	v->in = *in;
	v->engine = eng_engine__name(c->name.engine);
	v->wamr_run_total = cmp_side__total(in->wamr);
	if (c->name.tier_name)
		snprintf(v->tier, sizeof(v->tier), "%s (%s)", eng_tier__name(c->name.tier),
			 c->name.tier_name);
	else
		snprintf(v->tier, sizeof(v->tier), "%s", eng_tier__name(c->name.tier));
	snprintf(v->h_static, sizeof(v->h_static), "static %s", v->engine);
	snprintf(v->h_share, sizeof(v->h_share), "%.20s%%", v->engine);
	snprintf(v->h_share_md, sizeof(v->h_share_md), "%% of samples %s", v->engine);
	snprintf(v->h_lever, sizeof(v->h_lever), "%.5s %%func", v->engine);
	snprintf(v->h_run, sizeof(v->h_run), "%s %% of run", v->engine);
	snprintf(v->h_tier, sizeof(v->h_tier), "%s tier", v->engine);
	if (sides(v) || classes(v) || levers(v) || funcs(v)) {
		view_compare__delete(v);
		return ap_err_nomem(err);
	}
	*out = v;
	return 0;
}

void view_compare__delete(struct view_compare *v)
{
	if (!v)
		return;
	vt_table__delete(v->sides);
	vt_table__delete(v->classes);
	vt_table__delete(v->levers);
	vt_table__delete(v->funcs);
	free(v);
}
