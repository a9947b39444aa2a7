// SPDX-License-Identifier: MIT
/*
 * Each side of the diff's view (diff.h): its recordings (samples, CPU
 * time, cut short or whole) and its cores against them (the consistency
 * check of attr/consistency.h, summed over the recordings), and the
 * first problem in words for the gate and --require-consistent.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "internal.h"
#include "../cwasm/coreset.h"

static void add_cons(struct attr_consistency *sum, const struct attr_consistency *c)
{
	if (!c->computed)
		return;
	sum->computed = 1;
	sum->checked += c->checked;
	sum->consistent += c->consistent;
	sum->mid_instruction += c->mid_instruction;
	sum->in_data += c->in_data;
	sum->in_padding += c->in_padding;
	sum->in_trap += c->in_trap;
	sum->returns += c->returns;
	sum->bad_return += c->bad_return;
}

/* consistency.* columns, report's keys (render/consistency.c) */
struct cons_cols {
	uint32_t checked, consistent, pct, mid, data, pad, trap, rets, badret, thr, ok;
};

static void cons_cols(struct vcols *s, struct cons_cols *c)
{
	unsigned h = VT_NO_TEXT | VT_NO_MD;

	c->checked = vcols__add(s, "consistency.checked", "checked", VT_COUNT, h);
	c->consistent = vcols__add(s, "consistency.consistent", "fit", VT_COUNT, h);
	c->pct = vcols__add(s, "consistency.percent", "fit%", VT_PERCENT, VT_NO_TEXT);
	s->c[c->pct].md_head = "addresses that fit the code %";
	c->mid = vcols__add(s, "consistency.mid_instruction", "mid", VT_COUNT, h);
	c->data = vcols__add(s, "consistency.in_data", "data", VT_COUNT, h);
	c->pad = vcols__add(s, "consistency.in_padding", "padding", VT_COUNT, h);
	c->trap = vcols__add(s, "consistency.in_trap", "trap", VT_COUNT, h);
	c->rets = vcols__add(s, "consistency.returns", "returns", VT_COUNT, h);
	c->badret = vcols__add(s, "consistency.bad_return", "bad returns", VT_COUNT, h);
	c->thr = vcols__add(s, "consistency.threshold_pct", "need%", VT_PERCENT, h);
	vcols__prec(s, -1, 1);
	c->ok = vcols__add(s, "consistency.ok", "consistent", VT_BOOL, VT_NO_TEXT);
}

static void cons_put(struct vt_table *t, const struct cons_cols *c,
		     const struct attr_consistency *cs)
{
	if (!cs->computed)
		return;
	vt_table__u64(t, c->checked, cs->checked);
	vt_table__u64(t, c->consistent, cs->consistent);
	vt_table__dbl(t, c->pct, attr_consistency__pct(cs));
	vt_table__u64(t, c->mid, cs->mid_instruction);
	vt_table__u64(t, c->data, cs->in_data);
	vt_table__u64(t, c->pad, cs->in_padding);
	vt_table__u64(t, c->trap, cs->in_trap);
	vt_table__u64(t, c->rets, cs->returns);
	vt_table__u64(t, c->badret, cs->bad_return);
	vt_table__dbl(t, c->thr, ATTR_CONSISTENT_MIN_PCT);
	vt_table__bool(t, c->ok, attr_consistency__ok(cs));
}

/* a side's cores: name, file, its recordings' addresses checked against it */
static int cores(struct view_diff_side *sd)
{
	const struct cmp_side *cs = sd->cs;
	struct vcols s = { 0 };
	struct cons_cols cc;
	uint32_t name, file, nf, nimp;

	name = vcols__add(&s, "core", "core", VT_TEXT, VT_FLEX);
	file = vcols__add(&s, "cwasm", "file", VT_TEXT, VT_NO_TEXT | VT_CODE);
	nf = vcols__add(&s, "function_count", "functions", VT_COUNT, VT_NO_TEXT);
	nimp = vcols__add(&s, "import_function_count", "imports", VT_COUNT, VT_NO_TEXT | VT_NO_MD);
	cons_cols(&s, &cc);
	if (!(sd->cores = vt_table__new(s.c, s.n)))
		return -1;
	for (uint32_t c = 0; c < cs->ncores; c++) {
		struct attr_consistency sum = { 0 };

		if (vt_table__add_row(sd->cores))
			return -1;
		vt_table__str(sd->cores, name, core_set__core_name(cs->mods[c]));
		vt_table__str(sd->cores, file, cs->mods[c]->path);
		vt_table__u64(sd->cores, nf, cs->mods[c]->nfuncs);
		vt_table__u64(sd->cores, nimp, cs->mods[c]->import_func_count);
		for (uint32_t k = 0; sd->recs && k < cs->ncaptures; k++)
			if (sd->recs[k].cons)
				add_cons(&sum, &sd->recs[k].cons[c]);
		cons_put(sd->cores, &cc, &sum);
	}
	return vt_table__cut(sd->cores, NULL);
}

