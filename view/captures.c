// SPDX-License-Identifier: MIT
/* Several recordings of one build, as a view (captures.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "captures.h"
#include "internal.h"
#include "../cwasm/coreset.h"
#include "../profile/profile.h"
#include "../util/pct.h"

/* perf, total_samples, attributed_samples (its share in text), how much was read */
enum { R_PERF, R_TOTAL, R_ATTR, R_PCT, R_TRUNC, R_READ, R_EXPECTED, R_AUTH };

static struct vt_table *recordings_table(int attributed, int reads)
{
	struct vcols s = { .n = 0 };
	unsigned json_only = VT_NO_TEXT | VT_NO_MD;

	vcols__add(&s, "perf", NULL, VT_TEXT, 0);
	vcols__add(&s, "total_samples", NULL, VT_COUNT, 0);
	vcols__add(&s, attributed ? "attributed_samples" : NULL, NULL, VT_COUNT, json_only);
	vcols__add(&s, NULL, NULL, VT_PERCENT, 0);
	vcols__add(&s, reads ? "truncated" : NULL, NULL, VT_BOOL, json_only);
	vcols__add(&s, reads ? "bytes_read" : NULL, NULL, VT_COUNT, json_only);
	vcols__add(&s, reads ? "bytes_expected" : NULL, NULL, VT_COUNT, json_only);
	vcols__add(&s, reads ? "authoritative" : NULL, NULL, VT_BOOL, json_only);
	return vt_table__new(s.c, s.n);
}

static int recordings(struct view_captures *v)
{
	const struct view_captures_input *in = &v->in;
	const struct cmp_side *s = in->side;
	struct vt_table *t = v->recordings = recordings_table(in->attributed != NULL,
							      in->reads != NULL);

	v->cut_words = calloc(s->ncaptures ? s->ncaptures : 1, sizeof(*v->cut_words));
	if (!t || !v->cut_words)
		return -1;
	for (uint32_t k = 0; k < s->ncaptures; k++) {
		const struct view_read *rd = in->reads ? &in->reads[k] : NULL;

		if (vt_table__add_row(t))
			return -1;
		vt_table__str(t, R_PERF, s->captures[k].label);
		vt_table__u64(t, R_TOTAL, s->captures[k].total);
		if (in->attributed) {
			vt_table__u64(t, R_ATTR, in->attributed[k]);
			vt_table__dbl(t, R_PCT, ap_pct(in->attributed[k], s->captures[k].total));
		}
		if (!rd)
			continue;
		vt_table__bool(t, R_TRUNC, rd->truncated);
		vt_table__u64(t, R_READ, rd->bytes_read);
		vt_table__u64(t, R_EXPECTED, rd->bytes_expected);
		vt_table__bool(t, R_AUTH, rd->authoritative);
		if (rd->truncated)
			profile__cut_words(rd->bytes_read, rd->bytes_expected, v->cut_words[k],
					   sizeof(v->cut_words[k]));
	}
	return 0;
}

/*
 * A core's functions: rank, function (text: 4, two spaces, 16), the
 * JSON's keys, the share's mean, sd, min, max (6 each), samples (9), the
 * wasm name in 15 columns; inclusive (JSON, with call graphs).
 */
enum { F_RANK, F_FUNC, F_LOCAL, F_WASM, F_NAME_JSON, F_BYTES, F_MEAN, F_SD, F_MIN, F_MAX,
       F_SAMPLES, F_NAME, F_INCL };

static const char *const share_keys[] = { "mean_percent_of_run", "sd", "min", "max" };
static const char *const share_heads[] = { "mean%", "sd", "min", "max" };

static struct vt_table *funcs_table(int incl)
{
	struct vcols s = { .n = 0 };
	unsigned json_only = VT_NO_TEXT | VT_NO_MD;

	vcols__add(&s, NULL, "rank", VT_COUNT, 0);
	s.c[F_RANK].width = 4;
	vcols__add(&s, NULL, "function", VT_TEXT, 0);
	s.c[F_FUNC].width = 16;
	s.c[F_FUNC].gap = 2;
	vcols__add(&s, "local_func", NULL, VT_COUNT, json_only);
	vcols__add(&s, "wasm_func", NULL, VT_COUNT, json_only);
	vcols__add(&s, "name", NULL, VT_TEXT, json_only);
	vcols__add(&s, "code_bytes", NULL, VT_COUNT, json_only);
	for (int k = 0; k < 4; k++) {
		vcols__add(&s, share_keys[k], share_heads[k], VT_PERCENT, 0);
		s.c[s.n - 1].width = 6;
	}
	vcols__add(&s, "samples", "samples", VT_COUNT, 0);
	s.c[F_SAMPLES].width = 9;
	vcols__add(&s, NULL, "wasm name", VT_TEXT, VT_FLEX);
	s.c[F_NAME].gap = 2;
	s.c[F_NAME].max_chars = 15;
	if (incl) {
		vcols__add(&s, "samples", NULL, VT_COUNT, json_only);
		for (int k = 0; k < 4; k++)
			vcols__add(&s, share_keys[k], NULL, VT_PERCENT, json_only);
		for (uint32_t c = F_INCL; c < s.n; c++)
			s.c[c].prefix = "inclusive";
	}
	return vt_table__new(s.c, s.n);
}

