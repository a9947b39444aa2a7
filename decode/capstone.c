// SPDX-License-Identifier: MIT
/*
 * The capstone front end: a linear sweep over the code that turns each
 * instruction's detail into a struct dc_insn. Bytes capstone cannot decode,
 * and br_table jump tables (inline after their indirect jump, or where its
 * lea points after the function's ret), become data.
 */
#include <capstone/capstone.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "decode.h"
#include "../util/search.h"

/* Undecodable bytes are reported in runs of at most this many. */
#define BAD_RUN_MAX 4096

struct dc_insn *dc_vec__push(struct dc_vec *nv)
{
	if (nv->n == nv->cap) {
		uint32_t cap = nv->cap ? nv->cap * 2 : 256;
		struct dc_insn *v = realloc(nv->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		nv->v = v;
		nv->cap = cap;
	}
	memset(&nv->v[nv->n], 0, sizeof(nv->v[0]));
	return &nv->v[nv->n++];
}

void dc_vec__exit(struct dc_vec *nv)
{
	free(nv->v);
	memset(nv, 0, sizeof(*nv));
}

int64_t dc_vec__find(const struct dc_vec *nv, uint64_t addr)
{
	size_t lo = ap_search__lower(nv->v, nv->n, AP_SEARCH_FIELD(nv->v, addr), addr);

	return lo < nv->n && nv->v[lo].addr == addr ? (int64_t)lo : -1;
}

static uint8_t reg_fam(csh h, enum cwasm_arch arch, unsigned int reg, uint8_t *width)
{
	const char *name = reg ? cs_reg_name(h, reg) : NULL;
	uint8_t fam = REG_NONE, w = 0;

	if (name && !dc__reg_parse(arch, name, strlen(name), &fam, &w))
		fam = REG_OTHER;
	if (width)
		*width = w;
	return fam;
}

static void x86_ops(csh h, const cs_insn *in, struct dc_insn *ni)
{
	const cs_x86 *x = &in->detail->x86;

	for (int i = 0; i < x->op_count && ni->nops < DC_MAX_OPS; i++) {
		const cs_x86_op *o = &x->operands[i];
		struct dc_op *d = &ni->op[ni->nops];

		switch (o->type) {
		case X86_OP_REG:
			d->type = DC_OP_REG;
			d->reg = reg_fam(h, CWASM_ARCH_X86_64, o->reg, &d->width);
			break;
		case X86_OP_IMM:
			d->type = DC_OP_IMM;
			d->val = o->imm;
			break;
		case X86_OP_MEM:
			d->type = DC_OP_MEM;
			d->base = reg_fam(h, CWASM_ARCH_X86_64, o->mem.base, NULL);
			d->index = reg_fam(h, CWASM_ARCH_X86_64, o->mem.index, NULL);
			d->scale = (uint8_t)o->mem.scale;
			d->val = o->mem.disp;
			d->width = o->size;
			break;
		default:
			continue;
		}
		ni->nops++;
	}
}

static void a64_ops(csh h, const cs_insn *in, struct dc_insn *ni)
{
	const cs_arm64 *a = &in->detail->arm64;

	for (int i = 0; i < a->op_count && ni->nops < DC_MAX_OPS; i++) {
		const cs_arm64_op *o = &a->operands[i];
		struct dc_op *d = &ni->op[ni->nops];

		switch (o->type) {
		case ARM64_OP_REG:
			d->type = DC_OP_REG;
			d->reg = reg_fam(h, CWASM_ARCH_AARCH64, o->reg, &d->width);
			break;
		case ARM64_OP_IMM:
		case ARM64_OP_CIMM:
			d->type = DC_OP_IMM;
			d->val = o->imm;
			break;
		case ARM64_OP_FP:
			d->type = DC_OP_IMM;
			break;
		case ARM64_OP_MEM:
			d->type = DC_OP_MEM;
			d->base = reg_fam(h, CWASM_ARCH_AARCH64, o->mem.base, NULL);
			d->index = reg_fam(h, CWASM_ARCH_AARCH64, o->mem.index, NULL);
			d->scale = 1;
			d->val = o->mem.disp;
			break;
		default:
			continue;
		}
		ni->nops++;
	}
	ni->writeback = a->writeback;
}

static void fill(csh h, enum cwasm_arch arch, const cs_insn *in, struct dc_insn *ni)
{
	ni->addr = in->address;
	ni->size = in->size;
	snprintf(ni->text, sizeof(ni->text), "%.31s%s%.78s", in->mnemonic, in->op_str[0] ? " " : "",
		 in->op_str);
	if (arch == CWASM_ARCH_AARCH64)
		a64_ops(h, in, ni);
	else
		x86_ops(h, in, ni);
	dc__finish(arch, in->mnemonic, 0, ni);
	/* rip-relative address generation: the table base of a br_table */
	if (arch != CWASM_ARCH_AARCH64 && ni->kind == DC_LEA && ni->nops == 2 &&
	    ni->op[1].type == DC_OP_MEM && ni->op[1].base == X86_RIP && !ni->op[1].index) {
		ni->has_target = 1;
		ni->target = in->address + in->size + (uint64_t)ni->op[1].val;
	}
}

static int push_data(struct dc_vec *nv, uint64_t addr, uint32_t size, uint32_t nentries,
		     const char *text)
{
	struct dc_insn *ni = dc_vec__push(nv);

	if (!ni)
		return -1;
	ni->addr = addr;
	ni->size = size;
	ni->kind = DC_DATA;
	ni->ndata = nentries;
	snprintf(ni->text, sizeof(ni->text), "%s", text);
	return 0;
}

/* The load of a 32-bit entry [dst + idx*4] through the register a lea at nv->v[k] wrote. */
static int feeds_entry_load(const struct dc_vec *nv, uint32_t k, uint32_t j)
{
	uint8_t dst = nv->v[k].op[0].reg;

	for (uint32_t i = k + 1; i < j; i++) {
		const struct dc_insn *p = &nv->v[i];

		for (int o = 0; o < p->nops; o++)
			if (p->op[o].type == DC_OP_MEM && p->op[o].base == dst && p->op[o].index &&
			    p->op[o].scale == 4 && (p->kind == DC_EXT || p->kind == DC_MOVE))
				return 1;
	}
	return 0;
}

/*
 * The table base an indirect jump at nv->v[j] dispatches through: a
 * pc-relative address generated a few instructions before, landing just
 * after the jump (alignment padding allowed), or anywhere after it when
 * that address feeds the entry load (a table placed after the function's
 * ret). 0 if none.
 */
uint64_t dc__table_base(const struct dc_vec *nv, uint32_t j)
{
	const struct dc_insn *jmp = &nv->v[j];
	uint64_t end = jmp->addr + jmp->size;

	if (jmp->kind != DC_JMP || !jmp->indirect || !jmp->nops || jmp->op[0].type != DC_OP_REG)
		return 0;
	for (uint32_t k = j; k-- > 0 && j - k <= 6;) {
		const struct dc_insn *p = &nv->v[k];

		if (p->kind == DC_LEA && p->has_target && p->target >= end &&
		    (p->target < end + DC_TABLE_PAD || feeds_entry_load(nv, k, j)))
			return p->target;
		if (p->kind == DC_JMP || p->kind == DC_CALL || p->kind == DC_RET || p->kind == DC_DATA)
			break;
	}
	return 0;
}

static int mnem_word(const char *text, const char *const *words, size_t n)
{
	size_t k = strcspn(text, " \t");

	for (size_t i = 0; i < n; i++)
		if (strlen(words[i]) == k && !strncasecmp(text, words[i], k))
			return 1;
	return 0;
}

int dc__table_bound(const struct dc_vec *nv, uint32_t j, struct dc_table *tb)
{
	static const char *const ae[] = { "jae", "jnb", "jnc", "jaeq", "jnbq" };
	static const char *const a[] = { "ja", "jnbe", "jaq", "jnbeq" };
	const struct dc_insn *v = nv->v;
	uint32_t e = 0;
	int found = 0;
	uint8_t idx = 0;

	if (!dc__table_base(nv, j))
		return 0;
	/* the entry load: [table + IDX*4] */
	for (uint32_t k = j; k-- > 0 && j - k <= 6;) {
		const struct dc_insn *p = &v[k];

		for (int o = 0; o < p->nops; o++)
			if (p->op[o].type == DC_OP_MEM && p->op[o].index && p->op[o].scale == 4 &&
			    (p->kind == DC_EXT || p->kind == DC_MOVE)) {
				idx = p->op[o].index;
				e = k;
				found = 1;
			}
		if (found)
			break;
	}
	if (!found)
		return 0;
	/* cmp IDX, N; jae/ja default, with nothing writing IDX but self zero-extends */
	for (uint32_t k = e; k-- > 1 && e - k <= 6;) {
		const struct dc_insn *p = &v[k], *c = &v[k - 1];

		if (p->kind == DC_JCC) {
			int n_ae = mnem_word(p->text, ae, sizeof(ae) / sizeof(ae[0]));
			int n_a = mnem_word(p->text, a, sizeof(a) / sizeof(a[0]));

			if (c->kind != DC_CMP || c->nops != 2 || c->op[0].type != DC_OP_REG ||
			    c->op[0].reg != idx || c->op[1].type != DC_OP_IMM || c->op[1].val < 0 ||
			    c->op[1].val > 0x100000 || !(n_ae || n_a))
				return 0;
			tb->cmp = k - 1;
			tb->index = idx;
			tb->nentries = (uint32_t)c->op[1].val + (n_a ? 1 : 0);
			return tb->nentries > 0;
		}
		if (p->kind == DC_JMP || p->kind == DC_CALL || p->kind == DC_RET || p->kind == DC_DATA)
			return 0;
		if (p->nops && p->op[0].type == DC_OP_REG && p->op[0].reg == idx && !p->mem_write &&
		    p->kind != DC_CMP &&
		    !(p->kind == DC_MOVE && p->nops == 2 && p->op[1].type == DC_OP_REG &&
		      p->op[1].reg == idx))
			return 0;
	}
	return 0;
}

/*
 * Consume the 32-bit entries of a jump table at code[off..]. Entries are
 * offsets from the table base; the table runs while the targets land in
 * [lo, hi) and the next entry starts below the lowest target seen (the
 * code the table jumps into follows it). Returns the bytes consumed.
 */
static size_t take_table(const uint8_t *code, size_t len, size_t off, uint64_t base,
			 uint64_t lo, uint64_t hi, struct dc_vec *nv, int *err)
{
	uint64_t limit = hi;
	size_t p = off;
	char text[64];

	while (p + 4 <= len && base + (p - off) < limit) {
		int32_t e = (int32_t)((uint32_t)code[p] | (uint32_t)code[p + 1] << 8 |
				      (uint32_t)code[p + 2] << 16 | (uint32_t)code[p + 3] << 24);
		uint64_t tgt = base + (uint64_t)(int64_t)e;

		if (tgt < lo || tgt >= hi || (tgt >= base && tgt < base + (p - off) + 4))
			break;
		if (tgt > base && tgt < limit)
			limit = tgt;
		snprintf(text, sizeof(text), ".long 0x%08x  # -> 0x%" PRIx64, (uint32_t)e, tgt);
		if (push_data(nv, lo + p, 4, 1, text)) {
			*err = 1;
			break;
		}
		nv->v[nv->n - 1].has_target = 1;
		nv->v[nv->n - 1].target = tgt;
		p += 4;
	}
	return p - off;
}

/* Exactly n entries at code[off..] (the bound said so); returns the bytes consumed. */
static size_t take_n(const uint8_t *code, size_t len, size_t off, uint64_t base, uint64_t lo,
		     uint32_t n, struct dc_vec *nv, int *err)
{
	size_t p = off;
	char text[64];

	for (uint32_t i = 0; i < n && p + 4 <= len; i++, p += 4) {
		int32_t e = (int32_t)((uint32_t)code[p] | (uint32_t)code[p + 1] << 8 |
				      (uint32_t)code[p + 2] << 16 | (uint32_t)code[p + 3] << 24);
		uint64_t tgt = base + (uint64_t)(int64_t)e;

		snprintf(text, sizeof(text), ".long 0x%08x  # -> 0x%" PRIx64, (uint32_t)e, tgt);
		if (push_data(nv, lo + p, 4, 1, text)) {
			*err = 1;
			break;
		}
		nv->v[nv->n - 1].has_target = 1;
		nv->v[nv->n - 1].target = tgt;
	}
	return p - off;
}

static int open_cs(enum cwasm_arch arch, csh *h, struct ap_err *err)
{
	cs_err e;

	if (arch == CWASM_ARCH_AARCH64)
		e = cs_open(CS_ARCH_ARM64, CS_MODE_ARM, h);
	else if (arch == CWASM_ARCH_X86_64)
		e = cs_open(CS_ARCH_X86, CS_MODE_64, h);
	else
		return ap_errf(err, "cannot decode: unknown architecture");
	if (e != CS_ERR_OK)
		return ap_errf(err, "capstone: %s", cs_strerror(e));
	cs_option(*h, CS_OPT_DETAIL, CS_OPT_ON);
	return 0;
}

/* A handle and one instruction buffer; 0, or -1 with err. */
static int open_cs_insn(enum cwasm_arch arch, csh *h, cs_insn **in, struct ap_err *err)
{
	if (open_cs(arch, h, err))
		return -1;
	*in = cs_malloc(*h);
	if (!*in) {
		cs_close(h);
		return ap_err_nomem(err);
	}
	return 0;
}

/* Jump tables placed further on than the jump (after the function's ret). */
#define MAX_PENDING 64

struct pending {
	uint64_t start[MAX_PENDING];
	uint32_t nentries[MAX_PENDING];	/* 0: extent from the entries' targets */
	uint32_t n;
};

static void pending__add(struct pending *pd, uint64_t start, uint32_t nentries)
{
	for (uint32_t i = 0; i < pd->n; i++)
		if (pd->start[i] == start)
			return;
	if (pd->n < MAX_PENDING) {
		pd->start[pd->n] = start;
		pd->nentries[pd->n++] = nentries;
	}
}

/* The first pending table starting in [a, b), or -1. */
static int pending__in(const struct pending *pd, uint64_t a, uint64_t b)
{
	int best = -1;

	for (uint32_t i = 0; i < pd->n; i++)
		if (pd->start[i] >= a && pd->start[i] < b &&
		    (best < 0 || pd->start[i] < pd->start[best]))
			best = (int)i;
	return best;
}

static void pending__drop(struct pending *pd, int i)
{
	pd->start[i] = pd->start[--pd->n];
	pd->nentries[i] = pd->nentries[pd->n];
}

/* The bytes at code[off..] form the table; returns the bytes consumed. */
static size_t take(const uint8_t *code, size_t len, size_t off, uint64_t addr, uint64_t hi,
		   uint32_t nentries, struct dc_vec *nv, int *oom)
{
	uint64_t tb = addr + off;

	if (nentries)
		return take_n(code, len, off, tb, addr, nentries, nv, oom);
	return take_table(code, len, off, tb, addr, hi, nv, oom);
}

static int ends_flow(const struct dc_insn *ni)
{
	return ni->kind == DC_RET || ni->kind == DC_TRAP || ni->kind == DC_JMP;
}

/* code[off..end) is alignment fill: int3, zero bytes, or nops that end exactly at end. */
static int is_fill(csh h, const uint8_t *code, size_t off, size_t end, uint64_t addr,
		   cs_insn *in)
{
	const uint8_t *p = code + off;
	size_t left = end - off;
	uint64_t a = addr + off;
	int bytes = 1;

	for (size_t k = off; k < end; k++)
		bytes &= code[k] == 0xcc || code[k] == 0x00;
	if (bytes)
		return 1;
	while (left && cs_disasm_iter(h, &p, &left, &a, in))
		if (strncmp(in->mnemonic, "nop", 3) && strcmp(in->mnemonic, "int3"))
			return 0;
	return !left;
}

int dc__decode(enum cwasm_arch arch, const uint8_t *code, size_t len, uint64_t addr,
		      struct dc_vec *nv, struct ap_err *err)
{
	uint64_t hi = addr + len;
	struct pending pd = { .n = 0 };
	size_t off = 0;
	cs_insn *in;
	int oom = 0;
	csh h;

