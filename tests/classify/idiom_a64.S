// SPDX-License-Identifier: MIT
//
// The aarch64 generator's idioms (docs/codegen-idioms.md): x19 pinned to
// vmctx, x20 to the memory base, bounds checks through x16, br_table as a
// compare chain, call_indirect blr x16, tail calls. Every instruction
// carries its class ("//= CLASS", read by expect.awk). Static decode only.

	.text

a_load_store:
	stp x29, x30, [sp, #-48]!		//= frame_save
	mov x29, sp				//= reg_move
	str x19, [x29, #24]			//= frame_save
	str x20, [x29, #32]			//= frame_save
	nop					//= other
	mov x19, x0				//= reg_move
	ldr x20, [x19]				//= vmctx_field
	str x19, [x29, #16]			//= vmctx_save
	str w1, [x29, #40]			//= frame_store
	ldr w9, [x29, #40]			//= frame_load
	mov w9, w9				//= zext_move
	add x17, x9, #4				//= alu
	ldr x16, [x19, #8]			//= bounds_check
	cmp x17, x16				//= bounds_check
	b.ls 1f					//= bounds_check
	mov x0, x19				//= trap
	ldr x16, [x0, #80]			//= trap
	blr x16					//= trap
	brk #0					//= trap
1:	ldr w10, [x20, x9]			//= linear_mem
	add x16, x20, x9			//= alu
	str w10, [x16, #8]			//= linear_mem
	cmp w10, #0				//= dispatch
	b.eq 2f					//= dispatch
	cmp w10, #1				//= dispatch
	b.eq 3f					//= dispatch
	cmp w10, #2				//= dispatch
	b.eq 4f					//= dispatch
	b 5f					//= dispatch
2:	mov w0, #1				//= alu
	b 6f					//= branch
3:	mov w0, #2				//= alu
	b 6f					//= branch
4:	mov w0, #3				//= alu
	b 6f					//= branch
5:	mov w0, #4				//= alu
6:	ldr x16, [x19, #120]			//= vmctx_field
	mov x0, x19				//= reg_move
	blr x16					//= call_indirect
	ldr x20, [x19]				//= vmctx_field
	mov x0, x19				//= reg_move
	bl a_tail				//= call_direct
	cbz w0, 7f				//= cond_branch
	ldr x19, [x29, #16]			//= vmctx_reload
	mov w0, w10				//= reg_move
7:	ldr x19, [x29, #24]			//= frame_save
	ldr x20, [x29, #32]			//= frame_save
	ldp x29, x30, [sp], #48			//= frame_save
	ret					//= other

a_tail:
	stp x29, x30, [sp, #-16]!		//= frame_save
	mov x29, sp				//= reg_move
	ldr x16, [x0, #160]			//= vmctx_field
	ldp x29, x30, [sp], #16			//= frame_save
	br x16					//= tail_call

a_tail_direct:
	stp x29, x30, [sp, #-16]!		//= frame_save
	mov x29, sp				//= reg_move
	ldp x29, x30, [sp], #16			//= frame_save
	b a_load_store				//= tail_call

// The other aarch64 vmctx idiom (a generator version with x19..x28
// allocatable): vmctx spilled to [x29, #16] and reloaded into the scratch
// x16 at each use; the trap block after the epilogue, branched to.
a_reload:
	stp x29, x30, [sp, #-64]!		//= frame_save
	mov x29, sp				//= reg_move
	str x0, [x29, #16]			//= vmctx_save
	str x1, [x29, #24]			//= frame_store
	str x19, [x29, #48]			//= frame_save
	ldr w9, [x29, #24]			//= frame_load
	ldr x16, [x29, #16]			//= vmctx_reload
	add x17, x9, #4				//= alu
	ldr x15, [x16, #8]			//= bounds_check
	cmp x17, x15				//= bounds_check
	b.hi 1f					//= bounds_check
	ldr x15, [x16]				//= vmctx_field
	ldr w19, [x15, x9]			//= linear_mem
	add w0, w19, #1				//= alu
	ldr x19, [x29, #48]			//= frame_save
	ldp x29, x30, [sp], #64			//= frame_save
	ret					//= other
1:	mov x0, x16				//= trap
	ldr x16, [x0, #80]			//= trap
	blr x16					//= trap
	brk #0					//= trap

// Pinned module-wide (FORMATS.md section 7, aarch64): this function never
// loads or saves x19 (vmctx) or x20 (the memory base): the bounds check
// on [x19, #8] and the accesses it guards show them.
a_pinned:
	stp x29, x30, [sp, #-16]!		//= frame_save
	mov x29, sp				//= reg_move
	mov w9, w1				//= reg_move
	add x17, x9, #4				//= alu
	ldr x16, [x19, #8]			//= bounds_check
	cmp x17, x16				//= bounds_check
	b.ls 1f					//= bounds_check
	mov x0, x19				//= trap
	ldr x16, [x0, #80]			//= trap
	blr x16					//= trap
	brk #0					//= trap
1:	ldr w10, [x20, x9]			//= linear_mem
	add x16, x20, x9			//= alu
	str w10, [x16, #8]			//= linear_mem
	ldr x16, [x19, #16]			//= vmctx_field
	ldr w0, [x16]				//= other_mem
	add w0, w0, w10				//= alu
	ldp x29, x30, [sp], #16			//= frame_save
	ret					//= other
