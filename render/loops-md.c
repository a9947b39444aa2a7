// SPDX-License-Identifier: MIT
/*
 * A classified function's hot loops and the what-if per lever as GitHub
 * Markdown (render/markdown.h): the same numbers as the text report
 * (render/loops.c), as tables, for report --markdown.
 */
#include <inttypes.h>
#include <stdlib.h>
#include "loops.h"
#include "markdown.h"
#include "../loops/mca.h"
#include "../util/pct.h"

#define MD_LOOPS_LISTED 5

/* Escaped prose: fputs of md__fputs, then the end of the line. */
static void prose(FILE *f, const char *text, const char *end)
{
	md__fputs(f, text);
	fputs(end, f);
}

static int loops_table(FILE *f, const char *name, const struct profile_func *pf,
		       struct ap_err *err)
{
	static const struct md_coldef cols[] = {
		{ "loop", MD_RIGHT, 0 }, { "header", MD_LEFT, 0 }, { "depth", MD_RIGHT, 0 },
		{ "blocks", MD_RIGHT, 0 }, { "insns", MD_RIGHT, 0 }, { "samples", MD_RIGHT, 0 },
		{ "%func", MD_RIGHT, 0 }, { "top classes", MD_LEFT, 0 },
	};
	const struct lp_func *lf = pf->loops;
	struct md_table *t = md_table__new_cols(cols, 8, err);

	if (!t)
		return -1;
	for (uint32_t i = 0; i < lf->nloops && i < MD_LOOPS_LISTED; i++) {
		const struct lp_loop *l = &lf->loops[i];
		char cls[96];

		render__loop_top_classes(l, lf->total > 0, cls, sizeof(cls));
		if (md_table__cellf(t, err, "%u", i + 1) ||
		    md_table__cellf(t, err, "+0x%x",
				    pf->cls.f.insns[lf->blocks[l->header].first].offset) ||
		    md_table__cellf(t, err, "%u", l->depth) ||
		    md_table__cellf(t, err, "%u", l->nblocks) ||
		    md_table__cellf(t, err, "%u", l->static_insns) ||
		    md_table__cellf(t, err, "%" PRIu64, l->samples) ||
		    md_table__cellf(t, err, "%.1f%%", ap_pct(l->samples, lf->total)) ||
		    md_table__cell(t, cls, err) || md_table__end_row(t, err)) {
			md_table__delete(t);
			return -1;
		}
	}
	return md_table__flush(t, f, name, err);
}

static int whatif_table(FILE *f, const char *name, const struct lp_func *lf,
			const struct lp_loop *l, struct ap_err *err)
{
	static const struct md_coldef cols[] = {
		{ "lever", MD_LEFT, 0 }, { "%samples", MD_RIGHT, 0 },
		{ "predicted payoff", MD_RIGHT, 0 }, { "cycles/iter", MD_RIGHT, 0 },
		{ "removed", MD_RIGHT, 0 }, { "model", MD_LEFT, 0 },
	};
	struct md_table *t = md_table__new_cols(cols, 6, err);
	int order[LP__NLEVERS];

	if (!t)
		return -1;
	render__loop_by_payoff(l, order);
	for (int k = 0; k < LP__NLEVERS; k++) {
		int lv = order[k];
		const struct lp_model_run *r = &l->lever[lv];
		int rc = md_table__cell_code(t, lp_lever__name((enum lp_lever)lv), err);

		rc = rc || (lf->total ? md_table__cellf(t, err, "%.1f%%",
							 ap_pct(render__loop_lever_samples(l, lv),
								l->samples)) :
					md_table__cell(t, "-", err));
		if (r->removed && r->not_modelled)
			rc = rc || md_table__cell(t, "not modelled", err) ||
			     md_table__cellf(t, err, "%.2f", r->cycles_per_iter);
		else if (r->removed)
			rc = rc || md_table__cellf(t, err, "%.1f%%", lp_loop__payoff(l, lv)) ||
			     md_table__cellf(t, err, "%.2f", r->cycles_per_iter);
		else
			rc = rc || md_table__cell(t, "-", err) || md_table__cell(t, "-", err);
		rc = rc || md_table__cellf(t, err, "%u", r->removed) ||
		     md_table__cell_code(t, lf->model.mcpu, err) || md_table__end_row(t, err);
		if (rc) {
			md_table__delete(t);
			return -1;
		}
	}
	return md_table__flush(t, f, name, err);
}

static void verdict(FILE *f, const struct lp_func *lf, const struct lp_loop *l)
{
	int order[LP__NLEVERS], best = -1;

	render__loop_by_payoff(l, order);
	fputs("**what pays:** ", f);
	for (int k = 0; k < LP__NLEVERS; k++) {
		int lv = order[k];

		if (!render__loop_lever_modelled(l, lv))
			continue;
		if (lf->total)
			fprintf(f, "%s%s: %.0f%% of samples, %.0f%% predicted payoff", best < 0 ? "" : "; ",
				render__lever_words(lv),
				ap_pct(render__loop_lever_samples(l, lv), l->samples),
				lp_loop__payoff(l, lv));
		else
			fprintf(f, "%s%s: %.0f%% predicted payoff", best < 0 ? "" : "; ",
				render__lever_words(lv), lp_loop__payoff(l, lv));
		if (best < 0)
			best = lv;
	}
	if (best < 0)
		fputs("no lever has instructions in this loop.\n\n", f);
	else if (lp_loop__payoff(l, best) < 2)
		fputs(". No lever pays here (each under 2%): the loop is bound by what stays.\n\n", f);
	else
		fprintf(f, ". Pays most: **%s** (%.0f%% faster loop predicted).\n\n",
			render__lever_words(best), lp_loop__payoff(l, best));
}

int render__loops_md(FILE *f, const char *name, const struct profile_func *pf,
		     struct ap_err *err)
{
	const struct lp_func *lf = pf->loops;
	const struct lp_loop *l;
	char buf[1400];

	if (!lf)
		return 0;
	if (!lf->nloops) {
		fputs("hot loops: none (no back edge)\n\n", f);
		return 0;
	}
	fprintf(f, "**hot loops** (%u; %s)\n\n", lf->nloops,
		lf->total ? "hottest first" : "largest first");
	if (loops_table(f, name, pf, err))
		return -1;
	if (!lf->model.asked)
		return 0;
	l = &lf->loops[0];
	if (!*lf->model.tool || !l->base.ok) {
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
	if (whatif_table(f, name, lf, l, err))
		return -1;
	verdict(f, lf, l);
	fputs("> payoff = 1 - cycles with the lever / cycles as compiled. The model assumes L1 "
	      "hits and no memory dependences beyond llvm-mca's (a frame slot stored and reloaded "
	      "costs no forwarding, as on cores that rename stack memory); the JSON has the exact "
	      "llvm-mca input.\n\n", f);
	return ferror(f) ? ap_errk(err, AP_ERR_IO, "%s: write failed", name) : 0;
}
