// SPDX-License-Identifier: MIT
/* aotperf diff as text: 80 columns, the function column wider on a wider terminal. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "diff.h"
#include "loops.h"
#include "../cwasm/coreset.h"
#include "../util/term.h"

/* the function column: 18 at 80 columns, what a wider terminal adds */
static size_t name_cols(const struct render_diff *r)
{
	size_t cols = r->columns ? r->columns : AP_TERM_DEFAULT_COLUMNS;

	return cols > 80 ? (cols - 80 > 100 ? 118 : 18 + cols - 80) : 18;
}

static void side_lines(FILE *out, const char *word, const struct cmp_side *s)
{
	char buf[128];

	fprintf(out, "%-7s %s%s (%u recording%s)\n", word,
		render__tail(s->mods[0]->path, s->ncores > 1 ? 50 : 54, buf, sizeof(buf)),
		s->ncores > 1 ? " ..." : "", s->ncaptures, s->ncaptures == 1 ? "" : "s");
	for (uint32_t k = 0; k < s->ncaptures; k++)
		fprintf(out, "  %-58s %10" PRIu64 " samples\n",
			render__tail(s->captures[k].label, 58, buf, sizeof(buf)), s->captures[k].total);
}

static void metric_line(FILE *out, const char *what, const struct cmp_metric *m)
{
	char p[16];

	fprintf(out, "  %-18s %6.2f%% -> %6.2f%%  %+.2f points, p %s%s\n", what, m->before.mean,
		m->after.mean, m->ch.points, render__diff_p(&m->ch, p, sizeof(p)),
		m->ch.significant ? " *" : "");
}

static void local_col(const struct cmp_func *f, char *buf, size_t len)
{
	if (f->local_before >= 0 && f->local_after >= 0 && f->local_before != f->local_after)
		snprintf(buf, len, "%" PRId64 ">%" PRId64, f->local_before, f->local_after);
	else
		snprintf(buf, len, "%" PRId64, f->local_after >= 0 ? f->local_after : f->local_before);
}

static void func_table(FILE *out, const struct render_diff *r, int incl)
{
	const struct cmp_diff *d = r->d;
	uint32_t *rows = malloc((d->nfuncs ? d->nfuncs : 1) * sizeof(*rows));
	uint32_t n, shown;

	if (!rows)
		return;
	n = render__diff_rows(r, incl, rows);
	shown = render__diff_shown(r, n);
	fprintf(out, "\n%s share of the run, by the size of the change:\n",
		incl ? "Inclusive (call graphs)" : "Self");
	fprintf(out, "  %6s %6s  %-*s %7s %7s %7s %6s %7s\n", "wasm", "local", (int)name_cols(r),
		"function", "before%", "after%", "points", "rel", "p(adj)");
	for (uint32_t i = 0; i < shown; i++) {
		const struct cmp_func *f = &d->funcs[rows[i]];
		const struct cmp_metric *m = incl ? &f->incl : &f->self;
		char name[300], cut[400], local[48], rel[16], p[16];

		local_col(f, local, sizeof(local));
		fprintf(out, "  %6" PRIu32 " %6s  %-*s %7.2f %7.2f %+7.2f %6s %7s%s\n",
			f->wasm_index, local, (int)name_cols(r),
			ap_term__fit(cut, sizeof(cut), render__diff_func_label(r, f, name, sizeof(name)),
				     name_cols(r)),
			m->before.mean, m->after.mean, m->ch.points,
			render__diff_rel(&m->ch, rel, sizeof(rel)),
			render__diff_p(&m->ch, p, sizeof(p)), m->ch.significant ? " *" : "");
	}
	if (!n)
		fprintf(out, "  (no function has samples on either side)\n");
	fprintf(out, "  * significant at %.0f%%, %s-adjusted over %u tested functions\n",
		100.0 * d->level, render__diff_adjust_words(d->adjust),
		incl ? d->ntested_incl : d->ntested_self);
	if (shown < n)
		fprintf(out, "  %u more functions with samples (--top 0 lists all)\n", n - shown);
	free(rows);
}

/* renamed / removed / added */
static void status_list(FILE *out, const struct render_diff *r, const char *title,
			const uint32_t *idx, uint32_t n)
{
	const struct cmp_diff *d = r->d;

	if (!n)
		return;
	fprintf(out, "\n%s: %u\n", title, n);
	for (uint32_t i = 0; i < n && i < 20; i++) {
		const struct cmp_func *f = &d->funcs[idx[i]];
		char local[48], pl[96], c1[128], c2[128];

		local_col(f, local, sizeof(local));
		if (f->status == CMP_RENAMED)
			fprintf(out, "  wasm %" PRIu32 " local %s: %s -> %s\n", f->wasm_index, local,
				ap_term__fit(c1, sizeof(c1), f->name_before, 28),
				ap_term__fit(c2, sizeof(c2), f->name_after, 28));
		else
			fprintf(out, "  wasm %" PRIu32 " local %s %s  %.2f%% -> %.2f%%%s%s\n",
				f->wasm_index, local,
				ap_term__fit(c1, sizeof(c1), f->name_before ? f->name_before
							     : f->name_after ? f->name_after : "", 30),
				f->self.before.mean, f->self.after.mean, d->npairs > 1 ? "  " : "",
				d->npairs > 1 ? render__diff_pair_label(r, f->pair, pl, sizeof(pl)) : "");
	}
	if (n > 20)
		fprintf(out, "  ... %u in all (the JSON lists every one)\n", n);
}

