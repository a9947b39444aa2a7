// SPDX-License-Identifier: MIT
/* The report as JSON (README "JSON"): the text report's twin. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "consistency.h"
#include "helper.h"
#include "offcpu.h"
#include "loops.h"
#include "report.h"
#include "report-export.h"
#include "../util/pct.h"
#include "../util/sha256.h"

static void json_top_functions(struct json_out *j, const struct profile *p, uint32_t core,
			       uint32_t n, uint64_t run_total)
{
	const struct attr_core *c = &p->attr.cores[core];
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
		render__offcpu_json_row(j, p, core, r->func);
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

void render__json_target(struct json_out *j, const struct cwasm_target *t)
{
	json_begin_obj(j);
	json_key(j, "architecture"); json_str(j, cwasm_arch__name(t->declared_arch));
	json_key(j, "abi"); json_str(j, t->verified ? cwasm_abi__name(t->declared_abi) : NULL);
	json_key(j, "format"); json_str(j, cwasm_format__name(t->format));
	json_key(j, "verified"); json_bool(j, t->verified);
	json_key(j, "profile"); json_str(j, cwasm_profile__name(t->profile));
	/* what the code was decoded as: the target's, or --arch */
	json_key(j, "decoded_as"); json_str(j, cwasm_arch__name(t->arch));
	json_key(j, "arch_override"); json_bool(j, t->overridden);
	json_end_obj(j);
}

/*
 * The upstream helper's keys that only a recording gives (docs/
 * helper-interface.md), with its types: text_base and mapping.base
 * integers (text_base_hex keeps the hex string for --base), candidates
 * every executable //anon mapping. Report has no coverage gate: 0.0.
 */
static void json_helper_core(struct json_out *j, const struct profile *p,
			     const struct attr_core *c)
{
	const struct cwasm_module *m = c->mod;

	json_key(j, "architecture"); json_str(j, cwasm_arch__name(m->target.arch));
	json_key(j, "artifact_target"); render__json_target(j, &m->target);
	json_key(j, "authoritative"); json_bool(j, c->authoritative && !c->base_override);
	json_key(j, "minimum_attribution_coverage_pct"); json_pyfloat(j, 0.0);
	json_key(j, "text_base");
	if (c->nmappings)
		json_u64(j, c->first_base);
	else
		json_null(j);
	json_key(j, "text_base_hex"); json_hex_or_null(j, c->nmappings, c->first_base);
	(void)p;
}

void render__report_json_core(struct json_out *j, const struct profile *p, uint32_t core,
			      const struct render_opts *o)
{
	const struct attr_core *c = &p->attr.cores[core];
	const struct cwasm_module *m = c->mod;
	uint64_t total = p->attr.total_samples;
	char hex[65], abs[PATH_MAX];

	json_key(j, "cwasm"); json_str(j, render__abspath(m->path, abs, sizeof(abs)));
	json_key(j, "core"); json_str(j, core_set__core_name(m));
	if (m->manifest_idx >= 0) {
		json_key(j, "module_idx"); json_i64(j, m->manifest_idx);
	}
	ap_sha256_hex(m->sha256, hex);
	json_key(j, "cwasm_sha256"); json_str(j, hex);
	json_helper_core(j, p, c);
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
	json_key(j, "base");
	if (c->nmappings)
		json_u64(j, c->first_base);
	else
		json_null(j);
	json_key(j, "size");
	if (c->nmappings)
		json_u64(j, c->first_len);
	else
		json_null(j);
	json_key(j, "text_size"); json_u64(j, m->text_size);
	json_key(j, "page_size"); json_u64(j, render__page_size());
	json_key(j, "expected_size"); json_u64(j, attr__page_round(m->text_size));
	json_key(j, "candidates"); render__helper_candidates_json(j, p->attr.anon, p->attr.nanon);
	json_key(j, "count"); json_u64(j, c->nmappings);
	json_end_obj(j);
	json_key(j, "consistency"); render__consistency_json(j, c);
	if (p->source == PROFILE_RECORDS)
		render__report_procs_json(j, p, core);
	json_key(j, "top_functions");
	json_top_functions(j, p, core, render__shown(o, c->nranked), total);
	if (o->json_core_extra)
		o->json_core_extra(j, p, core, o->core_ctx);
}

