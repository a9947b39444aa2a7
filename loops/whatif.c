// SPDX-License-Identifier: MIT
/*
 * The llvm-mca input of a loop's executed path: the blocks of the loop
 * that have samples (every block when nothing was recorded), in layout
 * order, trap blocks left out; capstone's Intel syntax as classify/ keeps
 * it. Every direct branch is kept (it occupies a branch port) but aimed at
 * the path's own label, since llvm-mca only needs it to assemble and never
 * follows it; pc-relative operands stay as printed. A call is written as a
 * jump to that label: llvm-mca gives a call a latency of 100 cycles (it
 * says it does not model them), which chained the loop's iterations
 * through the stack pointer; the callee is not modelled, as its samples
 * are not the loop's.
 *
 * A lever rewrites the path:
 *   zext_move     the zero-extends go
 *   bounds_check  the compare with the memory size and its branch go
 *   vmctx_reload  a reload becomes a move from a register the path never
 *                 names (vmctx kept there; the move is renamed away, and
 *                 its destination stays written, so no false chain through
 *                 a register the loop reuses appears)
 *   frame         frame stores go; a frame load becomes a move from the
 *                 register last stored to that slot on the path (the value
 *                 would stay there; no move when that is its destination),
 *                 or from a register the path never
 *                 names when nothing on the path stores the slot (a loop
 *                 invariant kept in a register); an instruction that
 *                 reads the slot as an operand reads that register.
 *                 With a frame-attribution sidecar only the accesses it
 *                 names allocator spills are touched (lf->frame_keep).
 *   dispatch      a br_table's jump-table dispatch (its bound check, table
 *                 address, entry load and add) becomes one direct branch in
 *                 place of the indirect jump; an aarch64 compare chain one
 *                 `b`; a call_indirect's checks and table loads go and the
 *                 call becomes a direct one (lf->icall, icall.c)
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mca.h"
#include "../decode/decode.h"

int lp_text__add(struct lp_text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		size_t room = t->cap - t->len;

		va_start(ap, fmt);
		n = vsnprintf(t->s ? t->s + t->len : NULL, t->s ? room : 0, fmt, ap);
		va_end(ap);
		if (n < 0)
			return -1;
		if (t->s && (size_t)n < room)
			break;
		size_t cap = (t->cap ? t->cap * 2 : 4096) + (size_t)n;
		char *s = realloc(t->s, cap);

		if (!s)
			return -1;
		t->s = s;
		t->cap = cap;
	}
	t->len += (size_t)n;
	return 0;
}

void lp_text__exit(struct lp_text *t)
{
	free(t->s);
	memset(t, 0, sizeof(*t));
}

static const char *const x86_names[4][17] = {
	{ "", "al", "cl", "dl", "bl", "spl", "bpl", "sil", "dil", "r8b", "r9b", "r10b", "r11b",
	  "r12b", "r13b", "r14b", "r15b" },
	{ "", "ax", "cx", "dx", "bx", "sp", "bp", "si", "di", "r8w", "r9w", "r10w", "r11w", "r12w",
	  "r13w", "r14w", "r15w" },
	{ "", "eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi", "r8d", "r9d", "r10d", "r11d",
	  "r12d", "r13d", "r14d", "r15d" },
	{ "", "rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi", "r8", "r9", "r10", "r11",
	  "r12", "r13", "r14", "r15" },
};

/* The name of register family fam at width bytes. */
static void reg_name(enum cwasm_arch arch, uint8_t fam, unsigned width, char *out, size_t n)
{
	if (arch == CWASM_ARCH_AARCH64) {
		snprintf(out, n, "%c%d", width == 8 ? 'x' : 'w', fam - A64_X0);
		return;
	}
	snprintf(out, n, "%s", x86_names[width == 1 ? 0 : width == 2 ? 1 : width == 4 ? 2 : 3]
					[fam <= X86_R15 ? fam : 0]);
}

