// SPDX-License-Identifier: MIT
/*
 * Mnemonics to instruction kinds. Capstone's Intel mnemonics and objdump's
 * (Intel or AT&T) go through the same tables, so the raw-byte and text
 * paths cannot drift apart.
 */
#include <string.h>
#include <strings.h>
#include "decode.h"

struct mnem_ent {
	const char *name;
	uint8_t kind;
};

static const struct mnem_ent x86_tab[] = {
	{ "jmp", DC_JMP }, { "ljmp", DC_JMP },
	{ "call", DC_CALL }, { "lcall", DC_CALL },
	{ "ret", DC_RET }, { "retn", DC_RET }, { "retf", DC_RET }, { "lret", DC_RET },
	{ "iret", DC_RET }, { "iretq", DC_RET }, { "iretd", DC_RET },
	{ "ud2", DC_TRAP }, { "ud1", DC_TRAP }, { "ud0", DC_TRAP }, { "int3", DC_TRAP },
	{ "int", DC_TRAP }, { "int1", DC_TRAP }, { "hlt", DC_TRAP },
	{ "nop", DC_NOP }, { "endbr64", DC_NOP }, { "endbr32", DC_NOP }, { "pause", DC_NOP },
	{ "fnop", DC_NOP },
	{ "push", DC_STACK }, { "pop", DC_STACK }, { "pushf", DC_STACK }, { "popf", DC_STACK },
	{ "pushfq", DC_STACK }, { "popfq", DC_STACK }, { "enter", DC_STACK },
	{ "leave", DC_STACK },
	{ "lea", DC_LEA },
	{ "cmp", DC_CMP }, { "test", DC_CMP },
	{ "mov", DC_MOVE }, { "movabs", DC_MOVE }, { "movq", DC_MOVE }, { "movd", DC_MOVE },
	{ "movaps", DC_MOVE }, { "movapd", DC_MOVE }, { "movups", DC_MOVE },
	{ "movupd", DC_MOVE }, { "movdqa", DC_MOVE }, { "movdqu", DC_MOVE },
	{ "movss", DC_MOVE }, { "movsd", DC_MOVE }, { "movhps", DC_MOVE },
	{ "movlps", DC_MOVE }, { "movhpd", DC_MOVE }, { "movlpd", DC_MOVE },
	{ "movnti", DC_MOVE }, { "movntdq", DC_MOVE }, { "movntps", DC_MOVE },
	{ "xchg", DC_MOVE },
	{ "vmovaps", DC_MOVE }, { "vmovapd", DC_MOVE }, { "vmovups", DC_MOVE },
	{ "vmovupd", DC_MOVE }, { "vmovdqa", DC_MOVE }, { "vmovdqu", DC_MOVE },
	{ "vmovdqa64", DC_MOVE }, { "vmovdqu64", DC_MOVE }, { "vmovdqu8", DC_MOVE },
	{ "vmovss", DC_MOVE }, { "vmovsd", DC_MOVE }, { "vmovq", DC_MOVE }, { "vmovd", DC_MOVE },
	{ "movzx", DC_EXT }, { "movsx", DC_EXT }, { "movsxd", DC_EXT },
	/* AT&T spellings of the extending moves */
	{ "movzbl", DC_EXT }, { "movzwl", DC_EXT }, { "movzbw", DC_EXT }, { "movzbq", DC_EXT },
	{ "movzwq", DC_EXT }, { "movsbl", DC_EXT }, { "movswl", DC_EXT }, { "movsbw", DC_EXT },
	{ "movsbq", DC_EXT }, { "movswq", DC_EXT }, { "movslq", DC_EXT },
	/* operand-less sign extensions */
	{ "cdq", DC_ALU }, { "cqo", DC_ALU }, { "cdqe", DC_ALU }, { "cwde", DC_ALU },
	{ "cbw", DC_ALU }, { "cwd", DC_ALU }, { "cltq", DC_ALU }, { "cltd", DC_ALU },
	{ "cqto", DC_ALU }, { "cwtl", DC_ALU }, { "cbtw", DC_ALU }, { "cwtd", DC_ALU },
	/* string moves are not register moves */
	{ "movsb", DC_OTHER }, { "movsw", DC_OTHER }, { "movsl", DC_OTHER },
	{ "movsq", DC_OTHER },
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

static int x86_jcc(const char *m, struct dc_mnem_info *mi)
{
	if (m[0] == 'j') {
		for (size_t i = 0; i < sizeof(x86_cc) / sizeof(x86_cc[0]); i++)
			if (!strcmp(m + 1, x86_cc[i].cc)) {
				mi->kind = DC_JCC;
				mi->cc_unsigned = x86_cc[i].uns;
				return 1;
			}
	}
	if (!strncmp(m, "loop", 4)) {
		mi->kind = DC_JCC;
		return 1;
	}
	return 0;
}

static void x86_mnem(const char *m, int att, struct dc_mnem_info *mi)
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
		mi->kind = DC_ALU;
	else if (!strncmp(m, "prefetch", 8) || !strncmp(m, "clflush", 7) ||
		 !strcmp(m, "lfence") || !strcmp(m, "mfence") || !strcmp(m, "sfence"))
		mi->kind = DC_OTHER;
	else if (!strncmp(m, "nop", 3))
		mi->kind = DC_NOP;
	else
		mi->kind = DC_OTHER; /* with operands, the classifier treats it as ALU */
}

