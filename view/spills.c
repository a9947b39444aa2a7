// SPDX-License-Identifier: MIT
/* The view of aotperf spills (spills.h): its tables, filled and cut once. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "internal.h"
#include "spills.h"
#include "../cwasm/coreset.h"
#include "../util/pct.h"

/* A count the log may lack: absent ("-") then. */
static uint32_t count_col(struct vcols *s, const char *key, const char *head, unsigned flags)
{
	uint32_t c = vcols__add(s, key, head, VT_COUNT, flags);

	s->c[c].absent = "-";
	return c;
}

/* A share of the run: two decimals in text, four in JSON. */
static uint32_t run_pct_col(struct vcols *s, unsigned flags)
{
	uint32_t c = vcols__add(s, "percent_of_run", "%run", VT_PERCENT, VT_PCT | flags);

	vcols__prec(s, 2, 4);
	s->c[c].absent = "-";
	return c;
}

static void heat_put(const struct spills *sp, struct vt_table *t, uint32_t samples,
		     uint32_t pct, uint64_t n)
{
	vt_table__u64(t, samples, n);
	vt_table__dbl(t, pct, ap_pct(n, spills__total_samples(sp)));
}

static int run(struct view_spills *v)
{
	const struct spills *s = v->s;
	struct vcols c = { 0 };
	struct vt_table *t;

	vcols__add(&c, "perf", "recording", VT_TEXT, 0);
	vcols__add(&c, "total_samples", "samples", VT_COUNT, 0);
	vcols__add(&c, "attributed_samples", "in the cores", VT_COUNT, 0);
	vcols__add(&c, "attributed_pct", "%", VT_PERCENT, VT_PCT);
	vcols__prec(&c, 1, 2);
	if (!(t = v->run = vt_table__new(c.c, c.n)) || vt_table__add_row(t))
		return -1;
	if (s->p) {
		vt_table__str(t, 0, s->p->input);
		vt_table__u64(t, 1, s->p->attr.total_samples);
		vt_table__u64(t, 2, s->p->attr.attributed_samples);
		vt_table__dbl(t, 3, ap_pct(s->p->attr.attributed_samples, s->p->attr.total_samples));
	}
	return vt_table__cut(t, NULL);
}

/* Fields of a row the text shows while the line has room, and when each gives way. */
static const struct { int field; const char *head; unsigned drop; } shown_fields[] = {
	{ SPILL_F_INSTS, "insts", 5 }, { SPILL_F_SPILLED_VREGS, "sp_vregs", 4 },
	{ SPILL_F_SPILL_LD, "spill_ld", 0 }, { SPILL_F_SPILL_ST, "spill_st", 3 },
};
#define NSHOWN (sizeof(shown_fields) / sizeof(shown_fields[0]))

static int sort_is_shown(const struct spills *s)
{
	for (size_t k = 0; k < NSHOWN; k++)
		if (shown_fields[k].field == s->field)
			return 1;
	return s->field == SPILL_F_MOD || s->field == SPILL_F_LOCAL_FUNC;
}

struct rank_cols {
	uint32_t rank, mod, label, func, line, sprank, shown, sort, metrics, samples, pct,
		 runtime, frame, ratio, name;
};

