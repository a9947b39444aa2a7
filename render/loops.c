// SPDX-License-Identifier: MIT
/*
 * Hot loops and what each lever would buy (view/loops.h), as text and
 * JSON members of a classified function.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "loops.h"
#include "table.h"
#include "../loops/mca.h"
#include "../util/term.h"

/* "    verdict: bounds checks: 36% of samples, 28% predicted payoff; ..." and what pays */
static void verdict_text(FILE *out, const struct view_loops *v, size_t cols)
{
	char line[768];

	if (v->no_verdict) {	/* the hottest loop is where samples of other code fell */
		snprintf(line, sizeof(line), "    verdict: none: %s", v->no_verdict);
		ap_term__wrap(out, line, cols, 6);
		return;
	}
	fprintf(out, "    verdict:");
	for (uint32_t k = 0; k < v->npays; k++) {
		const struct view_loop_pay *p = &v->pays[k];

		if (v->sampled)
			fprintf(out, "%s %s: %.0f%% of samples, %.0f%% predicted payoff",
				k ? ";\n     " : "", view__lever_words(p->lever), p->sample_pct, p->payoff);
		else
			fprintf(out, "%s %s: %.0f%% predicted payoff", k ? ";\n     " : "",
				view__lever_words(p->lever), p->payoff);
	}
	if (!v->npays)
		fprintf(out, " no lever has instructions in this loop\n");
	else if (!v->pays_most)
		fprintf(out, ".\n      No lever pays here (each under 2%%): the loop is bound by\n      %s\n",
			"what stays (see the bottleneck)");
	else
		fprintf(out, ".\n      Pays most: %s (%.0f%% faster loop predicted)\n",
			view__lever_words(v->pays[0].lever), v->pays[0].payoff);
	fprintf(out, "    (the model assumes L1 hits and no memory dependences beyond llvm-mca's:\n"
		"     a frame slot stored and reloaded costs no store-to-load latency, as on\n"
		"     cores that rename stack memory; docs/levers.md)\n");
}

static void model_text(FILE *out, const struct view_loops *v, size_t cols)
{
	const struct lp_func *lf = v->lf;
	const struct lp_loop *l = &lf->loops[0];
	char line[768];

	snprintf(line, sizeof(line), "  throughput model of its executed path (%u instructions): "
		 "%s -mcpu=%s", l->npath, lf->model.tool, lf->model.mcpu);
	fputc('\n', out);
	ap_term__wrap(out, line, cols, 4);
	snprintf(line, sizeof(line), "    cpu: %s", lf->model.why);
	ap_term__wrap(out, line, cols, 6);
	if (!v->modelled) {
		snprintf(line, sizeof(line), "    no model: %s", *lf->model.note ? lf->model.note :
			 "llvm-mca gave no numbers for it");
		ap_term__wrap(out, line, cols, 6);
		return;
	}
	fprintf(out, "    as compiled: %.2f cycles/iteration\n", l->base.cycles_per_iter);
	snprintf(line, sizeof(line), "    bottleneck: %s", l->bottleneck);
	ap_term__wrap(out, line, cols, 6);
	fputc('\n', out);
	render__table_text(out, v->whatif, (unsigned)cols, 4, 0);
	if (lf->frame_keep)
		fprintf(out, "    frame: allocator spills only (the sidecar's origins; %u frame "
			"accesses of the function stay)\n", lf->frame_kept);
	for (uint32_t k = 0; k < v->nnot_modelled; k++) {
		int lv = v->not_modelled[k];

		snprintf(line, sizeof(line), "    %s: n/m, not modelled: %s",
			 lp_lever__name((enum lp_lever)lv), l->lever[lv].not_modelled);
		ap_term__wrap(out, line, cols, 6);
	}
	verdict_text(out, v, cols);
}

void render__loops_text(FILE *out, const struct view_loops *v, size_t cols)
{
	const struct lp_func *lf;

	if (!v)
		return;
	lf = v->lf;
	if (!lf->nloops) {
		fprintf(out, "\n  hot loops: none (no back edge)\n");
		return;
	}
	fprintf(out, "\n  hot loops (%u; %s)\n", lf->nloops,
		v->sampled ? "hottest first" : "largest first");
	render__table_text(out, v->loops, (unsigned)cols, 2, 0);
	if (v->loops_more)
		fprintf(out, "  ... %u more loops\n", v->loops_more);
	fprintf(out, "\n  hottest loop, its instructions\n");
	render__table_text(out, v->listing, (unsigned)cols, 2, 0);
	if (v->listing_more)
		fprintf(out, "  ... %u more (the JSON has the blocks)\n", v->listing_more);
	if (!lf->model.asked)
		return;
	if (!*lf->model.tool) {
		char line[320];

		snprintf(line, sizeof(line), "  throughput model: %s", lf->model.note);
		fputc('\n', out);
		ap_term__wrap(out, line, cols, 4);
		return;
	}
	model_text(out, v, cols);
}

