// SPDX-License-Identifier: MIT
/*
 * Two builds of one function, their hottest loops' models side by side:
 * `aotperf diff` (before, after) and `aotperf compare` (WAMR, the other
 * engine), as text, JSON and Markdown. With levers, the first side's
 * what-if is set against the second side: the gap in cycles per iteration
 * left after each lever.
 */
#include <inttypes.h>
#include <string.h>
#include "loops.h"
#include "markdown.h"
#include "../loops/mca.h"
#include "../util/term.h"

/* The modelled hottest loop of side k, or NULL. */
static const struct lp_loop *hot(const struct render_loop_pair *p, int k)
{
	const struct lp_func *lf = p->lf[k];

	return lf && lf->nloops && lf->loops[0].base.ok ? &lf->loops[0] : NULL;
}

static uint32_t header_off(const struct render_loop_pair *p, int k)
{
	const struct lp_func *lf = p->lf[k];

	return p->f[k]->insns[lf->blocks[lf->loops[0].header].first].offset;
}

/* Why a side has no model, in words. */
static const char *why_none(const struct render_loop_pair *p, int k)
{
	const struct lp_func *lf = p->lf[k];

	if (!lf)
		return "not in this build";
	if (!lf->nloops)
		return "no loop (no back edge)";
	if (*lf->model.note)
		return lf->model.note;
	return "llvm-mca gave no numbers for it";
}

/*
 * diff: after - before; compare: the first side (WAMR) - the second, the
 * cycles per iteration WAMR spends more. pct: of the reference side.
 */
static double delta(const struct render_loop_pair *p, const struct lp_loop *const *l, double *pct)
{
	double ref = p->levers ? l[1]->base.cycles_per_iter : l[0]->base.cycles_per_iter;
	double d = p->levers ? l[0]->base.cycles_per_iter - l[1]->base.cycles_per_iter :
			       l[1]->base.cycles_per_iter - l[0]->base.cycles_per_iter;

	*pct = ref > 0 ? 100.0 * d / ref : 0;
	return d;
}

/* The first side's cycles with lever lv (as compiled when it touches nothing). */
static double with_lever(const struct lp_loop *l, int lv)
{
	return l->lever[lv].removed && l->lever[lv].ok ? l->lever[lv].cycles_per_iter :
							 l->base.cycles_per_iter;
}

/* The model's tool and -mcpu: the first side that has them. */
static const struct lp_model_info *info(const struct render_loop_pair *p)
{
	for (int k = 0; k < 2; k++)
		if (p->lf[k] && *p->lf[k]->model.tool)
			return &p->lf[k]->model;
	return NULL;
}

void render__loop_pair_text(FILE *out, const struct render_loop_pair *p, size_t cols)
{
	const struct lp_model_info *mi = info(p);
	const struct lp_loop *l[2] = { hot(p, 0), hot(p, 1) };
	char line[512];

	if (!p->lf[0] && !p->lf[1])
		return;
	if (!mi) {
		snprintf(line, sizeof(line), "  hottest loop, predicted: %s", why_none(p, p->lf[0] ? 0 : 1));
		fputc('\n', out);
		ap_term__wrap(out, line, cols, 4);
		return;
	}
	/* a long -mcpu name (sapphirerapids) passes 80 columns: wrapped */
	snprintf(line, sizeof(line), "  hottest loop, predicted by llvm-mca -mcpu=%s (cycles per "
		 "iteration)", mi->mcpu);
	fputc('\n', out);
	ap_term__wrap(out, line, cols, 4);
	for (int k = 0; k < 2; k++) {
		if (!l[k]) {
			snprintf(line, sizeof(line), "    %-8s -: %s", p->word[k], why_none(p, k));
			ap_term__wrap(out, line, cols, 6);
			continue;
		}
		fprintf(out, "    %-8s %7.2f  loop at +0x%x, %u instructions on its path\n", p->word[k],
			l[k]->base.cycles_per_iter, header_off(p, k), l[k]->npath);
	}
	if (l[0] && l[1]) {
		double pct, d = delta(p, l, &pct);

		fprintf(out, "    %s: %+.2f cycles per iteration (%+.1f%%)\n", p->gap_word, d, pct);
	}
	if (!p->levers || !l[0] || !l[1])
		return;
	fprintf(out, "    %-14s %8s %12s %10s\n", "lever", "removed", p->word[0], "gap");
	fprintf(out, "    %-14s %8s %12.2f %+10.2f\n", "(as compiled)", "-", l[0]->base.cycles_per_iter,
		l[0]->base.cycles_per_iter - l[1]->base.cycles_per_iter);
	for (int lv = 0; lv < LP__NLEVERS; lv++)
		fprintf(out, "    %-14s %8u %12.2f %+10.2f\n", lp_lever__name((enum lp_lever)lv),
			l[0]->lever[lv].removed, with_lever(l[0], lv),
			with_lever(l[0], lv) - l[1]->base.cycles_per_iter);
	fprintf(out, "    (gap: %s's cycles per iteration with the lever minus %s's as compiled;\n"
		"     each side's hottest loop, which need not do the same work per iteration)\n",
		p->word[0], p->word[1]);
}