static void share_put(struct vt_table *t, uint32_t at, const struct cmp_share *sh)
{
	vt_table__dbl(t, at, sh->mean);
	vt_table__dbl(t, at + 1, sh->sd);
	vt_table__dbl(t, at + 2, sh->min);
	vt_table__dbl(t, at + 3, sh->max);
}

static int core_funcs(struct view_captures *v, struct view_captures_core *vc)
{
	const struct cmp_agg_core *ac = vc->ac;
	const struct cwasm_module *m = ac->mod;
	struct vt_cut cut = { .sort_col = -1, .pct_col = -1, .show_col = -1, .top = v->in.top };
	struct vt_table *t = vc->funcs = funcs_table(ac->incl != NULL);

	for (uint32_t i = 0; t && i < ac->nranked; i++) {
		uint32_t f = ac->rank[i];

		if (vt_table__add_row(t) || vt_table__strf(t, F_FUNC, "local_func_%u", f))
			return -1;
		vt_table__u64(t, F_RANK, i + 1);
		vt_table__u64(t, F_LOCAL, f);
		vt_table__u64(t, F_WASM, cwasm__wasm_index(m, f));
		vt_table__str(t, F_NAME_JSON, m->funcs[f].name);
		vt_table__u64(t, F_BYTES, m->funcs[f].size);
		share_put(t, F_MEAN, &ac->self[f]);
		vt_table__u64(t, F_SAMPLES, ac->self[f].samples);
		vt_table__str(t, F_NAME, m->funcs[f].name ? m->funcs[f].name : "");
		if (ac->incl) {
			vt_table__u64(t, F_INCL, ac->incl[f].samples);
			share_put(t, F_INCL + 1, &ac->incl[f]);
		}
	}
	if (!t || vt_table__cut(t, &cut))
		return -1;
	vc->more = ac->nranked - vt_table__shown(t);
	return 0;
}

int view_captures__new(const struct view_captures_input *in, struct view_captures **out,
		       struct ap_err *err)
{
	struct view_captures *v = calloc(1, sizeof(*v));
	int bad;

	*out = NULL;
	if (!v)
		return ap_err_nomem(err);
	v->in = *in;
	v->cores = calloc(in->agg->ncores ? in->agg->ncores : 1, sizeof(*v->cores));
	v->funcs = calloc(in->nfuncs ? in->nfuncs : 1, sizeof(*v->funcs));
	bad = !v->cores || !v->funcs || recordings(v);
	for (uint32_t c = 0; !bad && c < in->agg->ncores; c++) {
		v->cores[c].ac = &in->agg->cores[c];
		bad = core_funcs(v, &v->cores[c]);
	}
	if (bad) {
		view_captures__delete(v);
		return ap_err_nomem(err);
	}
	for (uint32_t i = 0; i < in->nfuncs; i++) {
		const struct view_captures_func_in *f = &in->funcs[i];
		const char *nm = in->side->mods[f->core]->funcs[f->func].name;

		v->funcs[i].in = f;
		v->funcs[i].name = nm && *nm ? nm : NULL;
		v->funcs[i].pct = ap_pct(f->samples, in->agg->wasm.total);
		if (view_classes__init(&v->funcs[i].cls, f->t, in->agg->wasm.total, 0, err)) {
			view_captures__delete(v);
			return -1;
		}
	}
	*out = v;
	return 0;
}

void view_captures__delete(struct view_captures *v)
{
	if (!v)
		return;
	vt_table__delete(v->recordings);
	free(v->cut_words);
	for (uint32_t c = 0; v->cores && c < v->in.agg->ncores; c++)
		vt_table__delete(v->cores[c].funcs);
	for (uint32_t i = 0; v->funcs && i < v->in.nfuncs; i++)
		view_classes__exit(&v->funcs[i].cls);
	free(v->cores);
	free(v->funcs);
	free(v);
}
