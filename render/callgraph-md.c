// SPDX-License-Identifier: MIT
/* The call-graph view as Markdown sections (callgraph.h, render/markdown.h). */
#include "callgraph.h"
#include "markdown.h"
#include "table.h"
#include "../view/callgraph.h"

static const char *head(const struct vt_table *t, const char *key, char *buf, size_t len)
{
	int c = vt_table__find(t, key);

	return render__cell(vt_table__col(t, (uint32_t)c), vt_table__cell(t, 0, (uint32_t)c), buf,
			    len);
}

static int edges(FILE *f, const char *path, const struct view_cg_edges *e, int time,
		 struct ap_err *err)
{
	char name[512], a[32], b[32], c[32];

	fprintf(f, "### %s%s of ", time ? "Off-CPU c" : "C", e->callers ? "allers" : "allees");
	md__fputs(f, head(e->head, "name", name, sizeof(name)));
	if (time)
		fprintf(f, "\n\n%s ms off CPU in its stacks.\n\n",
			head(e->head, "off_cpu_ns", a, sizeof(a)));
	else
		fprintf(f, "\n\n%s samples in its stacks (%s%% of run), %s self.\n\n",
			head(e->head, "children_samples", a, sizeof(a)),
			head(e->head, "children_pct", b, sizeof(b)),
			head(e->head, "self_samples", c, sizeof(c)));
	return render__table_md(f, path, e->rows, err);
}

int render__callgraph_markdown(FILE *f, const char *path, const struct view_callgraph *v,
			       int children, struct ap_err *err)
{
	char a[32], b[32];
	const struct vt_table *s = v->summary;

	static const char *const shares[][3] = {
		{ "caller_unknown", "caller_unknown_pct", "Caller unknown (the -g chain skipped it)" },
		{ "caller_from_lr", "caller_from_lr_pct", "Caller named by x30" },
		{ "cut", "cut_pct", "Cut in wasm code" },
	};

	fprintf(f, "## Call graph\n\nStacks from %s: %s samples, the deepest %s frames.",
		v->mode_words, head(s, "samples", a, sizeof(a)), head(s, "max_depth", b, sizeof(b)));
	for (int i = 0; i < 3; i++)
		if (vt_table__cell(s, 0, (uint32_t)vt_table__find(s, shares[i][1]))->present)
			fprintf(f, " %s: %s (%s%%).", shares[i][2], head(s, shares[i][0], a, sizeof(a)),
				head(s, shares[i][1], b, sizeof(b)));
	fprintf(f, "\n\n");
	if (children && v->in.state == VIEW_CPU_ON &&
	    (fprintf(f, "### Inclusive (children) and self samples\n\n"),
	     render__table_md(f, path, v->children, err)))
		return -1;
	if (children && v->in.state != VIEW_CPU_ON && v->children_time &&
	    (fprintf(f, "### %s time per wasm function (ms)\n\n", v->time_words),
	     render__table_md(f, path, v->children_time, err)))
		return -1;
	for (uint32_t i = 0; i < view_callgraph__nedges(v); i++) {
		if (v->in.state != VIEW_CPU_OFF && v->edges[i].head &&
		    edges(f, path, &v->edges[i], 0, err))
			return -1;
		if (v->time_edges && v->time_edges[i].head &&
		    edges(f, path, &v->time_edges[i], 1, err))
			return -1;
	}
	return 0;
}
