// SPDX-License-Identifier: MIT
/* Register names to families, for both capstone's and objdump's spelling. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "decode.h"

static const char *const x86_q[] = { "rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi" };
static const char *const x86_d[] = { "eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi" };
static const char *const x86_w[] = { "ax", "cx", "dx", "bx", "sp", "bp", "si", "di" };
static const char *const x86_b[] = { "al", "cl", "dl", "bl", "spl", "bpl", "sil", "dil" };
static const char *const x86_h[] = { "ah", "ch", "dh", "bh" };

static int eq(const char *s, size_t len, const char *name)
{
	return strlen(name) == len && !strncmp(s, name, len);
}

/* Decimal number of 1-2 digits at s[0..len), or -1. */
static int small_num(const char *s, size_t len)
{
	int v = 0;

	if (!len || len > 2)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

static int x86_reg(const char *s, size_t len, uint8_t *fam, uint8_t *width)
{
	int n;

	for (int i = 0; i < 8; i++) {
		if (eq(s, len, x86_q[i]))
			return *fam = X86_RAX + i, *width = 8, 1;
		if (eq(s, len, x86_d[i]))
			return *fam = X86_RAX + i, *width = 4, 1;
		if (eq(s, len, x86_w[i]))
			return *fam = X86_RAX + i, *width = 2, 1;
		if (eq(s, len, x86_b[i]))
			return *fam = X86_RAX + i, *width = 1, 1;
		if (i < 4 && eq(s, len, x86_h[i]))
			return *fam = X86_RAX + i, *width = 1, 1;
	}
	if (eq(s, len, "rip") || eq(s, len, "eip"))
		return *fam = X86_RIP, *width = 8, 1;
	if (len >= 2 && s[0] == 'r' && isdigit((unsigned char)s[1])) {
		/* r8..r15 with an optional d/w/b (objdump) or l (some) suffix */
		size_t k = 1;

		while (k < len && isdigit((unsigned char)s[k]))
			k++;
		n = small_num(s + 1, k - 1);
		if (n < 8 || n > 15 || len - k > 1)
			return 0;
		*fam = (uint8_t)(X86_R8 + n - 8);
		*width = k == len ? 8 : s[k] == 'd' ? 4 : s[k] == 'w' ? 2 :
			 (s[k] == 'b' || s[k] == 'l') ? 1 : 0;
		return *width != 0;
	}
	if (len >= 4 && (!strncmp(s, "xmm", 3) || !strncmp(s, "ymm", 3) || !strncmp(s, "zmm", 3))) {
		n = small_num(s + 3, len - 3);
		if (n < 0 || n > 31)
			return 0;
		*fam = (uint8_t)(REG_VEC + n);
		*width = s[0] == 'x' ? 16 : s[0] == 'y' ? 32 : 64;
		return 1;
	}
	/* segment, mask, x87 and MMX registers: known, but never a role */
	if (eq(s, len, "cs") || eq(s, len, "ds") || eq(s, len, "es") || eq(s, len, "fs") ||
	    eq(s, len, "gs") || eq(s, len, "ss") || (len >= 2 && s[0] == 's' && s[1] == 't') ||
	    (len == 2 && s[0] == 'k' && isdigit((unsigned char)s[1])) ||
	    (len == 3 && s[0] == 'm' && s[1] == 'm' && isdigit((unsigned char)s[2])))
		return *fam = REG_OTHER, *width = 0, 1;
	return 0;
}

static int a64_reg(const char *s, size_t len, uint8_t *fam, uint8_t *width)
{
	int n;

	if (eq(s, len, "sp"))
		return *fam = A64_SP, *width = 8, 1;
	if (eq(s, len, "wsp"))
		return *fam = A64_SP, *width = 4, 1;
	if (eq(s, len, "xzr"))
		return *fam = A64_XZR, *width = 8, 1;
	if (eq(s, len, "wzr"))
		return *fam = A64_XZR, *width = 4, 1;
	if (eq(s, len, "fp"))
		return *fam = A64_X29, *width = 8, 1;
	if (eq(s, len, "lr"))
		return *fam = A64_X30, *width = 8, 1;
	if (eq(s, len, "ip0") || eq(s, len, "ip1"))
		return *fam = (uint8_t)(A64_X16 + (s[2] - '0')), *width = 8, 1;
	if (len < 2)
		return 0;
	n = small_num(s + 1, len - 1);
	if (n < 0)
		return 0;
	switch (s[0]) {
	case 'x':
	case 'w':
		if (n > 30)
			return 0;
		*fam = (uint8_t)(A64_X0 + n);
		*width = s[0] == 'x' ? 8 : 4;
		return 1;
	case 'v': case 'q': case 'd': case 's': case 'h': case 'b':
		if (n > 31)
			return 0;
		*fam = (uint8_t)(REG_VEC + n);
		*width = s[0] == 'q' || s[0] == 'v' ? 16 : s[0] == 'd' ? 8 : s[0] == 's' ? 4 :
			 s[0] == 'h' ? 2 : 1;
		return 1;
	default:
		return 0;
	}
}

int dc__reg_parse(enum cwasm_arch arch, const char *name, size_t len, uint8_t *fam,
		  uint8_t *width)
{
	char low[16];

	if (!len || len >= sizeof(low))
		return 0;
	for (size_t i = 0; i < len; i++)
		low[i] = (char)tolower((unsigned char)name[i]);
	low[len] = '\0';
	if (arch == CWASM_ARCH_AARCH64)
		return a64_reg(low, len, fam, width);
	return x86_reg(low, len, fam, width);
}

const char *dc__reg_name(enum cwasm_arch arch, uint8_t fam)
{
	static const char *const x86_hi[] = { "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15" };
	static const char *const a64[] = {
		"x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10",
		"x11", "x12", "x13", "x14", "x15", "x16", "x17", "x18", "x19", "x20",
		"x21", "x22", "x23", "x24", "x25", "x26", "x27", "x28", "x29", "x30",
		"sp",
	};

	if (fam == REG_NONE)
		return "none";
	if (arch == CWASM_ARCH_AARCH64)
		return fam <= A64_SP ? a64[fam - 1] : "?";
	if (fam <= X86_RDI)
		return x86_q[fam - 1];
	if (fam <= X86_R15)
		return x86_hi[fam - X86_R8];
	return fam == X86_RIP ? "rip" : "?";
}
