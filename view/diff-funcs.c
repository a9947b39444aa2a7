// SPDX-License-Identifier: MIT
/*
 * The diff's function tables (diff.h): every function with samples on a
 * side, its time per run before and after (first), its share of the run
 * (second), the changes, tests and verdict; sorted by the size of the
 * judged change and cut to --top once. Then the renamed, removed and
 * added functions and the names found at other indices.
 */
#include <inttypes.h>
#include <stdlib.h>
#include "internal.h"

/* the columns of a function table */
struct fcols {
	uint32_t core, wasm, local, label, status, bl, bn, bb, al, an, ab, verdict, shown;
	struct vgroup st, ss, it, is;	/* self time, self share, inclusive time and share */
	uint32_t oc;			/* first off-CPU column, or UINT32_MAX */
};

static const struct vgroup_heads time_heads = { "before", "after", "change" };
static const struct vgroup_heads share_heads = { "before%", "after%", "points" };

/*
 * The columns: identity (JSON), the label (text and Markdown), then each
 * measure's group; `incl` picks which pair text and Markdown show (the
 * other is in the JSON only).
 */
static void func_cols(const struct view_diff *v, struct vcols *s, struct fcols *f, int incl)
{
	unsigned hide = VT_NO_TEXT | VT_NO_MD;
	unsigned full_text = VG_MEAN | VG_DELTA | VG_REL | VG_P | VG_MARK;
	unsigned full_md = VG_MEAN | VG_DELTA | VG_REL | VG_P | VG_CI | VG_SIG |
			   (v->d->before->ncaptures > 1 || v->d->after->ncaptures > 1 ? VG_SD : 0);
	unsigned t_text = v->time ? full_text : 0, t_md = v->time ? full_md : 0;
	unsigned s_text = v->time ? VG_MEAN : full_text;
	unsigned s_md = v->time ? VG_MEAN | VG_DELTA | (v->in.by_share ? VG_P | VG_SIG : 0)
				: full_md;

	f->core = vcols__add(s, "core", "core", VT_TEXT, hide);
	f->wasm = vcols__add(s, "wasm_func", "wasm", VT_COUNT, VT_NO_TEXT);
	f->local = vcols__add(s, NULL, "local", VT_TEXT, VT_NO_TEXT);
	f->label = vcols__add(s, "label", "function", VT_TEXT, VT_FLEX | VT_CODE);
	s->c[f->label].max_chars = 118;
	s->c[f->label].md_max_chars = 48;
	f->status = vcols__add(s, "status", "status", VT_TEXT, hide);
	f->bl = vcols__add(s, "before_func.local_func", "local", VT_INT, hide);
	f->bn = vcols__add(s, "before_func.name", "name", VT_TEXT, hide);
	f->bb = vcols__add(s, "before_func.code_bytes", "bytes", VT_COUNT, hide);
	f->al = vcols__add(s, "after_func.local_func", "local", VT_INT, hide);
	f->an = vcols__add(s, "after_func.name", "name", VT_TEXT, hide);
	f->ab = vcols__add(s, "after_func.code_bytes", "bytes", VT_COUNT, hide);
	if (v->time)
		f->st = vcols__group(s, "self_time", 1, incl ? 0 : t_text, incl ? 0 : t_md,
				     &time_heads);
	f->ss = vcols__group(s, "self", 0, incl ? 0 : s_text, incl ? 0 : s_md, &share_heads);
	if (v->time)
		f->it = vcols__group(s, "inclusive_time", 1, incl ? t_text : 0, incl ? t_md : 0,
				     &time_heads);
	f->is = vcols__group(s, "inclusive", 0, incl ? s_text : 0, incl ? s_md : 0,
			     &share_heads);
	f->verdict = vcols__add(s, "verdict", "verdict", VT_TEXT, VT_NO_TEXT);
	/* a row has something to show in this table: samples on a side */
	f->shown = vcols__add(s, NULL, "", VT_COUNT, hide);
	f->oc = UINT32_MAX;
	if (v->in.oc)
		f->oc = view_diff__oc_cols(s);
}

/* "slower", "faster", "": the judged change, significant */
static const char *verdict(const struct view_diff *v, const struct cmp_func *fn, int incl)
{
	const struct cmp_change *ch;

	if (v->time && !v->in.by_share)
		ch = incl ? &fn->incl_time.ch : &fn->self_time.ch;
	else
		ch = incl ? &fn->incl.ch : &fn->self.ch;
	if (!ch->significant)
		return "";
	return ch->delta > 0 ? "slower" : "faster";
}

