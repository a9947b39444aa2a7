// SPDX-License-Identifier: MIT
/*
 * The diff's view (diff.h): its words, the run and wasm totals, and the
 * parts built in diff-*.c, each once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

static const char *test_words(const struct cmp_diff *d)
{
	uint32_t kb = d->before->ncaptures, ka = d->after->ncaptures;

	if (kb >= 2 && ka >= 2)
		return d->has_time ? "Welch's t-test on the per-recording times and shares"
				   : "Welch's t-test on the per-recording shares";
	if (kb >= 2 || ka >= 2)
		return d->has_time ? "Welch's t-test, Poisson (times) and binomial (shares) "
				     "variance for the single recording"
				   : "Welch's t-test, binomial variance for the single capture";
	return d->has_time ? "normal approximation of the Poisson sample counts (times), "
			     "two-proportion z-test (shares)"
			   : "two-proportion z-test on the sample counts";
}

static void adjust_words(struct view_diff *v)
{
	switch (v->d->adjust) {
	case CMP_ADJ_HOLM: v->adjust_words = "Holm"; v->adjust_key = "holm"; return;
	case CMP_ADJ_BONFERRONI: v->adjust_words = "Bonferroni"; v->adjust_key = "bonferroni"; return;
	case CMP_ADJ_NONE: break;
	}
	v->adjust_words = "no";
	v->adjust_key = "none";
}

/* The runs' CPU time: a note when the sides differ by more than the noise. */
static int run_note(struct view_diff *v)
{
	const struct cmp_tmetric *r = &v->d->run_time;
	char p[16];
	int longer;

	if (!r->valid || !r->ch.significant)
		return 0;
	longer = r->ch.delta > 0;
	view__p_words(r->ch.p_adj, p, sizeof(p));
	snprintf(v->run_note, sizeof(v->run_note),
		 "the %s runs take more CPU time than the %s runs (%.1f against %.1f %s a run, "
		 "%+.0f%%, p %s): more than the noise; if they did different work, --by share "
		 "judges shares instead of time", longer ? "after" : "before",
		 longer ? "before" : "after", (longer ? r->after.mean : r->before.mean) / 1e6,
		 (longer ? r->before.mean : r->after.mean) / 1e6, v->ms_word,
		 r->ch.has_rel ? r->ch.rel_pct : 0.0, p);
	return ap_warnings__add(&v->warnings, AP_HINT_NONE, "%s", v->run_note);
}

/* The run, wasm code and each core pair: time and share before and after. */
static int totals(struct view_diff *v)
{
	static const struct vgroup_heads th = { "before", "after", "change" };
	static const struct vgroup_heads sh = { "before%", "after%", "points" };
	const struct cmp_diff *d = v->d;
	unsigned ttext = VG_MEAN | VG_DELTA | VG_REL | VG_P | VG_MARK;
	unsigned tmd = ttext | VG_SD | VG_SIG;
	struct vcols s = { 0 };
	struct vgroup tg = { 0 }, sg;
	struct vt_cut cut = { .sort_col = -1, .pct_col = -1, .show_col = -1,
			      .top = d->npairs > 1 ? 0 : 2 };
	uint32_t what, idx, matched, added, removed;
	char buf[256];

	what = vcols__add(&s, "core", "", VT_TEXT, VT_FLEX);
	s.c[what].max_chars = 30;
	s.c[what].md_head = "CPU time per run";
	idx = vcols__add(&s, "manifest_idx", "idx", VT_INT, VT_NO_TEXT | VT_NO_MD);
	matched = vcols__add(&s, "matched", "matched", VT_COUNT, VT_NO_TEXT | VT_NO_MD);
	added = vcols__add(&s, "added", "added", VT_COUNT, VT_NO_TEXT | VT_NO_MD);
	removed = vcols__add(&s, "removed", "removed", VT_COUNT, VT_NO_TEXT | VT_NO_MD);
	if (v->time)
		tg = vcols__group(&s, "time", 1, ttext, tmd, &th);
	sg = vcols__group(&s, "share", 0, v->time ? VG_MEAN : ttext,
			  v->time ? VG_MEAN | VG_DELTA : tmd, &sh);
	if (!(v->totals = vt_table__new(s.c, s.n)))
		return -1;
	for (uint32_t r = 0; r < 2 + d->npairs; r++) {
		if (vt_table__add_row(v->totals))
			return -1;
		if (r == 0) {
			vt_table__str(v->totals, what, "the run (every sample)");
			if (v->time)
				vgroup__time(v->totals, tg, &d->run_time);
			continue;
		}
		if (r == 1) {
			vt_table__str(v->totals, what, "in wasm code");
			if (v->time)
				vgroup__time(v->totals, tg, &d->wasm_time);
			vgroup__share(v->totals, sg, &d->wasm);
			continue;
		}
		{
			const struct cmp_pair *p = &d->pairs[r - 2];

			if (vt_table__strf(v->totals, what, "%s",
					   view_diff__pair_label(v, r - 2, buf, sizeof(buf))))
				return -1;
			if (p->manifest_idx >= 0)
				vt_table__i64(v->totals, idx, p->manifest_idx);
			vt_table__u64(v->totals, matched, p->nmatched);
			vt_table__u64(v->totals, added, p->nadded);
			vt_table__u64(v->totals, removed, p->nremoved);
			if (v->time)
				vgroup__time(v->totals, tg, &p->core_time);
			vgroup__share(v->totals, sg, &p->core);
		}
	}
	return vt_table__cut(v->totals, &cut);
}

