// SPDX-License-Identifier: MIT
/* aotperf diff as GitHub Markdown, from its view: headings, notes, the generic tables. */
#include <inttypes.h>
#include "diff.h"
#include "levers.h"
#include "loops.h"
#include "markdown.h"
#include "table.h"
#include "../util/outfile.h"

static int side(FILE *f, const char *path, const struct view_diff_side *sd, struct ap_err *err)
{
	fprintf(f, "## %s\n\n", sd->word[0] == 'b' ? "Before" : "After");
	if (render__table_md(f, path, sd->recordings, err) ||
	    render__table_md(f, path, sd->cores, err))
		return -1;
	if (sd->problem[0]) {
		fprintf(f, "**%s** ", sd->truncated ? "Cut short:" : "Not consistent:");
		md__fputs(f, sd->problem);
		fprintf(f, "\n\n");
	}
	return 0;
}

static int funcs(FILE *f, const char *path, const struct view_diff *v, int incl,
		 struct ap_err *err)
{
	const struct vt_table *t = incl ? v->incl : v->funcs;
	const struct cmp_diff *d = v->d;
	uint32_t n = vt_table__nrows(t), shown = vt_table__shown(t);

	fprintf(f, "## %s %s by function\n\n", incl ? "Inclusive" : "Self",
		v->time ? "CPU time per run and share" : "share");
	if (render__table_md(f, path, t, err))
		return -1;
	if (v->time)
		fprintf(f, "Times in %s of CPU per run (each sample's period summed; the mean over "
			"the recordings), shares in percent of all samples, sorted by the size of the "
			"%s change; significant at %.0f%%, p %s-adjusted over %u functions. The CI is "
			"each function's own %.0f%% interval, not adjusted: it can exclude 0 where the "
			"adjusted p is not significant.", v->ms_word,
			v->in.by_share ? "share" : "time", 100.0 * d->level, v->adjust_words,
			incl ? d->ntested_incl_time : d->ntested_self_time, 100.0 * d->level);
	else
		fprintf(f, "Shares in percent of all samples, sorted by the size of the change; "
			"significant at %.0f%%, p %s-adjusted over %u functions. The CI is each "
			"function's own %.0f%% interval, not adjusted: it can exclude 0 where the "
			"adjusted p is not significant.", 100.0 * d->level, v->adjust_words,
			incl ? d->ntested_incl : d->ntested_self, 100.0 * d->level);
	if (shown < n)
		fprintf(f, " %u of %u functions with samples listed.", shown, n);
	fprintf(f, "\n\n");
	return 0;
}

static int status(FILE *f, const char *path, const char *title, const struct vt_table *t,
		  struct ap_err *err)
{
	fprintf(f, "## %s: %u\n\n", title, vt_table__nrows(t));
	return vt_table__nrows(t) ? render__table_md(f, path, t, err) : 0;
}

static int classes(FILE *f, const char *path, const struct view_diff *v, uint32_t i,
		   struct ap_err *err)
{
	const struct view_diff_func *fn = &v->in.funcs[i];
	char title[256];

	snprintf(title, sizeof(title), "%s (wasm %" PRIu32 ")", fn->name ? fn->name : fn->spec,
		 fn->wasm_index);
	fprintf(f, "## Classes of ");
	md__fputs(f, title);
	fprintf(f, "\n\nSamples in the function: %" PRIu64 " before, %" PRIu64 " after.%s\n\n",
		fn->samples_before, fn->samples_after,
		fn->local_before < 0 ? " Only in the after build."
		: fn->local_after < 0 ? " Only in the before build." : "");
	if (render__table_md(f, path, v->classes[i], err))
		return -1;
	if (fn->cls.tested)
		fprintf(f, "Shares of the function's samples (summed over the recordings); "
			"significant at %.0f%%: z-test per class, %s-adjusted over %u classes.\n\n",
			100.0 * v->d->level, v->adjust_words, fn->cls.ntested);
	else
		fprintf(f, "Not tested: a side has no samples in the function.\n\n");
	return fn->loops ? render__loop_pair_md(f, path, fn->loops, err) : 0;
}

static int gate(FILE *f, const char *path, const struct view_diff *v, struct ap_err *err)
{
	fprintf(f, "## Gate: --fail-if-slower %g: %s\n\nJudged: ", v->in.gate->pct,
		v->gate_verdict);
	md__fputs(f, v->in.gate_what);
	fprintf(f, ", by %s. Slower: it grew by more than %g%% of its before value and the "
		"growth is significant.\n\n", v->gate_by, v->in.gate->pct);
	if (vt_table__nrows(v->checks) && render__table_md(f, path, v->checks, err))
		return -1;
	if (v->gate_line[0]) {
		md__fputs(f, v->gate_line);
		fprintf(f, "\n\n");
	}
	return 0;
}

static int body(FILE *f, const char *path, const struct view_diff *v, struct ap_err *err)
{
	const struct cmp_diff *d = v->d;

	fprintf(f, "# aotperf diff\n\nTest: ");
	md__fputs(f, v->test_words);
	fprintf(f, ", %s-adjusted, %.0f%% level. Functions are matched by wasm function index.\n\n",
		v->adjust_words, 100.0 * d->level);
	if (side(f, path, &v->side[0], err) || side(f, path, &v->side[1], err))
		return -1;
	fprintf(f, "## %s\n\n", v->time ? "CPU time per run and share of the run" : "Share of the run");
	if (render__table_md(f, path, v->totals, err))
		return -1;
	if (v->run_note[0]) {
		fprintf(f, "**Note:** ");
		md__fputs(f, v->run_note);
		fprintf(f, "\n\n");
	}
	if (funcs(f, path, v, 0, err) || (v->incl && funcs(f, path, v, 1, err)) ||
	    render__diff_offcpu_markdown(f, path, v, err) ||
	    render__levers_diff_md(f, path, v->in.levers, err) ||
	    status(f, path, "Renamed (same wasm index, another name)", v->renamed, err) ||
	    status(f, path, "Removed (only in the before build)", v->removed, err) ||
	    status(f, path, "Added (only in the after build)", v->added, err))
		return -1;
	for (uint32_t i = 0; i < v->in.nfuncs; i++)
		if (classes(f, path, v, i, err))
			return -1;
	if (v->in.gate && gate(f, path, v, err))
		return -1;
	if (v->warnings.n) {
		fprintf(f, "## Warnings\n\n");
		for (uint32_t i = 0; i < v->warnings.n; i++) {
			fprintf(f, "* ");
			md__fputs(f, v->warnings.w[i].msg);
			fputc('\n', f);
		}
	}
	return 0;
}

int render__diff_markdown_file(const char *path, const struct view_diff *v, struct ap_err *err)
{
	struct outfile out;

	if (outfile__open(&out, path, err))
		return -1;
	if (body(out.f, path, v, err)) {
		outfile__abort(&out);
		return -1;
	}
	return outfile__commit(&out, err);
}
