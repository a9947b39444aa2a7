// SPDX-License-Identifier: MIT
/*
 * The report as a pprof profile (docs/pprof.md): one location per sampled
 * wasm instruction (function local_func_N[:name], file the core, line the
 * offset in the function) and per host ip (the symbol and DSO perf names,
 * profile/host.h). With call stacks (profile/stacks.h) each sample is
 * that leaf under its stack's callers, one location per calling function;
 * without, the leaf alone. Values: the sample count, and the event's time
 * or count where the recording fixes its period (docs/pprof.md,
 * "sample_type").
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "callgraph.h"
#include "pprof.h"
#include "report-events.h"
#include "../profile/host.h"
#include "../profile/offcpu.h"
#include "../util/array.h"
#include "../util/outfile.h"

struct host_mapping {
	uint64_t start, end;
	const char *dso;	/* its name: the profiles of several events share the mapping */
	uint64_t id;
};

/* One value per sample type: several events have one each (report-events.h). */
#define PP_MAX_VALUES 16

struct pp_ctx {
	struct pprof *pp;
	const struct profile *p;
	int64_t period;			/* per sample of the second value; 0: count only */
	/* several events: c->p is event slot's; a value per event */
	uint32_t nevents, slot;
	uint64_t *core_map;		/* pprof mapping per core (0: none) */
	struct host_mapping *hmaps;
	size_t nhmaps, cap_hmaps;
	uint64_t *sym_loc;		/* stacks: a caller's location per symbol (0: not yet) */
	uint64_t *stack;		/* stacks: one sample's locations, leaf first */
	int off_slot;			/* the off_cpu value's index (one event); 0: none */
};

/*
 * The second value: cpu-clock and task-clock count nanoseconds (in
 * frequency mode the kernel fixes the period at 1e9 / frequency); another
 * event with a fixed period counts its events. A frequency-mode hardware
 * event's period changes from sample to sample: the count alone.
 */
static int sample_types(struct pp_ctx *c, struct ap_err *err)
{
	const struct attr_result *a = &c->p->attr;
	const struct perf_event_attr *e = &a->event_attr;
	int clock = e->type == PERF_TYPE_SOFTWARE && (e->config == PERF_COUNT_SW_CPU_CLOCK ||
						      e->config == PERF_COUNT_SW_TASK_CLOCK);
	const char *type = clock ? "cpu" : a->event_name, *unit = clock ? "nanoseconds" : "events";

	if (pprof__add_sample_type(c->pp, "samples", "count", err))
		return -1;
	if (!a->have_event)
		return 0;
	if (e->freq && clock && e->sample_freq)
		c->period = (int64_t)(1000000000ull / e->sample_freq);
	else if (!e->freq && e->sample_period)
		c->period = (int64_t)e->sample_period;
	if (!c->period)
		return 0;
	if (pprof__add_sample_type(c->pp, type, unit, err) ||
	    pprof__set_period(c->pp, type, unit, c->period, err))
		return -1;
	return pprof__set_default_sample_type(c->pp, type, err);
}

/* A sample's values: the count and its time, or with several events the count in its event's. */
static void values(const struct pp_ctx *c, uint64_t count, int64_t *v)
{
	if (c->nevents < 2) {
		v[0] = (int64_t)count;
		v[1] = (int64_t)count * c->period;
		if (c->off_slot)
			v[c->off_slot] = 0;
		return;
	}
	memset(v, 0, PP_MAX_VALUES * sizeof(*v));
	v[c->slot] = (int64_t)count;
}

static int add(struct pp_ctx *c, uint64_t loc, uint64_t count, struct ap_err *err)
{
	int64_t v[PP_MAX_VALUES];

	values(c, count, v);
	return loc ? pprof__sample(c->pp, &loc, 1, v, err) : -1;
}

/* One mapping per mapped core. */
static int core_mappings(struct pp_ctx *c, struct ap_err *err)
{
	const struct profile *p = c->p;

	for (uint32_t i = 0; i < p->attr.ncores; i++) {
		const struct attr_core *ac = &p->attr.cores[i];

		if (ac->nmappings) {
			c->core_map[i] = pprof__mapping(c->pp, ac->first_base,
							ac->first_base + ac->first_len, 0,
							ac->mod->path, NULL, err);
			if (!c->core_map[i])
				return -1;
		}
	}
	return 0;
}

/* Function func of core (one lone core: no label). */
static uint64_t wasm_function(struct pp_ctx *c, uint32_t core, uint32_t func, struct ap_err *err)
{
	const struct cwasm_module *m = c->p->attr.cores[core].mod;

	return pprof__wasm_function(c->pp, m->path, m->manifest_idx >= 0 ?
				    core_set__core_name(m) : NULL, func, m->funcs[func].name, err);
}

