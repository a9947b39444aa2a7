// SPDX-License-Identifier: MIT
/* aotperf compare as text, 80 columns (compare.h). */
#include <inttypes.h>
#include <string.h>
#include "compare.h"
#include "diff.h"
#include "loops.h"
#include "../cwasm/coreset.h"
#include "../util/pct.h"
#include "../util/term.h"

/* "  label  text" wrapped at spaces to 79 columns, later lines indented */
static void wrapped(FILE *out, const char *label, const char *text)
{
	size_t col = 10;

	fprintf(out, "  %-7s", label);
	for (const char *p = text; *p;) {
		size_t w;

		while (*p == ' ')
			p++;
		w = strcspn(p, " ");
		if (!w)
			break;
		if (col > 10 && col + 1 + w > 79) {
			fprintf(out, "\n%9s", "");
			col = 9;
		}
		fprintf(out, " %.*s", (int)w, p);
		col += 1 + w;
		p += w;
	}
	fputc('\n', out);
}

static void header(FILE *out, const struct render_compare *r)
{
	const struct cwasm_module *m = r->wamr->mods[r->core];
	const struct eng_classes *oc = r->oc;
	const struct eng_summary *s = engines__summary(r->other);
	const char *name = m->funcs[r->func].name;
	char buf[160], tier[64], roles[320], cut[96];

	fprintf(out, "aotperf compare: wasm function %" PRIu32 "%s%s%s, WAMR vs %s\n",
		cwasm__wasm_index(m, r->func), name ? " (" : "", name ? name : "", name ? ")" : "",
		render__compare_engine(r));
	fprintf(out, "  WAMR    local_func_%" PRIu32 " of %s%s\n", r->func,
		render__tail(m->path, 50, buf, sizeof(buf)),
		r->picked ? " (the hottest; --func picks)" : "");
	fprintf(out, "          %" PRIu64 " of %" PRIu64 " samples (%.2f%% of the run), %u "
		"recording%s\n", r->wamr_samples, r->wamr_run_total,
		ap_pct(r->wamr_samples, r->wamr_run_total), r->wamr->ncaptures,
		r->wamr->ncaptures == 1 ? "" : "s");
	fprintf(out, "  %-7s %s\n", render__compare_engine(r),
		ap_term__fit(cut, sizeof(cut), oc->code->raw_name, 60));
	fprintf(out, "          %s tier; %" PRIu64 " of %" PRIu64 " samples (%.2f%% of the run)\n",
		render__compare_tier(r, tier, sizeof(tier)), oc->samples, s->total_samples,
		ap_pct(oc->samples, s->total_samples));
	for (int t = 0; t < ENG_TIER__COUNT; t++)
		if (t != (int)oc->code->name.tier && oc->func->tier_samples[t])
			fprintf(out, "          also %" PRIu64 " samples in %s-tier code (not "
				"compared)\n", oc->func->tier_samples[t],
				eng_tier__name((enum eng_tier)t));
	fprintf(out, "          code %" PRIu64 " bytes, %" PRIu64 " reachable and classified\n",
		oc->code_bytes, oc->code_used);
	fprintf(out, "          from %s\n", render__tail(r->other_label, 64, buf, sizeof(buf)));
	cls__roles_describe(r->wamr_roles, roles, sizeof(roles));
	wrapped(out, "roles", roles);
	snprintf(buf, sizeof(buf), "%s:", render__compare_engine(r));
	wrapped(out, buf, oc->roles.why);
	if (oc->unavailable)
		wrapped(out, "n/a", oc->unavailable_why);
}

static void share_cell(FILE *out, const struct cls_table *t, int k, int avail, int w)
{
	if (!avail)
		fprintf(out, " %*s", w, "n/a");
	else if (!t->total)
		fprintf(out, " %*s", w, "-");
	else
		fprintf(out, " %*.2f", w, ap_pct(t->samples[k], t->total));
}

