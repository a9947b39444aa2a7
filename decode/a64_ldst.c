// SPDX-License-Identifier: MIT
/*
 * aarch64 load/store words by their fixed bits. Each table row is one
 * encoding class with everything but the register and immediate fields
 * fixed; see docs/sidecar.md for why exactly these forms.
 */
#include <string.h>
#include "a64_ldst.h"

struct form {
	uint32_t bits;
	uint8_t is_store, width, regclass;
};

/* [Rn, #imm12 * width]: bits 31..22 fixed. */
static const struct form unsigned_forms[] = {
	{ 0xf9000000u, 1, 8, A64_GPR }, { 0xf9400000u, 0, 8, A64_GPR },	/* str/ldr x */
	{ 0xb9000000u, 1, 4, A64_GPR }, { 0xb9400000u, 0, 4, A64_GPR },	/* str/ldr w */
	{ 0xb9800000u, 0, 4, A64_GPR },					/* ldrsw */
	{ 0x39000000u, 1, 1, A64_GPR }, { 0x39400000u, 0, 1, A64_GPR },	/* strb/ldrb */
	{ 0x39800000u, 0, 1, A64_GPR }, { 0x39c00000u, 0, 1, A64_GPR },	/* ldrsb x/w */
	{ 0x79000000u, 1, 2, A64_GPR }, { 0x79400000u, 0, 2, A64_GPR },	/* strh/ldrh */
	{ 0x79800000u, 0, 2, A64_GPR }, { 0x79c00000u, 0, 2, A64_GPR },	/* ldrsh x/w */
};

/* [Rn, #simm9]: bits 31..21 and 11..10 fixed. */
static const struct form unscaled_forms[] = {
	{ 0xf8000000u, 1, 8, A64_GPR }, { 0xf8400000u, 0, 8, A64_GPR },	/* stur/ldur x */
	{ 0xb8000000u, 1, 4, A64_GPR }, { 0xb8400000u, 0, 4, A64_GPR },	/* stur/ldur w */
	{ 0xb8800000u, 0, 4, A64_GPR },					/* ldursw */
	{ 0x38000000u, 1, 1, A64_GPR }, { 0x38400000u, 0, 1, A64_GPR },	/* sturb/ldurb */
	{ 0x38800000u, 0, 1, A64_GPR }, { 0x38c00000u, 0, 1, A64_GPR },	/* ldursb */
	{ 0x78000000u, 1, 2, A64_GPR }, { 0x78400000u, 0, 2, A64_GPR },	/* sturh/ldurh */
	{ 0x78800000u, 0, 2, A64_GPR }, { 0x78c00000u, 0, 2, A64_GPR },	/* ldursh */
	{ 0x3c800000u, 1, 16, A64_SIMD }, { 0x3cc00000u, 0, 16, A64_SIMD },	/* stur/ldur q */
	{ 0xbc000000u, 1, 4, A64_SIMD }, { 0xbc400000u, 0, 4, A64_SIMD },	/* stur/ldur s */
	{ 0xfc000000u, 1, 8, A64_SIMD }, { 0xfc400000u, 0, 8, A64_SIMD },	/* stur/ldur d */
};

/* [Rn] with imm12 == 0: bits 31..10 fixed. */
static const struct form simd_zero_forms[] = {
	{ 0x3d800000u, 1, 16, A64_SIMD }, { 0x3dc00000u, 0, 16, A64_SIMD },	/* str/ldr q */
	{ 0xbd400000u, 0, 4, A64_SIMD },					/* ldr s */
	{ 0xfd400000u, 0, 8, A64_SIMD },					/* ldr d */
};

struct pair_form {
	uint32_t bits;
	uint8_t is_store, width, mode;
};

/* Pairs of general registers: bits 31..22 fixed. */
static const struct pair_form pair_forms[] = {
	{ 0xa9000000u, 1, 8, A64_MODE_SIGNED_PAIR }, { 0xa9400000u, 0, 8, A64_MODE_SIGNED_PAIR },
	{ 0xa9800000u, 1, 8, A64_MODE_PRE_INDEX },  { 0xa8c00000u, 0, 8, A64_MODE_POST_INDEX },
	{ 0x29000000u, 1, 4, A64_MODE_SIGNED_PAIR }, { 0x29400000u, 0, 4, A64_MODE_SIGNED_PAIR },
};

