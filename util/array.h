/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_UTIL_ARRAY_H
#define AOTPERF_UTIL_ARRAY_H
/*
 * Growing arrays: one helper instead of a realloc dance per array.
 *
 *	struct thing *v = NULL; size_t n = 0, cap = 0;
 *	if (ap_grow(&v, &cap, n + 1, sizeof(*v)))
 *		return ap_err_nomem(err);
 *	v[n++] = t;
 *
 * The capacity doubles (from 8 elements), so pushes are amortized O(1).
 * On failure the array is left as it was.
 */
#include <stddef.h>

/*
 * Make room for at least need elements of elem bytes in the array whose
 * address is parray (a T **), capacity *cap. 0, or -1 when out of memory
 * (or when the size would overflow).
 */
int ap_grow(void *parray, size_t *cap, size_t need, size_t elem);

/* ap_grow, then append *item (elem bytes) as element *n and count it. */
int ap_push(void *parray, size_t *n, size_t *cap, const void *item, size_t elem);

#endif
