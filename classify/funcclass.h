/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_CLASSIFY_FUNCCLASS_H
#define AOTPERF_CLASSIFY_FUNCCLASS_H
/*
 * Classify one function of a recording: its machine code from the core,
 * each instruction weighted by the samples of its bytes in a histogram of
 * (core, text offset) counts (attr/hist.h). No perf.data here: aotperf
 * report and the dlfilter both hand in what they counted, so they print
 * the same table for the same samples.
 */
#include <stdint.h>
#include "classify.h"
#include "../attr/hist.h"
#include "../cwasm/cwasm.h"
#include "../util/err.h"

struct cls_result {
	struct cls_func f;		/* decoded, in address order (data entries included) */
	uint64_t *insn_samples;		/* parallel to f.insns */
	struct cls_table t;		/* per-class totals */
	uint64_t base;			/* where the core's text was mapped (0: addresses are offsets) */
};

/*
 * Decode and classify local function func of m (cls__classify_func) and
 * weigh each instruction by its samples. arch: CWASM_ARCH_UNKNOWN for the
 * target info's, else an explicit override. roles: register-role pins
 * ("vmctx=rcx,membase=none") on top of the inferred roles, NULL for none.
 * hist (NULL: static counts only) holds core's samples; base is the
 * address listings show for text offset 0.
 */
int cls_result__classify(struct cls_result *out, const struct cwasm_module *m, uint32_t func,
			 enum cwasm_arch arch, const char *roles, const struct attr_hist *hist,
			 uint32_t core, uint64_t base, struct ap_err *err);
void cls_result__exit(struct cls_result *r);

#endif