static void side_json(struct json_out *j, const struct render_loop_pair *p, int k)
{
	const struct lp_loop *l = hot(p, k);

	json_key(j, p->word[k]);
	if (!l) {
		json_null(j);
		return;
	}
	json_begin_obj(j);
	json_key(j, "header"); json_u64(j, header_off(p, k));
	json_key(j, "path_instructions"); json_u64(j, l->npath);
	json_key(j, "cycles_per_iteration"); json_dbl(j, l->base.cycles_per_iter, 2);
	json_key(j, "bottleneck"); json_str(j, l->bottleneck);
	json_key(j, "input"); json_str(j, l->input);	/* to rerun llvm-mca on */
	json_end_obj(j);
}

void render__loop_pair_json(struct json_out *j, const struct render_loop_pair *p)
{
	const struct lp_model_info *mi = info(p);
	const struct lp_loop *l[2] = { hot(p, 0), hot(p, 1) };

	json_begin_obj(j);
	json_key(j, "sides");
	json_begin_arr(j);
	json_str(j, p->word[0]);
	json_str(j, p->word[1]);
	json_end_arr(j);
	json_key(j, "tool"); json_str(j, mi ? mi->tool : NULL);
	json_key(j, "mcpu"); json_str(j, mi ? mi->mcpu : NULL);
	json_key(j, "note");
	json_str(j, l[0] && l[1] ? NULL : why_none(p, l[0] ? 1 : 0));
	side_json(j, p, 0);
	side_json(j, p, 1);
	json_key(j, p->levers ? "gap_cycles_per_iteration" : "change_cycles_per_iteration");
	if (l[0] && l[1]) {
		double pct;

		json_dbl(j, delta(p, l, &pct), 2);
	} else {
		json_null(j);
	}
	if (p->levers) {
		json_key(j, "levers");
		json_begin_obj(j);
		for (int lv = 0; l[0] && l[1] && lv < LP__NLEVERS; lv++) {
			json_key(j, lp_lever__name((enum lp_lever)lv));
			json_begin_obj(j);
			json_key(j, "removed"); json_u64(j, l[0]->lever[lv].removed);
			json_key(j, "cycles_per_iteration"); json_dbl(j, with_lever(l[0], lv), 2);
			json_key(j, "gap_cycles_per_iteration");
			json_dbl(j, with_lever(l[0], lv) - l[1]->base.cycles_per_iter, 2);
			json_end_obj(j);
		}
		json_end_obj(j);
	}
	json_end_obj(j);
}

int render__loop_pair_md(FILE *f, const char *name, const struct render_loop_pair *p,
			 struct ap_err *err)
{
	static const struct md_coldef cols[] = {
		{ "", MD_LEFT, 0 }, { "cycles/iteration", MD_RIGHT, 0 }, { "loop", MD_LEFT, 0 },
		{ "path instructions", MD_RIGHT, 0 },
	};
	static const struct md_coldef lcols[] = {
		{ "lever", MD_LEFT, 0 }, { "removed", MD_RIGHT, 0 }, { "cycles/iteration", MD_RIGHT, 0 },
		{ "gap", MD_RIGHT, 0 },
	};
	const struct lp_model_info *mi = info(p);
	const struct lp_loop *l[2] = { hot(p, 0), hot(p, 1) };
	struct md_table *t;
	int rc = 0;

	if (!p->lf[0] && !p->lf[1])
		return 0;
	if (!mi) {
		fputs("hottest loop, predicted: ", f);
		md__fputs(f, why_none(p, p->lf[0] ? 0 : 1));
		fputs("\n\n", f);
		return 0;
	}
	fprintf(f, "hottest loop, predicted by llvm-mca `-mcpu=%s`\n\n", mi->mcpu);
	t = md_table__new_cols(cols, 4, err);
	if (!t)
		return -1;
	for (int k = 0; k < 2 && !rc; k++) {
		rc = md_table__cell(t, p->word[k], err);
		if (l[k])
			rc = rc || md_table__cellf(t, err, "%.2f", l[k]->base.cycles_per_iter) ||
			     md_table__cellf(t, err, "+0x%x", header_off(p, k)) ||
			     md_table__cellf(t, err, "%u", l[k]->npath);
		else
			rc = rc || md_table__cell(t, "-", err) || md_table__cell(t, why_none(p, k), err);
		rc = rc || md_table__end_row(t, err);
	}
	if (!rc && l[0] && l[1]) {
		double pct, d = delta(p, l, &pct);

		rc = md_table__cell(t, p->gap_word, err) ||
		     md_table__cellf(t, err, "%+.2f (%+.1f%%)", d, pct) || md_table__end_row(t, err);
	}
	if (rc) {
		md_table__delete(t);
		return -1;
	}
	if (md_table__flush(t, f, name, err))
		return -1;
	if (!p->levers || !l[0] || !l[1])
		return 0;
	t = md_table__new_cols(lcols, 4, err);
	if (!t)
		return -1;
	for (int lv = -1; lv < LP__NLEVERS && !rc; lv++) {
		double c = lv < 0 ? l[0]->base.cycles_per_iter : with_lever(l[0], lv);

		rc = (lv < 0 ? md_table__cell(t, "(as compiled)", err) :
			       md_table__cell_code(t, lp_lever__name((enum lp_lever)lv), err)) ||
		     (lv < 0 ? md_table__cell(t, "-", err) :
			       md_table__cellf(t, err, "%u", l[0]->lever[lv].removed)) ||
		     md_table__cellf(t, err, "%.2f", c) ||
		     md_table__cellf(t, err, "%+.2f", c - l[1]->base.cycles_per_iter) ||
		     md_table__end_row(t, err);
	}
	if (rc) {
		md_table__delete(t);
		return -1;
	}
	return md_table__flush(t, f, name, err);
}
