// SPDX-License-Identifier: MIT
/*
 * The helper's JSON for one function (docs/helper-interface.md, "JSON"):
 * keys sorted as its json.dumps(sort_keys=True) writes them, integers as
 * integers, percentages as Python floats, paths absolute.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "frames.h"
#include "../view/frames.h"

const char *render__abspath(const char *path, char *buf, size_t len)
{
	char cwd[PATH_MAX];

	if (!path)
		return NULL;
	if (len >= PATH_MAX && realpath(path, buf))
		return buf;
	if (path[0] != '/' && getcwd(cwd, sizeof(cwd)) &&
	    (size_t)snprintf(buf, len, "%s/%s", cwd, path) < len)
		return buf;
	return path;
}

static void int_or_null(struct json_out *j, int64_t v)
{
	if (v == FRAMES_NULL)
		json_null(j);
	else
		json_i64(j, v);
}

static void tristate(struct json_out *j, int v)
{
	if (v < 0)
		json_null(j);
	else
		json_bool(j, v);
}

static void coverage(struct json_out *j, const struct view_frames *v)
{
	const struct frames_summary *s = v->s;

	json_begin_obj(j);
	json_key(j, "attributed_frame_instructions"); json_u64(j, s->attributed_frame_instructions);
	json_key(j, "attributed_frame_samples"); json_u64(j, s->attributed_frame_samples);
	json_key(j, "frame_instructions"); json_u64(j, s->frame_instructions);
	json_key(j, "frame_samples"); json_u64(j, s->frame_samples);
	json_key(j, "metadata_mapping_coverage_pct"); json_pyfloat(j, v->sample_coverage_pct);
	json_key(j, "origin_coverage_pct"); json_pyfloat(j, v->origin_coverage_pct);
	json_key(j, "origin_sample_coverage_pct"); json_pyfloat(j, v->origin_sample_coverage_pct);
	json_key(j, "proven_origin_frame_instructions");
	json_u64(j, s->proven_origin_frame_instructions);
	json_key(j, "proven_origin_frame_samples"); json_u64(j, s->proven_origin_frame_samples);
	json_key(j, "sample_coverage_pct"); json_pyfloat(j, v->sample_coverage_pct);
	json_key(j, "static_coverage_pct"); json_pyfloat(j, v->static_coverage_pct);
	json_key(j, "unknown_frame_instructions"); json_u64(j, v->unknown_insns);
	json_key(j, "unknown_frame_samples"); json_u64(j, v->unknown_samples);
	json_end_obj(j);
}

static void kind_counts(struct json_out *j, const struct frames_count *c)
{
	json_begin_obj(j);
	json_key(j, "samples"); json_u64(j, c->samples);
	json_key(j, "static_instructions"); json_u64(j, c->insns);
	json_end_obj(j);
}

static void origins(struct json_out *j, const struct view_frames *v, int extended)
{
	/* sorted by name */
	static const int order[] = { FRAMES_ALLOCATOR_SPILL, FRAMES_EXPLICIT_FRAME_STORAGE,
				     FRAMES_FIXED_RUNTIME_FRAME_STATE, FRAMES_UNKNOWN,
				     FRAMES_WASM_LOCAL_OR_PHI };

	json_begin_obj(j);
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		const struct vf_origin *c = &v->origin[order[i]];

		if (!c->insns)
			continue;	/* only the origins that occur */
		json_key(j, c->name);
		json_begin_obj(j);
		if (extended) {
			json_key(j, "loads"); kind_counts(j, &v->s->origin[order[i]][FRAMES_LOAD]);
		}
		json_key(j, "percent_of_frame_samples"); json_pyfloat(j, c->pct_frame);
		json_key(j, "samples"); json_u64(j, c->samples);
		json_key(j, "static_instructions"); json_u64(j, c->insns);
		if (extended) {
			json_key(j, "stores"); kind_counts(j, &v->s->origin[order[i]][FRAMES_STORE]);
		}
		json_end_obj(j);
	}
	json_end_obj(j);
}

