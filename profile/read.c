// SPDX-License-Identifier: MIT
/*
 * A profile from perf.data (kept apart so the dlfilter links no perf.data
 * reader): the attribution, and through attr's hooks (attr/attr.h) the
 * call stacks (stacks_read.c) and the samples outside wasm (host.h). Both
 * name host frames from one mapping timeline (hostmaps.h) and one symbol
 * reader (hostsyms.h), owned here for the read.
 */
#include <stdlib.h>
#include <string.h>
#include "host.h"
#include "hostmaps.h"
#include "hostsyms.h"
#include "internal.h"
#include "offcpu_read.h"
#include "sorted.h"

struct reader {
	struct profile *p;
	struct hostmaps *maps;
	struct hostsyms *syms;
	struct stacks_reader *sr;	/* NULL: no stacks */
	struct offcpu_reader *oc;	/* NULL: no off-CPU view */
	char *on_event;			/* the off-CPU view's on-CPU event */
	int offcpu_opt;			/* enum profile_offcpu_opt, for a pipe's on_begin */
	struct sample_filter *filter;	/* the threads' commands, for p->sorted */
	int failed;			/* out of memory in a hook */
};

/* A sample outside wasm into p->host: its frame's index, or -1 when out of memory. */
static int64_t host_sample(struct reader *r, const struct pd_sample *s, uint64_t t)
{
	int kernel = s->cpumode == PERF_RECORD_MISC_KERNEL ||
		     s->cpumode == PERF_RECORD_MISC_GUEST_KERNEL;
	const struct hostmap *m = s->has_ip ?
				  hostmaps__find(r->maps, s->sid.pid, kernel, s->ip, t) : NULL;
	struct profile_host_map pm = { 0 };
	const char *dso, *sym = NULL;

	if (m) {
		if (hostsyms__find(r->syms, m, s->ip, &sym))
			return -1;
		dso = hostmaps__dso(r->maps, m->dso);
		pm = (struct profile_host_map){ m->start, m->end, m->pgoff };
	} else {
		dso = kernel && s->has_ip ? "[kernel.kallsyms]" : "[unknown]";
	}
	return profile_host__add(r->p->host, dso, kernel, s->has_ip ? s->ip : 0, m ? &pm : NULL,
				 sym);
}

static void on_sample(void *ctx, const struct pd_sample *s, int core, uint32_t func,
		      uint64_t text_off, struct attr_lookup *lk)
{
	struct reader *r = ctx;
	int64_t frame = -1;

	if (r->failed)
		return;
	if (r->oc)
		offcpu_reader__sample(r->oc, s, core, func, lk);
	if (r->p->host && core < 0 && (frame = host_sample(r, s, attr_lookup__time(lk))) < 0) {
		r->failed = 1;
		return;
	}
	if (r->sr)
		stacks_reader__sample(r->sr, s, core, text_off, frame, lk);
	if (r->p->sorted && profile_sorted__add(r->p->sorted, core, func, frame, &s->sid,
						 sample_filter__comm(r->filter, &s->sid)))
		r->failed = 1;
}

static int on_map(void *ctx, const struct attr_map_event *m)
{
	struct reader *r = ctx;

	return hostmaps__add(r->maps, m);
}

static void on_restart(void *ctx)
{
	struct reader *r = ctx;

	hostmaps__reset(r->maps);
	if (r->p->host)
		profile_host__reset(r->p->host);
	if (r->sr)
		stacks_reader__restart(r->sr);
	if (r->oc)
		offcpu_reader__restart(r->oc);
	if (r->p->sorted)
		profile_sorted__reset(r->p->sorted);
}

static void on_other(void *ctx, const struct pd_event *ev, struct attr_lookup *lk)
{
	struct reader *r = ctx;

	if (r->oc)	/* a pipe without off-CPU data has none */
		offcpu_reader__other(r->oc, ev, lk);
}

static int no_offcpu(const char *path, struct ap_err *err)
{
	return ap_errf(err, "%s: --off-cpu: no context switches or offcpu-time samples in"
		       " it (record with 'aotperf record --off-cpu')", path);
}

/*
 * Standard input's attrs and tracing data are known (a pipe's header
 * records are read): the off-CPU view when it has the data, its on-CPU
 * event the one selected (as offcpu__probe does for a named file).
 */
static int on_begin(void *ctx, struct perfdata *pd, const char **event, struct ap_err *err)
{
	struct reader *r = ctx;
	int yes = offcpu_reader__begin(r->p, pd, r->maps, r->syms, &r->oc, err);

	if (yes < 0)
		return -1;
	if (!yes && r->offcpu_opt == PROFILE_OFFCPU_YES)
		return no_offcpu(r->p->input, err);
	if (yes)
		*event = offcpu_reader__on_event(r->oc);
	return 0;
}

/*
 * Does the recording carry call stacks (a callchain, or user registers and
 * stack)? A file's attrs say; a pipe's come with the stream: yes, and the
 * stacks are dropped at the end when no sample had any.
 */
