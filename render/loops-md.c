// SPDX-License-Identifier: MIT
/*
 * A classified function's hot loops and the what-if per lever as GitHub
 * Markdown (render/markdown.h): the view's tables (view/loops.h) the text
 * report prints (render/loops.c), for report --markdown.
 */
#include <inttypes.h>
#include <stdlib.h>
#include "loops.h"
#include "markdown.h"
#include "table.h"
#include "../loops/mca.h"

/* Escaped prose: fputs of md__fputs, then the end of the line. */
static void prose(FILE *f, const char *text, const char *end)
{
	md__fputs(f, text);
	fputs(end, f);
}

static void verdict(FILE *f, const struct view_loops *v)
{
	fputs("**what pays:** ", f);
	for (uint32_t k = 0; k < v->npays; k++) {
		const struct view_loop_pay *p = &v->pays[k];

		if (v->sampled)
			fprintf(f, "%s%s: %.0f%% of samples, %.0f%% predicted payoff", k ? "; " : "",
				view__lever_words(p->lever), p->sample_pct, p->payoff);
		else
			fprintf(f, "%s%s: %.0f%% predicted payoff", k ? "; " : "",
				view__lever_words(p->lever), p->payoff);
	}
	if (!v->npays)
		fputs("no lever has instructions in this loop.\n\n", f);
	else if (!v->pays_most)
		fputs(". No lever pays here (each under 2%): the loop is bound by what stays.\n\n", f);
	else
		fprintf(f, ". Pays most: **%s** (%.0f%% faster loop predicted).\n\n",
			view__lever_words(v->pays[0].lever), v->pays[0].payoff);
}

int render__loops_md(FILE *f, const char *name, const struct view_loops *v, struct ap_err *err)
{
	const struct lp_func *lf;
	const struct lp_loop *l;
	char buf[1400];

	if (!v)
		return 0;
	lf = v->lf;
	if (!lf->nloops) {
		fputs("hot loops: none (no back edge)\n\n", f);
		return 0;
	}
	fprintf(f, "**hot loops** (%u; %s)\n\n", lf->nloops,
		v->sampled ? "hottest first" : "largest first");
	if (render__table_md(f, name, v->loops, err))
		return -1;
	if (!lf->model.asked)
		return 0;
	l = &lf->loops[0];
	if (!v->modelled) {
		snprintf(buf, sizeof(buf), "throughput model: %s", *lf->model.note ? lf->model.note :
			 "llvm-mca gave no numbers for the hottest loop");
		prose(f, buf, "\n\n");
		return 0;
	}
	snprintf(buf, sizeof(buf), "hottest loop, its executed path (%u instructions) modelled by "
		 "%s -mcpu=%s: %.2f cycles/iteration as compiled; cpu: %s; bottleneck: %s",
		 l->npath, lf->model.tool, lf->model.mcpu, l->base.cycles_per_iter, lf->model.why,
		 l->bottleneck);
	prose(f, buf, "\n\n");
	if (render__table_md(f, name, v->whatif, err))
		return -1;
	for (uint32_t k = 0; k < v->nnot_modelled; k++) {
		snprintf(buf, sizeof(buf), "%s: n/m, not modelled: %s",
			 lp_lever__name((enum lp_lever)v->not_modelled[k]),
			 l->lever[v->not_modelled[k]].not_modelled);
		prose(f, buf, "\n\n");
	}
	if (v->no_verdict)	/* the hottest loop is where samples of other code fell */
		fprintf(f, "**what pays:** no verdict: %s.\n\n", v->no_verdict);
	else
		verdict(f, v);
	fputs("> payoff = 1 - cycles with the lever / cycles as compiled. The model assumes L1 "
	      "hits and no memory dependences beyond llvm-mca's (a frame slot stored and reloaded "
	      "costs no forwarding, as on cores that rename stack memory); the JSON has the exact "
	      "llvm-mca input.\n\n", f);
	return ferror(f) ? ap_errk(err, AP_ERR_IO, "%s: write failed", name) : 0;
}
