/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_JITDUMP_UNWIND_INFO_H
#define AOTPERF_JITDUMP_UNWIND_INFO_H
/*
 * JIT_CODE_UNWINDING_INFO records (jitdump record id 4) for the writer in
 * jitdump.c, and the entry point aotperf uses to hand in rules it derived
 * with instruction boundaries. Not installed: the runtime's API is
 * jitdump.h alone. libc only (unwind/ is compiled into the library).
 *
 * perf inject --jit keeps the last unwinding record it read and puts it
 * into the ELF of the next JIT_CODE_LOAD (tools/perf/util/jitdump.c,
 * genelf.c): payload u64 unwinding_size, u64 eh_frame_hdr_size, u64
 * mapped_size, then unwinding_size bytes, of which the last
 * eh_frame_hdr_size are .eh_frame_hdr and the rest .eh_frame (genelf
 * reads them in that order, whatever the specification's prose says).
 * genelf puts the code at 0x80 (ELF header and one program header,
 * 16-aligned), .eh_frame 8-aligned right after it and .eh_frame_hdr right
 * after that, so the CFI is encoded for those addresses.
 */
#include <stddef.h>
#include <stdint.h>
#include "../unwind/unwind.h"

struct aotjit;

/* Where genelf puts a jitted function's code (64-bit ELF). */
#define AOTJIT_GENELF_TEXT 0x80u

/*
 * Rules for a core from its bytes alone (this library has no decoder);
 * NULL when ELF_MACH has no rules (not x86-64 or aarch64), the text is
 * too big, or memory ran out: the dump is then written without
 * unwinding records.
 */
struct unwind_table *aotjit_unwind__table(uint32_t elf_mach, const void *text,
					  uint64_t text_size, const uint32_t *offsets,
					  uint32_t nfuncs);

/*
 * The whole JIT_CODE_UNWINDING_INFO record (prefix included) of function
 * FUNC of T, timed TIMESTAMP, malloc'd into *rec. *rec is NULL (and 0
 * returned) for a function without rules. Returns 0 or a negative errno.
 */
int aotjit_unwind__record(const struct unwind_table *t, uint32_t func, uint64_t timestamp,
			  void **rec, size_t *len);

/*
 * aotjit_register_core_at with the rules given: T (for exactly these
 * offsets) or, T NULL, rules from the bytes as aotjit_register_core_at
 * derives them itself. Returns 0 or a negative errno.
 */
int aotjit_register_core_rules(struct aotjit *j, uint64_t base, const void *text,
			       uint64_t text_size, const uint32_t *offsets, uint32_t nfuncs,
			       const char *const *names, const char *prefix,
			       uint64_t timestamp, const struct unwind_table *t);

#endif