/* The after build's functions the page lists: --func's, then the shown rows'. */
static int listed(struct view_diff *v)
{
	const struct cmp_diff *d = v->d;
	uint32_t cap = v->in.nfuncs + vt_table__shown(v->funcs) + 1;

	v->listed = calloc(cap, sizeof(*v->listed));
	if (!v->listed)
		return -1;
	for (uint32_t i = 0; i < v->in.nfuncs + vt_table__shown(v->funcs); i++) {
		int64_t pair, local;
		uint32_t k;

		if (i < v->in.nfuncs) {
			pair = v->in.funcs[i].pair;
			local = v->in.funcs[i].local_after;
		} else {
			const struct cmp_func *f = &d->funcs[view_diff__func_of(v, 0, i - v->in.nfuncs)];

			pair = f->pair;
			local = f->local_after;
		}
		if (pair < 0 || local < 0 || d->pairs[pair].after < 0)
			continue;
		for (k = 0; k < v->nlisted; k++)
			if (v->listed[k][0] == (uint32_t)d->pairs[pair].after &&
			    v->listed[k][1] == (uint32_t)local)
				break;
		if (k < v->nlisted)
			continue;
		v->listed[v->nlisted][0] = (uint32_t)d->pairs[pair].after;
		v->listed[v->nlisted++][1] = (uint32_t)local;
	}
	return 0;
}

int view_diff__new(const struct view_diff_input *in, struct view_diff **out, struct ap_err *err)
{
	struct view_diff *v = calloc(1, sizeof(*v));

	*out = NULL;
	if (!v)
		return ap_err_nomem(err);
	v->in = *in;
	v->d = in->d;
	v->time = in->d->has_time;
	v->time_unit = in->period_ns || !in->event ? "ns" : in->event;
	v->ms_word = in->period_ns || !in->event ? "ms" : "M events";
	v->test_words = test_words(in->d);
	adjust_words(v);
	for (uint32_t i = 0; i < in->d->nwarnings; i++)
		if (ap_warnings__add(&v->warnings, AP_HINT_NONE, "%s", in->d->warnings[i]))
			goto nomem;
	if (view_diff__sides(v) || run_note(v) || totals(v) || view_diff__funcs(v) ||
	    view_diff__lists(v) || view_diff__classes(v) || view_diff__gate(v) ||
	    view_diff__offcpu(v) || listed(v))
		goto nomem;
	*out = v;
	return 0;
nomem:
	view_diff__delete(v);
	return ap_err_nomem(err);
}

void view_diff__delete(struct view_diff *v)
{
	if (!v)
		return;
	for (int k = 0; k < 2; k++) {
		vt_table__delete(v->side[k].recordings);
		vt_table__delete(v->side[k].cores);
	}
	vt_table__delete(v->totals);
	vt_table__delete(v->funcs);
	vt_table__delete(v->incl);
	free(v->row_func);
	free(v->incl_row_func);
	vt_table__delete(v->renamed);
	vt_table__delete(v->removed);
	vt_table__delete(v->added);
	vt_table__delete(v->moves);
	for (uint32_t i = 0; v->classes && i < v->in.nfuncs; i++)
		vt_table__delete(v->classes[i]);
	free(v->classes);
	vt_table__delete(v->checks);
	vt_table__delete(v->oc_json);
	vt_table__delete(v->oc_self);
	vt_table__delete(v->oc_wall);
	ap_warnings__exit(&v->warnings);
	free(v->listed);
	free(v);
}

uint32_t view_diff__func_of(const struct view_diff *v, int incl, uint32_t i)
{
	return incl ? v->incl_row_func[vt_table__row(v->incl, i)]
		    : v->row_func[vt_table__row(v->funcs, i)];
}
