# SPDX-License-Identifier: MIT
#
# The x86-64 generator that pins registers module-wide (FORMATS.md section
# 7, "x86, later"; docs/codegen-idioms.md, "Pinned registers"): rbx holds
# vmctx and r15 the linear-memory base in every function, 8 registers stay
# allocatable, and no function loads or saves rbx or r15: the roles come
# from the bounds check alone. Wasm arguments arrive in rdi, rsi (SysV).
# Every instruction carries its class ("#= CLASS", read by expect.awk, so
# the expected counts are the tags, never the classifier's output).
# Static decode only (classify.mk builds x86_pinned.cwasm, v11 SysV).

	.intel_syntax noprefix
	.text

# i32.load then i32.store of two wasm arguments, each behind a bounds
# check on [rbx+8]; the load addresses [r15+rax+disp], the store adds r15.
p_load_store:
	push rbp				#= frame_save
	mov rbp, rsp				#= reg_move
	sub rsp, 0x10				#= alu
	mov eax, edi				#= reg_move
	lea r11, [rax+0x14]			#= lea
	cmp r11, QWORD PTR [rbx+8]		#= bounds_check
	jbe .Lpl_ok1				#= bounds_check
	mov rdi, rbx				#= trap
	mov rax, QWORD PTR [rdi+0x50]		#= trap
	call rax				#= trap
.Lpl_ok1:
	mov ecx, DWORD PTR [r15+rax+0x10]	#= linear_mem
	mov DWORD PTR [rbp-8], ecx		#= frame_store
	mov eax, esi				#= reg_move
	lea r11, [rax+4]			#= lea
	cmp r11, QWORD PTR [rbx+8]		#= bounds_check
	jbe .Lpl_ok2				#= bounds_check
	mov rdi, rbx				#= trap
	mov rax, QWORD PTR [rdi+0x50]		#= trap
	call rax				#= trap
.Lpl_ok2:
	add rax, r15				#= alu
	mov ecx, DWORD PTR [rbp-8]		#= frame_load
	add ecx, DWORD PTR [rax]		#= linear_mem
	mov DWORD PTR [rax], ecx		#= linear_mem
	mov rdi, QWORD PTR [rbx+0x10]		#= vmctx_field
	mov eax, DWORD PTR [rdi+4]		#= other_mem
	mov rsp, rbp				#= reg_move
	pop rbp					#= frame_save
	ret					#= other

# br_table whose table the generator places after the function's ret:
# the dispatch's lea points there, and the first entry's bytes (e8 ff ff
# ff: the first case is 0x18 bytes before the table) read as a call.
p_br_table:
	push rbp				#= frame_save
	mov rbp, rsp				#= reg_move
	mov edi, edi				#= zext_move
	mov r11d, edi				#= reg_move
	cmp r11, 3				#= dispatch
	jae .Lpb_def				#= dispatch
	lea r10, [rip+.Lpb_tab]			#= dispatch
	movsxd r11, DWORD PTR [r10+r11*4]	#= dispatch
	add r10, r11				#= dispatch
	jmp r10					#= dispatch
.Lpb_c0:
	mov eax, 10				#= alu
	jmp .Lpb_out				#= branch
.Lpb_c1:
	mov eax, 11				#= alu
	jmp .Lpb_out				#= branch
.Lpb_c2:
	xor eax, eax				#= alu
	jmp .Lpb_out				#= branch
.Lpb_def:
	mov eax, edi				#= reg_move
.Lpb_out:
	pop rbp					#= frame_save
	ret					#= other
	.byte 0xcc, 0xcc			#= data
.Lpb_tab:
	.long .Lpb_c0 - .Lpb_tab		#= data
	.long .Lpb_c1 - .Lpb_tab		#= data
	.long .Lpb_c2 - .Lpb_tab		#= data

# A pinned vmctx survives calls (rbx is callee-saved): the bounds check
# after a direct call still reads [rbx+8]; the access is [r15+rax].
p_after_call:
	push rbp				#= frame_save
	mov rbp, rsp				#= reg_move
	sub rsp, 0x10				#= alu
	mov DWORD PTR [rbp-4], edi		#= frame_store
	call p_br_table				#= call_direct
	mov eax, DWORD PTR [rbp-4]		#= frame_load
	mov r11, rax				#= reg_move
	cmp r11, QWORD PTR [rbx+8]		#= bounds_check
	jbe .Lpc_ok				#= bounds_check
	mov rdi, rbx				#= trap
	mov rax, QWORD PTR [rdi+0x50]		#= trap
	call rax				#= trap
.Lpc_ok:
	mov eax, DWORD PTR [r15+rax]		#= linear_mem
	mov rsp, rbp				#= reg_move
	pop rbp					#= frame_save
	ret					#= other

# No pinned register: rbx is saved by the prologue (an allocatable callee
# save) and r15 never reached a bounds check; a compare of a field 8
# whose branch lands on ordinary code is no bounds check.
p_no_pin:
	push rbp				#= frame_save
	mov rbp, rsp				#= reg_move
	push rbx				#= frame_save
	mov rbx, QWORD PTR [rdi+0x18]		#= vmctx_field
	mov eax, esi				#= reg_move
	cmp rax, QWORD PTR [rbx+8]		#= other_mem
	jbe .Lpn_in				#= cond_branch
	mov rcx, rbx				#= reg_move
	mov rax, QWORD PTR [rcx+0x50]		#= other_mem
	call rax				#= call_indirect
.Lpn_in:
	mov eax, DWORD PTR [r15+rax]		#= other_mem
	cmp rax, QWORD PTR [r12+8]		#= other_mem
	jae .Lpn_out				#= cond_branch
	add eax, 1				#= alu
.Lpn_out:
	pop rbx					#= frame_save
	pop rbp					#= frame_save
	ret					#= other
