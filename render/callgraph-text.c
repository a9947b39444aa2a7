// SPDX-License-Identifier: MIT
/*
 * The call-graph view as text (callgraph.h): perf report --children's
 * Children/Self columns with the sample counts beside them, a function's
 * callers or callees, in samples or in off-CPU time. Names take the width
 * left (the JSON has them whole).
 */
#include <stdio.h>
#include "callgraph.h"
#include "table.h"
#include "../view/callgraph.h"

/* A summary cell in words. */
static const char *cell(const struct view_callgraph *v, uint32_t c, char *buf, size_t len)
{
	return render__cell(vt_table__col(v->summary, c), vt_table__cell(v->summary, 0, c), buf,
			    len);
}

/* "  LABEL  COUNT  (PCT%: WHY)" when the share applies */
static void share_line(FILE *out, const struct view_callgraph *v, const char *label,
		       uint32_t count, uint32_t pct, const char *why)
{
	char a[32], b[32];

	if (!vt_table__cell(v->summary, 0, pct)->present)
		return;
	fprintf(out, "  %-19s %s  (%s%%: %s)\n", label, cell(v, count, a, sizeof(a)),
		cell(v, pct, b, sizeof(b)), why);
}

static void summary(FILE *out, const struct view_callgraph *v)
{
	char a[32], b[32];

	fprintf(out, "  call graph          %s\n", v->mode_words);
	fprintf(out, "  stacks              %s  (deepest %s frames)\n",
		cell(v, VCG_S_SAMPLES, a, sizeof(a)), cell(v, VCG_S_DEPTH, b, sizeof(b)));
	share_line(out, v, "caller unknown", VCG_S_UNKNOWN, VCG_S_UNKNOWN_PCT,
		   "-g chain skipped the immediate caller");
	share_line(out, v, "caller from x30", VCG_S_FROM_LR, VCG_S_FROM_LR_PCT,
		   "skipped by the chain, named by x30");
	share_line(out, v, "cut in wasm code", VCG_S_CUT, VCG_S_CUT_PCT,
		   "no rule or stack copy too short");
}

/* The asked function's head cell c in words. */
static const char *head(const struct view_cg_edges *e, const char *key, char *buf, size_t len)
{
	int c = vt_table__find(e->head, key);

	return render__cell(vt_table__col(e->head, (uint32_t)c),
			    vt_table__cell(e->head, 0, (uint32_t)c), buf, len);
}

static void edges(FILE *out, const struct view_cg_edges *e, unsigned columns)
{
	char name[512], a[32], b[32], c[32];

	fprintf(out, "\n%s of %s\n", e->callers ? "callers" : "callees",
		head(e, "name", name, sizeof(name)));
	fprintf(out, "  %s samples in its stacks (%s%% of run), %s self\n",
		head(e, "children_samples", a, sizeof(a)), head(e, "children_pct", b, sizeof(b)),
		head(e, "self_samples", c, sizeof(c)));
	render__table_text(out, e->rows, columns, 2, 0);
}

static void time_edges(FILE *out, const struct view_cg_edges *e, unsigned columns)
{
	char name[512], a[32];

	fprintf(out, "\noff-CPU %s of %s\n", e->callers ? "callers" : "callees",
		head(e, "name", name, sizeof(name)));
	fprintf(out, "  %s ms off CPU in its stacks\n", head(e, "off_cpu_ns", a, sizeof(a)));
	render__table_text(out, e->rows, columns, 2, 0);
}

void render__callgraph_text(FILE *out, const struct view_callgraph *v, int children,
			    unsigned columns)
{
	summary(out, v);
	if (children && v->in.state == VIEW_CPU_ON) {
		fputc('\n', out);
		render__table_text(out, v->children, columns, 2, 0);
	} else if (children && v->children_time) {
		fprintf(out, "\n  %s time per wasm function (ms)\n", v->time_words);
		render__table_text(out, v->children_time, columns, 2, 0);
	}
	for (uint32_t i = 0; i < view_callgraph__nedges(v); i++) {
		if (v->in.state != VIEW_CPU_OFF && v->edges[i].head)
			edges(out, &v->edges[i], columns);
		if (v->time_edges && v->time_edges[i].head)
			time_edges(out, &v->time_edges[i], columns);
	}
}
