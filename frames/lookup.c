// SPDX-License-Identifier: MIT
/* Lookups into a checked sidecar by native offset, vreg and spill slot. */
#include "internal.h"
#include "../util/search.h"

/* Index of the last access starting at or before off, or -1. */
static int64_t last_at_or_before(const struct frames *fr, uint32_t off)
{
	return (int64_t)ap_search__upper(fr->acc, fr->nacc, AP_SEARCH_FIELD(fr->acc, native_start),
					 off) - 1;
}

const struct frames_access *frames__access_at(const struct frames *fr, uint32_t off)
{
	int64_t i = last_at_or_before(fr, off);

	return i >= 0 && fr->acc[i].native_start == off ? &fr->acc[i] : NULL;
}

const struct frames_access *frames__access_covering(const struct frames *fr, uint32_t off)
{
	int64_t i = last_at_or_before(fr, off);

	return i >= 0 && off < fr->acc[i].native_end ? &fr->acc[i] : NULL;
}

const struct frames_value *frames__value(const struct frames *fr, uint32_t vreg)
{
	uint32_t lo = 0, hi = fr->nvalues;

	if (!fr->by_vreg)
		return NULL;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		const struct frames_value *v = &fr->values[fr->by_vreg[mid]];

		if (v->vreg == vreg)
			return v;
		if (v->vreg < vreg)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const uint32_t *frames__slot_values(const struct frames *fr, uint32_t slot, uint32_t *n)
{
	if (!fr->slot_first || slot >= fr->nslot_index) {
		*n = 0;
		return NULL;
	}
	*n = fr->slot_first[slot + 1] - fr->slot_first[slot];
	return fr->slot_vals + fr->slot_first[slot];
}

int frames__in_data(const struct frames *fr, uint32_t off)
{
	for (uint32_t i = 0; i < fr->ndata; i++)
		if (fr->data[i].native_start <= off && off < fr->data[i].native_end)
			return 1;
	return 0;
}
