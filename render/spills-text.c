// SPDX-License-Identifier: MIT
/* aotperf spills as text: the ranking with its runtime flags, or the diff. */
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <string.h>
#include "spills.h"
#include "../util/pct.h"
#include "../util/term.h"

static void print_u64_or_dash(FILE *out, int width, int have, uint64_t v)
{
	if (have)
		fprintf(out, " %*" PRIu64, width, v);
	else
		fprintf(out, " %*s", width, "-");
}
/* Fields a row may show; spill_ld always, the others while the line has room. */
static const int shown[] = { SPILL_F_INSTS, SPILL_F_SPILLED_VREGS, SPILL_F_SPILL_LD,
			     SPILL_F_SPILL_ST };
static const char *const shown_hdr[] = { "insts", "sp_vregs", "spill_ld", "spill_st" };
#define NSHOWN (sizeof(shown) / sizeof(shown[0]))

/* The columns of the ranking: what fits the width, dropped in this order. */
struct cols {
	int field[NSHOWN];
	int sort;		/* the sort field, when it is none of the above */
	int heat;		/* samples, %run (a recording) */
	int frame;		/* frame_ld, ratio (cores) */
	int note;		/* runtime (a recording) */
	int mod;		/* the log's mod (several modules, or room for it) */
	size_t name;		/* columns left for the name */
};

static int sort_is_shown(const struct spills *s)
{
	for (size_t k = 0; k < NSHOWN; k++)
		if (shown[k] == s->field)
			return 1;
	return s->field == SPILL_F_MOD || s->field == SPILL_F_LOCAL_FUNC;
}

static size_t cols_width(const struct cols *c)
{
	size_t w = 2 + 4 + (c->mod ? 5 : 0) + 2 + 18 + (c->sort ? 13 : 0) + (c->heat ? 17 : 0) +
		   (c->frame ? 16 : 0) + (c->note ? 12 : 0) + 2;

	for (size_t k = 0; k < NSHOWN; k++)
		w += c->field[k] ? 10 : 0;
	return w;
}

/* The name needs a dozen columns; insts, sp_vregs, spill_st, frame_ld give way first. */
static void plan_cols(const struct spills *s, size_t columns, struct cols *c)
{
	static const int drop[] = { SPILL_F_INSTS, SPILL_F_SPILLED_VREGS, SPILL_F_SPILL_ST, -1 };
	size_t w;

	memset(c, 0, sizeof(*c));
	for (size_t k = 0; k < NSHOWN; k++)
		c->field[k] = 1;
	c->sort = !sort_is_shown(s);
	c->heat = c->note = s->p != NULL;
	c->frame = s->cs->n > 0;
	c->mod = 1;
	for (size_t d = 0; d < sizeof(drop) / sizeof(drop[0]) && cols_width(c) + 12 > columns; d++)
		for (size_t k = 0; k < NSHOWN; k++)
			if (drop[d] < 0 ? 0 : shown[k] == drop[d])
				c->field[k] = 0;
	if (cols_width(c) + 12 > columns && c->heat)
		c->frame = 0;	/* the cross-check is in the JSON and under --wide */
	if (cols_width(c) + 16 > columns && !s->multi)
		c->mod = 0;	/* one module: the column says nothing */
	w = cols_width(c);
	c->name = w + 8 < columns ? columns - w : 8;
}

static void print_row(FILE *out, const struct spills *s, const struct cols *c, uint32_t rank,
		      uint32_t ri)
{
	const struct spill_rec *r = &s->log.recs[ri];
	char lbl[64], name[CWASM_NAME_MAX + 3];
	uint64_t v = 0;

	/* mod has its own column */
	snprintf(lbl, sizeof(lbl), "local_func_%u", r->func);
	fprintf(out, "  %4u", rank);
	if (c->mod)
		fprintf(out, " %4u", r->mod);
	fprintf(out, "  %-18s", lbl);
	for (size_t k = 0; k < NSHOWN; k++) {
		int have = spill_log__get(&s->log, r, shown[k], &v);

		if (c->field[k])
			print_u64_or_dash(out, 9, have, v);
	}
	if (c->sort) {
		int have = spill_log__get(&s->log, r, s->field, &v);

		print_u64_or_dash(out, 12, have, v);
	}
	if (c->heat) {
		if (spills__known(s, ri))
			fprintf(out, " %8" PRIu64 " %6.2f%%", spills__rec_samples(s, ri),
			       ap_pct(spills__rec_samples(s, ri), spills__total_samples(s)));
		else
			fprintf(out, " %8s %7s", "-", "-");
	}
	if (c->frame) {
		uint64_t ld = r->v[SPILL_F_SPILL_LD];

		if (s->static_ld[ri] < 0)
			fprintf(out, " %8s %6s", "-", "-");
		else if (!ld)
			fprintf(out, " %8" PRId64 " %6s", s->static_ld[ri], "-");
		else
			fprintf(out, " %8" PRId64 " %6.2f", s->static_ld[ri],
			       (double)s->static_ld[ri] / (double)ld);
	}
	if (c->note)
		fprintf(out, "  %-10s", spills__note(s, ri));
	fprintf(out, "  %s\n", ap_term__fit(name, sizeof(name), r->name ? r->name : "", c->name));
}

