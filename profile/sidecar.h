/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_PROFILE_SIDECAR_H
#define AOTPERF_PROFILE_SIDECAR_H
/*
 * What a profile knows of a function beyond aotperf's class table, both
 * filled by profile__classify() and read by the renderers:
 *
 *   struct profile_sidecar  the compiler's frame-attribution sidecar
 *                           (frames/frames.h) and its origins joined with
 *                           the samples (frames/summary.h);
 *   struct helper_view      the function as the upstream helper reports it
 *                           (docs/helper-interface.md): its class names,
 *                           instruction count and hottest instructions, so
 *                           `aotperf attr` and report's JSON can speak its
 *                           interface.
 *
 * Samples here are those at an instruction's first byte, as the helper
 * counts them; a sample at an address no instruction starts at is in the
 * helper's classes inline_data_or_sample_skid / unknown_instruction_boundary.
 */
#include <stdint.h>
#include "profile.h"
#include "../decode/decode.h"
#include "../frames/summary.h"

struct profile_sidecar {
	char *path;			/* the file looked for, or given */
	struct frames *fr;		/* NULL: a PREFIX names no file for this function */
	struct dc_vec insns;		/* the function as the sidecar sees it (frames__decode) */
	uint64_t *samples;		/* parallel to insns: samples at each first byte */
	struct frames_summary *sum;	/* the origins; set by profile__classify */
};

#define HV_HOT_MAX 20
#define HV_MAX_CLASSES 40

struct hv_class {
	const char *name;		/* the helper's class name (static storage) */
	uint64_t samples;
	uint32_t static_insns;
};

struct hv_hot {
	uint64_t samples;
	uint64_t addr;			/* absolute with a mapping, else the offset in the function */
	char text[112];			/* the instruction, or "<class>" off an instruction start */
};

struct helper_view {
	uint64_t samples;		/* in the function's bytes, off-boundary ones included */
	uint32_t instruction_count;
	struct hv_class classes[HV_MAX_CLASSES];	/* with an instruction or a sample, by name */
	uint32_t nclasses;
	struct hv_hot hot[HV_HOT_MAX];	/* by samples, address, text, all descending */
	uint32_t nhot;
	uint32_t unattributed_frame;	/* frame instructions, when there is no sidecar */
};

/*
 * The helper's view of local function func of m: its bytes as objdump
 * sweeps them (cf gives the architecture), or sc's decode when a sidecar
 * was read (cf's text for the listing); samples
 * from hist (NULL or empty: static) for core. Addresses are base +
 * offset when have_base, else offsets in the function (the helper's
 * static validation).
 */
int helper_view__build(struct helper_view **out, const struct cwasm_module *m, uint32_t func,
		       const struct cls_func *cf, const struct profile_sidecar *sc,
		       const struct attr_hist *hist, uint32_t core, int have_base, uint64_t base,
		       struct ap_err *err);
void helper_view__delete(struct helper_view *hv);

/*
 * The sidecar at path of local function func of m, read and checked
 * (frames__read); a missing file is no error when may_be_missing (fr
 * stays NULL). *out is set either way; free it with __delete.
 */
int profile_sidecar__open(struct profile_sidecar **out, const char *path,
			  const struct cwasm_module *m, uint32_t func, int may_be_missing,
			  struct ap_err *err);
void profile_sidecar__delete(struct profile_sidecar *sc);
/* Join a read sidecar with core's samples in hist (the decode, the summary). */
int profile_sidecar__join(struct profile_sidecar *sc, const struct cwasm_module *m,
			  const struct attr_hist *hist, uint32_t core, struct ap_err *err);
/*
 * The same with samples counted elsewhere (a perf annotate listing): cf's
 * instructions at function-relative offsets, samples parallel to them. A
 * sample on an offset where the sidecar's decode starts no instruction is
 * added to *unplaced (a listing of other code shows as many).
 */
int profile_sidecar__join_listing(struct profile_sidecar *sc, const struct cwasm_module *m,
				  const struct cls_func *cf, const uint64_t *samples,
				  uint64_t *unplaced, struct ap_err *err);

#endif
