/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_CLASSIFY_INTERNAL_H
#define AOTPERF_CLASSIFY_INTERNAL_H
/*
 * Inside classify/: decode/ reduces each instruction to a struct dc_insn
 * (from capstone or from perf annotate text); roles.c runs a forward
 * data-flow pass that says what each register holds before each
 * instruction; classify.c turns kinds, operands and those roles into
 * classes; helper.c maps them to the upstream helper's names.
 */
#include <stdint.h>
#include "classify.h"
#include "../decode/decode.h"

/* What a register holds (roles.c). */
enum cls_role {
	R_TOP = 0,	/* not reached yet (data flow only) */
	R_UNK,		/* anything */
	R_CALLER,	/* a callee-saved register still holding the caller's value */
	R_VMCTX,	/* the vmctx pointer */
	R_MEMBASE,	/* vmctx field 0: the linear-memory base */
	R_LINADDR,	/* an address derived from the memory base */
	R_MEMSIZE,	/* vmctx field 8: the memory size */
	R_FIELD,	/* another vmctx field */
	R_TRAPFN,	/* a vmctx trap slot (fields 0x50..0x70): a no-return helper */
	R_FRAMEADDR,	/* frame base + constant (aarch64 big frames) */
};

#define CLS_NREG 34	/* register families 0..33 (decode/decode.h) */
#define CLS_MAX_SLOTS 32

struct cls_rstate {
	uint8_t r[CLS_NREG];
};

struct cls_slot {
	uint8_t base;
	uint8_t reg;		/* save slots: the callee-saved register stored there */
	int64_t disp;
};

/* The roles pass over one function. */
struct cls_flow {
	struct cls_rstate *in;		/* before each instruction */
	struct cls_slot vmctx_slot[CLS_MAX_SLOTS];
	uint32_t nvmctx_slot;
	struct cls_slot save_slot[CLS_MAX_SLOTS];
	uint32_t nsave_slot;
	uint32_t pushed;		/* 1 << family: callee-saved registers pushed */
};

/* roles.c */
int cls_flow__run(const struct cls_roles *ovr, const struct dc_vec *nv, uint64_t lo,
		  uint64_t hi, struct cls_flow *fl, struct cls_func_roles *out,
		  struct ap_err *err);
void cls_flow__exit(struct cls_flow *fl);
int cls__is_frame_base(const struct cls_roles *ovr, enum cwasm_arch arch, uint8_t fam);
/* The registers an instruction writes (0..2), into dst[]. */
int cls__dests(enum cwasm_arch arch, const struct dc_insn *ni, uint8_t dst[2]);
/* A frame slot of the instruction's memory operand at this state: 1 and *s, or 0. */
int cls__frame_slot(const struct cls_roles *ovr, enum cwasm_arch arch, const struct dc_insn *ni,
		    const struct cls_rstate *st, struct cls_slot *s);
/* A 64-bit register stored to memory by a plain store: 1 and *data. */
int cls__store_data(enum cwasm_arch arch, const struct dc_insn *ni, uint8_t *data);
int cls_flow__is_vmctx_slot(const struct cls_flow *fl, const struct cls_slot *s);
int cls_flow__save_slot_reg(const struct cls_flow *fl, const struct cls_slot *s);
/* No-return: a trap instruction or a call through a trap slot. */
int cls__noreturn(const struct dc_insn *ni, const struct cls_rstate *st);

/*
 * pinned.c: the registers a module-wide pinning reserves for vmctx and the
 * memory base, from a solved pass over nv (0: none found).
 */
void cls__pinned(enum cwasm_arch arch, enum cwasm_abi abi, const struct cls_flow *fl,
		 const struct dc_vec *nv, uint8_t *vmctx, uint8_t *membase);

/*
 * helper.c: the helper's class of every entry of a classified function
 * (insns[i] decoded as v[i]; CLS_DATA entries the skid class) into
 * insns[].helper. 0, or -1 when out of memory.
 */
int cls_helper__fill(enum cwasm_arch arch, const struct dc_insn *v, uint32_t n,
		     struct cls_insn *insns);

/*
 * classify.c: classes for nv (address order) of a function occupying
 * [lo, hi), into out (which takes the text and sizes).
 */
int cls_classify(const struct cls_roles *roles, const struct dc_vec *nv, uint64_t lo,
		 uint64_t hi, struct cls_func *out, struct ap_err *err);

#endif
