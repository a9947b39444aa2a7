// SPDX-License-Identifier: MIT
/*
 * Call-graph views as text (callgraph.h): perf report --children's
 * Children/Self columns with the sample counts beside them, and a
 * function's callers or callees. Lines fit 80 columns: long names are cut
 * with "..." (the JSON has them whole).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "callgraph.h"
#include "../util/pct.h"

#define NAME_COLS 36	/* what 80 columns leave after the numbers */

const char *render__stack_name(const struct profile *p, const struct stack_sym *s, char *buf,
			       size_t len)
{
	const struct cwasm_module *m;
	const char *wname;

	if (s->kind != STACK_WASM)
		return s->name;
	m = p->attr.cores[s->core].mod;
	wname = s->func < m->nfuncs ? m->funcs[s->func].name : NULL;
	snprintf(buf, len, "%s%slocal_func_%u%s%s",
		 p->attr.ncores > 1 ? core_set__core_name(m) : "", p->attr.ncores > 1 ? ":" : "",
		 s->func, wname ? ":" : "", wname ? wname : "");
	return buf;
}

int64_t render__stack_find(const struct profile *p, const char *spec)
{
	const struct profile_stacks *st = p->stacks;
	struct core_func cf;
	struct ap_err err;
	char buf[256];

	if (!core_set__resolve(p->cs, spec, &cf, &err))
		return stacks__find_wasm(st, cf.core, cf.func);
	for (uint32_t i = 1; i < st->nsyms; i++)
		if (!strcmp(render__stack_name(p, &st->syms[i], buf, sizeof(buf)), spec))
			return i;
	return -1;
}

/* name cut to cols columns */
static const char *fit(const char *name, char *buf, size_t cols)
{
	size_t n = strlen(name);

	if (n <= cols)
		return name;
	snprintf(buf, cols + 1, "%.*s...", (int)(cols - 3), name);
	return buf;
}

static const char *mode_name(enum stacks_mode m)
{
	switch (m) {
	case STACKS_FP: return "frame pointers (perf record -g)";
	case STACKS_DWARF: return "registers + stack (--call-graph=dwarf)";
	default: return "none";
	}
}

