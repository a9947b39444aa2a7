// SPDX-License-Identifier: MIT
/*
 * The diff of two sides: cores paired, functions matched by wasm index,
 * each share's change tested, the family adjusted, sorted by the size of
 * the change (compare/diff.h, docs/compare.md).
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

struct build {
	struct cmp_diff *d;
	size_t cap_funcs, cap_moves, cap_warn;
};

static int warn(struct build *bd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int warn(struct build *bd, const char *fmt, ...)
{
	struct cmp_diff *d = bd->d;
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	if (cmp__grow((void **)&d->warnings, &bd->cap_warn, d->nwarnings + 1,
		      sizeof(*d->warnings)) < 0) {
		free(s);
		return -1;
	}
	d->warnings[d->nwarnings++] = s;
	return 0;
}

/* one side's share of function f of a core (zero when the side lacks it) */
static void side_share(const struct cmp_agg *ag, int core, int64_t f, int incl,
		       struct cmp_share *s)
{
	const struct cmp_agg_core *c = core >= 0 ? &ag->cores[core] : NULL;

	if (!c || f < 0 || (incl && !c->incl)) {
		cmp__zero_share(s, ag->ncaptures, ag->wasm.total);
		return;
	}
	*s = incl ? c->incl[f] : c->self[f];
}

static void metric(const struct cmp_diff *d, const struct cmp_pair *p, struct cmp_func *f,
		   int incl, struct cmp_metric *m)
{
	memset(m, 0, sizeof(*m));
	m->valid = !incl || (d->before->has_incl && d->after->has_incl);
	if (!m->valid)
		return;
	side_share(d->before, p->before, f->local_before, incl, &m->before);
	side_share(d->after, p->after, f->local_after, incl, &m->after);
	if (f->local_before >= 0 && f->local_after >= 0)
		cmp__change(&m->before, &m->after, d->level, &m->ch);
	else
		cmp__change_untested(&m->before, &m->after, &m->ch);
}

/* one side's time of function f of a core (zero when the side lacks it) */
static void side_time(const struct cmp_agg *ag, int core, int64_t f, int incl,
		      struct cmp_time *t)
{
	const struct cmp_agg_core *c = core >= 0 ? &ag->cores[core] : NULL;
	const struct cmp_time *v = c ? (incl ? c->incl_time : c->self_time) : NULL;

	if (!v || f < 0) {
		cmp__zero_time(t, ag->ncaptures);
		return;
	}
	*t = v[f];
}

static int agg_has_time(const struct cmp_agg *ag, int incl)
{
	return incl ? ag->has_time && ag->ncores && ag->cores[0].incl_time : ag->has_time;
}

static void tmetric(const struct cmp_diff *d, const struct cmp_pair *p, struct cmp_func *f,
		    int incl, struct cmp_tmetric *m)
{
	memset(m, 0, sizeof(*m));
	m->valid = agg_has_time(d->before, incl) && agg_has_time(d->after, incl);
	if (!m->valid)
		return;
	side_time(d->before, p->before, f->local_before, incl, &m->before);
	side_time(d->after, p->after, f->local_after, incl, &m->after);
	if (f->local_before >= 0 && f->local_after >= 0)
		cmp__change_time(&m->before, &m->after, d->level, &m->ch);
	else
		cmp__change_time_untested(&m->before, &m->after, &m->ch);
}

static int has_samples(const struct cmp_agg *ag, int core, int64_t f)
{
	const struct cmp_agg_core *c;

	if (core < 0 || f < 0)
		return 0;
	c = &ag->cores[core];
	return c->self[f].samples > 0 || (c->incl && c->incl[f].samples > 0);
}

static const struct cwasm_module *mod_of(const struct cmp_agg *ag, int core)
{
	return core >= 0 ? ag->cores[core].mod : NULL;
}

