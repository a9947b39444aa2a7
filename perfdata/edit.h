/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_PERFDATA_EDIT_H
#define AOTPERF_PERFDATA_EDIT_H
/*
 * Write a copy of a perf.data file with records inserted or replaced in its
 * data section (and bytes added to one feature section); everything else
 * is copied byte for byte, and the header's data size and the feature
 * table's offsets are moved by the size change.
 * The input is only read.
 */
#include <stddef.h>
#include <stdint.h>
#include "../util/err.h"

struct pd_edit {
	uint64_t offset;    /* file offset of a record in the data section */
	uint32_t old_size;  /* 0: insert before offset; else replace that many bytes */
	const void *rec;    /* the new record (its header.size == new_size) */
	uint32_t new_size;
};

/*
 * whole: 0 for a whole recording; for one cut short, the bytes of whole
 * records its data section starts with (perfdata__truncated's read). Only
 * those are copied, the header says so, and the copy has no feature
 * sections: perf writes them after the data, so the cut took them
 * (docs/damaged-recordings.md).
 *
 * 0 when perfdata__write_edited() can copy in (a finished file-mode
 * perf.data without AUXTRACE, or the whole records of a cut one), else -1
 * with err: check before writing anything that goes with the copy.
 */
int perfdata__check_editable(const char *in, uint64_t whole, struct ap_err *err);

/*
 * Bytes appended to one feature section of the copy (the images' entries
 * of HEADER_BUILD_ID, symbolize/symbolize.c): the section grows where it
 * is and the sections after it move; a feature the recording lacks is
 * added, its section at the end of the file.
 */
struct pd_feat_append {
	int feat;		/* the feature bit, perf's HEADER_* number */
	const void *buf;
	size_t len;
};

/*
 * Edits may come in any order; two edits may not overlap. app: NULL or
 * one section to grow (none is written for a copy of a cut recording:
 * it has no feature sections).
 */
int perfdata__write_edited(const char *in, uint64_t whole, const char *out,
			   const struct pd_edit *edits, size_t nedits,
			   const struct pd_feat_append *app, struct ap_err *err);

#endif