/* the first problem of a side, in words: a cut recording, a core its samples do not fit */
static void problem(struct view_diff_side *sd, const struct view_diff_rec *r, uint32_t core)
{
	char why[640];

	if (sd->problem[0])
		return;
	if (r->truncated) {
		snprintf(sd->problem, sizeof(sd->problem), "%s: cut short: read %" PRIu64 " of %"
			 PRIu64 " data bytes: its samples and times are not the whole run",
			 r->path, r->bytes_read, r->bytes_expected);
		return;
	}
	attr_consistency__describe(&r->cons[core], sd->cs->mods[core]->path, why, sizeof(why));
	snprintf(sd->problem, sizeof(sd->problem), "%s: %s", r->path, why);
}

static int recordings(struct view_diff *v, struct view_diff_side *sd)
{
	const struct cmp_side *cs = sd->cs;
	struct vcols s = { 0 };
	uint32_t path, samples, time, trunc, bread, bexp, ok, note;

	path = vcols__add(&s, "perf", "recording", VT_TEXT, VT_FLEX | VT_TAIL | VT_CODE);
	s.c[path].max_chars = 58;
	samples = vcols__add(&s, "total_samples", "samples", VT_COUNT, 0);
	time = vcols__add(&s, "time", v->ms_word, VT_NS, v->time ? 0 : VT_NO_TEXT | VT_NO_MD);
	vcols__prec(&s, 1, -1);
	trunc = vcols__add(&s, "truncated", "cut short", VT_BOOL, VT_NO_TEXT);
	bread = vcols__add(&s, "bytes_read", "read", VT_COUNT, VT_NO_TEXT | VT_NO_MD);
	bexp = vcols__add(&s, "bytes_expected", "of", VT_COUNT, VT_NO_TEXT | VT_NO_MD);
	ok = vcols__add(&s, "consistent", "fits its cores", VT_BOOL, VT_NO_TEXT);
	note = vcols__add(&s, NULL, "", VT_TEXT, VT_NO_MD);
	if (!(sd->recordings = vt_table__new(s.c, s.n)))
		return -1;
	sd->consistent = 1;
	for (uint32_t k = 0; k < cs->ncaptures; k++) {
		const struct cmp_capture *c = &cs->captures[k];
		const struct view_diff_rec *r = sd->recs ? &sd->recs[k] : NULL;
		int fits = 1;

		if (vt_table__add_row(sd->recordings))
			return -1;
		vt_table__str(sd->recordings, path, c->label);
		vt_table__u64(sd->recordings, samples, c->total);
		if (v->time)
			vt_table__dbl(sd->recordings, time, (double)c->total_period);
		if (!r)
			continue;
		vt_table__bool(sd->recordings, trunc, r->truncated);
		if (r->truncated) {
			vt_table__u64(sd->recordings, bread, r->bytes_read);
			vt_table__u64(sd->recordings, bexp, r->bytes_expected);
			sd->truncated = 1;
			problem(sd, r, 0);
		}
		for (uint32_t m = 0; r->cons && m < cs->ncores; m++)
			if (!attr_consistency__ok(&r->cons[m])) {
				fits = 0;
				problem(sd, r, m);
			}
		sd->consistent &= fits;
		vt_table__bool(sd->recordings, ok, fits);
		vt_table__str(sd->recordings, note, r->truncated ? "CUT SHORT"
					       : fits ? "" : "NOT consistent with its core");
	}
	return vt_table__cut(sd->recordings, NULL);
}

int view_diff__sides(struct view_diff *v)
{
	for (int k = 0; k < 2; k++) {
		struct view_diff_side *sd = &v->side[k];

		sd->word = k ? "after" : "before";
		sd->cs = v->in.side[k];
		sd->recs = v->in.recs[k];
		if (recordings(v, sd) || cores(sd))
			return -1;
	}
	return 0;
}

int view_diff__require_whole(const struct view_diff *v, struct ap_err *err)
{
	for (int k = 0; k < 2; k++)
		if (v->side[k].problem[0])
			return ap_errk(err, AP_ERR_GATE, "%s", v->side[k].problem);
	return 0;
}