/* One instruction split into mnemonic and top-level operands (in buf). */
struct parsed {
	char buf[112];
	char *mnem;
	char *op[DC_MAX_OPS];
	int nops;
	int mem;	/* operand holding '[', -1 none */
};

static void parse(const char *text, struct parsed *p)
{
	char *s, *save = NULL;

	memset(p, 0, sizeof(*p));
	p->mem = -1;
	snprintf(p->buf, sizeof(p->buf), "%s", text);
	s = p->buf + strcspn(p->buf, " \t");
	p->mnem = p->buf;
	if (!*s)
		return;
	*s++ = 0;
	/* aarch64 "[x29, #0x10]" holds a comma: split at commas outside brackets */
	for (char *o = s, depth = 0; *o; o++) {
		if (*o == '[')
			depth++;
		else if (*o == ']')
			depth--;
		else if (*o == ',' && depth)
			*o = '\x01';
	}
	for (char *t = strtok_r(s, ",", &save); t && p->nops < DC_MAX_OPS;
	     t = strtok_r(NULL, ",", &save)) {
		while (*t == ' ')
			t++;
		for (char *o = t; *o; o++)
			if (*o == '\x01')
				*o = ',';
		if (strchr(t, '['))
			p->mem = p->nops;
		p->op[p->nops++] = t;
	}
}

/* The register an operand names: family and width; 0 when it is none. */
static int op_reg(enum cwasm_arch arch, const char *op, uint8_t *fam, uint8_t *width)
{
	return op && !strchr(op, '[') && dc__reg_parse(arch, op, strlen(op), fam, width) &&
	       *fam && *fam < REG_VEC;
}

/* The slot an operand addresses, spaces dropped: "rbp-0x38". */
static void slot_key(const char *op, char *key, size_t n)
{
	const char *b = strchr(op, '[');
	size_t k = 0;

	for (b = b ? b + 1 : op; *b && *b != ']' && k + 1 < n; b++)
		if (*b != ' ')
			key[k++] = *b;
	key[k] = 0;
}

/* Access width of a memory operand: "dword ptr" and the like, else 0. */
static unsigned mem_width(const char *op)
{
	static const struct { const char *w; unsigned n; } t[] = {
		{ "byte", 1 }, { "word", 2 }, { "dword", 4 }, { "qword", 8 },
	};

	for (size_t i = sizeof(t) / sizeof(t[0]); i-- > 0;)
		if (!strncmp(op, t[i].w, strlen(t[i].w)) && op[strlen(t[i].w)] == ' ')
			return t[i].n;
	return 0;
}

#define MAX_SLOTS 64

struct frame_map {
	char key[MAX_SLOTS][48];
	uint8_t fam[MAX_SLOTS];		/* 0: stored from no register */
	uint32_t n;
	uint8_t spare;			/* a family the path never names */
};

static uint8_t *slot_fam(struct frame_map *m, const char *key)
{
	for (uint32_t i = 0; i < m->n; i++)
		if (!strcmp(m->key[i], key))
			return &m->fam[i];
	return NULL;
}

/* Which family each frame slot on the path was last stored from. */
static void frame_map(const struct cls_func *f, const uint32_t *path, uint32_t n,
		      struct frame_map *m)
{
	uint64_t named = 0;

	memset(m, 0, sizeof(*m));
	for (uint32_t k = 0; k < n; k++) {
		const struct cls_insn *in = &f->insns[path[k]];
		struct parsed p;
		char key[48];
		uint8_t fam = 0, w, *slot;

		parse(in->text, &p);
		for (int o = 0; o < p.nops; o++)
			if (op_reg(f->arch, p.op[o], &fam, &w) && fam < 64)
				named |= 1ULL << fam;
		if (in->cls != CLS_FRAME_STORE || p.mem < 0)
			continue;
		slot_key(p.op[p.mem], key, sizeof(key));
		fam = 0;
		op_reg(f->arch, p.op[p.mem ? 0 : 1], &fam, &w);
		slot = slot_fam(m, key);
		if (slot)
			*slot = fam;
		else if (m->n < MAX_SLOTS) {
			snprintf(m->key[m->n], sizeof(m->key[0]), "%s", key);
			m->fam[m->n++] = fam;
		}
	}
	/* x86 r8..r15 / aarch64 x9..x15: scratch registers a compiler could give it */
	for (uint8_t c = f->arch == CWASM_ARCH_AARCH64 ? A64_X0 + 15 : X86_R15;
	     c >= (f->arch == CWASM_ARCH_AARCH64 ? A64_X0 + 9 : X86_R8); c--)
		if (!(named & (1ULL << c))) {
			m->spare = c;
			break;
		}
}

