// SPDX-License-Identifier: MIT
/*
 * diff --levers: the before build's predicted lever payoffs next to what
 * the run and each function achieved (view/levers-diff.h), as text, the
 * diff JSON's member "levers" and Markdown.
 */
#include <stdio.h>
#include "levers.h"
#include "markdown.h"
#include "table.h"
#include "../util/json_out.h"
#include "../util/term.h"

static void run_line(const struct view_levers_diff *v, char *line, size_t n)
{
	if (!v->timed)
		snprintf(line, n, "no time per run: %s", v->note);
	else
		snprintf(line, n, "the run: %.2f ms before, %.2f ms after: %.1f%% saved (interval "
			 "%.1f..%.1f%%)", v->before_ns / 1e6, v->after_ns / 1e6, v->achieved,
			 v->achieved_lo, v->achieved_hi);
}

void render__levers_diff_text(FILE *out, const struct view_levers_diff *v, unsigned cols)
{
	char line[640];

	if (!v)
		return;
	fprintf(out, "\nLevers: the before build's predictions against the change (--levers):\n");
	line[0] = line[1] = ' ';
	run_line(v, line + 2, sizeof(line) - 2);
	ap_term__wrap(out, line, cols, 4);
	render__table_text(out, v->rows, cols, 2, 0);
	fprintf(out, "\n  per function: achieved and predicted saving, %% of the before run\n");
	render__table_text(out, v->funcs, cols, 2, 0);
	snprintf(line, sizeof(line), "  verdict: %s", v->verdict);
	ap_term__wrap(out, line, cols, 4);
}

void render__levers_diff_json(struct json_out *j, const struct view_levers_diff *v)
{
	if (!v)
		return;
	json_key(j, "levers");
	json_begin_obj(j);
	json_key(j, "timed"); json_bool(j, v->timed);
	json_key(j, "run_before_ns");
	v->timed ? json_dbl(j, v->before_ns, 0) : json_null(j);
	json_key(j, "run_after_ns");
	v->timed ? json_dbl(j, v->after_ns, 0) : json_null(j);
	json_key(j, "achieved_pct");
	v->timed ? json_dbl(j, v->achieved, 2) : json_null(j);
	json_key(j, "achieved_interval_pct");
	if (v->timed) {
		json_begin_arr(j);
		json_dbl(j, v->achieved_lo, 2);
		json_dbl(j, v->achieved_hi, 2);
		json_end_arr(j);
	} else {
		json_null(j);
	}
	json_key(j, "rows");
	render__table_json_rows(j, v->rows);
	json_key(j, "functions");
	render__table_json_rows(j, v->funcs);
	json_key(j, "verdict"); json_str(j, v->verdict);
	json_end_obj(j);
}

int render__levers_diff_md(FILE *f, const char *path, const struct view_levers_diff *v,
			   struct ap_err *err)
{
	char line[640];

	if (!v)
		return 0;
	fprintf(f, "## Levers: predicted against achieved\n\n");
	run_line(v, line, sizeof(line));
	md__fputs(f, line);
	fprintf(f, "\n\n");
	if (render__table_md(f, path, v->rows, err))
		return -1;
	fprintf(f, "Per function, achieved and predicted saving (%% of the before run):\n\n");
	if (render__table_md(f, path, v->funcs, err))
		return -1;
	fprintf(f, "**verdict:** ");
	md__fputs(f, v->verdict);
	fprintf(f, "\n\n");
	return 0;
}
