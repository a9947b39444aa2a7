// SPDX-License-Identifier: MIT
/*
 * aotperf compare as the HTML report (compare.h). Its data document is
 * the JSON document (compare-json.c) with the page's members added
 * (docs/html-data.md): the title, the WAMR core's block under "cores"
 * (functions with their samples summed over the recordings) and the
 * "diff" block with the two engines as labels: per function both ran,
 * each engine's samples (the view's rows), and the compared function's
 * class samples.
 */
#include <stdio.h>
#include "compare.h"
#include "diff.h"
#include "html.h"
#include "html_data.h"
#include "loops.h"
#include "table.h"
#include "../cwasm/coreset.h"
#include "../util/json_out.h"
#include "../view/compare.h"

static void label(struct json_out *j, const char *key, const char *l,
		  const struct view_compare *v, uint32_t k)
{
	json_key(j, key);
	json_begin_obj(j);
	json_key(j, "label");
	json_str(j, l);
	json_key(j, "total_samples");
	render__table_json_value(j, v->sides, k, (uint32_t)vt_table__find(v->sides,
									  "total_samples"));
	json_end_obj(j);
}

static void class_samples(struct json_out *j, const char *key, const struct cls_table *t,
			  uint32_t unavailable)
{
	json_key(j, key);
	json_begin_obj(j);
	for (int c = 0; c < CLS__COUNT; c++) {
		if (unavailable & (1u << c))
			continue;
		json_key(j, cls__name((enum cls_class)c));
		json_u64(j, t->samples[c]);
	}
	json_end_obj(j);
}

/* The functions both ran: the view's rows as the page's diff rows. */
static void functions(struct json_out *j, const struct view_compare *v, const char *core)
{
	const struct vt_table *t = v->funcs;
	uint32_t local = (uint32_t)vt_table__find(t, "local_func");
	uint32_t name = (uint32_t)vt_table__find(t, "name");
	uint32_t ws = (uint32_t)vt_table__find(t, "wamr_samples");
	uint32_t os = (uint32_t)vt_table__find(t, "other_samples");

	json_key(j, "functions");
	json_begin_arr(j);
	for (uint32_t i = 0; i < vt_table__nrows(t); i++) {
		struct html_diff_func h = {
			.core = core, .local_func = (uint32_t)vt_table__cell(t, i, local)->v.i,
			.name = vt_table__cell(t, i, name)->v.s,
			.before = vt_table__cell(t, i, ws)->v.u,
			.after = vt_table__cell(t, i, os)->v.u,
		};

		html_data__diff_func(j, &h);
	}
	json_end_arr(j);
}

static int emit(struct json_out *j, void *arg, struct ap_err *err)
{
	const struct view_compare *v = arg;
	const struct view_compare_input *in = &v->in;
	const struct cwasm_module *m = in->wamr->mods[in->core];
	const char *core = core_set__core_name(m);
	char title[300], wl[300], ol[300];

	snprintf(title, sizeof(title), "%s: WAMR vs %s", m->path, v->engine);
	snprintf(wl, sizeof(wl), "WAMR %s", m->path);
	snprintf(ol, sizeof(ol), "%s %s", v->engine, in->other_label);
	json_begin_obj(j);
	json_key(j, "schema_version");
	json_u64(j, 1);
	json_key(j, "tool");
	json_str(j, in->tool);
	render__compare_json_body(j, v);
	json_key(j, "title");
	json_str(j, title);
	json_key(j, "total_samples");
	json_u64(j, v->wamr_run_total);
	json_key(j, "cores");
	json_begin_arr(j);
	if (render__html_core_block(j, in->wamr, in->core, 0, err))
		return -1;
	json_end_arr(j);
	json_key(j, "diff");
	json_begin_obj(j);
	label(j, "before", wl, v, VC_WAMR);
	label(j, "after", ol, v, VC_OTHER);
	functions(j, v, core);
	json_key(j, "classes");
	json_begin_arr(j);
	json_begin_obj(j);
	json_key(j, "core");
	json_str(j, core);
	json_key(j, "local_func");
	json_u64(j, in->func);
	json_key(j, "name");
	json_str(j, m->funcs[in->func].name);
	class_samples(j, "before", in->wamr_table, 0);
	class_samples(j, "after", &in->oc->table, in->oc->unavailable);
	if (in->loops) {
		json_key(j, "hottest_loop");
		render__loop_pair_json(j, in->loops);
	}
	json_end_obj(j);
	json_end_arr(j);
	json_end_obj(j);
	json_end_obj(j);
	return 0;
}

int render__compare_html_file(const char *path, const struct view_compare *v,
			      struct ap_err *err)
{
	return html__write_emit(path, emit, (void *)v, err);
}
