// SPDX-License-Identifier: MIT
/* A class table's view in text, JSON and Markdown (classes.h). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "classes.h"
#include "markdown.h"
#include "table.h"

/* The lines under the table: labels in 15 columns, values from column 19. */
static void amounts_text(FILE *out, const struct view_classes *v)
{
	if (v->static_only) {
		fprintf(out, "  frame traffic   frame_load + frame_store: %u static (%u loads,"
			" %u stores)\n", v->frame_static, v->frame_loads, v->frame_stores);
	} else {
		fprintf(out, "  frame traffic   frame_load + frame_store: ");
		if (v->percent_only)
			fprintf(out, "%.2f%% of function", v->frame_pct);
		else if (v->sampled)
			fprintf(out, "%" PRIu64 " samples, %.2f%% of function", v->frame_samples,
				v->frame_pct);
		else
			fprintf(out, "no samples");
		fprintf(out, "\n                  %u static: %u loads, %u stores\n", v->frame_static,
			v->frame_loads, v->frame_stores);
	}
	fprintf(out, "  vmctx slot      ");
	if (v->sampled && !v->percent_only)
		fprintf(out, "%" PRIu64 " samples, ", v->vmctx_samples);
	fprintf(out, "%u static (runtime state, not spills)\n", v->vmctx_static);
}

void render__classes_text(FILE *out, const struct view_classes *v)
{
	const char *n;

	render__table_text(out, v->rows, 0, 2, 0);
	amounts_text(out, v);
	/* two lines: 80 columns; values at column 19, as the labels above */
	fprintf(out, "  %-15s frame %.1f%%  moves %.1f%%  bounds %.1f%%  dispatch %.1f%%\n",
		v->sampled ? "levers" : "levers (static)", v->lv.frame, v->lv.moves, v->lv.bounds,
		v->lv.dispatch);
	fprintf(out, "                  vmctx %.1f%%", v->lv.vmctx);
	if (v->spills_known)
		fprintf(out, "  spills %.1f%% (proven, within frame)", v->lv.spills);
	if (v->no_verdict)	/* no lever claimed from samples that are not this code's */
		fprintf(out, "\n  verdict         none: %s\n", v->no_verdict);
	else
		fprintf(out, "\n  verdict         => %s\n", v->verdict);
	for (const char *p = v->note; p && *p; p = *n ? n + 1 : n) {
		n = strchr(p, '\n');
		if (!n)
			n = p + strlen(p);
		fprintf(out, "                  %.*s\n", (int)(n - p), p);
	}
}

void render__classes_json(struct json_out *j, const struct view_classes *v)
{
	uint32_t n = vt_table__nrows(v->rows), *at = calloc(n ? n : 1, sizeof(*at));

	if (!at) {
		json_null(j);	/* out of memory: nothing rather than a wrong table */
		return;
	}
	/* the classes' order, as added (the cut put the shown rows first) */
	for (uint32_t i = 0; i < n; i++)
		at[vt_table__row(v->rows, i)] = i;
	json_begin_obj(j);
	for (uint32_t r = 0; r < n; r++) {
		json_key(j, vt_table__cell(v->rows, at[r], 0)->v.s);
		json_begin_obj(j);
		render__table_json_members(j, v->rows, at[r]);
		json_end_obj(j);
	}
	json_end_obj(j);
	free(at);
}

/* samples (null without counts), percent_of_function, static_instructions */
static void json_amount(struct json_out *j, const struct view_classes *v, uint64_t samples,
			double pct, uint32_t nstatic)
{
	json_key(j, "samples");
	if (v->percent_only || v->static_only)
		json_null(j);
	else
		json_u64(j, samples);
	json_key(j, "percent_of_function"); json_dbl(j, pct, 4);
	json_key(j, "static_instructions"); json_u64(j, nstatic);
}