/*
 * A frame load rewritten to read the register that would hold the slot:
 * 0; 1 when it goes (a move into the very register the value is in).
 */
static int frame_load(const struct cls_func *f, const char *text, struct frame_map *m,
		      char *out, size_t n)
{
	struct parsed p;
	char key[48], src[16], rest[112] = "";
	uint8_t dfam = 0, dw = 0, *sf, fam;
	unsigned w;

	parse(text, &p);
	if (p.mem < 0) {
		snprintf(out, n, "%s", text);
		return 0;
	}
	slot_key(p.op[p.mem], key, sizeof(key));
	sf = slot_fam(m, key);
	fam = sf && *sf ? *sf : m->spare;
	op_reg(f->arch, p.op[0], &dfam, &dw);
	w = f->arch == CWASM_ARCH_AARCH64 ? dw : mem_width(p.op[p.mem]);
	if (!w)
		w = dw ? dw : 8;
	reg_name(f->arch, fam, w, src, sizeof(src));
	if (f->arch == CWASM_ARCH_AARCH64 || !strcmp(p.mnem, "mov")) {
		if (fam == dfam)
			return 1;
		snprintf(out, n, "mov %s, %s", p.op[0], src);
		return 0;
	}
	for (int o = 0; o < p.nops; o++) {
		size_t l = strlen(rest);

		snprintf(rest + l, sizeof(rest) - l, "%s%s", o ? ", " : "", o == p.mem ? src : p.op[o]);
	}
	snprintf(out, n, "%s %s", p.mnem, rest);
	return 0;
}

/* A vmctx reload becomes a move from the register vmctx would stay in. */
static void vmctx_move(const struct cls_func *f, const char *text, const struct frame_map *m,
		       char *out, size_t n)
{
	struct parsed p;
	char src[16];

	parse(text, &p);
	reg_name(f->arch, m->spare, 8, src, sizeof(src));
	snprintf(out, n, "mov %s, %s", p.nops ? p.op[0] : "", src);
}

/* Branch, call and pc-relative targets aimed at label. */
static void aim(enum cwasm_arch arch, const char *text, const char *label, char *out, size_t n)
{
	struct parsed p;
	const char *last;
	int branch;

	parse(text, &p);
	last = p.nops ? p.op[p.nops - 1] : "";
	if (arch == CWASM_ARCH_AARCH64)
		branch = !strcmp(p.mnem, "b") || !strncmp(p.mnem, "b.", 2) || !strcmp(p.mnem, "bl") ||
			 !strncmp(p.mnem, "cb", 2) || !strncmp(p.mnem, "tb", 2) ||
			 !strncmp(p.mnem, "adr", 3);
	else
		branch = p.mnem[0] == 'j' || !strcmp(p.mnem, "call");
	/* capstone prints a target below 10 in decimal, others in hex */
	if (!branch || !isdigit((unsigned char)last[*last == '#'])) {
		snprintf(out, n, "%s", text);
		return;
	}
	snprintf(out, n, "%.*s%s", (int)(p.op[p.nops - 1] - p.buf), text, label);
}

int lp_func__on_path(const struct lp_func *lf, const struct lp_loop *l, uint32_t b)
{
	return !lf->blocks[b].trap && (!lf->total || lf->blocks[b].samples || b == l->header);
}

