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

/* One profile's reading: attribution, and the stacks, host rows and off-CPU view it feeds. */
struct reader {
	struct profile *p;
	struct session *s;
	struct attr_opts ao;
	struct attr_reader *ar;
	struct attr_hist rets;		/* -g return addresses, for the consistency check */
	struct hostmaps *maps;
	struct hostsyms *syms;
	struct stacks_reader *sr;	/* NULL: no stacks */
	struct offcpu_reader *oc;	/* NULL: no off-CPU view */
	char *on_event;			/* the off-CPU view's on-CPU event */
	int offcpu_opt;			/* enum profile_offcpu_opt, for a pipe's on_begin */
	int stacks_opt;			/* enum profile_stacks_opt */
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

	/* the mapping timeline stands: attr/attr.h feeds each record once */
	if (r->p->host)
		profile_host__reset(r->p->host);
	if (r->sr)
		stacks_reader__restart(r->sr);
	if (r->oc) {
		offcpu_reader__restart(r->oc);
		session__drop_switches(r->s, 0);
	}
	if (r->p->sorted)
		profile_sorted__reset(r->p->sorted);
}

static void on_other(void *ctx, const struct pd_event *ev, struct attr_lookup *lk)
{
	struct reader *r = ctx;

	if (r->oc)	/* a pipe without off-CPU data has none */
		offcpu_reader__other(r->oc, ev, lk);
}

/*
 * A context switch straight from the reader (session__set_switch_fn). In a
 * pass the attribution will read again the switches are skipped unread,
 * until on_restart.
 */
static void on_switch(void *ctx, const struct pd_switch *sw, size_t n)
{
	struct reader *r = ctx;

	if (attr_reader__dropping(r->ar))
		session__drop_switches(r->s, 1);
	else
		offcpu_reader__switches(r->oc, sw, n);
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
	int yes = offcpu_reader__begin(r->p, r->s, r->maps, r->syms, &r->oc, err);

	(void)pd;
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
 * stack)? A file's attrs say; standard input's come with the stream: yes,
 * and the stacks are dropped at the end when no sample had any.
 */
static int records_stacks(struct session *s)
{
	struct perfdata *pd = session__data(s);
	int yes = 0;

	if (session__stdin(s))
		return 1;
	for (size_t i = 0; i < perfdata__nevsels(pd) && !yes; i++)
		yes = !!(perfdata__evsel(pd, i)->attr.sample_type &
			 (PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_STACK_USER));
	return yes;
}

static void reader_exit(struct reader *r)
{
	attr_reader__delete(r->ar);
	attr_hist__exit(&r->rets);
	offcpu_reader__delete(r->oc);
	free(r->on_event);
	stacks_reader__delete(r->sr);
	hostsyms__delete(r->syms);
	hostmaps__delete(r->maps);
	profile__delete(r->p);
	memset(r, 0, sizeof(*r));
}

/* The hooks for o's stacks, host frames and off-CPU view, when asked. 0, or -1 with err. */
static int reader_hooks(struct reader *r, const struct profile_opts *o, struct ap_err *err)
{
	struct profile *p = r->p;
	struct attr_opts *ao = &r->ao;
	int stacks = o->stacks == PROFILE_STACKS_YES ||
		     (o->stacks == PROFILE_STACKS_RECORDED && records_stacks(r->s));
	/* stdin is read once (a pipe, or a file): the read's on_begin decides */
	int in_stream = o->offcpu != PROFILE_OFFCPU_NO && session__stdin(r->s);
	int offcpu = 0;

	if (o->offcpu != PROFILE_OFFCPU_NO && !in_stream &&
	    (offcpu = offcpu__probe(r->s, &r->on_event, err)) < 0)
		return -1;
	if (o->offcpu == PROFILE_OFFCPU_YES && !offcpu && !in_stream)
		return no_offcpu(p->input, err);
	if (offcpu && !ao->event && r->on_event)
		ao->event = r->on_event;
	if (!stacks && !o->host && !offcpu && !in_stream && !o->sorted)
		return 0;
	r->filter = o->filter;
	if (o->sorted && !(p->sorted = calloc(1, sizeof(*p->sorted))))
		return ap_err_nomem(err);
	r->maps = hostmaps__new();
	r->syms = r->maps ? hostsyms__new(r->maps) : NULL;
	if (r->syms)
		hostsyms__set_recording(r->syms, session__data(r->s));
	if (o->host)
		p->host = calloc(1, sizeof(*p->host));
	if (!r->syms || (o->host && !p->host))
		return ap_err_nomem(err);
	if (stacks && !(r->sr = stacks_reader__new(p, r->maps, r->syms, o->host, err)))
		return -1;
	if (offcpu && !(r->oc = offcpu_reader__new(p, r->s, r->maps, r->syms, err)))
		return -1;
	if (offcpu || in_stream)
		ao->on_other = on_other;
	if (in_stream)
		ao->on_begin = on_begin;
	/* what the stacks and the off-CPU view read of a sample (session.h) */
	ao->needs = (stacks ? SESSION_NEED_CALLCHAIN | SESSION_NEED_STACK : 0) |
		    (offcpu || in_stream ? SESSION_NEED_CALLCHAIN | SESSION_NEED_RAW : 0);
	ao->on_sample = on_sample;
	ao->on_map = on_map;
	ao->on_restart = on_restart;
	ao->ctx = r;
	return 0;
}