static const struct mnem_ent a64_tab[] = {
	{ "b", DC_JMP }, { "br", DC_JMP }, { "braa", DC_JMP }, { "brab", DC_JMP },
	{ "braaz", DC_JMP }, { "brabz", DC_JMP },
	{ "cbz", DC_JCC }, { "cbnz", DC_JCC }, { "tbz", DC_JCC }, { "tbnz", DC_JCC },
	{ "bl", DC_CALL }, { "blr", DC_CALL }, { "blraa", DC_CALL }, { "blrab", DC_CALL },
	{ "blraaz", DC_CALL }, { "blrabz", DC_CALL },
	{ "ret", DC_RET }, { "retaa", DC_RET }, { "retab", DC_RET }, { "eret", DC_RET },
	{ "brk", DC_TRAP }, { "udf", DC_TRAP }, { "hlt", DC_TRAP },
	{ "nop", DC_NOP }, { "hint", DC_NOP }, { "bti", DC_NOP }, { "paciasp", DC_NOP },
	{ "autiasp", DC_NOP }, { "pacibsp", DC_NOP }, { "autibsp", DC_NOP },
	{ "yield", DC_NOP },
	{ "adr", DC_LEA }, { "adrp", DC_LEA },
	{ "cmp", DC_CMP }, { "cmn", DC_CMP }, { "tst", DC_CMP }, { "ccmp", DC_CMP },
	{ "ccmn", DC_CMP }, { "fcmp", DC_CMP }, { "fcmpe", DC_CMP },
	{ "mov", DC_MOVE }, { "fmov", DC_MOVE },
	{ "sxtw", DC_EXT }, { "sxth", DC_EXT }, { "sxtb", DC_EXT }, { "uxth", DC_EXT },
	{ "uxtb", DC_EXT },
	{ "prfm", DC_OTHER }, { "prfum", DC_OTHER }, { "dmb", DC_OTHER }, { "dsb", DC_OTHER },
	{ "isb", DC_OTHER }, { "svc", DC_OTHER },
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

static void a64_mnem(const char *m, struct dc_mnem_info *mi)
{
	if (m[0] == 'b' && m[1] == '.') {
		mi->kind = DC_JCC;
		mi->cc_unsigned = (uint8_t)a64_unsigned_cc(m + 2);
		return;
	}
	if (lookup(a64_tab, sizeof(a64_tab) / sizeof(a64_tab[0]), m, &mi->kind))
		return;
	if (!strncmp(m, "ld", 2)) {
		mi->kind = DC_MOVE;
	} else if (!strncmp(m, "st", 2)) {
		mi->kind = DC_MOVE;
		mi->mem_store = 1;
	} else {
		mi->kind = DC_OTHER;
	}
}

void dc__mnem(enum cwasm_arch arch, const char *mnem, int att, struct dc_mnem_info *mi)
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

const char *dc__skip_prefixes(const char *s)
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

const struct dc_op *dc_insn__mem_op(const struct dc_insn *ni)
{
	for (int i = 0; i < ni->nops; i++)
		if (ni->op[i].type == DC_OP_MEM)
			return &ni->op[i];
	return NULL;
}

/* One-operand x86 instructions that write their memory operand (mul/div only read it). */
static int x86_unary_rmw(const char *m)
{
	return !strncasecmp(m, "inc", 3) || !strncasecmp(m, "dec", 3) || !strncasecmp(m, "not", 3) ||
	       !strncasecmp(m, "neg", 3) || !strncasecmp(m, "set", 3);
}

/* aarch64 zero-extends spelled as bitfield ops: ubfx xN, xN, #0, #32 / and xN, xN, #0xffffffff */
static int a64_zext_form(const char *m, const struct dc_insn *ni)
{
	const struct dc_op *o = ni->op;

	if (ni->nops < 3 || o[0].type != DC_OP_REG || o[1].type != DC_OP_REG || o[0].reg != o[1].reg)
		return 0;
	if (!strcmp(m, "ubfx"))
		return ni->nops == 4 && o[2].type == DC_OP_IMM && o[2].val == 0 &&
		       o[3].type == DC_OP_IMM && o[3].val == 32;
	if (!strcmp(m, "and"))
		return ni->nops == 3 && o[2].type == DC_OP_IMM && o[2].val == 0xffffffffLL;
	return 0;
}

void dc__finish(enum cwasm_arch arch, const char *mnem, int att, struct dc_insn *ni)
{
	struct dc_mnem_info mi;
	const struct dc_op *mem;

	dc__mnem(arch, mnem, att, &mi);
	ni->kind = mi.kind;
	ni->cc_unsigned = mi.cc_unsigned;
	mem = dc_insn__mem_op(ni);
	if (mem) {
		if (arch == CWASM_ARCH_AARCH64)
			ni->mem_write = mi.mem_store;
		else if (ni->nops == 1)
			ni->mem_write = x86_unary_rmw(mnem);
		else
			ni->mem_write = mem == &ni->op[0] && mi.kind != DC_CMP;
	}
	switch (mi.kind) {
	case DC_JMP:
	case DC_CALL:
	case DC_JCC:
		if (ni->nops && ni->op[ni->nops - 1].type == DC_OP_IMM) {
			ni->has_target = 1;
			ni->target = (uint64_t)ni->op[ni->nops - 1].val;
		} else if (mi.kind != DC_JCC) {
			ni->indirect = 1;
		}
		break;
	case DC_LEA:
		if (arch == CWASM_ARCH_AARCH64 && ni->nops == 2 && ni->op[1].type == DC_OP_IMM) {
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
