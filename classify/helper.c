// SPDX-License-Identifier: MIT
/*
 * The upstream helper's instruction classes, by the helper's own rules
 * (docs/helper-interface.md, "Instruction classes"): it reads objdump's
 * Intel text, so a class follows from the mnemonic as objdump spells it
 * and from the operands (a frame base, a bounds field, a linear-memory
 * base), never from what the code does. The drop-in keeps that meaning:
 * `jae` is a bounds_branch wherever it is, `cmp` is other unless it reads
 * the bounds field, a table's bytes decode as whatever they make.
 */
#include <ctype.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
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

#define MNEM_MAX 24

static int in_set(const char *m, const char *const *set)
{
	for (; *set; set++)
		if (!strcmp(m, *set))
			return 1;
	return 0;
}

static const char *const x86_movs[] = {
	"mov", "movzx", "movsx", "movsxd", "movsd", "movss", "movdqu", "movdqa", "movaps",
	"movups", "movq", "movd", NULL,
};
static const char *const x86_conds[] = {
	"je", "jne", "jl", "jle", "jg", "jge", "js", "jns", "jp", "jnp", "jo", "jno", NULL,
};
static const char *const x86_alus[] = {
	"add", "sub", "and", "or", "xor", "shl", "shr", "sar", "imul", "mul", "inc", "dec",
	"neg", "not", "test", "lea", "sete", "setne", "seta", "cdqe", "cqo", NULL,
};
static const char *const x86_other_named[] = {	/* named by a rule other than the sets */
	"push", "pop", "cmp", "ja", "jae", "jb", "jbe", "call", "jmp", NULL,
};
static const char *const a64_loads[] = {
	"ldr", "ldrb", "ldrh", "ldrsb", "ldrsh", "ldrsw", "ldur", "ldurb", "ldurh", "ldursb",
	"ldursh", "ldursw", "ldp", "ldpsw", NULL,
};
static const char *const a64_stores[] = {
	"str", "strb", "strh", "stur", "sturb", "sturh", "stp", NULL,
};
static const char *const a64_alus[] = {
	"add", "adds", "sub", "subs", "adc", "adcs", "sbc", "sbcs", "and", "ands", "orr", "eor",
	"bic", "bics", "madd", "msub", "mul", "mneg", "udiv", "sdiv", "lsl", "lsr", "asr", "ror",
	"extr", "ubfm", "sbfm", "bfm", "uxtb", "uxth", "sxtb", "sxth", "sxtw", "cmp", "cmn", "tst",
	"csel", "csinc", "csinv", "csneg", "adr", "adrp", NULL,
};

/*
 * The mnemonic as the helper splits it: the first word, lower case.
 * Prefixes stay (objdump prints "lock add": the helper's mnemonic is
 * "lock"). AT&T text (perf annotate's, '%' registers) loses its size
 * suffix where that names one of the helper's mnemonics.
 */
static void mnemonic(enum cwasm_arch arch, const char *text, char *m)
{
	size_t n = 0;

	while (*text == ' ' || *text == '\t')
		text++;
	while (text[n] && text[n] != ' ' && text[n] != '\t' && n + 1 < MNEM_MAX) {
		m[n] = (char)tolower((unsigned char)text[n]);
		n++;
	}
	m[n] = '\0';
	/* capstone spells the unsigned conditions hs/lo, objdump cs/cc */
	if (arch == CWASM_ARCH_AARCH64 && (!strcmp(m, "b.hs") || !strcmp(m, "b.lo")))
		strcpy(m + 2, m[2] == 'h' ? "cs" : "cc");
	if (arch != CWASM_ARCH_AARCH64 && strchr(text, '%') && n > 2 && strchr("bwlq", m[n - 1])) {
		m[n - 1] = '\0';
		if (!in_set(m, x86_movs) && !in_set(m, x86_alus) && !in_set(m, x86_other_named) &&
		    !in_set(m, x86_conds))
			m[n - 1] = (char)tolower((unsigned char)text[n - 1]);
	}
}

