// SPDX-License-Identifier: MIT
/*
 * The call-graph view in samples (callgraph.h): how the stacks were read,
 * the --children table cut once, each asked function's callers or callees.
 */
#include <stdlib.h>
#include "callgraph-internal.h"
#include "../util/pct.h"

static const char *const mode_words[] = {
	[STACKS_NONE] = "none", [STACKS_FP] = "frame pointers (perf record -g)",
	[STACKS_DWARF] = "registers + stack (--call-graph=dwarf)",
};
static const char *const mode_keys[] = { "none", "fp", "dwarf" };

/* The summary's one row, columns in enum vcg_summary's order. */
static int summary(struct view_callgraph *v)
{
	static const char *const keys[] = {
		"samples", "fp_samples", "dwarf_samples", "caller_unknown", "caller_from_lr", "cut",
		"max_depth", "distinct_stacks", "caller_unknown_pct", "caller_from_lr_pct", "cut_pct",
	};
	const struct profile_stacks *st = v->in.p->stacks;
	uint64_t n = st->samples;
	struct vcols s = { 0 };
	struct vt_table *t;

	vcols__add(&s, "mode", "mode", VT_TEXT, 0);
	for (uint32_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		vcols__add(&s, keys[i], keys[i], i < VCG_S_UNKNOWN_PCT - 1 ? VT_COUNT : VT_PERCENT,
			   0);
	if (!(t = v->summary = vt_table__new(s.c, s.n)) || vt_table__add_row(t))
		return -1;
	vt_table__str(t, VCG_S_MODE, v->mode_key);
	vt_table__u64(t, VCG_S_SAMPLES, n);
	vt_table__u64(t, VCG_S_FP, st->fp_samples);
	vt_table__u64(t, VCG_S_DWARF, st->dwarf_samples);
	vt_table__u64(t, VCG_S_UNKNOWN, st->caller_unknown);
	vt_table__u64(t, VCG_S_FROM_LR, st->caller_from_lr);
	vt_table__u64(t, VCG_S_CUT, st->cut);
	vt_table__u64(t, VCG_S_DEPTH, st->max_depth);
	vt_table__u64(t, VCG_S_DISTINCT, st->nnodes - 1);
	/* a share where it means something: -g chains, x30, dwarf unwinding */
	if (st->fp_samples)
		vt_table__dbl(t, VCG_S_UNKNOWN_PCT, ap_pct(st->caller_unknown, n));
	if (st->caller_from_lr)
		vt_table__dbl(t, VCG_S_FROM_LR_PCT, ap_pct(st->caller_from_lr, n));
	if (st->dwarf_samples)
		vt_table__dbl(t, VCG_S_CUT_PCT, ap_pct(st->cut, n));
	return vt_table__cut(t, NULL);
}

static int sym_cmp(const void *a, const void *b, void *ctx)
{
	const struct stack_sym *syms = ctx;
	const struct stack_sym *x = &syms[*(const uint32_t *)a], *y = &syms[*(const uint32_t *)b];

	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	if (x->self != y->self)
		return x->self > y->self ? -1 : 1;
	return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

/* --children: every symbol but the root and the marker, most inclusive first, then most self. */
static int children(struct view_callgraph *v)
{
	const struct profile *p = v->in.p;
	const struct profile_stacks *st = p->stacks;
	struct vcols s = { 0 };
	uint32_t cpct, spct, csmp, ssmp, name, unk, n = 0, *order;
	struct vt_cut cut = { .sort_col = -1, .show_col = -1, .top = v->in.top,
			      .min_pct = v->in.percent_limit };
	struct vt_table *t;
	int ret = -1;

	/* perf's limit with --children: on the inclusive share, which orders the rows */
	cut.pct_col = (int)(cpct = vcols__add(&s, "children_pct", "Children", VT_PERCENT,
					      VT_PCT));
	vcols__prec(&s, -1, 2);
	spct = vcols__add(&s, "self_pct", "Self", VT_PERCENT, VT_PCT);
	vcols__prec(&s, -1, 2);
	csmp = vcols__add(&s, "children_samples", "Incl samples", VT_COUNT, 0);
	ssmp = vcols__add(&s, "self_samples", "Self samples", VT_COUNT, 0);
	name = vcg__name_cols(&s, "Symbol", VT_FLEX | VT_CODE);
	unk = vcols__add(&s, "caller_unknown", "caller unknown", VT_COUNT, VT_NO_TEXT | VT_NO_MD);
	if (!(order = malloc((st->nsyms + 1) * sizeof(*order))) ||
	    !(t = v->children = vt_table__new(s.c, s.n)))
		goto out;
	for (uint32_t i = 1; i < st->nsyms; i++)
		if (st->syms[i].kind != STACK_UNKNOWN)
			order[n++] = i;
	qsort_r(order, n, sizeof(*order), sym_cmp, st->syms);
	for (uint32_t i = 0; i < n; i++) {
		const struct stack_sym *x = &st->syms[order[i]];

		if (vt_table__add_row(t) || vcg__name_put(t, name, p, x))
			goto out;
		vt_table__dbl(t, cpct, ap_pct(x->total, st->samples));
		vt_table__dbl(t, spct, ap_pct(x->self, st->samples));
		vt_table__u64(t, csmp, x->total);
		vt_table__u64(t, ssmp, x->self);
		vt_table__u64(t, unk, x->caller_unknown);
	}
	ret = vt_table__cut(t, &cut);
out:
	free(order);
	return ret;
}

/* Samples where sym is the outermost frame (no caller at all). */
static uint64_t outermost(const struct profile_stacks *st, uint32_t sym)
{
	uint64_t n = 0;

	for (uint32_t c = st->nodes[0].child; c; c = st->nodes[c].next)
		if (st->nodes[c].sym == sym)
			n += st->nodes[c].total;
	return n;
}

/* The asked function's row: its naming keys, inclusive and self samples, share of the run. */
static int edge_head(struct view_callgraph *v, struct view_cg_edges *e, uint32_t sym)
{
	const struct profile_stacks *st = v->in.p->stacks;
	const struct stack_sym *x = &st->syms[sym];
	struct vcols s = { 0 };
	uint32_t name, tot, self, pct;

	name = vcg__name_cols(&s, "function", 0);
	tot = vcols__add(&s, "children_samples", "samples", VT_COUNT, 0);
	self = vcols__add(&s, "self_samples", "self", VT_COUNT, 0);
	pct = vcols__add(&s, "children_pct", "% of run", VT_PERCENT, 0);
	if (!(e->head = vt_table__new(s.c, s.n)) || vt_table__add_row(e->head) ||
	    vcg__name_put(e->head, name, v->in.p, x))
		return -1;
	vt_table__u64(e->head, tot, x->total);
	vt_table__u64(e->head, self, x->self);
	vt_table__dbl(e->head, pct, ap_pct(x->total, st->samples));
	return vt_table__cut(e->head, NULL);
}

/*
 * What the user named: its stack symbol, or (off-CPU) a wasm function in
 * none; 0, or -1 with err when neither.
 */
static int resolve(const struct view_callgraph *v, struct view_cg_edges *e, const char *spec,
		   int callers, struct ap_err *err)
{
	const struct profile *p = v->in.p;
	struct core_func cf;
	struct ap_err ignored;

	e->callers = callers;
	e->sym = view__stack_find(p, spec);
	if (e->sym >= 0 && p->stacks->syms[e->sym].kind == STACK_WASM) {
		e->wasm = 1;
		e->core = p->stacks->syms[e->sym].core;
		e->func = p->stacks->syms[e->sym].func;
	} else if (e->sym < 0 && v->in.state != VIEW_CPU_ON &&
		   !core_set__resolve(p->cs, spec, &cf, &ignored)) {
		e->wasm = 1;
		e->core = cf.core;
		e->func = cf.func;
	}
	if (e->sym < 0 && !e->wasm)
		return ap_errf(err, "%s: '%s' is in no stack of %s", callers ? "--callers" :
			       "--callees", spec, p->input);
	return 0;
}

/* One function's callers or callees (its (self) or outermost share among them), most first. */
static int edges(struct view_callgraph *v, struct view_cg_edges *e)
{
	const struct profile *p = v->in.p;
	const struct profile_stacks *st = p->stacks;
	uint32_t sym = (uint32_t)e->sym;
	const struct stack_sym *x = &st->syms[sym];
	int callers = e->callers;
	uint64_t top = callers ? outermost(st, sym) : 0;
	struct vt_cut cut = { .sort_col = 0, .descending = 1, .pct_col = -1, .show_col = -1 };
	struct vcols s = { 0 };
	struct vt_table *t;

	vcg__edge_cols(&s, callers, 0);
	if (edge_head(v, e, sym) || !(t = e->rows = vt_table__new(s.c, s.n)))
		return -1;
	for (uint32_t i = 0; i < st->nedges; i++) {
		const struct stack_edge *ed = &st->edges[i];

		if ((callers ? ed->callee : ed->caller) != sym)
			continue;
		if (vt_table__add_row(t) ||
		    vcg__name_put(t, 2, p, &st->syms[callers ? ed->caller : ed->callee]))
			return -1;
		vt_table__u64(t, 0, ed->samples);
		vt_table__dbl(t, 1, ap_pct(ed->samples, x->total));
	}
	/* the function's own share sorts with its callees, as perf's (self) does */
	if ((callers && top) || (!callers && x->self)) {
		uint64_t n = callers ? top : x->self;

		if (vt_table__add_row(t) ||
		    vcg__edge_special(t, 2, callers ? "outermost" : "self",
				      callers ? "(outermost frame: no caller seen)" : "(self)"))
			return -1;
		vt_table__u64(t, 0, n);
		vt_table__dbl(t, 1, ap_pct(n, x->total));
	}
	return vt_table__cut(t, &cut);
}

uint32_t view_callgraph__nedges(const struct view_callgraph *v)
{
	return v->in.ncallers + v->in.ncallees;
}

int view_callgraph__new(const struct view_callgraph_input *in, struct view_callgraph **out,
			struct ap_err *err)
{
	struct view_callgraph *v = calloc(1, sizeof(*v));
	uint32_t n = in->ncallers + in->ncallees;

	*out = NULL;
	if (!v)
		return ap_err_nomem(err);
	v->in = *in;
	v->mode_words = mode_words[in->p->stacks->mode];
	v->mode_key = mode_keys[in->p->stacks->mode];
	if (!(v->edges = calloc(n + 1, sizeof(*v->edges))))
		goto nomem;
	for (uint32_t i = 0; i < n; i++)
		if (resolve(v, &v->edges[i], i < in->ncallers ? in->callers[i]
							      : in->callees[i - in->ncallers],
			    i < in->ncallers, err)) {
			view_callgraph__delete(v);
			return -1;
		}
	if (summary(v) || children(v))
		goto nomem;
	for (uint32_t i = 0; i < n; i++)
		if (v->edges[i].sym >= 0 && edges(v, &v->edges[i]))
			goto nomem;
	if (in->state != VIEW_CPU_ON && vcg__time(v, view_callgraph__nedges(v)))
		goto nomem;
	*out = v;
	return 0;
nomem:
	view_callgraph__delete(v);
	return ap_err_nomem(err);
}

static void edges_delete(struct view_cg_edges *e, uint32_t n)
{
	for (uint32_t i = 0; e && i < n; i++) {
		vt_table__delete(e[i].head);
		vt_table__delete(e[i].rows);
	}
	free(e);
}

void view_callgraph__delete(struct view_callgraph *v)
{
	if (!v)
		return;
	vt_table__delete(v->summary);
	vt_table__delete(v->children);
	edges_delete(v->edges, view_callgraph__nedges(v));
	vt_table__delete(v->children_time);
	edges_delete(v->time_edges, view_callgraph__nedges(v));
	free(v);
}
