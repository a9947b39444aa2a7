// SPDX-License-Identifier: MIT
/* Several recordings of one build as JSON (captures.h; docs/json.md). */
#include "captures.h"
#include "classes.h"
#include "table.h"
#include "../cwasm/coreset.h"
#include "../util/json_out.h"

/* mean, sd, min, max (percent of each recording's samples), samples summed */
static void share(struct json_out *j, const char *key, const struct cmp_share *s)
{
	json_key(j, key);
	json_begin_obj(j);
	json_key(j, "samples"); json_u64(j, s->samples);
	json_key(j, "mean_percent_of_run"); json_dbl(j, s->mean, 4);
	json_key(j, "sd"); json_dbl(j, s->sd, 4);
	json_key(j, "min"); json_dbl(j, s->min, 4);
	json_key(j, "max"); json_dbl(j, s->max, 4);
	json_end_obj(j);
}

static void core(struct json_out *j, const struct view_captures_core *vc)
{
	const struct cwasm_module *m = vc->ac->mod;

	json_begin_obj(j);
	json_key(j, "core"); json_str(j, core_set__core_name(m));
	json_key(j, "cwasm"); json_str(j, m->path);
	json_key(j, "function_count"); json_u64(j, m->nfuncs);
	json_key(j, "import_function_count"); json_u64(j, m->import_func_count);
	share(j, "share", &vc->ac->core);
	json_key(j, "functions_with_samples"); json_u64(j, vc->ac->nranked);
	json_key(j, "top_functions");
	json_begin_arr(j);
	for (uint32_t i = 0; i < vt_table__shown(vc->funcs); i++) {
		json_begin_obj(j);
		render__table_json_members(j, vc->funcs, i);
		json_end_obj(j);
	}
	json_end_arr(j);
	json_end_obj(j);
}

static void body(struct json_out *j, const struct view_captures *v)
{
	const struct cmp_side *s = v->in.side;

	json_key(j, "event"); json_str(j, v->in.event);
	json_key(j, "recordings"); render__table_json_rows(j, v->recordings);
	json_key(j, "total_samples"); json_u64(j, v->in.agg->wasm.total);
	share(j, "wasm", &v->in.agg->wasm);
	json_key(j, "cores");
	json_begin_arr(j);
	for (uint32_t c = 0; c < v->in.agg->ncores; c++)
		core(j, &v->cores[c]);
	json_end_arr(j);
	json_key(j, "classified_functions");
	json_begin_arr(j);
	for (uint32_t i = 0; i < v->in.nfuncs; i++) {
		const struct view_captures_func *f = &v->funcs[i];
		const struct cwasm_module *m = s->mods[f->in->core];

		json_begin_obj(j);
		json_key(j, "core"); json_str(j, core_set__core_name(m));
		json_key(j, "local_func"); json_u64(j, f->in->func);
		json_key(j, "wasm_func"); json_u64(j, cwasm__wasm_index(m, f->in->func));
		json_key(j, "name"); json_str(j, m->funcs[f->in->func].name);
		json_key(j, "samples"); json_u64(j, f->in->samples);
		json_key(j, "classes"); render__classes_json(j, &f->cls);
		render__classes_json_levers(j, &f->cls);
		json_end_obj(j);
	}
	json_end_arr(j);
}

int render__captures_json_file(const char *path, const struct view_captures *v,
			       struct ap_err *err)
{
	struct json_doc doc;

	if (json_doc__open(&doc, path, v->in.tool, err))
		return -1;
	body(&doc.j, v);
	return json_doc__commit(&doc, err);
}