static int x86_frame_reg(uint8_t fam)
{
	return fam == X86_RBP || fam == X86_RSP;
}

/* parse_frame_operand: an rbp/rsp memory operand (not lea), or push/pop of a non-memory one. */
static int x86_frame(const char *m, const struct dc_insn *ni)
{
	if ((!strcmp(m, "push") || !strcmp(m, "pop")) && ni->nops && ni->op[0].type != DC_OP_MEM)
		return m[1] == 'u' ? HC_FRAME_STORE : HC_FRAME_LOAD;
	if (!strncmp(m, "lea", 3))
		return -1;
	for (int i = 0; i < ni->nops; i++) {
		const struct dc_op *o = &ni->op[i];

		if (o->type == DC_OP_MEM && (x86_frame_reg(o->base) || x86_frame_reg(o->index)))
			return !strncmp(m, "mov", 3) && i == 0 ? HC_FRAME_STORE : HC_FRAME_LOAD;
	}
	return -1;
}

static int has_mem(const struct dc_insn *ni, int rip)
{
	for (int i = 0; i < ni->nops; i++)
		if (ni->op[i].type == DC_OP_MEM && (!rip || ni->op[i].base == X86_RIP))
			return 1;
	return 0;
}

/* The helper's `[(rbx|r10|r11)+0x8]`: the bounds field through vmctx's copies. */
static int x86_bounds_field(const struct dc_insn *ni)
{
	for (int i = 0; i < ni->nops; i++) {
		const struct dc_op *o = &ni->op[i];

		if (o->type == DC_OP_MEM && !o->index && o->val == 8 &&
		    (o->base == X86_RBX || o->base == X86_R10 || o->base == X86_R11))
			return 1;
	}
	return 0;
}

static uint8_t x86_class(const char *m, const struct dc_insn *ni)
{
	int frame = x86_frame(m, ni), mov = in_set(m, x86_movs);

	if (frame >= 0)
		return (uint8_t)frame;
	if (!strcmp(m, "cmp") && x86_bounds_field(ni))
		return HC_BOUNDS_CMP;
	if (!strcmp(m, "ja") || !strcmp(m, "jae") || !strcmp(m, "jb") || !strcmp(m, "jbe"))
		return HC_BOUNDS_BRANCH;
	if (!strcmp(m, "call"))
		return HC_CALL;
	if (!strcmp(m, "jmp"))
		return ni->nops == 1 && ni->op[0].type == DC_OP_REG &&
		       (ni->op[0].reg == X86_RAX || ni->op[0].reg == X86_R10 ||
			ni->op[0].reg == X86_R11) ? HC_DISPATCH_JMP : HC_JMP;
	if (in_set(m, x86_conds))
		return HC_COND_BRANCH;
	if (mov && has_mem(ni, 0) && !has_mem(ni, 1))
		return HC_MEM_ACCESS;
	if (mov)
		return HC_REGMOV;
	return in_set(m, x86_alus) ? HC_ALU : HC_OTHER;
}

/* The operands of aarch64 text, split at the commas outside brackets. */
static int a64_operands(const char *text, char ops[][48], int max)
{
	int n = 0, depth = 0;
	size_t k = 0;

	while (*text && *text != ' ' && *text != '\t')
		text++;
	while (*text == ' ' || *text == '\t')
		text++;
	if (!*text)
		return 0;
	for (; *text && n < max; text++) {
		if (*text == '[')
			depth++;
		else if (*text == ']' && depth)
			depth--;
		if (*text == ',' && !depth) {
			ops[n++][k] = '\0';
			k = 0;
			continue;
		}
		if (k || (*text != ' ' && *text != '\t'))
			if (k + 1 < 48)
				ops[n][k++] = (char)tolower((unsigned char)*text);
	}
	if (n < max)
		ops[n++][k] = '\0';
	while (n && k && (ops[n - 1][k - 1] == ' ' || ops[n - 1][k - 1] == '\t'))
		ops[n - 1][--k] = '\0';
	return n;
}

