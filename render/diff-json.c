// SPDX-License-Identifier: MIT
/* aotperf diff as JSON (README "aotperf diff" lists the keys). */
#include <stdlib.h>
#include "diff.h"
#include "loops.h"
#include "../cwasm/coreset.h"
#include "../util/json_out.h"

static const char *const test_names[] = { "none", "z", "welch" };
static const char *const status_names[] = { "matched", "renamed", "added", "removed" };

static void share(struct json_out *j, const char *key, const struct cmp_share *s)
{
	json_key(j, key);
	json_begin_obj(j);
	json_key(j, "mean");
	json_dbl(j, s->mean, 4);
	json_key(j, "sd");
	json_dbl(j, s->sd, 4);
	json_key(j, "min");
	json_dbl(j, s->min, 4);
	json_key(j, "max");
	json_dbl(j, s->max, 4);
	json_key(j, "samples");
	json_u64(j, s->samples);
	json_key(j, "total_samples");
	json_u64(j, s->total);
	json_key(j, "captures");
	json_u64(j, s->n);
	json_end_obj(j);
}

static void change(struct json_out *j, const struct cmp_change *c)
{
	json_key(j, "change");
	json_begin_obj(j);
	json_key(j, "points");
	json_dbl(j, c->points, 4);
	json_key(j, "relative_pct");
	if (c->has_rel)
		json_dbl(j, c->rel_pct, 2);
	else
		json_null(j);
	json_key(j, "test");
	json_str(j, test_names[c->test]);
	json_key(j, "statistic");
	json_dbl(j, c->stat, 4);
	json_key(j, "df");
	if (c->test == CMP_TEST_WELCH)
		json_dbl(j, c->df, 2);
	else
		json_null(j);
	json_key(j, "p");
	json_dbl(j, c->p, 6);
	json_key(j, "p_adjusted");
	json_dbl(j, c->p_adj, 6);
	json_key(j, "ci_points");
	if (c->test != CMP_TEST_NONE) {
		json_begin_arr(j);
		json_dbl(j, c->ci_lo, 4);
		json_dbl(j, c->ci_hi, 4);
		json_end_arr(j);
	} else {
		json_null(j);
	}
	json_key(j, "significant");
	json_bool(j, c->significant);
	json_end_obj(j);
}

/* {before, after, change} members of a metric, or null when it has no data */
static void metric(struct json_out *j, const char *key, const struct cmp_metric *m)
{
	json_key(j, key);
	if (!m->valid) {
		json_null(j);
		return;
	}
	json_begin_obj(j);
	share(j, "before", &m->before);
	share(j, "after", &m->after);
	change(j, &m->ch);
	json_end_obj(j);
}

static void side(struct json_out *j, const char *key, const struct cmp_side *s)
{
	json_key(j, key);
	json_begin_obj(j);
	json_key(j, "cores");
	json_begin_arr(j);
	for (uint32_t c = 0; c < s->ncores; c++) {
		json_begin_obj(j);
		json_key(j, "core");
		json_str(j, core_set__core_name(s->mods[c]));
		json_key(j, "cwasm");
		json_str(j, s->mods[c]->path);
		json_key(j, "function_count");
		json_u64(j, s->mods[c]->nfuncs);
		json_key(j, "import_function_count");
		json_u64(j, s->mods[c]->import_func_count);
		json_end_obj(j);
	}
	json_end_arr(j);
	json_key(j, "captures");
	json_begin_arr(j);
	for (uint32_t k = 0; k < s->ncaptures; k++) {
		json_begin_obj(j);
		json_key(j, "perf");
		json_str(j, s->captures[k].label);
		json_key(j, "total_samples");
		json_u64(j, s->captures[k].total);
		json_end_obj(j);
	}
	json_end_arr(j);
	json_end_obj(j);
}

