// SPDX-License-Identifier: MIT
/* Several recordings of one build, read one at a time (captures.h). */
#include <stdlib.h>
#include <string.h>
#include "captures.h"

/*
 * Inclusive samples of core c's functions (the function anywhere on the
 * stack), when the profile has call graphs; NULL when it has none.
 * The hook for call stacks in the profile: once profile/ keeps per-function
 * inclusive counts, return them here and every capture gets `incl`, which
 * compare/ tests as a second family and the diff renderers show.
 */
static const uint64_t *profile_incl(const struct profile *p, uint32_t c)
{
	(void)p;
	(void)c;
	return NULL;
}

static uint64_t funcs_total(const struct core_set *cs)
{
	uint64_t n = 0;

	for (uint32_t c = 0; c < cs->n; c++)
		n += cs->mods[c]->nfuncs;
	return n;
}

static int alloc(struct captures *c, const struct core_set *cs, struct ap_err *err)
{
	uint64_t nf = funcs_total(cs);

	c->self = calloc((size_t)c->n * cs->n, sizeof(*c->self));
	c->store = calloc(nf ? (size_t)nf * c->n : 1, sizeof(*c->store));
	if (!c->self || !c->store)
		return ap_err_nomem(err);
	for (uint32_t k = 0; k < c->n; k++) {
		uint64_t *at = c->store + (size_t)k * nf;

		for (uint32_t m = 0; m < cs->n; m++) {
			c->self[k * cs->n + m] = at;
			at += cs->mods[m]->nfuncs;
		}
	}
	return 0;
}

/* The recording's call-graph counts, copied; 0 when there are none. */
static int copy_incl(struct captures *c, uint32_t k, const struct profile *p, struct ap_err *err)
{
	const struct core_set *cs = p->cs;
	uint64_t nf = funcs_total(cs);
	uint64_t *at;

	for (uint32_t m = 0; m < cs->n; m++)
		if (!profile_incl(p, m))
			return 0;
	if (!c->incl) {
		c->incl = calloc((size_t)c->n * cs->n, sizeof(*c->incl));
		c->incl_store = calloc(nf ? (size_t)nf * c->n : 1, sizeof(*c->incl_store));
		if (!c->incl || !c->incl_store)
			return ap_err_nomem(err);
	}
	at = c->incl_store + (size_t)k * nf;
	for (uint32_t m = 0; m < cs->n; m++) {
		const uint64_t *src = profile_incl(p, m);

		if (!src)
			return 0;
		memcpy(at, src, cs->mods[m]->nfuncs * sizeof(*at));
		c->incl[k * cs->n + m] = at;
		at += cs->mods[m]->nfuncs;
	}
	c->caps[k].incl = &c->incl[k * cs->n];
	return 0;
}

static void add_table(struct cls_table *sum, const struct cls_table *t, int first)
{
	for (int k = 0; k < CLS__COUNT; k++) {
		sum->samples[k] += t->samples[k];
		if (first)
			sum->static_count[k] = t->static_count[k];
	}
	sum->total += t->total;
	sum->percent_only = t->percent_only;
}

/* One recording, already read into a->p: counts copied, functions classified. */
static int take(struct captures *c, uint32_t k, struct attr_args *a, const char *roles,
		struct ap_err *err)
{
	struct profile *p = a->p;

	c->caps[k].label = c->paths[k];
	c->caps[k].total = p->attr.total_samples;
	c->caps[k].self = &c->self[k * a->cs.n];
	c->attributed[k] = p->attr.attributed_samples;
	if (!k)
		c->event = p->event;
	for (uint32_t m = 0; m < a->cs.n; m++)
		memcpy((uint64_t *)c->self[k * a->cs.n + m], p->attr.cores[m].func_samples,
		       a->cs.mods[m]->nfuncs * sizeof(uint64_t));
	if (copy_incl(c, k, p, err))
		return -1;
	if (!c->nfuncs)
		return 0;
	for (uint32_t i = 0; i < c->nfuncs; i++)
		if (profile__add_func(p, c->funcs[i].spec, c->funcs[i].cf.core,
				      c->funcs[i].cf.func, err))
			return -1;
	if (profile__classify(p, roles, err))
		return -1;
	for (uint32_t i = 0; i < c->nfuncs; i++) {
		c->funcs[i].samples += p->funcs[i].samples;
		add_table(&c->funcs[i].t, &p->funcs[i].cls.t, !k);
	}
	return 0;
}

int captures__read(struct captures *c, struct attr_args *a, const char *label,
		   struct capture_func *funcs, uint32_t nfuncs, const char *roles)
{
	struct ap_err err = { 0 };
	uint32_t stdin_uses = 0;
	int ret;

	memset(c, 0, sizeof(*c));
	c->label = label;
	c->funcs = funcs;
	c->nfuncs = nfuncs;
	c->n = a->ninputs ? a->ninputs : 1;
	for (uint32_t k = 0; k < c->n; k++) {
		c->paths[k] = a->ninputs ? a->inputs[k] : a->input;
		stdin_uses += !strcmp(c->paths[k], "-");
	}
	for (uint32_t i = 0; i < nfuncs; i++)
		memset(&funcs[i].t, 0, sizeof(funcs[i].t)), funcs[i].samples = 0;
	if (stdin_uses > 1) {
		ap_errf(&err, "-i -: stdin can be read once");
		return cli_fail(a->cmd, &err);
	}
	if (alloc(c, &a->cs, &err))
		return cli_fail(a->cmd, &err);
	for (uint32_t k = 0; k < c->n; k++) {
		a->input = c->paths[k];
		ret = attr_args__read(a);
		if (ret != EXIT_OK)
			return ret;
		if (take(c, k, a, roles, &err)) {
			profile__delete(a->p);
			a->p = NULL;
			return cli_fail(a->cmd, &err);
		}
		profile__delete(a->p);
		a->p = NULL;
	}
	c->side = (struct cmp_side){
		.label = label, .ncores = a->cs.n,
		.mods = (const struct cwasm_module *const *)a->cs.mods,
		.ncaptures = c->n, .captures = c->caps,
	};
	return EXIT_OK;
}

void captures__exit(struct captures *c)
{
	free(c->self);
	free(c->store);
	free(c->incl);
	free(c->incl_store);
	c->self = c->incl = NULL;
	c->store = c->incl_store = NULL;
}