static void json_classes(struct json_out *j, const struct lp_loop *l)
{
	json_begin_obj(j);
	for (int c = 0; c < CLS__COUNT; c++) {
		if (!l->cls_static[c])
			continue;
		json_key(j, cls__name((enum cls_class)c));
		json_begin_obj(j);
		json_key(j, "samples"); json_u64(j, l->cls_samples[c]);
		json_key(j, "static_instructions"); json_u64(j, l->cls_static[c]);
		json_end_obj(j);
	}
	json_end_obj(j);
}

static void json_model(struct json_out *j, const struct view_loops *v, uint32_t i)
{
	const struct lp_func *lf = v->lf;
	const struct lp_loop *l = &lf->loops[i];

	json_key(j, "model");
	if (!l->base.ok) {
		json_null(j);
		return;
	}
	json_begin_obj(j);
	json_key(j, "tool"); json_str(j, lf->model.tool);
	json_key(j, "mcpu"); json_str(j, lf->model.mcpu);
	json_key(j, "mcpu_reason"); json_str(j, lf->model.why);
	json_key(j, "iterations"); json_u64(j, LP_MCA_ITERATIONS);
	json_key(j, "input"); json_str(j, l->input);
	json_key(j, "path_instructions"); json_u64(j, l->npath);
	json_key(j, "cycles_per_iteration"); json_dbl(j, l->base.cycles_per_iter, 2);
	json_key(j, "bottleneck"); json_str(j, l->bottleneck);
	json_end_obj(j);
	json_key(j, "whatif");
	json_begin_obj(j);
	for (int lv = 0; lv < LP__NLEVERS; lv++) {
		const struct lp_model_run *r = &l->lever[lv];

		json_key(j, lp_lever__name((enum lp_lever)lv));
		json_begin_obj(j);
		json_key(j, "removed"); json_u64(j, r->removed);
		json_key(j, "cycles_per_iteration");
		json_dbl(j, r->ok ? r->cycles_per_iter : l->base.cycles_per_iter, 2);
		json_key(j, "payoff_pct");
		if (r->not_modelled) {	/* no number: the reason instead */
			json_null(j);
			json_key(j, "not_modelled"); json_str(j, r->not_modelled);
		} else {
			json_dbl(j, v->payoff[i][lv], 1);
		}
		if (lv == LP_FRAME) {
			/* with a sidecar only its allocator spills (loops/analyze.c) */
			json_key(j, "scope");
			json_str(j, lf->frame_keep ? "allocator_spills" : "frame_accesses");
			json_key(j, "kept_in_function"); json_u64(j, lf->frame_kept);
		}
		json_key(j, "sample_pct"); json_dbl(j, v->lever_pct[i][lv], 1);
		json_end_obj(j);
	}
	json_end_obj(j);
}

void render__loops_json(struct json_out *j, const struct view_loops *v)
{
	const struct lp_func *lf;
	const struct cls_func *f;

	if (!v)
		return;
	lf = v->lf;
	f = v->f;
	if (lf->model.asked) {
		json_key(j, "loops_model_note");
		json_str(j, *lf->model.note ? lf->model.note : NULL);
	}
	json_key(j, "loops");
	json_begin_arr(j);
	for (uint32_t i = 0; i < lf->nloops; i++) {
		const struct lp_loop *l = &lf->loops[i];

		json_begin_obj(j);
		json_key(j, "header"); json_u64(j, f->insns[lf->blocks[l->header].first].offset);
		json_key(j, "blocks");
		json_begin_arr(j);
		for (uint32_t k = 0; k < l->nblocks; k++) {
			const struct lp_block *b = &lf->blocks[l->blocks[k]];

			json_begin_arr(j);
			json_u64(j, f->insns[b->first].offset);
			json_u64(j, f->insns[b->end - 1].offset + f->insns[b->end - 1].size);
			json_end_arr(j);
		}
		json_end_arr(j);
		json_key(j, "depth"); json_u64(j, l->depth);
		json_key(j, "parent"); json_i64(j, l->parent);
		json_key(j, "samples"); json_u64(j, l->samples);
		json_key(j, "self_samples"); json_u64(j, l->self_samples);
		json_key(j, "percent_of_function"); json_dbl(j, v->loop_pct[i], 2);
		json_key(j, "static_instructions"); json_u64(j, l->static_insns);
		json_key(j, "classes"); json_classes(j, l);
		if (lf->model.asked && *lf->model.tool && l->input)
			json_model(j, v, i);
		json_end_obj(j);
	}
	json_end_arr(j);
}