/*
 * The instruction at text offset off of core: its location (*func its
 * function); 0 with err, or 0 and *func -1 when no function holds it.
 */
static uint64_t wasm_insn(struct pp_ctx *c, uint32_t core, uint64_t off, int64_t *func,
			  struct ap_err *err)
{
	const struct attr_core *ac = &c->p->attr.cores[core];
	uint64_t fid;

	*func = cwasm__func_at(ac->mod, off);
	if (*func < 0)
		return 0;
	fid = wasm_function(c, core, (uint32_t)*func, err);
	return fid ? pprof__wasm_location(c->pp, c->core_map[core], fid, ac->first_base + off,
					  (uint32_t)(off - ac->mod->funcs[*func].offset), err) : 0;
}

static int wasm_samples(struct pp_ctx *c, struct ap_err *err)
{
	const struct profile *p = c->p;
	const struct attr_hist *h = &p->hist;

	/* the histogram's keys are core << 40 | offset, plus one (attr/hist.h) */
	for (size_t k = 0; k < h->cap; k++) {
		uint64_t key = h->keys[k], off, loc;
		uint32_t core;
		int64_t func;

		if (!key)
			continue;
		core = (uint32_t)((key - 1) >> 40);
		off = (key - 1) & ((1ull << 40) - 1);
		if (core >= p->attr.ncores)
			continue;
		loc = wasm_insn(c, core, off, &func, err);
		if (func < 0)
			continue;
		if (add(c, loc, h->counts[k], err))
			return -1;
	}
	return 0;
}

static uint64_t host_mapping(struct pp_ctx *c, const struct profile_host_frame *f,
			     struct ap_err *err)
{
	struct host_mapping m = { f->map_start, f->map_end, c->p->host->dsos[f->dso], 0 };

	if (f->map_end <= f->map_start)
		return 0;
	for (size_t i = c->nhmaps; i-- > 0;)
		if (c->hmaps[i].start == m.start && c->hmaps[i].end == m.end &&
		    !strcmp(c->hmaps[i].dso, m.dso))
			return c->hmaps[i].id;
	m.id = pprof__mapping(c->pp, m.start, m.end, f->pgoff, m.dso, NULL, err);
	if (m.id && ap_push(&c->hmaps, &c->nhmaps, &c->cap_hmaps, &m, sizeof(m))) {
		ap_err_nomem(err);
		return 0;
	}
	return m.id;
}

/* Host frame i of p->host: its location, or 0 with err. */
static uint64_t host_frame(struct pp_ctx *c, size_t i, struct ap_err *err)
{
	const struct profile_host *h = c->p->host;
	const struct profile_host_frame *f = &h->frames[i];
	uint64_t map = host_mapping(c, f, err);

	if (!map && f->map_end > f->map_start)
		return 0;
	return pprof__host_location(c->pp, map, f->ip, f->sym, h->dsos[f->dso], err);
}

static int host_samples(struct pp_ctx *c, struct ap_err *err)
{
	const struct profile *p = c->p;
	const struct profile_host *h = p->host;
	uint64_t rest = p->attr.total_samples - p->attr.attributed_samples;

	for (size_t i = 0; h && i < h->nframes; i++) {
		const struct profile_host_frame *f = &h->frames[i];

		if (add(c, host_frame(c, i, err), f->samples, err))
			return -1;
		rest -= f->samples < rest ? f->samples : rest;
	}
	/* not named (no p->host): one frame, so the samples still add up */
	if (!h && rest)
		return add(c, pprof__host_location(c->pp, 0, 0, NULL, NULL, err), rest, err);
	return 0;
}

/* Are there stacks with their leaves (profile_opts.host too)? */
static int stacked(const struct profile *p)
{
	return p->stacks && p->stacks->mode != STACKS_NONE && p->stacks->nleaves && p->host;
}

/*
 * A host frame's symbol as perf names it: NULL ("[unknown]") where the
 * stacks name the frame after its file ("[libc.so.6]", "[vdso]", "[JIT]
 * tid N": profile/stacks_read.c) or nothing at all.
 */
static const char *host_symbol(const struct stack_sym *s)
{
	const char *base = s->dso ? strrchr(s->dso, '/') : NULL;
	size_t len;

	if (!strcmp(s->name, "[unknown]") || (s->dso && !strcmp(s->name, s->dso)))
		return NULL;
	base = base ? base + 1 : s->dso;
	len = base ? strlen(base) : 0;
	if (len && s->name[0] == '[' && !strncmp(s->name + 1, base, len) &&
	    !strcmp(s->name + 1 + len, "]"))
		return NULL;
	return s->name;
}

/*
 * A calling function's location: a wasm function at its first byte (line
 * 0), a host function by name in its file, the kernel, the "[caller
 * unknown]" marker; one per symbol.
 */
