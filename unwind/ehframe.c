// SPDX-License-Identifier: MIT
/*
 * CFI encoding (see ehframe.h). Each row change becomes DW_CFA_advance_loc
 * plus the rule differences (def_cfa, def_cfa_register, def_cfa_offset,
 * offset, restore, undefined); the first change away from the body rule
 * is preceded by DW_CFA_remember_state and the return to it is
 * DW_CFA_restore_state, so code after an epilogue costs one byte.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ehframe.h"
#include "internal.h"

enum {
	CFA_nop = 0x00, CFA_advance_loc1 = 0x02, CFA_advance_loc2 = 0x03,
	CFA_advance_loc4 = 0x04, CFA_undefined = 0x07, CFA_same_value = 0x08,
	CFA_remember_state = 0x0a, CFA_restore_state = 0x0b, CFA_def_cfa = 0x0c,
	CFA_def_cfa_register = 0x0d, CFA_def_cfa_offset = 0x0e,
	CFA_advance_loc = 0x40, CFA_offset = 0x80, CFA_restore = 0xc0,
};

enum {
	PE_udata4 = 0x03, PE_sdata4 = 0x0b, PE_pcrel = 0x10, PE_datarel = 0x30,
};

/* DWARF register numbers and factors of one architecture. */
struct arch_cfi {
	uint8_t sp, fp, ra;
	uint8_t code_align;
	struct unwind_row initial;	/* the CIE's rules */
};

static const struct arch_cfi x86_cfi = {
	.sp = 7, .fp = 6, .ra = 16, .code_align = 1,
	.initial = { .known = 1, .cfa_reg = UNWIND_REG_SP, .cfa_off = 8,
		     .ra_where = UNWIND_AT_CFA, .ra_off = -8, .fp_where = UNWIND_SAME },
};
static const struct arch_cfi a64_cfi = {
	.sp = 31, .fp = 29, .ra = 30, .code_align = 4,
	.initial = { .known = 1, .cfa_reg = UNWIND_REG_SP, .cfa_off = 0,
		     .ra_where = UNWIND_SAME, .fp_where = UNWIND_SAME },
};

#define DATA_ALIGN (-8)

struct buf {
	uint8_t *p;
	size_t n, cap;
	int bad;	/* -ENOMEM or -EINVAL once something failed */
};

