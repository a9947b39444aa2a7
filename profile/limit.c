// SPDX-License-Identifier: MIT
/* perf report --percent-limit on the function tables (see profile.h). */
#include "profile.h"

void profile__percent_limit(struct profile *p, double pct)
{
	uint64_t total = p->attr.total_samples;

	if (pct <= 0.0 || !total)
		return;
	/* ranked is hottest first: the rows under the limit are its tail */
	for (uint32_t i = 0; i < p->attr.ncores; i++) {
		struct attr_core *c = &p->attr.cores[i];

		while (c->nranked &&
		       100.0 * (double)c->ranked[c->nranked - 1].samples < pct * (double)total)
			c->nranked--;
	}
}
