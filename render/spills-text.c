// SPDX-License-Identifier: MIT
/* aotperf spills as text: the ranking with its runtime flags, or the diff. */
#include <inttypes.h>
#include <math.h>
#include "spills.h"
#include "../util/pct.h"

static void print_u64_or_dash(FILE *out, int width, int have, uint64_t v)
{
	if (have)
		fprintf(out, " %*" PRIu64, width, v);
	else
		fprintf(out, " %*s", width, "-");
}
/* Fields every row shows; the sort field gets a column when it is another. */
static const int shown[] = { SPILL_F_INSTS, SPILL_F_SPILLED_VREGS, SPILL_F_SPILL_LD,
			     SPILL_F_SPILL_ST };
static const char *const shown_hdr[] = { "insts", "sp_vregs", "spill_ld", "spill_st" };

static int sort_is_shown(const struct spills *s)
{
	for (size_t k = 0; k < sizeof(shown) / sizeof(shown[0]); k++)
		if (shown[k] == s->field)
			return 1;
	return s->field == SPILL_F_MOD || s->field == SPILL_F_LOCAL_FUNC;
}

static void print_row(FILE *out, const struct spills *s, uint32_t rank, uint32_t ri)
{
	const struct spill_rec *r = &s->log.recs[ri];
	int cores = s->cs->n > 0;
	char lbl[64];
	uint64_t v = 0;

	/* mod has its own column */
	snprintf(lbl, sizeof(lbl), "local_func_%u", r->func);
	fprintf(out, "  %4u %4u  %-18s", rank, r->mod, lbl);
	for (size_t k = 0; k < sizeof(shown) / sizeof(shown[0]); k++) {
		int have = spill_log__get(&s->log, r, shown[k], &v);

		print_u64_or_dash(out, 9, have, v);
	}
	if (!sort_is_shown(s)) {
		int have = spill_log__get(&s->log, r, s->field, &v);

		print_u64_or_dash(out, 12, have, v);
	}
	if ((s->p != NULL)) {
		if (spills__known(s, ri))
			fprintf(out, " %8" PRIu64 " %6.2f%%", spills__rec_samples(s, ri),
			       ap_pct(spills__rec_samples(s, ri), spills__total_samples(s)));
		else
			fprintf(out, " %8s %7s", "-", "-");
	}
	if (cores) {
		uint64_t ld = r->v[SPILL_F_SPILL_LD];

		if (s->static_ld[ri] < 0)
			fprintf(out, " %8s %6s", "-", "-");
		else if (!ld)
			fprintf(out, " %8" PRId64 " %6s", s->static_ld[ri], "-");
		else
			fprintf(out, " %8" PRId64 " %6.2f", s->static_ld[ri],
			       (double)s->static_ld[ri] / (double)ld);
	}
	if ((s->p != NULL))
		fprintf(out, "  %-10s", spills__note(s, ri));
	fprintf(out, "  %s\n", r->name ? r->name : "");
}

static void print_header(FILE *out, const struct spills *s)
{
	fprintf(out, "\n  %4s %4s  %-18s", "rank", "mod", "function");
	for (size_t k = 0; k < sizeof(shown) / sizeof(shown[0]); k++)
		fprintf(out, " %9s", shown_hdr[k]);
	if (!sort_is_shown(s))
		fprintf(out, " %12s", s->sort);
	if ((s->p != NULL))
		fprintf(out, " %8s %7s", "samples", "%run");
	if (s->cs->n)
		fprintf(out, " %8s %6s", "frame_ld", "ratio");
	if ((s->p != NULL))
		fprintf(out, "  %-10s", "runtime");
	fprintf(out, "  %s\n", "name");
}
static void print_cores(FILE *out, const struct spills *s)
{
	const struct attr_result *res = s->p ? &s->p->attr : NULL;

	if (res)
		fprintf(out, "  recording  %s: %" PRIu64 " samples, %" PRIu64 " in the cores (%.1f%%)\n",
		       s->p->input, res->total_samples, res->attributed_samples,
		       ap_pct(res->attributed_samples, res->total_samples));
	for (uint32_t i = 0; i < s->cs->n; i++)
		fprintf(out, "  core       %s = log mod %u (%u functions)\n", s->cs->mods[i]->path,
		       s->core_mod[i], s->cs->mods[i]->nfuncs);
}

