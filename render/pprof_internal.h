/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_RENDER_PPROF_INTERNAL_H
#define AOTPERF_RENDER_PPROF_INTERNAL_H
/* The builder's tables, shared by pprof.c (building) and pprof_encode.c. */
#include <stddef.h>
#include <stdint.h>

/* An open-addressing index: slots hold element index + 1, 0 is empty. */
struct pprof_index {
	uint32_t *slot;
	uint64_t *hash;
	size_t cap;	/* power of two, or 0 */
	size_t n;
};

struct pprof_value_type {
	int64_t type, unit;	/* string indices */
};

struct pprof_mapping {
	uint64_t start, limit, file_offset;
	int64_t filename, build_id;
};

struct pprof_function {
	int64_t name, system_name, filename, start_line;
};

struct pprof_location {
	uint64_t mapping_id, address, function_id;
	int64_t line;
};

struct pprof_sample {
	size_t stack;		/* first location id in pprof.stacks */
	uint32_t nlocs;
	size_t values;		/* first value in pprof.values */
};

#define PPROF_VEC(T) struct { T *v; size_t n, cap; }

struct pprof {
	PPROF_VEC(char *) strings;
	struct pprof_index string_ix;
	PPROF_VEC(struct pprof_value_type) sample_types;
	struct pprof_value_type period_type;
	int64_t period, time_nanos, duration_nanos, default_sample_type;
	PPROF_VEC(int64_t) comments;
	PPROF_VEC(struct pprof_mapping) mappings;
	PPROF_VEC(struct pprof_function) functions;
	struct pprof_index function_ix;
	PPROF_VEC(struct pprof_location) locations;
	struct pprof_index location_ix;
	PPROF_VEC(struct pprof_sample) samples;
	struct pprof_index sample_ix;
	PPROF_VEC(uint64_t) stacks;	/* location ids of all samples, back to back */
	PPROF_VEC(int64_t) values;	/* sample_types.n values per sample */
};

#endif
