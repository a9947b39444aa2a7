// SPDX-License-Identifier: MIT
/*
 * The text front end: one instruction as objdump (through perf annotate)
 * prints it, in Intel or AT&T syntax, or aarch64, reduced to the same
 * struct dc_insn the capstone front end builds.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "decode.h"

struct tok {
	const char *s;
	size_t len;
};

static struct tok trim(const char *s, size_t len)
{
	while (len && isspace((unsigned char)*s))
		s++, len--;
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	return (struct tok){ s, len };
}

/* A number: 0x hex, decimal, or (bare_hex) objdump's unprefixed addresses. */
static int parse_num(struct tok t, int bare_hex, int64_t *v)
{
	char buf[40], *end;
	int neg = 0;

	if (t.len && (t.s[0] == '-' || t.s[0] == '+')) {
		neg = t.s[0] == '-';
		t.s++, t.len--;
	}
	if (!t.len || t.len >= sizeof(buf) || !isxdigit((unsigned char)t.s[0]))
		return 0;
	memcpy(buf, t.s, t.len);
	buf[t.len] = '\0';
	if (t.len > 2 && buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X'))
		*v = (int64_t)strtoull(buf + 2, &end, 16);
	else
		*v = (int64_t)strtoull(buf, &end, bare_hex ? 16 : 10);
	if (*end)
		return 0;
	if (neg)
		*v = -*v;
	return 1;
}

static int parse_reg(enum cwasm_arch arch, struct tok t, struct dc_op *o)
{
	if (t.len && t.s[0] == '%')
		t.s++, t.len--;
	if (arch == CWASM_ARCH_AARCH64) {
		const char *dot = memchr(t.s, '.', t.len); /* v0.16b */

		if (dot)
			t.len = (size_t)(dot - t.s);
	}
	if (!dc__reg_parse(arch, t.s, t.len, &o->reg, &o->width))
		return 0;
	o->type = DC_OP_REG;
	return 1;
}

/* Intel "[base+index*scale+disp]" (objdump or capstone spacing). */
static int intel_mem(struct tok t, struct dc_op *o)
{
	size_t i = 1, end = t.len - 1;
	int sign = 1;

	o->type = DC_OP_MEM;
	while (i < end) {
		size_t j = i;
		struct tok term;
		const char *star;

		while (j < end && t.s[j] != '+' && t.s[j] != '-')
			j++;
		term = trim(t.s + i, j - i);
		star = memchr(term.s, '*', term.len);
		if (star) {
			struct dc_op r = { 0 };
			int64_t sc = 1;

			if (parse_reg(CWASM_ARCH_X86_64, (struct tok){ term.s, (size_t)(star - term.s) }, &r))
				o->index = r.reg;
			if (parse_num(trim(star + 1, term.len - (size_t)(star - term.s) - 1), 0, &sc))
				o->scale = (uint8_t)sc;
		} else if (term.len) {
			struct dc_op r = { 0 };
			int64_t d;

			if (parse_reg(CWASM_ARCH_X86_64, term, &r)) {
				if (!o->base)
					o->base = r.reg;
				else
					o->index = r.reg, o->scale = 1;
			} else if (parse_num(term, 0, &d)) {
				o->val += sign * d;
			}
		}
		if (j < end)
			sign = t.s[j] == '-' ? -1 : 1;
		i = j + 1;
	}
	if (o->index && !o->scale)
		o->scale = 1;
	return 1;
}

static int intel_op(struct tok t, int control, struct dc_op *o)
{
	const char *ptr;
	int64_t v;

	/* "QWORD PTR [..]", "qword ptr [..]" */
	for (ptr = t.s; ptr + 4 <= t.s + t.len; ptr++)
		if (!strncasecmp(ptr, "ptr ", 4)) {
			t = trim(ptr + 4, t.len - (size_t)(ptr + 4 - t.s));
			break;
		}
	/* segment override: fs:0x28, cs:[rax] */
	if (t.len > 3 && t.s[2] == ':' && t.s[1] == 's') {
		t.s += 3, t.len -= 3;
		if (!t.len || t.s[0] != '[') {
			o->type = DC_OP_MEM;
			return parse_num(t, 0, &o->val) || 1;
		}
	}
	if (t.len >= 2 && t.s[0] == '[' && t.s[t.len - 1] == ']')
		return intel_mem(t, o);
	if (parse_reg(CWASM_ARCH_X86_64, t, o))
		return 1;
	if (parse_num(t, control, &v) || parse_num(t, 1, &v)) {
		o->type = DC_OP_IMM;
		o->val = v;
		return 1;
	}
	return 0;
}

/* AT&T "disp(base,index,scale)", "%fs:0x28", "(%rdi)". */
static int att_mem(struct tok t, struct dc_op *o)
{
	const char *open = memchr(t.s, '(', t.len);
	struct tok disp = open ? trim(t.s, (size_t)(open - t.s)) : t;

	o->type = DC_OP_MEM;
	if (disp.len && disp.s[0] == '%') { /* segment override */
		const char *colon = memchr(disp.s, ':', disp.len);

		if (colon)
			disp = trim(colon + 1, disp.len - (size_t)(colon + 1 - disp.s));
	}
	if (disp.len)
		parse_num(disp, 0, &o->val);
	if (open) {
		const char *close = memchr(open, ')', t.len - (size_t)(open - t.s));
		const char *p = open + 1;
		int field = 0;

		if (!close)
			return 0;
		while (p <= close && field < 3) {
			const char *q = p;
			struct dc_op r = { 0 };
			struct tok f;
			int64_t sc;

			while (q < close && *q != ',')
				q++;
			f = trim(p, (size_t)(q - p));
			if (field == 0 && f.len && parse_reg(CWASM_ARCH_X86_64, f, &r))
				o->base = r.reg;
			else if (field == 1 && f.len && parse_reg(CWASM_ARCH_X86_64, f, &r))
				o->index = r.reg, o->scale = 1;
			else if (field == 2 && parse_num(f, 0, &sc))
				o->scale = (uint8_t)sc;
			field++;
			p = q + 1;
		}
	}
	return 1;
}

static int att_op(struct tok t, int control, struct dc_op *o)
{
	int64_t v;

	if (t.len && t.s[0] == '*')
		t.s++, t.len--;
	if (t.len && t.s[0] == '$') {
		o->type = DC_OP_IMM;
		return parse_num(trim(t.s + 1, t.len - 1), 0, &o->val);
	}
	if (memchr(t.s, '(', t.len) || memchr(t.s, ':', t.len))
		return att_mem(t, o);
	if (t.len && t.s[0] == '%')
		return parse_reg(CWASM_ARCH_X86_64, t, o);
	if (control && parse_num(t, 1, &v)) {
		o->type = DC_OP_IMM;
		o->val = v;
		return 1;
	}
	/* a bare number in AT&T is an absolute memory address */
	return att_mem(t, o);
}

/* aarch64 "[x29, #-8]", "[x28, x0]", "[x16, w0, uxtw #2]", "[sp, #-16]!" */
static int a64_mem(struct tok t, struct dc_op *o, uint8_t *writeback)
{
	const char *close = memchr(t.s, ']', t.len);
	const char *p = t.s + 1;
	int field = 0;

	if (!close)
		return 0;
	o->type = DC_OP_MEM;
	o->scale = 1;
	if (close + 1 < t.s + t.len && close[1] == '!')
		*writeback = 1;
	while (p < close) {
		const char *q = memchr(p, ',', (size_t)(close - p));
		struct tok f = trim(p, (size_t)((q ? q : close) - p));
		struct dc_op r = { 0 };

		if (f.len && f.s[0] == '#')
			parse_num(trim(f.s + 1, f.len - 1), 0, &o->val);
		else if (field == 0 && parse_reg(CWASM_ARCH_AARCH64, f, &r))
			o->base = r.reg;
		else if (parse_reg(CWASM_ARCH_AARCH64, f, &r))
			o->index = r.reg;
		field++;
		p = q ? q + 1 : close;
	}
	return 1;
}

static int a64_op(struct tok t, struct dc_op *o, uint8_t *writeback)
{
	static const char *const mods[] = { "lsl", "lsr", "asr", "ror", "msl", "uxtb", "uxth",
					    "uxtw", "uxtx", "sxtb", "sxth", "sxtw", "sxtx" };
	int64_t v;

	if (t.len && t.s[0] == '[')
		return a64_mem(t, o, writeback);
	if (t.len && t.s[0] == '#') {
		o->type = DC_OP_IMM;
		return parse_num(trim(t.s + 1, t.len - 1), 0, &o->val);
	}
	for (size_t i = 0; i < sizeof(mods) / sizeof(mods[0]); i++) {
		size_t n = strlen(mods[i]);

		if (t.len >= n && !strncmp(t.s, mods[i], n) && (t.len == n || t.s[n] == ' '))
			return 0; /* a shift or extend modifier, not an operand */
	}
	if (parse_reg(CWASM_ARCH_AARCH64, t, o))
		return 1;
	if (parse_num(t, 1, &v)) {
		o->type = DC_OP_IMM;
		o->val = v;
		return 1;
	}
	return 0;
}

/* Drop objdump's "<sym+0x10>" after an address. */
static struct tok strip_sym(struct tok t)
{
	const char *lt = memchr(t.s, '<', t.len);

	return lt ? trim(t.s, (size_t)(lt - t.s)) : t;
}

static void parse_ops(enum cwasm_arch arch, int att, int control, const char *s, size_t len,
		      struct dc_insn *ni)
{
	size_t i = 0;

	while (i < len && ni->nops < DC_MAX_OPS) {
		size_t j = i;
		int depth = 0;
		struct dc_op o = { 0 };
		struct tok t;
		int ok;

		while (j < len && (depth || s[j] != ',')) {
			if (s[j] == '(' || s[j] == '[' || s[j] == '{' || s[j] == '<')
				depth++;
			else if ((s[j] == ')' || s[j] == ']' || s[j] == '}' || s[j] == '>') && depth)
				depth--;
			j++;
		}
		t = strip_sym(trim(s + i, j - i));
		if (arch == CWASM_ARCH_AARCH64)
			ok = a64_op(t, &o, &ni->writeback);
		else
			ok = att ? att_op(t, control, &o) : intel_op(t, control, &o);
		if (ok && o.type != DC_OP_NONE)
			ni->op[ni->nops++] = o;
		i = j + 1;
	}
	if (att) /* Intel order: destination first */
		for (int a = 0, b = ni->nops - 1; a < b; a++, b--) {
			struct dc_op tmp = ni->op[a];

			ni->op[a] = ni->op[b];
			ni->op[b] = tmp;
		}
}

/* "# 401180 <hot+0x4a>" after a rip-relative operand: the address it means. */
static int comment_addr(const char *c, uint64_t *addr)
{
	int64_t v;
	size_t n;

	while (*c == '#' || *c == ' ')
		c++;
	n = strspn(c, "0123456789abcdefABCDEF");
	if (!n || !parse_num((struct tok){ c, n }, 1, &v))
		return 0;
	*addr = (uint64_t)v;
	return 1;
}

void dc__parse_text(enum cwasm_arch arch, int att, const char *text, struct dc_insn *ni)
{
	const char *s = dc__skip_prefixes(text), *comment, *ops;
	char mnem[32];
	size_t mlen, olen;
	struct dc_mnem_info mi;
	uint64_t caddr = 0;
	int has_caddr = 0;

	/* display text: whitespace runs collapsed */
	{
		size_t k = 0;
		int sp = 0;

		for (const char *p = text; *p && k + 1 < sizeof(ni->text); p++) {
			if (isspace((unsigned char)*p)) {
				sp = k > 0;
				continue;
			}
			if (sp)
				ni->text[k++] = ' ';
			sp = 0;
			if (k + 1 < sizeof(ni->text))
				ni->text[k++] = *p;
		}
		ni->text[k] = '\0';
	}
	comment = strstr(s, arch == CWASM_ARCH_AARCH64 ? "//" : "#");
	if (comment && arch != CWASM_ARCH_AARCH64)
		has_caddr = comment_addr(comment, &caddr);
	mlen = strcspn(s, " \t");
	/* a comment marker inside the first word ends the mnemonic there */
	if (comment && comment < s + mlen)
		mlen = (size_t)(comment - s);
	if (mlen >= sizeof(mnem))
		mlen = sizeof(mnem) - 1;
	memcpy(mnem, s, mlen);
	mnem[mlen] = '\0';
	if (!strcmp(mnem, "(bad)") || !strncmp(mnem, ".byte", 5) || !strncmp(mnem, ".word", 5) ||
	    !strncmp(mnem, ".inst", 5)) {
		ni->kind = DC_DATA;
		return;
	}
	ops = s + strcspn(s, " \t");
	if (comment && comment < ops)
		ops = comment;
	olen = comment ? (size_t)(comment - ops) : strlen(ops);
	dc__mnem(arch, mnem, att, &mi);
	parse_ops(arch, att, mi.kind == DC_JMP || mi.kind == DC_JCC || mi.kind == DC_CALL, ops,
		  olen, ni);
	/* aarch64 post-index "[sp], #16": a memory operand followed by an immediate */
	if (arch == CWASM_ARCH_AARCH64)
		for (int i = 0; i + 1 < ni->nops; i++)
			if (ni->op[i].type == DC_OP_MEM && ni->op[i + 1].type == DC_OP_IMM)
				ni->writeback = 1;
	dc__finish(arch, mnem, att, ni);
	if (ni->kind == DC_LEA && has_caddr && ni->nops == 2 && ni->op[1].type == DC_OP_MEM &&
	    ni->op[1].base == X86_RIP) {
		ni->has_target = 1;
		ni->target = caddr;
	}
}
