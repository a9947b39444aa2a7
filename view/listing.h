/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_VIEW_LISTING_H
#define AOTPERF_VIEW_LISTING_H
/*
 * A function's listing (docs/html-data.md "listings"), one model for
 * every format that lists instructions: each decoded entry with its
 * offset, size, bytes (the first VIEW_LISTING_BYTES of a data entry),
 * text (a direct branch into the function names its target by offset,
 * "jae +0x58", as the offset column does: cls__insn_text), class,
 * samples and share of the function's samples; the data entries' runs
 * of offsets; the instructions proper, jump-table words not counted.
 */
#include <stdint.h>
#include "table.h"
#include "../classify/classify.h"
#include "../util/err.h"

#define VIEW_LISTING_BYTES 16

struct view_listing {
	/* offset, size, bytes, text, class, samples, percent_of_function */
	struct vt_table *insns;
	struct vt_table *data_ranges;	/* start, end: [start, end) offsets of data entries */
	uint64_t samples;		/* its entries' samples */
	int have_address;		/* it was decoded at an address: */
	uint64_t address;		/* its first byte's */
	uint32_t ninsns;		/* instructions (no data words) */
};

/*
 * Function func of m decoded into f, insn_samples parallel to f->insns
 * (NULL: none). 0, or -1 with err (out of memory).
 */
int view_listing__init(struct view_listing *l, const struct cwasm_module *m, uint32_t func,
		       const struct cls_func *f, const uint64_t *insn_samples,
		       struct ap_err *err);
void view_listing__exit(struct view_listing *l);

#endif
