// SPDX-License-Identifier: MIT
/* A classified function's hot loops and the what-if per lever, as a view (loops.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "loops.h"
#include "../util/pct.h"

/* The samples of the classes lever lv touches, in loop l. */
static uint64_t lever_samples(const struct lp_loop *l, int lv)
{
	switch (lv) {
	case LP_ZEXT_MOVE:
		return l->cls_samples[CLS_ZEXT_MOVE];
	case LP_FRAME:
		return l->cls_samples[CLS_FRAME_LOAD] + l->cls_samples[CLS_FRAME_STORE];
	case LP_BOUNDS_CHECK:
		return l->cls_samples[CLS_BOUNDS_CHECK];
	case LP_VMCTX_RELOAD:
		return l->cls_samples[CLS_VMCTX_RELOAD];
	default:	/* dispatch: no one class, the instructions the model touched */
		return l->lever[lv].touched_samples;
	}
}

const char *view__lever_words(int lever)
{
	static const char *const w[LP__NLEVERS] = { "zero-extends", "frame loads/stores",
						    "bounds checks", "vmctx reloads",
						    "dispatch" };
	return lever >= 0 && lever < LP__NLEVERS ? w[lever] : "?";
}

/* Lever lv touches loop l and its saving is modelled (loops.h: not_modelled). */
static int lever_modelled(const struct lp_loop *l, int lv)
{
	return l->lever[lv].removed && !l->lever[lv].not_modelled;
}

/* Sort key: modelled levers by payoff, then those not modelled, those with nothing to remove last. */
static double order_key(const struct lp_loop *l, int lv)
{
	return lever_modelled(l, lv) ? lp_loop__payoff(l, lv) : l->lever[lv].removed ? -1e8 : -1e9;
}

/* Levers by predicted payoff, most first; not modelled, then nothing to remove, last. */
static void by_payoff(const struct lp_loop *l, int *order)
{
	for (int i = 0; i < LP__NLEVERS; i++)
		order[i] = i;
	for (int i = 1; i < LP__NLEVERS; i++)
		for (int k = i; k > 0; k--) {
			int t = order[k];

			if (order_key(l, order[k]) <= order_key(l, order[k - 1]))
				break;
			order[k] = order[k - 1];
			order[k - 1] = t;
		}
}

/* "frame_load 30%, alu 22%, bounds_check 12%": the three largest classes. */
static void top_classes(const struct lp_loop *l, int by_samples, char *out, size_t n)
{
	uint8_t used[CLS__COUNT] = { 0 };
	uint64_t total = by_samples ? l->samples : l->static_insns;
	size_t len = 0;

	*out = 0;
	for (int k = 0; k < 3; k++) {
		int best = -1;

		for (int c = 0; c < CLS__COUNT; c++) {
			uint64_t v = by_samples ? l->cls_samples[c] : l->cls_static[c];
			uint64_t bv = best < 0 ? 0 : by_samples ? l->cls_samples[best] : l->cls_static[best];

			if (!used[c] && v && (best < 0 || v > bv))
				best = c;
		}
		if (best < 0)
			break;
		used[best] = 1;
		len += (size_t)snprintf(out + len, len < n ? n - len : 0, "%s%s %.0f%%", k ? ", " : "",
					cls__name((enum cls_class)best),
					ap_pct(by_samples ? l->cls_samples[best] : l->cls_static[best],
					       total));
		if (len >= n)
			break;
	}
}

/* loop 4, header 9 (left), depth 5, blocks 6, insns 6, samples 8, %func 6, top classes */
enum { L_LOOP, L_HEADER, L_DEPTH, L_BLOCKS, L_INSNS, L_SAMPLES, L_PCT, L_TOP };

static struct vt_table *loops_table(int sampled)
{
	static const unsigned widths[] = { 4, 9, 5, 6, 6, 8, 6 };
	struct vcols s = { .n = 0 };

	vcols__add(&s, NULL, "loop", VT_COUNT, 0);
	vcols__add(&s, NULL, "header", VT_TEXT, 0);
	vcols__add(&s, NULL, "depth", VT_COUNT, 0);
	vcols__add(&s, NULL, "blocks", VT_COUNT, 0);
	vcols__add(&s, NULL, "insns", VT_COUNT, 0);
	vcols__add(&s, NULL, "samples", VT_COUNT, 0);
	vcols__add(&s, NULL, "%func", VT_PERCENT, VT_PCT);
	vcols__prec(&s, 1, -1);
	vcols__add(&s, NULL, sampled ? "top classes by samples" : "top classes", VT_TEXT, VT_FLEX);
	s.c[L_TOP].md_head = "top classes";
	s.c[L_TOP].gap = 2;
	for (uint32_t c = 0; c < L_TOP; c++)
		s.c[c].width = widths[c];
	return vt_table__new(s.c, s.n);
}

