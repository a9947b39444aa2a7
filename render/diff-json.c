// SPDX-License-Identifier: MIT
/*
 * aotperf diff as JSON, from its view: the one document of a diff, which
 * --json writes and the HTML page carries (docs/compare.md "JSON").
 */
#include "diff.h"
#include "levers.h"
#include "loops.h"
#include "table.h"
#include "../util/json_out.h"

static void side(struct json_out *j, const char *key, const struct view_diff_side *sd)
{
	json_key(j, key);
	json_begin_obj(j);
	json_key(j, "cores");
	render__table_json_rows(j, sd->cores);
	json_key(j, "captures");
	render__table_json_rows(j, sd->recordings);
	json_key(j, "truncated");
	json_bool(j, sd->truncated);
	json_key(j, "consistent");
	json_bool(j, sd->consistent);
	json_key(j, "problem");
	json_str(j, sd->problem[0] ? sd->problem : NULL);
	json_end_obj(j);
}

/* rows [from, nrows) of t */
static void rows_from(struct json_out *j, const struct vt_table *t, uint32_t from)
{
	json_begin_arr(j);
	for (uint32_t i = from; i < vt_table__nrows(t); i++) {
		json_begin_obj(j);
		render__table_json_members(j, t, i);
		json_end_obj(j);
	}
	json_end_arr(j);
}

static void class_diff(struct json_out *j, const struct view_diff *v, uint32_t i)
{
	const struct view_diff_func *f = &v->in.funcs[i];
	const struct vt_table *t = v->classes[i];
	int cls = vt_table__find(t, "class");

	json_begin_obj(j);
	json_key(j, "spec");
	json_str(j, f->spec);
	if (f->pair >= 0) {
		char buf[256];

		json_key(j, "core");
		json_str(j, view_diff__pair_label(v, (uint32_t)f->pair, buf, sizeof(buf)));
	}
	json_key(j, "wasm_func");
	json_u64(j, f->wasm_index);
	json_key(j, "name");
	json_str(j, f->name);
	json_key(j, "before_local_func");
	f->local_before >= 0 ? json_i64(j, f->local_before) : json_null(j);
	json_key(j, "after_local_func");
	f->local_after >= 0 ? json_i64(j, f->local_after) : json_null(j);
	json_key(j, "before_samples");
	json_u64(j, f->samples_before);
	json_key(j, "after_samples");
	json_u64(j, f->samples_after);
	json_key(j, "tested");
	json_bool(j, f->cls.tested);
	json_key(j, "classes");
	json_begin_obj(j);
	for (uint32_t r = 0; r < vt_table__nrows(t); r++) {
		json_key(j, vt_table__cell(t, r, (uint32_t)cls)->v.s);
		json_begin_obj(j);
		render__table_json_members(j, t, r);
		json_end_obj(j);
	}
	json_end_obj(j);
	if (f->loops) {
		json_key(j, "hottest_loop");
		render__loop_pair_json(j, f->loops);
	}
	json_end_obj(j);
}

static void gate(struct json_out *j, const struct view_diff *v)
{
	json_key(j, "gate");
	if (!v->in.gate) {
		json_null(j);
		return;
	}
	json_begin_obj(j);
	json_key(j, "fail_if_slower_pct");
	json_dbl(j, v->in.gate->pct, 4);
	json_key(j, "judged");
	json_str(j, v->in.gate_what);
	json_key(j, "by");
	json_str(j, v->gate_by);
	json_key(j, "failed");
	json_bool(j, v->gate_failed);
	json_key(j, "blocked");
	json_bool(j, v->gate_blocked);
	json_key(j, "verdict");
	json_str(j, v->gate_verdict);
	json_key(j, "reason");
	json_str(j, v->gate_line[0] ? v->gate_line : NULL);
	json_key(j, "checks");
	render__table_json_rows(j, v->checks);
	json_end_obj(j);
}

void render__diff_json_body(struct json_out *j, const struct view_diff *v)
{
	const struct cmp_diff *d = v->d;

	json_key(j, "event");
	json_str(j, v->in.event);
	json_key(j, "time_unit");
	json_str(j, v->time ? v->time_unit : NULL);
	json_key(j, "level");
	json_dbl(j, d->level, 4);
	json_key(j, "adjust");
	json_str(j, v->adjust_key);
	json_key(j, "test");
	json_str(j, v->test_words);
	json_key(j, "by");
	json_str(j, v->in.by_share || !v->time ? "share" : "time");
	json_key(j, "tested_functions");
	json_u64(j, d->ntested_self);
	json_key(j, "tested_functions_inclusive");
	json_u64(j, d->ntested_incl);
	json_key(j, "tested_functions_time");
	json_u64(j, d->ntested_self_time);
	json_key(j, "tested_functions_inclusive_time");
	json_u64(j, d->ntested_incl_time);
	side(j, "before", &v->side[0]);
	side(j, "after", &v->side[1]);
	json_key(j, "run_time");
	render__table_json_group(j, v->totals, 0, "time");
	json_key(j, "run_note");
	json_str(j, v->run_note[0] ? v->run_note : NULL);
	json_key(j, "wasm_time");
	render__table_json_group(j, v->totals, 1, "time");
	json_key(j, "wasm");
	render__table_json_group(j, v->totals, 1, "share");
	json_key(j, "core_pairs");
	rows_from(j, v->totals, 2);
	json_key(j, "functions");
	render__table_json_rows(j, v->funcs);
	/* the first functions_listed rows are the ones text and Markdown list (--top) */
	json_key(j, "functions_listed");
	json_u64(j, vt_table__shown(v->funcs));
	json_key(j, "renamed");
	render__table_json_rows(j, v->renamed);
	json_key(j, "added");
	render__table_json_rows(j, v->added);
	json_key(j, "removed");
	render__table_json_rows(j, v->removed);
	json_key(j, "moved_names");
	render__table_json_rows(j, v->moves);
	json_key(j, "classified_functions");
	json_begin_arr(j);
	for (uint32_t i = 0; i < v->in.nfuncs; i++)
		class_diff(j, v, i);
	json_end_arr(j);
	render__diff_offcpu_json(j, v);
	render__levers_diff_json(j, v->in.levers);
	gate(j, v);
	json_key(j, "warnings");
	json_begin_arr(j);
	for (uint32_t i = 0; i < v->warnings.n; i++)
		json_str(j, v->warnings.w[i].msg);
	json_end_arr(j);
}

int render__diff_json_file(const char *path, const struct view_diff *v, struct ap_err *err)
{
	struct json_doc doc;

	if (json_doc__open(&doc, path, v->in.tool, err))
		return -1;
	render__diff_json_body(&doc.j, v);
	return json_doc__commit(&doc, err);
}
