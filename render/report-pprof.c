// SPDX-License-Identifier: MIT
/*
 * The report as a pprof profile (docs/pprof.md): one location per sampled
 * wasm instruction (function local_func_N[:name], file the core, line the
 * offset in the function) and per host ip (the symbol and DSO perf names,
 * profile/host.h); one frame per sample until the profile has call stacks.
 * Values: the sample count, and the event's time or count where the
 * recording fixes its period (docs/pprof.md, "sample_type").
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pprof.h"
#include "report-export.h"
#include "../profile/host.h"
#include "../util/array.h"
#include "../util/outfile.h"

struct host_mapping {
	uint64_t start, end;
	uint32_t dso;
	uint64_t id;
};

struct pp_ctx {
	struct pprof *pp;
	const struct profile *p;
	int64_t period;			/* per sample of the second value; 0: count only */
	uint64_t *core_map;		/* pprof mapping per core (0: none) */
	struct host_mapping *hmaps;
	size_t nhmaps, cap_hmaps;
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

static int add(struct pp_ctx *c, uint64_t loc, uint64_t count, struct ap_err *err)
{
	int64_t v[2] = { (int64_t)count, (int64_t)count * c->period };

	return loc ? pprof__sample(c->pp, &loc, 1, v, err) : -1;
}

static int wasm_samples(struct pp_ctx *c, struct ap_err *err)
{
	const struct profile *p = c->p;
	const struct attr_hist *h = &p->hist;

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
	/* the histogram's keys are core << 40 | offset, plus one (attr/hist.h) */
	for (size_t k = 0; k < h->cap; k++) {
		uint64_t key = h->keys[k], off;
		const struct attr_core *ac;
		const struct cwasm_func *fn;
		uint32_t core;
		int64_t func;
		uint64_t fid;

		if (!key)
			continue;
		core = (uint32_t)((key - 1) >> 40);
		off = (key - 1) & ((1ull << 40) - 1);
		if (core >= p->attr.ncores)
			continue;
		ac = &p->attr.cores[core];
		func = cwasm__func_at(ac->mod, off);
		if (func < 0)
			continue;
		fn = &ac->mod->funcs[func];
		fid = pprof__wasm_function(c->pp, ac->mod->path, ac->mod->manifest_idx >= 0 ?
					   core_set__core_name(ac->mod) : NULL,
					   (uint32_t)func, fn->name, err);
		if (!fid || add(c, pprof__wasm_location(c->pp, c->core_map[core], fid,
							 ac->first_base + off,
							 (uint32_t)(off - fn->offset), err),
				h->counts[k], err))
			return -1;
	}
	return 0;
}

static uint64_t host_mapping(struct pp_ctx *c, const struct profile_host_frame *f,
			     struct ap_err *err)
{
	struct host_mapping m = { f->map_start, f->map_end, f->dso, 0 };

	if (f->map_end <= f->map_start)
		return 0;
	for (size_t i = c->nhmaps; i-- > 0;)
		if (c->hmaps[i].start == m.start && c->hmaps[i].end == m.end &&
		    c->hmaps[i].dso == m.dso)
			return c->hmaps[i].id;
	m.id = pprof__mapping(c->pp, m.start, m.end, f->pgoff, c->p->host->dsos[f->dso], NULL,
			      err);
	if (m.id && ap_push(&c->hmaps, &c->nhmaps, &c->cap_hmaps, &m, sizeof(m))) {
		ap_err_nomem(err);
		return 0;
	}
	return m.id;
}

static int host_samples(struct pp_ctx *c, struct ap_err *err)
{
	const struct profile *p = c->p;
	const struct profile_host *h = p->host;
	uint64_t rest = p->attr.total_samples - p->attr.attributed_samples;

	for (size_t i = 0; h && i < h->nframes; i++) {
		const struct profile_host_frame *f = &h->frames[i];
		uint64_t map = host_mapping(c, f, err);

		if (!map && f->map_end > f->map_start)
			return -1;
		if (add(c, pprof__host_location(c->pp, map, f->ip, f->sym, h->dsos[f->dso], err),
			f->samples, err))
			return -1;
		rest -= f->samples < rest ? f->samples : rest;
	}
	/* not named (no p->host): one frame, so the samples still add up */
	if (!h && rest)
		return add(c, pprof__host_location(c->pp, 0, 0, NULL, NULL, err), rest, err);
	return 0;
}

static struct pprof *build(const struct profile *p, struct ap_err *err)
{
	struct pp_ctx c = { .p = p };
	char note[512];
	int rc = -1;

	c.pp = pprof__new(err);
	c.core_map = calloc(p->attr.ncores + 1, sizeof(*c.core_map));
	if (!c.pp || !c.core_map) {
		if (c.pp)
			ap_err_nomem(err);
		goto out;
	}
	snprintf(note, sizeof(note), "aotperf report of %s%s%s", p->input ? p->input : "samples",
		 p->attr.have_event ? ", event " : "", p->attr.have_event ? p->attr.event_name : "");
	if (sample_types(&c, err) || pprof__add_comment(c.pp, note, err) ||
	    wasm_samples(&c, err) || host_samples(&c, err))
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

int render__report_pprof(FILE *f, const char *name, const struct profile *p,
			 const struct render_opts *o, struct ap_err *err)
{
	struct pprof *pp = build(p, err);
	int rc;

	(void)o;
	if (!pp)
		return -1;
	rc = pprof__fwrite(pp, f, name, err);
	pprof__delete(pp);
	return rc;
}

int render__report_pprof_file(const char *path, const struct profile *p,
			      const struct render_opts *o, struct ap_err *err)
{
	struct pprof *pp = build(p, err);
	int rc;

	(void)o;
	if (!pp)
		return -1;
	rc = pprof__write(pp, path, err);
	pprof__delete(pp);
	return rc;
}