/* A register name the helper's _is_aarch64_register() accepts. */
static int a64_reg_name(const char *s)
{
	char *end;
	long v;

	if (!strcmp(s, "sp") || !strcmp(s, "xzr") || !strcmp(s, "wzr"))
		return 1;
	if (!*s || !strchr("xwbhsdqv", s[0]) || !isdigit((unsigned char)s[1]))
		return 0;
	v = strtol(s + 1, &end, 10);
	if (*end || (end - (s + 1)) > 2 || (s[1] == '0' && end - (s + 1) > 1))
		return 0;
	return s[0] == 'x' || s[0] == 'w' ? v <= 30 : v <= 31;
}

/* `[` followed by one of names (a word), blanks allowed in between. */
static int a64_bracket_base(const char *op, const char *const *names_)
{
	const char *b = strchr(op, '[');

	if (!b)
		return 0;
	for (b++; *b == ' '; b++)
		;
	for (; *names_; names_++) {
		size_t l = strlen(*names_);

		if (!strncmp(b, *names_, l) && !isalnum((unsigned char)b[l]) && b[l] != '_')
			return 1;
	}
	return 0;
}

/* `[x20,` or `[x20]`: the helper's linear-memory base. */
static int a64_x20_base(const char *op)
{
	const char *b = strchr(op, '[');

	if (!b)
		return 0;
	b += 1 + strspn(b + 1, " ");
	if (strncmp(b, "x20", 3))
		return 0;
	b += 3 + strspn(b + 3, " ");
	return *b == ',' || *b == ']';
}

static uint8_t a64_class(const char *m, const char *text)
{
	static const char *const frame_bases[] = { "x29", "fp", "sp", NULL };
	char ops[8][48];
	int n = a64_operands(text, ops, 8), anybr = 0, lin = 0;

	if (in_set(m, a64_loads) || in_set(m, a64_stores))
		for (int i = 0; i < n; i++)
			if (a64_bracket_base(ops[i], frame_bases))
				return in_set(m, a64_loads) ? HC_FRAME_LOAD : HC_FRAME_STORE;
	if (!strcmp(m, "bl") || !strcmp(m, "blr"))
		return HC_CALL;
	if (!strcmp(m, "br"))
		return HC_INDIRECT_DISPATCH;
	if (!strcmp(m, "b"))
		return HC_DIRECT_BRANCH;
	if (!strncmp(m, "b.", 2) || !strcmp(m, "cbz") || !strcmp(m, "cbnz") || !strcmp(m, "tbz") ||
	    !strcmp(m, "tbnz"))
		return HC_COND_BRANCH;
	for (int i = 0; i < n; i++) {
		anybr |= strchr(ops[i], '[') != NULL;
		lin |= a64_x20_base(ops[i]);
	}
	if ((!strncmp(m, "ldr", 3) || !strncmp(m, "ldur", 4) || !strncmp(m, "str", 3) ||
	     !strncmp(m, "stur", 4) || !strncmp(m, "ldp", 3) || !strncmp(m, "stp", 3)) && anybr)
		return lin ? HC_LINEAR_MEMORY : HC_MEM_ACCESS;
	if (!strcmp(m, "mov") && n == 2 && a64_reg_name(ops[0]) && a64_reg_name(ops[1]))
		return HC_REGMOV;
	return in_set(m, a64_alus) ? HC_ALU : HC_OTHER;
}