void render__callgraph_summary(FILE *out, const struct profile *p)
{
	const struct profile_stacks *st = p->stacks;
	uint64_t n = st->samples;

	fprintf(out, "  call graph          %s\n", mode_name(st->mode));
	fprintf(out, "  stacks              %" PRIu64 "  (deepest %" PRIu64 " frames)\n", n,
		st->max_depth);
	if (st->fp_samples)
		fprintf(out, "  caller unknown      %" PRIu64 "  (%.2f%%: -g chain skipped the"
			" immediate caller)\n", st->caller_unknown, ap_pct(st->caller_unknown, n));
	if (st->caller_from_lr)
		fprintf(out, "  caller from x30     %" PRIu64 "  (%.2f%%: skipped by the chain,"
			" named by x30)\n", st->caller_from_lr, ap_pct(st->caller_from_lr, n));
	if (st->dwarf_samples)
		fprintf(out, "  cut in wasm code    %" PRIu64 "  (%.2f%%: no rule or stack copy"
			" too short)\n", st->cut, ap_pct(st->cut, n));
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

uint32_t *render__stack_order(const struct profile *p, uint32_t *n)
{
	const struct profile_stacks *st = p->stacks;
	uint32_t *v = malloc((st->nsyms + 1) * sizeof(*v));

	*n = 0;
	if (!v)
		return NULL;
	for (uint32_t i = 1; i < st->nsyms; i++)
		if (st->syms[i].kind != STACK_UNKNOWN)
			v[(*n)++] = i;
	qsort_r(v, *n, sizeof(*v), sym_cmp, st->syms);
	return v;
}

void render__callgraph_children(FILE *out, const struct profile *p, uint64_t top,
				double percent_limit)
{
	const struct profile_stacks *st = p->stacks;
	uint64_t tot = st->samples;
	char name[256], cut[NAME_COLS + 1];
	uint32_t n, *order = render__stack_order(p, &n);

	if (!order) {
		fprintf(out, "  (out of memory)\n");
		return;
	}
	if (top && top < n)
		n = (uint32_t)top;
	/* perf's limit with --children: on the inclusive share, which orders the rows */
	while (n && ap_pct(st->syms[order[n - 1]].total, tot) < percent_limit)
		n--;
	fprintf(out, "\n  %8s  %8s  %8s  %8s  %s\n", "Children", "Self", "Children", "Self",
		"Symbol");
	fprintf(out, "  %8s  %8s  %8s  %8s\n", "% run", "% run", "samples", "samples");
	for (uint32_t i = 0; i < n; i++) {
		const struct stack_sym *s = &st->syms[order[i]];

		fprintf(out, "  %7.2f%%  %7.2f%%  %8" PRIu64 "  %8" PRIu64 "  %s\n",
			ap_pct(s->total, tot), ap_pct(s->self, tot), s->total, s->self,
			fit(render__stack_name(p, s, name, sizeof(name)), cut, NAME_COLS));
	}
	free(order);
}

/* Samples where SYM is the outermost frame (no caller at all). */
static uint64_t outermost(const struct profile_stacks *st, uint32_t sym)
{
	uint64_t n = 0;

	for (uint32_t c = st->nodes[0].child; c; c = st->nodes[c].next)
		if (st->nodes[c].sym == sym)
			n += st->nodes[c].total;
	return n;
}

/* One row of a callers/callees table: an edge, or the (self) / outermost line. */
struct edge_row {
	uint64_t samples;
	uint32_t sym;		/* the other end, when label is NULL */
	const char *label;
	size_t order;		/* ties keep the edges' own order */
};

static int edge_row_cmp(const void *a, const void *b)
{
	const struct edge_row *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

void render__callgraph_edges(FILE *out, const struct profile *p, uint32_t sym, int callers)
{
	const struct profile_stacks *st = p->stacks;
	const struct stack_sym *s = &st->syms[sym];
	char name[256], other[256], cut[NAME_COLS + 1 + 8];
	uint64_t top = callers ? outermost(st, sym) : 0;
	struct edge_row *rows = calloc(st->nedges + 1, sizeof(*rows));
	size_t n = 0;

	fprintf(out, "\n%s of %s\n", callers ? "callers" : "callees",
		render__stack_name(p, s, name, sizeof(name)));
	fprintf(out, "  %" PRIu64 " samples in its stacks (%.2f%% of run), %" PRIu64 " self\n",
		s->total, ap_pct(s->total, st->samples), s->self);
	fprintf(out, "  %8s  %7s  %s\n", "Samples", "%func", callers ? "Caller" : "Callee");
	if (!rows) {
		fprintf(out, "  (out of memory)\n");
		return;
	}
	for (uint32_t i = 0; i < st->nedges; i++) {
		const struct stack_edge *e = &st->edges[i];

		if ((callers ? e->callee : e->caller) != sym)
			continue;
		rows[n].samples = e->samples;
		rows[n].order = n;
		rows[n++].sym = callers ? e->caller : e->callee;
	}
	/* the function's own share sorts with its callees, as perf's (self) does */
	if (callers && top)
		rows[n] = (struct edge_row){ top, 0, "(outermost frame: no caller seen)", n }, n++;
	if (!callers && s->self)
		rows[n] = (struct edge_row){ s->self, 0, "(self)", n }, n++;
	qsort(rows, n, sizeof(*rows), edge_row_cmp);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "  %8" PRIu64 "  %6.2f%%  %s\n", rows[i].samples,
			ap_pct(rows[i].samples, s->total), rows[i].label ? rows[i].label :
			fit(render__stack_name(p, &st->syms[rows[i].sym], other, sizeof(other)),
			    cut, NAME_COLS + 8));
	free(rows);
}