static void rank_cols(const struct spills *s, struct vcols *c, struct rank_cols *k)
{
	unsigned hide = VT_NO_TEXT | VT_NO_MD, heat = s->p ? 0 : hide, frame = s->cs->n ? 0 : hide;

	k->rank = vcols__add(c, "rank", "rank", VT_COUNT, 0);
	k->mod = vcols__add(c, "mod", "mod", VT_COUNT, 0);
	c->c[k->mod].drop = s->multi ? 0 : 1;	/* one module: the column says nothing */
	k->label = vcols__add(c, NULL, "function", VT_TEXT, 0);
	k->func = vcols__add(c, "local_func", "local_func", VT_COUNT, hide);
	k->line = vcols__add(c, "line", "line", VT_COUNT, hide);
	k->sprank = vcols__add(c, "spill_rank", "spill rank", VT_COUNT, hide);
	k->shown = c->n;
	for (size_t i = 0; i < NSHOWN; i++)
		c->c[count_col(c, NULL, shown_fields[i].head, 0)].drop = shown_fields[i].drop;
	k->sort = count_col(c, NULL, s->sort, sort_is_shown(s) ? hide : 0);
	k->metrics = c->n;
	for (uint32_t f = 0; f < s->log.nfields; f++) {
		vcols__add(c, s->log.fields[f], s->log.fields[f], VT_COUNT, hide | VT_JSON_OPT);
		c->c[c->n - 1].prefix = "metrics";
	}
	k->samples = count_col(c, "samples", "samples", heat);
	k->pct = run_pct_col(c, heat);
	k->runtime = vcols__add(c, "runtime", "runtime", VT_TEXT, heat);
	k->frame = vcols__add(c, "static_frame_loads", "frame_ld", VT_INT, frame);
	c->c[k->frame].absent = "-";
	c->c[k->frame].drop = 2;
	k->ratio = vcols__add(c, "static_to_spill_ld", "ratio", VT_RATIO, frame);
	vcols__prec(c, 2, 4);
	c->c[k->ratio].absent = "-";
	c->c[k->ratio].drop = 2;
	k->name = vcols__add(c, "name", "name", VT_TEXT, VT_FLEX);
}

static int rank(struct view_spills *v)
{
	const struct spills *s = v->s;
	struct vcols c = { 0 };
	struct rank_cols k;
	struct vt_table *t;
	uint64_t x;

	rank_cols(s, &c, &k);
	if (!(t = v->rank = vt_table__new(c.c, c.n)))
		return -1;
	for (uint32_t i = 0; i < s->ntop; i++) {
		uint32_t ri = s->order[i];
		const struct spill_rec *r = &s->log.recs[ri];
		uint64_t ld = r->v[SPILL_F_SPILL_LD];

		if (vt_table__add_row(t) ||
		    vt_table__strf(t, k.label, "local_func_%" PRIu32, r->func))
			return -1;
		vt_table__u64(t, k.rank, i + 1);
		vt_table__u64(t, k.mod, r->mod);
		vt_table__u64(t, k.func, r->func);
		vt_table__u64(t, k.line, r->line);
		vt_table__u64(t, k.sprank, s->spill_rank[ri]);
		for (size_t f = 0; f < NSHOWN; f++)
			if (spill_log__get(&s->log, r, shown_fields[f].field, &x))
				vt_table__u64(t, k.shown + (uint32_t)f, x);
		if (spill_log__get(&s->log, r, s->field, &x))
			vt_table__u64(t, k.sort, x);
		for (uint32_t f = 0; f < s->log.nfields; f++)
			if (spill_log__get(&s->log, r, (int)f, &x))
				vt_table__u64(t, k.metrics + f, x);
		if (spills__known(s, ri)) {
			heat_put(s, t, k.samples, k.pct, spills__rec_samples(s, ri));
			vt_table__str(t, k.runtime, spills__note(s, ri));
		}
		if (s->static_ld[ri] >= 0) {
			vt_table__i64(t, k.frame, s->static_ld[ri]);
			if (ld)
				vt_table__dbl(t, k.ratio, (double)s->static_ld[ri] / (double)ld);
		}
		vt_table__str(t, k.name, r->name);
	}
	return vt_table__cut(t, NULL);
}

