// SPDX-License-Identifier: MIT
/* Several recordings of one build, read one at a time (captures.h). */
#include <stdlib.h>
#include <string.h>
#include "captures.h"
#include "../profile/offcpu.h"
#include "../profile/stacks.h"

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
	c->self_period = calloc((size_t)c->n * cs->n, sizeof(*c->self_period));
	c->period_store = calloc(nf ? (size_t)nf * c->n : 1, sizeof(*c->period_store));
	c->cons = calloc((size_t)c->n * cs->n + 1, sizeof(*c->cons));
	if (!c->self || !c->store || !c->self_period || !c->period_store || !c->cons)
		return ap_err_nomem(err);
	for (uint32_t k = 0; k < c->n; k++) {
		uint64_t *at = c->store + (size_t)k * nf, *pat = c->period_store + (size_t)k * nf;

		for (uint32_t m = 0; m < cs->n; m++) {
			c->self[k * cs->n + m] = at;
			c->self_period[k * cs->n + m] = pat;
			at += cs->mods[m]->nfuncs;
			pat += cs->mods[m]->nfuncs;
		}
	}
	return 0;
}

/*
 * The recording's inclusive samples per function (the function anywhere on
 * the stack, once per sample: profile/stacks.h), copied; nothing when it
 * has no call chains. compare/ then tests them as a second family.
 */
static int copy_incl(struct captures *c, uint32_t k, const struct profile *p, struct ap_err *err)
{
	const struct core_set *cs = p->cs;
	const struct profile_stacks *st = p->stacks;
	uint64_t nf = funcs_total(cs);
	uint64_t *at, *pat;

	if (!st || st->mode == STACKS_NONE)
		return 0;
	if (!c->incl) {
		c->incl = calloc((size_t)c->n * cs->n, sizeof(*c->incl));
		c->incl_store = calloc(nf ? (size_t)nf * c->n : 1, sizeof(*c->incl_store));
		c->incl_period = calloc((size_t)c->n * cs->n, sizeof(*c->incl_period));
		c->incl_period_store = calloc(nf ? (size_t)nf * c->n : 1,
					      sizeof(*c->incl_period_store));
		if (!c->incl || !c->incl_store || !c->incl_period || !c->incl_period_store)
			return ap_err_nomem(err);
	}
	at = c->incl_store + (size_t)k * nf;
	pat = c->incl_period_store + (size_t)k * nf;
	for (uint32_t m = 0; m < cs->n; m++) {
		memset(at, 0, cs->mods[m]->nfuncs * sizeof(*at));
		memset(pat, 0, cs->mods[m]->nfuncs * sizeof(*pat));
		c->incl[k * cs->n + m] = at;
		c->incl_period[k * cs->n + m] = pat;
		at += cs->mods[m]->nfuncs;
		pat += cs->mods[m]->nfuncs;
	}
	for (uint32_t i = 0; i < st->nsyms; i++) {
		const struct stack_sym *s = &st->syms[i];

		if (s->kind == STACK_WASM && s->core < cs->n && s->func < cs->mods[s->core]->nfuncs) {
			((uint64_t *)c->incl[k * cs->n + s->core])[s->func] = s->total;
			((uint64_t *)c->incl_period[k * cs->n + s->core])[s->func] = s->total_period;
		}
	}
	c->caps[k].incl = &c->incl[k * cs->n];
	c->caps[k].incl_period = &c->incl_period[k * cs->n];
	return 0;
}

