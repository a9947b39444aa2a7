// SPDX-License-Identifier: MIT
/*
 * The run's lever table (loops/levers.h, docs/levers.md) as text and as
 * the JSON member "levers": one row per lever, most predicted payoff
 * first, the modelled share of the run and a verdict line.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "loops.h"
#include "../loops/levers.h"
#include "../util/pct.h"
#include "../util/term.h"

const char *render__lever_unit(const struct lp_levers *lv)
{
	return lv->static_only ? "mean loop saving" : "predicted run payoff";
}

/* A row whose payoff is a number: some loop it touches is modelled. */
int render__lever_row_modelled(const struct lp_lever_row *r)
{
	return r->loops > 0;
}

/* "12.3%", "0.0..4.1%", "not modelled", "-" */
void render__lever_payoff(const struct lp_lever_row *r, char *out, size_t n)
{
	if (!r->removed)
		snprintf(out, n, "-");
	else if (!render__lever_row_modelled(r))
		snprintf(out, n, "not modelled");
	else if (r->payoff_hi > r->payoff + 0.05)
		snprintf(out, n, "%.1f..%.1f%%", r->payoff, r->payoff_hi);
	else
		snprintf(out, n, "%.1f%%", r->payoff);
}

void render__levers_verdict(const struct lp_levers *lv, char *out, size_t n)
{
	const struct lp_lever_row *best = NULL, *next = NULL;
	const char *of = lv->static_only ? "a modelled loop's time on average" : "of the run";

	for (int i = 0; i < LP__NLEVERS; i++) {
		const struct lp_lever_row *r = &lv->rows[i];

		if (!render__lever_row_modelled(r))
			continue;
		if (!best)
			best = r;
		else if (!next)
			next = r;
	}
	if (!best || best->payoff < 0.5) {
		snprintf(out, n, "no lever pays%s: each under 0.5%% %s", best ? "" : " (none touches "
			 "a modelled loop)", of);
		return;
	}
	if (!next)
		snprintf(out, n, "pays most: %s, %.1f%% %s predicted (+-%.1f); no other lever "
			 "touches a modelled loop", render__lever_words(best->lever), best->payoff,
			 of, best->tolerance);
	else
		snprintf(out, n, "pays most: %s, %.1f%% %s predicted (+-%.1f), %.1f points more "
			 "than %s (%.1f%%)", render__lever_words(best->lever), best->payoff, of,
			 best->tolerance, best->payoff - next->payoff,
			 render__lever_words(next->lever), next->payoff);
}

/* ---- text ---- */

static void print_head(FILE *out, const struct lp_levers *lv, size_t cols)
{
	char line[768];
	uint32_t nloops = 0;

	for (uint32_t i = 0; i < lv->nfuncs; i++)
		nloops += lv->funcs[i].modelled;
	if (lv->static_only)
		snprintf(line, sizeof(line), "levers (no recording): the %u largest functions with loops, "
			 "every loop modelled (%u); each lever's mean saving per loop, no run shares",
			 lv->nfuncs, nloops);
	else
		snprintf(line, sizeof(line), "levers of the run: %u functions hold %.1f%% of the wasm "
			 "samples (until %.0f%%, at most %u); %u loops with %.0f%% of their "
			 "function or more modelled: %.1f%% of the run, %.1f%% not modelled",
			 lv->nfuncs, ap_pct(lv->chosen_samples, lv->wasm_samples), lv->share,
			 lv->max_funcs, nloops, lv->loop_min, lp_levers__modelled_pct(lv),
			 100.0 - lp_levers__modelled_pct(lv));
	fputc('\n', out);
	ap_term__wrap(out, line, cols, 2);
	if (*lv->model.tool)
		snprintf(line, sizeof(line), "  model: %s -mcpu=%s; %s", lv->model.tool,
			 lv->model.mcpu, lv->model.why);
	else
		snprintf(line, sizeof(line), "  model: %s", *lv->model.note ? lv->model.note :
			 "no loop to model");
	ap_term__wrap(out, line, cols, 4);
}

