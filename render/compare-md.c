// SPDX-License-Identifier: MIT
/* aotperf compare as GitHub Markdown (compare.h, render/markdown.h). */
#include <inttypes.h>
#include <stdlib.h>
#include "compare.h"
#include "loops.h"
#include "markdown.h"
#include "../cwasm/coreset.h"
#include "../util/outfile.h"
#include "../util/pct.h"

static int sides(FILE *f, const char *path, const struct render_compare *r, struct ap_err *err)
{
	static const struct md_coldef cols[] = {
		{ "engine", MD_LEFT, 0 }, { "code", MD_LEFT, 0 }, { "tier", MD_LEFT, 0 },
		{ "samples", MD_RIGHT, 0 }, { "% of run", MD_RIGHT, 0 }, { "recording", MD_LEFT, 0 },
	};
	const struct cwasm_module *m = r->wamr->mods[r->core];
	const struct eng_summary *s = engines__summary(r->other);
	struct md_table *t = md_table__new_cols(cols, 6, err);
	char local[48], tier[64];

	snprintf(local, sizeof(local), "local_func_%" PRIu32, r->func);
	if (!t || md_table__cell(t, "WAMR", err) || md_table__cell_code(t, local, err) ||
	    md_table__cell(t, "AOT", err) ||
	    md_table__cellf(t, err, "%" PRIu64, r->wamr_samples) ||
	    md_table__cellf(t, err, "%.2f", ap_pct(r->wamr_samples, r->wamr_run_total)) ||
	    md_table__cellf(t, err, "%s%s (%s)", r->wamr->captures[0].label,
			    r->wamr->ncaptures > 1 ? " …" : "", m->path) ||
	    md_table__end_row(t, err) ||
	    md_table__cell(t, render__compare_engine(r), err) ||
	    md_table__cell_code(t, r->oc->code->raw_name, err) ||
	    md_table__cell(t, render__compare_tier(r, tier, sizeof(tier)), err) ||
	    md_table__cellf(t, err, "%" PRIu64, r->oc->samples) ||
	    md_table__cellf(t, err, "%.2f", ap_pct(r->oc->samples, s->total_samples)) ||
	    md_table__cell(t, r->other_label, err) || md_table__end_row(t, err)) {
		md_table__delete(t);
		return -1;
	}
	return md_table__flush(t, f, path, err);
}

static int share_cell(struct md_table *t, const struct cls_table *c, int k, int avail,
		      struct ap_err *err)
{
	if (!avail)
		return md_table__cell(t, "n/a", err);
	if (!c->total)
		return md_table__cell(t, "", err);
	return md_table__cellf(t, err, "%.2f", ap_pct(c->samples[k], c->total));
}

static int classes(FILE *f, const char *path, const struct render_compare *r, struct ap_err *err)
{
	const char *e = render__compare_engine(r);
	char so[48], sd[48], po[48], pd[64];
	const struct md_coldef cols[] = {
		{ "class", MD_LEFT, 0 }, { "static WAMR", MD_RIGHT, 0 }, { so, MD_RIGHT, 0 },
		{ sd, MD_RIGHT, 0 }, { "% of samples WAMR", MD_RIGHT, 0 }, { po, MD_RIGHT, 0 },
		{ pd, MD_RIGHT, 0 },
	};
	const struct cls_table *w = r->wamr_table, *o = &r->oc->table;
	struct md_table *t;

	snprintf(so, sizeof(so), "static %s", e);
	snprintf(sd, sizeof(sd), "static %s − WAMR", e);
	snprintf(po, sizeof(po), "%% of samples %s", e);
	snprintf(pd, sizeof(pd), "points (%s − WAMR)", e);
	t = md_table__new_cols(cols, 7, err);
	fprintf(f, "## Instruction classes\n\n");
	if (r->oc->unavailable) {
		fprintf(f, "n/a: ");
		md__fputs(f, r->oc->unavailable_why);
		fprintf(f, "\n\n");
	}
	for (int k = 0; t && k < CLS__COUNT; k++) {
		int avail = !(r->oc->unavailable & (1u << k));

		if (!render__compare_has_row(r, k))
			continue;
		if (md_table__cell_code(t, cls__name((enum cls_class)k), err) ||
		    md_table__cellf(t, err, "%u", w->static_count[k]) ||
		    (avail ? md_table__cellf(t, err, "%u", o->static_count[k])
			   : md_table__cell(t, "n/a", err)) ||
		    (avail ? md_table__cellf(t, err, "%+" PRId64, (int64_t)o->static_count[k] -
						     (int64_t)w->static_count[k])
			   : md_table__cell(t, "n/a", err)) ||
		    share_cell(t, w, k, 1, err) || share_cell(t, o, k, avail, err) ||
		    (avail && w->total && o->total
			     ? md_table__cellf(t, err, "%+.2f", ap_pct(o->samples[k], o->total) -
								ap_pct(w->samples[k], w->total))
			     : md_table__cell(t, "", err)) ||
		    md_table__end_row(t, err)) {
			md_table__delete(t);
			return -1;
		}
	}
	return md_table__flush(t, f, path, err);
}

