// SPDX-License-Identifier: MIT
/*
 * Mnemonics to instruction kinds. Capstone's Intel mnemonics and objdump's
 * (Intel or AT&T) go through the same tables, so the raw-byte and text
 * paths cannot drift apart.
 */
#include <string.h>
#include <strings.h>
#include "internal.h"

struct mnem_ent {
	const char *name;
	uint8_t kind;
};

static const struct mnem_ent x86_tab[] = {
	{ "jmp", NI_JMP }, { "ljmp", NI_JMP },
	{ "call", NI_CALL }, { "lcall", NI_CALL },
	{ "ret", NI_RET }, { "retn", NI_RET }, { "retf", NI_RET }, { "lret", NI_RET },
	{ "iret", NI_RET }, { "iretq", NI_RET }, { "iretd", NI_RET },
	{ "ud2", NI_TRAP }, { "ud1", NI_TRAP }, { "ud0", NI_TRAP }, { "int3", NI_TRAP },
	{ "int", NI_TRAP }, { "int1", NI_TRAP }, { "hlt", NI_TRAP },
	{ "nop", NI_NOP }, { "endbr64", NI_NOP }, { "endbr32", NI_NOP }, { "pause", NI_NOP },
	{ "fnop", NI_NOP },
	{ "push", NI_STACK }, { "pop", NI_STACK }, { "pushf", NI_STACK }, { "popf", NI_STACK },
	{ "pushfq", NI_STACK }, { "popfq", NI_STACK }, { "enter", NI_STACK },
	{ "leave", NI_STACK },
	{ "lea", NI_LEA },
	{ "cmp", NI_CMP }, { "test", NI_CMP },
	{ "mov", NI_MOVE }, { "movabs", NI_MOVE }, { "movq", NI_MOVE }, { "movd", NI_MOVE },
	{ "movaps", NI_MOVE }, { "movapd", NI_MOVE }, { "movups", NI_MOVE },
	{ "movupd", NI_MOVE }, { "movdqa", NI_MOVE }, { "movdqu", NI_MOVE },
	{ "movss", NI_MOVE }, { "movsd", NI_MOVE }, { "movhps", NI_MOVE },
	{ "movlps", NI_MOVE }, { "movhpd", NI_MOVE }, { "movlpd", NI_MOVE },
	{ "movnti", NI_MOVE }, { "movntdq", NI_MOVE }, { "movntps", NI_MOVE },
	{ "xchg", NI_MOVE },
	{ "vmovaps", NI_MOVE }, { "vmovapd", NI_MOVE }, { "vmovups", NI_MOVE },
	{ "vmovupd", NI_MOVE }, { "vmovdqa", NI_MOVE }, { "vmovdqu", NI_MOVE },
	{ "vmovdqa64", NI_MOVE }, { "vmovdqu64", NI_MOVE }, { "vmovdqu8", NI_MOVE },
	{ "vmovss", NI_MOVE }, { "vmovsd", NI_MOVE }, { "vmovq", NI_MOVE }, { "vmovd", NI_MOVE },
	{ "movzx", NI_EXT }, { "movsx", NI_EXT }, { "movsxd", NI_EXT },
	/* AT&T spellings of the extending moves */
	{ "movzbl", NI_EXT }, { "movzwl", NI_EXT }, { "movzbw", NI_EXT }, { "movzbq", NI_EXT },
	{ "movzwq", NI_EXT }, { "movsbl", NI_EXT }, { "movswl", NI_EXT }, { "movsbw", NI_EXT },
	{ "movsbq", NI_EXT }, { "movswq", NI_EXT }, { "movslq", NI_EXT },
	/* operand-less sign extensions */
	{ "cdq", NI_ALU }, { "cqo", NI_ALU }, { "cdqe", NI_ALU }, { "cwde", NI_ALU },
	{ "cbw", NI_ALU }, { "cwd", NI_ALU }, { "cltq", NI_ALU }, { "cltd", NI_ALU },
	{ "cqto", NI_ALU }, { "cwtl", NI_ALU }, { "cbtw", NI_ALU }, { "cwtd", NI_ALU },
	/* string moves are not register moves */
	{ "movsb", NI_OTHER }, { "movsw", NI_OTHER }, { "movsl", NI_OTHER },
	{ "movsq", NI_OTHER },
};

/* Jcc and loop mnemonics without the 'j'; unsigned conditions flagged. */
static const struct { const char *cc; uint8_t uns; } x86_cc[] = {
	{ "a", 1 }, { "ae", 1 }, { "b", 1 }, { "be", 1 }, { "c", 1 }, { "na", 1 },
	{ "nae", 1 }, { "nb", 1 }, { "nbe", 1 }, { "nc", 1 },
	{ "e", 0 }, { "ne", 0 }, { "z", 0 }, { "nz", 0 }, { "g", 0 }, { "ge", 0 },
	{ "l", 0 }, { "le", 0 }, { "ng", 0 }, { "nge", 0 }, { "nl", 0 }, { "nle", 0 },
	{ "o", 0 }, { "no", 0 }, { "p", 0 }, { "np", 0 }, { "pe", 0 }, { "po", 0 },
	{ "s", 0 }, { "ns", 0 }, { "cxz", 0 }, { "ecxz", 0 }, { "rcxz", 0 },
};

