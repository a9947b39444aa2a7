// SPDX-License-Identifier: MIT
/*
 * The pprof builder: interned strings, functions, locations and stacks
 * (render/pprof.h). Encoding and compression are in pprof_encode.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pprof.h"
#include "pprof_internal.h"
#include "../cwasm/cwasm.h"

/* Grow a PPROF_VEC to hold one more element; 0 or -1. */
#define VEC_RESERVE(vec, extra)                                                    \
	vec_reserve((void **)&(vec).v, &(vec).cap, (vec).n + (extra), sizeof(*(vec).v))

static int vec_reserve(void **v, size_t *cap, size_t need, size_t elem)
{
	size_t ncap;
	void *nv;

	if (need <= *cap)
		return 0;
	ncap = *cap ? *cap : 16;
	while (ncap < need)
		ncap *= 2;
	nv = realloc(*v, ncap * elem);
	if (!nv)
		return -1;
	*v = nv;
	*cap = ncap;
	return 0;
}

/* FNV-1a, then a final mix so the low bits index well. */
static uint64_t hash_bytes(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

static uint64_t hash_mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return h;
}

#define HASH_SEED 0xcbf29ce484222325ull

typedef int (*index_eq_fn)(const struct pprof *p, uint32_t idx, const void *key);

/* Index of the element equal to key, or -1; *slot_out: where to insert it. */
static int64_t index_find(const struct pprof *p, const struct pprof_index *ix, uint64_t h,
			  index_eq_fn eq, const void *key, size_t *slot_out)
{
	size_t mask, i;

	if (!ix->cap)
		return -1;
	mask = ix->cap - 1;
	for (i = h & mask;; i = (i + 1) & mask) {
		uint32_t s = ix->slot[i];

		if (!s) {
			*slot_out = i;
			return -1;
		}
		if (ix->hash[i] == h && eq(p, s - 1, key))
			return s - 1;
	}
}

/* Insert element idx with hash h; grows the index (keeping load under 1/2). */
static int index_insert(struct pprof_index *ix, uint64_t h, uint32_t idx)
{
	size_t mask, i;

	if ((ix->n + 1) * 2 > ix->cap) {
		size_t ncap = ix->cap ? ix->cap * 2 : 64;
		uint32_t *ns = calloc(ncap, sizeof(*ns));
		uint64_t *nh = calloc(ncap, sizeof(*nh));

		if (!ns || !nh) {
			free(ns);
			free(nh);
			return -1;
		}
		for (size_t k = 0; k < ix->cap; k++) {
			if (!ix->slot[k])
				continue;
			for (i = ix->hash[k] & (ncap - 1); ns[i]; i = (i + 1) & (ncap - 1))
				;
			ns[i] = ix->slot[k];
			nh[i] = ix->hash[k];
		}
		free(ix->slot);
		free(ix->hash);
		ix->slot = ns;
		ix->hash = nh;
		ix->cap = ncap;
	}
	mask = ix->cap - 1;
	for (i = h & mask; ix->slot[i]; i = (i + 1) & mask)
		;
	ix->slot[i] = idx + 1;
	ix->hash[i] = h;
	ix->n++;
	return 0;
}

static void index_exit(struct pprof_index *ix)
{
	free(ix->slot);
	free(ix->hash);
	memset(ix, 0, sizeof(*ix));
}

/* ---- strings ---- */

static int string_eq(const struct pprof *p, uint32_t idx, const void *key)
{
	return strcmp(p->strings.v[idx], key) == 0;
}

/* The string's index in the table, added when new; -1 on out of memory. */
static int64_t string_id(struct pprof *p, const char *s)
{
	uint64_t h;
	size_t slot = 0;
	int64_t found;
	char *copy;

	if (!s)
		s = "";
	h = hash_mix(hash_bytes(HASH_SEED, s, strlen(s)));
	found = index_find(p, &p->string_ix, h, string_eq, s, &slot);
	if (found >= 0)
		return found;
	if (VEC_RESERVE(p->strings, 1) || !(copy = strdup(s)))
		return -1;
	if (index_insert(&p->string_ix, h, (uint32_t)p->strings.n)) {
		free(copy);
		return -1;
	}
	p->strings.v[p->strings.n++] = copy;
	return (int64_t)p->strings.n - 1;
}

struct pprof *pprof__new(struct ap_err *err)
{
	struct pprof *p = calloc(1, sizeof(*p));

	/* string_table[0] must be "" */
	if (!p || string_id(p, "") != 0) {
		pprof__delete(p);
		ap_err_nomem(err);
		return NULL;
	}
	return p;
}

