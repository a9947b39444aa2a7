/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_CLASSIFY_ANNOT_PLACE_H
#define AOTPERF_CLASSIFY_ANNOT_PLACE_H
/*
 * Where a line's samples go. perf annotate counts for a line the samples
 * of every byte from its address to the next line's; objdump's lines
 * follow its own decode, which reads a jump table as instructions and
 * may run past the table's end. A sample is an instruction's address, so
 * a line's samples are the instruction that starts inside the line, when
 * one does; with none, the entry holding the line's address (data there
 * holds them: a sample at a data address); with several, the listing
 * cannot split them (a span, for cls_annot__resolve). docs/commands/classify.md.
 */
#include "annotate.h"

/* s samples of the line [a, b) onto fn (its func decoded, its samples allocated); -1: no memory. */
int cls_annot__place_line(struct cls_annot_func *fn, uint64_t a, uint64_t b, uint64_t s);

#endif