static int lookup(const struct mnem_ent *t, size_t n, const char *m, uint8_t *kind)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(t[i].name, m)) {
			*kind = t[i].kind;
			return 1;
		}
	return 0;
}

static int x86_jcc(const char *m, struct mnem_info *mi)
{
	if (m[0] == 'j') {
		for (size_t i = 0; i < sizeof(x86_cc) / sizeof(x86_cc[0]); i++)
			if (!strcmp(m + 1, x86_cc[i].cc)) {
				mi->kind = NI_JCC;
				mi->cc_unsigned = x86_cc[i].uns;
				return 1;
			}
	}
	if (!strncmp(m, "loop", 4)) {
		mi->kind = NI_JCC;
		return 1;
	}
	return 0;
}

static void x86_mnem(const char *m, int att, struct mnem_info *mi)
{
	size_t len = strlen(m);
	char base[32];

	if (lookup(x86_tab, sizeof(x86_tab) / sizeof(x86_tab[0]), m, &mi->kind) ||
	    x86_jcc(m, mi))
		return;
	/* AT&T operand-size suffixes: movl, addq, cmpb, callq, jmpq, nopw */
	if (att && len > 2 && len < sizeof(base) && strchr("bwlq", m[len - 1])) {
		memcpy(base, m, len - 1);
		base[len - 1] = '\0';
		if (lookup(x86_tab, sizeof(x86_tab) / sizeof(x86_tab[0]), base, &mi->kind) ||
		    x86_jcc(base, mi))
			return;
		m = base;
	}
	if (!strncmp(m, "cmov", 4) || !strncmp(m, "set", 3))
		mi->kind = NI_ALU;
	else if (!strncmp(m, "prefetch", 8) || !strncmp(m, "clflush", 7) ||
		 !strcmp(m, "lfence") || !strcmp(m, "mfence") || !strcmp(m, "sfence"))
		mi->kind = NI_OTHER;
	else if (!strncmp(m, "nop", 3))
		mi->kind = NI_NOP;
	else
		mi->kind = NI_OTHER; /* with operands, the classifier treats it as ALU */
}

static const struct mnem_ent a64_tab[] = {
	{ "b", NI_JMP }, { "br", NI_JMP }, { "braa", NI_JMP }, { "brab", NI_JMP },
	{ "braaz", NI_JMP }, { "brabz", NI_JMP },
	{ "cbz", NI_JCC }, { "cbnz", NI_JCC }, { "tbz", NI_JCC }, { "tbnz", NI_JCC },
	{ "bl", NI_CALL }, { "blr", NI_CALL }, { "blraa", NI_CALL }, { "blrab", NI_CALL },
	{ "blraaz", NI_CALL }, { "blrabz", NI_CALL },
	{ "ret", NI_RET }, { "retaa", NI_RET }, { "retab", NI_RET }, { "eret", NI_RET },
	{ "brk", NI_TRAP }, { "udf", NI_TRAP }, { "hlt", NI_TRAP },
	{ "nop", NI_NOP }, { "hint", NI_NOP }, { "bti", NI_NOP }, { "paciasp", NI_NOP },
	{ "autiasp", NI_NOP }, { "pacibsp", NI_NOP }, { "autibsp", NI_NOP },
	{ "yield", NI_NOP },
	{ "adr", NI_LEA }, { "adrp", NI_LEA },
	{ "cmp", NI_CMP }, { "cmn", NI_CMP }, { "tst", NI_CMP }, { "ccmp", NI_CMP },
	{ "ccmn", NI_CMP }, { "fcmp", NI_CMP }, { "fcmpe", NI_CMP },
	{ "mov", NI_MOVE }, { "fmov", NI_MOVE },
	{ "sxtw", NI_EXT }, { "sxth", NI_EXT }, { "sxtb", NI_EXT }, { "uxth", NI_EXT },
	{ "uxtb", NI_EXT },
	{ "prfm", NI_OTHER }, { "prfum", NI_OTHER }, { "dmb", NI_OTHER }, { "dsb", NI_OTHER },
	{ "isb", NI_OTHER }, { "svc", NI_OTHER },
};

/* b.hi / b.hs / b.cs / b.lo / b.cc / b.ls: unsigned compares */
static int a64_unsigned_cc(const char *cc)
{
	static const char *const uns[] = { "hi", "hs", "cs", "lo", "cc", "ls" };

	for (size_t i = 0; i < sizeof(uns) / sizeof(uns[0]); i++)
		if (!strcmp(cc, uns[i]))
			return 1;
	return 0;
}

