// SPDX-License-Identifier: MIT
/*
 * aotperf compare as the HTML report: the WAMR core's block (functions
 * with their samples summed over the recordings) and the "diff" block
 * with the two engines as labels (docs/html-data.md): per function both
 * ran, each engine's samples, and the compared function's class samples.
 */
#include <stdio.h>
#include "compare.h"
#include "diff.h"
#include "html.h"
#include "html_data.h"
#include "loops.h"
#include "../cwasm/coreset.h"
#include "../util/json_out.h"

static void label(struct json_out *j, const char *key, const char *l, uint64_t total)
{
	json_key(j, key);
	json_begin_obj(j);
	json_key(j, "label");
	json_str(j, l);
	json_key(j, "total_samples");
	json_u64(j, total);
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

static int emit(struct json_out *j, void *arg, struct ap_err *err)
{
	const struct render_compare *r = arg;
	const struct cwasm_module *m = r->wamr->mods[r->core];
	const char *core = core_set__core_name(m);
	uint32_t idx[1024], n = render__compare_funcs(r, idx, 1024);
	char title[300], wl[300], ol[300];

	snprintf(title, sizeof(title), "%s: WAMR vs %s", m->path, render__compare_engine(r));
	snprintf(wl, sizeof(wl), "WAMR %s", m->path);
	snprintf(ol, sizeof(ol), "%s %s", render__compare_engine(r), r->other_label);
	json_begin_obj(j);
	json_key(j, "schema_version");
	json_u64(j, 1);
	json_key(j, "tool");
	json_str(j, r->tool);
	json_key(j, "title");
	json_str(j, title);
	json_key(j, "event");
	json_str(j, r->event);
	json_key(j, "total_samples");
	json_u64(j, r->wamr_run_total);
	if (render__html_core_block(j, r->wamr, r->core, 1, err))
		return -1;
	json_key(j, "diff");
	json_begin_obj(j);
	label(j, "before", wl, r->wamr_run_total);
	label(j, "after", ol, engines__summary(r->other)->total_samples);
	json_key(j, "functions");
	json_begin_arr(j);
	for (uint32_t i = 0; i < n; i++) {
		const struct eng_func *f = engines__func(r->other, idx[i]);
		struct html_diff_func h = {
			.core = core, .local_func = (uint32_t)f->local_func,
			.name = m->funcs[f->local_func].name ? m->funcs[f->local_func].name : f->name,
			.before = render__compare_wamr_samples(r, (uint32_t)f->local_func),
			.after = f->samples,
		};

		html_data__diff_func(j, &h);
	}
	json_end_arr(j);
	json_key(j, "classes");
	json_begin_arr(j);
	json_begin_obj(j);
	json_key(j, "core");
	json_str(j, core);
	json_key(j, "local_func");
	json_u64(j, r->func);
	json_key(j, "name");
	json_str(j, m->funcs[r->func].name);
	class_samples(j, "before", r->wamr_table, 0);
	class_samples(j, "after", &r->oc->table, r->oc->unavailable);
	if (r->loops) {
		json_key(j, "hottest_loop");
		render__loop_pair_json(j, r->loops);
	}
	json_end_obj(j);
	json_end_arr(j);
	json_end_obj(j);
	json_end_obj(j);
	return 0;
}

int render__compare_html_file(const char *path, const struct render_compare *r,
			      struct ap_err *err)
{
	return html__write_emit(path, emit, (void *)r, err);
}
