# SPDX-License-Identifier: MIT
#
# A WAMR-style x86-64 function (FORMATS.md section 7: rbx = vmctx,
# r15 = linear-memory base, rbp frames) with a known number of
# instructions of each class; tests/unit/test_classify.c holds the
# expected counts, the comment on each line names its class. The whole
# .text is one function: objcopy -O binary gives its bytes.

	.intel_syntax noprefix
	.text
wamr_x86:
	push rbp				# other
	mov rbp, rsp				# reg_move
	sub rsp, 0x40				# alu
	mov DWORD PTR [rbp-0x14], edi		# frame_store
	mov QWORD PTR [rbp-0x20], rsi		# frame_store
	mov QWORD PTR [rsp+8], 0		# frame_store (rsp-based)
.Lloop:
	mov rax, QWORD PTR [rbp-0x20]		# spill_reload
	mov ecx, DWORD PTR [rbp-0x14]		# spill_reload
	add rax, QWORD PTR [rbp-0x18]		# spill_reload (folded into an add)
	add DWORD PTR [rbp-0x14], 1		# frame_store (read-modify-write)
	mov esi, esi				# zext_move
	mov edx, edx				# zext_move
	mov r8d, r8d				# zext_move
	mov eax, ecx				# reg_move (32-bit, but a copy)
	mov rdx, rax				# reg_move
	movaps xmm1, xmm0			# reg_move
	mov esi, 5				# alu (constant)
	xor eax, eax				# alu
	imul ecx, edx				# alu
	shl rdx, 3				# alu
	movzx eax, al				# alu
	movsxd rcx, ecx				# alu
	test ecx, ecx				# alu
	lea rdx, [rax+8]			# lea
	cmp rdx, QWORD PTR [rbx+8]		# bounds_check
	ja .Ltrap				# bounds_check
	mov eax, DWORD PTR [r15+rax]		# linear_mem
	mov DWORD PTR [r15+rcx+4], eax		# linear_mem
	movzx edx, BYTE PTR [r15+rdx]		# linear_mem
	lea rcx, [rax+4]			# lea
	cmp rcx, r9				# bounds_check (structural: reg-reg)
	jae .Ltrap2				# bounds_check
	mov rdi, QWORD PTR [rbx+0x10]		# other_mem (vmctx field)
	mov QWORD PTR [rbx+0x18], rdi		# other_mem
	cmp ecx, 10				# alu
	jb .Lin					# cond_branch (unsigned, not to a trap)
	mov ecx, 10				# alu
.Lin:
	lea r11, [rip+.Ltable]			# dispatch
	movsxd r10, DWORD PTR [r11+rcx*4]	# dispatch
	add r10, r11				# dispatch
	jmp r10					# dispatch
.Ltable:					# data x4
	.long .Lc0 - .Ltable
	.long .Lc1 - .Ltable
	.long .Lc2 - .Ltable
	.long .Lc0 - .Ltable
.Lc0:
	call .Lhelper				# call_direct
	jmp .Lnext				# branch
.Lc1:
	call r11				# call_indirect
	call QWORD PTR [rbx+0x40]		# call_indirect
	jmp .Lnext				# branch
.Lc2:
	cmp eax, 3				# alu
	je .Lnext				# cond_branch
	nop					# other
.Lnext:
	cmp DWORD PTR [rbp-0x14], 100		# spill_reload (compare with a slot)
	jl .Lloop				# cond_branch
	mov eax, DWORD PTR [rbp-0x14]		# spill_reload
	add rsp, 0x40				# alu
	pop rbp					# other
	ret					# other
.Ltrap:
	ud2					# other
	.byte 0x06, 0x07			# data (undecodable in 64-bit mode)
.Lhelper:
	mov eax, edi				# reg_move
	ret					# other
.Ltrap2:					# a trap stub ending in a call
	mov edi, 2				# alu
	call QWORD PTR [rbx+0x50]		# call_indirect