static int32_t sext(uint32_t v, unsigned int bits)
{
	uint32_t sign = 1u << (bits - 1);

	return (int32_t)((v ^ sign) - sign);
}

static const struct form *find(const struct form *t, size_t n, uint32_t bits)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].bits == bits)
			return &t[i];
	return NULL;
}

#define N(t) (sizeof(t) / sizeof((t)[0]))

static void single(struct a64_ldst *o, const struct form *f, uint32_t word, uint8_t mode,
		   int32_t offset)
{
	o->is_store = f->is_store;
	o->rn = (uint8_t)((word >> 5) & 31);
	o->offset = offset;
	o->mode = mode;
	o->width = f->width;
	o->nregs = 1;
	o->reg[0] = (uint8_t)(word & 31);
	o->regclass = f->regclass;
}

int a64__ldst(uint32_t word, struct a64_ldst *o)
{
	const struct form *f;

	memset(o, 0, sizeof(*o));
	f = find(unsigned_forms, N(unsigned_forms), word & 0xffc00000u);
	if (f) {
		single(o, f, word, A64_MODE_UNSIGNED_SCALED,
		       (int32_t)((word >> 10) & 0xfff) * f->width);
		return 1;
	}
	f = find(unscaled_forms, N(unscaled_forms), word & 0xffe00c00u);
	if (f) {
		single(o, f, word, A64_MODE_SIGNED_UNSCALED, sext((word >> 12) & 0x1ff, 9));
		return 1;
	}
	for (size_t i = 0; i < N(pair_forms); i++) {
		const struct pair_form *p = &pair_forms[i];
		int32_t disp;

		if ((word & 0xffc00000u) != p->bits)
			continue;
		disp = sext((word >> 15) & 0x7f, 7) * p->width;
		o->is_store = p->is_store;
		o->rn = (uint8_t)((word >> 5) & 31);
		o->mode = p->mode;
		o->width = p->width;
		o->pair = 1;
		o->nregs = 2;
		o->reg[0] = (uint8_t)(word & 31);
		o->reg[1] = (uint8_t)((word >> 10) & 31);
		o->regclass = A64_GPR;
		o->offset = p->mode == A64_MODE_POST_INDEX ? 0 : disp;
		if (p->mode == A64_MODE_PRE_INDEX || p->mode == A64_MODE_POST_INDEX) {
			o->writeback = 1;
			o->wb_amount = disp;
		}
		return 1;
	}
	f = find(simd_zero_forms, N(simd_zero_forms), word & 0xfffffc00u);
	if (f) {
		single(o, f, word, A64_MODE_SIMD_ZERO_OFFSET, 0);
		return 1;
	}
	return 0;
}

static const char *const mode_names[A64_MODE__COUNT] = {
	[A64_MODE_UNSIGNED_SCALED] = "unsigned_scaled",
	[A64_MODE_SIGNED_UNSCALED] = "signed_unscaled",
	[A64_MODE_SIGNED_PAIR] = "signed_pair",
	[A64_MODE_PRE_INDEX] = "pre_index",
	[A64_MODE_POST_INDEX] = "post_index",
	[A64_MODE_SIMD_ZERO_OFFSET] = "simd_zero_offset",
	[A64_MODE_MATERIALIZED] = "materialized",
};

const char *a64__mode_name(enum a64_mode mode)
{
	return mode > A64_MODE_NONE && mode < A64_MODE__COUNT ? mode_names[mode] : NULL;
}

enum a64_mode a64__mode_parse(const char *s, size_t len)
{
	for (int m = A64_MODE_NONE + 1; m < A64_MODE__COUNT; m++)
		if (strlen(mode_names[m]) == len && !memcmp(mode_names[m], s, len))
			return (enum a64_mode)m;
	return A64_MODE_NONE;
}