static int records_stacks(const char *path)
{
	struct perfdata *pd;
	struct ap_err err;
	int yes = 0;

	if (!strcmp(path, "-") || perfdata__open(path, 0, &pd, &err))
		return 1;	/* a file that cannot be read fails in the read itself */
	for (size_t i = 0; i < perfdata__nevsels(pd) && !yes; i++)
		yes = !!(perfdata__evsel(pd, i)->attr.sample_type &
			 (PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_STACK_USER));
	perfdata__close(pd);
	return yes;
}

static void reader_exit(struct reader *r)
{
	offcpu_reader__delete(r->oc);
	free(r->on_event);
	stacks_reader__delete(r->sr);
	hostsyms__delete(r->syms);
	hostmaps__delete(r->maps);
}

/* The hooks for o's stacks and host frames, when asked. 0, or -1 with err. */
static int reader_init(struct reader *r, struct profile *p, const char *perf_path,
		       const struct profile_opts *o, struct attr_opts *ao, struct ap_err *err)
{
	int stacks = o->stacks == PROFILE_STACKS_YES ||
		     (o->stacks == PROFILE_STACKS_RECORDED && records_stacks(perf_path));
	/* stdin is read once (a pipe, or a file): the read's on_begin decides */
	int in_stream = o->offcpu != PROFILE_OFFCPU_NO && !strcmp(perf_path, "-");
	int offcpu = 0;

	memset(r, 0, sizeof(*r));
	r->p = p;
	r->offcpu_opt = o->offcpu;
	if (o->offcpu != PROFILE_OFFCPU_NO && !in_stream &&
	    (offcpu = offcpu__probe(perf_path, &r->on_event, err)) < 0)
		return -1;
	if (o->offcpu == PROFILE_OFFCPU_YES && !offcpu && !in_stream)
		return no_offcpu(perf_path, err);
	if (offcpu && !o->event && r->on_event)
		ao->event = r->on_event;
	if (!stacks && !o->host && !offcpu && !in_stream && !o->sorted)
		return 0;
	r->filter = o->filter;
	if (o->sorted && !(p->sorted = calloc(1, sizeof(*p->sorted))))
		return ap_err_nomem(err);
	r->maps = hostmaps__new();
	r->syms = r->maps ? hostsyms__new(r->maps) : NULL;
	if (o->host)
		p->host = calloc(1, sizeof(*p->host));
	if (!r->syms || (o->host && !p->host))
		return ap_err_nomem(err);
	if (stacks && !(r->sr = stacks_reader__new(p, r->maps, r->syms, o->host, err)))
		return -1;
	if (offcpu && !(r->oc = offcpu_reader__new(p, perf_path, r->maps, r->syms, err)))
		return -1;
	if (offcpu || in_stream)
		ao->on_other = on_other;
	if (in_stream)
		ao->on_begin = on_begin;
	ao->on_sample = on_sample;
	ao->on_map = on_map;
	ao->on_restart = on_restart;
	ao->ctx = r;
	return 0;
}

int profile__read(const char *perf_path, const struct core_set *cs,
		  const struct profile_opts *o, struct profile **out, struct ap_err *err)
{
	struct profile *p = profile__alloc(cs, PROFILE_RECORDS, o->pins, o->npins, err);
	struct attr_opts ao = {
		.pid = o->pid, .filter = o->filter, .event = o->event, .require_size_match = o->require_size_match,
		.quiet = 1, .two_pass = o->two_pass, .progress = o->progress,
	};
	struct attr_hist rets = { 0 };	/* -g return addresses, for the consistency check */
	struct attr_core *cores;
	struct reader r;

	*out = NULL;
	if (!p)
		return -1;
	p->input = perf_path;
	p->event = o->event;
	ao.hist = &p->hist;
	ao.ret_hist = &rets;
	cores = p->attr.cores;
	if (reader_init(&r, p, perf_path, o, &ao, err))
		goto fail;
	if (r.sr)	/* where dwarf stacks are unwound, their return addresses are checked too */
		stacks_reader__set_returns(r.sr, &rets);
	if (attr__run(perf_path, cores, cs->n, &ao, &p->attr, err)) {
		/* attr__run starts from an empty result: give it the cores back to free */
		p->attr.cores = cores;
		p->attr.ncores = cs->n;
		goto fail;
	}
	if (r.failed) {
		ap_err_nomem(err);
		goto fail;
	}
	if ((r.sr && stacks_reader__end(r.sr, err)) || (r.oc && offcpu_reader__end(r.oc, err)) ||
	    profile__check_consistency(p, &rets, err) ||
	    profile__finish(p, err))
		goto fail;
	if (p->offcpu && !p->event)
		p->event = p->offcpu->on_event;
	if (p->stacks && p->stacks->mode == STACKS_NONE && o->stacks == PROFILE_STACKS_RECORDED) {
		stacks__delete(p->stacks);
		p->stacks = NULL;
	}
	reader_exit(&r);
	attr_hist__exit(&rets);
	*out = p;
	return 0;
fail:
	reader_exit(&r);
	attr_hist__exit(&rets);
	profile__delete(p);
	return -1;
}