static int func_row(const struct view_diff *v, struct vt_table *t, const struct fcols *f,
		    const struct cmp_func *fn, uint32_t i, int incl)
{
	static const char *const status[] = { "matched", "renamed", "added", "removed" };
	const struct cmp_metric *m = incl ? &fn->incl : &fn->self;
	char buf[300], p[256];

	int bad;

	bad = vt_table__strf(t, f->core, "%s", view_diff__pair_label(v, fn->pair, p, sizeof(p)));
	vt_table__u64(t, f->wasm, fn->wasm_index);
	if (fn->local_before >= 0 && fn->local_after >= 0 && fn->local_before != fn->local_after)
		bad |= vt_table__strf(t, f->local, "%" PRId64 " → %" PRId64, fn->local_before,
				      fn->local_after);
	else
		bad |= vt_table__strf(t, f->local, "%" PRId64,
				      fn->local_after >= 0 ? fn->local_after : fn->local_before);
	if (bad || vt_table__strf(t, f->label, "%s", view_diff__label(v, fn, buf, sizeof(buf))))
		return -1;
	vt_table__str(t, f->status, status[fn->status]);
	if (fn->local_before >= 0) {
		vt_table__i64(t, f->bl, fn->local_before);
		vt_table__str(t, f->bn, fn->name_before);
		vt_table__u64(t, f->bb, fn->size_before);
	}
	if (fn->local_after >= 0) {
		vt_table__i64(t, f->al, fn->local_after);
		vt_table__str(t, f->an, fn->name_after);
		vt_table__u64(t, f->ab, fn->size_after);
	}
	if (v->time) {
		vgroup__time(t, f->st, &fn->self_time);
		vgroup__time(t, f->it, &fn->incl_time);
	}
	vgroup__share(t, f->ss, &fn->self);
	vgroup__share(t, f->is, &fn->incl);
	vt_table__str(t, f->verdict, verdict(v, fn, incl));
	vt_table__u64(t, f->shown, m->valid ? m->before.samples + m->after.samples : 0);
	if (f->oc != UINT32_MAX)
		view_diff__oc_put(t, f->oc, cmp_offcpu__of(v->in.oc, i));
	return 0;
}

/* A function table: rows with samples on a side, by the judged change, cut to --top. */
static int func_table(struct view_diff *v, int incl, struct vt_table **out, uint32_t **rows)
{
	const struct cmp_diff *d = v->d;
	struct vcols s = { 0 };
	struct fcols f;
	struct vt_cut cut = { .pct_col = -1, .sort_abs = 1, .descending = 1, .top = v->in.top };
	uint32_t n = 0;

	func_cols(v, &s, &f, incl);
	if (!(*out = vt_table__new(s.c, s.n)) ||
	    !(*rows = malloc((d->nfuncs ? d->nfuncs : 1) * sizeof(**rows))))
		return -1;
	for (uint32_t i = 0; i < d->nfuncs; i++) {
		const struct cmp_func *fn = &d->funcs[i];

		if (fn->self.before.samples + fn->self.after.samples +
		    (fn->incl.valid ? fn->incl.before.samples + fn->incl.after.samples : 0) == 0)
			continue;
		if (vt_table__add_row(*out) || func_row(v, *out, &f, fn, i, incl))
			return -1;
		(*rows)[n++] = i;
	}
	if (v->time && !v->in.by_share)
		cut.sort_col = (int)vgroup__delta_col(incl ? f.it : f.st);
	else
		cut.sort_col = (int)vgroup__delta_col(incl ? f.is : f.ss);
	cut.show_col = (int)f.shown;
	return vt_table__cut(*out, &cut);
}

int view_diff__funcs(struct view_diff *v)
{
	if (func_table(v, 0, &v->funcs, &v->row_func))
		return -1;
	if (!v->d->before->has_incl || !v->d->after->has_incl)
		return 0;
	return func_table(v, 1, &v->incl, &v->incl_row_func);
}

