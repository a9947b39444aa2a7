// SPDX-License-Identifier: MIT
/*
 * The call-graph view in time, for report --cpu-state off|both
 * (callgraph.h): per wasm function its inclusive and self off-CPU (or
 * wall: on + off) time, and an asked function's off-CPU callers or
 * callees from the off-CPU stacks (profile/offcpu.h).
 */
#include <stdlib.h>
#include <string.h>
#include "callgraph-internal.h"
#include "../profile/offcpu.h"
#include "../util/pct.h"

static uint64_t children_ns(const struct offcpu_func *f, enum view_cpu_state state)
{
	return f->off_incl_ns + (state == VIEW_CPU_BOTH ? f->on_incl_ns : 0);
}

static uint64_t self_ns(const struct offcpu_func *f, enum view_cpu_state state)
{
	return f->off_self_ns + (state == VIEW_CPU_BOTH ? f->on_ns : 0);
}

static int func_cmp(const void *a, const void *b, void *ctx)
{
	const struct view_callgraph *v = ctx;
	const struct offcpu_func *x = &v->in.p->offcpu->funcs[*(const uint32_t *)a];
	const struct offcpu_func *y = &v->in.p->offcpu->funcs[*(const uint32_t *)b];
	uint64_t cx = children_ns(x, v->in.state), cy = children_ns(y, v->in.state);
	uint64_t sx = self_ns(x, v->in.state), sy = self_ns(y, v->in.state);

	if (cx != cy)
		return cx > cy ? -1 : 1;
	if (sx != sy)
		return sx > sy ? -1 : 1;
	return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

/* Per wasm function with time: inclusive, then self, most first; cut to --top. */
static int children(struct view_callgraph *v)
{
	const struct profile *p = v->in.p;
	const struct profile_offcpu *oc = p->offcpu;
	struct vt_cut cut = { .sort_col = -1, .pct_col = -1, .show_col = -1, .top = v->in.top };
	unsigned h = VT_NO_TEXT | VT_NO_MD;
	struct vcols s = { 0 };
	uint32_t ch, self, name, core, func, n = 0, *order;
	int ret = -1;

	ch = vcols__add(&s, "children_ns", "Children", VT_NS, 0);
	vcols__prec(&s, 3, -1);
	self = vcols__add(&s, "self_ns", "Self", VT_NS, 0);
	vcols__prec(&s, 3, -1);
	name = vcols__add(&s, "name", "Symbol", VT_TEXT, VT_FLEX | VT_CODE);
	core = vcols__add(&s, "core", "core", VT_TEXT, h);
	func = vcols__add(&s, "local_func", "local_func", VT_COUNT, h);
	if (!(order = malloc((oc->nfuncs + 1) * sizeof(*order))) ||
	    !(v->children_time = vt_table__new(s.c, s.n)))
		goto out;
	for (uint32_t i = 0; i < oc->nfuncs; i++)
		if (children_ns(&oc->funcs[i], v->in.state) || self_ns(&oc->funcs[i], v->in.state))
			order[n++] = i;
	qsort_r(order, n, sizeof(*order), func_cmp, v);
	for (uint32_t i = 0; i < n; i++) {
		const struct offcpu_func *f = &oc->funcs[order[i]];
		struct vt_table *t = v->children_time;
		char nm[512];

		if (vt_table__add_row(t) ||
		    vt_table__strf(t, name, "%s", view__wasm_name(p, f->core, f->func, nm,
								   sizeof(nm))))
			goto out;
		vt_table__dbl(t, ch, (double)children_ns(f, v->in.state));
		vt_table__dbl(t, self, (double)self_ns(f, v->in.state));
		vt_table__str(t, core, core_set__core_name(p->attr.cores[f->core].mod));
		vt_table__u64(t, func, f->func);
	}
	ret = vt_table__cut(v->children_time, &cut);
out:
	free(order);
	return ret;
}

/* The other end of an off-CPU edge, summed over the stacks through the function. */
enum { END_WASM, END_OUTERMOST, END_SELF };
struct end {
	int kind;
	uint64_t frame;		/* END_WASM: core << 32 | func */
	const char *via;	/* END_SELF: the host frame waited in, NULL: none named */
	uint64_t ns;
};

struct ends {
	struct end *v;
	size_t n;
};

static void end_add(struct ends *e, int kind, uint64_t frame, const char *via, uint64_t ns)
{
	for (size_t i = 0; i < e->n; i++) {
		struct end *x = &e->v[i];

		if (x->kind == kind && x->frame == frame &&
		    (x->via == via || (x->via && via && !strcmp(x->via, via)))) {
			x->ns += ns;
			return;
		}
	}
	e->v[e->n++] = (struct end){ kind, frame, via, ns };
}

/* Each stack through want counts once, at its outermost occurrence (a recursion). */
static uint64_t collect(const struct profile_offcpu *oc, uint64_t want, int callers,
			struct ends *e)
{
	uint64_t through = 0;

	for (uint32_t i = 0; i < oc->nstacks; i++) {
		const struct offcpu_stack *s = &oc->stacks[i];
		const uint64_t *fr = oc->frames + s->off;
		uint32_t k = 0;

		for (uint32_t j = 0; j < s->n; j++)
			if (fr[j] == want)
				k = j + 1;
		if (!k--)
			continue;
		through += s->ns;
		if (callers && k + 1 < s->n)
			end_add(e, END_WASM, fr[k + 1], NULL, s->ns);
		else if (callers)
			end_add(e, END_OUTERMOST, 0, NULL, s->ns);
		else if (k > 0)
			end_add(e, END_WASM, fr[k - 1], NULL, s->ns);
		else
			end_add(e, END_SELF, 0, s->via, s->ns);
	}
	return through;
}

static int end_put(struct vt_table *t, const struct profile *p, const struct end *x,
		   uint64_t through)
{
	char nm[512];

	if (vt_table__add_row(t))
		return -1;
	vt_table__dbl(t, 0, (double)x->ns);
	vt_table__dbl(t, 1, ap_pct(x->ns, through));
	if (x->kind == END_WASM) {
		struct stack_sym sym = { .kind = STACK_WASM, .core = (uint32_t)(x->frame >> 32),
					 .func = (uint32_t)x->frame };

		return vcg__name_put(t, 2, p, &sym);
	}
	if (x->kind == END_OUTERMOST)
		return vcg__edge_special(t, 2, "outermost", "(outermost wasm frame)");
	snprintf(nm, sizeof(nm), "(self%s%s)", x->via ? ", waits in " : "", x->via ? x->via : "");
	return vcg__edge_special(t, 2, "self", nm);
}

/* An asked wasm function's off-CPU callers or callees (asked: its on-CPU edges). */
static int edges(struct view_callgraph *v, struct view_cg_edges *e,
		 const struct view_cg_edges *asked)
{
	const struct profile *p = v->in.p;
	const struct profile_offcpu *oc = p->offcpu;
	const struct stack_sym sym = { .kind = STACK_WASM, .core = asked->core,
				       .func = asked->func };
	const struct stack_sym *x = &sym;
	int callers = asked->callers;
	struct vt_cut cut = { .sort_col = 0, .descending = 1, .pct_col = -1, .show_col = -1 };
	struct ends ends = { NULL, 0 };
	struct vcols s = { 0 }, hs = { 0 };
	uint32_t name, ns;
	uint64_t through;
	int ret = -1;

	e->callers = callers;
	e->sym = asked->sym;
	e->wasm = asked->wasm;
	e->core = asked->core;
	e->func = asked->func;
	if (!asked->wasm)
		return 0;	/* waits are a wasm function's */
	ends.v = calloc(oc->nstacks + 1, sizeof(struct end));
	vcg__edge_cols(&s, callers, 1);
	name = vcg__name_cols(&hs, "function", 0);
	ns = vcols__add(&hs, "off_cpu_ns", "ms off CPU in its stacks", VT_NS, 0);
	vcols__prec(&hs, 3, -1);
	if (!ends.v || !(e->head = vt_table__new(hs.c, hs.n)) ||
	    !(e->rows = vt_table__new(s.c, s.n)) || vt_table__add_row(e->head) ||
	    vcg__name_put(e->head, name, p, x))
		goto out;
	through = collect(oc, (uint64_t)x->core << 32 | x->func, callers, &ends);
	vt_table__dbl(e->head, ns, (double)through);
	for (size_t i = 0; i < ends.n; i++)
		if (end_put(e->rows, p, &ends.v[i], through))
			goto out;
	ret = vt_table__cut(e->head, NULL) || vt_table__cut(e->rows, &cut) ? -1 : 0;
out:
	free(ends.v);
	return ret;
}

int vcg__time(struct view_callgraph *v, uint32_t nedges)
{
	v->time_words = v->in.state == VIEW_CPU_BOTH ? "wall (on + off CPU)" : "off-CPU";
	if (!v->in.p->offcpu)
		return 0;
	if (!(v->time_edges = calloc(nedges + 1, sizeof(*v->time_edges))) || children(v))
		return -1;
	for (uint32_t i = 0; i < nedges; i++)
		if (edges(v, &v->time_edges[i], &v->edges[i]))
			return -1;
	return 0;
}
