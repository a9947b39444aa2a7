// SPDX-License-Identifier: MIT
/*
 * The spill analysis (spills.h): modules of the cores, the log checked
 * against them, rankings, the runtime join and its lesson, the static
 * cross-check, the diff of two logs.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "spills.h"
#include "../classify/funcclass.h"
#include "../util/pct.h"

uint64_t spills__total_samples(const struct spills *s)
{
	return s->p ? s->p->attr.total_samples : 0;
}

const char *spills__fn_label(const struct spills *s, uint32_t mod, uint32_t func, char *buf,
			     size_t len)
{
	if (s->multi)
		snprintf(buf, len, "mod%u local_func_%u", mod, func);
	else
		snprintf(buf, len, "local_func_%u", func);
	return buf;
}

const struct cwasm_module *spills__core(const struct spills *s, int core)
{
	return core >= 0 ? s->cs->mods[core] : NULL;
}

static int core_of_mod(const struct spills *s, uint32_t mod)
{
	for (uint32_t i = 0; i < s->cs->n; i++)
		if (s->core_mod[i] == mod)
			return (int)i;
	return -1;
}

/* Which log module each core is: manifest idx, else mods[] in order, else 0. */
static int assign_mods(struct spills *s, struct ap_err *err)
{
	const struct core_set *cs = s->cs;
	uint32_t lone = 0;

	s->core_mod = calloc(cs->n + 1, sizeof(*s->core_mod));
	if (!s->core_mod)
		return ap_err_nomem(err);
	for (uint32_t i = 0; i < cs->n; i++) {
		const struct cwasm_module *m = cs->mods[i];

		if (m->manifest_idx >= 0)
			s->core_mod[i] = (uint32_t)m->manifest_idx;
		else
			s->core_mod[i] = lone < s->o->nmods ? (uint32_t)s->o->mods[lone] : 0;
		lone += m->manifest_idx < 0;
		for (uint32_t j = 0; j < i; j++)
			if (s->core_mod[j] == s->core_mod[i]) {
				ap_errf(err, "%s and %s are both log module %u", cs->mods[j]->path,
					m->path, s->core_mod[i]);
				return ap_err_hint(err, AP_HINT_LOG_MOD);
			}
	}
	if (s->o->nmods > lone) {
		ap_errf(err, "%u log module(s) given for %u lone core(s)", s->o->nmods, lone);
		return ap_err_hint(err, AP_HINT_LOG_MOD);
	}
	return 0;
}

/*
 * Every logged function of a given core must exist in it: a log of another
 * build would join numbers that mean nothing. Differing names only warn
 * (a stripped name section is common).
 */
static int check_log_against_cores(struct spills *s, const struct spill_log *log,
				   int *rec_core, struct ap_err *err)
{
	char a[64];

	for (uint32_t i = 0; i < log->n; i++) {
		const struct spill_rec *r = &log->recs[i];
		int c = core_of_mod(s, r->mod);
		const struct cwasm_module *m = spills__core(s, c);
		const char *cname;

		if (rec_core)
			rec_core[i] = c;
		if (!m)
			continue;
		if (r->func >= m->nfuncs)
			return ap_errf(err, "%s:%u: local_func %u, but %s (log module %u) has %u"
				       " functions: the log is not of this build", log->path,
				       r->line, r->func, m->path, r->mod, m->nfuncs);
		cname = m->funcs[r->func].name;
		if (r->name && cname && strcmp(r->name, cname)) {
			if (!s->name_mismatch++)
				snprintf(s->first_mismatch, sizeof(s->first_mismatch),
					 "%s:%u: %s is '%s' in the log but '%s' in %s", log->path,
					 r->line, spills__fn_label(s, r->mod, r->func, a, sizeof(a)),
					 r->name, cname, m->path);
		}
	}
	return 0;
}

uint64_t spills__rec_samples(const struct spills *s, uint32_t ri)
{
	int c = s->rec_core[ri];

	return (s->p != NULL) && c >= 0 ? s->p->attr.cores[c].func_samples[s->log.recs[ri].func] : 0;
}

int spills__known(const struct spills *s, uint32_t ri)
{
	return (s->p != NULL) && s->rec_core[ri] >= 0;
}

static uint64_t rec_val(const struct spills *s, const struct spill_rec *r, int field)
{
	uint64_t v = 0;

	spill_log__get(&s->log, r, field, &v);
	return v;
}

