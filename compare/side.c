// SPDX-License-Identifier: MIT
/* A side's recordings summed (side.h). */
#include "side.h"

uint64_t cmp_side__total(const struct cmp_side *s)
{
	uint64_t n = 0;

	for (uint32_t k = 0; k < s->ncaptures; k++)
		n += s->captures[k].total;
	return n;
}

uint64_t cmp_side__func_samples(const struct cmp_side *s, uint32_t c, uint32_t f)
{
	uint64_t n = 0;

	if (c >= s->ncores || f >= s->mods[c]->nfuncs)
		return 0;
	for (uint32_t k = 0; k < s->ncaptures; k++)
		n += s->captures[k].self[c][f];
	return n;
}

int cmp_side__hottest(const struct cmp_side *s, struct core_func *out)
{
	uint64_t best = 0;

	for (uint32_t c = 0; c < s->ncores; c++)
		for (uint32_t f = 0; f < s->mods[c]->nfuncs; f++) {
			uint64_t n = cmp_side__func_samples(s, c, f);

			if (n > best) {
				best = n;
				*out = (struct core_func){ c, f };
			}
		}
	return best ? 0 : -1;
}