static void func_side(struct json_out *j, const char *key, int64_t local, const char *name,
		      uint32_t size)
{
	json_key(j, key);
	if (local < 0) {
		json_null(j);
		return;
	}
	json_begin_obj(j);
	json_key(j, "local_func");
	json_i64(j, local);
	json_key(j, "name");
	json_str(j, name);
	json_key(j, "code_bytes");
	json_u64(j, size);
	json_end_obj(j);
}

static void core_of(struct json_out *j, const struct render_diff *r, uint32_t pair)
{
	char buf[256];

	json_key(j, "core");
	json_str(j, render__diff_pair_label(r, pair, buf, sizeof(buf)));
}

static void func(struct json_out *j, const struct render_diff *r, const struct cmp_func *f,
		 uint32_t i)
{
	json_begin_obj(j);
	core_of(j, r, f->pair);
	json_key(j, "wasm_func");
	json_u64(j, f->wasm_index);
	json_key(j, "status");
	json_str(j, status_names[f->status]);
	func_side(j, "before_func", f->local_before, f->name_before, f->size_before);
	func_side(j, "after_func", f->local_after, f->name_after, f->size_after);
	metric(j, "self", &f->self);
	metric(j, "inclusive", &f->incl);
	render__diff_offcpu_func_json(j, r, i);
	json_end_obj(j);
}

static void index_list(struct json_out *j, const char *key, const struct render_diff *r,
		       const uint32_t *idx, uint32_t n)
{
	json_key(j, key);
	json_begin_arr(j);
	for (uint32_t i = 0; i < n; i++) {
		const struct cmp_func *f = &r->d->funcs[idx[i]];

		json_begin_obj(j);
		core_of(j, r, f->pair);
		json_key(j, "wasm_func");
		json_u64(j, f->wasm_index);
		json_key(j, "before_local_func");
		f->local_before >= 0 ? json_i64(j, f->local_before) : json_null(j);
		json_key(j, "after_local_func");
		f->local_after >= 0 ? json_i64(j, f->local_after) : json_null(j);
		json_key(j, "before_name");
		json_str(j, f->name_before);
		json_key(j, "after_name");
		json_str(j, f->name_after);
		json_end_obj(j);
	}
	json_end_arr(j);
}

static void class_diff(struct json_out *j, const struct render_diff *r,
		       const struct render_diff_func *f)
{
	json_begin_obj(j);
	json_key(j, "spec");
	json_str(j, f->spec);
	if (f->pair >= 0)
		core_of(j, r, (uint32_t)f->pair);
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
	for (int k = 0; k < CLS__COUNT; k++) {
		const struct cmp_cls_row *row = &f->cls.cls[k];

		json_key(j, cls__name((enum cls_class)k));
		json_begin_obj(j);
		json_key(j, "static_before");
		json_u64(j, row->static_before);
		json_key(j, "static_after");
		json_u64(j, row->static_after);
		json_key(j, "static_change");
		json_i64(j, row->static_change);
		json_key(j, "samples_before");
		json_u64(j, row->share.before.samples);
		json_key(j, "samples_after");
		json_u64(j, row->share.after.samples);
		json_key(j, "percent_of_function_before");
		json_dbl(j, row->share.before.mean, 2);
		json_key(j, "percent_of_function_after");
		json_dbl(j, row->share.after.mean, 2);
		change(j, &row->share.ch);
		json_end_obj(j);
	}
	json_end_obj(j);
	if (f->loops) {
		json_key(j, "hottest_loop");
		render__loop_pair_json(j, f->loops);
	}
	json_end_obj(j);
}