void render__classes_json_levers(struct json_out *j, const struct view_classes *v)
{
	/* every frame-slot load and store that is not a save: the sidecar's view */
	json_key(j, "stack_traffic");
	json_begin_obj(j);
	json_amount(j, v, v->stack_samples, v->stack_pct, v->stack_static);
	json_end_obj(j);
	json_key(j, "frame_traffic");
	json_begin_obj(j);
	json_amount(j, v, v->frame_samples, v->frame_pct, v->frame_static);
	json_key(j, "loads"); json_u64(j, v->frame_loads);
	json_key(j, "stores"); json_u64(j, v->frame_stores);
	json_end_obj(j);
	json_key(j, "levers");
	json_begin_obj(j);
	json_key(j, "basis"); json_str(j, v->basis);
	json_key(j, "frame_pct"); json_dbl(j, v->lv.frame, 4);
	json_key(j, "spills_pct");
	if (v->spills_known)
		json_dbl(j, v->lv.spills, 4);
	else
		json_null(j);
	json_key(j, "moves_pct"); json_dbl(j, v->lv.moves, 4);
	json_key(j, "bounds_pct"); json_dbl(j, v->lv.bounds, 4);
	json_key(j, "dispatch_pct"); json_dbl(j, v->lv.dispatch, 4);
	json_key(j, "vmctx_pct"); json_dbl(j, v->lv.vmctx, 4);
	json_key(j, "verdict"); json_str(j, v->no_verdict ? NULL : v->verdict);
	json_key(j, "no_verdict"); json_str(j, v->no_verdict);
	json_end_obj(j);
}

void render__cls_table_json(struct json_out *j, const struct cls_table *t, uint64_t run_total)
{
	struct view_classes v;

	if (view_classes__init(&v, t, run_total, 0, NULL)) {
		json_null(j);	/* out of memory: nothing rather than a wrong table */
		return;
	}
	render__classes_json(j, &v);
	view_classes__exit(&v);
}

int render__classes_md(FILE *f, const char *name, const struct view_classes *v,
		       struct ap_err *err)
{
	if (render__table_md(f, name, v->rows, err))
		return -1;
	if (fprintf(f, "**verdict: %s**%s%s (levers: frame %.1f%%, moves %.1f%%, bounds %.1f%%,"
		    " dispatch %.1f%%)\n\n", v->verdict, v->no_verdict ? ": " : "",
		    v->no_verdict ? v->no_verdict : "", v->lv.frame, v->lv.moves, v->lv.bounds,
		    v->lv.dispatch) < 0)
		return ap_errk(err, AP_ERR_IO, "%s: write failed", name);
	return 0;
}

void render__hottest_text(FILE *out, const struct vt_table *h, unsigned columns)
{
	render__table_text(out, h, columns, 2, 0);
}

void render__hottest_json(struct json_out *j, const struct vt_table *h)
{
	render__table_json_rows(j, h);
}

void render__roles_text(FILE *out, const char *roles)
{
	const char *p = roles;
	size_t n, col = 13;

	/* wrap at ", " / "; " so lines stay within 80 columns */
	fprintf(out, "  roles      ");
	while (*p) {
		n = strcspn(p, ",;");
		if (p[n])
			n++;
		if (col + n > 79 && col > 13) {
			fprintf(out, "\n             ");
			col = 13;
			while (*p == ' ')
				p++, n--;
		}
		fprintf(out, "%.*s", (int)n, p);
		col += n;
		p += n;
	}
	fprintf(out, "\n");
}

static void json_names(struct json_out *j, const char *const *v, uint32_t n)
{
	json_begin_arr(j);
	for (uint32_t i = 0; i < n; i++)
		json_str(j, v[i]);
	json_end_arr(j);
}

void render__roles_json(struct json_out *j, const struct cls_func_roles *r)
{
	struct cls_roles_words w;

	cls__roles_words(r, &w);
	json_begin_obj(j);
	json_key(j, "abi"); json_str(j, w.abi);
	json_key(j, "abi_source"); json_str(j, w.abi_source);
	json_key(j, "vmctx_param"); json_str(j, w.vmctx_param);
	json_key(j, "vmctx_slot"); json_str(j, w.vmctx_slot[0] ? w.vmctx_slot : NULL);
	json_key(j, "vmctx_registers"); json_names(j, w.vmctx_regs, w.nvmctx);
	json_key(j, "membase_registers"); json_names(j, w.membase_regs, w.nmembase);
	json_key(j, "pinned_vmctx"); json_str(j, w.pinned_vmctx);
	json_key(j, "pinned_membase"); json_str(j, w.pinned_membase);
	json_key(j, "frame"); json_str(j, w.frame);
	json_key(j, "override"); json_str(j, w.override[0] ? w.override : NULL);
	json_end_obj(j);
}