/* The heavy spillers under --cold-pct: never or barely executed. */
static int cold(struct view_spills *v)
{
	const struct spills *s = v->s;
	unsigned hide = VT_NO_TEXT | VT_NO_MD;
	struct vcols c = { 0 };
	uint32_t nr, label, mod, func, name, ld, samples, pct, heat;
	struct vt_table *t;

	nr = vcols__add(&c, "spill_rank", "#", VT_COUNT, 0);
	label = vcols__add(&c, NULL, "function", VT_TEXT, 0);
	mod = vcols__add(&c, "mod", "mod", VT_COUNT, hide);
	func = vcols__add(&c, "local_func", "local_func", VT_COUNT, hide);
	ld = vcols__add(&c, "spill_ld", "spill_ld", VT_COUNT, 0);
	samples = vcols__add(&c, "samples", "samples", VT_COUNT, hide);
	pct = run_pct_col(&c, hide);
	heat = vcols__add(&c, NULL, "runtime", VT_TEXT, 0);
	name = vcols__add(&c, "name", "name", VT_TEXT, VT_FLEX);
	if (!(t = v->cold = vt_table__new(c.c, c.n)))
		return -1;
	for (uint32_t i = 0; s->p && i < s->nheavy; i++) {
		uint32_t ri = s->sp_order[i];
		const struct spill_rec *r = &s->log.recs[ri];
		uint64_t k = spills__rec_samples(s, ri);
		char lbl[64], words[48];

		if (!spills__known(s, ri) || !r->v[SPILL_F_SPILL_LD] ||
		    ap_pct(k, spills__total_samples(s)) >= s->o->cold_pct)
			continue;
		if (vt_table__add_row(t) ||
		    vt_table__strf(t, label, "%s", spills__fn_label(s, r->mod, r->func, lbl,
								    sizeof(lbl))) ||
		    vt_table__strf(t, heat, "%s", k ? spills__heat(s, k, words, sizeof(words))
						   : "never run"))
			return -1;
		vt_table__u64(t, nr, i + 1);
		vt_table__u64(t, mod, r->mod);
		vt_table__u64(t, func, r->func);
		vt_table__str(t, name, r->name);
		vt_table__u64(t, ld, r->v[SPILL_F_SPILL_LD]);
		heat_put(s, t, samples, pct, k);
	}
	return vt_table__cut(t, NULL);
}

/* A hot function against the log; its verdict. */
static int hot_table(struct view_spills *v, const struct spills_hot *h, uint32_t n,
		     struct vt_table **out)
{
	const struct spills *s = v->s;
	unsigned hide = VT_NO_TEXT | VT_NO_MD;
	struct vcols c = { 0 };
	uint32_t label, mod, func, name, samples, pct, in_log, ld, rk, few, verdict;
	struct vt_table *t;

	label = vcols__add(&c, NULL, "function", VT_TEXT, 0);
	mod = vcols__add(&c, "mod", "mod", VT_COUNT, hide);
	func = vcols__add(&c, "local_func", "local_func", VT_COUNT, hide);
	samples = vcols__add(&c, "samples", "samples", VT_COUNT, hide);
	pct = run_pct_col(&c, 0);
	in_log = vcols__add(&c, "in_log", "in log", VT_BOOL, hide);
	rk = count_col(&c, "spill_rank", "spiller", 0);
	ld = count_col(&c, "spill_ld", "spill_ld", 0);
	few = vcols__add(&c, "few_spills", "few spills", VT_BOOL, hide);
	verdict = vcols__add(&c, NULL, "verdict", VT_TEXT, 0);
	name = vcols__add(&c, "name", "name", VT_TEXT, VT_FLEX);
	if (!(t = *out = vt_table__new(c.c, c.n)))
		return -1;
	for (uint32_t i = 0; i < n; i++) {
		const struct cwasm_func *f = &spills__core(s, h[i].core)->funcs[h[i].func];
		char lbl[64];

		if (vt_table__add_row(t) ||
		    vt_table__strf(t, label, "%s", spills__fn_label(s, s->core_mod[h[i].core],
								    h[i].func, lbl, sizeof(lbl))))
			return -1;
		vt_table__u64(t, mod, s->core_mod[h[i].core]);
		vt_table__u64(t, func, h[i].func);
		vt_table__str(t, name, f->name);
		heat_put(s, t, samples, pct, h[i].samples);
		vt_table__bool(t, in_log, h[i].rec != NULL);
		if (h[i].rec) {
			vt_table__u64(t, ld, h[i].rec->v[SPILL_F_SPILL_LD]);
			vt_table__u64(t, rk, h[i].spill_rank);
		}
		vt_table__bool(t, few, h[i].few_spills);
		vt_table__str(t, verdict, !h[i].rec ? "not in the log"
					  : h[i].few_spills ? "few spills" : "");
	}
	return vt_table__cut(t, NULL);
}