/* Decode a listed function's code and count its frame-slot reads. */
static int decode_static(struct spills *s, uint32_t ri)
{
	const struct spill_rec *r = &s->log.recs[ri];
	const struct cwasm_module *m = spills__core(s, s->rec_core[ri]);
	struct cls_result res;
	struct ap_err err;

	if (!m || s->static_ld[ri] >= 0)
		return 0;
	if (cls_result__classify(&res, m, r->func, CWASM_ARCH_UNKNOWN, s->o->roles, NULL, 0, 0, &err))
		/* one function the decoder cannot read does not stop the ranking */
		return ap_warnings__add(&s->warnings, AP_HINT_NONE, "%s: local_func_%u: %s", m->path,
					r->func, err.msg);
	/* unattributed frame reads: spill reloads are among them; vmctx reloads,
	 * restores and saves are proven not to be */
	s->static_ld[ri] = res.f.static_count[CLS_FRAME_LOAD];
	cls_result__exit(&res);
	return 0;
}

int spills__cross_check(struct spills *s, struct ap_err *err)
{
	struct cls_roles rx, ra;

	/* a bad roles spec is the user's error, not each function's */
	cls__roles_default(CWASM_ARCH_X86_64, &rx);
	cls__roles_default(CWASM_ARCH_AARCH64, &ra);
	if (s->o->roles && (cls__roles_parse(&rx, s->o->roles, err) ||
			    cls__roles_parse(&ra, s->o->roles, err)))
		return -1;
	for (uint32_t i = 0; i < s->ntop; i++)
		if (decode_static(s, s->order[i]))
			return ap_err_nomem(err);
	for (uint32_t i = 0; i < s->nhot; i++)
		if (s->hot[i].rec && decode_static(s, (uint32_t)(s->hot[i].rec - s->log.recs)))
			return ap_err_nomem(err);
	return 0;
}

static int hot_cmp(const void *x, const void *y)
{
	const struct spills_hot *a = x, *b = y;

	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	if (a->core != b->core)
		return a->core < b->core ? -1 : 1;
	return a->func < b->func ? -1 : a->func > b->func;
}

static void fill_hot(struct spills *s, struct spills_hot *h)
{
	uint64_t top_ld = rec_val(s, &s->log.recs[s->sp_order[0]], s->spill_field);

	h->rec = spill_log__find(&s->log, s->core_mod[h->core], h->func);
	h->spill_rank = h->rec ? s->spill_rank[h->rec - s->log.recs] : 0;
	/* few: outside the heavy spillers and under a tenth of the #1 */
	h->few_spills = !h->rec || (h->spill_rank > s->nheavy &&
				    rec_val(s, h->rec, s->spill_field) * 10 < top_ld);
}

/* The hottest function, and every function at hot_pct% or more (at most top N). */
static int compute_hot(struct spills *s, struct ap_err *err)
{
	const struct attr_result *res = &s->p->attr;
	uint64_t n = 0;
	struct spills_hot *all;

	for (uint32_t c = 0; c < res->ncores; c++)
		for (uint32_t f = 0; f < res->cores[c].mod->nfuncs; f++)
			n += res->cores[c].func_samples[f] != 0;
	all = calloc(n + 1, sizeof(*all));
	if (!all)
		return ap_err_nomem(err);
	n = 0;
	for (uint32_t c = 0; c < res->ncores; c++)
		for (uint32_t f = 0; f < res->cores[c].mod->nfuncs; f++)
			if (res->cores[c].func_samples[f])
				all[n++] = (struct spills_hot){ .core = (int)c, .func = f,
							    .samples = res->cores[c].func_samples[f] };
	qsort(all, n, sizeof(*all), hot_cmp);
	for (uint64_t i = 0; i < n && i < s->ntop; i++) {
		if (ap_pct(all[i].samples, res->total_samples) < s->o->hot_pct)
			break;
		fill_hot(s, &all[i]);
		s->nhot = (uint32_t)i + 1;
	}
	if (n) {
		fill_hot(s, &all[0]);
		s->hottest = all[0];
	}
	s->hot = all;
	return 0;
}

const char *spills__heat(const struct spills *s, uint64_t samples, char *buf, size_t len)
{
	uint64_t total = spills__total_samples(s);

	if (!samples)
		snprintf(buf, len, "0 samples");
	else
		snprintf(buf, len, "%.1f%% of run", ap_pct(samples, total));
	return buf;
}

/*
 * The upstream skill's lesson as one line: where the #1 compile-time spiller and the
 * hottest function stand against each other.
 */