enum lp_lever_part lp_loop__unmodelled(const struct lp_func *lf, const struct cls_func *f,
					 const struct lp_loop *l, int lever, const char *mcpu,
					 const char **why)
{
	int icall = 0;

	*why = "";
	if (lever != LP_DISPATCH)
		return LP_PART_NONE;
	for (uint32_t k = 0; k < l->nblocks; k++) {
		const struct lp_block *b = &lf->blocks[l->blocks[k]];

		if (!lp_func__on_path(lf, l, l->blocks[k]))
			continue;
		for (uint32_t i = b->first; i < b->end; i++) {
			/* measured on sapphirerapids; what fails is llvm-mca's, on every CPU */
			if (f->insns[i].cls == CLS_DISPATCH) {
				*why = "a br_table's dispatch: llvm-mca models neither the taken "
				       "branches nor the front end that bound such loops (kernel "
				       "pair on sapphirerapids: 11.8% predicted, -4 to +4% "
				       "measured; docs/levers.md)";
				return LP_PART_BR_TABLE;
			}
			icall |= lf->icall && lf->icall[i];
		}
	}
	/*
	 * call_indirect's checks: confirmed on sapphirerapids (60.6% predicted,
	 * ~62-67% of the loop measured); LLVM 14's znver3 model, which Debian 12
	 * gives Zen 3, 4 and 5, predicted 55.4% where a Zen 4 measured 23.6%
	 */
	if (icall && mcpu && !strcmp(mcpu, "znver3")) {
		*why = "call_indirect's checks on znver3: the model is not confirmed "
		       "(kernel pair on a Zen 4 modelled as znver3: 55.4% predicted, "
		       "23.6% measured; docs/levers.md)";
		return LP_PART_ICALL;
	}
	return LP_PART_NONE;
}

static uint32_t path_insns(const struct lp_func *lf, const struct lp_loop *l,
			   const struct cls_func *f, uint32_t *path)
{
	uint32_t n = 0;

	for (uint32_t k = 0; k < l->nblocks; k++) {
		const struct lp_block *b = &lf->blocks[l->blocks[k]];

		if (!lp_func__on_path(lf, l, l->blocks[k]))
			continue;
		for (uint32_t i = b->first; i < b->end; i++)
			if (f->insns[i].cls != CLS_TRAP && f->insns[i].cls != CLS_DATA)
				path[n++] = i;
	}
	return n;
}

static int lever_drops(int lever, uint8_t cls)
{
	return (lever == LP_ZEXT_MOVE && cls == CLS_ZEXT_MOVE) ||
	       (lever == LP_BOUNDS_CHECK && cls == CLS_BOUNDS_CHECK) ||
	       (lever == LP_FRAME && cls == CLS_FRAME_STORE);
}

/*
 * The dispatch lever on path instruction i, one it touches (prev: the
 * path's instruction before it, or UINT32_MAX): 1 dropped; 2 replaced by
 * the direct branch or call in out.
 */
static int dispatch(const struct lp_func *lf, const struct cls_func *f, uint32_t i,
		    uint32_t prev, const char *label, char *out, size_t n)
{
	const struct cls_insn *in = &f->insns[i];
	int a64 = f->arch == CWASM_ARCH_AARCH64;

	if (lf->icall && lf->icall[i] == LP_ICALL_CALL) {
		snprintf(out, n, "%s %s", a64 ? "b" : "jmp", label);	/* a direct call: see above */
		return 2;
	}
	if (lf->icall && lf->icall[i] == LP_ICALL_CHECK)
		return 1;
	if (in->detail == CLS_D_DISPATCH_JUMP ||
	    (in->detail == CLS_D_DISPATCH_CHAIN &&
	     (prev == UINT32_MAX || f->insns[prev].detail != CLS_D_DISPATCH_CHAIN))) {
		/* the case is reached by one direct branch */
		snprintf(out, n, "%s %s", a64 ? "b" : "jmp", label);
		return 2;
	}
	return 1;
}

