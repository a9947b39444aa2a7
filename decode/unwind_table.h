/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_DECODE_UNWIND_TABLE_H
#define AOTPERF_DECODE_UNWIND_TABLE_H
/*
 * The unwinding rules (unwind/unwind.h) of every function of a core, with
 * capstone's instruction starts where they change a rule: the one place
 * aotperf builds them, for the CFI it writes (symbolize/) and for the
 * call stacks it unwinds itself (profile/stacks.h). docs/unwinding.md.
 */
#include "../cwasm/cwasm.h"
#include "../unwind/unwind.h"
#include "../util/err.h"

/* M's architecture has rules (x86-64, aarch64): 1 and *arch, else 0. */
int dc__unwind_arch(const struct cwasm_module *m, enum unwind_arch *arch);

/*
 * The rules of every function of M. NULL with *err untouched when M has
 * no functions or its architecture has no rules; NULL with err filled on
 * failure.
 */
struct unwind_table *dc__unwind_table(const struct cwasm_module *m, struct ap_err *err);

#endif