static int add_func(struct build *bd, uint32_t pair, uint32_t wasm, int64_t lb, int64_t la)
{
	struct cmp_diff *d = bd->d;
	const struct cmp_pair *p = &d->pairs[pair];
	const struct cwasm_module *mb = mod_of(d->before, p->before);
	const struct cwasm_module *ma = mod_of(d->after, p->after);
	struct cmp_func *f;

	if (cmp__grow((void **)&d->funcs, &bd->cap_funcs, d->nfuncs + 1, sizeof(*d->funcs)) < 0)
		return -1;
	f = &d->funcs[d->nfuncs++];
	memset(f, 0, sizeof(*f));
	f->pair = pair;
	f->wasm_index = wasm;
	f->local_before = lb;
	f->local_after = la;
	if (lb >= 0) {
		f->name_before = mb->funcs[lb].name;
		f->size_before = mb->funcs[lb].size;
	}
	if (la >= 0) {
		f->name_after = ma->funcs[la].name;
		f->size_after = ma->funcs[la].size;
	}
	if (lb >= 0 && la >= 0)
		f->status = f->name_before && f->name_after &&
			    strcmp(f->name_before, f->name_after) ? CMP_RENAMED : CMP_MATCHED;
	else
		f->status = lb >= 0 ? CMP_REMOVED : CMP_ADDED;
	metric(d, p, f, 0, &f->self);
	metric(d, p, f, 1, &f->incl);
	tmetric(d, p, f, 0, &f->self_time);
	tmetric(d, p, f, 1, &f->incl_time);
	return 0;
}

static int64_t local_of(const struct cwasm_module *m, uint32_t wasm)
{
	if (!m || wasm < m->import_func_count || wasm - m->import_func_count >= m->nfuncs)
		return -1;
	return wasm - m->import_func_count;
}

/* both cores there: walk the union of their wasm index ranges */
static int match_pair(struct build *bd, uint32_t pi)
{
	struct cmp_diff *d = bd->d;
	struct cmp_pair *p = &d->pairs[pi];
	const struct cwasm_module *mb = mod_of(d->before, p->before);
	const struct cwasm_module *ma = mod_of(d->after, p->after);
	uint64_t lo = mb->import_func_count < ma->import_func_count ? mb->import_func_count
								     : ma->import_func_count;
	uint64_t eb = (uint64_t)mb->import_func_count + mb->nfuncs;
	uint64_t ea = (uint64_t)ma->import_func_count + ma->nfuncs;
	uint64_t hi = eb > ea ? eb : ea;
	uint32_t first_move = d->nmoves;

	for (uint64_t w = lo; w < hi; w++) {
		int64_t lb = local_of(mb, (uint32_t)w), la = local_of(ma, (uint32_t)w);
		int renamed;

		if (lb < 0 && la < 0)
			continue;
		if (lb >= 0 && la >= 0)
			p->nmatched++;
		else if (lb >= 0)
			p->nremoved++;
		else
			p->nadded++;
		renamed = lb >= 0 && la >= 0 && mb->funcs[lb].name && ma->funcs[la].name &&
			  strcmp(mb->funcs[lb].name, ma->funcs[la].name);
		if (lb < 0 || la < 0 || renamed || has_samples(d->before, p->before, lb) ||
		    has_samples(d->after, p->after, la))
			if (add_func(bd, pi, (uint32_t)w, lb, la) < 0)
				return -1;
	}
	if (cmp__find_moves(pi, mb, ma, &d->moves, &d->nmoves, &bd->cap_moves) < 0)
		return -1;
	if (d->nmoves > first_move) {
		const struct cmp_move *m = &d->moves[first_move];

		if (warn(bd, "%s: %" PRIu32 " names are at other wasm indices (%s: %" PRIu32
			 " -> %" PRIu32 "); functions are matched by index: are both builds of "
			 "one wasm?", cmp__core_label(mb), d->nmoves - first_move, m->name,
			 m->wasm_before, m->wasm_after) < 0)
			return -1;
	}
	return 0;
}

/* a core one side lacks: its functions with samples, added or removed */
static int lone_pair(struct build *bd, uint32_t pi)
{
	struct cmp_diff *d = bd->d;
	struct cmp_pair *p = &d->pairs[pi];
	int after = p->before < 0;
	const struct cmp_agg *ag = after ? d->after : d->before;
	int core = after ? p->after : p->before;
	const struct cwasm_module *m = mod_of(ag, core);

	if (after)
		p->nadded = m->nfuncs;
	else
		p->nremoved = m->nfuncs;
	for (uint32_t f = 0; f < m->nfuncs; f++) {
		if (!has_samples(ag, core, f))
			continue;
		if (add_func(bd, pi, cwasm__wasm_index(m, f), after ? -1 : (int64_t)f,
			     after ? (int64_t)f : -1) < 0)
			return -1;
	}
	return warn(bd, "%s: a core only the %s build has", cmp__core_label(m),
		    after ? "after" : "before");
}

