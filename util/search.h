/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_UTIL_SEARCH_H
#define AOTPERF_UTIL_SEARCH_H
/*
 * The one binary search of the tables sorted by an address, an offset or
 * another unsigned key: instructions, functions, mappings, symbols, rows.
 *
 *	i = ap_search__lower(v, n, AP_SEARCH_FIELD(v, addr), addr);
 *
 * ap_search__lower: the first index whose key is >= key; n when none is.
 * ap_search__upper: the first index whose key is > key; n when none is, so
 *                   the one before it (if any) is the last at or below key.
 *
 * The keys ascend (equal ones allowed). AP_SEARCH_FIELD(v, field) reads
 * them from a field of v's elements, AP_SEARCH_ITEMS(v) takes v's elements
 * themselves; either refuses, at compile time, a key that is not an
 * unsigned integer of 4 or 8 bytes. Header only: the runtime library
 * (jitdump/, unwind/) links none of util/.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct ap_search_key {
	size_t size;		/* of an element */
	size_t off;		/* of the key in an element */
	size_t width;		/* of the key: 4 or 8 */
};

/* sizeof(x), or a compile error unless x is an unsigned 4- or 8-byte integer */
#define AP_SEARCH_WIDTH(x)                                                                \
	(sizeof(x) + 0 * sizeof(char[(sizeof(x) == 4 || sizeof(x) == 8) &&                  \
				     (__typeof__(x))-1 > 0 ? 1 : -1]))
#define AP_SEARCH_FIELD(v, field)                                                         \
	((struct ap_search_key){ sizeof(*(v)), offsetof(__typeof__(*(v)), field),          \
				 AP_SEARCH_WIDTH((v)->field) })
#define AP_SEARCH_ITEMS(v) ((struct ap_search_key){ sizeof(*(v)), 0, AP_SEARCH_WIDTH(*(v)) })

static inline uint64_t ap_search__key(const void *base, size_t i, struct ap_search_key k)
{
	const unsigned char *p = (const unsigned char *)base + i * k.size + k.off;
	uint32_t u32;
	uint64_t u64;

	if (k.width == sizeof(u32)) {
		memcpy(&u32, p, sizeof(u32));
		return u32;
	}
	memcpy(&u64, p, sizeof(u64));
	return u64;
}

/* The first index whose key is above key (upper) or not below it (lower). */
static inline size_t ap_search__bound(const void *base, size_t n, struct ap_search_key k,
				      uint64_t key, int upper)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t m = ap_search__key(base, mid, k);

		if (m < key || (upper && m == key))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static inline size_t ap_search__lower(const void *base, size_t n, struct ap_search_key k,
				      uint64_t key)
{
	return ap_search__bound(base, n, k, key, 0);
}

static inline size_t ap_search__upper(const void *base, size_t n, struct ap_search_key k,
				      uint64_t key)
{
	return ap_search__bound(base, n, k, key, 1);
}

#endif