static void count_or_null(struct json_out *j, const struct frames_value *v, uint32_t n)
{
	if (v)
		json_u64(j, n);
	else
		json_null(j);
}

static void contributor(struct json_out *j, const struct frames_contributor *k)
{
	const struct frames_value *v = k->value;

	json_begin_obj(j);
	json_key(j, "candidate_vregs");
	json_begin_arr(j);
	for (uint32_t i = 0; i < k->ncandidates; i++)
		json_u64(j, k->candidates[i]);
	json_end_arr(j);
	json_key(j, "defining_opcode"); json_str(j, k->defining_opcode);
	json_key(j, "frame_offset"); json_i64(j, k->frame_offset);
	if (k->paired) {
		json_key(j, "paired_components");
		json_begin_arr(j);
		for (int i = 0; i < 2; i++) {
			json_begin_obj(j);
			json_key(j, "frame_offset"); json_i64(j, k->part[i].frame_offset);
			json_key(j, "slot"); json_u64(j, k->part[i].slot);
			json_key(j, "vreg"); int_or_null(j, k->part[i].vreg);
			json_end_obj(j);
		}
		json_end_arr(j);
	}
	json_key(j, "rematerialization_eligible"); tristate(j, k->remat);
	json_key(j, "samples"); json_u64(j, k->samples);
	json_key(j, "slot"); json_u64(j, k->slot);
	json_key(j, "source_class"); json_str(j, k->source_class);
	json_key(j, "source_ir_def_count"); count_or_null(j, v, v ? v->ir_def_count : 0);
	json_key(j, "source_ir_use_count"); count_or_null(j, v, v ? v->ir_use_count : 0);
	json_key(j, "source_reload_count"); count_or_null(j, v, v ? v->reload_count : 0);
	json_key(j, "source_store_count"); count_or_null(j, v, v ? v->store_count : 0);
	json_key(j, "static_loads"); json_u64(j, k->static_loads);
	json_key(j, "static_stores"); json_u64(j, k->static_stores);
	json_key(j, "vreg"); int_or_null(j, k->vreg);
	json_key(j, "vreg_ambiguous"); json_bool(j, k->vreg_ambiguous);
	json_end_obj(j);
}

static void unknown(struct json_out *j, const struct frames_unknown *u, uint64_t addr0,
		    int extended)
{
	json_begin_obj(j);
	json_key(j, "address"); json_u64(j, addr0 + u->native_offset);
	json_key(j, "base"); json_str(j, frames__base_name(u->base));
	json_key(j, "complex_address"); json_bool(j, u->complex);
	if (u->listed) {
		json_key(j, "detail"); json_str(j, u->detail);
	}
	json_key(j, "frame_offset"); int_or_null(j, u->frame_offset);
	json_key(j, "instruction"); json_str(j, u->text);
	if (extended) {
		json_key(j, "kind"); json_str(j, frames__kind_name(u->kind));
		json_key(j, "listed"); json_bool(j, u->listed);
	}
	json_key(j, "native_offset"); json_u64(j, u->native_offset);
	json_key(j, "samples"); json_u64(j, u->samples);
	json_end_obj(j);
}

static void reconciliation(struct json_out *j, const struct frames_summary *s, int extended)
{
	json_begin_obj(j);
	json_key(j, "emitted_allocator_loads"); json_u64(j, s->emitted_allocator_loads);
	json_key(j, "emitted_allocator_stores"); json_u64(j, s->emitted_allocator_stores);
	json_key(j, "matches"); json_bool(j, s->matches);
	if (extended) {
		json_key(j, "sampled_allocator_loads"); json_u64(j, s->sampled_allocator_loads);
		json_key(j, "sampled_allocator_stores"); json_u64(j, s->sampled_allocator_stores);
	}
	json_key(j, "spill_metric_loads"); json_u64(j, s->metric_loads);
	json_key(j, "spill_metric_stores"); json_u64(j, s->metric_stores);
	json_end_obj(j);
}