void pprof__delete(struct pprof *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->strings.n; i++)
		free(p->strings.v[i]);
	free(p->strings.v);
	index_exit(&p->string_ix);
	free(p->sample_types.v);
	free(p->comments.v);
	free(p->mappings.v);
	free(p->functions.v);
	index_exit(&p->function_ix);
	free(p->locations.v);
	index_exit(&p->location_ix);
	free(p->samples.v);
	index_exit(&p->sample_ix);
	free(p->stacks.v);
	free(p->values.v);
	free(p);
}

int pprof__add_sample_type(struct pprof *p, const char *type, const char *unit,
			   struct ap_err *err)
{
	int64_t t, u;

	if (p->samples.n)
		return ap_errf(err, "pprof: sample type %s added after the first sample", type);
	t = string_id(p, type);
	u = string_id(p, unit);
	if (t < 0 || u < 0 || VEC_RESERVE(p->sample_types, 1))
		return ap_err_nomem(err);
	p->sample_types.v[p->sample_types.n++] = (struct pprof_value_type){ t, u };
	return 0;
}

int pprof__set_period(struct pprof *p, const char *type, const char *unit, int64_t period,
		      struct ap_err *err)
{
	int64_t t = string_id(p, type), u = string_id(p, unit);

	if (t < 0 || u < 0)
		return ap_err_nomem(err);
	p->period_type = (struct pprof_value_type){ t, u };
	p->period = period;
	return 0;
}

void pprof__set_time(struct pprof *p, int64_t time_nanos, int64_t duration_nanos)
{
	p->time_nanos = time_nanos;
	p->duration_nanos = duration_nanos;
}

int pprof__set_default_sample_type(struct pprof *p, const char *type, struct ap_err *err)
{
	int64_t t = string_id(p, type);

	if (t < 0)
		return ap_err_nomem(err);
	p->default_sample_type = t;
	return 0;
}

int pprof__add_comment(struct pprof *p, const char *text, struct ap_err *err)
{
	int64_t t = string_id(p, text);

	if (t < 0 || VEC_RESERVE(p->comments, 1))
		return ap_err_nomem(err);
	p->comments.v[p->comments.n++] = t;
	return 0;
}

/* ---- mappings, functions, locations ---- */

uint64_t pprof__mapping(struct pprof *p, uint64_t start, uint64_t limit, uint64_t file_offset,
			const char *filename, const char *build_id, struct ap_err *err)
{
	int64_t f = string_id(p, filename), b = string_id(p, build_id);

	if (limit < start) {
		ap_errf(err, "pprof: mapping %s ends before it starts", filename ? filename : "");
		return 0;
	}
	if (f < 0 || b < 0 || VEC_RESERVE(p->mappings, 1)) {
		ap_err_nomem(err);
		return 0;
	}
	p->mappings.v[p->mappings.n++] = (struct pprof_mapping){ start, limit, file_offset, f, b };
	return p->mappings.n;
}

static int function_eq(const struct pprof *p, uint32_t idx, const void *key)
{
	return memcmp(&p->functions.v[idx], key, sizeof(struct pprof_function)) == 0;
}

uint64_t pprof__function(struct pprof *p, const char *name, const char *system_name,
			 const char *filename, int64_t start_line, struct ap_err *err)
{
	struct pprof_function fn;
	size_t slot = 0;
	int64_t found;
	uint64_t h;

	memset(&fn, 0, sizeof(fn));
	fn.name = string_id(p, name);
	fn.system_name = string_id(p, system_name ? system_name : name);
	fn.filename = string_id(p, filename);
	fn.start_line = start_line;
	if (fn.name < 0 || fn.system_name < 0 || fn.filename < 0)
		goto nomem;
	h = hash_mix(hash_bytes(HASH_SEED, &fn, sizeof(fn)));
	found = index_find(p, &p->function_ix, h, function_eq, &fn, &slot);
	if (found >= 0)
		return (uint64_t)found + 1;
	if (VEC_RESERVE(p->functions, 1) ||
	    index_insert(&p->function_ix, h, (uint32_t)p->functions.n))
		goto nomem;
	p->functions.v[p->functions.n++] = fn;
	return p->functions.n;
nomem:
	ap_err_nomem(err);
	return 0;
}

static int location_eq(const struct pprof *p, uint32_t idx, const void *key)
{
	return memcmp(&p->locations.v[idx], key, sizeof(struct pprof_location)) == 0;
}

