// SPDX-License-Identifier: MIT
/*
 * Interned strings of one sidecar. Details, opcodes and source classes
 * repeat on every access; one copy each keeps a large sidecar small.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

struct frames_pool {
	char **slot;		/* open addressing, power-of-two size */
	size_t cap, n;
};

struct frames_pool *fr_pool__new(void)
{
	return calloc(1, sizeof(struct frames_pool));
}

void fr_pool__delete(struct frames_pool *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->cap; i++)
		free(p->slot[i]);
	free(p->slot);
	free(p);
}

static size_t hash(const char *s, size_t len)
{
	size_t h = 1469598103934665603ull & SIZE_MAX;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * (1099511628211ull & SIZE_MAX);
	return h;
}

static int grow(struct frames_pool *p)
{
	size_t cap = p->cap ? p->cap * 2 : 64;
	char **slot = calloc(cap, sizeof(*slot));

	if (!slot)
		return -1;
	for (size_t i = 0; i < p->cap; i++) {
		size_t j;

		if (!p->slot[i])
			continue;
		for (j = hash(p->slot[i], strlen(p->slot[i])) & (cap - 1); slot[j];
		     j = (j + 1) & (cap - 1))
			;
		slot[j] = p->slot[i];
	}
	free(p->slot);
	p->slot = slot;
	p->cap = cap;
	return 0;
}

const char *fr_pool__intern(struct frames_pool *p, const char *s, size_t len)
{
	size_t j;
	char *c;

	if (p->n * 2 >= p->cap && grow(p))
		return NULL;
	for (j = hash(s, len) & (p->cap - 1); p->slot[j]; j = (j + 1) & (p->cap - 1))
		if (!strncmp(p->slot[j], s, len) && p->slot[j][len] == '\0')
			return p->slot[j];
	c = malloc(len + 1);
	if (!c)
		return NULL;
	memcpy(c, s, len);
	c[len] = '\0';
	p->slot[j] = c;
	p->n++;
	return c;
}
