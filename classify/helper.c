// SPDX-License-Identifier: MIT
/*
 * The upstream helper's class names, with their meanings, derived from
 * this classifier's classes (docs/codegen-idioms.md, "The helper's
 * names"): what the structure proves (bounds checks, the indirect jump of
 * a br_table, linear memory on aarch64) takes the helper's structural
 * name; everything else takes the name of its shape: frame accesses are
 * unattributed (the helper only attributes them with a sidecar), moves,
 * memory accesses, ALU.
 */
#include <string.h>
#include <strings.h>
#include "internal.h"

enum {
	HC_FRAME_LOAD, HC_FRAME_STORE, HC_BOUNDS_CMP, HC_BOUNDS_BRANCH, HC_CALL,
	HC_DISPATCH_JMP, HC_JMP, HC_COND_BRANCH, HC_MEM_ACCESS, HC_REGMOV, HC_ALU,
	HC_OTHER, HC_LINEAR_MEMORY, HC_INDIRECT_DISPATCH, HC_DIRECT_BRANCH, HC_DATA,
	HC__COUNT
};

static const char *const names[HC__COUNT] = {
	[HC_FRAME_LOAD] = "frame_load_unattributed",
	[HC_FRAME_STORE] = "frame_store_unattributed",
	[HC_BOUNDS_CMP] = "bounds_cmp",
	[HC_BOUNDS_BRANCH] = "bounds_branch",
	[HC_CALL] = "call",
	[HC_DISPATCH_JMP] = "dispatch_jmp",
	[HC_JMP] = "jmp",
	[HC_COND_BRANCH] = "cond_branch",
	[HC_MEM_ACCESS] = "mem_access",
	[HC_REGMOV] = "regmov",
	[HC_ALU] = "alu",
	[HC_OTHER] = "other",
	[HC_LINEAR_MEMORY] = "linear_memory",
	[HC_INDIRECT_DISPATCH] = "indirect_dispatch",
	[HC_DIRECT_BRANCH] = "direct_branch",
	[HC_DATA] = "inline_data_or_sample_skid",
};

static uint8_t frame_kind(const struct dc_insn *ni)
{
	if (ni->kind == DC_STACK)
		return strncasecmp(ni->text, "pop", 3) && strncasecmp(ni->text, "leave", 5) ?
			       HC_FRAME_STORE : HC_FRAME_LOAD;
	return ni->mem_write ? HC_FRAME_STORE : HC_FRAME_LOAD;
}

uint8_t cls_helper__of(enum cwasm_arch arch, const struct dc_insn *ni, uint8_t cls,
		       uint8_t detail, int frame)
{
	int a64 = arch == CWASM_ARCH_AARCH64;

	if (cls == CLS_DATA)
		return HC_DATA;
	if (detail == CLS_D_BOUNDS_CMP)
		return HC_BOUNDS_CMP;
	if (detail == CLS_D_BOUNDS_BRANCH)
		return HC_BOUNDS_BRANCH;
	if (frame)
		return frame_kind(ni);
	switch (ni->kind) {
	case DC_CALL:
		return HC_CALL;
	case DC_JMP:
		if (ni->indirect)
			return a64 ? HC_INDIRECT_DISPATCH : HC_DISPATCH_JMP;
		return a64 ? HC_DIRECT_BRANCH : HC_JMP;
	case DC_JCC:
		return HC_COND_BRANCH;
	case DC_RET: case DC_NOP: case DC_TRAP: case DC_STACK:
		return HC_OTHER;
	default:
		break;
	}
	if (cls == CLS_LINEAR_MEM && a64)
		return HC_LINEAR_MEMORY;
	if (cls__mem_op(ni) && ni->kind != DC_LEA)
		return ni->kind == DC_MOVE || ni->kind == DC_EXT ? HC_MEM_ACCESS : HC_ALU;
	if (ni->kind == DC_MOVE || ni->kind == DC_EXT)
		return a64 && ni->nops >= 2 && ni->op[1].type == DC_OP_IMM ? HC_ALU : HC_REGMOV;
	if (cls == CLS_ZEXT_MOVE)
		return HC_REGMOV;
	if (ni->kind == DC_LEA || ni->kind == DC_CMP || ni->kind == DC_ALU ||
	    (ni->kind == DC_OTHER && ni->nops))
		return HC_ALU;
	return HC_OTHER;
}

const char *cls__helper_class(const struct cls_func *f, uint32_t i)
{
	if (i >= f->ninsns || f->insns[i].helper >= HC__COUNT)
		return names[HC_OTHER];
	return names[f->insns[i].helper];
}
