// SPDX-License-Identifier: MIT
/*
 * The frame loads and stores of aarch64 code, the way the compiler's
 * records describe them (docs/sidecar.md, "aarch64: materialized bases"):
 * a load/store of one of the forms decode/a64_ldst.c knows, whose base is
 * x29 or sp, or a register holding x29/sp plus a known amount. Such a base
 * is followed through add/sub immediates, movz/movk constants and
 * register adds of a constant; a branch forgets everything (the path into
 * the next instruction is no longer known), and any other write to a
 * register forgets that register.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

struct rel {
	uint8_t known, base;	/* base: FRAMES_X29 / FRAMES_SP */
	int64_t off;
};

struct track {
	struct rel rel[32];
	uint8_t cknown[32];
	uint64_t cval[32];
};

static void forget(struct track *t, unsigned int r)
{
	t->rel[r].known = 0;
	t->cknown[r] = 0;
}

/* What register r holds as a frame address (31 as a base is sp). */
static struct rel rel_of(const struct track *t, unsigned int r)
{
	struct rel x = { 1, FRAMES_X29, 0 };

	if (r == 29)
		return x;
	if (r == 31) {
		x.base = FRAMES_SP;
		return x;
	}
	return t->rel[r];
}

static int is_branch(uint32_t w)
{
	return (w & 0x7c000000u) == 0x14000000u ||	/* b, bl */
	       (w & 0xff000010u) == 0x54000000u ||	/* b.cond */
	       (w & 0x7e000000u) == 0x34000000u ||	/* cbz, cbnz */
	       (w & 0x7e000000u) == 0x36000000u ||	/* tbz, tbnz */
	       (w & 0xfffffc1fu) == 0xd61f0000u ||	/* br */
	       (w & 0xfffffc1fu) == 0xd63f0000u ||	/* blr */
	       (w & 0xfffffc1fu) == 0xd65f0000u;	/* ret */
}

/* Everything but a recognized load/store: update what the registers hold. */
static void step(struct track *t, uint32_t w)
{
	unsigned int rd = w & 31, rn = (w >> 5) & 31, rm = (w >> 16) & 31;
	uint32_t top9 = w & 0xff800000u;

	if (top9 == 0xd2800000u || top9 == 0xf2800000u) {	/* movz / movk, 64-bit */
		unsigned int shift = ((w >> 21) & 3) * 16;
		uint64_t v = (uint64_t)((w >> 5) & 0xffff) << shift;

		if (top9 == 0xd2800000u) {
			t->cval[rd] = v;
			t->cknown[rd] = 1;
		} else if (t->cknown[rd]) {
			t->cval[rd] = (t->cval[rd] & ~((uint64_t)0xffff << shift)) | v;
		}
		t->rel[rd].known = 0;
		return;
	}
	if ((w & 0x1f000000u) == 0x11000000u && (w >> 31)) {	/* add/sub (immediate), 64-bit */
		int64_t imm = (int64_t)((w >> 10) & 0xfff) << ((w >> 22) & 1 ? 12 : 0);
		struct rel r = rel_of(t, rn);

		r.off += (w >> 30) & 1 ? -imm : imm;
		t->rel[rd] = r;
		t->cknown[rd] = 0;
		return;
	}
	if ((w & 0xffe0fc00u) == 0x8b000000u) {	/* add xd, xn, xm (no shift) */
		/* register 31 here is xzr: no frame address, the constant 0 */
		struct rel none = { 0, 0, 0 }, r = { 0, 0, 0 };
		struct rel a = rn == 31 ? none : rel_of(t, rn);
		struct rel b = rm == 31 ? none : rel_of(t, rm);
		int ka = rn == 31 || t->cknown[rn], kb = rm == 31 || t->cknown[rm];
		uint64_t ca = rn == 31 ? 0 : t->cval[rn], cb = rm == 31 ? 0 : t->cval[rm];

		if (a.known && kb) {
			r = a;
			r.off = (int64_t)((uint64_t)a.off + cb);
		} else if (b.known && ka) {
			r = b;
			r.off = (int64_t)((uint64_t)b.off + ca);
		}
		if (rd != 31) {
			t->rel[rd] = r;
			t->cknown[rd] = 0;
		}
		return;
	}
	if (is_branch(w)) {
		for (unsigned int i = 0; i < 29; i++)
			forget(t, i);
		return;
	}
	if (rd < 29)
		forget(t, rd);
}

int fr__a64_accesses(const struct frames *fr, const uint8_t *code, uint32_t size,
		     struct fr_a64_access **out, uint32_t *n, struct ap_err *err)
{
	struct fr_a64_access *v = NULL;
	uint32_t cap = 0;
	struct track t;

	*out = NULL;
	*n = 0;
	memset(&t, 0, sizeof(t));
	for (uint32_t off = 0; off + 4 <= size; off += 4) {
		uint32_t w = (uint32_t)code[off] | (uint32_t)code[off + 1] << 8 |
			     (uint32_t)code[off + 2] << 16 | (uint32_t)code[off + 3] << 24;
		struct a64_ldst ls;
		struct rel r;

		if (frames__in_data(fr, off)) {
			memset(&t, 0, sizeof(t));
			continue;
		}
		if (!a64__ldst(w, &ls)) {
			step(&t, w);
			continue;
		}
		r = rel_of(&t, ls.rn);
		if (r.known) {
			if (*n == cap) {
				struct fr_a64_access *nv;

				cap = cap ? cap * 2 : 64;
				nv = realloc(v, cap * sizeof(*v));
				if (!nv) {
					free(v);
					return ap_err_nomem(err);
				}
				v = nv;
			}
			v[*n].off = off;
			v[*n].ls = ls;
			v[*n].base = r.base;
			v[*n].base_offset = (int32_t)r.off;
			v[*n].base_offset_wide = r.off;
			(*n)++;
		}
		if (!ls.is_store && ls.regclass == A64_GPR)
			for (unsigned int i = 0; i < ls.nregs; i++)
				if (ls.reg[i] < 31)
					forget(&t, ls.reg[i]);
		if (ls.writeback && ls.rn < 29)
			forget(&t, ls.rn);
	}
	*out = v;
	return 0;
}