static void make_lesson(struct spills *s)
{
	uint32_t top = s->sp_order[0];
	const struct spill_rec *r = &s->log.recs[top];
	const struct spills_hot *h = &s->hottest;
	char a[64], b[64], ha[96], hb[48], tail[200];
	uint64_t sa = spills__rec_samples(s, top);
	double pa = ap_pct(sa, spills__total_samples(s));

	spills__fn_label(s, r->mod, r->func, a, sizeof(a));
	if (!h->samples) {
		snprintf(s->lesson, sizeof(s->lesson),
			 "no samples landed in the given cores: nothing to join");
		return;
	}
	spills__fn_label(s, s->core_mod[h->core], h->func, b, sizeof(b));
	spills__heat(s, h->samples, hb, sizeof(hb));
	if (h->rec == r) {
		snprintf(s->lesson, sizeof(s->lesson),
			 "the #1 compile-time spiller %s is also the hottest function (%s):"
			 " its spills are the place to start", a, hb);
		return;
	}
	if (!h->rec)
		snprintf(tail, sizeof(tail), "is not in the log (no spills reported):"
			 " the cost is elsewhere");
	else if (h->few_spills)
		snprintf(tail, sizeof(tail), "is spiller #%u with few spills (spill_ld %" PRIu64
			 "): the cost is elsewhere", h->spill_rank, rec_val(s, h->rec, s->spill_field));
	else
		snprintf(tail, sizeof(tail), "is spiller #%u", h->spill_rank);
	if (!spills__known(s, top))
		snprintf(ha, sizeof(ha), "in a module with no core given");
	else if (!sa)
		snprintf(ha, sizeof(ha), "runtime-cold (0 samples)");
	else if (pa < s->o->cold_pct)
		snprintf(ha, sizeof(ha), "runtime-cold (%" PRIu64 " samples, %.2f%% of run)", sa, pa);
	else
		snprintf(ha, sizeof(ha), "at %.1f%% of run", pa);
	snprintf(s->lesson, sizeof(s->lesson), "the #1 compile-time spiller %s is %s;"
		 " the hottest function %s (%s) %s", a, ha, b, hb, tail);
}

