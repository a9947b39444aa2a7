// SPDX-License-Identifier: MIT
/* Several recordings of one build as JSON (captures.h; docs/json.md). */
#include "captures.h"
#include "../cwasm/coreset.h"
#include "../util/json_out.h"

/* mean, sd, min, max (percent of each recording's samples), samples summed */
static void share_members(struct json_out *j, const struct cmp_share *s)
{
	json_key(j, "samples");
	json_u64(j, s->samples);
	json_key(j, "mean_percent_of_run");
	json_dbl(j, s->mean, 4);
	json_key(j, "sd");
	json_dbl(j, s->sd, 4);
	json_key(j, "min");
	json_dbl(j, s->min, 4);
	json_key(j, "max");
	json_dbl(j, s->max, 4);
}

static void share(struct json_out *j, const char *key, const struct cmp_share *s)
{
	json_key(j, key);
	json_begin_obj(j);
	share_members(j, s);
	json_end_obj(j);
}

static void core(struct json_out *j, const struct render_captures *r, uint32_t c)
{
	const struct cmp_agg_core *ac = &r->agg->cores[c];
	const struct cwasm_module *m = ac->mod;
	uint32_t n = r->top && r->top < ac->nranked ? (uint32_t)r->top : ac->nranked;

	json_begin_obj(j);
	json_key(j, "core");
	json_str(j, core_set__core_name(m));
	json_key(j, "cwasm");
	json_str(j, m->path);
	json_key(j, "function_count");
	json_u64(j, m->nfuncs);
	json_key(j, "import_function_count");
	json_u64(j, m->import_func_count);
	share(j, "share", &ac->core);
	json_key(j, "functions_with_samples");
	json_u64(j, ac->nranked);
	json_key(j, "top_functions");
	json_begin_arr(j);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t f = ac->rank[i];

		json_begin_obj(j);
		json_key(j, "local_func");
		json_u64(j, f);
		json_key(j, "wasm_func");
		json_u64(j, cwasm__wasm_index(m, f));
		json_key(j, "name");
		json_str(j, m->funcs[f].name);
		json_key(j, "code_bytes");
		json_u64(j, m->funcs[f].size);
		share_members(j, &ac->self[f]);
		if (ac->incl)
			share(j, "inclusive", &ac->incl[f]);
		json_end_obj(j);
	}
	json_end_arr(j);
	json_end_obj(j);
}

static void body(struct json_out *j, const struct render_captures *r)
{
	const struct cmp_side *s = r->side;

	json_key(j, "event");
	json_str(j, r->event);
	json_key(j, "recordings");
	json_begin_arr(j);
	for (uint32_t k = 0; k < s->ncaptures; k++) {
		json_begin_obj(j);
		json_key(j, "perf");
		json_str(j, s->captures[k].label);
		json_key(j, "total_samples");
		json_u64(j, s->captures[k].total);
		if (r->attributed) {
			json_key(j, "attributed_samples");
			json_u64(j, r->attributed[k]);
		}
		if (r->reads) {	/* docs/damaged-recordings.md */
			json_key(j, "truncated"); json_bool(j, r->reads[k].truncated);
			json_key(j, "bytes_read"); json_u64(j, r->reads[k].bytes_read);
			json_key(j, "bytes_expected"); json_u64(j, r->reads[k].bytes_expected);
			json_key(j, "authoritative"); json_bool(j, r->reads[k].authoritative);
		}
		json_end_obj(j);
	}
	json_end_arr(j);
	json_key(j, "total_samples");
	json_u64(j, r->agg->wasm.total);
	share(j, "wasm", &r->agg->wasm);
	json_key(j, "cores");
	json_begin_arr(j);
	for (uint32_t c = 0; c < r->agg->ncores; c++)
		core(j, r, c);
	json_end_arr(j);
	json_key(j, "classified_functions");
	json_begin_arr(j);
	for (uint32_t i = 0; i < r->nfuncs; i++) {
		const struct render_captures_func *f = &r->funcs[i];
		const struct cwasm_module *m = s->mods[f->core];

		json_begin_obj(j);
		json_key(j, "core");
		json_str(j, core_set__core_name(m));
		json_key(j, "local_func");
		json_u64(j, f->func);
		json_key(j, "wasm_func");
		json_u64(j, cwasm__wasm_index(m, f->func));
		json_key(j, "name");
		json_str(j, m->funcs[f->func].name);
		json_key(j, "samples");
		json_u64(j, f->samples);
		json_key(j, "classes");
		cls__json(j, f->t, r->agg->wasm.total);
		cls__json_levers(j, f->t);
		json_end_obj(j);
	}
	json_end_arr(j);
}

int render__captures_json_file(const char *path, const struct render_captures *r,
			       struct ap_err *err)
{
	struct json_doc doc;

	if (json_doc__open(&doc, path, r->tool, err))
		return -1;
	body(&doc.j, r);
	return json_doc__commit(&doc, err);
}