	if (open_cs_insn(arch, &h, &in, err))
		return -1;
	while (off < len && !oom) {
		const uint8_t *p = code + off;
		size_t left = len - off;
		uint64_t a = addr + off;
		struct dc_insn *ni;
		struct dc_table bound;
		int has_bound, pt;
		uint64_t tb;

		/* a table a dispatch before pointed at: its entries are data */
		pt = pending__in(&pd, a, a + 1);
		if (pt >= 0) {
			uint32_t ne = pd.nentries[pt];

			pending__drop(&pd, pt);
			off += take(code, len, off, addr, hi, ne, nv, &oom);
			continue;
		}
		/* alignment after the code that precedes such a table */
		pt = pending__in(&pd, a, a + DC_TABLE_PAD);
		if (pt >= 0 && nv->n && ends_flow(&nv->v[nv->n - 1]) &&
		    is_fill(h, code, off, pd.start[pt] - addr, addr, in)) {
			oom = push_data(nv, a, (uint32_t)(pd.start[pt] - a), 0, "(padding)");
			off = pd.start[pt] - addr;
			continue;
		}
		if (!cs_disasm_iter(h, &p, &left, &a, in)) {
			/* undecodable: one data run of however many bytes fail */
			size_t start = off;

			do {
				off += arch == CWASM_ARCH_AARCH64 ? 4 : 1;
				p = code + off;
				left = off < len ? len - off : 0;
				a = addr + off;
			} while (off < len && off - start < BAD_RUN_MAX &&
				 !cs_disasm_iter(h, &p, &left, &a, in) &&
				 pending__in(&pd, addr + off, addr + off + 1) < 0);
			if (off > len)
				off = len;
			oom = push_data(nv, addr + start, (uint32_t)(off - start), 0, "(bad)");
			continue;
		}
		/* an instruction across a table's start: the bytes before it are not code */
		pt = pending__in(&pd, addr + off + 1, addr + off + in->size);
		if (pt >= 0) {
			oom = push_data(nv, addr + off, (uint32_t)(pd.start[pt] - addr - off), 0,
					"(padding)");
			off = pd.start[pt] - addr;
			continue;
		}
		ni = dc_vec__push(nv);
		if (!ni) {
			oom = 1;
			break;
		}
		fill(h, arch, in, ni);
		off += in->size;
		tb = dc__table_base(nv, nv->n - 1);
		if (!tb || tb >= hi)
			continue;
		has_bound = dc__table_bound(nv, nv->n - 1, &bound);
		/* further on, or close but after code (a short function's ret): taken when reached */
		if (tb >= addr + off + DC_TABLE_PAD ||
		    (tb > addr + off && !is_fill(h, code, off, tb - addr, addr, in))) {
			pending__add(&pd, tb, has_bound ? bound.nentries : 0);
			continue;
		}
		if (tb > addr + off) {
			oom = push_data(nv, addr + off, (uint32_t)(tb - addr - off), 0, "(padding)");
			off = tb - addr;
		}
		off += take(code, len, off, addr, hi, has_bound ? bound.nentries : 0, nv, &oom);
	}
	cs_free(in, 1);
	cs_close(&h);
	return oom ? ap_err_nomem(err) : 0;
}

/*
 * objdump's linear sweep, which the upstream helper disassembles with
 * (docs/helper-interface.md): no table is looked for, a jump table's
 * entries decode as whatever instructions their bytes make; a byte (x86)
 * or word (aarch64) capstone cannot decode is one instruction of its own,
 * objdump's "(bad)" or ".inst"; a run of zero bytes objdump prints as
 * "..." is none.
 */
int dc__decode_sweep(enum cwasm_arch arch, const uint8_t *code, size_t len, uint64_t addr,
		     struct dc_vec *nv, struct ap_err *err)
{
	size_t off = 0, unit = arch == CWASM_ARCH_AARCH64 ? 4 : 1;
	cs_insn *in;
	int oom = 0;
	csh h;