static void print_notes(FILE *out, const struct lp_levers *lv, size_t cols)
{
	char line[768];

	for (int i = 0; i < LP__NLEVERS; i++) {
		const struct lp_lever_row *r = &lv->rows[i];

		if (r->lever == LP_FRAME && r->removed && r->payoff_hi > r->payoff + 0.05) {
			snprintf(line, sizeof(line), "  frame: %.1f%% where the core renames stack "
				 "memory (Zen 2 and later; measured here too: docs/levers.md), up to "
				 "%.1f%% where a reload waits for the store", r->payoff, r->payoff_hi);
			ap_term__wrap(out, line, cols, 4);
		}
		if (r->unmodelled_loops) {
			snprintf(line, sizeof(line), "  %s: not modelled in %u loop%s (%.1f%% of the "
				 "run): %s", lp_lever__name((enum lp_lever)r->lever),
				 r->unmodelled_loops, r->unmodelled_loops == 1 ? "" : "s",
				 r->unmodelled_share, r->why);
			ap_term__wrap(out, line, cols, 4);
		}
	}
}

static void print_spills(FILE *out, const struct lp_levers *lv, size_t cols)
{
	char line[512];

	if (!lv->spills_given)
		return;
	fprintf(out, "  frame lever against the spill log (spill_ld: reloads the allocator "
		"emitted)\n");
	for (uint32_t i = 0; i < lv->nfuncs; i++) {
		const struct lp_lever_func *f = &lv->funcs[i];

		if (!f->spill_known)
			snprintf(line, sizeof(line), "    local_func_%u: not in the log; %u frame "
				 "loads decoded, %u in its modelled loops", f->func, f->frame_loads,
				 f->frame_loads_loops);
		else
			snprintf(line, sizeof(line), "    local_func_%u: spill_ld %" PRIu64 ", %u frame "
				 "loads decoded, %u in its modelled loops (the lever's)%s", f->func,
				 f->spill_ld, f->frame_loads, f->frame_loads_loops,
				 f->frame_loads_loops > f->spill_ld ?
				 ": more than the log's reloads, so some are no spill (wasm locals, "
				 "frame state): the lever over-counts" :
				 f->frame_loads < f->spill_ld ? ": fewer decoded than the log's "
				 "reloads: another build of the core?" : ": reconciled");
		ap_term__wrap(out, line, cols, 6);
	}
}

void render__levers_text(FILE *out, const struct profile *p, size_t cols)
{
	const struct lp_levers *lv = p->levers;
	char line[512], pay[32], verdict[400];

	if (!lv)
		return;
	if (!cols)
		cols = 80;
	print_head(out, lv, cols);
	fprintf(out, "\n  %-14s %5s %7s %8s %6s  %s\n", "lever", "funcs", "insns", "samples", "%run",
		render__lever_unit(lv));
	for (int i = 0; i < LP__NLEVERS; i++) {
		const struct lp_lever_row *r = &lv->rows[i];

		render__lever_payoff(r, pay, sizeof(pay));
		if (render__lever_row_modelled(r))
			snprintf(pay + strlen(pay), sizeof(pay) - strlen(pay), " +-%.1f", r->tolerance);
		fprintf(out, "  %-14s %5u %7u %8" PRIu64 " %5.1f%%  %s\n",
			lp_lever__name((enum lp_lever)r->lever), r->functions, r->removed, r->samples,
			ap_pct(r->samples, lv->run_samples), pay);
	}
	print_notes(out, lv, cols);
	print_spills(out, lv, cols);
	render__levers_verdict(lv, verdict, sizeof(verdict));
	snprintf(line, sizeof(line), "  verdict: %s", verdict);
	ap_term__wrap(out, line, cols, 4);
}

/* ---- JSON ---- */

