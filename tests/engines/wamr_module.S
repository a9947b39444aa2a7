# SPDX-License-Identifier: MIT
#
# The WAMR side of module.wat, for comparisons with another engine: one
# function per local function of the wasm, in the same order and with the
# same names, written in the idioms of WAMR's x86-64 AOT code
# (docs/codegen-idioms.md, the pinned-register form: rbx = vmctx, r15 =
# linear-memory base, vmctx +8 = memory size in bytes, imports called through a
# function-pointer table at vmctx +0x100). tests/e2e/engines_v8.sh makes
# the .cwasm (mkfixture --imports 2: module.wat's two function imports),
# so local_func N here is wasm function N + 2 there:
#
#   local 0 sum, 1 dispatch, 2 cold, 3 unused
#   local 4 entry_sum, 5 entry_dispatch: the runtime's invoke_native
#   trampolines tests/loader calls (SysV: rdi vmctx, rsi memory, rdx
#   trips); they are not wasm functions.
#
# Each function computes what its wat twin computes (sum: acc += mem[a];
# mem[a] = acc ^ i), so both engines do the same work per call.

	.intel_syntax noprefix
	.text

	.p2align 4
sum:
	push rbp
	mov rbp, rsp
	sub rsp, 0x10
	mov DWORD PTR [rbp-0x4], edi		# n
	xor eax, eax
	mov DWORD PTR [rbp-0x8], eax		# i
	mov DWORD PTR [rbp-0xc], eax		# acc
.Lsum_loop:
	mov ecx, DWORD PTR [rbp-0x8]
	mov edx, ecx
	shl edx, 2
	and edx, 0xfffc
	mov edx, edx				# i32 address, zero-extended
	lea r11, [rdx+4]
	cmp r11, QWORD PTR [rbx+8]
	ja .Lsum_trap
	mov eax, DWORD PTR [r15+rdx]
	add eax, DWORD PTR [rbp-0xc]
	mov DWORD PTR [rbp-0xc], eax
	xor eax, ecx
	mov DWORD PTR [r15+rdx], eax
	add ecx, 1
	mov DWORD PTR [rbp-0x8], ecx
	cmp ecx, DWORD PTR [rbp-0x4]
	jb .Lsum_loop
	mov eax, DWORD PTR [rbp-0xc]
	mov eax, eax
	mov rsp, rbp
	pop rbp
	ret
.Lsum_trap:
	ud2

	.p2align 4
dispatch:
	push rbp
	mov rbp, rsp
	sub rsp, 0x10
	mov DWORD PTR [rbp-0x4], edi		# n
	xor ecx, ecx				# i
	xor eax, eax				# acc
.Ld_loop:
	mov r11d, ecx
	xor r11d, eax
	and r11d, 3
	cmp r11, 4
	jae .Ld_three
	lea r10, [rip+.Ld_table]
	movsxd r11, DWORD PTR [r10+r11*4]
	add r10, r11
	jmp r10
.Ld_table:
	.long .Ld_zero - .Ld_table
	.long .Ld_one - .Ld_table
	.long .Ld_two - .Ld_table
	.long .Ld_three - .Ld_table
.Ld_zero:
	add eax, 0x9e37
	jmp .Ld_next
.Ld_one:
	xor eax, ecx
	jmp .Ld_next
.Ld_two:
	imul eax, eax, 7
	jmp .Ld_next
.Ld_three:
	rol eax, 5
.Ld_next:
	add ecx, 1
	cmp ecx, DWORD PTR [rbp-0x4]
	jb .Ld_loop
	mov eax, eax
	mov rsp, rbp
	pop rbp
	ret

	.p2align 4
cold:
	push rbp
	mov rbp, rsp
	push r12
	sub rsp, 8
	mov r12d, edi
	mov rdi, rbx
	mov esi, r12d
	mov rax, QWORD PTR [rbx+0x100]		# import 0: env.log
	call rax
	mov rdi, rbx
	mov rax, QWORD PTR [rbx+0x108]		# import 1: env.tick
	call rax
	add eax, r12d
	mov eax, eax
	add rsp, 8
	pop r12
	pop rbp
	ret

	.p2align 4
unused:
	push rbp
	mov rbp, rsp
	mov eax, edi
	imul eax, edi
	mov eax, eax
	pop rbp
	ret

	.p2align 4
entry_sum:
	push rbp
	mov rbp, rsp
	push rbx
	push r15
	mov rbx, rdi
	mov r15, rsi
	mov edi, edx
	call sum
	pop r15
	pop rbx
	pop rbp
	ret

	.p2align 4
entry_dispatch:
	push rbp
	mov rbp, rsp
	push rbx
	push r15
	mov rbx, rdi
	mov r15, rsi
	mov edi, edx
	call dispatch
	pop r15
	pop rbx
	pop rbp
	ret
