// SPDX-License-Identifier: MIT
/*
 * JIT_CODE_UNWINDING_INFO records from unwind/ rules (see unwind_info.h).
 * Only libc: this file is part of the runtime library.
 */
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "unwind_info.h"
#include "../unwind/ehframe.h"

#define JD_CODE_UNWINDING_INFO 4

struct jd_unwinding {
	uint32_t id;
	uint32_t total_size;
	uint64_t timestamp;
	uint64_t unwinding_size;
	uint64_t eh_frame_hdr_size;
	uint64_t mapped_size;
};

_Static_assert(sizeof(struct jd_unwinding) == 40, "unwinding record header is 40 bytes");

struct unwind_table *aotjit_unwind__table(uint32_t elf_mach, const void *text,
					  uint64_t text_size, const uint32_t *offsets,
					  uint32_t nfuncs)
{
	enum unwind_arch arch;

	if (elf_mach == EM_X86_64)
		arch = UNWIND_ARCH_X86_64;
	else if (elf_mach == EM_AARCH64)
		arch = UNWIND_ARCH_AARCH64;
	else
		return NULL;
	if (text_size > UINT32_MAX || !nfuncs)
		return NULL;
	return unwind_table__new(arch, text, (uint32_t)text_size, offsets, nfuncs, NULL, 0,
				 NULL);
}

int aotjit_unwind__record(const struct unwind_table *t, uint32_t func, uint64_t timestamp,
			  void **rec, size_t *len)
{
	const struct unwind_row *rows;
	uint32_t nrows, start, size;
	struct unwind_ehframe eh;
	struct jd_unwinding h;
	uint8_t *p;
	uint64_t eh_vaddr;
	size_t data;
	int ret;

	*rec = NULL;
	*len = 0;
	if (unwind_table__func(t, func, &rows, &nrows, &start, &size))
		return -EINVAL;
	if (!nrows || !rows[0].known)
		return 0;
	/* genelf's layout: code at 0x80, .eh_frame 8-aligned after it */
	eh_vaddr = (AOTJIT_GENELF_TEXT + (uint64_t)size + 7) & ~(uint64_t)7;
	ret = unwind_ehframe__build(t, func, 1, AOTJIT_GENELF_TEXT - (uint64_t)start, eh_vaddr,
				    &eh);
	if (ret)
		return ret;
	data = eh.eh_frame_size + eh.hdr_size;
	if (data > UINT32_MAX - sizeof(h)) {
		unwind_ehframe__exit(&eh);
		return -E2BIG;
	}
	p = malloc(sizeof(h) + data);
	if (!p) {
		unwind_ehframe__exit(&eh);
		return -ENOMEM;
	}
	memset(&h, 0, sizeof(h));
	h.id = JD_CODE_UNWINDING_INFO;
	h.total_size = (uint32_t)(sizeof(h) + data);
	h.timestamp = timestamp;
	h.unwinding_size = data;
	h.eh_frame_hdr_size = eh.hdr_size;
	/*
	 * 0: the CFI is not mapped in the process. perf then maps only the
	 * code (a larger mapped_size would lengthen each jitted ELF's
	 * mapping over the next function's code).
	 */
	h.mapped_size = 0;
	memcpy(p, &h, sizeof(h));
	memcpy(p + sizeof(h), eh.data, data);
	unwind_ehframe__exit(&eh);
	*rec = p;
	*len = sizeof(h) + data;
	return 0;
}