static void print_flags(FILE *out, const struct spills *s)
{
	uint64_t total = spills__total_samples(s);
	char lbl[64], heat[48];
	int any = 0;

	for (uint32_t i = 0; i < s->ntop; i++) {
		uint32_t ri = s->sp_order[i];
		const struct spill_rec *r = &s->log.recs[ri];
		uint64_t n = spills__rec_samples(s, ri);

		if (!spills__known(s, ri) || !r->v[SPILL_F_SPILL_LD] ||
		    ap_pct(n, total) >= s->o->cold_pct)
			continue;
		if (!any++)
			fprintf(out, "\nruntime-cold heavy spillers (top %u by spill_ld, under %g%% of run):"
			       " never or barely executed, don't optimize them first\n", s->ntop,
			       s->o->cold_pct);
		fprintf(out, "  spiller #%-4u %-24s spill_ld %-10" PRIu64 " %s%s%s\n", i + 1,
		       spills__fn_label(s, r->mod, r->func, lbl, sizeof(lbl)), r->v[SPILL_F_SPILL_LD],
		       n ? spills__heat(s, n, heat, sizeof(heat)) : "0 samples (never executed)",
		       r->name ? "  " : "", r->name ? r->name : "");
	}
	if (s->nhot)
		fprintf(out, "\nhot functions (%g%% of run or more):\n", s->o->hot_pct);
	for (uint32_t i = 0; i < s->nhot; i++) {
		const struct spills_hot *h = &s->hot[i];
		const struct cwasm_func *f = &spills__core(s, h->core)->funcs[h->func];

		fprintf(out, "  %-24s %6.2f%% of run  ",
		       spills__fn_label(s, s->core_mod[h->core], h->func, lbl, sizeof(lbl)),
		       ap_pct(h->samples, total));
		if (!h->rec)
			fprintf(out, "not in the log (no spills reported): the cost is elsewhere");
		else
			fprintf(out, "spill_ld %" PRIu64 ", spiller #%u%s", h->rec->v[SPILL_F_SPILL_LD],
			       h->spill_rank, h->few_spills ? ": few spills, the cost is elsewhere" : "");
		fprintf(out, "%s%s\n", f->name ? "  " : "", f->name ? f->name : "");
	}
	fprintf(out, "\nlesson: %s\n", s->lesson);
}

static void print_ranking(FILE *out, const struct spills *s)
{
	const struct spill_log *log = &s->log;

	fprintf(out, "aotperf spills: %s: %u functions from %" PRIu64 " metric lines (%" PRIu64
	       " lines), ranked by %s\n", log->path, log->n, log->metric_lines, log->lines,
	       s->sort);
	fprintf(out, "  totals     spill_ld %" PRIu64 ", spill_st %" PRIu64 "\n",
	       spills__field_total(log, SPILL_F_SPILL_LD), spills__field_total(log, SPILL_F_SPILL_ST));
	print_cores(out, s);
	print_header(out, s);
	for (uint32_t i = 0; i < s->ntop; i++)
		print_row(out, s, i + 1, s->order[i]);
	if (s->ntop < log->n)
		fprintf(out, "  ... %u more (--top 0 lists all)\n", log->n - s->ntop);
	if (s->cs->n)
		fprintf(out, "\n  frame_ld: unattributed frame-slot reads decoded from the core's code (class"
		       "\n  frame_load: spill reloads and other frame reads; vmctx reloads excluded);"
		       "\n  ratio = frame_ld / spill_ld, about 1 when the metric and the code agree\n");
	if ((s->p != NULL))
		print_flags(out, s);
}

