// SPDX-License-Identifier: MIT
/* A profile from perf.data (kept apart so the dlfilter links no perf.data reader). */
#include <stdlib.h>
#include "internal.h"

int profile__read(const char *perf_path, const struct core_set *cs,
		  const struct profile_opts *o, struct profile **out, struct ap_err *err)
{
	struct profile *p = profile__alloc(cs, PROFILE_RECORDS, o->pins, o->npins, err);
	struct attr_opts ao = {
		.pid = o->pid, .event = o->event, .require_size_match = o->require_size_match,
		.quiet = 1, .two_pass = o->two_pass,
	};
	struct stacks_reader *sr = NULL;
	struct attr_core *cores;

	*out = NULL;
	if (!p)
		return -1;
	p->input = perf_path;
	p->event = o->event;
	ao.hist = &p->hist;
	cores = p->attr.cores;
	if (o->stacks && !(sr = stacks_reader__new(p, &ao, err))) {
		profile__delete(p);
		return -1;
	}
	if (attr__run(perf_path, cores, cs->n, &ao, &p->attr, err)) {
		/* attr__run starts from an empty result: give it the cores back to free */
		p->attr.cores = cores;
		p->attr.ncores = cs->n;
		goto fail;
	}
	if ((sr && stacks_reader__end(sr, err)) || profile__finish(p, err))
		goto fail;
	stacks_reader__delete(sr);
	*out = p;
	return 0;
fail:
	stacks_reader__delete(sr);
	profile__delete(p);
	return -1;
}