/* "+12.3%" of a change from a to b; "-" without a before */
static void change_words(uint64_t a, uint64_t b, char *buf, size_t len)
{
	if (a)
		snprintf(buf, len, "%+.1f%%", 100.0 * ((double)b - (double)a) / (double)a);
	else
		snprintf(buf, len, "-");
}

static int diff(struct view_spills *v)
{
	const struct spills *s = v->s;
	unsigned hide = VT_NO_TEXT | VT_NO_MD, heat = s->p ? 0 : hide;
	struct vt_cut cut = { .sort_col = -1, .pct_col = -1, .show_col = -1, .top = s->o->top };
	struct vcols c = { 0 };
	uint32_t mod, label, func, name, before, after, delta, pct, only, samples, rpct;
	struct vt_table *t;

	mod = vcols__add(&c, "mod", "mod", VT_COUNT, 0);
	label = vcols__add(&c, NULL, "function", VT_TEXT, 0);
	func = vcols__add(&c, "local_func", "local_func", VT_COUNT, hide);
	before = count_col(&c, "before", "before", 0);
	after = count_col(&c, "after", "after", 0);
	delta = vcols__add(&c, "delta", "delta", VT_INT, VT_SIGNED);
	pct = vcols__add(&c, "percent", "%", VT_PERCENT, VT_SIGNED | VT_PCT);
	vcols__prec(&c, 1, 4);
	c.c[pct].absent = "-";
	only = vcols__add(&c, "only_in", "only in", VT_TEXT, hide);
	samples = count_col(&c, "samples", "samples", heat);
	rpct = run_pct_col(&c, heat);
	name = vcols__add(&c, "name", "name", VT_TEXT, VT_FLEX);
	if (!(t = v->diff = vt_table__new(c.c, c.n)))
		return -1;
	for (uint32_t i = 0; i < s->ndiff; i++) {
		const struct spills_diff *d = &s->diff[i];
		double p = spills__diff_pct(d);

		v->diff_both += d->a && d->b;
		v->diff_only_before += !d->b;
		v->diff_only_after += !d->a;
		if (vt_table__add_row(t) || vt_table__strf(t, label, "local_func_%" PRIu32, d->func))
			return -1;
		vt_table__u64(t, mod, d->mod);
		vt_table__u64(t, func, d->func);
		if (*spills__diff_name(d))
			vt_table__str(t, name, spills__diff_name(d));
		if (d->has_a)
			vt_table__u64(t, before, d->va);
		if (d->has_b)
			vt_table__u64(t, after, d->vb);
		if (d->a && d->b) {
			vt_table__i64(t, delta, (int64_t)(d->vb - d->va));
		} else {
			vt_table__str(t, only, d->a ? "before" : "after");
			vt_table__word(t, delta, d->a ? "only-before" : "only-after");
		}
		if (!isnan(p))
			vt_table__dbl(t, pct, p);
		if (d->samples >= 0)
			heat_put(s, t, samples, rpct, (uint64_t)d->samples);
	}
	v->diff_total_before = spills__field_total(&s->log, s->field);
	v->diff_total_after = spills__field_total(&s->other, spill_log__field(&s->other, s->sort));
	change_words(v->diff_total_before, v->diff_total_after, v->diff_total_change,
		     sizeof(v->diff_total_change));
	return vt_table__cut(t, &cut);
}