static void put(struct buf *b, const void *src, size_t n)
{
	if (b->bad)
		return;
	if (b->n + n > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		uint8_t *p;

		while (cap < b->n + n)
			cap *= 2;
		p = realloc(b->p, cap);
		if (!p) {
			b->bad = -ENOMEM;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->n, src, n);
	b->n += n;
}

static void put8(struct buf *b, uint8_t v)
{
	put(b, &v, 1);
}

static void put32(struct buf *b, uint32_t v)
{
	uint8_t le[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };

	put(b, le, 4);
}

static void set32(struct buf *b, size_t at, uint32_t v)
{
	if (b->bad)
		return;
	b->p[at] = (uint8_t)v;
	b->p[at + 1] = (uint8_t)(v >> 8);
	b->p[at + 2] = (uint8_t)(v >> 16);
	b->p[at + 3] = (uint8_t)(v >> 24);
}

static void uleb(struct buf *b, uint64_t v)
{
	do {
		uint8_t c = v & 0x7f;

		v >>= 7;
		put8(b, v ? c | 0x80 : c);
	} while (v);
}

static void sleb(struct buf *b, int64_t v)
{
	/* an arithmetic shift by 7, spelled out on the unsigned bits */
	uint64_t u = (uint64_t)v, fill = v < 0 ? ~(UINT64_MAX >> 7) : 0;

	for (;;) {
		uint8_t c = (uint8_t)(u & 0x7f);

		u = (u >> 7) | fill;
		if ((u == 0 && !(c & 0x40)) || (u == UINT64_MAX && (c & 0x40))) {
			put8(b, c);
			return;
		}
		put8(b, c | 0x80);
	}
}

/* Pad the entry that starts at START (its length field) to a multiple of
 * 8 bytes with DW_CFA_nop and fill in its length. */
static void close_entry(struct buf *b, size_t start)
{
	while (!b->bad && (b->n - start) % 8)
		put8(b, CFA_nop);
	set32(b, start, (uint32_t)(b->n - start - 4));
}

/* A saved-at-CFA rule: offsets are multiples of 8 at or below the CFA. */
static void save_rule(struct buf *b, uint8_t reg, int32_t off)
{
	if (off > 0 || off % 8) {
		b->bad = -EINVAL;
		return;
	}
	put8(b, CFA_offset | reg);
	uleb(b, (uint64_t)(off / DATA_ALIGN));
}

static void reg_rule(struct buf *b, uint8_t reg, uint8_t where, int32_t off)
{
	if (where == UNWIND_AT_CFA)
		save_rule(b, reg, off);
	else
		put8(b, CFA_restore | reg);	/* the CIE has same_value */
}

static void emit_cie(struct buf *b, const struct arch_cfi *a)
{
	size_t start = b->n;

	put32(b, 0);		/* length, filled in below */
	put32(b, 0);		/* CIE id */
	put8(b, 1);		/* version */
	put(b, "zR", 3);
	uleb(b, a->code_align);
	sleb(b, DATA_ALIGN);
	uleb(b, a->ra);
	uleb(b, 1);		/* augmentation data: the FDE pointer encoding */
	put8(b, PE_pcrel | PE_sdata4);
	put8(b, CFA_def_cfa);
	uleb(b, a->sp);
	uleb(b, (uint64_t)a->initial.cfa_off);
	put8(b, CFA_same_value);
	uleb(b, a->fp);
	if (a->initial.ra_where == UNWIND_AT_CFA) {
		save_rule(b, a->ra, a->initial.ra_off);
	} else {
		put8(b, CFA_same_value);
		uleb(b, a->ra);
	}
	close_entry(b, start);
}

static void advance(struct buf *b, uint32_t delta)
{
	if (delta < 0x40) {
		put8(b, (uint8_t)(CFA_advance_loc | delta));
	} else if (delta <= 0xff) {
		put8(b, CFA_advance_loc1);
		put8(b, (uint8_t)delta);
	} else if (delta <= 0xffff) {
		put8(b, CFA_advance_loc2);
		put8(b, (uint8_t)delta);
		put8(b, (uint8_t)(delta >> 8));
	} else {
		put8(b, CFA_advance_loc4);
		put32(b, delta);
	}
}

static void diff(struct buf *b, const struct arch_cfi *a, const struct unwind_row *prev,
		 const struct unwind_row *r)
{
	uint8_t reg;

	if (!r->known) {
		put8(b, CFA_undefined);
		uleb(b, a->ra);
		return;
	}
	reg = r->cfa_reg == UNWIND_REG_FP ? a->fp : a->sp;
	if (r->cfa_off < 0) {
		b->bad = -EINVAL;
		return;
	}
	if (!prev->known || (prev->cfa_reg != r->cfa_reg && prev->cfa_off != r->cfa_off)) {
		put8(b, CFA_def_cfa);
		uleb(b, reg);
		uleb(b, (uint64_t)r->cfa_off);
	} else if (prev->cfa_reg != r->cfa_reg) {
		put8(b, CFA_def_cfa_register);
		uleb(b, reg);
	} else if (prev->cfa_off != r->cfa_off) {
		put8(b, CFA_def_cfa_offset);
		uleb(b, (uint64_t)r->cfa_off);
	}
	if (!prev->known || prev->ra_where != r->ra_where ||
	    (r->ra_where == UNWIND_AT_CFA && prev->ra_off != r->ra_off))
		reg_rule(b, a->ra, r->ra_where, r->ra_off);
	if (!prev->known || prev->fp_where != r->fp_where ||
	    (r->fp_where == UNWIND_AT_CFA && prev->fp_off != r->fp_off))
		reg_rule(b, a->fp, r->fp_where, r->fp_off);
}

static int is_body(const struct unwind_row *r)
{
	return r->known && r->cfa_reg == UNWIND_REG_FP;
}

/* The call frame instructions of one function's rows. */
static void emit_rows(struct buf *b, const struct arch_cfi *a, const struct unwind_row *rows,
		      uint32_t nrows)
{
	struct unwind_row prev = a->initial, saved;
	int have_saved = 0;
	uint32_t loc = 0;

	for (uint32_t i = 0; i < nrows && !b->bad; i++) {
		const struct unwind_row *r = &rows[i];

		if (unwind_row__same(&prev, r))
			continue;
		if ((r->off - loc) % a->code_align) {
			b->bad = -EINVAL;
			return;
		}
		if (r->off > loc)
			advance(b, (r->off - loc) / a->code_align);
		loc = r->off;
		if (have_saved && unwind_row__same(&saved, r)) {
			put8(b, CFA_restore_state);
			have_saved = 0;
		} else {
			if (!have_saved && is_body(&prev) && !is_body(r)) {
				put8(b, CFA_remember_state);
				saved = prev;
				have_saved = 1;
			}
			diff(b, a, &prev, r);
		}
		prev = *r;
	}
}

static int fits32(int64_t v)
{
	return v >= INT32_MIN && v <= INT32_MAX;
}

struct fde_ref {
	uint64_t pc;		/* function address */
	uint64_t at;		/* FDE address */
};

static int build_hdr(struct buf *b, uint64_t eh_vaddr, uint64_t hdr_vaddr,
		     const struct fde_ref *refs, uint32_t n)
{
	int64_t rel = (int64_t)(eh_vaddr - (hdr_vaddr + 4));

	put8(b, 1);				/* version */
	put8(b, PE_pcrel | PE_sdata4);		/* eh_frame_ptr */
	put8(b, PE_udata4);			/* fde_count */
	put8(b, PE_datarel | PE_sdata4);	/* table entries */
	if (!fits32(rel))
		return -EINVAL;
	put32(b, (uint32_t)rel);
	put32(b, n);
	for (uint32_t i = 0; i < n; i++) {
		int64_t pc = (int64_t)(refs[i].pc - hdr_vaddr), at = (int64_t)(refs[i].at - hdr_vaddr);

		if (!fits32(pc) || !fits32(at) || (i && refs[i].pc <= refs[i - 1].pc))
			return -EINVAL;
		put32(b, (uint32_t)pc);
		put32(b, (uint32_t)at);
	}
	return b->bad;
}

int unwind_ehframe__build(const struct unwind_table *t, uint32_t first, uint32_t count,
			  uint64_t text_vaddr, uint64_t eh_vaddr, struct unwind_ehframe *out)
{
	const struct arch_cfi *a = unwind_table__arch(t) == UNWIND_ARCH_AARCH64 ? &a64_cfi : &x86_cfi;
	struct buf b = { 0 };
	struct fde_ref *refs;
	uint32_t n = 0;
	size_t eh_size;
	int ret;

	memset(out, 0, sizeof(*out));
	if (first > unwind_table__nfuncs(t) || count > unwind_table__nfuncs(t) - first)
		return -EINVAL;
	refs = malloc(((size_t)count + 1) * sizeof(*refs));
	if (!refs)
		return -ENOMEM;
	emit_cie(&b, a);
	for (uint32_t f = first; f < first + count && !b.bad; f++) {
		const struct unwind_row *rows;
		uint32_t nrows, start, size;
		size_t at = b.n;
		int64_t pcrel;

		unwind_table__func(t, f, &rows, &nrows, &start, &size);
		if (!nrows || !rows[0].known)
			continue;
		put32(&b, 0);			/* length */
		put32(&b, (uint32_t)(at + 4));	/* back to the CIE at 0 */
		pcrel = (int64_t)(text_vaddr + start - (eh_vaddr + at + 8));
		if (!fits32(pcrel))
			b.bad = -EINVAL;
		put32(&b, (uint32_t)pcrel);
		put32(&b, size);
		uleb(&b, 0);			/* no augmentation data */
		emit_rows(&b, a, rows, nrows);
		close_entry(&b, at);
		refs[n].pc = text_vaddr + start;
		refs[n].at = eh_vaddr + at;
		n++;
	}
	put32(&b, 0);				/* terminator */
	eh_size = b.n;
	ret = b.bad ? b.bad : build_hdr(&b, eh_vaddr, eh_vaddr + eh_size, refs, n);
	free(refs);
	if (ret) {
		free(b.p);
		return ret;
	}
	out->data = b.p;
	out->eh_frame_size = eh_size;
	out->hdr_size = b.n - eh_size;
	out->nfdes = n;
	return 0;
}

void unwind_ehframe__exit(struct unwind_ehframe *e)
{
	free(e->data);
	memset(e, 0, sizeof(*e));
}