static int headroom(FILE *f, const char *path, const struct render_compare *r, struct ap_err *err)
{
	char oc[64];
	const struct md_coldef cols[] = {
		{ "lever", MD_LEFT, 0 }, { "WAMR % of function", MD_RIGHT, 0 }, { oc, MD_RIGHT, 0 },
		{ "reduction", MD_RIGHT, 0 }, { "headroom, % of WAMR run (estimate)", MD_RIGHT, 0 },
	};
	const struct eng_headroom *h = r->h;
	struct md_table *t;

	snprintf(oc, sizeof(oc), "%s %% of function", render__compare_engine(r));
	t = md_table__new_cols(cols, 5, err);

	fprintf(f, "## Headroom per lever (an estimate)\n\n"
		"Estimate = WAMR's share of its run (%.2f%%) × the lever's share of the "
		"function × the other engine's reduction of that share (1 − other / WAMR), "
		"from shares of %s. It assumes a lever's cost scales with its share and that "
		"the other engine's share is reachable by WAMR; the engines ran in separate "
		"recordings.\n\n", h->hot_pct,
		h->sampled ? "samples" : "static instructions (a side has too few samples)");
	for (int l = 0; t && l < ENG_LEVER__COUNT; l++) {
		const struct eng_lever_est *x = &h->lever[l];

		if (md_table__cell(t, eng_lever__name((enum eng_lever)l), err) ||
		    md_table__cellf(t, err, "%.2f", x->wamr_pct) ||
		    (x->available ? md_table__cellf(t, err, "%.2f", x->other_pct)
				  : md_table__cell(t, "n/a", err)) ||
		    (x->available ? md_table__cellf(t, err, "%.0f%%", 100.0 * x->reduction)
				  : md_table__cell(t, "n/a", err)) ||
		    (x->available ? md_table__cellf(t, err, "%.2f", x->headroom_pct)
				  : md_table__cell(t, "n/a (class unavailable)", err)) ||
		    md_table__end_row(t, err)) {
			md_table__delete(t);
			return -1;
		}
	}
	return md_table__flush(t, f, path, err);
}

static int functions(FILE *f, const char *path, const struct render_compare *r,
		     struct ap_err *err)
{
	char orun[48], otier[48];
	const struct md_coldef cols[] = {
		{ "wasm", MD_RIGHT, 0 }, { "local", MD_RIGHT, 0 }, { "name", MD_LEFT, 0 },
		{ "WAMR % of run", MD_RIGHT, 0 }, { orun, MD_RIGHT, 0 }, { otier, MD_LEFT, 0 },
	};
	uint32_t idx[64], n = render__compare_funcs(r, idx, r->top < 64 ? r->top : 64);
	const struct eng_summary *s = engines__summary(r->other);
	struct md_table *t;

	if (!n)
		return 0;
	snprintf(orun, sizeof(orun), "%s %% of run", render__compare_engine(r));
	snprintf(otier, sizeof(otier), "%s tier", render__compare_engine(r));
	fprintf(f, "## Functions both engines ran\n\n");
	t = md_table__new_cols(cols, 6, err);
	for (uint32_t i = 0; t && i < n; i++) {
		const struct eng_func *fn = engines__func(r->other, idx[i]);
		const struct eng_code *c = engines__code(r->other, (uint32_t)fn->best);
		const char *nm = r->wamr->mods[r->core]->funcs[fn->local_func].name;

		if (md_table__cellf(t, err, "%" PRIu32, fn->wasm_index) ||
		    md_table__cellf(t, err, "%" PRId64, fn->local_func) ||
		    md_table__cell_code(t, nm ? nm : fn->name, err) ||
		    md_table__cellf(t, err, "%.2f",
				    ap_pct(render__compare_wamr_samples(r, (uint32_t)fn->local_func),
					   r->wamr_run_total)) ||
		    md_table__cellf(t, err, "%.2f", ap_pct(fn->samples, s->total_samples)) ||
		    md_table__cell(t, c->name.tier_name ? c->name.tier_name
							: eng_tier__name(c->name.tier), err) ||
		    md_table__end_row(t, err)) {
			md_table__delete(t);
			return -1;
		}
	}
	return md_table__flush(t, f, path, err);
}

static int body(FILE *f, const char *path, const struct render_compare *r, struct ap_err *err)
{
	const struct cwasm_module *m = r->wamr->mods[r->core];
	char title[256];

	snprintf(title, sizeof(title), "wasm function %" PRIu32 "%s%s%s, WAMR vs %s",
		 cwasm__wasm_index(m, r->func), m->funcs[r->func].name ? " (" : "",
		 m->funcs[r->func].name ? m->funcs[r->func].name : "",
		 m->funcs[r->func].name ? ")" : "", render__compare_engine(r));
	fprintf(f, "# aotperf compare: ");
	md__fputs(f, title);
	fprintf(f, "\n\n");
	if (sides(f, path, r, err) || classes(f, path, r, err) || headroom(f, path, r, err) ||
	    (r->loops && render__loop_pair_md(f, path, r->loops, err)) ||
	    functions(f, path, r, err))
		return -1;
	if (engines__nwarnings(r->other)) {
		fprintf(f, "## Warnings\n\n");
		for (uint32_t i = 0; i < engines__nwarnings(r->other); i++) {
			fprintf(f, "* ");
			md__fputs(f, engines__warning(r->other, i));
			fputc('\n', f);
		}
	}
	return 0;
}

int render__compare_markdown_file(const char *path, const struct render_compare *r,
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
