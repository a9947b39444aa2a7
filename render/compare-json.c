// SPDX-License-Identifier: MIT
/* aotperf compare as JSON from its view (compare.h; its keys: docs/json.md). */
#include "classes.h"
#include "compare.h"
#include "loops.h"
#include "table.h"
#include "../cwasm/coreset.h"
#include "../util/json_out.h"
#include "../view/compare.h"

/* Side k's cells: samples, total_samples (WAMR: the run's), percent_of_run. */
static void side_cells(struct json_out *j, const struct view_compare *v, uint32_t k)
{
	static const char *const keys[] = { "samples", "total_samples", "percent_of_run" };

	for (int i = 0; i < 3; i++) {
		json_key(j, keys[i]);
		render__table_json_value(j, v->sides, k, (uint32_t)vt_table__find(v->sides, keys[i]));
	}
}

static void wamr(struct json_out *j, const struct view_compare *v)
{
	const struct view_compare_input *in = &v->in;
	const struct cwasm_module *m = in->wamr->mods[in->core];

	json_key(j, "wamr");
	json_begin_obj(j);
	json_key(j, "core");
	json_str(j, core_set__core_name(m));
	json_key(j, "cwasm");
	json_str(j, m->path);
	json_key(j, "import_function_count");
	json_u64(j, m->import_func_count);
	json_key(j, "local_func");
	json_u64(j, in->func);
	json_key(j, "picked_hottest");
	json_bool(j, in->picked);
	json_key(j, "recordings");
	json_begin_arr(j);
	for (uint32_t k = 0; k < in->wamr->ncaptures; k++) {
		json_begin_obj(j);
		json_key(j, "perf");
		json_str(j, in->wamr->captures[k].label);
		json_key(j, "total_samples");
		json_u64(j, in->wamr->captures[k].total);
		json_end_obj(j);
	}
	json_end_arr(j);
	side_cells(j, v, VC_WAMR);
	json_key(j, "code_bytes");
	json_u64(j, m->funcs[in->func].size);
	json_key(j, "roles");
	render__roles_json(j, in->wamr_roles);
	json_key(j, "classes");
	render__cls_table_json(j, in->wamr_table, v->wamr_run_total);
	json_end_obj(j);
}

static void other(struct json_out *j, const struct view_compare *v)
{
	const struct eng_summary *s = engines__summary(v->in.other);

	json_key(j, "other");
	json_begin_obj(j);
	json_key(j, "perf");
	json_str(j, v->in.other_label);
	json_key(j, "total_samples");
	json_u64(j, s->total_samples);
	json_key(j, "wasm_samples");
	json_u64(j, s->wasm_samples);
	json_key(j, "tier_samples");
	json_begin_obj(j);
	for (int t = 0; t < ENG_TIER__COUNT; t++) {
		json_key(j, eng_tier__name((enum eng_tier)t));
		json_u64(j, v->in.oc->func->tier_samples[t]);
	}
	json_end_obj(j);
	engines__json_classes(j, v->in.oc);
	json_end_obj(j);
}

/* {class: points} for every class, from the class table's rows of a class */
static void sampled_delta(struct json_out *j, const struct view_compare *v)
{
	const struct vt_table *t = v->classes;
	uint32_t cls = (uint32_t)vt_table__find(t, "class");
	uint32_t pts = (uint32_t)vt_table__find(t, "points");

	json_key(j, "sampled_delta_points");
	if (!v->has_points) {
		json_null(j);
		return;
	}
	json_begin_obj(j);
	for (uint32_t i = 0; i < vt_table__nrows(t); i++) {
		if (!vt_table__cell(t, i, cls)->present)
			continue;	/* "memory (both)", "total" */
		json_key(j, cls__name((enum cls_class)vt_table__cell(t, i, cls)->v.i));
		render__table_json_value(j, t, i, pts);
	}
	json_end_obj(j);
}

static void headroom(struct json_out *j, const struct view_compare *v)
{
	const struct eng_headroom *h = v->in.h;

	json_key(j, "headroom");
	json_begin_obj(j);
	json_key(j, "estimate");
	json_bool(j, 1);
	json_key(j, "basis");
	json_str(j, h->sampled ? "samples" : "static_instructions");
	json_key(j, "hot_percent_of_run");
	json_dbl(j, h->hot_pct, 2);
	json_key(j, "levers");
	render__table_json_rows(j, v->levers);
	json_key(j, "class_delta_points");
	json_begin_obj(j);
	for (int k = 0; k < CLS__COUNT; k++) {
		json_key(j, cls__name((enum cls_class)k));
		json_dbl(j, h->class_delta[k], 2);
	}
	json_end_obj(j);
	json_key(j, "min_samples");
	json_u64(j, v->in.min_samples);
	json_end_obj(j);
}

void render__compare_json_body(struct json_out *j, const struct view_compare *v)
{
	const struct view_compare_input *in = &v->in;
	const struct cwasm_module *m = in->wamr->mods[in->core];

	json_key(j, "event");
	json_str(j, in->event);
	json_key(j, "engine");
	json_str(j, v->engine);
	json_key(j, "wasm_func");
	json_u64(j, cwasm__wasm_index(m, in->func));
	json_key(j, "name");
	json_str(j, m->funcs[in->func].name);
	wamr(j, v);
	other(j, v);
	sampled_delta(j, v);
	headroom(j, v);
	if (in->loops) {
		json_key(j, "hottest_loop");
		render__loop_pair_json(j, in->loops);
	}
	json_key(j, "functions");
	render__table_json_rows(j, v->funcs);
	json_key(j, "functions_listed");
	json_u64(j, vt_table__shown(v->funcs));
	json_key(j, "warnings");
	json_begin_arr(j);
	for (uint32_t i = 0; i < engines__nwarnings(in->other); i++)
		json_str(j, engines__warning(in->other, i));
	json_end_arr(j);
}

int render__compare_json_file(const char *path, const struct view_compare *v,
			      struct ap_err *err)
{
	struct json_doc doc;

	if (json_doc__open(&doc, path, v->in.tool, err))
		return -1;
	render__compare_json_body(&doc.j, v);
	return json_doc__commit(&doc, err);
}
