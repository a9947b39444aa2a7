// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include "hist.h"

static uint64_t key_of(uint32_t core, uint64_t off)
{
	return ((uint64_t)core << 40 | off) + 1;
}

static size_t slot(uint64_t key, size_t cap)
{
	return (key * 0x9e3779b97f4a7c15ull) & (cap - 1);
}

static int grow(struct attr_hist *h)
{
	size_t cap = h->cap ? h->cap * 2 : 1024;
	uint64_t *keys = calloc(cap, sizeof(*keys)), *counts = calloc(cap, sizeof(*counts));

	if (!keys || !counts) {
		free(keys);
		free(counts);
		return -1;
	}
	for (size_t i = 0; i < h->cap; i++) {
		size_t s;

		if (!h->keys[i])
			continue;
		s = slot(h->keys[i], cap);
		while (keys[s])
			s = (s + 1) & (cap - 1);
		keys[s] = h->keys[i];
		counts[s] = h->counts[i];
	}
	free(h->keys);
	free(h->counts);
	h->keys = keys;
	h->counts = counts;
	h->cap = cap;
	return 0;
}

/* count n samples at the key */
static int add_n(struct attr_hist *h, uint64_t key, uint64_t n)
{
	size_t s;

	if ((h->n + 1) * 2 > h->cap && grow(h)) {
		h->lost += n;
		return -1;
	}
	s = slot(key, h->cap);
	while (h->keys[s] && h->keys[s] != key)
		s = (s + 1) & (h->cap - 1);
	if (!h->keys[s]) {
		h->keys[s] = key;
		h->n++;
	}
	h->counts[s] += n;
	return 0;
}

int attr_hist__add(struct attr_hist *h, uint32_t core, uint64_t off)
{
	return add_n(h, key_of(core, off), 1);
}

int attr_hist__merge(struct attr_hist *h, const struct attr_hist *from)
{
	for (size_t i = 0; i < from->cap; i++)
		if (from->keys[i] && add_n(h, from->keys[i], from->counts[i]))
			return -1;
	h->lost += from->lost;
	return 0;
}

uint64_t attr_hist__get(const struct attr_hist *h, uint32_t core, uint64_t off)
{
	uint64_t key = key_of(core, off);
	size_t s;

	if (!h->cap)
		return 0;
	s = slot(key, h->cap);
	while (h->keys[s]) {
		if (h->keys[s] == key)
			return h->counts[s];
		s = (s + 1) & (h->cap - 1);
	}
	return 0;
}

uint64_t attr_hist__sum(const struct attr_hist *h, uint32_t core, uint64_t off, uint64_t len)
{
	uint64_t n = 0;

	for (uint64_t b = 0; h->n && b < len; b++)
		n += attr_hist__get(h, core, off + b);
	return n;
}

void attr_hist__exit(struct attr_hist *h)
{
	free(h->keys);
	free(h->counts);
	h->keys = h->counts = NULL;
	h->cap = h->n = 0;
	h->lost = 0;
}
