/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_UNWIND_EHFRAME_H
#define AOTPERF_UNWIND_EHFRAME_H
/*
 * .eh_frame and .eh_frame_hdr (LSB "Exception Frames", docs/unwinding.md)
 * from an unwind_table: one CIE, one FDE per function whose prologue was
 * recognised (unknown windows become DW_CFA_undefined on the return
 * address, so an unwinder stops there), and the sorted binary-search
 * table. libc only.
 *
 * Layout: the .eh_frame bytes (CIE, FDEs, a zero terminator), then right
 * after them the .eh_frame_hdr, in one buffer: exactly the order perf's
 * genelf (tools/perf/util/genelf.c) expects after a
 * JIT_CODE_UNWINDING_INFO record, and the order the ELF images use.
 * Addresses are encoded pc-relative (FDE pc_begin) and relative to the
 * header (table), so they only depend on where text and CFI sit relative
 * to each other.
 */
#include <stddef.h>
#include <stdint.h>
#include "unwind.h"

struct unwind_ehframe {
	uint8_t *data;		/* eh_frame_size + hdr_size bytes, malloc'd */
	size_t eh_frame_size;	/* a multiple of 4 */
	size_t hdr_size;
	uint32_t nfdes;
};

/*
 * CFI for functions [first, first + count) of T, where text offset 0 of
 * the table is at address TEXT_VADDR (wrapping arithmetic: a jitted ELF
 * holding one function passes its own code address minus the function's
 * offset), .eh_frame at EH_VADDR and .eh_frame_hdr at EH_VADDR +
 * eh_frame_size. Functions of size 0 or with no recognised prologue get
 * no FDE. Returns 0, -EINVAL (bad range, an offset that does not fit the
 * 32-bit encodings), or -ENOMEM.
 */
int unwind_ehframe__build(const struct unwind_table *t, uint32_t first, uint32_t count,
			  uint64_t text_vaddr, uint64_t eh_vaddr, struct unwind_ehframe *out);

void unwind_ehframe__exit(struct unwind_ehframe *e);

#endif
