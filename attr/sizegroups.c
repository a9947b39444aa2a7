// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>
#include "attr.h"
#include "sizegroups.h"

int size_groups__add(struct size_group **groups, uint32_t *ngroups, uint64_t len, int core)
{
	struct size_group *g = NULL;
	int *cores;

	for (uint32_t i = 0; i < *ngroups; i++)
		if ((*groups)[i].len == len)
			g = &(*groups)[i];
	if (!g) {
		struct size_group *grown = realloc(*groups, (*ngroups + 1) * sizeof(*grown));

		if (!grown)
			return -1;
		*groups = grown;
		g = &grown[(*ngroups)++];
		memset(g, 0, sizeof(*g));
		g->len = len;
	}
	cores = realloc(g->cores, (g->ncores + 1) * sizeof(*cores));
	if (!cores)
		return -1;
	g->cores = cores;
	cores[g->ncores++] = core;
	return 0;
}

int size_groups__of_cores(struct size_group **groups, uint32_t *ngroups,
			  const struct attr_core *cores, uint32_t ncores)
{
	for (uint32_t i = 0; i < ncores; i++) {
		uint64_t len = attr__page_round(cores[i].mod->text_size);

		/* no mapping is empty: a core without text is never a candidate */
		if (cores[i].base_override || !len)
			continue;
		if (size_groups__add(groups, ngroups, len, (int)i))
			return -1;
	}
	return 0;
}

void size_groups__delete(struct size_group *groups, uint32_t ngroups)
{
	for (uint32_t i = 0; i < ngroups; i++)
		free(groups[i].cores);
	free(groups);
}

uint64_t attr__page_round(uint64_t len)
{
	const uint64_t page = 4096;

	return (len + page - 1) & ~(page - 1);
}

uint32_t attr__sharing(const struct attr_core *cores, uint32_t ncores, uint32_t i)
{
	uint64_t want = attr__page_round(cores[i].mod->text_size);
	uint32_t n = 0;

	for (uint32_t k = 0; k < ncores; k++)
		if (!cores[k].base_override && attr__page_round(cores[k].mod->text_size) == want)
			n++;
	return n;
}
