// SPDX-License-Identifier: MIT
/* The profile in memory: fed samples, rankings, the functions looked at closely. */
#include <stdlib.h>
#include <string.h>
#include "host.h"
#include "offcpu.h"
#include "internal.h"
#include "sidecar.h"
#include "sorted.h"
#include "../loops/loops.h"
#include "../util/array.h"
#include "../util/num.h"

int profile_pins__add(struct profile_pins *p, const char *hex, struct ap_err *err)
{
	uint64_t v;

	if (ap_parse_u64(hex, 16, &v) || !v)
		return ap_errf(err, "'%s' is not a hex address", hex);
	if (p->n == PROFILE_MAX_PINS)
		return ap_errf(err, "at most %d", PROFILE_MAX_PINS);
	p->base[p->n++] = v;
	return 0;
}

static int alloc_cores(struct profile *p, const uint64_t *pins, uint32_t npins,
		       struct ap_err *err)
{
	const struct core_set *cs = p->cs;

	p->attr.ncores = cs->n;
	p->attr.cores = calloc(cs->n + 1, sizeof(*p->attr.cores));
	if (!p->attr.cores)
		return ap_err_nomem(err);
	for (uint32_t i = 0; i < cs->n; i++) {
		p->attr.cores[i].mod = cs->mods[i];
		p->attr.cores[i].base_override = pins && i < npins ? pins[i] : 0;
	}
	return 0;
}

struct profile *profile__alloc(const struct core_set *cs, enum profile_source source,
			       const uint64_t *pins, uint32_t npins, struct ap_err *err)
{
	struct profile *p = calloc(1, sizeof(*p));

	if (!p) {
		ap_err_nomem(err);
		return NULL;
	}
	p->source = source;
	p->cs = cs;
	if (alloc_cores(p, pins, npins, err)) {
		free(p);
		return NULL;
	}
	return p;
}

int profile__new(const struct core_set *cs, const uint64_t *pins, uint32_t npins,
		 const char *event, struct profile **out, struct ap_err *err)
{
	struct profile *p = profile__alloc(cs, PROFILE_SAMPLES, pins, npins, err);

	*out = NULL;
	if (!p)
		return -1;
	p->event = event;
	for (uint32_t i = 0; i < cs->n; i++) {
		struct attr_core *c = &p->attr.cores[i];

		c->func_samples = calloc(c->mod->nfuncs + 1, sizeof(*c->func_samples));
		if (!c->func_samples) {
			profile__delete(p);
			return ap_err_nomem(err);
		}
	}
	*out = p;
	return 0;
}