/* The hottest function's field before and after (--vs with a recording). */
static void hottest_change(struct view_spills *v)
{
	const struct spills *s = v->s;
	const struct spills_hot *h = &s->hottest;
	const struct spill_rec *b = spill_log__find(&s->other, s->core_mod[h->core], h->func);
	uint64_t va = 0, vb = 0;
	int ha = h->rec && spill_log__get(&s->log, h->rec, s->field, &va);
	int hb = b && spill_log__get(&s->other, b, spill_log__field(&s->other, s->sort), &vb);
	char pct[32];

	change_words(va, vb, pct, sizeof(pct));
	if (ha && hb)
		snprintf(v->hottest_change, sizeof(v->hottest_change), "%" PRIu64 " -> %" PRIu64
			 " (%s)", va, vb, pct);
	else
		snprintf(v->hottest_change, sizeof(v->hottest_change), "%s in %s, %s in %s",
			 ha ? "present" : "absent", s->log.path, hb ? "present" : "absent",
			 s->other.path);
}

/* The listed function's log record (f is one of them, in a core). */
static const struct spill_rec *frames_rec(const struct spills *s, const struct profile_func *f)
{
	for (uint32_t i = 0; i < s->ntop; i++)
		if (s->rec_core[s->order[i]] == (int)f->core &&
		    s->log.recs[s->order[i]].func == f->func)
			return &s->log.recs[s->order[i]];
	return NULL;
}

static int frames(struct view_spills *v, const struct profile *p)
{
	const struct spills *s = v->s;

	if (!(v->frames = calloc(p->nfuncs + 1, sizeof(*v->frames))))
		return -1;
	for (uint32_t i = 0; i < p->nfuncs; i++) {
		struct view_spills_frame *x = &v->frames[v->nframes++];
		const struct profile_func *f = &p->funcs[i];
		const struct attr_core *c = &p->attr.cores[f->core];
		const struct spill_rec *r = frames_rec(s, f);

		spills__fn_label(s, r ? r->mod : 0, f->func, x->label, sizeof(x->label));
		x->f = f;
		x->core = core_set__core_name(c->mod);
		x->addr0 = (c->nmappings ? c->first_base : 0) + c->mod->funcs[f->func].offset;
		x->have_log = r && (r->have >> SPILL_F_SPILL_LD & 1) && (r->have >> SPILL_F_SPILL_ST & 1);
		x->log_ld = r ? r->v[SPILL_F_SPILL_LD] : 0;
		x->log_st = r ? r->v[SPILL_F_SPILL_ST] : 0;
	}
	return 0;
}

int view_spills__new(const struct spills *s, const struct profile *fp, const char *frame_prefix,
		     struct view_spills **out, struct ap_err *err)
{
	struct view_spills *v = calloc(1, sizeof(*v));

	*out = NULL;
	if (!v)
		return ap_err_nomem(err);
	v->s = s;
	v->frame_prefix = frame_prefix;
	if ((fp && frames(v, fp)) ||
	    run(v) || rank(v) || cold(v) || hot_table(v, s->hot, s->nhot, &v->hot) ||
	    hot_table(v, &s->hottest, s->hottest.samples ? 1 : 0, &v->hottest) ||
	    (s->o->vs_path && diff(v))) {
		view_spills__delete(v);
		return ap_err_nomem(err);
	}
	if (s->o->vs_path && s->p && s->hottest.samples)
		hottest_change(v);
	*out = v;
	return 0;
}

void view_spills__delete(struct view_spills *v)
{
	if (!v)
		return;
	vt_table__delete(v->run);
	vt_table__delete(v->rank);
	vt_table__delete(v->cold);
	vt_table__delete(v->hot);
	vt_table__delete(v->hottest);
	vt_table__delete(v->diff);
	free(v->frames);
	free(v);
}
