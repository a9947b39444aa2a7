// SPDX-License-Identifier: MIT
/* aotperf diff as text, from its view: the tables through render/table-text.c, 80 columns. */
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>
#include "diff.h"
#include "levers.h"
#include "loops.h"
#include "table.h"
#include "../util/term.h"

static void side_lines(FILE *out, const struct view_diff_side *sd, unsigned cols)
{
	const struct cmp_side *s = sd->cs;
	char buf[128];

	fprintf(out, "%-7s %s%s (%u recording%s)\n", sd->word,
		render__tail(s->mods[0]->path, s->ncores > 1 ? 50 : 54, buf, sizeof(buf)),
		s->ncores > 1 ? " ..." : "", s->ncaptures, s->ncaptures == 1 ? "" : "s");
	render__table_text(out, sd->recordings, cols, 2, 0);
	if (sd->problem[0]) {
		char line[1024];

		snprintf(line, sizeof(line), "  %s %s", sd->truncated ? "CUT SHORT:" :
			 "NOT consistent:", sd->problem);
		ap_term__wrap(out, line, cols, 4);
	}
}

static void note(FILE *out, unsigned cols, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* a note under a table: indented, wrapped at the width */
static void note(FILE *out, unsigned cols, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	line[0] = line[1] = ' ';
	va_start(ap, fmt);
	vsnprintf(line + 2, sizeof(line) - 2, fmt, ap);
	va_end(ap);
	ap_term__wrap(out, line, cols, 4);
}

static void func_table(FILE *out, const struct view_diff *v, int incl, unsigned cols)
{
	const struct vt_table *t = incl ? v->incl : v->funcs;
	const struct cmp_diff *d = v->d;
	uint32_t n = vt_table__nrows(t), shown = vt_table__shown(t);

	char title[300];

	if (v->time)
		snprintf(title, sizeof(title), "%s: CPU time per run (%s) and share (%%), by the "
			 "size of the %s change:", incl ? "Inclusive (call graphs)" : "Self",
			 v->ms_word, v->in.by_share ? "share" : "time");
	else
		snprintf(title, sizeof(title), "%s share of the run, by the size of the change:",
			 incl ? "Inclusive (call graphs)" : "Self");
	fputc('\n', out);
	ap_term__wrap(out, title, cols, 2);
	render__table_text(out, t, cols, 2, 0);
	if (!shown)
		fprintf(out, "  (no function has samples on either side)\n");
	note(out, cols, "* significant at %.0f%%, %s-adjusted over %u tested functions",
	     100.0 * d->level, v->adjust_words,
	     v->time ? (incl ? d->ntested_incl_time : d->ntested_self_time)
		     : (incl ? d->ntested_incl : d->ntested_self));
	if (shown < n)
		fprintf(out, "  %u more functions with samples (--top 0 lists all)\n", n - shown);
}

static void status_list(FILE *out, const char *title, const struct vt_table *t, unsigned cols)
{
	uint32_t n = vt_table__nrows(t);

	if (!n)
		return;
	fprintf(out, "\n%s: %u\n", title, n);
	render__table_text(out, t, cols, 2, 0);
	if (vt_table__shown(t) < n)
		fprintf(out, "  ... %u in all (the JSON lists every one)\n", n);
}

static void class_table(FILE *out, const struct view_diff *v, uint32_t i, unsigned cols)
{
	const struct view_diff_func *fn = &v->in.funcs[i];

	fprintf(out, "\nClasses of %s, wasm %" PRIu32 ":\n", fn->name ? fn->name : fn->spec,
		fn->wasm_index);
	if (fn->local_before < 0 || fn->local_after < 0)
		fprintf(out, "  only in the %s build\n", fn->local_before < 0 ? "after" : "before");
	fprintf(out, "  samples  before %" PRIu64 " (local_func_%" PRId64 "), after %" PRIu64
		" (local_func_%" PRId64 ")\n", fn->samples_before, fn->local_before,
		fn->samples_after, fn->local_after);
	fprintf(out, "  static instructions before, after, change; %% of the function's samples\n");
	render__table_text(out, v->classes[i], cols, 2, 0);
	if (fn->cls.tested)
		note(out, cols, "* significant at %.0f%%: z-test on the summed class samples, %s "
		     "over %u classes", 100.0 * v->d->level, v->adjust_words, fn->cls.ntested);
	else
		fprintf(out, "  (not tested: a side has no samples in the function)\n");
	if (fn->loops)
		render__loop_pair_text(out, fn->loops, cols);
}

static void gate_lines(FILE *out, const struct view_diff *v, unsigned cols)
{
	char head[300];

	snprintf(head, sizeof(head), "Gate --fail-if-slower %g (%s, by %s): %s", v->in.gate->pct,
		 v->in.gate_what, v->gate_by, v->gate_verdict);
	fputc('\n', out);
	ap_term__wrap(out, head, cols, 2);
	if (vt_table__nrows(v->checks))
		render__table_text(out, v->checks, cols, 2, 0);
	if (v->gate_line[0])
		note(out, cols, "%s", v->gate_line);
}

void render__diff_text(FILE *out, const struct view_diff *v, unsigned columns)
{
	const struct cmp_diff *d = v->d;
	unsigned cols = columns ? columns : AP_TERM_DEFAULT_COLUMNS;

	fprintf(out, "aotperf diff: %u recording%s before, %u after%s%s\n",
		v->side[0].cs->ncaptures, v->side[0].cs->ncaptures == 1 ? "" : "s",
		v->side[1].cs->ncaptures, v->in.event ? ", event " : "",
		v->in.event ? v->in.event : "");
	side_lines(out, &v->side[0], cols);
	side_lines(out, &v->side[1], cols);
	{
		char line[600];

		snprintf(line, sizeof(line), "test    %s, %s-adjusted, %.0f%% level; %s shares "
			 "are %% of all samples", v->test_words, v->adjust_words, 100.0 * d->level,
			 v->time ? "times are CPU time per run (each sample's period summed);" : "");
		ap_term__wrap(out, line, cols, 8);
	}
	if (v->time)
		fprintf(out, "\nCPU time per run (%s) and share of the run (%%):\n", v->ms_word);
	else
		fprintf(out, "\nShare of the run (%%):\n");
	render__table_text(out, v->totals, cols, 2, 0);
	if (v->run_note[0])
		note(out, cols, "NOTE: %s", v->run_note);
	func_table(out, v, 0, cols);
	if (v->incl)
		func_table(out, v, 1, cols);
	render__diff_offcpu_text(out, v, cols);
	render__levers_diff_text(out, v->in.levers, cols);
	if (!d->nrenamed && !d->nremoved && !d->nadded)
		fprintf(out, "\nNo function renamed, removed or added.\n");
	status_list(out, "Renamed (same wasm index, another name)", v->renamed, cols);
	status_list(out, "Removed (only in the before build)", v->removed, cols);
	status_list(out, "Added (only in the after build)", v->added, cols);
	if (d->nmoves) {
		fprintf(out, "\nNames at another wasm index: %u (matched by index all the same)\n",
			d->nmoves);
		render__table_text(out, v->moves, cols, 2, 0);
	}
	for (uint32_t i = 0; i < v->in.nfuncs; i++)
		class_table(out, v, i, cols);
	if (v->in.gate)
		gate_lines(out, v, cols);
}