int profile__new_static(const struct core_set *cs, struct profile **out, struct ap_err *err)
{
	if (profile__new(cs, NULL, 0, NULL, out, err))
		return -1;
	(*out)->source = PROFILE_STATIC;
	if (profile__finish(*out, err)) {
		profile__delete(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}

int64_t profile__sample(struct profile *p, int core, uint64_t off)
{
	struct attr_core *c;
	int64_t fn;

	p->attr.total_samples++;
	if (core < 0 || (uint32_t)core >= p->attr.ncores)
		return -1;
	c = &p->attr.cores[core];
	fn = off < c->mod->text_size ? cwasm__func_at(c->mod, off) : -1;
	if (fn < 0) {
		c->outside_text++;
		return -1;
	}
	c->samples++;
	c->func_samples[fn]++;
	p->attr.attributed_samples++;
	attr_hist__add(&p->hist, (uint32_t)core, off);
	return fn;
}

void profile__set_mapping(struct profile *p, uint32_t core, uint32_t nmappings,
			  uint64_t first_base, uint64_t first_len, int authoritative)
{
	struct attr_core *c = &p->attr.cores[core];

	c->nmappings = c->candidates = nmappings;
	c->first_base = nmappings ? first_base : 0;
	c->first_len = nmappings ? first_len : 0;
	c->authoritative = c->mapping_unique = authoritative;
}

void profile__set_read(struct profile *p, int cut, uint64_t read, uint64_t expected)
{
	p->attr.truncated = cut;
	p->attr.bytes_read = read;
	p->attr.bytes_expected = expected;
	for (uint32_t i = 0; cut && i < p->attr.ncores; i++)
		p->attr.cores[i].authoritative = 0;
}

int profile__finish(struct profile *p, struct ap_err *err)
{
	for (uint32_t i = 0; i < p->attr.ncores; i++)
		p->attr.cores[i].sharing = attr__sharing(p->attr.cores, p->attr.ncores, i);
	if (attr__rank_cores(&p->attr))
		return ap_err_nomem(err);
	p->finished = 1;
	return 0;
}

static void func_exit(struct profile_func *f)
{
	if (f->classified)
		cls_result__exit(&f->cls);
	profile_sidecar__delete(f->sc);
	helper_view__delete(f->hv);
	lp_func__delete(f->loops);
}

void profile__delete(struct profile *p)
{
	struct attr_core *cores;

	if (!p)
		return;
	cores = p->attr.cores;
	for (uint32_t i = 0; i < p->nfuncs; i++)
		func_exit(&p->funcs[i]);

	free(p->funcs);
	attr_result__exit(&p->attr);	/* per-core counts; the array is ours */
	free(cores);
	attr_hist__exit(&p->hist);
	stacks__delete(p->stacks);
	offcpu__delete(p->offcpu);
	profile_sorted__delete(p->sorted);
	if (p->levers_delete)
		p->levers_delete(p->levers);
	if (p->host)
		profile_host__exit(p->host);
	free(p->host);
	free(p->input);
	free(p);
}

static int added(const struct profile *p, uint32_t core, uint32_t func)
{
	for (uint32_t i = 0; i < p->nfuncs; i++)
		if (p->funcs[i].core == core && p->funcs[i].func == func)
			return 1;
	return 0;
}

int profile__add_func(struct profile *p, const char *spec, uint32_t core, uint32_t func,
		      struct ap_err *err)
{
	struct profile_func f = { .core = core, .func = func, .spec = spec };

	if (core >= p->attr.ncores || func >= p->attr.cores[core].mod->nfuncs)
		return ap_errf(err, "no local function %u in core %u", func, core);
	f.samples = p->attr.cores[core].func_samples[func];
	if (ap_grow(&p->funcs, &p->cap_funcs, (size_t)p->nfuncs + 1, sizeof(*p->funcs)))
		return ap_err_nomem(err);
	p->funcs[p->nfuncs++] = f;
	return 0;
}

int profile__add_hot(struct profile *p, uint32_t k, struct ap_err *err)
{
	for (uint32_t n = 0; n < k; n++) {
		int best = -1;
		const struct attr_ranked *pick = NULL;

		/* each core's best not yet added; the hottest of those, ties to the lower core */
		for (uint32_t c = 0; c < p->attr.ncores; c++) {
			const struct attr_core *core = &p->attr.cores[c];

			for (uint32_t i = 0; i < core->nranked; i++) {
				const struct attr_ranked *r = &core->ranked[i];

				if (added(p, c, r->func))
					continue;
				if (!pick || r->samples > pick->samples) {
					pick = r;
					best = (int)c;
				}
				break;
			}
		}
		if (best < 0)
			break;
		if (profile__add_func(p, NULL, (uint32_t)best, pick->func, err))
			return -1;
	}
	return 0;
}

int profile__hottest(const struct profile *p, uint32_t *core, uint32_t *func)
{
	const struct attr_ranked *best = NULL;

	for (uint32_t c = 0; c < p->attr.ncores; c++) {
		const struct attr_core *ac = &p->attr.cores[c];

		if (ac->nranked && (!best || ac->ranked[0].samples > best->samples)) {
			best = &ac->ranked[0];
			*core = c;
		}
	}
	if (!best)
		return 0;
	*func = best->func;
	return 1;
}

/* The sidecar's origins (the verdict then knows proven spills) and the helper's view. */
static int classify_frames(struct profile *p, struct profile_func *f, struct ap_err *err)
{
	const struct attr_core *c = &p->attr.cores[f->core];
	struct profile_sidecar *sc = f->sc && f->sc->fr ? f->sc : NULL;

	if (sc) {
		const struct frames_summary *s;

		if (profile_sidecar__join(sc, c->mod, &p->hist, f->core, err))
			return -1;
		s = sc->sum;
		cls_table__set_spills(&f->cls.t,
				      s->sampled_allocator_loads + s->sampled_allocator_stores,
				      s->origin[FRAMES_ALLOCATOR_SPILL][FRAMES_LOAD].insns +
					      s->origin[FRAMES_ALLOCATOR_SPILL][FRAMES_STORE].insns);
	}
	return helper_view__build(&f->hv, c->mod, f->func, &f->cls.f, sc, &p->hist, f->core,
				  c->nmappings != 0, c->first_base, err);
}

int profile__classify(struct profile *p, const char *roles, struct ap_err *err)
{
	for (uint32_t i = 0; i < p->nfuncs; i++) {
		struct profile_func *f = &p->funcs[i];
		const struct attr_core *c = &p->attr.cores[f->core];

		if (f->classified)
			continue;
		if (cls_result__classify(&f->cls, c->mod, f->func, CWASM_ARCH_UNKNOWN, roles,
					 p->source == PROFILE_STATIC ? NULL : &p->hist, f->core,
					 c->first_base, err))
			return -1;
		f->classified = 1;
		f->cls.t.no_verdict = profile__no_verdict(p, f->core);
		if (classify_frames(p, f, err))
			return -1;
	}
	return 0;
}
