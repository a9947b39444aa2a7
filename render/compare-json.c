// SPDX-License-Identifier: MIT
/* aotperf compare as JSON (compare.h; its keys: docs/json.md). */
#include "classes.h"
#include "compare.h"
#include "loops.h"
#include "../cwasm/coreset.h"
#include "../util/json_out.h"
#include "../util/pct.h"

static void wamr(struct json_out *j, const struct render_compare *r)
{
	const struct cwasm_module *m = r->wamr->mods[r->core];

	json_key(j, "wamr");
	json_begin_obj(j);
	json_key(j, "core");
	json_str(j, core_set__core_name(m));
	json_key(j, "cwasm");
	json_str(j, m->path);
	json_key(j, "import_function_count");
	json_u64(j, m->import_func_count);
	json_key(j, "local_func");
	json_u64(j, r->func);
	json_key(j, "picked_hottest");
	json_bool(j, r->picked);
	json_key(j, "recordings");
	json_begin_arr(j);
	for (uint32_t k = 0; k < r->wamr->ncaptures; k++) {
		json_begin_obj(j);
		json_key(j, "perf");
		json_str(j, r->wamr->captures[k].label);
		json_key(j, "total_samples");
		json_u64(j, r->wamr->captures[k].total);
		json_end_obj(j);
	}
	json_end_arr(j);
	json_key(j, "total_samples");
	json_u64(j, r->wamr_run_total);
	json_key(j, "samples");
	json_u64(j, r->wamr_samples);
	json_key(j, "percent_of_run");
	json_dbl(j, ap_pct(r->wamr_samples, r->wamr_run_total), 2);
	json_key(j, "code_bytes");
	json_u64(j, m->funcs[r->func].size);
	json_key(j, "roles");
	render__roles_json(j, r->wamr_roles);
	json_key(j, "classes");
	render__cls_table_json(j, r->wamr_table, r->wamr_run_total);
	json_end_obj(j);
}

static void other(struct json_out *j, const struct render_compare *r)
{
	const struct eng_summary *s = engines__summary(r->other);

	json_key(j, "other");
	json_begin_obj(j);
	json_key(j, "perf");
	json_str(j, r->other_label);
	json_key(j, "total_samples");
	json_u64(j, s->total_samples);
	json_key(j, "wasm_samples");
	json_u64(j, s->wasm_samples);
	json_key(j, "tier_samples");
	json_begin_obj(j);
	for (int t = 0; t < ENG_TIER__COUNT; t++) {
		json_key(j, eng_tier__name((enum eng_tier)t));
		json_u64(j, r->oc->func->tier_samples[t]);
	}
	json_end_obj(j);
	engines__json_classes(j, r->oc);
	json_end_obj(j);
}

static void sampled_delta(struct json_out *j, const struct render_compare *r)
{
	const struct cls_table *w = r->wamr_table, *o = &r->oc->table;

	json_key(j, "sampled_delta_points");
	if (!w->total || !o->total) {
		json_null(j);
		return;
	}
	json_begin_obj(j);
	for (int k = 0; k < CLS__COUNT; k++) {
		json_key(j, cls__name((enum cls_class)k));
		if (r->oc->unavailable & (1u << k))
			json_null(j);
		else
			json_dbl(j, ap_pct(o->samples[k], o->total) - ap_pct(w->samples[k], w->total),
				 2);
	}
	json_end_obj(j);
}

static void functions(struct json_out *j, const struct render_compare *r)
{
	uint32_t idx[256], n = render__compare_funcs(r, idx, 256);
	const struct eng_summary *s = engines__summary(r->other);

	json_key(j, "functions");
	json_begin_arr(j);
	for (uint32_t i = 0; i < n; i++) {
		const struct eng_func *f = engines__func(r->other, idx[i]);
		const struct eng_code *c = engines__code(r->other, (uint32_t)f->best);
		uint64_t ws = render__compare_wamr_samples(r, (uint32_t)f->local_func);

		json_begin_obj(j);
		json_key(j, "wasm_func");
		json_u64(j, f->wasm_index);
		json_key(j, "local_func");
		json_i64(j, f->local_func);
		json_key(j, "name");
		json_str(j, r->wamr->mods[r->core]->funcs[f->local_func].name);
		json_key(j, "wamr_samples");
		json_u64(j, ws);
		json_key(j, "wamr_percent_of_run");
		json_dbl(j, ap_pct(ws, r->wamr_run_total), 2);
		json_key(j, "other_samples");
		json_u64(j, f->samples);
		json_key(j, "other_percent_of_run");
		json_dbl(j, ap_pct(f->samples, s->total_samples), 2);
		json_key(j, "other_tier");
		json_str(j, eng_tier__name(c->name.tier));
		json_end_obj(j);
	}
	json_end_arr(j);
}

static void body(struct json_out *j, const struct render_compare *r)
{
	const struct cwasm_module *m = r->wamr->mods[r->core];

	json_key(j, "event");
	json_str(j, r->event);
	json_key(j, "engine");
	json_str(j, render__compare_engine(r));
	json_key(j, "wasm_func");
	json_u64(j, cwasm__wasm_index(m, r->func));
	json_key(j, "name");
	json_str(j, m->funcs[r->func].name);
	wamr(j, r);
	other(j, r);
	sampled_delta(j, r);
	json_key(j, "headroom");
	json_begin_obj(j);
	engines__json_headroom(j, r->h);
	json_key(j, "min_samples");
	json_u64(j, r->min_samples);
	json_end_obj(j);
	if (r->loops) {
		json_key(j, "hottest_loop");
		render__loop_pair_json(j, r->loops);
	}
	functions(j, r);
	json_key(j, "warnings");
	json_begin_arr(j);
	for (uint32_t i = 0; i < engines__nwarnings(r->other); i++)
		json_str(j, engines__warning(r->other, i));
	json_end_arr(j);
}

int render__compare_json_file(const char *path, const struct render_compare *r,
			      struct ap_err *err)
{
	struct json_doc doc;

	if (json_doc__open(&doc, path, r->tool, err))
		return -1;
	body(&doc.j, r);
	return json_doc__commit(&doc, err);
}