static void class_table(FILE *out, const struct render_diff *r, const struct render_diff_func *fn)
{
	const struct cmp_cls_diff *c = &fn->cls;

	fprintf(out, "\nClasses of %s, wasm %" PRIu32 ":\n", fn->name ? fn->name : fn->spec,
		fn->wasm_index);
	if (fn->local_before < 0 || fn->local_after < 0)
		fprintf(out, "  only in the %s build\n", fn->local_before < 0 ? "after" : "before");
	fprintf(out, "  samples  before %" PRIu64 " (local_func_%" PRId64 "), after %" PRIu64
		" (local_func_%" PRId64 ")\n", fn->samples_before, fn->local_before,
		fn->samples_after, fn->local_after);
	fprintf(out, "  %-15s %-20s %s\n", "", "static instructions", "% of the function's samples");
	fprintf(out, "  %-15s %6s %6s %5s %8s %8s %8s %8s\n", "class", "before", "after", "chg",
		"before", "after", "points", "p(adj)");
	for (int i = 0; i < CLS__COUNT; i++) {
		uint32_t k = c->order[i];
		const struct cmp_cls_row *row = &c->cls[k];
		char p[16];

		if (!row->static_before && !row->static_after && !row->share.before.samples &&
		    !row->share.after.samples)
			continue;
		fprintf(out, "  %-15s %6" PRIu32 " %6" PRIu32 " %+5" PRId64 " %8.2f %8.2f %+8.2f %8s%s\n",
			cls__name((enum cls_class)k), row->static_before, row->static_after,
			row->static_change, row->share.before.mean, row->share.after.mean,
			row->share.ch.points, render__diff_p(&row->share.ch, p, sizeof(p)),
			row->share.ch.significant ? " *" : "");
	}
	if (c->tested)
		fprintf(out, "  * significant at %.0f%%: z-test on the summed class samples, %s over "
			"%u classes\n", 100.0 * r->d->level, render__diff_adjust_words(r->d->adjust),
			c->ntested);
	else
		fprintf(out, "  (not tested: a side has no samples in the function)\n");
	if (fn->loops)
		render__loop_pair_text(out, fn->loops, 80);
	(void)r;
}

static void gate_lines(FILE *out, const struct render_diff *r)
{
	const struct cmp_gate *g = r->gate;

	fprintf(out, "\nGate --fail-if-slower %g (%s): %s\n", g->pct, r->gate_what,
		g->failed ? "FAILED" : g->nchecks ? "passed" : "nothing ran before");
	for (uint32_t i = 0; i < g->nchecks; i++) {
		const struct cmp_gate_check *c = &g->checks[i];
		char what[96], cut[128], rel[16], p[16];

		if (c->func >= 0)
			render__diff_func_label(r, &r->d->funcs[c->func], what, sizeof(what));
		else if (r->gate_wasm)
			snprintf(what, sizeof(what), "in wasm code");
		else
			snprintf(what, sizeof(what), "wasm %" PRIu32, c->wasm_index);
		fprintf(out, "  %-24s %6.2f%% -> %6.2f%% %7s p %-7s %s\n",
			ap_term__fit(cut, sizeof(cut), what, 24), c->m.before.mean,
			c->m.after.mean, render__diff_rel(&c->m.ch, rel, sizeof(rel)),
			render__diff_p(&c->m.ch, p, sizeof(p)),
			c->slower ? "SLOWER" : c->grew ? "grew, not significant" : "not slower");
	}
}

void render__diff_text(FILE *out, const struct render_diff *r)
{
	const struct cmp_diff *d = r->d;

	fprintf(out, "aotperf diff: %u recording%s before, %u after%s%s\n", r->before->ncaptures,
		r->before->ncaptures == 1 ? "" : "s", r->after->ncaptures,
		r->event ? ", event " : "", r->event ? r->event : "");
	side_lines(out, "before", r->before);
	side_lines(out, "after", r->after);
	fprintf(out, "test    %s,\n        %s-adjusted, %.0f%% level; shares are %% of all samples"
		"\n", render__diff_test_words(d), render__diff_adjust_words(d->adjust),
		100.0 * d->level);
	fprintf(out, "\n");
	metric_line(out, "in wasm code", &d->wasm);
	if (d->npairs > 1)
		for (uint32_t i = 0; i < d->npairs; i++) {
			char pl[96];

			metric_line(out, render__diff_pair_label(r, i, pl, sizeof(pl)),
				    &d->pairs[i].core);
		}
	func_table(out, r, 0);
	if (d->before->has_incl && d->after->has_incl)
		func_table(out, r, 1);
	render__diff_offcpu_text(out, r);
	if (!d->nrenamed && !d->nremoved && !d->nadded)
		fprintf(out, "\nNo function renamed, removed or added.\n");
	status_list(out, r, "Renamed (same wasm index, another name)", d->renamed, d->nrenamed);
	status_list(out, r, "Removed (only in the before build)", d->removed, d->nremoved);
	status_list(out, r, "Added (only in the after build)", d->added, d->nadded);
	if (d->nmoves)
		fprintf(out, "\nNames at another wasm index: %u (matched by index all the same)\n",
			d->nmoves);
	for (uint32_t i = 0; i < d->nmoves && i < 5; i++) {
		char cut[128];

		fprintf(out, "  name %s: wasm %" PRIu32 " before, %" PRIu32 " after\n",
			ap_term__fit(cut, sizeof(cut), d->moves[i].name, 30),
			d->moves[i].wasm_before, d->moves[i].wasm_after);
	}
	for (uint32_t i = 0; i < r->nfuncs; i++)
		class_table(out, r, &r->funcs[i]);
	if (r->gate)
		gate_lines(out, r);
}
