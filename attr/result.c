// SPDX-License-Identifier: MIT
/*
 * The attribution result, whoever filled it (attr__run from perf.data, or
 * a profile fed sample by sample): rankings and freeing. Kept apart from
 * attr.c so a reader that sees no perf.data links no perf.data reader.
 */
#include <stdlib.h>
#include <string.h>
#include "attr.h"

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
		free(res->cores[i].ranked);
		res->cores[i].ranked = NULL;
		res->cores[i].nranked = 0;
	}
	ap_warnings__exit(&res->warnings);
	free(res->mappings);
	free(res->event_name);
	memset(res, 0, sizeof(*res));
}