/* The recording's off-CPU rows, summed into the side's (compare/offcpu_diff.h). */
static int copy_offcpu(struct captures *c, const struct profile *p, struct ap_err *err)
{
	const struct profile_offcpu *oc = p->offcpu;
	struct cmp_oc_row *rows;
	int ret;

	c->oc.ncaptures++;
	if (!oc)
		return 0;
	c->oc.nwith++;
	c->oc.intervals += oc->intervals;
	for (uint32_t i = 0; i < oc->nprocs; i++) {
		c->oc.on_ns += oc->procs[i].on_ns;
		for (int s = 0; s < OFFCPU_NSTATES; s++)
			c->oc.off_ns += oc->procs[i].off_ns[s];
	}
	rows = calloc(oc->nfuncs ? oc->nfuncs : 1, sizeof(*rows));
	if (!rows)
		return ap_err_nomem(err);
	for (uint32_t i = 0; i < oc->nfuncs; i++) {
		const struct offcpu_func *f = &oc->funcs[i];

		rows[i] = (struct cmp_oc_row){
			.core = f->core, .func = f->func, .on_ns = f->on_ns, .on_incl_ns = f->on_incl_ns,
			.off_ns = f->off_self_ns, .off_incl_ns = f->off_incl_ns,
			.intervals = f->intervals, .off_sq = f->off_self_sq,
		};
	}
	ret = cmp_oc_side__add(&c->oc, rows, oc->nfuncs);
	free(rows);
	return ret ? ap_err_nomem(err) : 0;
}

/*
 * The event counts ns of CPU time: the software clocks (cpu-clock,
 * task-clock), whose period perf records in ns.
 */
static int period_is_ns(const struct attr_result *r)
{
	const struct perf_event_attr *e = &r->event_attr;

	return r->have_event && e->type == PERF_TYPE_SOFTWARE &&
	       (e->config == PERF_COUNT_SW_CPU_CLOCK || e->config == PERF_COUNT_SW_TASK_CLOCK);
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
	if (t->no_verdict)	/* one recording's samples that cannot carry one: the sum cannot */
		sum->no_verdict = t->no_verdict;
}

/* A recording cut short, or whose cores are not authoritative, says so in the sum. */
static void take_read(struct view_read *r, const struct profile *p)
{
	r->truncated = p->attr.truncated;
	r->bytes_read = p->attr.bytes_read;
	r->bytes_expected = p->attr.bytes_expected;
	r->authoritative = 1;
	for (uint32_t i = 0; i < p->attr.ncores; i++)
		r->authoritative &= p->attr.cores[i].authoritative &&
				    !p->attr.cores[i].base_override;
}

/* One recording, already read into a->p: counts copied, functions classified. */
static int take(struct captures *c, uint32_t k, struct attr_args *a, const char *roles,
		struct ap_err *err)
{
	struct profile *p = a->p;

	c->caps[k].label = c->paths[k];
	c->caps[k].total = p->attr.total_samples;
	c->caps[k].self = &c->self[k * a->cs.n];
	c->caps[k].total_period = p->attr.total_period;
	c->caps[k].self_period = &c->self_period[k * a->cs.n];
	c->attributed[k] = p->attr.attributed_samples;
	take_read(&c->reads[k], p);
	if (!k && (p->event || p->attr.have_event)) {
		/* the profile goes with the next recording: the name is kept here */
		snprintf(c->event_name, sizeof(c->event_name), "%s",
			 p->event ? p->event : p->attr.event_name);
		c->event = c->event_name;
	}
	if (!k) {
		memcpy(c->cpuid, p->cpuid, sizeof(c->cpuid));
		memcpy(c->cpudesc, p->cpudesc, sizeof(c->cpudesc));
		c->period_ns = period_is_ns(&p->attr);
	}
	for (uint32_t m = 0; m < a->cs.n; m++) {
		memcpy((uint64_t *)c->self[k * a->cs.n + m], p->attr.cores[m].func_samples,
		       a->cs.mods[m]->nfuncs * sizeof(uint64_t));
		memcpy((uint64_t *)c->self_period[k * a->cs.n + m], p->attr.cores[m].func_period,
		       a->cs.mods[m]->nfuncs * sizeof(uint64_t));
		c->cons[k * a->cs.n + m] = p->attr.cores[m].consistency;
	}
	if (copy_incl(c, k, p, err) || copy_offcpu(c, p, err))
		return -1;
	if (attr_hist__merge(&c->hist, &p->hist))
		return ap_err_nomem(err);
	if (!c->nfuncs)
		return 0;
	for (uint32_t i = 0; i < c->nfuncs; i++)
		if (profile__add_func(p, c->funcs[i].spec, c->funcs[i].cf.core,
				      c->funcs[i].cf.func, err))
			return -1;
	if (profile__classify(p, roles, err))
		return -1;
	for (uint32_t i = 0; i < c->nfuncs; i++) {
		struct capture_func *cf = &c->funcs[i];
		const struct cls_result *r = &p->funcs[i].cls;

		cf->samples += p->funcs[i].samples;
		add_table(&cf->t, &r->t, !k);
		if (!cf->insn_samples) {
			cf->ninsns = r->f.ninsns;
			cf->insn_samples = calloc(cf->ninsns + 1, sizeof(*cf->insn_samples));
			if (!cf->insn_samples)
				return ap_err_nomem(err);
		}
		/* one build: every recording decodes the function the same */
		for (uint32_t n = 0; n < cf->ninsns && n < r->f.ninsns; n++)
			cf->insn_samples[n] += r->insn_samples[n];
	}
	return 0;
}