static void attribution(struct json_out *j, const struct view_frames *v, uint64_t addr0,
			int extended)
{
	const struct frames_summary *s = v->s;

	json_begin_obj(j);
	json_key(j, "allocator_contributors");
	json_begin_arr(j);
	for (uint32_t i = 0; i < s->ncontrib; i++)
		contributor(j, &s->contrib[i]);
	json_end_arr(j);
	json_key(j, "coverage"); coverage(j, v);
	json_key(j, "origins"); origins(j, v, extended);
	json_key(j, "reconciliation"); reconciliation(j, s, extended);
	if (extended) {
		json_key(j, "uncovered");
		json_begin_obj(j);
		json_key(j, "loads"); kind_counts(j, &s->uncovered[FRAMES_LOAD]);
		json_key(j, "stores"); kind_counts(j, &s->uncovered[FRAMES_STORE]);
		json_end_obj(j);
	}
	json_key(j, "unknown_instructions");
	json_begin_arr(j);
	for (uint32_t i = 0; i < s->nunknown; i++)
		unknown(j, &s->unknown[i], addr0, extended);
	json_end_arr(j);
	json_end_obj(j);
}

void render__frames_json(struct json_out *j, const struct profile_sidecar *sc, uint64_t addr0,
			 int extended)
{
	struct frames_identity id;
	struct view_frames v;
	char abs[PATH_MAX];

	view_frames__init(&v, sc, 0, 0);
	if (!v.s)
		return;
	frames__identity(sc->fr, &id);
	json_key(j, "frame_attribution"); attribution(j, &v, addr0, extended);
	json_key(j, "frame_metadata"); json_str(j, render__abspath(sc->path, abs, sizeof(abs)));
	json_key(j, "frame_metadata_identity");
	json_begin_obj(j);
	json_key(j, "compiler_build_id"); json_str(j, id.compiler_build_id);
	json_key(j, "module_text_sha256"); json_str(j, id.module_text_sha256);
	json_key(j, "normalized_code_sha256"); json_str(j, id.normalized_code_sha256);
	json_key(j, "schema"); json_str(j, id.schema);
	json_key(j, "schema_version"); json_u64(j, id.schema_version);
	json_end_obj(j);
	json_key(j, "frame_metadata_module"); json_u64(j, id.module);
}

void render__helper_func_json(struct json_out *j, uint32_t func, const struct helper_view *hv,
			      const struct profile_sidecar *sc, uint64_t addr0, uint64_t run_total)
{
	struct view_helper_func v;

	view_helper_func__init(&v, func, hv, run_total);
	json_key(j, "classes");
	json_begin_obj(j);
	for (uint32_t i = 0; i < hv->nclasses; i++) {
		const struct hv_class *c = &hv->classes[i];

		json_key(j, c->name);
		json_begin_obj(j);
		json_key(j, "percent_of_run"); json_pyfloat(j, v.class_pct[i]);
		json_key(j, "samples"); json_u64(j, c->samples);
		json_key(j, "static_instructions"); json_u64(j, c->static_insns);
		json_end_obj(j);
	}
	json_end_obj(j);
	if (sc)
		render__frames_json(j, sc, addr0, 0);
	json_key(j, "hottest_instructions");
	json_begin_arr(j);
	for (uint32_t i = 0; i < hv->nhot; i++) {
		json_begin_obj(j);
		json_key(j, "address"); json_u64(j, hv->hot[i].addr);
		json_key(j, "instruction"); json_str(j, hv->hot[i].text);
		json_key(j, "percent_of_run"); json_pyfloat(j, v.hot_pct[i]);
		json_key(j, "samples"); json_u64(j, hv->hot[i].samples);
		json_end_obj(j);
	}
	json_end_arr(j);
	json_key(j, "instruction_count"); json_u64(j, hv->instruction_count);
	json_key(j, "local_func"); json_u64(j, func);
	json_key(j, "percent_of_run"); json_pyfloat(j, v.pct_run);
	json_key(j, "samples"); json_u64(j, hv->samples);
}
