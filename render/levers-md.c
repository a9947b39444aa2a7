// SPDX-License-Identifier: MIT
/*
 * The run's lever table (loops/levers.h) as GitHub Markdown: the same rows,
 * notes and verdict as the text (levers.c), for report --markdown.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include "loops.h"
#include "markdown.h"
#include "../loops/levers.h"
#include "../util/pct.h"

static int rows_table(FILE *f, const char *name, const struct lp_levers *lv, struct ap_err *err)
{
	const struct md_coldef cols[] = {
		{ "lever", MD_LEFT, 0 }, { "functions", MD_RIGHT, 0 },
		{ "instructions", MD_RIGHT, 0 }, { "samples on them", MD_RIGHT, 0 },
		{ "%run", MD_RIGHT, 0 }, { render__lever_unit(lv), MD_RIGHT, 0 },
		{ "tolerance", MD_RIGHT, 0 },
	};
	struct md_table *t = md_table__new_cols(cols, 7, err);

	if (!t)
		return -1;
	for (int i = 0; i < LP__NLEVERS; i++) {
		const struct lp_lever_row *r = &lv->rows[i];
		char pay[32];
		int rc;

		render__lever_payoff(r, pay, sizeof(pay));
		rc = md_table__cell_code(t, lp_lever__name((enum lp_lever)r->lever), err) ||
		     md_table__cellf(t, err, "%u", r->functions) ||
		     md_table__cellf(t, err, "%u", r->removed) ||
		     md_table__cellf(t, err, "%" PRIu64, r->samples) ||
		     md_table__cellf(t, err, "%.1f%%", ap_pct(r->samples, lv->run_samples)) ||
		     md_table__cell(t, pay, err) ||
		     (render__lever_row_modelled(r) ? md_table__cellf(t, err, "+-%.1f", r->tolerance) :
						       md_table__cell(t, "-", err)) ||
		     md_table__end_row(t, err);
		if (rc) {
			md_table__delete(t);
			return -1;
		}
	}
	return md_table__flush(t, f, name, err);
}

int render__levers_md(FILE *f, const char *name, const struct profile *p, struct ap_err *err)
{
	const struct lp_levers *lv = p->levers;
	char *esc, text[512];

	if (!lv)
		return 0;
	fputs("### Which lever pays for the run\n\n", f);
	if (lv->static_only)
		fprintf(f, "No recording: the %u largest functions with loops, every loop modelled; each "
			"lever's mean saving per modelled loop (no run shares).\n\n", lv->nfuncs);
	else
		fprintf(f, "%u functions hold %.1f%% of the wasm samples; their loops with %.0f%% "
			"of their function or more are modelled: %.1f%% of the run (%.1f%% not "
			"modelled).\n\n", lv->nfuncs, ap_pct(lv->chosen_samples, lv->wasm_samples),
			lv->loop_min, lp_levers__modelled_pct(lv),
			100.0 - lp_levers__modelled_pct(lv));
	if (rows_table(f, name, lv, err))
		return -1;
	for (int i = 0; i < LP__NLEVERS; i++) {
		const struct lp_lever_row *r = &lv->rows[i];

		if (!r->unmodelled_loops)
			continue;
		snprintf(text, sizeof(text), "%s: not modelled in %u loop(s), %.1f%% of the run: %s",
			 lp_lever__name((enum lp_lever)r->lever), r->unmodelled_loops,
			 r->unmodelled_share, r->why);
		esc = md__escape_cell(text, 0, 0);
		if (!esc)
			return ap_err_nomem(err);
		fprintf(f, "- %s\n", esc);
		free(esc);
	}
	render__levers_verdict(lv, text, sizeof(text));
	esc = md__escape_cell(text, 0, 0);
	if (!esc)
		return ap_err_nomem(err);
	fprintf(f, "\n**verdict:** %s. Model: `%s` on `-mcpu=%s`; tolerance from the kernel "
		"pairs (docs/levers.md).\n\n", esc, *lv->model.tool ? lv->model.tool : "none",
		*lv->model.mcpu ? lv->model.mcpu : "-");
	free(esc);
	return ferror(f) ? ap_errk(err, AP_ERR_IO, "%s: write failed", name) : 0;
}
