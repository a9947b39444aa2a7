// SPDX-License-Identifier: MIT
/* aotperf spills as JSON (docs/json.md): the text's twin. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "spills.h"
#include "../util/json_out.h"
#include "../util/pct.h"

static void json_opt_u64(struct json_out *j, int have, uint64_t v)
{
	if (have)
		json_u64(j, v);
	else
		json_null(j);
}

static void json_metrics(struct json_out *j, const struct spill_log *log,
			 const struct spill_rec *r)
{
	uint64_t v;

	json_key(j, "metrics");
	json_begin_obj(j);
	for (uint32_t f = 0; f < log->nfields; f++)
		if (spill_log__get(log, r, (int)f, &v)) {
			json_key(j, log->fields[f]);
			json_u64(j, v);
		}
	json_end_obj(j);
}

static void json_heat(struct json_out *j, const struct spills *s, int known, uint64_t n)
{
	json_key(j, "samples");
	json_opt_u64(j, known, n);
	json_key(j, "percent_of_run");
	if (known)
		json_dbl(j, ap_pct(n, spills__total_samples(s)), 4);
	else
		json_null(j);
}

static void json_function(struct json_out *j, const struct spills *s, uint32_t rank,
			  uint32_t ri)
{
	const struct spill_rec *r = &s->log.recs[ri];
	uint64_t ld = r->v[SPILL_F_SPILL_LD];

	json_begin_obj(j);
	json_key(j, "rank"); json_u64(j, rank);
	json_key(j, "mod"); json_u64(j, r->mod);
	json_key(j, "local_func"); json_u64(j, r->func);
	json_key(j, "name"); json_str(j, r->name);
	json_key(j, "line"); json_u64(j, r->line);
	json_key(j, "spill_rank"); json_u64(j, s->spill_rank[ri]);
	json_metrics(j, &s->log, r);
	json_heat(j, s, spills__known(s, ri), spills__rec_samples(s, ri));
	json_key(j, "runtime");
	if (spills__known(s, ri))
		json_str(j, spills__note(s, ri));
	else
		json_null(j);
	json_key(j, "static_frame_loads");
	json_opt_u64(j, s->static_ld[ri] >= 0, (uint64_t)s->static_ld[ri]);
	json_key(j, "static_to_spill_ld");
	if (s->static_ld[ri] >= 0 && ld)
		json_dbl(j, (double)s->static_ld[ri] / (double)ld, 4);
	else
		json_null(j);
	json_end_obj(j);
}

static void json_hot(struct json_out *j, const struct spills *s, const struct spills_hot *h)
{
	const struct cwasm_func *f = &spills__core(s, h->core)->funcs[h->func];

	json_begin_obj(j);
	json_key(j, "mod"); json_u64(j, s->core_mod[h->core]);
	json_key(j, "local_func"); json_u64(j, h->func);
	json_key(j, "name"); json_str(j, f->name);
	json_heat(j, s, 1, h->samples);
	json_key(j, "in_log"); json_bool(j, h->rec != NULL);
	json_key(j, "spill_ld"); json_opt_u64(j, h->rec != NULL, h->rec ? h->rec->v[SPILL_F_SPILL_LD] : 0);
	json_key(j, "spill_rank"); json_opt_u64(j, h->rec != NULL, h->spill_rank);
	json_key(j, "few_spills"); json_bool(j, h->few_spills);
	json_end_obj(j);
}

static void json_runtime(struct json_out *j, const struct spills *s)
{
	uint64_t total = spills__total_samples(s);

	json_key(j, "runtime_cold_spillers");
	json_begin_arr(j);
	for (uint32_t i = 0; i < s->nheavy; i++) {
		uint32_t ri = s->sp_order[i];
		const struct spill_rec *r = &s->log.recs[ri];

		if (!spills__known(s, ri) || !r->v[SPILL_F_SPILL_LD] ||
		    ap_pct(spills__rec_samples(s, ri), total) >= s->o->cold_pct)
			continue;
		json_begin_obj(j);
		json_key(j, "spill_rank"); json_u64(j, i + 1);
		json_key(j, "mod"); json_u64(j, r->mod);
		json_key(j, "local_func"); json_u64(j, r->func);
		json_key(j, "name"); json_str(j, r->name);
		json_key(j, "spill_ld"); json_u64(j, r->v[SPILL_F_SPILL_LD]);
		json_heat(j, s, 1, spills__rec_samples(s, ri));
		json_end_obj(j);
	}
	json_end_arr(j);
	json_key(j, "hot_functions");
	json_begin_arr(j);
	for (uint32_t i = 0; i < s->nhot; i++)
		json_hot(j, s, &s->hot[i]);
	json_end_arr(j);
	json_key(j, "hottest");
	if (s->hottest.samples)
		json_hot(j, s, &s->hottest);
	else
		json_null(j);
	json_key(j, "lesson"); json_str(j, s->lesson);
}

static void json_diff(struct json_out *j, const struct spills *s)
{
	uint32_t both = 0, only_a = 0, only_b = 0;

	for (uint32_t i = 0; i < s->ndiff; i++) {
		both += s->diff[i].a && s->diff[i].b;
		only_a += !s->diff[i].b;
		only_b += !s->diff[i].a;
	}
	json_begin_obj(j);
	json_key(j, "log"); json_str(j, s->other.path);
	json_key(j, "field"); json_str(j, s->sort);
	json_key(j, "total_before"); json_u64(j, spills__field_total(&s->log, s->field));
	json_key(j, "total_after");
	json_u64(j, spills__field_total(&s->other, spill_log__field(&s->other, s->sort)));
	json_key(j, "in_both"); json_u64(j, both);
	json_key(j, "only_before"); json_u64(j, only_a);
	json_key(j, "only_after"); json_u64(j, only_b);
	json_key(j, "functions");
	json_begin_arr(j);
	for (uint32_t i = 0; i < s->ndiff; i++) {
		const struct spills_diff *d = &s->diff[i];
		double p = spills__diff_pct(d);

		json_begin_obj(j);
		json_key(j, "mod"); json_u64(j, d->mod);
		json_key(j, "local_func"); json_u64(j, d->func);
		json_key(j, "name"); json_str(j, *spills__diff_name(d) ? spills__diff_name(d) : NULL);
		json_key(j, "before"); json_opt_u64(j, d->has_a, d->va);
		json_key(j, "after"); json_opt_u64(j, d->has_b, d->vb);
		json_key(j, "delta");
		if (d->a && d->b)
			json_i64(j, (int64_t)(d->vb - d->va));
		else
			json_null(j);
		json_key(j, "percent");
		if (isnan(p))
			json_null(j);
		else
			json_dbl(j, p, 4);
		json_key(j, "only_in");
		if (d->a && d->b)
			json_null(j);
		else
			json_str(j, d->a ? "before" : "after");
		json_heat(j, s, d->samples >= 0, d->samples >= 0 ? (uint64_t)d->samples : 0);
		json_end_obj(j);
	}
	json_end_arr(j);
	json_end_obj(j);
}

static void json_warnings(struct json_out *j, const struct spills *s, render_hint_fn hint)
{
	json_key(j, "name_mismatches"); json_u64(j, s->name_mismatch);
	json_key(j, "warnings");
	json_begin_arr(j);
	for (uint32_t i = 0; i < s->log.nwarnings; i++)
		json_str(j, s->log.warnings[i]);
	for (uint32_t i = 0; i < s->other.nwarnings; i++)
		json_str(j, s->other.warnings[i]);
	if (s->name_mismatch)
		json_str(j, s->first_mismatch);
	render__json_warnings(j, &s->warnings, hint);
	if (s->p)
		render__json_warnings(j, &s->p->attr.warnings, hint);
	json_end_arr(j);
}

int render__spills_json_file(const char *path, const struct spills *s, render_hint_fn hint,
			     void (*extra)(struct json_out *j, void *ctx), void *ctx,
			     struct ap_err *err)
{
	const struct attr_result *res = s->p ? &s->p->attr : NULL;
	struct json_doc d;
	struct json_out *j = &d.j;

	if (json_doc__open(&d, path, "aotperf spills", err))
		return -1;
	json_key(j, "log"); json_str(j, s->log.path);
	json_key(j, "lines"); json_u64(j, s->log.lines);
	json_key(j, "metric_lines"); json_u64(j, s->log.metric_lines);
	json_key(j, "skipped_lines"); json_u64(j, s->log.skipped);
	json_key(j, "function_count"); json_u64(j, s->log.n);
	json_key(j, "sort"); json_str(j, s->sort);
	json_key(j, "top"); json_u64(j, s->ntop);
	json_key(j, "heavy"); json_u64(j, s->nheavy);
	json_key(j, "totals");
	json_begin_obj(j);
	json_key(j, "spill_ld"); json_u64(j, spills__field_total(&s->log, SPILL_F_SPILL_LD));
	json_key(j, "spill_st"); json_u64(j, spills__field_total(&s->log, SPILL_F_SPILL_ST));
	json_end_obj(j);
	json_key(j, "perf");
	json_str(j, s->p ? s->p->input : NULL);
	json_key(j, "total_samples"); json_opt_u64(j, res != NULL, res ? res->total_samples : 0);
	json_key(j, "attributed_samples");
	json_opt_u64(j, res != NULL, res ? res->attributed_samples : 0);
	json_key(j, "cores");
	json_begin_arr(j);
	for (uint32_t i = 0; i < s->cs->n; i++) {
		json_begin_obj(j);
		json_key(j, "cwasm"); json_str(j, s->cs->mods[i]->path);
		json_key(j, "mod"); json_u64(j, s->core_mod[i]);
		json_key(j, "function_count"); json_u64(j, s->cs->mods[i]->nfuncs);
		json_end_obj(j);
	}
	json_end_arr(j);
	json_key(j, "functions");
	json_begin_arr(j);
	for (uint32_t i = 0; i < s->ntop; i++)
		json_function(j, s, i + 1, s->order[i]);
	json_end_arr(j);
	if ((s->p != NULL)) {
		json_runtime(j, s);
	} else {
		json_key(j, "runtime_cold_spillers"); json_null(j);
		json_key(j, "hot_functions"); json_null(j);
		json_key(j, "hottest"); json_null(j);
		json_key(j, "lesson"); json_null(j);
	}
	json_key(j, "vs");
	if (s->o->vs_path)
		json_diff(j, s);
	else
		json_null(j);
	json_warnings(j, s, hint);
	if (extra)
		extra(j, ctx);
	return json_doc__commit(&d, err);
}