static void print_header(FILE *out, const struct spills *s, const struct cols *c)
{
	fprintf(out, "\n  %4s", "rank");
	if (c->mod)
		fprintf(out, " %4s", "mod");
	fprintf(out, "  %-18s", "function");
	for (size_t k = 0; k < NSHOWN; k++)
		if (c->field[k])
			fprintf(out, " %9s", shown_hdr[k]);
	if (c->sort)
		fprintf(out, " %12s", s->sort);
	if (c->heat)
		fprintf(out, " %8s %7s", "samples", "%run");
	if (c->frame)
		fprintf(out, " %8s %6s", "frame_ld", "ratio");
	if (c->note)
		fprintf(out, "  %-10s", "runtime");
	fprintf(out, "  %s\n", "name");
}
static void print_cores(FILE *out, const struct spills *s, size_t columns)
{
	const struct attr_result *res = s->p ? &s->p->attr : NULL;
	char line[PATH_MAX + 128];

	if (res) {
		snprintf(line, sizeof(line), "  recording  %s: %" PRIu64 " samples, %" PRIu64
			 " in the cores (%.1f%%)", s->p->input, res->total_samples,
			 res->attributed_samples, ap_pct(res->attributed_samples,
							 res->total_samples));
		ap_term__wrap(out, line, columns, 13);
	}
	for (uint32_t i = 0; i < s->cs->n; i++) {
		snprintf(line, sizeof(line), "  core       %s = log mod %u (%u functions)",
			 s->cs->mods[i]->path, s->core_mod[i], s->cs->mods[i]->nfuncs);
		ap_term__wrap(out, line, columns, 13);
	}
}

static void print_flags(FILE *out, const struct spills *s, size_t columns)
{
	uint64_t total = spills__total_samples(s);
	char lbl[64], heat[48], line[1024], name[CWASM_NAME_MAX + 3];
	int any = 0, n;

	for (uint32_t i = 0; i < s->nheavy; i++) {
		uint32_t ri = s->sp_order[i];
		const struct spill_rec *r = &s->log.recs[ri];
		uint64_t k = spills__rec_samples(s, ri);

		if (!spills__known(s, ri) || !r->v[SPILL_F_SPILL_LD] ||
		    ap_pct(k, total) >= s->o->cold_pct)
			continue;
		if (!any++) {
			fputc('\n', out);
			snprintf(line, sizeof(line), "runtime-cold heavy spillers (the top %u by"
				 " spill_ld, under %g%% of run): never or barely executed, don't"
				 " optimize them first", s->nheavy, s->o->cold_pct);
			ap_term__wrap(out, line, columns, 2);
		}
		n = fprintf(out, "  #%-4u %-18s spill_ld %-8" PRIu64 " %-14s", i + 1,
			    spills__fn_label(s, r->mod, r->func, lbl, sizeof(lbl)),
			    r->v[SPILL_F_SPILL_LD],
			    k ? spills__heat(s, k, heat, sizeof(heat)) : "never run");
		fprintf(out, "%s%s\n", r->name ? "  " : "",
			r->name ? ap_term__fit(name, sizeof(name), r->name,
					       n > 0 && (size_t)n + 10 < columns ?
					       columns - (size_t)n - 2 : 8) : "");
	}
	if (s->nhot)
		fprintf(out, "\nhot functions (%g%% of run or more):\n", s->o->hot_pct);
	for (uint32_t i = 0; i < s->nhot; i++) {
		const struct spills_hot *h = &s->hot[i];
		const struct cwasm_func *f = &spills__core(s, h->core)->funcs[h->func];
		size_t at;

		at = (size_t)snprintf(line, sizeof(line), "%-18s %6.2f%% of run  ",
				      spills__fn_label(s, s->core_mod[h->core], h->func, lbl,
						       sizeof(lbl)), ap_pct(h->samples, total));
		if (!h->rec)
			snprintf(line + at, sizeof(line) - at, "not in the log (no spills"
				 " reported): the cost is elsewhere");
		else
			snprintf(line + at, sizeof(line) - at, "spiller #%u, spill_ld %" PRIu64 "%s",
				 h->spill_rank, h->rec->v[SPILL_F_SPILL_LD], h->few_spills ?
				 ": few spills, the cost is elsewhere" : "");
		if (f->name) {
			at = strlen(line);
			snprintf(line + at, sizeof(line) - at, " (%s)",
				 ap_term__fit(name, sizeof(name), f->name, 48));
		}
		fputs("  ", out);
		ap_term__wrap(out, line, columns > 2 ? columns - 2 : columns, 21);
	}
	fputc('\n', out);
	snprintf(line, sizeof(line), "lesson: %s", s->lesson);
	ap_term__wrap(out, line, columns, 8);
}