static void classes(FILE *out, const struct render_compare *r)
{
	const struct cls_table *w = r->wamr_table, *o = &r->oc->table;
	const char *e = render__compare_engine(r);
	uint32_t sw = 0, so = 0;

	fprintf(out, "\n  %-15s %-21s %s\n", "", "static instructions",
		"% of the function's samples");
	fprintf(out, "  %-15s %6s %6s %6s %10s %8s %8s\n", "class", "WAMR", e, "delta", "WAMR", e,
		"points");
	for (int k = 0; k < CLS__COUNT; k++) {
		int avail = !(r->oc->unavailable & (1u << k));

		sw += w->static_count[k];
		so += o->static_count[k];
		if (!render__compare_has_row(r, k))
			continue;
		fprintf(out, "  %-15s %6u", cls__name((enum cls_class)k), w->static_count[k]);
		if (avail)
			fprintf(out, " %6u %+6" PRId64, o->static_count[k],
				(int64_t)o->static_count[k] - (int64_t)w->static_count[k]);
		else
			fprintf(out, " %6s %6s", "n/a", "n/a");
		share_cell(out, w, k, 1, 10);
		share_cell(out, o, k, avail, 8);
		if (avail && w->total && o->total)
			fprintf(out, " %+8.2f", ap_pct(o->samples[k], o->total) -
						ap_pct(w->samples[k], w->total));
		fputc('\n', out);
	}
	if (r->oc->unavailable & (1u << CLS_LINEAR_MEM)) {
		uint32_t ws = w->static_count[CLS_LINEAR_MEM] + w->static_count[CLS_OTHER_MEM];
		uint32_t os = o->static_count[CLS_LINEAR_MEM] + o->static_count[CLS_OTHER_MEM];

		fprintf(out, "  %-15s %6u %6u %+6" PRId64 "%11.2f %8.2f\n", "memory (both)", ws, os,
			(int64_t)os - (int64_t)ws,
			ap_pct(w->samples[CLS_LINEAR_MEM] + w->samples[CLS_OTHER_MEM], w->total),
			ap_pct(o->samples[CLS_LINEAR_MEM] + o->samples[CLS_OTHER_MEM], o->total));
	}
	fprintf(out, "  %-15s %6u %6u %+6" PRId64 " %10" PRIu64 " %8" PRIu64 "  (samples)\n", "total",
		sw, so, (int64_t)so - (int64_t)sw, w->total, o->total);
}

static void headroom(FILE *out, const struct render_compare *r)
{
	const struct eng_headroom *h = r->h;
	const char *e = render__compare_engine(r);
	char col[32];

	fprintf(out, "\nHeadroom per lever: an ESTIMATE, from shares of %s\n",
		h->sampled ? "samples" : "static instructions (a side has too few samples)");
	fprintf(out, "  = WAMR's share of its run (%.2f%%) x the lever's share of the function\n"
		"    x %s's reduction of that share (1 - %s share / WAMR share, 0..1)\n",
		h->hot_pct, e, e);
	snprintf(col, sizeof(col), "%.5s %%func", e);
	fprintf(out, "  %-10s %10s %10s %10s  %s\n", "lever", "WAMR %func", col, "reduction",
		"headroom, % of run");
	for (int l = 0; l < ENG_LEVER__COUNT; l++) {
		const struct eng_lever_est *x = &h->lever[l];

		if (!x->available) {
			fprintf(out, "  %-10s %10.2f %10s %10s  %s\n", eng_lever__name((enum eng_lever)l),
				x->wamr_pct, "n/a", "n/a", "n/a: a class it needs is unavailable");
			continue;
		}
		fprintf(out, "  %-10s %10.2f %10.2f %9.0f%%  %8.2f (estimate)\n",
			eng_lever__name((enum eng_lever)l), x->wamr_pct, x->other_pct,
			100.0 * x->reduction, x->headroom_pct);
	}
	fprintf(out, "  Assumes a lever's cost scales with its share and that %s's share is\n"
		"  reachable by WAMR; the two engines ran in separate recordings.\n", e);
}

static void functions(FILE *out, const struct render_compare *r)
{
	uint32_t idx[64], n = render__compare_funcs(r, idx, r->top < 64 ? r->top : 64);
	const struct eng_summary *s = engines__summary(r->other);
	const char *e = render__compare_engine(r);

	if (!n)
		return;
	fprintf(out, "\nFunctions both ran, %% of each run:\n");
	fprintf(out, "  %6s %6s  %-24s %8s %8s  %s\n", "wasm", "local", "name", "WAMR", e,
		"tier compared");
	for (uint32_t i = 0; i < n; i++) {
		const struct eng_func *f = engines__func(r->other, idx[i]);
		const struct eng_code *c = engines__code(r->other, (uint32_t)f->best);
		const char *nm = r->wamr->mods[r->core]->funcs[f->local_func].name;

		char cut[96];

		fprintf(out, "  %6" PRIu32 " %6" PRId64 "  %-24s %8.2f %8.2f  %s\n",
			f->wasm_index, f->local_func,
			ap_term__fit(cut, sizeof(cut), nm ? nm : f->name ? f->name : "", 24),
			ap_pct(render__compare_wamr_samples(r, (uint32_t)f->local_func),
			       r->wamr_run_total),
			ap_pct(f->samples, s->total_samples),
			c->name.tier_name ? c->name.tier_name : eng_tier__name(c->name.tier));
	}
}

void render__compare_text(FILE *out, const struct render_compare *r)
{
	header(out, r);
	classes(out, r);
	headroom(out, r);
	if (r->loops)
		render__loop_pair_text(out, r->loops, 80);
	functions(out, r);
}