static void print_diff(FILE *out, const struct spills *s)
{
	uint64_t ta = spills__field_total(&s->log, s->field);
	uint64_t tb = spills__field_total(&s->other, spill_log__field(&s->other, s->sort));
	uint32_t both = 0, only_a = 0, only_b = 0, nrows;
	char lbl[64];

	for (uint32_t i = 0; i < s->ndiff; i++) {
		both += s->diff[i].a && s->diff[i].b;
		only_a += !s->diff[i].b;
		only_b += !s->diff[i].a;
	}
	nrows = s->o->top && s->o->top < s->ndiff ? (uint32_t)s->o->top : s->ndiff;
	fprintf(out, "aotperf spills: %s vs %s: %s per function (sorted by %s)\n", s->log.path,
	       s->other.path, s->sort, (s->p != NULL) ? "runtime heat" : "|delta|");
	fprintf(out, "  total %s %" PRIu64 " -> %" PRIu64 " (%+.1f%%); %u functions in both,"
	       " %u only in %s, %u only in %s\n", s->sort, ta, tb,
	       ta ? 100.0 * ((double)tb - (double)ta) / (double)ta : 0.0, both, only_a,
	       s->log.path, only_b, s->other.path);
	print_cores(out, s);
	fprintf(out, "\n  %4s  %-18s %10s %10s %10s %8s", "mod", "function", "before", "after", "delta",
	       "%");
	if ((s->p != NULL))
		fprintf(out, " %8s %7s", "samples", "%run");
	fprintf(out, "  name\n");
	for (uint32_t i = 0; i < nrows; i++) {
		const struct spills_diff *d = &s->diff[i];
		double p = spills__diff_pct(d);

		snprintf(lbl, sizeof(lbl), "local_func_%u", d->func);
		fprintf(out, "  %4u  %-18s", d->mod, lbl);
		print_u64_or_dash(out, 10, d->has_a, d->va);
		print_u64_or_dash(out, 10, d->has_b, d->vb);
		if (d->a && d->b)
			fprintf(out, " %+10" PRId64, (int64_t)(d->vb - d->va));
		else
			fprintf(out, " %10s", d->a ? "only-before" : "only-after");
		if (isnan(p))
			fprintf(out, " %8s", "-");
		else
			fprintf(out, " %+7.1f%%", p);
		if (d->samples >= 0)
			fprintf(out, " %8" PRId64 " %6.2f%%", d->samples,
			       ap_pct((uint64_t)d->samples, spills__total_samples(s)));
		else if ((s->p != NULL))
			fprintf(out, " %8s %7s", "-", "-");
		fprintf(out, "  %s\n", spills__diff_name(d));
	}
	if (nrows < s->ndiff)
		fprintf(out, "  ... %u more (--top 0 lists all)\n", s->ndiff - nrows);
	if ((s->p != NULL) && s->hottest.samples) {
		const struct spills_hot *h = &s->hottest;
		const struct spill_rec *b = spill_log__find(&s->other, s->core_mod[h->core], h->func);
		uint64_t va = 0, vb = 0;
		int ha = h->rec && spill_log__get(&s->log, h->rec, s->field, &va);
		int hb = b && spill_log__get(&s->other, b, spill_log__field(&s->other, s->sort), &vb);
		char heat[48];

		fprintf(out, "\nhottest function %s (%s): %s ",
		       spills__fn_label(s, s->core_mod[h->core], h->func, lbl, sizeof(lbl)),
		       spills__heat(s, h->samples, heat, sizeof(heat)), s->sort);
		if (ha && hb)
			fprintf(out, "%" PRIu64 " -> %" PRIu64 " (%+.1f%%)\n", va, vb,
			       va ? 100.0 * ((double)vb - (double)va) / (double)va : 0.0);
		else
			fprintf(out, "%s in %s, %s in %s\n", ha ? "present" : "absent", s->log.path,
			       hb ? "present" : "absent", s->other.path);
	}
}

void render__spills_text(FILE *out, const struct spills *s)
{
	if (s->o->vs_path)
		print_diff(out, s);
	else
		print_ranking(out, s);
}
