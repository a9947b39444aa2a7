// SPDX-License-Identifier: MIT
/* aotperf spills as JSON from its view (docs/json.md): the text's twin. */
#include <stdio.h>
#include "frames.h"
#include "spills.h"
#include "table.h"
#include "../util/json_out.h"
#include "../view/spills.h"

static void json_opt_u64(struct json_out *j, int have, uint64_t v)
{
	if (have)
		json_u64(j, v);
	else
		json_null(j);
}

static void json_runtime(struct json_out *j, const struct view_spills *v)
{
	json_key(j, "runtime_cold_spillers");
	render__table_json_rows(j, v->cold);
	json_key(j, "hot_functions");
	render__table_json_rows(j, v->hot);
	json_key(j, "hottest");
	if (vt_table__nrows(v->hottest)) {
		json_begin_obj(j);
		render__table_json_members(j, v->hottest, 0);
		json_end_obj(j);
	} else {
		json_null(j);
	}
	json_key(j, "lesson"); json_str(j, v->s->lesson);
}

static void json_diff(struct json_out *j, const struct view_spills *v)
{
	const struct spills *s = v->s;

	json_begin_obj(j);
	json_key(j, "log"); json_str(j, s->other.path);
	json_key(j, "field"); json_str(j, s->sort);
	json_key(j, "total_before"); json_u64(j, v->diff_total_before);
	json_key(j, "total_after"); json_u64(j, v->diff_total_after);
	json_key(j, "in_both"); json_u64(j, v->diff_both);
	json_key(j, "only_before"); json_u64(j, v->diff_only_before);
	json_key(j, "only_after"); json_u64(j, v->diff_only_after);
	json_key(j, "functions");
	render__table_json_rows(j, v->diff);
	json_key(j, "functions_listed"); json_u64(j, vt_table__shown(v->diff));
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

/* "frame_origins": per listed function in a core, the sidecar's helper keys */
static void json_frames(struct json_out *j, const struct view_spills *v)
{
	json_key(j, "frame_origins");
	if (!v->frame_prefix) {
		json_null(j);
		return;
	}
	json_begin_arr(j);
	for (uint32_t i = 0; i < v->nframes; i++) {
		const struct view_spills_frame *x = &v->frames[i];

		json_begin_obj(j);
		json_key(j, "core"); json_str(j, x->core);
		json_key(j, "local_func"); json_u64(j, x->f->func);
		json_key(j, "samples"); json_u64(j, x->f->samples);
		if (x->f->sc && x->f->sc->fr) {
			render__frames_json(j, x->f->sc, x->addr0, 1);
		} else {
			json_key(j, "frame_metadata"); json_str(j, x->f->sc ? x->f->sc->path : NULL);
			json_key(j, "frame_metadata_present"); json_bool(j, 0);
		}
		json_end_obj(j);
	}
	json_end_arr(j);
}

int render__spills_json_file(const char *path, const struct view_spills *v,
			     render_hint_fn hint, struct ap_err *err)
{
	const struct spills *s = v->s;
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
	json_key(j, "attributed_pct");
	render__table_json_value(j, v->run, 0, 3);
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
	render__table_json_rows(j, v->rank);
	if (s->p) {
		json_runtime(j, v);
	} else {
		json_key(j, "runtime_cold_spillers"); json_null(j);
		json_key(j, "hot_functions"); json_null(j);
		json_key(j, "hottest"); json_null(j);
		json_key(j, "lesson"); json_null(j);
	}
	json_key(j, "vs");
	if (s->o->vs_path)
		json_diff(j, v);
	else
		json_null(j);
	json_warnings(j, s, hint);
	if (v->frame_prefix)
		json_frames(j, v);
	return json_doc__commit(&d, err);
}
