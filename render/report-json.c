// SPDX-License-Identifier: MIT
/* The report as JSON (README "JSON"): the text report's twin. */
#include <stdlib.h>
#include <string.h>
#include "report.h"
#include "../util/pct.h"
#include "../util/sha256.h"

static void json_top_functions(struct json_out *j, const struct attr_core *c, uint32_t n,
			       uint64_t run_total)
{
	const struct cwasm_module *m = c->mod;

	json_begin_arr(j);
	for (uint32_t i = 0; i < n; i++) {
		const struct attr_ranked *r = &c->ranked[i];
		const struct cwasm_func *f = &m->funcs[r->func];

		json_begin_obj(j);
		json_key(j, "local_func"); json_u64(j, r->func);
		json_key(j, "wasm_func"); json_u64(j, cwasm__wasm_index(m, r->func));
		json_key(j, "name"); json_str(j, f->name);
		json_key(j, "samples"); json_u64(j, r->samples);
		json_key(j, "percent_of_run"); json_dbl(j, ap_pct(r->samples, run_total), 4);
		json_key(j, "code_bytes"); json_u64(j, f->size);
		json_end_obj(j);
	}
	json_end_arr(j);
}

static void json_hex_or_null(struct json_out *j, int have, uint64_t v)
{
	if (have)
		json_hex(j, v);
	else
		json_null(j);
}

void render__report_json_core(struct json_out *j, const struct profile *p, uint32_t core,
			      const struct render_opts *o)
{
	const struct attr_core *c = &p->attr.cores[core];
	const struct cwasm_module *m = c->mod;
	uint64_t total = p->attr.total_samples;
	char hex[65];

	json_key(j, "cwasm"); json_str(j, m->path);
	json_key(j, "core"); json_str(j, core_set__core_name(m));
	if (m->manifest_idx >= 0) {
		json_key(j, "module_idx"); json_i64(j, m->manifest_idx);
	}
	ap_sha256_hex(m->sha256, hex);
	json_key(j, "cwasm_sha256"); json_str(j, hex);
	json_key(j, "text_base"); json_hex_or_null(j, c->nmappings, c->first_base);
	json_key(j, "text_size"); json_u64(j, m->text_size);
	json_key(j, "function_count"); json_u64(j, m->nfuncs);
	json_key(j, "import_function_count"); json_u64(j, m->import_func_count);
	json_key(j, "total_samples"); json_u64(j, total);
	json_key(j, "attributed_samples"); json_u64(j, c->samples);
	json_key(j, "attribution_coverage_pct"); json_dbl(j, ap_pct(c->samples, total), 4);
	json_key(j, "mapping");
	json_begin_obj(j);
	json_key(j, "authoritative"); json_bool(j, c->authoritative);
	json_key(j, "override"); json_hex_or_null(j, c->base_override, c->base_override);
	json_key(j, "size");
	if (c->nmappings)
		json_u64(j, c->first_len);
	else
		json_null(j);
	json_key(j, "expected_size"); json_u64(j, attr__page_round(m->text_size));
	json_key(j, "count"); json_u64(j, c->nmappings);
	json_end_obj(j);
	json_key(j, "top_functions");
	json_top_functions(j, c, render__shown(o, c->nranked), total);
}

void render__report_json_func(struct json_out *j, const struct profile *p,
			      const struct profile_func *f, const struct render_opts *o)
{
	const struct cwasm_module *m = p->attr.cores[f->core].mod;

	cls__json_function(j, m, f->func, f->samples, p->attr.total_samples, &f->cls.f,
			   &f->cls.t, f->cls.insn_samples, o->hottest);
	if (f->fj.sc) {
		json_key(j, "frame_attribution");
		fa__json(j, &f->fj, &f->cls.f, f->cls.insn_samples, o->fa_listed);
	} else if (f->fa_path) {
		json_key(j, "frame_attribution");
		json_begin_obj(j);
		json_key(j, "path"); json_str(j, f->fa_path);
		json_key(j, "present"); json_bool(j, 0);
		json_end_obj(j);
	}
}

static void json_func(struct json_out *j, const struct profile *p, const struct profile_func *f,
		      const struct render_opts *o)
{
	json_begin_obj(j);
	render__report_json_func(j, p, f, o);
	json_end_obj(j);
}

void render__report_json_members(struct json_out *j, const struct profile *p,
				 const struct render_opts *o)
{
	const struct attr_result *a = &p->attr;
	uint32_t nclassified = 0;

	json_key(j, "perf"); json_str(j, p->input);
	json_key(j, "event"); json_str(j, p->event);
	/* one core: its keys at the top level too, where the seed helper's readers look */
	if (a->ncores == 1) {
		render__report_json_core(j, p, 0, o);
	} else {
		json_key(j, "total_samples"); json_u64(j, a->total_samples);
		json_key(j, "attributed_samples"); json_u64(j, a->attributed_samples);
		json_key(j, "attribution_coverage_pct");
		json_dbl(j, ap_pct(a->attributed_samples, a->total_samples), 4);
	}
	json_key(j, "cores");
	json_begin_arr(j);
	for (uint32_t i = 0; i < a->ncores; i++) {
		json_begin_obj(j);
		render__report_json_core(j, p, i, o);
		json_end_obj(j);
	}
	json_end_arr(j);
	for (uint32_t i = 0; i < p->nfuncs; i++)
		nclassified += p->funcs[i].classified;
	if (nclassified) {
		uint32_t first = 0;

		while (!p->funcs[first].classified)
			first++;
		json_key(j, "classified_function");
		json_func(j, p, &p->funcs[first], o);
		json_key(j, "classified_functions");
		json_begin_arr(j);
		for (uint32_t i = 0; i < p->nfuncs; i++)
			if (p->funcs[i].classified)
				json_func(j, p, &p->funcs[i], o);
		json_end_arr(j);
	}
	if (p->source == PROFILE_RECORDS) {
		json_key(j, "passes"); json_u64(j, (uint64_t)a->passes);
		json_key(j, "truncated"); json_bool(j, a->truncated);
	}
	json_key(j, "warnings");
	json_begin_arr(j);
	render__json_warnings(j, &a->warnings, o->hint);
	json_end_arr(j);
	if (o->json_extra)
		o->json_extra(j, p, o->ctx);
}

void render__report_json(struct json_out *j, const struct profile *p,
			 const struct render_opts *o)
{
	json_begin_obj(j);
	json_key(j, "schema_version"); json_u64(j, 1);
	json_key(j, "tool"); json_str(j, o->tool);
	render__report_json_members(j, p, o);
	json_end_obj(j);
	json_finish(j);
}

int render__report_json_file(const char *path, const struct profile *p,
			     const struct render_opts *o, struct ap_err *err)
{
	struct json_doc d;

	if (json_doc__open(&d, path, o->tool, err))
		return -1;
	render__report_json_members(&d.j, p, o);
	return json_doc__commit(&d, err);
}