static void pair_metric(const struct cmp_diff *d, struct cmp_pair *p)
{
	struct cmp_metric *m = &p->core;

	m->valid = 1;
	if (p->before >= 0)
		m->before = d->before->cores[p->before].core;
	else
		cmp__zero_share(&m->before, d->before->ncaptures, d->before->wasm.total);
	if (p->after >= 0)
		m->after = d->after->cores[p->after].core;
	else
		cmp__zero_share(&m->after, d->after->ncaptures, d->after->wasm.total);
	if (p->before >= 0 && p->after >= 0)
		cmp__change(&m->before, &m->after, d->level, &m->ch);
	else
		cmp__change_untested(&m->before, &m->after, &m->ch);
	if (!d->has_time)
		return;
	p->core_time.valid = 1;
	if (p->before >= 0)
		p->core_time.before = d->before->cores[p->before].core_time;
	else
		cmp__zero_time(&p->core_time.before, d->before->ncaptures);
	if (p->after >= 0)
		p->core_time.after = d->after->cores[p->after].core_time;
	else
		cmp__zero_time(&p->core_time.after, d->after->ncaptures);
	if (p->before >= 0 && p->after >= 0)
		cmp__change_time(&p->core_time.before, &p->core_time.after, d->level,
				 &p->core_time.ch);
	else
		cmp__change_time_untested(&p->core_time.before, &p->core_time.after,
					  &p->core_time.ch);
}

/* the change of metric `which` of function f, or NULL when it has no data */
static struct cmp_change *family_change(struct cmp_func *f, int which)
{
	struct cmp_metric *m = which == 0 ? &f->self : which == 1 ? &f->incl : NULL;
	struct cmp_tmetric *t = which == 2 ? &f->self_time : which == 3 ? &f->incl_time : NULL;

	if (m)
		return m->valid ? &m->ch : NULL;
	return t->valid ? &t->ch : NULL;
}

/*
 * The tested changes of one metric (0 self share, 1 inclusive share, 2 self
 * time, 3 inclusive time), adjusted as a family.
 */
static int adjust_family(struct cmp_diff *d, int which, uint32_t *ntested)
{
	struct cmp_change **v = malloc((d->nfuncs ? d->nfuncs : 1) * sizeof(*v));
	size_t m = 0;
	int rc;

	if (!v)
		return -1;
	for (uint32_t i = 0; i < d->nfuncs; i++) {
		struct cmp_change *ch = family_change(&d->funcs[i], which);

		if (ch && ch->test != CMP_TEST_NONE)
			v[m++] = ch;
	}
	*ntested = (uint32_t)m;
	rc = cmp__adjust(v, m, d->adjust, d->level);
	free(v);
	return rc;
}

static int cmp_change_size(const void *x, const void *y)
{
	const struct cmp_func *a = x, *b = y;
	double da = fabs(a->self.ch.delta), db = fabs(b->self.ch.delta);

	if (da != db)
		return da > db ? -1 : 1;
	if (a->pair != b->pair)
		return a->pair < b->pair ? -1 : 1;
	return a->wasm_index < b->wasm_index ? -1 : a->wasm_index > b->wasm_index;
}

struct key_idx {
	uint32_t pair, wasm, idx;
};

static int cmp_key(const void *x, const void *y)
{
	const struct key_idx *a = x, *b = y;

	if (a->pair != b->pair)
		return a->pair < b->pair ? -1 : 1;
	return a->wasm < b->wasm ? -1 : a->wasm > b->wasm;
}

/* indices of funcs with status st, in (pair, wasm index) order */
static int list_status(const struct cmp_diff *d, enum cmp_status st, uint32_t **out,
		       uint32_t *n)
{
	struct key_idx *k = malloc((d->nfuncs ? d->nfuncs : 1) * sizeof(*k));
	uint32_t m = 0;

	*out = NULL;
	*n = 0;
	if (!k)
		return -1;
	for (uint32_t i = 0; i < d->nfuncs; i++)
		if (d->funcs[i].status == st)
			k[m++] = (struct key_idx){ d->funcs[i].pair, d->funcs[i].wasm_index, i };
	if (m)
		qsort(k, m, sizeof(*k), cmp_key);
	*out = malloc((m ? m : 1) * sizeof(**out));
	if (!*out) {
		free(k);
		return -1;
	}
	for (uint32_t i = 0; i < m; i++)
		(*out)[i] = k[i].idx;
	*n = m;
	free(k);
	return 0;
}

