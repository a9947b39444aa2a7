// SPDX-License-Identifier: MIT
/* The report's view as JSON (docs/json.md): the text report's twin. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "classes.h"
#include "consistency.h"
#include "helper.h"
#include "offcpu.h"
#include "levers.h"
#include "loops.h"
#include "report.h"
#include "report-export.h"
#include "table.h"
#include "../util/sha256.h"

/* The rows text shows, each with its off-CPU time. */
static void json_top_functions(struct json_out *j, const struct view_report *v, uint32_t core)
{
	const struct vt_table *t = v->cores[core].funcs;

	json_begin_arr(j);
	for (uint32_t i = 0; i < vt_table__shown(t); i++) {
		json_begin_obj(j);
		render__table_json_members(j, t, i);
		render__offcpu_json_row(j, v->p, core, view_report__func_of(&v->cores[core], i));
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

static void json_u64_or_null(struct json_out *j, int have, uint64_t v)
{
	if (have)
		json_u64(j, v);
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
static void json_helper_core(struct json_out *j, const struct view_report_core *vc)
{
	const struct attr_core *c = vc->c;

	json_key(j, "architecture"); json_str(j, cwasm_arch__name(vc->mod->target.arch));
	json_key(j, "artifact_target"); render__json_target(j, &vc->mod->target);
	json_key(j, "authoritative"); json_bool(j, vc->authoritative);
	json_key(j, "minimum_attribution_coverage_pct"); json_pyfloat(j, 0.0);
	json_key(j, "text_base"); json_u64_or_null(j, c->nmappings, c->first_base);
	json_key(j, "text_base_hex"); json_hex_or_null(j, c->nmappings, c->first_base);
}

static void json_mapping(struct json_out *j, const struct view_report *v,
			 const struct view_report_core *vc)
{
	const struct attr_core *c = vc->c;
	const struct attr_result *a = &v->p->attr;

	json_begin_obj(j);
	json_key(j, "how"); json_str(j, vc->how);
	json_key(j, "authoritative"); json_bool(j, c->authoritative);
	json_key(j, "override"); json_hex_or_null(j, c->base_override, c->base_override);
	json_key(j, "base"); json_u64_or_null(j, c->nmappings, c->first_base);
	json_key(j, "size"); json_u64_or_null(j, c->nmappings, c->first_len);
	json_key(j, "text_size"); json_u64(j, vc->mod->text_size);
	json_key(j, "page_size"); json_u64(j, render__page_size());
	json_key(j, "expected_size"); json_u64(j, vc->expected_size);
	json_key(j, "candidates"); render__helper_candidates_json(j, a->anon, a->nanon);
	json_key(j, "count"); json_u64(j, c->nmappings);
	json_end_obj(j);
}

static void json_core(struct json_out *j, const struct view_report *v, uint32_t core,
		      const struct render_opts *o)
{
	const struct view_report_core *vc = &v->cores[core];
	const struct cwasm_module *m = vc->mod;
	char hex[65], abs[PATH_MAX];

	json_key(j, "cwasm"); json_str(j, render__abspath(m->path, abs, sizeof(abs)));
	json_key(j, "core"); json_str(j, vc->name);
	if (m->manifest_idx >= 0) {
		json_key(j, "module_idx"); json_i64(j, m->manifest_idx);
	}
	ap_sha256_hex(m->sha256, hex);
	json_key(j, "cwasm_sha256"); json_str(j, hex);
	json_helper_core(j, vc);
	json_key(j, "text_size"); json_u64(j, m->text_size);
	json_key(j, "function_count"); json_u64(j, m->nfuncs);
	json_key(j, "import_function_count"); json_u64(j, m->import_func_count);
	json_key(j, "total_samples"); json_u64(j, v->total);
	json_key(j, "attributed_samples"); json_u64(j, vc->c->samples);
	json_key(j, "attribution_coverage_pct"); json_dbl(j, vc->pct, 4);
	json_key(j, "mapping"); json_mapping(j, v, vc);
	json_key(j, "consistency"); render__consistency_json(j, vc->c);
	if (v->p->source == PROFILE_RECORDS) {
		json_key(j, "mappings"); render__table_json_rows(j, vc->mappings);
	}
	json_key(j, "top_functions"); json_top_functions(j, v, core);
	if (o->json_core_extra)
		o->json_core_extra(j, v->p, core, o->core_ctx);
}

static void json_host(struct json_out *j, const struct view_report *v)
{
	if (!v->host)
		return;
	json_key(j, "outside_wasm");
	json_begin_obj(j);
	json_key(j, "samples"); json_u64(j, v->host_samples);
	json_key(j, "percent_of_run"); json_dbl(j, v->host_pct, 4);
	json_key(j, "rows"); render__table_json_rows(j, v->host);
	json_end_obj(j);
}

static void json_func(struct json_out *j, const struct view_report_func *f)
{
	const struct profile_func *pf = f->pf;

	json_begin_obj(j);
	json_key(j, "local_func"); json_u64(j, pf->func);
	json_key(j, "wasm_func"); json_u64(j, cwasm__wasm_index(f->mod, pf->func));
	json_key(j, "name"); json_str(j, f->mod->funcs[pf->func].name);
	json_key(j, "core"); json_str(j, f->mod->core_label ? f->mod->core_label : f->mod->path);
	json_key(j, "samples"); json_u64(j, f->samples);
	json_key(j, "percent_of_run"); json_dbl(j, f->pct, 4);
	json_key(j, "instruction_count"); json_u64(j, f->ninsns);
	json_key(j, "code_bytes"); json_u64(j, f->mod->funcs[pf->func].size);
	json_key(j, "roles"); render__roles_json(j, &pf->cls.f.roles);
	json_key(j, "classes"); render__classes_json(j, &f->cls);
	render__classes_json_levers(j, &f->cls);
	json_key(j, "hottest_instructions"); render__hottest_json(j, f->hottest);
	if (pf->sc && pf->sc->fr) {
		render__frames_json(j, pf->sc, f->address, 1);
	} else if (pf->sc) {
		json_key(j, "frame_metadata"); json_str(j, pf->sc->path);
		json_key(j, "frame_metadata_present"); json_bool(j, 0);
	}
	render__loops_json(j, f->loops);
	json_end_obj(j);
}

/*
 * classified_function: the first picked function as the upstream helper
 * reports it (its class names, integer addresses; docs/helper-interface.md),
 * so a parser of the helper's JSON reads report's too. aotperf's own view
 * of every picked function is classified_functions[].
 */
static void json_helper_func(struct json_out *j, const struct view_report *v,
			     const struct view_report_func *f)
{
	const struct cwasm_module *m = f->mod;
	const struct profile_func *pf = f->pf;

	json_begin_obj(j);
	json_key(j, "core"); json_str(j, m->core_label ? m->core_label : m->path);
	json_key(j, "wasm_func"); json_u64(j, cwasm__wasm_index(m, pf->func));
	json_key(j, "name"); json_str(j, m->funcs[pf->func].name);
	json_key(j, "code_bytes"); json_u64(j, m->funcs[pf->func].size);
	if (pf->hv)
		render__helper_func_json(j, pf->func, pf->hv, pf->sc && pf->sc->fr ? pf->sc : NULL,
					 f->address, v->total);
	json_end_obj(j);
}

/* The functions every format shows (the pages' own picks too: page 1). */
static void json_funcs(struct json_out *j, const struct view_report *v, int page)
{
	const struct view_report_func *first = NULL;

	for (uint32_t i = 0; i < v->nfuncs && !first; i++)
		if (v->funcs[i].asked || page)
			first = &v->funcs[i];
	if (!first)
		return;
	json_key(j, "classified_function");
	json_helper_func(j, v, first);
	json_key(j, "classified_functions");
	json_begin_arr(j);
	for (uint32_t i = 0; i < v->nfuncs; i++)
		if (v->funcs[i].asked || page)
			json_func(j, &v->funcs[i]);
	json_end_arr(j);
}

static void json_sorted(struct json_out *j, const struct view_report *v)
{
	if (!v->sorted)
		return;
	json_key(j, "sorted");
	render__table_json_rows(j, v->sorted);
}

/* The members; page: the HTML page's document (the functions it picked too). */
static void members(struct json_out *j, const struct view_report *v, const struct render_opts *o,
		    int page)
{
	const struct profile *p = v->p;
	const struct attr_result *a = &p->attr;
	char abs[PATH_MAX];

	json_key(j, "perf");
	json_str(j, p->input && strcmp(p->input, "-") ? render__abspath(p->input, abs, sizeof(abs))
						      : p->input);
	json_key(j, "static"); json_bool(j, p->source == PROFILE_STATIC);
	json_key(j, "event"); json_str(j, v->event);
	/* one core: its keys at the top level too, where the upstream helper's readers look */
	if (v->ncores == 1) {
		struct render_opts top = *o;

		top.json_core_extra = NULL;	/* cores[0] carries them, once */
		json_core(j, v, 0, &top);
	} else {
		json_key(j, "authoritative"); json_bool(j, v->authoritative);
		json_key(j, "total_samples"); json_u64(j, v->total);
		json_key(j, "attributed_samples"); json_u64(j, v->in_wasm);
		json_key(j, "attribution_coverage_pct"); json_dbl(j, v->in_wasm_pct, 4);
	}
	json_key(j, "cores");
	json_begin_arr(j);
	for (uint32_t i = 0; i < v->ncores; i++) {
		json_begin_obj(j);
		json_core(j, v, i, o);
		json_end_obj(j);
	}
	json_end_arr(j);
	json_host(j, v);
	json_sorted(j, v);
	json_funcs(j, v, page);
	render__levers_json(j, v->levers);
	if (p->source == PROFILE_RECORDS) {
		json_key(j, "passes"); json_u64(j, (uint64_t)a->passes);
		json_key(j, "read_ahead"); json_u64(j, a->read_ahead);
		json_key(j, "read_ahead_bytes"); json_u64(j, a->read_ahead_bytes);
	}
	if (p->source != PROFILE_STATIC) {	/* docs/damaged-recordings.md */
		json_key(j, "truncated"); json_bool(j, v->truncated);
		json_key(j, "bytes_read"); json_u64(j, a->bytes_read);
		json_key(j, "bytes_expected"); json_u64(j, a->bytes_expected);
	}
	render__offcpu_json(j, p, o);
	json_key(j, "warnings");
	json_begin_arr(j);
	render__json_warnings(j, &a->warnings, o->hint);
	json_end_arr(j);
	if (o->json_extra)
		o->json_extra(j, p, o->ctx);
}

void render__report_json_members(struct json_out *j, const struct view_report *v,
				 const struct render_opts *o)
{
	members(j, v, o, 0);
}

void render__report_page_members(struct json_out *j, const struct view_report *v,
				 const struct render_opts *o)
{
	members(j, v, o, 1);
}

void render__report_json(struct json_out *j, const struct view_report *v,
			 const struct render_opts *o)
{
	json_begin_obj(j);
	json_key(j, "schema_version"); json_u64(j, 1);
	json_key(j, "tool"); json_str(j, o->tool);
	render__report_json_members(j, v, o);
	json_end_obj(j);
	json_finish(j);
}

int render__report_json_file(const char *path, const struct view_report *v,
			     const struct render_opts *o, struct ap_err *err)
{
	struct json_doc d;

	if (json_doc__open(&d, path, o->tool, err))
		return -1;
	render__report_json_members(&d.j, v, o);
	return json_doc__commit(&d, err);
}