static void print_ranking(FILE *out, const struct spills *s, size_t columns)
{
	const struct spill_log *log = &s->log;
	struct cols c;

	char line[PATH_MAX + 128];

	snprintf(line, sizeof(line), "aotperf spills: %s: %u functions from %" PRIu64 " metric"
		 " lines (%" PRIu64 " lines), ranked by %s", log->path, log->n, log->metric_lines,
		 log->lines, s->sort);
	ap_term__wrap(out, line, columns, 2);
	fprintf(out, "  totals     spill_ld %" PRIu64 ", spill_st %" PRIu64 "\n",
	       spills__field_total(log, SPILL_F_SPILL_LD), spills__field_total(log, SPILL_F_SPILL_ST));
	print_cores(out, s, columns);
	plan_cols(s, columns, &c);
	print_header(out, s, &c);
	for (uint32_t i = 0; i < s->ntop; i++)
		print_row(out, s, &c, i + 1, s->order[i]);
	if (s->ntop < log->n)
		fprintf(out, "  ... %u more (--top 0 lists all)\n", log->n - s->ntop);
	if (c.frame)
		fprintf(out, "\n  frame_ld: unattributed frame-slot reads decoded from the core's code"
		       "\n  (class frame_load: spill reloads and other frame reads; vmctx reloads"
		       "\n  excluded); ratio = frame_ld / spill_ld, about 1 when the metric and the"
		       "\n  code agree\n");
	else if (s->cs->n)
		fprintf(out, "\n  frame_ld (the frame reloads decoded from the code, against spill_ld):"
			"\n  --wide, or the JSON\n");
	if ((s->p != NULL))
		print_flags(out, s, columns);
}

static void print_diff(FILE *out, const struct spills *s, size_t columns)
{
	char name[CWASM_NAME_MAX + 3];
	int n;
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
	char line[2 * PATH_MAX + 160];

	snprintf(line, sizeof(line), "aotperf spills: %s vs %s: %s per function (sorted by %s)",
		 s->log.path, s->other.path, s->sort, (s->p != NULL) ? "runtime heat" : "|delta|");
	ap_term__wrap(out, line, columns, 2);
	snprintf(line, sizeof(line), "  total %s %" PRIu64 " -> %" PRIu64 " (%+.1f%%); %u"
		 " functions in both, %u only in %s, %u only in %s", s->sort, ta, tb,
		 ta ? 100.0 * ((double)tb - (double)ta) / (double)ta : 0.0, both, only_a,
		 s->log.path, only_b, s->other.path);
	ap_term__wrap(out, line, columns, 2);
	print_cores(out, s, columns);
	fprintf(out, "\n  %3s  %-16s %9s %9s %11s %8s", "mod", "function", "before", "after", "delta",
	       "%");
	if ((s->p != NULL))
		fprintf(out, " %7s %7s", "samples", "%run");
	fprintf(out, "  name\n");
	for (uint32_t i = 0; i < nrows; i++) {
		const struct spills_diff *d = &s->diff[i];
		double p = spills__diff_pct(d);

		snprintf(lbl, sizeof(lbl), "local_func_%u", d->func);
		n = fprintf(out, "  %3u  %-16s", d->mod, lbl);
		print_u64_or_dash(out, 9, d->has_a, d->va);
		print_u64_or_dash(out, 9, d->has_b, d->vb);
		if (d->a && d->b)
			fprintf(out, " %+11" PRId64, (int64_t)(d->vb - d->va));
		else
			fprintf(out, " %11s", d->a ? "only-before" : "only-after");
		if (isnan(p))
			fprintf(out, " %8s", "-");
		else
			fprintf(out, " %+7.1f%%", p);
		if (d->samples >= 0)
			fprintf(out, " %7" PRId64 " %6.2f%%", d->samples,
			       ap_pct((uint64_t)d->samples, spills__total_samples(s)));
		else if ((s->p != NULL))
			fprintf(out, " %7s %7s", "-", "-");
		n += 40 + (s->p ? 16 : 0) + 2;
		fprintf(out, "  %s\n", ap_term__fit(name, sizeof(name), spills__diff_name(d),
						   n > 0 && (size_t)n + 8 < columns ?
						   columns - (size_t)n : 8));
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

void render__spills_text(FILE *out, const struct spills *s, unsigned columns)
{
	size_t cols = columns ? columns : AP_TERM_DEFAULT_COLUMNS;

	if (s->o->vs_path)
		print_diff(out, s, cols);
	else
		print_ranking(out, s, cols);
}