static void a64_mnem(const char *m, struct mnem_info *mi)
{
	if (m[0] == 'b' && m[1] == '.') {
		mi->kind = NI_JCC;
		mi->cc_unsigned = (uint8_t)a64_unsigned_cc(m + 2);
		return;
	}
	if (lookup(a64_tab, sizeof(a64_tab) / sizeof(a64_tab[0]), m, &mi->kind))
		return;
	if (!strncmp(m, "ld", 2)) {
		mi->kind = NI_MOVE;
	} else if (!strncmp(m, "st", 2)) {
		mi->kind = NI_MOVE;
		mi->mem_store = 1;
	} else {
		mi->kind = NI_OTHER;
	}
}

void cls_mnem(enum cwasm_arch arch, const char *mnem, int att, struct mnem_info *mi)
{
	char low[32];
	size_t i;

	memset(mi, 0, sizeof(*mi));
	for (i = 0; i < sizeof(low) - 1 && mnem[i]; i++)
		low[i] = (char)(mnem[i] >= 'A' && mnem[i] <= 'Z' ? mnem[i] + 32 : mnem[i]);
	low[i] = '\0';
	if (arch == CWASM_ARCH_AARCH64)
		a64_mnem(low, mi);
	else
		x86_mnem(low, att, mi);
}

/* Prefix words objdump and capstone print before the mnemonic. */
static const char *const prefixes[] = {
	"lock", "rep", "repz", "repnz", "repe", "repne", "cs", "ds", "ss", "es", "fs", "gs",
	"data16", "data32", "addr32", "addr16", "notrack", "bnd", "xacquire", "xrelease",
	"rex", "rex.w", "rex.b", "rex.r", "rex.x", "rex.wb", "rex.wr", "rex.wx", "rex.rb",
	"rex.wrb", "rex.wrxb", "rex.xb", "rex.wxb", "rex.rx", "rex.rxb", "rex.wrx",
};

const char *cls_skip_prefixes(const char *s)
{
	for (;;) {
		size_t len;
		int hit = 0;

		while (*s == ' ' || *s == '\t')
			s++;
		len = strcspn(s, " \t");
		if (!s[len])
			return s; /* a prefix alone is the mnemonic */
		for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
			if (strlen(prefixes[i]) == len && !strncasecmp(s, prefixes[i], len))
				hit = 1;
		if (!hit)
			return s;
		s += len;
	}
}

static int first_mem(const struct cls_ni *ni)
{
	for (int i = 0; i < ni->nops; i++)
		if (ni->op[i].type == OP_MEM)
			return i;
	return -1;
}

/* One-operand x86 instructions that write their memory operand (mul/div only read it). */
static int x86_unary_rmw(const char *m)
{
	return !strncasecmp(m, "inc", 3) || !strncasecmp(m, "dec", 3) || !strncasecmp(m, "not", 3) ||
	       !strncasecmp(m, "neg", 3) || !strncasecmp(m, "set", 3);
}

/* aarch64 zero-extends spelled as bitfield ops: ubfx xN, xN, #0, #32 / and xN, xN, #0xffffffff */
static int a64_zext_form(const char *m, const struct cls_ni *ni)
{
	const struct ni_op *o = ni->op;

	if (ni->nops < 3 || o[0].type != OP_REG || o[1].type != OP_REG || o[0].reg != o[1].reg)
		return 0;
	if (!strcmp(m, "ubfx"))
		return ni->nops == 4 && o[2].type == OP_IMM && o[2].val == 0 &&
		       o[3].type == OP_IMM && o[3].val == 32;
	if (!strcmp(m, "and"))
		return ni->nops == 3 && o[2].type == OP_IMM && o[2].val == 0xffffffffLL;
	return 0;
}

void cls_ni_finish(enum cwasm_arch arch, const char *mnem, int att, struct cls_ni *ni)
{
	struct mnem_info mi;
	int mem;

	cls_mnem(arch, mnem, att, &mi);
	ni->kind = mi.kind;
	ni->cc_unsigned = mi.cc_unsigned;
	mem = first_mem(ni);
	if (mem >= 0) {
		if (arch == CWASM_ARCH_AARCH64)
			ni->mem_write = mi.mem_store;
		else if (ni->nops == 1)
			ni->mem_write = x86_unary_rmw(mnem);
		else
			ni->mem_write = mem == 0 && mi.kind != NI_CMP;
	}
	switch (mi.kind) {
	case NI_JMP:
	case NI_CALL:
	case NI_JCC:
		if (ni->nops && ni->op[ni->nops - 1].type == OP_IMM) {
			ni->has_target = 1;
			ni->target = (uint64_t)ni->op[ni->nops - 1].val;
		} else if (mi.kind != NI_JCC) {
			ni->indirect = 1;
		}
		break;
	case NI_LEA:
		if (arch == CWASM_ARCH_AARCH64 && ni->nops == 2 && ni->op[1].type == OP_IMM) {
			ni->has_target = 1;
			ni->target = (uint64_t)ni->op[1].val;
		}
		break;
	default:
		break;
	}
	if (arch == CWASM_ARCH_AARCH64)
		ni->zext_form = (uint8_t)a64_zext_form(mnem, ni);
}
