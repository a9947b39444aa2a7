// SPDX-License-Identifier: MIT
/*
 * The diff's class tables of --func and its gate (diff.h): the classes
 * with instructions or samples on a side, by the size of their change;
 * the gate's checks, their verdict words and, when it fails, the one line
 * that says why: a judged function slower by more than PCT, or (without
 * --force) a side whose recordings are cut short or do not fit its cores.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include "internal.h"

static int class_table(const struct view_diff_func *fn, struct vt_table **out)
{
	const struct cmp_cls_diff *c = &fn->cls;
	struct vcols s = { 0 };
	uint32_t cls, sb, sa, sc, nb, na, pb, pa, ch;

	cls = vcols__add(&s, "class", "class", VT_TEXT, VT_CODE);
	sb = vcols__add(&s, "static_before", "before", VT_COUNT, 0);
	s.c[sb].md_head = "static before";
	sa = vcols__add(&s, "static_after", "after", VT_COUNT, 0);
	s.c[sa].md_head = "static after";
	sc = vcols__add(&s, "static_change", "chg", VT_INT, VT_SIGNED);
	s.c[sc].md_head = "change";
	nb = vcols__add(&s, "samples_before", "samples", VT_COUNT, VT_NO_TEXT | VT_NO_MD);
	na = vcols__add(&s, "samples_after", "samples", VT_COUNT, VT_NO_TEXT | VT_NO_MD);
	pb = vcols__add(&s, "percent_of_function_before", "before%", VT_PERCENT, 0);
	s.c[pb].md_head = "% of function before";
	pa = vcols__add(&s, "percent_of_function_after", "after%", VT_PERCENT, 0);
	s.c[pa].md_head = "% of function after";
	ch = vcols__change(&s, NULL, 0, VG_DELTA | VG_P | VG_MARK, VG_DELTA | VG_P | VG_SIG,
			   "points");
	if (!(*out = vt_table__new(s.c, s.n)))
		return -1;
	for (int i = 0; i < CLS__COUNT; i++) {
		uint32_t k = c->order[i];
		const struct cmp_cls_row *row = &c->cls[k];

		if (!row->static_before && !row->static_after && !row->share.before.samples &&
		    !row->share.after.samples)
			continue;
		if (vt_table__add_row(*out))
			return -1;
		vt_table__str(*out, cls, cls__name((enum cls_class)k));
		vt_table__u64(*out, sb, row->static_before);
		vt_table__u64(*out, sa, row->static_after);
		vt_table__i64(*out, sc, row->static_change);
		vt_table__u64(*out, nb, row->share.before.samples);
		vt_table__u64(*out, na, row->share.after.samples);
		vt_table__dbl(*out, pb, row->share.before.mean);
		vt_table__dbl(*out, pa, row->share.after.mean);
		vchange__put(*out, ch, &row->share.ch);
	}
	return vt_table__cut(*out, NULL);
}

int view_diff__classes(struct view_diff *v)
{
	v->classes = calloc(v->in.nfuncs + 1, sizeof(*v->classes));
	if (!v->classes)
		return -1;
	for (uint32_t i = 0; i < v->in.nfuncs; i++)
		if (class_table(&v->in.funcs[i], &v->classes[i]))
			return -1;
	return 0;
}

static const char *check_verdict(const struct cmp_gate_check *c)
{
	return c->slower ? "slower" : c->grew ? "grew, not significant" : "not slower";
}

/* what a check judged, in words */
static void judged(const struct view_diff *v, const struct cmp_gate_check *c, char *buf,
		   size_t len)
{
	if (c->func >= 0)
		view_diff__label(v, &v->d->funcs[c->func], buf, len);
	else if (v->in.gate_wasm)
		snprintf(buf, len, "in wasm code");
	else
		snprintf(buf, len, "wasm %" PRIu32, c->wasm_index);
}