static int loops_rows(struct view_loops *v)
{
	const struct lp_func *lf = v->lf;
	struct vt_cut cut = { .sort_col = -1, .pct_col = -1, .show_col = -1,
			      .top = VIEW_LOOPS_LISTED };
	struct vt_table *t = v->loops = loops_table(v->sampled);

	for (uint32_t i = 0; t && i < lf->nloops; i++) {
		const struct lp_loop *l = &lf->loops[i];
		char cls[96];

		top_classes(l, v->sampled, cls, sizeof(cls));
		if (vt_table__add_row(t) ||
		    vt_table__strf(t, L_HEADER, "+0x%x", v->f->insns[lf->blocks[l->header].first].offset) ||
		    vt_table__strf(t, L_TOP, "%s", cls))
			return -1;
		vt_table__u64(t, L_LOOP, i + 1);
		vt_table__u64(t, L_DEPTH, l->depth);
		vt_table__u64(t, L_BLOCKS, l->nblocks);
		vt_table__u64(t, L_INSNS, l->static_insns);
		vt_table__u64(t, L_SAMPLES, l->samples);
		vt_table__dbl(t, L_PCT, v->loop_pct[i]);
	}
	if (!t || vt_table__cut(t, &cut))
		return -1;
	v->loops_more = lf->nloops - vt_table__shown(t);
	return 0;
}

/* samples 7, %loop 7, two spaces, offset 8, class 13, the instruction, a trap block's tag */
enum { I_SAMPLES, I_PCT, I_OFF, I_CLASS, I_TEXT, I_TAG };

static struct vt_table *listing_table(void)
{
	struct vcols s = { .n = 0 };

	vcols__add(&s, NULL, "samples", VT_COUNT, 0);
	s.c[I_SAMPLES].width = 7;
	vcols__add(&s, NULL, "%loop", VT_PERCENT, VT_PCT);
	s.c[I_PCT].width = 7;
	vcols__add(&s, NULL, "offset", VT_TEXT, 0);
	s.c[I_OFF].width = 8;
	s.c[I_OFF].gap = 2;
	vcols__add(&s, NULL, "class", VT_TEXT, 0);
	s.c[I_CLASS].width = 13;
	vcols__add(&s, NULL, "instruction", VT_TEXT, VT_FLEX);
	s.c[I_TEXT].max_chars = 160;	/* the room, so a tag after it sits where it fits */
	vcols__add(&s, NULL, "", VT_TEXT, VT_SUFFIX);
	s.c[I_TAG].gap = 2;
	return vt_table__new(s.c, s.n);
}

/* The hottest loop's instructions, block by block, the first VIEW_LOOP_INSNS_LISTED. */
static int listing_rows(struct view_loops *v, const uint64_t *s)
{
	const struct lp_func *lf = v->lf;
	const struct lp_loop *l = &lf->loops[0];
	struct vt_table *t = v->listing = listing_table();
	uint32_t all = 0;

	for (uint32_t k = 0; t && k < l->nblocks; k++) {
		const struct lp_block *b = &lf->blocks[l->blocks[k]];

		for (uint32_t i = b->first; i < b->end; i++, all++) {
			const struct cls_insn *in = &v->f->insns[i];
			char rel[sizeof(in->text) + 24];
			uint64_t smp = s ? s[i] : 0;

			if (all >= VIEW_LOOP_INSNS_LISTED)
				continue;
			if (vt_table__add_row(t) || vt_table__strf(t, I_OFF, "+0x%x", in->offset) ||
			    vt_table__strf(t, I_TEXT, "%s", cls__insn_text(v->f, i, rel, sizeof(rel))))
				return -1;
			vt_table__u64(t, I_SAMPLES, smp);
			vt_table__dbl(t, I_PCT, ap_pct(smp, l->samples));
			vt_table__str(t, I_CLASS, cls__name((enum cls_class)in->cls));
			if (b->trap)
				vt_table__str(t, I_TAG, "(trap block)");
		}
	}
	v->listing_more = all > VIEW_LOOP_INSNS_LISTED ? all - VIEW_LOOP_INSNS_LISTED : 0;
	return t ? 0 : -1;
}

/* lever 14 (left), removed 8, cycles/iter 12, payoff 8, %samples 9 (4 spaces in); model */
enum { W_LEVER, W_REMOVED, W_CYCLES, W_PAYOFF, W_SHARE, W_MODEL };

static struct vt_table *whatif_table(void)
{
	struct vcols s = { .n = 0 };