static uint64_t new_caller_location(struct pp_ctx *c, const struct stack_sym *s,
				    struct ap_err *err)
{
	const char *dso = s->kind == STACK_KERNEL ? "[kernel.kallsyms]" : NULL;
	const struct attr_core *ac;
	uint64_t fid;
	char name[512];

	if (s->kind == STACK_WASM) {
		ac = &c->p->attr.cores[s->core];
		fid = wasm_function(c, s->core, s->func, err);
		return fid ? pprof__wasm_location(c->pp, c->core_map[s->core], fid,
						  ac->first_base + ac->mod->funcs[s->func].offset, 0,
						  err) : 0;
	}
	if (s->kind == STACK_HOST)
		return pprof__host_location(c->pp, 0, 0, host_symbol(s), s->dso, err);
	return pprof__host_location(c->pp, 0, 0, render__stack_name(c->p, s, name, sizeof(name)),
				    dso, err);
}

static uint64_t caller_location(struct pp_ctx *c, uint32_t sym, struct ap_err *err)
{
	if (!c->sym_loc[sym])
		c->sym_loc[sym] = new_caller_location(c, &c->p->stacks->syms[sym], err);
	return c->sym_loc[sym];
}

/*
 * With call stacks: a sample per stack leaf (stack_leaf: the instruction,
 * or the host frame the samples were taken at), then a location per
 * caller up the tree. The leaf location stands for the leaf node's own
 * frame, which names the same function (a kernel leaf: perf's kernel
 * symbol where the tree has [kernel.kallsyms]); were it another, both go in.
 */
static int stack_samples(struct pp_ctx *c, struct ap_err *err)
{
	const struct profile_stacks *st = c->p->stacks;

	for (uint32_t i = 0; i < st->nleaves; i++) {
		const struct stack_leaf *l = &st->leaves[i];
		const struct stack_sym *ls = &st->syms[st->nodes[l->node].sym];
		uint32_t n = 0, node = l->node;
		int64_t func = -1;
		int same;

		if (l->core >= 0) {
			c->stack[n] = wasm_insn(c, (uint32_t)l->core, l->at, &func, err);
			if (func < 0)
				continue;	/* none: attr counts no sample there */
			same = ls->kind == STACK_WASM && ls->core == (uint32_t)l->core &&
			       (int64_t)ls->func == func;
		} else {
			c->stack[n] = host_frame(c, l->at, err);
			same = ls->kind == STACK_HOST || ls->kind == STACK_KERNEL;
		}
		if (!c->stack[n++])
			return -1;
		if (same)
			node = st->nodes[node].parent;
		for (; node && n < st->max_depth + 2; node = st->nodes[node].parent)
			if (!(c->stack[n++] = caller_location(c, st->nodes[node].sym, err)))
				return -1;
		{
			int64_t v[PP_MAX_VALUES];

			values(c, l->samples, v);
			if (pprof__sample(c->pp, c->stack, n, v, err))
				return -1;
		}
	}
	return 0;
}

/*
 * The off-CPU stacks (profile/offcpu.h) as samples of their own: off_cpu
 * nanoseconds, no samples or on-CPU time; locations as in folded stacks,
 * the state ("[S]") as the leaf, the system call ("[sys] NAME") when split,
 * then the host frame waited in, then the wasm functions from the innermost out.
 */
static int offcpu_samples(struct pp_ctx *c, struct ap_err *err)
{
	const struct profile_offcpu *oc = c->p->offcpu;
	uint64_t *locs;
	int rc = 0;

	if (!oc->nstacks)
		return 0;
	locs = calloc(OFFCPU_MAX_DEPTH + 3, sizeof(*locs));
	if (!locs)
		return ap_err_nomem(err);
	for (uint32_t i = 0; !rc && i < oc->nstacks; i++) {
		const struct offcpu_stack *s = &oc->stacks[i];
		int64_t v[PP_MAX_VALUES] = { 0 };
		char state[16], sys[256];
		uint32_t n = 0;

		snprintf(state, sizeof(state), "[%s]", offcpu_state__name(s->state));
		locs[n++] = pprof__host_location(c->pp, 0, 0, state, NULL, err);
		if (offcpu_stack__sys_frame(s, sys, sizeof(sys)))
			locs[n++] = pprof__host_location(c->pp, 0, 0, sys, NULL, err);
		if (s->via)
			locs[n++] = pprof__host_location(c->pp, 0, 0, s->via, NULL, err);
		for (uint32_t k = 0; k < s->n && k < OFFCPU_MAX_DEPTH; k++) {
			uint64_t f = oc->frames[s->off + k];
			struct stack_sym sym = { .kind = STACK_WASM, .core = (uint32_t)(f >> 32),
						 .func = (uint32_t)f };

			locs[n++] = new_caller_location(c, &sym, err);
		}
		for (uint32_t k = 0; k < n; k++)
			if (!locs[k])
				rc = -1;
		v[c->off_slot] = (int64_t)s->ns;
		if (!rc)
			rc = pprof__sample(c->pp, locs, n, v, err);
	}
	free(locs);
	return rc;
}