int lp_whatif__touches(const struct lp_func *lf, const struct cls_func *f, int lever, uint32_t i)
{
	uint8_t cls = f->insns[i].cls;

	switch (lever) {
	case LP_DISPATCH:
		return cls == CLS_DISPATCH || (lf->icall && lf->icall[i]);
	case LP_FRAME:
		/* the sidecar's origin says it is no allocator spill: it stays */
		return (cls == CLS_FRAME_LOAD || cls == CLS_FRAME_STORE) &&
		       !(lf->frame_keep && lf->frame_keep[i]);
	case LP_VMCTX_RELOAD:
		return cls == CLS_VMCTX_RELOAD;
	default:
		return lever_drops(lever, cls);
	}
}

double lp_loop__payoff(const struct lp_loop *l, int lv)
{
	const struct lp_model_run *r = &l->lever[lv];
	double base = l->base.cycles_per_iter;

	if (!l->base.ok || !r->ok || base <= 0 || r->not_modelled)
		return 0;
	/*
	 * llvm-mca lets a frame load run ahead of the store it reloads, which
	 * breaks a chain carried through the slot: the loop as compiled then
	 * models faster than its register version. A core that renames stack
	 * memory carries the value like a register (measured: docs/levers.md),
	 * so the loop as compiled is at least as slow as that.
	 */
	if (lv == LP_FRAME && r->cycles_per_iter > base)
		base = r->cycles_per_iter;
	return 100.0 * (1.0 - r->cycles_per_iter / base);
}

/* What lever does to path instruction i: 0 kept as line, 1 dropped, 2 line rewritten. */
static int apply(const struct lp_func *lf, const struct cls_func *f, struct frame_map *m,
		 int lever, uint32_t i, uint32_t prev, const char *label, char *line, size_t n)
{
	const struct cls_insn *in = &f->insns[i];

	snprintf(line, n, "%s", in->text);
	if (lever < 0 || !lp_whatif__touches(lf, f, lever, i))
		return 0;
	if (lever == LP_DISPATCH)
		return dispatch(lf, f, i, prev, label, line, n);
	if (lever == LP_FRAME && in->cls == CLS_FRAME_LOAD)
		return frame_load(f, in->text, m, line, n) ? 1 : 2;
	if (lever == LP_VMCTX_RELOAD) {
		vmctx_move(f, in->text, m, line, n);
		return 2;
	}
	return 1;
}

int lp_whatif__body(struct lp_text *t, const struct lp_func *lf, const struct lp_loop *l,
		    const struct cls_func *f, int lever, const char *label, uint32_t *removed,
		    uint64_t *touched)
{
	uint32_t *path = malloc((l->static_insns + 1) * sizeof(*path)), n;
	struct frame_map *m = calloc(1, sizeof(*m));
	char line[160], aimed[200];
	int ret = -1;

	*removed = 0;
	*touched = 0;
	if (!path || !m)
		goto out;
	n = path_insns(lf, l, f, path);
	frame_map(f, path, n, m);
	if (lp_text__add(t, "%s:\n", label))
		goto out;
	for (uint32_t k = 0; k < n; k++) {
		int what = apply(lf, f, m, lever, path[k], k ? path[k - 1] : UINT32_MAX, label, line,
				 sizeof(line));

		if (what) {
			(*removed)++;
			*touched += lf->samples ? lf->samples[path[k]] : 0;
		}
		if (what == 1)
			continue;
		if (!what && (f->insns[path[k]].cls == CLS_CALL_DIRECT ||
			      f->insns[path[k]].cls == CLS_CALL_INDIRECT))
			snprintf(line, sizeof(line), "%s %s", f->arch == CWASM_ARCH_AARCH64 ? "b" : "jmp",
				 label);
		aim(f->arch, line, label, aimed, sizeof(aimed));
		if (lp_text__add(t, "\t%s\n", aimed))
			goto out;
	}
	ret = 0;
out:
	free(path);
	free(m);
	return ret;
}