	vcols__add(&s, NULL, "what-if", VT_TEXT, VT_CODE);
	s.c[W_LEVER].md_head = "lever";
	s.c[W_LEVER].width = 14;
	vcols__add(&s, NULL, "removed", VT_COUNT, 0);
	s.c[W_REMOVED].width = 8;
	vcols__add(&s, NULL, "cycles/iter", VT_RATIO, 0);
	s.c[W_CYCLES].width = 12;
	vcols__add(&s, NULL, "payoff", VT_PERCENT, VT_PCT);
	vcols__prec(&s, 1, -1);
	s.c[W_PAYOFF].md_head = "predicted payoff";
	s.c[W_PAYOFF].width = 8;
	vcols__add(&s, NULL, "%samples", VT_PERCENT, VT_PCT);
	vcols__prec(&s, 1, -1);
	s.c[W_SHARE].width = 9;
	vcols__add(&s, NULL, "model", VT_TEXT, VT_NO_TEXT | VT_CODE);
	for (uint32_t c = W_REMOVED; c <= W_SHARE; c++)
		s.c[c].absent = "-";
	return vt_table__new(s.c, s.n);
}

/* The hottest loop's what-if rows by payoff, and the verdict's levers. */
static int model(struct view_loops *v)
{
	const struct lp_func *lf = v->lf;
	const struct lp_loop *l = &lf->loops[0];
	struct vt_table *t = v->whatif = whatif_table();
	int order[LP__NLEVERS];

	if (!t)
		return -1;
	by_payoff(l, order);
	for (int k = 0; k < LP__NLEVERS; k++) {
		int lv = order[k];
		const struct lp_model_run *r = &l->lever[lv];

		if (vt_table__add_row(t))
			return -1;
		vt_table__str(t, W_LEVER, lp_lever__name((enum lp_lever)lv));
		vt_table__u64(t, W_REMOVED, r->removed);
		vt_table__str(t, W_MODEL, lf->model.mcpu);
		if (v->sampled)	/* no recording: no share */
			vt_table__dbl(t, W_SHARE, v->lever_pct[0][lv]);
		if (!r->removed)
			continue;
		vt_table__dbl(t, W_CYCLES, r->cycles_per_iter);
		if (r->not_modelled) {	/* kept out of the verdict: the note says why */
			vt_table__word(t, W_PAYOFF, "n/m");
			v->not_modelled[v->nnot_modelled++] = lv;
			continue;
		}
		vt_table__dbl(t, W_PAYOFF, v->payoff[0][lv]);
		v->pays[v->npays++] = (struct view_loop_pay){ lv, v->lever_pct[0][lv],
							      v->payoff[0][lv] };
	}
	v->pays_most = v->npays && v->pays[0].payoff >= VIEW_LEVER_PAYS;
	return 0;
}

/* Each loop's share of the function, each lever's share of each loop and its payoff. */
static int shares(struct view_loops *v)
{
	const struct lp_func *lf = v->lf;
	uint32_t n = lf->nloops ? lf->nloops : 1;

	v->loop_pct = calloc(n, sizeof(*v->loop_pct));
	v->lever_pct = calloc(n, sizeof(*v->lever_pct));
	v->payoff = calloc(n, sizeof(*v->payoff));
	if (!v->loop_pct || !v->lever_pct || !v->payoff)
		return -1;
	for (uint32_t i = 0; i < lf->nloops; i++) {
		const struct lp_loop *l = &lf->loops[i];

		v->loop_pct[i] = ap_pct(l->samples, lf->total);
		for (int lv = 0; lv < LP__NLEVERS; lv++) {
			v->lever_pct[i][lv] = ap_pct(lever_samples(l, lv), l->samples);
			v->payoff[i][lv] = lp_loop__payoff(l, lv);
		}
	}
	return 0;
}

struct view_loops *view_loops__new(const struct lp_func *lf, const struct cls_func *f,
				   const uint64_t *insn_samples, const char *no_verdict,
				   struct ap_err *err)
{
	struct view_loops *v = calloc(1, sizeof(*v));
	int bad;

	if (!v) {
		ap_err_nomem(err);
		return NULL;
	}
	v->lf = lf;
	v->f = f;
	v->sampled = lf->total > 0;
	v->no_verdict = no_verdict;
	v->modelled = lf->nloops && lf->model.asked && *lf->model.tool && lf->loops[0].base.ok;
	bad = shares(v) || loops_rows(v) ||
	      (lf->nloops && listing_rows(v, v->sampled ? insn_samples : NULL)) ||
	      (v->modelled && model(v));
	if (bad) {
		view_loops__delete(v);
		ap_err_nomem(err);
		return NULL;
	}
	return v;
}

void view_loops__delete(struct view_loops *v)
{
	if (!v)
		return;
	vt_table__delete(v->loops);
	vt_table__delete(v->listing);
	vt_table__delete(v->whatif);
	free(v->loop_pct);
	free(v->lever_pct);
	free(v->payoff);
	free(v);
}
