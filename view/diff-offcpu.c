// SPDX-License-Identifier: MIT
/*
 * The off-CPU part of the diff's view (diff.h, docs/offcpu-diff.md): per
 * wasm function its off-CPU time before and after (compare/offcpu_diff.h),
 * as the JSON's rows and as the tables text and Markdown show, cut once.
 */
#include <inttypes.h>
#include "internal.h"

/* the off-CPU object of a function's JSON (docs/json.md's keys), in oc_cols order */
static const char *const oc_keys[] = {
	"before.on_cpu_ns", "before.on_cpu_incl_ns", "before.off_cpu_ns", "before.off_cpu_incl_ns",
	"before.wall_ns", "before.intervals", "before.mean_interval_ns",
	"after.on_cpu_ns", "after.on_cpu_incl_ns", "after.off_cpu_ns", "after.off_cpu_incl_ns",
	"after.wall_ns", "after.intervals", "after.mean_interval_ns",
	"change_ns", "change_pct", "change_incl_ns", "wall_change_ns",
	"mean_interval_test.tested", "mean_interval_test.t", "mean_interval_test.df",
	"mean_interval_test.p", "mean_interval_test.p_adjusted",
	"mean_interval_test.significant",
};

uint32_t view_diff__oc_cols(struct vcols *s)
{
	uint32_t first = s->n;

	for (uint32_t i = 0; i < sizeof(oc_keys) / sizeof(oc_keys[0]); i++) {
		enum vt_kind k = VT_NS;

		if (i == 5 || i == 12)
			k = VT_COUNT;
		else if (i == 15)
			k = VT_REL;
		else if (i == 18 || i == 23)
			k = VT_BOOL;
		else if (i == 19 || i == 20)
			k = VT_RATIO;
		else if (i == 21 || i == 22)
			k = VT_PVALUE;
		vcols__add(s, oc_keys[i], oc_keys[i], k, VT_NO_TEXT | VT_NO_MD);
		s->c[s->n - 1].prefix = "off_cpu";
		if (i == 19)
			vcols__prec(s, -1, 4);
		if (i == 20)
			vcols__prec(s, -1, 2);
	}
	return first;
}

static void oc_side(struct vt_table *t, uint32_t at, const struct cmp_oc_val *x)
{
	vt_table__dbl(t, at, x->on_ns);
	vt_table__dbl(t, at + 1, x->on_incl_ns);
	vt_table__dbl(t, at + 2, x->off_ns);
	vt_table__dbl(t, at + 3, x->off_incl_ns);
	vt_table__dbl(t, at + 4, x->wall_ns);
	vt_table__u64(t, at + 5, x->intervals);
	vt_table__dbl(t, at + 6, x->mean_interval_ns);
}

void view_diff__oc_put(struct vt_table *t, uint32_t at, const struct cmp_oc_func *x)
{
	if (!x)
		return;
	oc_side(t, at, &x->before);
	oc_side(t, at + 7, &x->after);
	vt_table__dbl(t, at + 14, x->change_ns);
	if (x->has_rel)
		vt_table__dbl(t, at + 15, x->rel_pct);
	vt_table__dbl(t, at + 16, x->change_incl_ns);
	vt_table__dbl(t, at + 17, x->wall_change_ns);
	vt_table__bool(t, at + 18, x->tested);
	vt_table__dbl(t, at + 19, x->stat);
	vt_table__dbl(t, at + 20, x->df);
	if (x->tested) {
		vt_table__dbl(t, at + 21, x->p);
		vt_table__dbl(t, at + 22, x->p_adj);
	}
	vt_table__bool(t, at + 23, x->significant);
}

/* an off-CPU row's label, as the diff labels a function */
static const char *oc_label(const struct view_diff *v, const struct cmp_oc_func *f, char *buf,
			    size_t len)
{
	struct cmp_func cf = {
		.pair = f->pair, .wasm_index = f->wasm_index, .local_before = f->local_before,
		.local_after = f->local_after, .name_before = f->name_before,
		.name_after = f->name_after,
	};

	return view_diff__label(v, &cf, buf, len);
}

/* the JSON's rows: core, wasm_func, local_before, local_after, name, off_cpu */
static int json_rows(struct view_diff *v)
{
	const struct cmp_offcpu *oc = v->in.oc;
	unsigned h = VT_NO_TEXT | VT_NO_MD;
	struct vcols s = { 0 };
	uint32_t core, wasm, lb, la, name, first;

	core = vcols__add(&s, "core", "core", VT_TEXT, h);
	wasm = vcols__add(&s, "wasm_func", "wasm", VT_COUNT, h);
	lb = vcols__add(&s, "local_before", "local", VT_INT, h);
	la = vcols__add(&s, "local_after", "local", VT_INT, h);
	name = vcols__add(&s, "name", "function", VT_TEXT, h);
	first = view_diff__oc_cols(&s);
	if (!(v->oc_json = vt_table__new(s.c, s.n)))
		return -1;
	for (uint32_t i = 0; i < oc->nfuncs; i++) {
		const struct cmp_oc_func *f = &oc->funcs[i];
		char buf[300];

		if (vt_table__add_row(v->oc_json) ||
		    vt_table__strf(v->oc_json, core, "%s",
				   view_diff__pair_label(v, f->pair, buf, sizeof(buf))) ||
		    vt_table__strf(v->oc_json, name, "%s", oc_label(v, f, buf, sizeof(buf))))
			return -1;
		vt_table__u64(v->oc_json, wasm, f->wasm_index);
		if (f->local_before >= 0)
			vt_table__i64(v->oc_json, lb, f->local_before);
		if (f->local_after >= 0)
			vt_table__i64(v->oc_json, la, f->local_after);
		view_diff__oc_put(v->oc_json, first, f);
	}
	return vt_table__cut(v->oc_json, NULL);
}