/* renamed / removed / added: the functions of d->funcs at idx[0..n) */
static int status_table(const struct view_diff *v, const uint32_t *idx, uint32_t n,
			struct vt_table **out)
{
	struct vcols s = { 0 };
	struct vt_cut cut = { .sort_col = -1, .pct_col = -1, .show_col = -1, .top = 20 };
	uint32_t core, wasm, lb, la, nb, na, db, da, sb, sa;
	unsigned hide = VT_NO_TEXT | VT_NO_MD;

	core = vcols__add(&s, "core", "core", VT_TEXT, hide);
	wasm = vcols__add(&s, "wasm_func", "wasm", VT_COUNT, 0);
	lb = vcols__add(&s, "before_local_func", "local", VT_INT, hide);
	la = vcols__add(&s, "after_local_func", "local", VT_INT, hide);
	nb = vcols__add(&s, "before_name", "before", VT_TEXT, hide);
	na = vcols__add(&s, "after_name", "after", VT_TEXT, hide);
	db = vcols__add(&s, NULL, "before", VT_TEXT, VT_CODE);
	s.c[db].md_max_chars = 48;
	da = vcols__add(&s, NULL, "after", VT_TEXT, VT_CODE);
	s.c[da].md_max_chars = 48;
	sb = vcols__add(&s, NULL, "before%", VT_PERCENT, 0);
	s.c[sb].md_head = "before %";
	sa = vcols__add(&s, NULL, "after%", VT_PERCENT, 0);
	s.c[sa].md_head = "after %";
	if (!(*out = vt_table__new(s.c, s.n)))
		return -1;
	for (uint32_t i = 0; i < n; i++) {
		const struct cmp_func *f = &v->d->funcs[idx[i]];
		char p[256];

		if (vt_table__add_row(*out) ||
		    vt_table__strf(*out, core, "%s", view_diff__pair_label(v, f->pair, p, sizeof(p))))
			return -1;
		vt_table__u64(*out, wasm, f->wasm_index);
		if (f->local_before >= 0) {
			vt_table__i64(*out, lb, f->local_before);
			if (vt_table__strf(*out, db, "local_func_%" PRId64 "%s%s", f->local_before,
					   f->name_before ? " " : "",
					   f->name_before ? f->name_before : ""))
				return -1;
		}
		if (f->local_after >= 0) {
			vt_table__i64(*out, la, f->local_after);
			if (vt_table__strf(*out, da, "local_func_%" PRId64 "%s%s", f->local_after,
					   f->name_after ? " " : "",
					   f->name_after ? f->name_after : ""))
				return -1;
		}
		vt_table__str(*out, nb, f->name_before);
		vt_table__str(*out, na, f->name_after);
		vt_table__dbl(*out, sb, f->self.before.mean);
		vt_table__dbl(*out, sa, f->self.after.mean);
	}
	return vt_table__cut(*out, &cut);
}

static int moves(struct view_diff *v)
{
	struct vcols s = { 0 };
	struct vt_cut cut = { .sort_col = -1, .pct_col = -1, .show_col = -1, .top = 5 };
	uint32_t core, name, wb, wa;

	core = vcols__add(&s, "core", "core", VT_TEXT, VT_NO_TEXT | VT_NO_MD);
	name = vcols__add(&s, "name", "name", VT_TEXT, VT_FLEX | VT_CODE);
	s.c[name].max_chars = 30;
	wb = vcols__add(&s, "before_wasm_func", "wasm before", VT_COUNT, 0);
	wa = vcols__add(&s, "after_wasm_func", "wasm after", VT_COUNT, 0);
	if (!(v->moves = vt_table__new(s.c, s.n)))
		return -1;
	for (uint32_t i = 0; i < v->d->nmoves; i++) {
		const struct cmp_move *m = &v->d->moves[i];
		char p[256];

		if (vt_table__add_row(v->moves) ||
		    vt_table__strf(v->moves, core, "%s", view_diff__pair_label(v, m->pair, p, sizeof(p))))
			return -1;
		vt_table__str(v->moves, name, m->name);
		vt_table__u64(v->moves, wb, m->wasm_before);
		vt_table__u64(v->moves, wa, m->wasm_after);
	}
	return vt_table__cut(v->moves, &cut);
}

int view_diff__lists(struct view_diff *v)
{
	const struct cmp_diff *d = v->d;

	if (status_table(v, d->renamed, d->nrenamed, &v->renamed) ||
	    status_table(v, d->removed, d->nremoved, &v->removed) ||
	    status_table(v, d->added, d->nadded, &v->added))
		return -1;
	return moves(v);
}
