// SPDX-License-Identifier: MIT
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "array.h"

int ap_grow(void *parray, size_t *cap, size_t need, size_t elem)
{
	size_t ncap = *cap ? *cap : 8;
	void *old, *p;

	if (need <= *cap)
		return 0;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			return -1;
		ncap *= 2;
	}
	if (elem && ncap > SIZE_MAX / elem)
		return -1;
	/* parray is a T **: read and write the pointer through memcpy. */
	memcpy(&old, parray, sizeof(old));
	p = realloc(old, ncap * elem);
	if (!p)
		return -1;
	memcpy(parray, &p, sizeof(p));
	*cap = ncap;
	return 0;
}

int ap_push(void *parray, size_t *n, size_t *cap, const void *item, size_t elem)
{
	char *base;

	if (ap_grow(parray, cap, *n + 1, elem))
		return -1;
	memcpy(&base, parray, sizeof(base));
	memcpy(base + *n * elem, item, elem);
	(*n)++;
	return 0;
}
