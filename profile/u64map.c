// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>
#include "u64map.h"

static uint32_t slot_of(uint64_t key, uint32_t cap)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdULL;
	key ^= key >> 33;
	return (uint32_t)key & (cap - 1);
}

int u64map__get(const struct u64map *m, uint64_t key, uint32_t *val)
{
	if (!m->cap)
		return 0;
	for (uint32_t i = slot_of(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
		if (m->vals[i] == UINT32_MAX)
			return 0;
		if (m->keys[i] == key) {
			*val = m->vals[i];
			return 1;
		}
	}
}

static void insert(uint64_t *keys, uint32_t *vals, uint32_t cap, uint64_t key, uint32_t val)
{
	uint32_t i = slot_of(key, cap);

	while (vals[i] != UINT32_MAX && keys[i] != key)
		i = (i + 1) & (cap - 1);
	keys[i] = key;
	vals[i] = val;
}

static int grow(struct u64map *m)
{
	uint32_t cap = m->cap ? m->cap * 2 : 1024;
	uint64_t *keys;
	uint32_t *vals;

	if (!cap)
		return -1;
	keys = malloc((size_t)cap * sizeof(*keys));
	vals = malloc((size_t)cap * sizeof(*vals));
	if (!keys || !vals) {
		free(keys);
		free(vals);
		return -1;
	}
	memset(vals, 0xff, (size_t)cap * sizeof(*vals));
	for (uint32_t i = 0; i < m->cap; i++)
		if (m->vals[i] != UINT32_MAX)
			insert(keys, vals, cap, m->keys[i], m->vals[i]);
	free(m->keys);
	free(m->vals);
	m->keys = keys;
	m->vals = vals;
	m->cap = cap;
	return 0;
}

int u64map__put(struct u64map *m, uint64_t key, uint32_t val)
{
	uint32_t old;

	if (u64map__get(m, key, &old)) {
		insert(m->keys, m->vals, m->cap, key, val);
		return 0;
	}
	if ((m->n + 1) * 2 > m->cap && grow(m))
		return -1;
	insert(m->keys, m->vals, m->cap, key, val);
	m->n++;
	return 0;
}

void u64map__exit(struct u64map *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

uint64_t u64map__hash_str(uint64_t h, const char *s)
{
	/* FNV-1a */
	if (!h)
		h = 0xcbf29ce484222325ULL;
	for (; s && *s; s++) {
		h ^= (uint8_t)*s;
		h *= 0x100000001b3ULL;
	}
	h ^= 0xff;	/* a terminator, so ("ab", "c") and ("a", "bc") differ */
	h *= 0x100000001b3ULL;
	return h;
}
