// SPDX-License-Identifier: MIT
/* aotperf diff as GitHub Markdown: headings and tables (render/markdown.h). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "diff.h"
#include "loops.h"
#include "markdown.h"
#include "../cwasm/coreset.h"
#include "../util/outfile.h"

static void mean_sd(char *buf, size_t len, const struct cmp_share *s)
{
	if (s->n > 1)
		snprintf(buf, len, "%.2f ± %.2f", s->mean, s->sd);
	else
		snprintf(buf, len, "%.2f", s->mean);
}

static int metric_row(struct md_table *t, const char *what, const struct cmp_metric *m,
		      struct ap_err *err)
{
	char b[48], a[48], p[16], rel[16];

	mean_sd(b, sizeof(b), &m->before);
	mean_sd(a, sizeof(a), &m->after);
	return md_table__cell(t, what, err) || md_table__cell(t, b, err) ||
	       md_table__cell(t, a, err) || md_table__cellf(t, err, "%+.2f", m->ch.points) ||
	       md_table__cell(t, render__diff_rel(&m->ch, rel, sizeof(rel)), err) ||
	       md_table__cell(t, render__diff_p(&m->ch, p, sizeof(p)), err) ||
	       md_table__cell(t, m->ch.significant ? "yes" : "", err) ||
	       md_table__end_row(t, err);
}

static int captures(FILE *f, const char *path, const struct render_diff *r, struct ap_err *err)
{
	static const struct md_coldef cols[] = {
		{ "side", MD_LEFT, 0 }, { "cores", MD_LEFT, 0 }, { "recording", MD_LEFT, 0 },
		{ "samples", MD_RIGHT, 0 },
	};
	struct md_table *t = md_table__new_cols(cols, 4, err);

	for (int s = 0; t && s < 2; s++) {
		const struct cmp_side *sd = s ? r->after : r->before;
		char cores[512] = "";

		for (uint32_t c = 0; c < sd->ncores; c++) {
			size_t l = strlen(cores);

			snprintf(cores + l, sizeof(cores) - l, "%s%s", c ? ", " : "",
				 sd->mods[c]->path);
		}
		for (uint32_t k = 0; k < sd->ncaptures; k++)
			if (md_table__cell(t, k ? "" : s ? "after" : "before", err) ||
			    md_table__cell(t, k ? "" : cores, err) ||
			    md_table__cell_code(t, sd->captures[k].label, err) ||
			    md_table__cellf(t, err, "%" PRIu64, sd->captures[k].total) ||
			    md_table__end_row(t, err)) {
				md_table__delete(t);
				return -1;
			}
	}
	return md_table__flush(t, f, path, err);
}

static int shares(FILE *f, const char *path, const struct render_diff *r, struct ap_err *err)
{
	static const struct md_coldef cols[] = {
		{ "share of the run", MD_LEFT, 0 }, { "before %", MD_RIGHT, 0 }, { "after %", MD_RIGHT, 0 },
		{ "points", MD_RIGHT, 0 }, { "relative", MD_RIGHT, 0 }, { "p (adj.)", MD_RIGHT, 0 },
		{ "significant", MD_CENTER, 0 },
	};
	struct md_table *t = md_table__new_cols(cols, 7, err);

	if (t && metric_row(t, "in wasm code", &r->d->wasm, err))
		goto fail;
	for (uint32_t i = 0; t && r->d->npairs > 1 && i < r->d->npairs; i++) {
		char pl[128], what[160];

		snprintf(what, sizeof(what), "core %s",
			 render__diff_pair_label(r, i, pl, sizeof(pl)));
		if (metric_row(t, what, &r->d->pairs[i].core, err))
			goto fail;
	}
	return md_table__flush(t, f, path, err);
fail:
	md_table__delete(t);
	return -1;
}

static int func_rows(FILE *f, const char *path, const struct render_diff *r, int incl,
		     struct ap_err *err)
{
	static const struct md_coldef cols[] = {
		{ "wasm", MD_RIGHT, 0 }, { "local", MD_RIGHT, 0 }, { "function", MD_LEFT, 48 },
		{ "before %", MD_RIGHT, 0 }, { "after %", MD_RIGHT, 0 }, { "points", MD_RIGHT, 0 },
		{ "CI of points", MD_RIGHT, 0 }, { "relative", MD_RIGHT, 0 }, { "p (adj.)", MD_RIGHT, 0 },
		{ "significant", MD_CENTER, 0 },
	};
	const struct cmp_diff *d = r->d;
	uint32_t *rows = malloc((d->nfuncs ? d->nfuncs : 1) * sizeof(*rows));
	struct md_table *t = rows ? md_table__new_cols(cols, 10, err) : NULL;
	uint32_t n = 0, shown = 0;

	if (!rows)
		return ap_err_nomem(err);
	if (!t)
		goto fail;
	n = render__diff_rows(r, incl, rows);
	shown = render__diff_shown(r, n);
	for (uint32_t i = 0; i < shown; i++) {
		const struct cmp_func *fn = &d->funcs[rows[i]];
		const struct cmp_metric *m = incl ? &fn->incl : &fn->self;
		char name[160], local[48], b[48], a[48], ci[64] = "", rel[16], p[16];

		if (fn->local_before >= 0 && fn->local_after >= 0 &&
		    fn->local_before != fn->local_after)
			snprintf(local, sizeof(local), "%" PRId64 " → %" PRId64, fn->local_before,
				 fn->local_after);
		else
			snprintf(local, sizeof(local), "%" PRId64,
				 fn->local_after >= 0 ? fn->local_after : fn->local_before);
		mean_sd(b, sizeof(b), &m->before);
		mean_sd(a, sizeof(a), &m->after);
		if (m->ch.test != CMP_TEST_NONE)
			snprintf(ci, sizeof(ci), "%+.2f … %+.2f", m->ch.ci_lo, m->ch.ci_hi);
		if (md_table__cellf(t, err, "%" PRIu32, fn->wasm_index) ||
		    md_table__cell(t, local, err) ||
		    md_table__cell_code(t, render__diff_func_label(r, fn, name, sizeof(name)), err) ||
		    md_table__cell(t, b, err) || md_table__cell(t, a, err) ||
		    md_table__cellf(t, err, "%+.2f", m->ch.points) || md_table__cell(t, ci, err) ||
		    md_table__cell(t, render__diff_rel(&m->ch, rel, sizeof(rel)), err) ||
		    md_table__cell(t, render__diff_p(&m->ch, p, sizeof(p)), err) ||
		    md_table__cell(t, m->ch.significant ? "yes" : "", err) ||
		    md_table__end_row(t, err))
			goto fail;
	}
	fprintf(f, "## %s share by function\n\n", incl ? "Inclusive" : "Self");
	if (md_table__flush(t, f, path, err)) {
		free(rows);
		return -1;
	}
	fprintf(f, "Shares in percent of all samples (mean ± sd over the recordings), sorted "
		"by the size of the change; significant at %.0f%%, p %s-adjusted over %u "
		"functions. The CI of points is each function's own %.0f%% interval, not "
		"adjusted: it can exclude 0 where the adjusted p is not significant.",
		100.0 * d->level, render__diff_adjust_words(d->adjust),
		incl ? d->ntested_incl : d->ntested_self, 100.0 * d->level);
	if (shown < n)
		fprintf(f, " %u of %u functions with samples listed.", shown, n);
	fprintf(f, "\n\n");
	free(rows);
	return 0;
fail:
	md_table__delete(t);
	free(rows);
	return -1;
}

static int status_rows(FILE *f, const char *path, const struct render_diff *r, const char *title,
		       const uint32_t *idx, uint32_t n, struct ap_err *err)
{
	static const struct md_coldef cols[] = {
		{ "wasm", MD_RIGHT, 0 }, { "before", MD_LEFT, 0 }, { "after", MD_LEFT, 0 },
		{ "before %", MD_RIGHT, 0 }, { "after %", MD_RIGHT, 0 },
	};
	struct md_table *t;

	fprintf(f, "## %s: %u\n\n", title, n);
	if (!n)
		return 0;
	t = md_table__new_cols(cols, 5, err);
	for (uint32_t i = 0; t && i < n; i++) {
		const struct cmp_func *fn = &r->d->funcs[idx[i]];
		char b[160] = "", a[160] = "";

		if (fn->local_before >= 0)
			snprintf(b, sizeof(b), "local_func_%" PRId64 "%s%s", fn->local_before,
				 fn->name_before ? " " : "", fn->name_before ? fn->name_before : "");
		if (fn->local_after >= 0)
			snprintf(a, sizeof(a), "local_func_%" PRId64 "%s%s", fn->local_after,
				 fn->name_after ? " " : "", fn->name_after ? fn->name_after : "");
		if (md_table__cellf(t, err, "%" PRIu32, fn->wasm_index) ||
		    md_table__cell_code(t, b[0] ? b : NULL, err) ||
		    md_table__cell_code(t, a[0] ? a : NULL, err) ||
		    md_table__cellf(t, err, "%.2f", fn->self.before.mean) ||
		    md_table__cellf(t, err, "%.2f", fn->self.after.mean) ||
		    md_table__end_row(t, err)) {
			md_table__delete(t);
			return -1;
		}
	}
	return md_table__flush(t, f, path, err);
}

static int class_rows(FILE *f, const char *path, const struct render_diff *r,
		      const struct render_diff_func *fn, struct ap_err *err)
{
	static const struct md_coldef cols[] = {
		{ "class", MD_LEFT, 0 }, { "static before", MD_RIGHT, 0 }, { "static after", MD_RIGHT, 0 },
		{ "change", MD_RIGHT, 0 }, { "% of function before", MD_RIGHT, 0 },
		{ "% of function after", MD_RIGHT, 0 }, { "points", MD_RIGHT, 0 },
		{ "p (adj.)", MD_RIGHT, 0 }, { "significant", MD_CENTER, 0 },
	};
	const struct cmp_cls_diff *c = &fn->cls;
	struct md_table *t;
	char title[256];

	snprintf(title, sizeof(title), "%s (wasm %" PRIu32 ")", fn->name ? fn->name : fn->spec,
		 fn->wasm_index);
	fprintf(f, "## Classes of ");
	md__fputs(f, title);
	fprintf(f, "\n\nSamples in the function: %" PRIu64 " before, %" PRIu64 " after.%s\n\n",
		fn->samples_before, fn->samples_after,
		fn->local_before < 0 ? " Only in the after build."
		: fn->local_after < 0 ? " Only in the before build." : "");
	t = md_table__new_cols(cols, 9, err);
	for (int i = 0; t && i < CLS__COUNT; i++) {
		uint32_t k = c->order[i];
		const struct cmp_cls_row *row = &c->cls[k];
		char p[16];

		if (!row->static_before && !row->static_after && !row->share.before.samples &&
		    !row->share.after.samples)
			continue;
		if (md_table__cell_code(t, cls__name((enum cls_class)k), err) ||
		    md_table__cellf(t, err, "%" PRIu32, row->static_before) ||
		    md_table__cellf(t, err, "%" PRIu32, row->static_after) ||
		    md_table__cellf(t, err, "%+" PRId64, row->static_change) ||
		    md_table__cellf(t, err, "%.2f", row->share.before.mean) ||
		    md_table__cellf(t, err, "%.2f", row->share.after.mean) ||
		    md_table__cellf(t, err, "%+.2f", row->share.ch.points) ||
		    md_table__cell(t, render__diff_p(&row->share.ch, p, sizeof(p)), err) ||
		    md_table__cell(t, row->share.ch.significant ? "yes" : "", err) ||
		    md_table__end_row(t, err)) {
			md_table__delete(t);
			return -1;
		}
	}
	if (md_table__flush(t, f, path, err))
		return -1;
	if (c->tested)
		fprintf(f, "Shares of the function's samples (summed over the recordings); "
			"significant at %.0f%%: z-test per class, %s-adjusted over %u classes.\n\n",
			100.0 * r->d->level, render__diff_adjust_words(r->d->adjust), c->ntested);
	else
		fprintf(f, "Not tested: a side has no samples in the function.\n\n");
	return fn->loops ? render__loop_pair_md(f, path, fn->loops, err) : 0;
}

static int gate_rows(FILE *f, const char *path, const struct render_diff *r, struct ap_err *err)
{
	static const struct md_coldef cols[] = {
		{ "judged", MD_LEFT, 0 }, { "before %", MD_RIGHT, 0 }, { "after %", MD_RIGHT, 0 },
		{ "relative", MD_RIGHT, 0 }, { "p (adj.)", MD_RIGHT, 0 }, { "verdict", MD_LEFT, 0 },
	};
	const struct cmp_gate *g = r->gate;
	struct md_table *t;

	fprintf(f, "## Gate: --fail-if-slower %g: %s\n\n", g->pct, g->failed ? "FAILED" : "passed");
	fprintf(f, "Judged: ");
	md__fputs(f, r->gate_what);
	fprintf(f, ". Slower: the share grew by more than %g%% of its before value and the growth "
		"is significant.\n\n", g->pct);
	t = md_table__new_cols(cols, 6, err);
	for (uint32_t i = 0; t && i < g->nchecks; i++) {
		const struct cmp_gate_check *c = &g->checks[i];
		char what[160], rel[16], p[16];

		if (r->gate_wasm)
			snprintf(what, sizeof(what), "in wasm code");
		else if (c->func >= 0)
			render__diff_func_label(r, &r->d->funcs[c->func], what, sizeof(what));
		else
			snprintf(what, sizeof(what), "wasm %" PRIu32, c->wasm_index);
		if (md_table__cell(t, what, err) ||
		    md_table__cellf(t, err, "%.2f", c->m.before.mean) ||
		    md_table__cellf(t, err, "%.2f", c->m.after.mean) ||
		    md_table__cell(t, render__diff_rel(&c->m.ch, rel, sizeof(rel)), err) ||
		    md_table__cell(t, render__diff_p(&c->m.ch, p, sizeof(p)), err) ||
		    md_table__cell(t, c->slower ? "**slower**" : c->grew ? "grew, not significant"
							: "not slower", err) ||
		    md_table__end_row(t, err)) {
			md_table__delete(t);
			return -1;
		}
	}
	return md_table__flush(t, f, path, err);
}

static int body(FILE *f, const char *path, const struct render_diff *r, struct ap_err *err)
{
	const struct cmp_diff *d = r->d;

	fprintf(f, "# aotperf diff\n\nTest: %s, %s-adjusted, %.0f%% level. Functions are matched "
		"by wasm function index.\n\n", render__diff_test_words(d),
		render__diff_adjust_words(d->adjust), 100.0 * d->level);
	if (captures(f, path, r, err) || shares(f, path, r, err) || func_rows(f, path, r, 0, err))
		return -1;
	if (d->before->has_incl && d->after->has_incl && func_rows(f, path, r, 1, err))
		return -1;
	if (render__diff_offcpu_markdown(f, path, r, err))
		return -1;
	if (status_rows(f, path, r, "Renamed (same wasm index, another name)", d->renamed,
			d->nrenamed, err) ||
	    status_rows(f, path, r, "Removed (only in the before build)", d->removed, d->nremoved,
			err) ||
	    status_rows(f, path, r, "Added (only in the after build)", d->added, d->nadded, err))
		return -1;
	for (uint32_t i = 0; i < r->nfuncs; i++)
		if (class_rows(f, path, r, &r->funcs[i], err))
			return -1;
	if (r->gate && gate_rows(f, path, r, err))
		return -1;
	if (d->nwarnings) {
		fprintf(f, "## Warnings\n\n");
		for (uint32_t i = 0; i < d->nwarnings; i++) {
			fprintf(f, "* ");
			md__fputs(f, d->warnings[i]);
			fputc('\n', f);
		}
	}
	return 0;
}

int render__diff_markdown_file(const char *path, const struct render_diff *r,
			       struct ap_err *err)
{
	struct outfile out;

	if (outfile__open(&out, path, err))
		return -1;
	if (body(out.f, path, r, err)) {
		outfile__abort(&out);
		return -1;
	}
	return outfile__commit(&out, err);
}
