// SPDX-License-Identifier: MIT
/* A profile from perf.data (kept apart so the dlfilter links no perf.data reader). */
#include <stdlib.h>
#include "host.h"
#include "internal.h"

int profile__read(const char *perf_path, const struct core_set *cs,
		  const struct profile_opts *o, struct profile **out, struct ap_err *err)
{
	struct profile *p = profile__alloc(cs, PROFILE_RECORDS, o->pins, o->npins, err);
	struct attr_opts ao = {
		.pid = o->pid, .event = o->event, .require_size_match = o->require_size_match,
		.quiet = 1, .two_pass = o->two_pass, .progress = o->progress,
	};
	struct attr_core *cores;

	*out = NULL;
	if (!p)
		return -1;
	p->input = perf_path;
	p->event = o->event;
	ao.hist = &p->hist;
	if (o->host) {
		p->host = calloc(1, sizeof(*p->host));
		if (!p->host) {
			profile__delete(p);
			return ap_err_nomem(err);
		}
		ao.on_map = profile_host__map;
		ao.on_other = profile_host__sample;
		ao.other_ctx = p->host;
	}
	cores = p->attr.cores;
	if (attr__run(perf_path, cores, cs->n, &ao, &p->attr, err)) {
		/* attr__run starts from an empty result: give it the cores back to free */
		p->attr.cores = cores;
		p->attr.ncores = cs->n;
		profile__delete(p);
		return -1;
	}
	if (p->host && (profile_host__finish(p->host, err) || profile_host__symbols(p->host, err))) {
		profile__delete(p);
		return -1;
	}
	if (profile__finish(p, err)) {
		profile__delete(p);
		return -1;
	}
	*out = p;
	return 0;
}