static int diff_cmp(const void *x, const void *y, void *ctx)
{
	const struct spills_diff *a = x, *b = y;
	const int *by_heat = ctx;
	uint64_t da = a->va > a->vb ? a->va - a->vb : a->vb - a->va;
	uint64_t db = b->va > b->vb ? b->va - b->vb : b->vb - b->va;

	if (*by_heat && a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	if (da != db)
		return da > db ? -1 : 1;
	if (a->mod != b->mod)
		return a->mod < b->mod ? -1 : 1;
	return a->func < b->func ? -1 : a->func > b->func;
}

static int64_t key_samples(const struct spills *s, uint32_t mod, uint32_t func)
{
	int c = core_of_mod(s, mod);

	if (!(s->p != NULL) || c < 0)
		return -1;
	return (int64_t)s->p->attr.cores[c].func_samples[func];
}

/* Both logs merged on (mod, func): a value absent from one side counts as 0. */
int spills__diff(struct spills *s, struct ap_err *err)
{
	const struct spill_log *A = &s->log, *B = &s->other;
	int fb = spill_log__field(B, s->sort), by_heat = (s->p != NULL);
	uint32_t i = 0, j = 0;

	s->diff = calloc((size_t)A->n + B->n + 1, sizeof(*s->diff));
	if (!s->diff)
		return ap_err_nomem(err);
	while (i < A->n || j < B->n) {
		const struct spill_rec *a = i < A->n ? &A->recs[A->by_key[i]] : NULL;
		const struct spill_rec *b = j < B->n ? &B->recs[B->by_key[j]] : NULL;
		struct spills_diff *d = &s->diff[s->ndiff++];
		int c = !a ? 1 : !b ? -1 : a->mod != b->mod ? (a->mod < b->mod ? -1 : 1)
			: a->func != b->func ? (a->func < b->func ? -1 : 1) : 0;

		d->a = c <= 0 ? a : NULL;
		d->b = c >= 0 ? b : NULL;
		i += c <= 0;
		j += c >= 0;
		d->mod = d->a ? d->a->mod : d->b->mod;
		d->func = d->a ? d->a->func : d->b->func;
		d->has_a = d->a && spill_log__get(A, d->a, s->field, &d->va);
		d->has_b = d->b && spill_log__get(B, d->b, fb, &d->vb);
		d->samples = key_samples(s, d->mod, d->func);
	}
	qsort_r(s->diff, s->ndiff, sizeof(*s->diff), diff_cmp, &by_heat);
	return 0;
}

const char *spills__diff_name(const struct spills_diff *d)
{
	return d->a && d->a->name ? d->a->name : d->b && d->b->name ? d->b->name : "";
}

double spills__diff_pct(const struct spills_diff *d)
{
	if (!d->has_a || !d->has_b || !d->va)
		return NAN;
	return 100.0 * ((double)d->vb - (double)d->va) / (double)d->va;
}

const char *spills__note(const struct spills *s, uint32_t ri)
{
	uint64_t n = spills__rec_samples(s, ri);
	double p = ap_pct(n, spills__total_samples(s));

	if (!spills__known(s, ri))
		return "";
	if (!n)
		return "never-run";
	if (p < s->o->cold_pct)
		return "barely-run";
	return p >= s->o->hot_pct ? "hot" : "";
}

uint64_t spills__field_total(const struct spill_log *log, int field)
{
	uint64_t t = 0, v;

	for (uint32_t i = 0; i < log->n; i++)
		if (spill_log__get(log, &log->recs[i], field, &v))
			t += v;
	return t;
}

void spills__exit(struct spills *s)
{
	spill_log__exit(&s->log);
	spill_log__exit(&s->other);
	free(s->order);
	free(s->sp_order);
	free(s->spill_rank);
	free(s->core_mod);
	free(s->rec_core);
	free(s->static_ld);
	free(s->hot);
	free(s->diff);
	ap_warnings__exit(&s->warnings);
}

int spills__prepare(struct spills *s, const struct spills_opts *o, const struct core_set *cs,
		    struct ap_err *err)
{
	int *other_core = NULL, ret;

	memset(s, 0, sizeof(*s));
	s->o = o;
	s->cs = cs;
	s->sort = o->sort ? o->sort : "spill_ld";
	if (spill_log__read(&s->log, o->log_path, o->lenient, err))
		return -1;
	if (o->vs_path && spill_log__read(&s->other, o->vs_path, o->lenient, err))
		return -1;
	s->field = spill_log__field(&s->log, s->sort);
	s->spill_field = SPILL_F_SPILL_LD;
	if (s->field < 0)
		return ap_errf(err, "%s has no numeric field '%s' to sort by", s->log.path, s->sort);
	if (assign_mods(s, err))
		return -1;
	s->rec_core = calloc(s->log.n + 1, sizeof(*s->rec_core));
	s->static_ld = malloc((s->log.n + 1) * sizeof(*s->static_ld));
	s->spill_rank = calloc(s->log.n + 1, sizeof(*s->spill_rank));
	s->order = spill_log__rank(&s->log, s->field);
	s->sp_order = spill_log__rank(&s->log, s->spill_field);
	if (o->vs_path)
		other_core = calloc(s->other.n + 1, sizeof(*other_core));
	if (!s->rec_core || !s->static_ld || !s->spill_rank || !s->order || !s->sp_order ||
	    (o->vs_path && !other_core)) {
		free(other_core);
		return ap_err_nomem(err);
	}
	for (uint32_t i = 0; i < s->log.n; i++) {
		s->static_ld[i] = -1;
		s->spill_rank[s->sp_order[i]] = i + 1;
		s->multi |= s->log.recs[i].mod != 0;
	}
	s->multi |= s->cs->n > 1;
	s->ntop = o->top && o->top < s->log.n ? (uint32_t)o->top : s->log.n;
	s->nheavy = o->heavy && o->heavy < s->log.n ? (uint32_t)o->heavy : s->log.n;
	ret = check_log_against_cores(s, &s->log, s->rec_core, err);
	if (!ret && s->cs->n) {
		uint32_t i = 0;

		while (i < s->log.n && s->rec_core[i] < 0)
			i++;
		s->no_core_match = i == s->log.n;
		if (s->no_core_match &&
		    ap_warnings__add(&s->warnings, AP_HINT_LOG_MOD,
				     "no function of %s is in the given cores (its first is mod %u)",
				     s->log.path, s->log.recs[0].mod))
			ret = ap_err_nomem(err);
	}
	if (!ret && o->vs_path)
		ret = check_log_against_cores(s, &s->other, other_core, err);
	free(other_core);
	return ret;
}

int spills__join(struct spills *s, const struct profile *p, struct ap_err *err)
{
	s->p = p;
	if (compute_hot(s, err))
		return -1;
	make_lesson(s);
	return 0;
}