static void gate(struct json_out *j, const struct render_diff *r)
{
	const struct cmp_gate *g = r->gate;

	json_key(j, "gate");
	if (!g) {
		json_null(j);
		return;
	}
	json_begin_obj(j);
	json_key(j, "fail_if_slower_pct");
	json_dbl(j, g->pct, 4);
	json_key(j, "judged");
	json_str(j, r->gate_what);
	json_key(j, "failed");
	json_bool(j, g->failed);
	json_key(j, "checks");
	json_begin_arr(j);
	for (uint32_t i = 0; i < g->nchecks; i++) {
		const struct cmp_gate_check *c = &g->checks[i];

		json_begin_obj(j);
		if (!r->gate_wasm) {
			core_of(j, r, c->pair);
			json_key(j, "wasm_func");
			json_u64(j, c->wasm_index);
		}
		share(j, "before", &c->m.before);
		share(j, "after", &c->m.after);
		change(j, &c->m.ch);
		json_key(j, "grew");
		json_bool(j, c->grew);
		json_key(j, "slower");
		json_bool(j, c->slower);
		json_end_obj(j);
	}
	json_end_arr(j);
	json_end_obj(j);
}

static void body(struct json_out *j, const struct render_diff *r)
{
	const struct cmp_diff *d = r->d;

	json_key(j, "event");
	json_str(j, r->event);
	json_key(j, "level");
	json_dbl(j, d->level, 4);
	json_key(j, "adjust");
	json_str(j, d->adjust == CMP_ADJ_HOLM ? "holm" : d->adjust == CMP_ADJ_BONFERRONI
							     ? "bonferroni" : "none");
	json_key(j, "test");
	json_str(j, render__diff_test_words(d));
	json_key(j, "tested_functions");
	json_u64(j, d->ntested_self);
	json_key(j, "tested_functions_inclusive");
	json_u64(j, d->ntested_incl);
	side(j, "before", r->before);
	side(j, "after", r->after);
	metric(j, "wasm", &d->wasm);
	json_key(j, "core_pairs");
	json_begin_arr(j);
	for (uint32_t i = 0; i < d->npairs; i++) {
		const struct cmp_pair *p = &d->pairs[i];

		json_begin_obj(j);
		core_of(j, r, i);
		json_key(j, "manifest_idx");
		p->manifest_idx >= 0 ? json_i64(j, p->manifest_idx) : json_null(j);
		json_key(j, "matched");
		json_u64(j, p->nmatched);
		json_key(j, "added");
		json_u64(j, p->nadded);
		json_key(j, "removed");
		json_u64(j, p->nremoved);
		metric(j, "share", &p->core);
		json_end_obj(j);
	}
	json_end_arr(j);
	json_key(j, "functions");
	json_begin_arr(j);
	for (uint32_t i = 0; i < d->nfuncs; i++)
		func(j, r, &d->funcs[i], i);
	json_end_arr(j);
	index_list(j, "renamed", r, d->renamed, d->nrenamed);
	index_list(j, "added", r, d->added, d->nadded);
	index_list(j, "removed", r, d->removed, d->nremoved);
	json_key(j, "moved_names");
	json_begin_arr(j);
	for (uint32_t i = 0; i < d->nmoves; i++) {
		json_begin_obj(j);
		core_of(j, r, d->moves[i].pair);
		json_key(j, "name");
		json_str(j, d->moves[i].name);
		json_key(j, "before_wasm_func");
		json_u64(j, d->moves[i].wasm_before);
		json_key(j, "after_wasm_func");
		json_u64(j, d->moves[i].wasm_after);
		json_end_obj(j);
	}
	json_end_arr(j);
	json_key(j, "classified_functions");
	json_begin_arr(j);
	for (uint32_t i = 0; i < r->nfuncs; i++)
		class_diff(j, r, &r->funcs[i]);
	json_end_arr(j);
	render__diff_offcpu_json(j, r);
	gate(j, r);
	json_key(j, "warnings");
	json_begin_arr(j);
	for (uint32_t i = 0; i < d->nwarnings; i++)
		json_str(j, d->warnings[i]);
	json_end_arr(j);
}

int render__diff_json_file(const char *path, const struct render_diff *r, struct ap_err *err)
{
	struct json_doc doc;

	if (json_doc__open(&doc, path, r->tool, err))
		return -1;
	body(&doc.j, r);
	return json_doc__commit(&doc, err);
}