uint64_t pprof__location(struct pprof *p, uint64_t mapping_id, uint64_t address,
			 uint64_t function_id, int64_t line, struct ap_err *err)
{
	struct pprof_location loc;
	size_t slot = 0;
	int64_t found;
	uint64_t h;

	if (mapping_id > p->mappings.n || function_id > p->functions.n) {
		ap_errf(err, "pprof: location at 0x%llx names an unknown %s",
			(unsigned long long)address, mapping_id > p->mappings.n ? "mapping" : "function");
		return 0;
	}
	memset(&loc, 0, sizeof(loc));
	loc.mapping_id = mapping_id;
	loc.address = address;
	loc.function_id = function_id;
	loc.line = line;
	h = hash_mix(hash_bytes(HASH_SEED, &loc, sizeof(loc)));
	found = index_find(p, &p->location_ix, h, location_eq, &loc, &slot);
	if (found >= 0)
		return (uint64_t)found + 1;
	if (VEC_RESERVE(p->locations, 1) ||
	    index_insert(&p->location_ix, h, (uint32_t)p->locations.n)) {
		ap_err_nomem(err);
		return 0;
	}
	p->locations.v[p->locations.n++] = loc;
	return p->locations.n;
}

/* ---- samples ---- */

struct stack_key {
	const uint64_t *locs;
	size_t n;
};

static int sample_eq(const struct pprof *p, uint32_t idx, const void *key)
{
	const struct stack_key *k = key;
	const struct pprof_sample *s = &p->samples.v[idx];

	return s->nlocs == k->n &&
	       (k->n == 0 || memcmp(p->stacks.v + s->stack, k->locs, k->n * sizeof(uint64_t)) == 0);
}

int pprof__sample(struct pprof *p, const uint64_t *locs, size_t n, const int64_t *values,
		  struct ap_err *err)
{
	struct stack_key key = { locs, n };
	size_t nv = p->sample_types.n, slot = 0;
	struct pprof_sample *s;
	int64_t found;
	uint64_t h;

	if (!nv)
		return ap_errf(err, "pprof: a sample before any sample type");
	if (n > UINT32_MAX)
		return ap_errf(err, "pprof: a stack of %zu frames", n);
	for (size_t i = 0; i < n; i++)
		if (locs[i] == 0 || locs[i] > p->locations.n)
			return ap_errf(err, "pprof: sample frame %zu names an unknown location", i);
	h = hash_mix(hash_bytes(HASH_SEED, locs, n * sizeof(*locs)) ^ n);
	found = index_find(p, &p->sample_ix, h, sample_eq, &key, &slot);
	if (found < 0) {
		if (VEC_RESERVE(p->samples, 1) || VEC_RESERVE(p->stacks, n) ||
		    VEC_RESERVE(p->values, nv) ||
		    index_insert(&p->sample_ix, h, (uint32_t)p->samples.n))
			return ap_err_nomem(err);
		s = &p->samples.v[p->samples.n++];
		s->stack = p->stacks.n;
		s->nlocs = (uint32_t)n;
		s->values = p->values.n;
		if (n)
			memcpy(p->stacks.v + p->stacks.n, locs, n * sizeof(*locs));
		p->stacks.n += n;
		memset(p->values.v + p->values.n, 0, nv * sizeof(int64_t));
		p->values.n += nv;
	} else {
		s = &p->samples.v[found];
	}
	for (size_t i = 0; i < nv; i++)
		p->values.v[s->values + i] += values[i];
	return 0;
}

/* ---- aotperf's naming ---- */

uint64_t pprof__wasm_function(struct pprof *p, const char *core, const char *label,
			      uint32_t local_func, const char *wasm_name, struct ap_err *err)
{
	char sys[96], local[32];
	char *name;
	uint64_t id;
	size_t len;

	cwasm__local_name(local_func, local, sizeof(local));
	snprintf(sys, sizeof(sys), "%s%s%s", label ? label : "", label ? ":" : "", local);
	if (!wasm_name || !*wasm_name)
		return pprof__function(p, sys, sys, core, 0, err);
	len = strlen(sys) + 1 + strlen(wasm_name) + 1;
	name = malloc(len);
	if (!name) {
		ap_err_nomem(err);
		return 0;
	}
	snprintf(name, len, "%s:%s", sys, wasm_name);
	id = pprof__function(p, name, sys, core, 0, err);
	free(name);
	return id;
}

uint64_t pprof__wasm_location(struct pprof *p, uint64_t mapping_id, uint64_t function_id,
			      uint64_t address, uint32_t offset, struct ap_err *err)
{
	return pprof__location(p, mapping_id, address, function_id, offset, err);
}

uint64_t pprof__host_location(struct pprof *p, uint64_t mapping_id, uint64_t address,
			      const char *symbol, const char *dso, struct ap_err *err)
{
	uint64_t fn = pprof__function(p, symbol ? symbol : "[unknown]", NULL,
				      dso ? dso : "[unknown]", 0, err);

	return fn ? pprof__location(p, mapping_id, address, fn, 0, err) : 0;
}

size_t pprof__nsamples(const struct pprof *p) { return p->samples.n; }
size_t pprof__nlocations(const struct pprof *p) { return p->locations.n; }
size_t pprof__nfunctions(const struct pprof *p) { return p->functions.n; }
size_t pprof__nstrings(const struct pprof *p) { return p->strings.n; }