int captures__read(struct captures *c, struct attr_args *a, const char *label,
		   struct capture_func *funcs, uint32_t nfuncs, const char *roles)
{
	return captures__read_hook(c, a, label, funcs, nfuncs, roles, NULL);
}

int captures__read_hook(struct captures *c, struct attr_args *a, const char *label,
			struct capture_func *funcs, uint32_t nfuncs, const char *roles,
			const struct captures_hook *hook)
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
	for (uint32_t i = 0; i < nfuncs; i++) {
		memset(&funcs[i].t, 0, sizeof(funcs[i].t));
		funcs[i].samples = 0;
		funcs[i].insn_samples = NULL;
		funcs[i].ninsns = 0;
	}
	if (stdin_uses > 1) {
		ap_errf(&err, "-i -: stdin can be read once");
		return cli_fail(a->cmd, &err);
	}
	if (alloc(c, &a->cs, &err))
		return cli_fail(a->cmd, &err);
	a->opts.stacks = PROFILE_STACKS_RECORDED;	/* inclusive shares, if any */
	for (uint32_t k = 0; k < c->n; k++) {
		a->input = c->paths[k];
		ret = attr_args__read(a);
		if (ret != EXIT_OK)
			return ret;
		if (take(c, k, a, roles, &err) || (hook && hook->fn(hook->ctx, k, a->p, &err))) {
			profile__delete(a->p);
			a->p = NULL;
			return cli_fail(a->cmd, &err);
		}
		profile__delete(a->p);
		a->p = NULL;
	}
	c->oc.has = c->oc.nwith == c->n;
	c->side = (struct cmp_side){
		.label = label, .ncores = a->cs.n,
		.mods = (const struct cwasm_module *const *)a->cs.mods,
		.ncaptures = c->n, .captures = c->caps,
	};
	return EXIT_OK;
}

void captures__exit(struct captures *c)
{
	for (uint32_t i = 0; c->funcs && i < c->nfuncs; i++) {
		free(c->funcs[i].insn_samples);
		c->funcs[i].insn_samples = NULL;
	}
	free(c->self);
	free(c->store);
	free(c->incl);
	free(c->incl_store);
	free(c->self_period);
	free(c->period_store);
	free(c->incl_period);
	free(c->incl_period_store);
	free(c->cons);
	attr_hist__exit(&c->hist);
	cmp_oc_side__exit(&c->oc);
	c->self = c->incl = c->self_period = c->incl_period = NULL;
	c->store = c->incl_store = c->period_store = c->incl_period_store = NULL;
	c->cons = NULL;
}
