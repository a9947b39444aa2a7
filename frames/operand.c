// SPDX-License-Identifier: MIT
/*
 * Which decoded instructions touch the frame, and the class the helper
 * gives them once a sidecar is known (docs/helper-interface.md, classes).
 */
#include <string.h>
#include "internal.h"

/* The load/store mnemonics a frame access can have on aarch64. */
static const char *const a64_ldst_mnems[] = {
	"ldr", "ldrb", "ldrh", "ldrsb", "ldrsh", "ldrsw", "ldur", "ldurb", "ldurh", "ldursb",
	"ldursh", "ldursw", "ldp", "ldpsw", "str", "strb", "strh", "stur", "sturb", "sturh", "stp",
};

static int mnem_is(const struct dc_insn *ni, const char *m)
{
	size_t n = strlen(m);

	return !strncmp(ni->text, m, n) && (ni->text[n] == ' ' || ni->text[n] == '\0');
}

static int x86_operand(const struct dc_insn *ni, struct frames_operand *op)
{
	if (ni->kind == DC_LEA || ni->kind == DC_NOP || ni->kind == DC_DATA)
		return 0;
	if ((mnem_is(ni, "push") || mnem_is(ni, "pop")) &&
	    !(ni->nops && ni->op[0].type == DC_OP_MEM)) {
		int push = mnem_is(ni, "push");

		op->kind = push ? FRAMES_STORE : FRAMES_LOAD;
		op->base = FRAMES_RSP;
		op->offset = push ? -8 : 0;
		op->width = 8;
		return 1;
	}
	for (int i = 0; i < ni->nops; i++) {
		const struct dc_op *m = &ni->op[i];
		int base_fp = m->base == X86_RBP || m->base == X86_RSP;

		if (m->type != DC_OP_MEM || (!base_fp && m->index != X86_RBP))
			continue;
		op->kind = ni->mem_write ? FRAMES_STORE : FRAMES_LOAD;
		/* an ALU op or xchg on memory reads it too */
		op->rmw = ni->mem_write && (ni->kind != DC_MOVE || mnem_is(ni, "xchg")) &&
			  ni->kind != DC_EXT && ni->kind != DC_STACK && strncmp(ni->text, "set", 3);
		op->base = m->base == X86_RSP ? FRAMES_RSP : FRAMES_RBP;
		op->complex = m->index != REG_NONE || !base_fp;
		op->offset = m->val;
		op->width = m->width;
		return 1;
	}
	return 0;
}

static int a64_operand(const struct dc_insn *ni, struct frames_operand *op)
{
	int hit = 0;

	for (size_t i = 0; i < sizeof(a64_ldst_mnems) / sizeof(a64_ldst_mnems[0]); i++)
		hit |= mnem_is(ni, a64_ldst_mnems[i]);
	if (!hit)
		return 0;
	for (int i = 0; i < ni->nops; i++) {
		const struct dc_op *m = &ni->op[i];

		if (m->type != DC_OP_MEM || (m->base != A64_X29 && m->base != A64_SP))
			continue;
		op->kind = ni->mem_write ? FRAMES_STORE : FRAMES_LOAD;
		op->base = m->base == A64_SP ? FRAMES_SP : FRAMES_X29;
		op->complex = m->index != REG_NONE;
		op->offset = m->val;
		return 1;
	}
	return 0;
}

int frames__operand(enum cwasm_arch arch, const struct dc_insn *ni, struct frames_operand *op)
{
	memset(op, 0, sizeof(*op));
	if (arch == CWASM_ARCH_X86_64)
		return x86_operand(ni, op);
	if (arch == CWASM_ARCH_AARCH64)
		return a64_operand(ni, op);
	return 0;
}

static const char *const class_names[FRAMES__NORIGINS][2] = {
	{ "allocator_spill_load", "allocator_spill_store" },
	{ "wasm_local_or_phi_load", "wasm_local_or_phi_store" },
	{ "explicit_frame_storage_load", "explicit_frame_storage_store" },
	{ "fixed_runtime_frame_state_load", "fixed_runtime_frame_state_store" },
	{ "unknown_load", "unknown_store" },
};

const char *frames__insn_class(const struct frames *fr, const struct dc_insn *ni, uint32_t off,
			       const struct frames_access **accp)
{
	const struct frames_access *acc = frames__access_at(fr, off);
	struct frames_operand op;

	if (accp)
		*accp = acc;
	if (acc)
		return class_names[acc->top.origin][acc->kind];
	if (frames__operand(fr->arch, ni, &op))
		return op.kind == FRAMES_LOAD ? "unknown_frame_load" : "unknown_frame_store";
	return NULL;
}