/* One sample type per event, named as perf names it; the first is shown first. */
static int event_types(struct pp_ctx *c, const struct view_report *const *vs, uint32_t n,
		       struct ap_err *err)
{
	for (uint32_t i = 0; i < n; i++)
		if (pprof__add_sample_type(c->pp, vs[i]->event, "count", err))
			return -1;
	return pprof__set_default_sample_type(c->pp, vs[0]->event, err);
}

/* The samples of c->p (one event's profile). */
static int samples(struct pp_ctx *c, struct ap_err *err)
{
	const struct profile *p = c->p;
	int rc = -1;

	if (!stacked(p))
		return wasm_samples(c, err) || host_samples(c, err) ? -1 : 0;
	c->sym_loc = calloc(p->stacks->nsyms, sizeof(*c->sym_loc));
	c->stack = calloc(p->stacks->max_depth + 2, sizeof(*c->stack));
	if (!c->sym_loc || !c->stack)
		ap_err_nomem(err);
	else
		rc = stack_samples(c, err);
	free(c->sym_loc);
	free(c->stack);
	c->sym_loc = c->stack = NULL;
	return rc;
}

/* n profiles of one recording, one per event (n == 1: the one-event profile). */
static struct pprof *build(const struct view_report *const *vs, uint32_t n, struct ap_err *err)
{
	const struct profile *p = vs[0]->p;
	struct pp_ctx c = { .p = p, .nevents = n };
	char note[512];
	int rc = -1;

	if (n > PP_MAX_VALUES) {
		ap_errf(err, "at most %d events", PP_MAX_VALUES);
		return NULL;
	}
	c.pp = pprof__new(err);
	c.core_map = calloc(p->attr.ncores + 1, sizeof(*c.core_map));
	if (!c.pp || !c.core_map) {
		if (c.pp)
			ap_err_nomem(err);
		goto out;
	}
	snprintf(note, sizeof(note), "aotperf report of %s%s%s%s", p->input ? p->input : "samples",
		 p->attr.have_event ? ", event " : "", p->attr.have_event ? p->attr.event_name : "",
		 n > 1 ? " and the others, a sample type each" : "");
	/* the cores' mappings come from the recording's records: the same for every event */
	if ((n > 1 ? event_types(&c, vs, n, err) : sample_types(&c, err)) ||
	    pprof__add_comment(c.pp, note, err) || core_mappings(&c, err))
		goto out;
	/* one event with an off-CPU view: off_cpu nanoseconds as a sample type of its own */
	if (n == 1 && p->offcpu) {
		c.off_slot = c.period ? 2 : 1;
		if (pprof__add_sample_type(c.pp, "off_cpu", "nanoseconds", err))
			goto out;
	}
	for (c.slot = 0; c.slot < n; c.slot++) {
		c.p = vs[c.slot]->p;
		if (samples(&c, err))
			goto out;
	}
	if (c.off_slot && offcpu_samples(&c, err))
		goto out;
	rc = 0;
out:
	free(c.core_map);
	free(c.hmaps);
	if (rc) {
		pprof__delete(c.pp);
		return NULL;
	}
	return c.pp;
}

int render__report_events_pprof(FILE *f, const char *name, const struct view_report *const *vs,
				uint32_t n, const struct render_opts *o, struct ap_err *err)
{
	struct pprof *pp = build(vs, n, err);
	int rc;

	(void)o;
	if (!pp)
		return -1;
	rc = pprof__fwrite(pp, f, name, err);
	pprof__delete(pp);
	return rc;
}

int render__report_events_pprof_file(const char *path, const struct view_report *const *vs,
				     uint32_t n, const struct render_opts *o, struct ap_err *err)
{
	struct pprof *pp = build(vs, n, err);
	int rc;

	(void)o;
	if (!pp)
		return -1;
	rc = pprof__write(pp, path, err);
	pprof__delete(pp);
	return rc;
}

int render__report_pprof(FILE *f, const char *name, const struct view_report *v,
			 const struct render_opts *o, struct ap_err *err)
{
	return render__report_events_pprof(f, name, &v, 1, o, err);
}

int render__report_pprof_file(const char *path, const struct view_report *v,
			      const struct render_opts *o, struct ap_err *err)
{
	return render__report_events_pprof_file(path, &v, 1, o, err);
}