int cmp_diff__new(const struct cmp_side *before, const struct cmp_side *after,
		  const struct cmp_opts *o, struct cmp_diff **out, struct ap_err *err)
{
	struct build bd = { 0 };
	struct cmp_diff *d;

	*out = NULL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return ap_err_nomem(err);
	bd.d = d;
	d->label_before = before->label;
	d->label_after = after->label;
	d->level = cmp__level(o);
	d->adjust = o ? o->adjust : CMP_ADJ_HOLM;
	if (cmp_agg__new(before, &d->before, err) < 0 || cmp_agg__new(after, &d->after, err) < 0 ||
	    cmp__pair_cores(before, after, &d->pairs, &d->npairs, err) < 0) {
		cmp_diff__delete(d);
		return -1;
	}
	d->has_time = d->before->has_time && d->after->has_time;
	for (uint32_t i = 0; i < d->npairs; i++) {
		struct cmp_pair *p = &d->pairs[i];

		pair_metric(d, p);
		if ((p->before >= 0 && p->after >= 0 ? match_pair(&bd, i) : lone_pair(&bd, i)) < 0)
			goto nomem;
	}
	if ((before->ncaptures < 2 || after->ncaptures < 2) &&
	    warn(&bd, "one recording on a side: its test sees sampling noise only, not the "
		 "variation between runs; two or more a side use Welch's test") < 0)
		goto nomem;
	d->wasm.valid = 1;
	d->wasm.before = d->before->wasm;
	d->wasm.after = d->after->wasm;
	cmp__change(&d->wasm.before, &d->wasm.after, d->level, &d->wasm.ch);
	if (d->has_time) {
		d->wasm_time = (struct cmp_tmetric){ .valid = 1, .before = d->before->wasm_time,
						     .after = d->after->wasm_time };
		cmp__change_time(&d->wasm_time.before, &d->wasm_time.after, d->level,
				 &d->wasm_time.ch);
		d->run_time = (struct cmp_tmetric){ .valid = 1, .before = d->before->run_time,
						    .after = d->after->run_time };
		cmp__change_time(&d->run_time.before, &d->run_time.after, d->level,
				 &d->run_time.ch);
	}
	if (adjust_family(d, 0, &d->ntested_self) < 0 || adjust_family(d, 1, &d->ntested_incl) < 0 ||
	    adjust_family(d, 2, &d->ntested_self_time) < 0 ||
	    adjust_family(d, 3, &d->ntested_incl_time) < 0)
		goto nomem;
	if (d->nfuncs)
		qsort(d->funcs, d->nfuncs, sizeof(*d->funcs), cmp_change_size);
	if (list_status(d, CMP_RENAMED, &d->renamed, &d->nrenamed) < 0 ||
	    list_status(d, CMP_ADDED, &d->added, &d->nadded) < 0 ||
	    list_status(d, CMP_REMOVED, &d->removed, &d->nremoved) < 0)
		goto nomem;
	*out = d;
	return 0;
nomem:
	cmp_diff__delete(d);
	return ap_err_nomem(err);
}

void cmp_diff__delete(struct cmp_diff *d)
{
	if (!d)
		return;
	cmp_agg__delete(d->before);
	cmp_agg__delete(d->after);
	free(d->pairs);
	free(d->funcs);
	free(d->renamed);
	free(d->added);
	free(d->removed);
	free(d->moves);
	for (uint32_t i = 0; i < d->nwarnings; i++)
		free(d->warnings[i]);
	free(d->warnings);
	free(d);
}

int cmp_diff__pair_of(const struct cmp_diff *d, int after, uint32_t core)
{
	for (uint32_t i = 0; i < d->npairs; i++)
		if ((after ? d->pairs[i].after : d->pairs[i].before) == (int)core)
			return (int)i;
	return -1;
}

int64_t cmp_diff__find(const struct cmp_diff *d, uint32_t pair, uint32_t wasm_index)
{
	for (uint32_t i = 0; i < d->nfuncs; i++)
		if (d->funcs[i].pair == pair && d->funcs[i].wasm_index == wasm_index)
			return i;
	return -1;
}