/* Columns of the tables text and Markdown show (no JSON: json_rows has it all). */
struct show_cols {
	uint32_t wasm, name, off_b, off_a, chg, rel, wait_b, wait_a, p, mark, sig;
	uint32_t inc_b, inc_a, inc_chg, wall_b, wall_a, wall_chg;
};

static uint32_t show(struct vcols *s, const char *head, const char *md_head, enum vt_kind k,
		     unsigned flags)
{
	uint32_t c = vcols__add(s, NULL, head, k, flags);

	s->c[c].md_head = md_head;
	return c;
}

/* self: the waits; wall: inclusive and wall time (wall 1) */
static int show_table(struct view_diff *v, int wall, struct vt_table **out)
{
	const struct cmp_offcpu *oc = v->in.oc;
	struct vt_cut cut = { .sort_col = -1, .pct_col = -1, .show_col = -1, .top = v->in.top };
	unsigned self_only = wall ? VT_NO_TEXT | VT_NO_MD : 0;
	unsigned wall_only = wall ? VT_NO_MD : VT_NO_TEXT | VT_NO_MD;
	struct vcols s = { 0 };
	struct show_cols c;

	c.wasm = show(&s, "wasm", NULL, VT_COUNT, VT_NO_TEXT | (wall ? VT_NO_MD : 0));
	c.name = show(&s, "function", NULL, VT_TEXT, VT_FLEX | VT_CODE);
	s.c[c.name].max_chars = 18;
	s.c[c.name].md_max_chars = 48;
	c.off_b = show(&s, "before", "off-CPU before ms", VT_NS, self_only);
	c.off_a = show(&s, "after", "after ms", VT_NS, self_only);
	c.chg = show(&s, "change", "change ms", VT_NS, VT_SIGNED | self_only);
	c.rel = show(&s, "rel", "relative", VT_REL, self_only);
	s.c[c.rel].absent = "-";
	c.inc_b = show(&s, "incl bef", "inclusive before ms", VT_NS, wall ? 0 : VT_NO_TEXT);
	c.inc_a = show(&s, "incl aft", "after ms", VT_NS, wall ? 0 : VT_NO_TEXT);
	c.inc_chg = show(&s, "change", NULL, VT_NS, VT_SIGNED | wall_only);
	c.wall_b = show(&s, "wall bef", "wall before ms", VT_NS, wall ? 0 : VT_NO_TEXT);
	c.wall_a = show(&s, "wall aft", "after ms", VT_NS, wall ? 0 : VT_NO_TEXT);
	c.wall_chg = show(&s, "change", NULL, VT_NS, VT_SIGNED | wall_only);
	c.wait_b = show(&s, "wait bef", "mean wait before ms", VT_NS, self_only);
	c.wait_a = show(&s, "wait aft", "after ms", VT_NS, self_only);
	c.p = show(&s, "p(adj)", "p (adj.)", VT_PVALUE, self_only);
	s.c[c.p].absent = "-";
	c.mark = show(&s, "", NULL, VT_TEXT, VT_TIGHT | VT_NO_MD | self_only);
	c.sig = show(&s, "significant", NULL, VT_BOOL, VT_NO_TEXT | (wall ? VT_NO_MD : 0));
	if (!(*out = vt_table__new(s.c, s.n)))
		return -1;
	for (uint32_t i = 0; i < oc->nfuncs; i++) {
		const struct cmp_oc_func *f = &oc->funcs[i];
		char buf[300];

		if (vt_table__add_row(*out) ||
		    vt_table__strf(*out, c.name, "%s", oc_label(v, f, buf, sizeof(buf))))
			return -1;
		vt_table__u64(*out, c.wasm, f->wasm_index);
		vt_table__dbl(*out, c.off_b, f->before.off_ns);
		vt_table__dbl(*out, c.off_a, f->after.off_ns);
		vt_table__dbl(*out, c.chg, f->change_ns);
		if (f->has_rel)
			vt_table__dbl(*out, c.rel, f->rel_pct);
		else if (f->after.off_ns > 0)
			vt_table__word(*out, c.rel, "new");
		vt_table__dbl(*out, c.inc_b, f->before.off_incl_ns);
		vt_table__dbl(*out, c.inc_a, f->after.off_incl_ns);
		vt_table__dbl(*out, c.inc_chg, f->change_incl_ns);
		vt_table__dbl(*out, c.wall_b, f->before.wall_ns);
		vt_table__dbl(*out, c.wall_a, f->after.wall_ns);
		vt_table__dbl(*out, c.wall_chg, f->wall_change_ns);
		if (f->before.intervals || f->after.intervals) {
			vt_table__dbl(*out, c.wait_b, f->before.mean_interval_ns);
			vt_table__dbl(*out, c.wait_a, f->after.mean_interval_ns);
		}
		if (f->tested)
			vt_table__dbl(*out, c.p, f->p_adj);
		vt_table__str(*out, c.mark, f->significant ? " *" : "");
		vt_table__bool(*out, c.sig, f->significant);
	}
	return vt_table__cut(*out, &cut);
}

int view_diff__offcpu(struct view_diff *v)
{
	if (!v->in.oc)
		return 0;
	return json_rows(v) || show_table(v, 0, &v->oc_self) || show_table(v, 1, &v->oc_wall);
}
