// SPDX-License-Identifier: MIT
/*
 * The run's lever table (view/levers.h, docs/levers.md) as text and as
 * the JSON member "levers": one row per lever, most predicted payoff
 * first, the modelled share of the run and a verdict line.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "levers.h"
#include "table.h"
#include "../util/json_out.h"
#include "../util/term.h"

void render__levers_text(FILE *out, const struct view_levers *v, size_t cols)
{
	char line[VIEW_LEVERS_LINE + 16];

	if (!v)
		return;
	if (!cols)
		cols = 80;
	fputc('\n', out);
	ap_term__wrap(out, v->head, cols, 2);
	snprintf(line, sizeof(line), "  %s", v->model);
	ap_term__wrap(out, line, cols, 4);
	fputc('\n', out);
	render__table_text(out, v->rows, (unsigned)cols, 2, 0);
	for (uint32_t i = 0; i < v->nnotes; i++) {
		snprintf(line, sizeof(line), "  %s", v->notes[i]);
		ap_term__wrap(out, line, cols, 4);
	}
	if (v->lv->spills_given)
		fprintf(out, "  frame lever against the spill log (spill_ld: reloads the allocator "
			"emitted)\n");
	for (uint32_t i = 0; i < v->nspills; i++) {
		snprintf(line, sizeof(line), "    %s", v->spills[i]);
		ap_term__wrap(out, line, cols, 6);
	}
	snprintf(line, sizeof(line), "  verdict: %s", v->verdict);
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

void render__levers_json(struct json_out *j, const struct view_levers *v)
{
	const struct lp_levers *lv;

	if (!v)
		return;
	lv = v->lv;
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
	json_key(j, "modelled_pct"); json_dbl(j, v->modelled_pct, 2);
	json_key(j, "unmodelled_pct"); json_dbl(j, v->unmodelled_pct, 2);
	json_key(j, "tool"); json_str(j, *lv->model.tool ? lv->model.tool : NULL);
	json_key(j, "mcpu"); json_str(j, *lv->model.mcpu ? lv->model.mcpu : NULL);
	json_key(j, "mcpu_reason"); json_str(j, *lv->model.why ? lv->model.why : NULL);
	json_key(j, "model_note"); json_str(j, *lv->model.note ? lv->model.note : NULL);
	json_funcs(j, v->p, lv);
	json_key(j, "rows");
	render__table_json_rows(j, v->rows);
	json_key(j, "verdict"); json_str(j, v->verdict);
	json_end_obj(j);
}