/* the first slower check, in one line */
static void slower_line(struct view_diff *v, const struct cmp_gate_check *c)
{
	const struct cmp_change *ch = c->judged;
	char what[256], rel[32] = "new", p[16];

	judged(v, c, what, sizeof(what));
	if (ch->has_rel)
		snprintf(rel, sizeof(rel), "%+.1f%%", ch->rel_pct);
	view__p_words(ch->p_adj, p, sizeof(p));
	if (v->in.by_share || !v->time)
		snprintf(v->gate_line, sizeof(v->gate_line), "%s: %s: share %.2f%% -> %.2f%% (%s, "
			 "p %s): slower by more than %g%% (by share)", v->side[1].word, what,
			 c->m.before.mean, c->m.after.mean, rel, p, v->in.gate->pct);
	else
		snprintf(v->gate_line, sizeof(v->gate_line), "%s: %s: time per run %.2f -> %.2f "
			 "%s (%s, p %s): slower by more than %g%%", v->side[1].word, what,
			 c->t.before.mean / 1e6, c->t.after.mean / 1e6, v->ms_word, rel, p,
			 v->in.gate->pct);
}

int view_diff__gate(struct view_diff *v)
{
	static const struct vgroup_heads th = { "before", "after", "change" };
	static const struct vgroup_heads sh = { "before%", "after%", "points" };
	const struct cmp_gate *g = v->in.gate;
	int by_share = v->in.by_share || !v->time;
	unsigned judged_text = VG_MEAN | VG_REL | VG_P | VG_MARK;
	unsigned judged_md = VG_MEAN | VG_DELTA | VG_REL | VG_P | VG_SIG;
	struct vcols s = { 0 };
	struct vgroup tg = { 0 }, sg;
	uint32_t core, wasm, what, grew, slower, verdict;

	if (!g)
		return 0;
	v->gate_by = by_share ? "share of the run" : "time per run";
	core = vcols__add(&s, "core", "core", VT_TEXT, VT_NO_TEXT | VT_NO_MD);
	wasm = vcols__add(&s, "wasm_func", "wasm", VT_COUNT, VT_NO_TEXT | VT_NO_MD);
	what = vcols__add(&s, "label", "judged", VT_TEXT, VT_FLEX);
	s.c[what].max_chars = 24;
	if (v->time)
		tg = vcols__group(&s, "time", 1, by_share ? 0 : judged_text,
				  by_share ? VG_MEAN : judged_md, &th);
	sg = vcols__group(&s, NULL, 0, by_share ? judged_text : 0,
			  by_share ? judged_md : VG_MEAN, &sh);
	grew = vcols__add(&s, "grew", "grew", VT_BOOL, VT_NO_TEXT | VT_NO_MD);
	slower = vcols__add(&s, "slower", "slower", VT_BOOL, VT_NO_TEXT | VT_NO_MD);
	verdict = vcols__add(&s, "verdict", "verdict", VT_TEXT, 0);
	if (!(v->checks = vt_table__new(s.c, s.n)))
		return -1;
	for (uint32_t i = 0; i < g->nchecks; i++) {
		const struct cmp_gate_check *c = &g->checks[i];
		char w[256];

		if (vt_table__add_row(v->checks))
			return -1;
		if (!v->in.gate_wasm) {
			if (vt_table__strf(v->checks, core, "%s",
					   view_diff__pair_label(v, c->pair, w, sizeof(w))))
				return -1;
			vt_table__u64(v->checks, wasm, c->wasm_index);
		}
		judged(v, c, w, sizeof(w));
		if (vt_table__strf(v->checks, what, "%s", w))
			return -1;
		if (v->time)
			vgroup__time(v->checks, tg, &c->t);
		vgroup__share(v->checks, sg, &c->m);
		vt_table__bool(v->checks, grew, c->grew);
		vt_table__bool(v->checks, slower, c->slower);
		vt_table__str(v->checks, verdict, check_verdict(c));
		if (c->slower && !v->gate_line[0])
			slower_line(v, c);
	}
	/* a side that cannot be judged fails the gate first, unless --force */
	for (int k = 0; k < 2 && !v->in.force; k++)
		if (v->side[k].problem[0]) {
			v->gate_blocked = 1;
			snprintf(v->gate_line, sizeof(v->gate_line), "%s (the gate judges whole "
				 "recordings of the cores that ran; --force judges them all the same)",
				 v->side[k].problem);
			break;
		}
	v->gate_failed = g->failed || v->gate_blocked;
	v->gate_verdict = v->gate_failed ? "FAILED" : g->nchecks ? "passed" : "nothing ran before";
	return vt_table__cut(v->checks, NULL);
}