	if (open_cs_insn(arch, &h, &in, err))
		return -1;
	while (off < len && !oom) {
		const uint8_t *p = code + off;
		size_t left = len - off;
		uint64_t a = addr + off;
		size_t z = 0;
		struct dc_insn *ni;

		/* objdump's "...": 8 zero bytes or more (a multiple of 4 unless at
		 * the end), or 1 or 2 at the very end, are no instruction */
		while (off + z < len && !code[off + z])
			z++;
		if (z >= 8 || (z && z < 3 && off + z == len)) {
			off += off + z == len ? z : z & ~(size_t)3;
			continue;
		}
		ni = dc_vec__push(nv);
		if (!ni) {
			oom = 1;
			break;
		}
		if (cs_disasm_iter(h, &p, &left, &a, in)) {
			fill(h, arch, in, ni);
			off += in->size;
			continue;
		}
		ni->addr = addr + off;
		ni->size = (uint32_t)(len - off < unit ? len - off : unit);
		ni->kind = DC_OTHER;
		if (arch == CWASM_ARCH_AARCH64 && ni->size == 4)
			snprintf(ni->text, sizeof(ni->text), ".inst 0x%02x%02x%02x%02x", code[off + 3],
				 code[off + 2], code[off + 1], code[off]);
		else
			snprintf(ni->text, sizeof(ni->text), "(bad)");
		off += ni->size;
	}
	cs_free(in, 1);
	cs_close(&h);
	return oom ? ap_err_nomem(err) : 0;
}
