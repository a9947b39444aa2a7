/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_FRAMES_SUMMARY_H
#define AOTPERF_FRAMES_SUMMARY_H
/*
 * A function's frame traffic by proven origin (docs/sidecar.md, "Origins
 * summary"): a checked sidecar joined with the function's decoded
 * instructions and a sample count per instruction. It holds what the
 * helper reports with a sidecar (coverage, origins, allocator
 * contributors, unknown frame instructions, the reconciliation; its
 * "unknown" origin is origin[FRAMES_UNKNOWN] plus uncovered) and splits
 * everything into loads and stores. No perf.data here: the sample array
 * is parallel to the instructions.
 */
#include "frames.h"
#include "../util/pct.h"

struct frames_count {
	uint32_t insns;
	uint64_t samples;
};

struct frames_pair_part {
	uint32_t slot;
	int32_t frame_offset;
	int64_t vreg;			/* FRAMES_NULL */
};

/* One allocator slot/value, or one pair instruction over two of them. */
struct frames_contributor {
	uint8_t paired;			/* a pair instruction: samples counted once, here */
	uint8_t vreg_ambiguous;
	int8_t remat;			/* -1 null */
	uint32_t native_offset;		/* paired: the instruction; else its first access */
	uint32_t slot;			/* paired: the lower slot */
	int32_t frame_offset;
	int64_t vreg;			/* FRAMES_NULL: ambiguous, or paired */
	const uint32_t *candidates;	/* vregs: the slot's values; paired: the named ones */
	uint32_t ncandidates;
	const char *defining_opcode;	/* NULL when unknown */
	const char *source_class;	/* paired: "paired_allocator_access" */
	const struct frames_value *value;	/* the named vreg's entry, else NULL */
	struct frames_pair_part part[2];	/* paired only */
	uint32_t static_loads, static_stores;	/* accesses naming it (a pair adds one to each part) */
	uint64_t samples;
};

/* A frame instruction without a proven origin (the helper's unknown_instructions). */
struct frames_unknown {
	uint32_t native_offset;
	uint64_t addr;
	uint64_t samples;
	uint8_t kind;			/* enum frames_kind */
	uint8_t base;			/* enum frames_base */
	uint8_t listed;			/* the sidecar lists it with origin unknown */
	uint8_t complex;		/* an index register: no single offset */
	int64_t frame_offset;		/* FRAMES_NULL when complex */
	const char *detail;		/* listed: the access's detail, else NULL */
	char text[112];
};

struct frames_summary {
	/* listed accesses by origin and kind */
	struct frames_count origin[FRAMES__NORIGINS][2];
	/* frame instructions the sidecar does not list, by kind */
	struct frames_count uncovered[2];

	/* coverage, the helper's meanings */
	uint32_t frame_instructions;		/* listed, or a frame instruction */
	uint32_t attributed_frame_instructions;	/* listed */
	uint32_t proven_origin_frame_instructions;	/* listed with an origin other than unknown */
	uint64_t frame_samples, attributed_frame_samples, proven_origin_frame_samples;
	uint64_t function_samples;		/* every instruction's */
	uint32_t unplaced;			/* accesses no instruction starts at */

	/* the reconciliation: allocator accesses against the compiler's counts */
	uint32_t emitted_allocator_loads, emitted_allocator_stores;	/* components counted */
	uint32_t declared_loads, declared_stores;	/* emitted_allocator_loads/stores keys */
	uint32_t metric_loads, metric_stores;		/* spill_metric spill_ld/spill_st */
	/* samples of the instructions whose origin is allocator_spill (a pair once) */
	uint64_t sampled_allocator_loads, sampled_allocator_stores;
	int matches;

	struct frames_contributor *contrib;	/* ranked: samples, static count, slot, vreg */
	uint32_t ncontrib;
	struct frames_unknown *unknown;		/* by samples, then offset */
	uint32_t nunknown;

	uint32_t *cand_pool;			/* internal */
};

/*
 * Join fr with insns[0..n) of the same function (insns[i].addr - func_addr
 * is the native offset) and samples[i] (NULL: all 0).
 */
int frames__summarize(const struct frames *fr, const struct dc_insn *insns, uint32_t n,
		      uint64_t func_addr, const uint64_t *samples, struct frames_summary **out,
		      struct ap_err *err);
void frames_summary__delete(struct frames_summary *s);

/*
 * "emitted allocator ld/st=A/B == spill metric C/D (match)" into buf
 * ("!=" and "(MISMATCH)" when they differ); -1 if it does not fit.
 */
int frames_summary__reconciliation(const struct frames_summary *s, char *buf, size_t len);

#endif
