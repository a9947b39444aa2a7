// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include "attr.h"

static int rank_cmp(const void *a, const void *b)
{
	const struct attr_ranked *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return x->func < y->func ? -1 : x->func > y->func;
}

struct attr_ranked *attr__rank(const uint64_t *func_samples, uint32_t nfuncs, uint32_t *n)
{
	struct attr_ranked *r = malloc(((size_t)nfuncs + 1) * sizeof(*r));
	uint32_t k = 0;

	if (!r)
		return NULL;
	for (uint32_t i = 0; i < nfuncs; i++)
		if (func_samples[i])
			r[k++] = (struct attr_ranked){ i, func_samples[i] };
	qsort(r, k, sizeof(*r), rank_cmp);
	*n = k;
	return r;
}