static void json_run(struct json_out *j, const char *key, const struct lp_model_run *r)
{
	json_key(j, key);
	if (r->ok)
		json_dbl(j, r->cycles_per_iter, 2);
	else
		json_null(j);
}

/* The function's modelled loops: what each row sums (docs/levers.md). */
static void json_loops(struct json_out *j, const struct lp_lever_func *f)
{
	const struct lp_func *lf = &f->lf;

	json_key(j, "modelled_loops");
	json_begin_arr(j);
	for (uint32_t k = 0; k < lf->nloops; k++) {
		const struct lp_loop *l = &lf->loops[k];

		if (!l->base.ok)
			continue;
		json_begin_obj(j);
		json_key(j, "header");
		json_u64(j, f->cls.f.insns[lf->blocks[l->header].first].offset);
		json_key(j, "blocks");
		json_begin_arr(j);
		for (uint32_t b = 0; b < l->nblocks; b++) {
			const struct lp_block *bl = &lf->blocks[l->blocks[b]];
			const struct cls_insn *last = &f->cls.f.insns[bl->end - 1];

			json_begin_arr(j);
			json_u64(j, f->cls.f.insns[bl->first].offset);
			json_u64(j, last->offset + last->size);
			json_end_arr(j);
		}
		json_end_arr(j);
		json_key(j, "self_samples"); json_u64(j, l->self_samples);
		json_key(j, "samples"); json_u64(j, l->samples);
		json_key(j, "input"); json_str(j, l->input);
		json_run(j, "cycles_per_iteration", &l->base);
		json_key(j, "whatif");
		json_begin_obj(j);
		for (int lever = 0; lever < LP__NLEVERS; lever++) {
			const struct lp_model_run *r = &l->lever[lever];

			if (!r->removed)
				continue;
			json_key(j, lp_lever__name((enum lp_lever)lever));
			json_begin_obj(j);
			json_key(j, "removed"); json_u64(j, r->removed);
			json_key(j, "touched_samples"); json_u64(j, r->touched_samples);
			json_run(j, "cycles_per_iteration", r);
			json_key(j, "payoff_pct");
			if (r->not_modelled)
				json_null(j);
			else
				json_dbl(j, lp_loop__payoff(l, lever), 2);
			if (lever == LP_FRAME) {
				json_run(j, "aliased_base_cycles", &l->aliased_base);
				json_run(j, "aliased_cycles", &l->aliased_frame);
			}
			json_end_obj(j);
		}
		json_end_obj(j);
		json_end_obj(j);
	}
	json_end_arr(j);
}

static void json_funcs(struct json_out *j, const struct profile *p, const struct lp_levers *lv)
{
	json_key(j, "functions");
	json_begin_arr(j);
	for (uint32_t i = 0; i < lv->nfuncs; i++) {
		const struct lp_lever_func *f = &lv->funcs[i];
		const struct cwasm_module *m = p->attr.cores[f->core].mod;

		json_begin_obj(j);
		json_key(j, "core"); json_str(j, m->core_label ? m->core_label : m->path);
		json_key(j, "local_func"); json_u64(j, f->func);
		json_key(j, "wasm_func"); json_u64(j, cwasm__wasm_index(m, f->func));
		json_key(j, "name"); json_str(j, m->funcs[f->func].name);
		json_key(j, "samples"); json_u64(j, f->samples);
		json_key(j, "loops"); json_u64(j, f->lf.nloops);
		json_key(j, "loops_modelled"); json_u64(j, f->modelled);
		json_key(j, "modelled_samples"); json_u64(j, f->modelled_samples);
		json_key(j, "levers");
		json_begin_obj(j);
		for (int lever = 0; lever < LP__NLEVERS; lever++) {
			if (!f->touched[lever])
				continue;
			json_key(j, lp_lever__name((enum lp_lever)lever));
			json_begin_obj(j);
			json_key(j, "payoff_pct"); json_dbl(j, f->payoff[lever], 2);
			json_key(j, "tolerance_pct"); json_dbl(j, f->tolerance[lever], 2);
			json_end_obj(j);
		}
		json_end_obj(j);
		json_loops(j, f);
		if (lv->spills_given) {
			json_key(j, "spill_ld");
			if (f->spill_known)
				json_u64(j, f->spill_ld);
			else
				json_null(j);
			json_key(j, "frame_loads"); json_u64(j, f->frame_loads);
			json_key(j, "frame_loads_in_loops"); json_u64(j, f->frame_loads_loops);
		}
		json_end_obj(j);
	}
	json_end_arr(j);
}

