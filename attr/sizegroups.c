// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>
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

void size_groups__delete(struct size_group *groups, uint32_t ngroups)
{
	for (uint32_t i = 0; i < ngroups; i++)
		free(groups[i].cores);
	free(groups);
}