/* One event's reading set up, its tool ready for the session. 0, or -1 with err. */
static int reader_init(struct reader *r, struct session *s, const struct core_set *cs,
		       const struct profile_opts *o, const char *event, struct ap_err *err)
{
	struct profile *p;

	memset(r, 0, sizeof(*r));
	r->s = s;
	r->offcpu_opt = o->offcpu;
	r->stacks_opt = o->stacks;
	r->ao = (struct attr_opts){
		.pid = o->pid, .filter = o->filter, .event = event,
		.require_size_match = o->require_size_match, .quiet = 1, .two_pass = o->two_pass,
	};
	p = r->p = profile__alloc(cs, PROFILE_RECORDS, o->pins, o->npins, err);
	if (!p)
		return -1;
	p->input = strdup(session__path(s));
	if (!p->input)
		return ap_err_nomem(err);
	p->event = event;
	if (!perfdata__feature_string(session__data(s), PD_FEAT_CPUID, p->cpuid, sizeof(p->cpuid)))
		perfdata__feature_string(session__data(s), PD_FEAT_CPUDESC, p->cpudesc,
					 sizeof(p->cpudesc));
	r->ao.hist = &p->hist;
	r->ao.ret_hist = &r->rets;
	if (reader_hooks(r, o, err))
		return -1;
	if (r->sr)	/* where dwarf stacks are unwound, their return addresses are checked too */
		stacks_reader__set_returns(r->sr, &r->rets);
	return attr_reader__new(s, p->attr.cores, cs->n, &r->ao, &p->attr, &r->ar, err);
}

/* After the session's passes: the profile finished, or -1 with err. */
static int reader_finish(struct reader *r, struct ap_err *err)
{
	struct profile *p = r->p;

	if (attr_reader__finish(r->ar, err))
		return -1;
	if (r->failed)
		return ap_err_nomem(err);
	if ((r->sr && stacks_reader__end(r->sr, err)) || (r->oc && offcpu_reader__end(r->oc, err)) ||
	    profile__check_consistency(p, &r->rets, err) ||
	    profile__finish(p, err))
		return -1;
	if (p->offcpu && !p->event)
		p->event = p->offcpu->on_event;
	if (p->stacks && p->stacks->mode == STACKS_NONE && r->stacks_opt == PROFILE_STACKS_RECORDED) {
		stacks__delete(p->stacks);
		p->stacks = NULL;
	}
	return 0;
}

int profile__read_events(struct session *s, const struct core_set *cs,
			 const struct profile_opts *o, const char *const *events, uint32_t n,
			 struct profile **out, struct ap_err *errs, struct ap_err *err)
{
	struct reader *rd = calloc(n ? n : 1, sizeof(*rd));
	struct session_tool **tools = calloc(n + o->ntools + 1, sizeof(*tools));
	uint32_t ntools = 0;
	int ret = 0;

	for (uint32_t i = 0; i < n; i++)
		out[i] = NULL;
	if (!rd || !tools) {
		free(rd);
		free(tools);
		return ap_err_nomem(err);
	}
	for (uint32_t i = 0; i < n; i++) {
		memset(&errs[i], 0, sizeof(errs[i]));
		if (reader_init(&rd[i], s, cs, o, events ? events[i] : o->event, &errs[i]))
			reader_exit(&rd[i]);
		else
			tools[ntools++] = attr_reader__tool(rd[i].ar);
	}
	for (uint32_t i = 0; ntools && i < o->ntools; i++)
		tools[ntools++] = o->tools[i];	/* only along a reading */
	/*
	 * The context switches straight to the off-CPU view when the
	 * attribution would only pass them on to it: one event, no process
	 * or thread filter, no pass of mappings alone (whose switches would
	 * count twice); not in a pass the attribution will read again.
	 */
	if (n == 1 && rd[0].oc && offcpu_reader__takes_switches(rd[0].oc) && o->pid < 0 &&
	    !o->filter && !o->two_pass)
		session__set_switch_fn(s, on_switch, &rd[0]);
	session__set_progress(s, o->progress);
	if (ntools && session__process(s, tools, ntools, err))
		ret = -1;
	session__set_progress(s, NULL);
	session__set_switch_fn(s, NULL, NULL);
	for (uint32_t i = 0; i < n; i++) {
		if (!rd[i].p)
			continue;	/* failed before the read: errs[i] says why */
		if (!ret && !reader_finish(&rd[i], &errs[i])) {
			out[i] = rd[i].p;
			rd[i].p = NULL;
		}
		reader_exit(&rd[i]);
	}
	free(rd);
	free(tools);
	return ret;
}

int profile__read(struct session *s, const struct core_set *cs, const struct profile_opts *o,
		  struct profile **out, struct ap_err *err)
{
	struct ap_err one = { 0 };

	if (profile__read_events(s, cs, o, NULL, 1, out, &one, err))
		return -1;
	if (!*out)
		*err = one;
	return *out ? 0 : -1;
}