static void json_rows(struct json_out *j, const struct lp_levers *lv)
{
	json_key(j, "rows");
	json_begin_arr(j);
	for (int i = 0; i < LP__NLEVERS; i++) {
		const struct lp_lever_row *r = &lv->rows[i];
		int mod = render__lever_row_modelled(r);

		json_begin_obj(j);
		json_key(j, "lever"); json_str(j, lp_lever__name((enum lp_lever)r->lever));
		json_key(j, "functions"); json_u64(j, r->functions);
		json_key(j, "removed"); json_u64(j, r->removed);
		json_key(j, "samples"); json_u64(j, r->samples);
		json_key(j, "sample_pct"); json_dbl(j, ap_pct(r->samples, lv->run_samples), 2);
		json_key(j, "payoff_pct");
		if (mod)
			json_dbl(j, r->payoff, 2);
		else
			json_null(j);
		json_key(j, "payoff_hi_pct");
		if (mod)
			json_dbl(j, r->payoff_hi, 2);
		else
			json_null(j);
		json_key(j, "tolerance_pct");
		if (mod)
			json_dbl(j, r->tolerance, 2);
		else
			json_null(j);
		json_key(j, "unmodelled_loops"); json_u64(j, r->unmodelled_loops);
		json_key(j, "unmodelled_pct"); json_dbl(j, r->unmodelled_share, 2);
		json_key(j, "not_modelled"); json_str(j, *r->why ? r->why : NULL);
		json_end_obj(j);
	}
	json_end_arr(j);
}

void render__levers_json(struct json_out *j, const struct profile *p)
{
	const struct lp_levers *lv = p->levers;
	char v[400];

	if (!lv)
		return;
	json_key(j, "levers");
	json_begin_obj(j);
	json_key(j, "static"); json_bool(j, lv->static_only);
	json_key(j, "share_pct"); json_dbl(j, lv->share, 1);
	json_key(j, "max_functions"); json_u64(j, lv->max_funcs);
	json_key(j, "loop_min_pct"); json_dbl(j, lv->loop_min, 1);
	json_key(j, "run_samples"); json_u64(j, lv->run_samples);
	json_key(j, "wasm_samples"); json_u64(j, lv->wasm_samples);
	json_key(j, "function_samples"); json_u64(j, lv->chosen_samples);
	json_key(j, "modelled_samples"); json_u64(j, lv->modelled_samples);
	json_key(j, "modelled_pct"); json_dbl(j, lp_levers__modelled_pct(lv), 2);
	json_key(j, "unmodelled_pct");
	json_dbl(j, lv->static_only ? 0 : 100.0 - lp_levers__modelled_pct(lv), 2);
	json_key(j, "tool"); json_str(j, *lv->model.tool ? lv->model.tool : NULL);
	json_key(j, "mcpu"); json_str(j, *lv->model.mcpu ? lv->model.mcpu : NULL);
	json_key(j, "mcpu_reason"); json_str(j, *lv->model.why ? lv->model.why : NULL);
	json_key(j, "model_note"); json_str(j, *lv->model.note ? lv->model.note : NULL);
	json_funcs(j, p, lv);
	json_rows(j, lv);
	render__levers_verdict(lv, v, sizeof(v));
	json_key(j, "verdict"); json_str(j, v);
	json_end_obj(j);
}
