// SPDX-License-Identifier: MIT
/*
 * The attribution result, whoever filled it (attr__run from perf.data, or
 * a profile fed sample by sample): rankings and freeing. Kept apart from
 * attr.c so a reader that sees no perf.data links no perf.data reader.
 */
#include <stdlib.h>
#include <string.h>
#include "attr.h"
#include "../util/array.h"

int attr__rank_cores(struct attr_result *res)
{
	for (uint32_t i = 0; i < res->ncores; i++) {
		struct attr_core *c = &res->cores[i];

		free(c->ranked);
		c->ranked = attr__rank(c->func_samples, c->mod->nfuncs, &c->nranked);
		if (!c->ranked)
			return -1;
	}
	return 0;
}

void attr_result__exit(struct attr_result *res)
{
	for (uint32_t i = 0; i < res->ncores; i++) {
		free(res->cores[i].func_samples);
		res->cores[i].func_samples = NULL;
		free(res->cores[i].func_period);
		res->cores[i].func_period = NULL;
		free(res->cores[i].ranked);
		res->cores[i].ranked = NULL;
		res->cores[i].nranked = 0;
	}
	ap_warnings__exit(&res->warnings);
	free(res->mappings);
	free(res->event_name);
	free(res->anon);
	attr_comms__exit(&res->comms);
	memset(res, 0, sizeof(*res));
}

int attr_spans__add(struct attr_span **v, uint32_t *n, size_t *cap, uint64_t start,
		    uint64_t len)
{
	/* newest first: a remapped core is usually the last one seen */
	for (uint32_t i = *n; i-- > 0;)
		if ((*v)[i].start == start && (*v)[i].len == len)
			return 0;
	if (ap_grow(v, cap, (size_t)*n + 1, sizeof(**v)))
		return -1;
	(*v)[(*n)++] = (struct attr_span){ start, len };
	return 0;
}

void attr_scan__exit(struct attr_scan *s)
{
	free(s->anon);
	memset(s, 0, sizeof(*s));
}