/* The bounds field through x19 in the three instructions before: `[x19, #8]`. */
static int a64_x19_window(const struct dc_insn *v, const uint32_t *idx, uint32_t k)
{
	static regex_t re;
	static int ready;

	if (!ready) {
		if (regcomp(&re, "\\[[[:space:]]*x19[[:space:]]*,[[:space:]]*#?(0x)?0*8[[:space:]]*\\]",
			    REG_EXTENDED | REG_ICASE | REG_NOSUB))
			return 0;
		ready = 1;
	}
	for (uint32_t j = k >= 3 ? k - 3 : 0; j < k; j++)
		if (!regexec(&re, v[idx[j]].text, 0, NULL, 0))
			return 1;
	return 0;
}

static uint8_t basic(enum cwasm_arch arch, const struct dc_insn *ni)
{
	char m[MNEM_MAX];

	mnemonic(arch, ni->text, m);
	return arch == CWASM_ARCH_AARCH64 ? a64_class(m, ni->text) : x86_class(m, ni);
}

/*
 * classify_instruction_stream's aarch64 pass: cmp/cmn right before b.hi,
 * b.hs, b.lo or b.ls (objdump prints b.cs and b.cc for the two middle
 * ones), the bounds field read in the three instructions before the
 * compare: both are the bounds check. idx lists the instructions (data
 * entries are not in the helper's stream).
 */
static void a64_pairs(const struct dc_insn *v, const uint32_t *idx, uint32_t n, uint8_t *out,
		      size_t stride)
{
	for (uint32_t k = 0; k + 1 < n; k++) {
		char m[MNEM_MAX], next[MNEM_MAX];

		mnemonic(CWASM_ARCH_AARCH64, v[idx[k]].text, m);
		mnemonic(CWASM_ARCH_AARCH64, v[idx[k + 1]].text, next);
		if ((strcmp(m, "cmp") && strcmp(m, "cmn")) ||
		    (strcmp(next, "b.hi") && strcmp(next, "b.hs") && strcmp(next, "b.lo") &&
		     strcmp(next, "b.ls")) || !a64_x19_window(v, idx, k))
			continue;
		out[idx[k] * stride] = HC_BOUNDS_CMP;
		out[idx[k + 1] * stride] = HC_BOUNDS_BRANCH;
	}
}

/* Classes of v[0..n) into out[i * stride]; data entries (DC_DATA, or data[i]) the skid class. */
static int stream(enum cwasm_arch arch, const struct dc_insn *v, uint32_t n, const uint8_t *data,
		  size_t dstride, uint8_t *out, size_t stride)
{
	uint32_t *idx = arch == CWASM_ARCH_AARCH64 ? malloc((n ? n : 1) * sizeof(*idx)) : NULL;
	uint32_t ni = 0;

	for (uint32_t i = 0; i < n; i++) {
		int is_data = v[i].kind == DC_DATA || (data && data[i * dstride] == CLS_DATA);

		out[i * stride] = is_data ? HC_DATA : basic(arch, &v[i]);
		if (idx && !is_data)
			idx[ni++] = i;
	}
	if (arch == CWASM_ARCH_AARCH64 && !idx)
		return -1;
	if (idx)
		a64_pairs(v, idx, ni, out, stride);
	free(idx);
	return 0;
}

int cls_helper__stream(enum cwasm_arch arch, const struct dc_insn *v, uint32_t n, uint8_t *out)
{
	return stream(arch, v, n, NULL, 0, out, 1);
}

int cls_helper__fill(enum cwasm_arch arch, const struct dc_insn *v, uint32_t n,
		     struct cls_insn *insns)
{
	if (!n)
		return 0;
	return stream(arch, v, n, &insns[0].cls, sizeof(*insns), &insns[0].helper, sizeof(*insns));
}

const char *cls_helper__name(uint8_t c)
{
	return names[c < HC__COUNT ? c : HC_OTHER];
}

const char *cls__helper_class(const struct cls_func *f, uint32_t i)
{
	if (i >= f->ninsns)
		return names[HC_OTHER];
	return cls_helper__name(f->insns[i].helper);
}
