/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_ATTR_SIZEGROUPS_H
#define AOTPERF_ATTR_SIZEGROUPS_H
/*
 * Cores grouped by page-rounded text length: a mapping of that length is a
 * candidate for each of them, taken in turn (the equal-size rule).
 */
#include <stdint.h>

struct size_group {
	uint64_t len;
	uint32_t ncores;
	int *cores; /* core indices in command-line order */
};

struct attr_core;

/* Add core to the group of len (made on first use); -1 when out of memory. */
int size_groups__add(struct size_group **groups, uint32_t *ngroups, uint64_t len, int core);
/* The groups of every unpinned core (a pinned core takes its pinned mapping only). */
int size_groups__of_cores(struct size_group **groups, uint32_t *ngroups,
			  const struct attr_core *cores, uint32_t ncores);
void size_groups__delete(struct size_group *groups, uint32_t ngroups);

#endif
