// SPDX-License-Identifier: MIT
//
// The aarch64 counterpart of wamr_x86.S: x29 frames, vmctx in x19,
// linear-memory base in x28 (aotperf's default aarch64 roles), a
// br_table through an adr/ldrsw/add/br sequence with its table in text.
// Each line's comment names its class; tests/unit/test_classify.c holds
// the counts.

	.text
wamr_a64:
	stp x29, x30, [sp, #-32]!		// other (pre-indexed save)
	mov x29, sp				// reg_move
	str w0, [x29, #16]			// frame_store
	str x1, [sp, #24]			// frame_store
.Lloop:
	ldr x0, [x29, #24]			// spill_reload
	ldur w2, [x29, #-4]			// spill_reload
	ldr w1, [x29, #16]			// spill_reload
	mov w0, w0				// zext_move
	uxtw x2, w2				// zext_move (assembles as mov w2, w2)
	ubfx x3, x3, #0, #32			// zext_move
	mov w4, w5				// reg_move
	mov x6, x7				// reg_move
	fmov d0, d1				// reg_move
	mov x8, #5				// alu (constant)
	add w1, w1, #1				// alu
	eor x2, x2, x3				// alu
	lsl x4, x4, #3				// alu
	sxtw x5, w5				// alu
	adr x9, .Lloop				// lea
	ldr x10, [x19, #8]			// bounds_check (memory size from vmctx)
	add x11, x0, #8				// alu
	cmp x11, x10				// bounds_check
	b.hi .Ltrap				// bounds_check
	ldr w12, [x28, x0]			// linear_mem
	str w12, [x28, x1]			// linear_mem
	ldrb w13, [x28, x2]			// linear_mem
	ldr x14, [x19, #16]			// other_mem
	str x14, [x19, #24]			// other_mem
	cmp w0, #3				// alu
	b.hs .Lnext				// cond_branch (unsigned, not to a trap)
	adr x16, .Ltable			// dispatch
	ldrsw x17, [x16, w0, uxtw #2]		// dispatch
	add x16, x16, x17			// dispatch
	br x16					// dispatch
.Ltable:					// data x3
	.word .Lc0 - .Ltable
	.word .Lc1 - .Ltable
	.word .Lc2 - .Ltable
.Lc0:
	bl .Lhelper				// call_direct
	b .Lnext				// branch
.Lc1:
	blr x3					// call_indirect
	b .Lnext				// branch
.Lc2:
	cbz w0, .Lnext				// cond_branch
	nop					// other
.Lnext:
	ldr w1, [x29, #16]			// spill_reload
	cmp w1, #100				// alu
	b.lt .Lloop				// cond_branch
	ldp x29, x30, [sp], #32			// other (post-indexed restore)
	ret					// other
.Ltrap:
	brk #0					// other
	.inst 0xffffffff			// data (undecodable)
.Lhelper:
	mov w0, w1				// reg_move
	ret					// other