/* Where listings put the function's first byte: the mapping's address, else its text offset. */
static uint64_t func_addr0(const struct profile *p, const struct profile_func *f)
{
	const struct attr_core *c = &p->attr.cores[f->core];

	return (c->nmappings ? c->first_base : 0) + c->mod->funcs[f->func].offset;
}

void render__report_json_func(struct json_out *j, const struct profile *p,
			      const struct profile_func *f, const struct render_opts *o)
{
	const struct cwasm_module *m = p->attr.cores[f->core].mod;

	cls__json_function(j, m, f->func, f->samples, p->attr.total_samples, &f->cls.f,
			   &f->cls.t, f->cls.insn_samples, o->hottest);
	if (f->sc && f->sc->fr) {
		render__frames_json(j, f->sc, func_addr0(p, f), 1);
	} else if (f->sc) {
		json_key(j, "frame_metadata"); json_str(j, f->sc->path);
		json_key(j, "frame_metadata_present"); json_bool(j, 0);
	}
	render__loops_json(j, f);
}

static void json_func(struct json_out *j, const struct profile *p, const struct profile_func *f,
		      const struct render_opts *o)
{
	json_begin_obj(j);
	render__report_json_func(j, p, f, o);
	json_end_obj(j);
}

/*
 * classified_function: the first picked function as the upstream helper
 * reports it (its class names, integer addresses; docs/helper-interface.md),
 * so a parser of the helper's JSON reads report's too. aotperf's own view
 * of every picked function is classified_functions[].
 */
static void json_helper_func(struct json_out *j, const struct profile *p,
			     const struct profile_func *f)
{
	const struct cwasm_module *m = p->attr.cores[f->core].mod;

	json_begin_obj(j);
	json_key(j, "core"); json_str(j, m->core_label ? m->core_label : m->path);
	json_key(j, "wasm_func"); json_u64(j, cwasm__wasm_index(m, f->func));
	json_key(j, "name"); json_str(j, m->funcs[f->func].name);
	json_key(j, "code_bytes"); json_u64(j, m->funcs[f->func].size);
	if (f->hv)
		render__helper_func_json(j, f->func, f->hv, f->sc && f->sc->fr ? f->sc : NULL,
					 func_addr0(p, f), p->attr.total_samples);
	json_end_obj(j);
}

void render__report_json_members(struct json_out *j, const struct profile *p,
				 const struct render_opts *o)
{
	const struct attr_result *a = &p->attr;
	uint32_t nclassified = 0;
	char abs[PATH_MAX];

	json_key(j, "perf");
	json_str(j, p->input && strcmp(p->input, "-") ? render__abspath(p->input, abs, sizeof(abs))
						      : p->input);
	json_key(j, "static"); json_bool(j, p->source == PROFILE_STATIC);
	json_key(j, "event"); json_str(j, p->event ? p->event : p->attr.event_name);
	/* one core: its keys at the top level too, where the upstream helper's readers look */
	if (a->ncores == 1) {
		struct render_opts top = *o;

		top.json_core_extra = NULL;	/* cores[0] carries them, once */
		render__report_json_core(j, p, 0, &top);
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
	render__report_host_json(j, p);
	for (uint32_t i = 0; i < p->nfuncs; i++)
		nclassified += p->funcs[i].classified;
	if (nclassified) {
		uint32_t first = 0;

		while (!p->funcs[first].classified)
			first++;
		json_key(j, "classified_function");
		json_helper_func(j, p, &p->funcs[first]);
		json_key(j, "classified_functions");
		json_begin_arr(j);
		for (uint32_t i = 0; i < p->nfuncs; i++)
			if (p->funcs[i].classified)
				json_func(j, p, &p->funcs[i], o);
		json_end_arr(j);
	}
	render__levers_json(j, p);
	if (p->source == PROFILE_RECORDS) {
		json_key(j, "passes"); json_u64(j, (uint64_t)a->passes);
		json_key(j, "truncated"); json_bool(j, a->truncated);
	}
	render__offcpu_json(j, p, o);
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
