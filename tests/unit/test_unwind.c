// SPDX-License-Identifier: MIT
/*
 * unwind/: rules at every offset of hand-encoded x86-64 and aarch64
 * prologue/epilogue forms (the expected rows are written out by hand
 * from the instruction comments), the stepper and the walker on
 * synthetic stacks, the byte-pattern run against the boundary run at
 * every real instruction start (capstone's, over the fixture cores and
 * the real compiler samples in tests/fixtures/real), and the .eh_frame /
 * .eh_frame_hdr round trip through an independent CFI interpreter.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "cwasm/cwasm.h"
#include "decode/decode.h"
#include "jitdump/jitdump.h"
#include "jitdump/unwind_info.h"
#include "unwind/ehframe.h"
#include "unwind/unwind.h"

/* ---- expected rules ---- */

enum rule {
	U,			/* unknown */
	XE,			/* x86 entry / at return: CFA rsp+8, ra CFA-8 */
	XP,			/* x86 after push rbp: CFA rsp+16, rbp CFA-16 */
	XB,			/* x86 body: CFA rbp+16 */
};

static struct unwind_row x86_rule(enum rule r)
{
	struct unwind_row w = { .known = 1, .ra_where = UNWIND_AT_CFA, .ra_off = -8 };

	switch (r) {
	case U:
		return (struct unwind_row){ .known = 0 };
	case XE:
		w.cfa_reg = UNWIND_REG_SP;
		w.cfa_off = 8;
		break;
	case XP:
		w.cfa_reg = UNWIND_REG_SP;
		w.cfa_off = 16;
		w.fp_where = UNWIND_AT_CFA;
		w.fp_off = -16;
		break;
	case XB:
		w.cfa_reg = UNWIND_REG_FP;
		w.cfa_off = 16;
		w.fp_where = UNWIND_AT_CFA;
		w.fp_off = -16;
		break;
	}
	return w;
}

/* aarch64: CFA = (fp ? x29 : sp) + cfa; saved (frame F): x29 at CFA-F,
 * x30 at CFA-F+8; else both still in their registers. */
static struct unwind_row a64_rule(int fp, int32_t cfa, int32_t saved_frame)
{
	struct unwind_row w = { .known = 1, .cfa_reg = fp ? UNWIND_REG_FP : UNWIND_REG_SP,
				.cfa_off = cfa };

	if (saved_frame) {
		w.ra_where = w.fp_where = UNWIND_AT_CFA;
		w.fp_off = -saved_frame;
		w.ra_off = -saved_frame + 8;
	}
	return w;
}

struct want {
	uint32_t off;
	struct unwind_row row;
};

static int same_row(const struct unwind_row *a, const struct unwind_row *b)
{
	if (a->known != b->known)
		return 0;
	if (!a->known)
		return 1;
	return a->cfa_reg == b->cfa_reg && a->cfa_off == b->cfa_off &&
	       a->ra_where == b->ra_where && a->fp_where == b->fp_where &&
	       (a->ra_where != UNWIND_AT_CFA || a->ra_off == b->ra_off) &&
	       (a->fp_where != UNWIND_AT_CFA || a->fp_off == b->fp_off);
}

static void print_row(const char *what, uint32_t off, const struct unwind_row *r)
{
	if (!r) {
		fprintf(stderr, "  %s @%u: (none)\n", what, off);
		return;
	}
	if (!r->known) {
		fprintf(stderr, "  %s @%u: unknown\n", what, off);
		return;
	}
	fprintf(stderr, "  %s @%u: cfa %s%+d ra %s%+d fp %s%+d\n", what, off,
		r->cfa_reg == UNWIND_REG_FP ? "fp" : "sp", r->cfa_off,
		r->ra_where == UNWIND_AT_CFA ? "cfa" : "reg", r->ra_off,
		r->fp_where == UNWIND_AT_CFA ? "cfa" : "reg", r->fp_off);
}

/* Every offset of a one-function table against the expected rows. */
static void check_every_offset(const char *name, const struct unwind_table *t, uint32_t size,
			       const struct want *w, size_t nw)
{
	size_t k = 0;
	int bad = 0;

	for (uint32_t off = 0; off < size; off++) {
		const struct unwind_row *got = unwind_table__row(t, off, NULL);

		while (k + 1 < nw && w[k + 1].off <= off)
			k++;
		if (!got || !same_row(got, &w[k].row)) {
			if (bad++ < 4) {
				fprintf(stderr, "%s: rule differs\n", name);
				print_row("want", off, &w[k].row);
				print_row("got ", off, got);
			}
		}
	}
	CHECK(bad == 0);
}

static struct unwind_table *one_func(enum unwind_arch arch, const uint8_t *code, uint32_t size,
				     const uint32_t *insns, size_t n)
{
	uint32_t zero = 0;
	int err = 0;
	struct unwind_table *t = unwind_table__new(arch, code, size, &zero, 1, insns, n, &err);

	CHECK(t != NULL);
	CHECK_EQ_U64(err, 0);
	return t;
}

/* ---- x86-64 forms ---- */

/* Two epilogues (mov rsp,rbp; pop rbp; ret and leave; ret), callee saves. */
static const uint8_t x86_plain[] = {
	0x55,					/*  0 push rbp */
	0x48, 0x89, 0xe5,			/*  1 mov rbp, rsp */
	0x48, 0x81, 0xec, 0x18, 0x02, 0, 0,	/*  4 sub rsp, 0x218 */
	0x53,					/* 11 push rbx */
	0x41, 0x54,				/* 12 push r12 */
	0x85, 0xff,				/* 14 test edi, edi */
	0x74, 0x08,				/* 16 je 26 */
	0x41, 0x5c,				/* 18 pop r12 */
	0x5b,					/* 20 pop rbx */
	0x48, 0x89, 0xec,			/* 21 mov rsp, rbp */
	0x5d,					/* 24 pop rbp */
	0xc3,					/* 25 ret */
	0x41, 0x5c,				/* 26 pop r12 */
	0x5b,					/* 28 pop rbx */
	0xc9,					/* 29 leave */
	0xc3,					/* 30 ret */
};
static const uint32_t x86_plain_insns[] = { 0, 1, 4, 11, 12, 14, 16, 18, 20, 21, 24, 25,
					    26, 28, 29, 30 };

/* Tail calls (jmp rel32, jmp r11) and a body jmp after a 0x5d byte. */
static const uint8_t x86_tail[] = {
	0x55,					/*  0 push rbp */
	0x48, 0x8b, 0xec,			/*  1 mov rbp, rsp (the 8b form) */
	0x48, 0x83, 0xec, 0x10,			/*  4 sub rsp, 16 */
	0x85, 0xff,				/*  8 test edi, edi */
	0x75, 0x09,				/* 10 jne 21 */
	0x48, 0x89, 0xec,			/* 12 mov rsp, rbp */
	0x5d,					/* 15 pop rbp */
	0xe9, 0, 0, 0, 0,			/* 16 jmp rel32 (tail call) */
	0x48, 0x89, 0xec,			/* 21 mov rsp, rbp */
	0x5d,					/* 24 pop rbp */
	0x41, 0xff, 0xe3,			/* 25 jmp r11 (tail call) */
	0x83, 0xc0, 0x5d,			/* 28 add eax, 0x5d */
	0xeb, 0x00,				/* 31 jmp 33 (in the body) */
	0xc9,					/* 33 leave */
	0xc3,					/* 34 ret */
};
static const uint32_t x86_tail_insns[] = { 0, 1, 4, 8, 10, 12, 15, 16, 21, 24, 25, 28, 31,
					   33, 34 };

/* A pop rbp that no ret or jmp follows. */
static const uint8_t x86_odd_pop[] = {
	0x55,					/*  0 push rbp */
	0x48, 0x89, 0xe5,			/*  1 mov rbp, rsp */
	0x5d,					/*  4 pop rbp */
	0x48, 0x83, 0xc4, 0x08,			/*  5 add rsp, 8 */
	0xc3,					/*  9 ret */
	0x90,					/* 10 nop */
};
static const uint32_t x86_odd_pop_insns[] = { 0, 1, 4, 5, 9, 10 };

/* Not the compiler's prologue. */
static const uint8_t x86_alien[] = {
	0x53,					/* 0 push rbx */
	0x48, 0x89, 0xe5,			/* 1 mov rbp, rsp */
	0x5b,					/* 4 pop rbx */
	0xc3,					/* 5 ret */
};

static void test_x86_forms(void)
{
	const struct want plain[] = {
		{ 0, x86_rule(XE) }, { 1, x86_rule(XP) }, { 4, x86_rule(XB) },
		{ 25, x86_rule(XE) }, { 26, x86_rule(XB) }, { 30, x86_rule(XE) },
	};
	const struct want tail_insns[] = {
		{ 0, x86_rule(XE) }, { 1, x86_rule(XP) }, { 4, x86_rule(XB) },
		{ 16, x86_rule(XE) }, { 21, x86_rule(XB) }, { 25, x86_rule(XE) },
		{ 28, x86_rule(XB) }, { 34, x86_rule(XE) },
	};
	/* without boundaries: both tail jumps and the jmp after "add eax,
	 * 0x5d" are unknown, never guessed */
	const struct want tail_bytes[] = {
		{ 0, x86_rule(XE) }, { 1, x86_rule(XP) }, { 4, x86_rule(XB) },
		{ 16, x86_rule(U) }, { 21, x86_rule(XB) }, { 25, x86_rule(U) },
		{ 28, x86_rule(XB) }, { 31, x86_rule(U) }, { 33, x86_rule(XB) },
		{ 34, x86_rule(XE) },
	};
	const struct want odd_insns[] = {
		{ 0, x86_rule(XE) }, { 1, x86_rule(XP) }, { 4, x86_rule(XB) },
		{ 5, x86_rule(U) }, { 9, x86_rule(XE) }, { 10, x86_rule(XB) },
	};
	const struct want odd_bytes[] = {
		{ 0, x86_rule(XE) }, { 1, x86_rule(XP) }, { 4, x86_rule(XB) },
		{ 9, x86_rule(XE) }, { 10, x86_rule(XB) },
	};
	const struct want alien[] = { { 0, x86_rule(U) } };
	struct unwind_table *t;

	t = one_func(UNWIND_ARCH_X86_64, x86_plain, sizeof(x86_plain), x86_plain_insns,
		     sizeof(x86_plain_insns) / 4);
	check_every_offset("x86 plain, boundaries", t, sizeof(x86_plain), plain, 6);
	CHECK(unwind_table__func_known(t, 0));
	unwind_table__delete(t);
	t = one_func(UNWIND_ARCH_X86_64, x86_plain, sizeof(x86_plain), NULL, 0);
	check_every_offset("x86 plain, bytes", t, sizeof(x86_plain), plain, 6);
	unwind_table__delete(t);

	t = one_func(UNWIND_ARCH_X86_64, x86_tail, sizeof(x86_tail), x86_tail_insns,
		     sizeof(x86_tail_insns) / 4);
	check_every_offset("x86 tail, boundaries", t, sizeof(x86_tail), tail_insns, 8);
	unwind_table__delete(t);
	t = one_func(UNWIND_ARCH_X86_64, x86_tail, sizeof(x86_tail), NULL, 0);
	check_every_offset("x86 tail, bytes", t, sizeof(x86_tail), tail_bytes, 10);
	CHECK(!unwind_table__func_known(t, 0));
	unwind_table__delete(t);

	t = one_func(UNWIND_ARCH_X86_64, x86_odd_pop, sizeof(x86_odd_pop), x86_odd_pop_insns,
		     sizeof(x86_odd_pop_insns) / 4);
	check_every_offset("x86 odd pop, boundaries", t, sizeof(x86_odd_pop), odd_insns, 6);
	unwind_table__delete(t);
	t = one_func(UNWIND_ARCH_X86_64, x86_odd_pop, sizeof(x86_odd_pop), NULL, 0);
	check_every_offset("x86 odd pop, bytes", t, sizeof(x86_odd_pop), odd_bytes, 5);
	unwind_table__delete(t);

	t = one_func(UNWIND_ARCH_X86_64, x86_alien, sizeof(x86_alien), NULL, 0);
	check_every_offset("x86 foreign prologue", t, sizeof(x86_alien), alien, 1);
	CHECK(!unwind_table__func_known(t, 0));
	unwind_table__delete(t);

	/* starts listed for the second function only: the first is read
	 * from its bytes, the second with its boundaries */
	{
		uint8_t two[sizeof(x86_tail) + sizeof(x86_tail)];
		uint32_t offs[2] = { 0, sizeof(x86_tail) }, ins[32], n = 0;

		memcpy(two, x86_tail, sizeof(x86_tail));
		memcpy(two + offs[1], x86_tail, sizeof(x86_tail));
		for (size_t i = 0; i < sizeof(x86_tail_insns) / 4; i++)
			ins[n++] = offs[1] + x86_tail_insns[i];
		t = unwind_table__new(UNWIND_ARCH_X86_64, two, sizeof(two), offs, 2, ins, n, NULL);
		CHECK(t != NULL);
		if (t) {
			CHECK(!unwind_table__func_known(t, 0));
			CHECK(unwind_table__func_known(t, 1));
			for (uint32_t off = 0; off < sizeof(x86_tail); off++) {
				const struct unwind_row *a = unwind_table__row(t, off, NULL);
				const struct unwind_row *b = unwind_table__row(t, offs[1] + off, NULL);
				size_t kb = 0, ki = 0;

				while (kb + 1 < 10 && tail_bytes[kb + 1].off <= off)
					kb++;
				while (ki + 1 < 8 && tail_insns[ki + 1].off <= off)
					ki++;
				CHECK(a && same_row(a, &tail_bytes[kb].row));
				CHECK(b && same_row(b, &tail_insns[ki].row));
			}
			unwind_table__delete(t);
		}
	}
}

/* ---- aarch64 forms ---- */

#define W(x) (uint8_t)(x), (uint8_t)((x) >> 8), (uint8_t)((x) >> 16), (uint8_t)((x) >> 24)

/* Small frame (F = 32): ret, br x16, and an ldp of another size. */
static const uint8_t a64_small[] = {
	W(0xa9be7bfdu),		/*  0 stp x29, x30, [sp, #-32]! */
	W(0x910003fdu),		/*  4 mov x29, sp */
	W(0xd503201fu),		/*  8 nop */
	W(0xb4000080u),		/* 12 cbz x0, 28 */
	W(0xa8c27bfdu),		/* 16 ldp x29, x30, [sp], #32 */
	W(0xd65f03c0u),		/* 20 ret */
	W(0xd503201fu),		/* 24 nop */
	W(0xa8c27bfdu),		/* 28 ldp x29, x30, [sp], #32 */
	W(0xd61f0200u),		/* 32 br x16 (tail call) */
	W(0x97ffffffu),		/* 36 bl 32 */
	W(0xa8c17bfdu),		/* 40 ldp x29, x30, [sp], #16 (not the frame) */
	W(0xd503201fu),		/* 44 nop */
	W(0x14000000u),		/* 48 b 48 */
	W(0xd65f03c0u),		/* 52 ret */
};

/* Big frame (F = 0x1020): sub sp twice, stp [sp]; ldp [sp], add sp twice. */
static const uint8_t a64_big[] = {
	W(0xd14007ffu),		/*  0 sub sp, sp, #1, lsl #12 */
	W(0xd10083ffu),		/*  4 sub sp, sp, #0x20 */
	W(0xa9007bfdu),		/*  8 stp x29, x30, [sp] */
	W(0x910003fdu),		/* 12 mov x29, sp */
	W(0xd503201fu),		/* 16 nop */
	W(0xa9407bfdu),		/* 20 ldp x29, x30, [sp] */
	W(0x914007ffu),		/* 24 add sp, sp, #1, lsl #12 */
	W(0x910083ffu),		/* 28 add sp, sp, #0x20 */
	W(0x14000000u),		/* 32 b 32 (tail call) */
	W(0xd503201fu),		/* 36 nop */
};

static const uint8_t a64_alien[] = {
	W(0xd503201fu),		/* 0 nop */
	W(0xd65f03c0u),		/* 4 ret */
};

static void test_a64_forms(void)
{
	const struct want small[] = {
		{ 0, a64_rule(0, 0, 0) }, { 4, a64_rule(0, 32, 32) }, { 8, a64_rule(1, 32, 32) },
		{ 20, a64_rule(0, 0, 0) }, { 24, a64_rule(1, 32, 32) },
		{ 32, a64_rule(0, 0, 0) }, { 36, a64_rule(1, 32, 32) },
		{ 44, x86_rule(U) }, { 52, a64_rule(0, 0, 0) },
	};
	const struct want big[] = {
		{ 0, a64_rule(0, 0, 0) }, { 4, a64_rule(0, 0x1000, 0) }, { 8, a64_rule(0, 0x1020, 0) },
		{ 12, a64_rule(0, 0x1020, 0x1020) }, { 16, a64_rule(1, 0x1020, 0x1020) },
		{ 24, a64_rule(0, 0x1020, 0) }, { 28, a64_rule(0, 0x20, 0) },
		{ 32, a64_rule(0, 0, 0) }, { 36, a64_rule(1, 0x1020, 0x1020) },
	};
	const struct want alien[] = { { 0, x86_rule(U) } };
	uint32_t words[32];
	struct unwind_table *t;

	for (uint32_t i = 0; i < 32; i++)
		words[i] = 4 * i;
	t = one_func(UNWIND_ARCH_AARCH64, a64_small, sizeof(a64_small), NULL, 0);
	check_every_offset("a64 small, bytes", t, sizeof(a64_small), small, 9);
	unwind_table__delete(t);
	t = one_func(UNWIND_ARCH_AARCH64, a64_small, sizeof(a64_small), words, sizeof(a64_small) / 4);
	check_every_offset("a64 small, boundaries", t, sizeof(a64_small), small, 9);
	unwind_table__delete(t);
	t = one_func(UNWIND_ARCH_AARCH64, a64_big, sizeof(a64_big), NULL, 0);
	check_every_offset("a64 big, bytes", t, sizeof(a64_big), big, 9);
	CHECK(unwind_table__func_known(t, 0));
	unwind_table__delete(t);
	t = one_func(UNWIND_ARCH_AARCH64, a64_alien, sizeof(a64_alien), NULL, 0);
	check_every_offset("a64 foreign prologue", t, sizeof(a64_alien), alien, 1);
	unwind_table__delete(t);
}

static void test_table_args(void)
{
	uint32_t offs[3] = { 0, 8, 4 }, ins[2] = { 4, 4 };
	uint8_t text[16] = { 0 };
	int err = 0;

	CHECK(!unwind_table__new(UNWIND_ARCH_X86_64, text, 16, offs, 3, NULL, 0, &err));
	CHECK_EQ_U64(err, (unsigned long long)-EINVAL);
	CHECK(!unwind_table__new(UNWIND_ARCH_X86_64, text, 16, offs, 2, ins, 2, &err));
	CHECK(!unwind_table__new((enum unwind_arch)7, text, 16, offs, 1, NULL, 0, &err));
	offs[2] = 17;
	CHECK(!unwind_table__new(UNWIND_ARCH_X86_64, text, 16, offs, 3, NULL, 0, &err));
}

/* ---- stepper and walker ---- */

struct mem {
	uint64_t base;
	uint8_t bytes[1024];
};

static void mem_put(struct mem *m, uint64_t addr, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		m->bytes[addr - m->base + i] = (uint8_t)(v >> (8 * i));
}

struct lookup_ctx {
	const struct unwind_table *t;
	uint64_t base, size;
};

static int lookup(void *ctx, uint64_t ip, struct unwind_code *code)
{
	const struct lookup_ctx *l = ctx;

	if (ip < l->base || ip >= l->base + l->size)
		return -1;
	code->table = l->t;
	code->base = l->base;
	code->core = 7;
	return 0;
}

/*
 * x86: host -> F (x86_plain, at text 0, in its body at the call's return
 * address 14) -> G (x86_plain again, at text 31) sampled at each phase.
 */
static void test_x86_walk(void)
{
	uint8_t text[2 * sizeof(x86_plain)];
	uint32_t offs[2] = { 0, sizeof(x86_plain) };
	const uint64_t base = 0x500000, g = base + sizeof(x86_plain);
	const uint64_t host_ret = 0x401234, host_fp = 0x7ff0000003f0;
	const uint64_t f_ret = base + 14;	/* "return address" inside F's body */
	const uint64_t cfa_f = 0x7ff000000300, fp_f = cfa_f - 16;
	const uint64_t cfa_g = 0x7ff000000200, fp_g = cfa_g - 16;
	struct mem m = { .base = 0x7ff000000000 };
	struct unwind_stack st;
	struct lookup_ctx lc;
	struct {
		uint32_t off;
		uint64_t sp, fp;
		int skips;
	} phase[] = {
		{ 0, cfa_g - 8, fp_f, 1 },		/* before push rbp */
		{ 1, cfa_g - 16, fp_f, 1 },		/* after push rbp */
		{ 4, cfa_g - 16, fp_g, 0 },		/* after mov rbp, rsp */
		{ 14, cfa_g - 0x240, fp_g, 0 },		/* in the body */
		{ 24, cfa_g - 16, fp_g, 0 },		/* after mov rsp, rbp */
		{ 25, cfa_g - 8, fp_f, 1 },		/* after pop rbp */
		{ 29, cfa_g - 0x240, fp_g, 0 },		/* at leave */
		{ 30, cfa_g - 8, fp_f, 1 },		/* after leave */
	};
	struct unwind_table *t;

	memcpy(text, x86_plain, sizeof(x86_plain));
	memcpy(text + sizeof(x86_plain), x86_plain, sizeof(x86_plain));
	t = unwind_table__new(UNWIND_ARCH_X86_64, text, sizeof(text), offs, 2, NULL, 0, NULL);
	CHECK(t != NULL);
	if (!t)
		return;
	lc = (struct lookup_ctx){ t, base, sizeof(text) };
	/* G's frame: ra into F, F's rbp; F's frame: ra into host, host rbp */
	mem_put(&m, cfa_g - 8, f_ret);
	mem_put(&m, cfa_g - 16, fp_f);
	mem_put(&m, cfa_f - 8, host_ret);
	mem_put(&m, cfa_f - 16, host_fp);
	/* the host's own frame record ends the fp chain */
	mem_put(&m, host_fp, 0);
	mem_put(&m, host_fp + 8, 0);

	for (size_t i = 0; i < sizeof(phase) / sizeof(phase[0]); i++) {
		struct unwind_regs r = { .ip = g + phase[i].off, .sp = phase[i].sp,
					 .fp = phase[i].fp };
		struct unwind_frame fr[8];
		uint32_t n = 99;
		const struct unwind_row *row = unwind_table__row(t, offs[1] + phase[i].off, NULL);
		int stop;

		CHECK_EQ_U64(unwind_row__fp_skips_caller(row), phase[i].skips);
		st = (struct unwind_stack){ r.sp, m.bytes + (r.sp - m.base),
					    m.base + sizeof(m.bytes) - r.sp };
		stop = unwind__walk(lookup, &lc, unwind_stack__read, &st, &r, 0, fr, 8, &n);
		CHECK_EQ_U64(stop, UNWIND_STOP_HOST);
		CHECK_EQ_U64(n, 3);
		CHECK_EQ_U64(fr[0].ip, g + phase[i].off);
		CHECK(fr[0].wasm && fr[0].func == 1 && fr[0].core == 7);
		CHECK_EQ_U64(fr[1].ip, f_ret);
		CHECK(fr[1].wasm && fr[1].func == 0);
		CHECK_EQ_U64(fr[2].ip, host_ret);
		CHECK(!fr[2].wasm);
		/* the host frame's registers, for another unwinder */
		CHECK_EQ_U64(r.ip, host_ret);
		CHECK_EQ_U64(r.sp, cfa_f);
		CHECK_EQ_U64(r.fp, host_fp);

		/* the host fp chain ends at the zero frame record */
		r = (struct unwind_regs){ .ip = g + phase[i].off, .sp = phase[i].sp,
					  .fp = phase[i].fp };
		stop = unwind__walk(lookup, &lc, unwind_stack__read, &st, &r,
				    UNWIND_WALK_HOST_FP, fr, 8, &n);
		CHECK_EQ_U64(stop, UNWIND_STOP_END);
		CHECK_EQ_U64(n, 3);
		/* frames[] too small */
		r = (struct unwind_regs){ .ip = g + phase[i].off, .sp = phase[i].sp,
					  .fp = phase[i].fp };
		stop = unwind__walk(lookup, &lc, unwind_stack__read, &st, &r, 0, fr, 2, &n);
		CHECK_EQ_U64(stop, UNWIND_STOP_MAX);
		CHECK_EQ_U64(n, 2);
	}

	/* a stack copy that ends before the saved return address */
	{
		struct unwind_regs r = { .ip = g + 14, .sp = cfa_g - 0x240, .fp = fp_g };
		struct unwind_frame fr[8];
		uint32_t n;

		st = (struct unwind_stack){ r.sp, m.bytes + (r.sp - m.base), 0x100 };
		CHECK_EQ_U64(unwind__walk(lookup, &lc, unwind_stack__read, &st, &r, 0, fr, 8, &n),
			     UNWIND_STOP_NO_MEM);
		CHECK_EQ_U64(n, 1);
	}
	/* a frame pointer below sp cannot be ours */
	{
		struct unwind_regs r = { .ip = g + 14, .sp = cfa_g - 0x240, .fp = cfa_g - 0x300 }, o;
		const struct unwind_row *row = unwind_table__row(t, offs[1] + 14, NULL);

		st = (struct unwind_stack){ m.base, m.bytes, sizeof(m.bytes) };
		CHECK_EQ_U64(unwind__step(row, &r, unwind_stack__read, &st, &o), UNWIND_BAD_FRAME);
	}
	CHECK(unwind_table__row(t, sizeof(text), NULL) == NULL);
	unwind_table__delete(t);
}

/* aarch64: F -> G (a64_small) at each phase; x30 only in the first frame. */
static void test_a64_walk(void)
{
	uint8_t text[2 * sizeof(a64_small)];
	uint32_t offs[2] = { 0, sizeof(a64_small) };
	const uint64_t base = 0x600000, g = base + sizeof(a64_small);
	const uint64_t f_ret = base + 12, host_ret = 0x401000, host_fp = 0x7ff0000003f0;
	const uint64_t cfa_f = 0x7ff000000300, fp_f = cfa_f - 32;
	const uint64_t cfa_g = 0x7ff000000200, fp_g = cfa_g - 32;
	struct mem m = { .base = 0x7ff000000000 };
	struct lookup_ctx lc;
	struct {
		uint32_t off;
		uint64_t sp, fp;
		int skips;
	} phase[] = {
		{ 0, cfa_g, fp_f, 1 },		/* before stp */
		{ 4, cfa_g - 32, fp_f, 1 },	/* after stp */
		{ 8, cfa_g - 32, fp_g, 0 },	/* body */
		{ 20, cfa_g, fp_f, 1 },		/* after ldp, at ret */
		{ 32, cfa_g, fp_f, 1 },		/* after ldp, at br x16 */
	};
	struct unwind_table *t;

	memcpy(text, a64_small, sizeof(a64_small));
	memcpy(text + sizeof(a64_small), a64_small, sizeof(a64_small));
	t = unwind_table__new(UNWIND_ARCH_AARCH64, text, sizeof(text), offs, 2, NULL, 0, NULL);
	CHECK(t != NULL);
	if (!t)
		return;
	lc = (struct lookup_ctx){ t, base, sizeof(text) };
	mem_put(&m, cfa_g - 32, fp_f);		/* G's frame record */
	mem_put(&m, cfa_g - 24, f_ret);
	mem_put(&m, cfa_f - 32, host_fp);	/* F's */
	mem_put(&m, cfa_f - 24, host_ret);
	for (size_t i = 0; i < sizeof(phase) / sizeof(phase[0]); i++) {
		struct unwind_regs r = { .ip = g + phase[i].off, .sp = phase[i].sp,
					 .fp = phase[i].fp, .ra = f_ret, .has_ra = 1 };
		struct unwind_stack st = { r.sp, m.bytes + (r.sp - m.base),
					   m.base + sizeof(m.bytes) - r.sp };
		const struct unwind_row *row = unwind_table__row(t, offs[1] + phase[i].off, NULL);
		struct unwind_frame fr[8];
		uint32_t n;

		CHECK_EQ_U64(unwind_row__fp_skips_caller(row), phase[i].skips);
		CHECK_EQ_U64(unwind__walk(lookup, &lc, unwind_stack__read, &st, &r, 0, fr, 8, &n),
			     UNWIND_STOP_HOST);
		CHECK_EQ_U64(n, 3);
		CHECK_EQ_U64(fr[1].ip, f_ret);
		CHECK_EQ_U64(fr[2].ip, host_ret);
		CHECK_EQ_U64(r.sp, cfa_f);
		CHECK_EQ_U64(r.fp, host_fp);
		if (phase[i].skips) {
			/* x30 is needed where it was not saved yet or again */
			struct unwind_regs r2 = { .ip = g + phase[i].off, .sp = phase[i].sp,
						  .fp = phase[i].fp }, o;
			int want = phase[i].off == 4 ? UNWIND_OK : UNWIND_NO_RULE;

			CHECK_EQ_U64(unwind__step(row, &r2, unwind_stack__read, &st, &o), want);
		}
	}
	/* inside the unknown window: the walk stops there */
	{
		struct unwind_regs r = { .ip = g + 44, .sp = cfa_g, .fp = fp_f, .ra = f_ret,
					 .has_ra = 1 };
		struct unwind_stack st = { r.sp, m.bytes + (r.sp - m.base), 64 };
		struct unwind_frame fr[4];
		uint32_t n;

		CHECK_EQ_U64(unwind__walk(lookup, &lc, unwind_stack__read, &st, &r, 0, fr, 4, &n),
			     UNWIND_STOP_NO_RULE);
		CHECK_EQ_U64(n, 1);
		CHECK_EQ_U64(unwind_row__fp_skips_caller(unwind_table__row(t, offs[1] + 44, NULL)),
			     (unsigned long long)-1);
	}
	unwind_table__delete(t);
}

/* ---- byte patterns against boundaries, on real code ---- */

static enum unwind_arch arch_of(const struct cwasm_module *m)
{
	return m->target.arch == CWASM_ARCH_AARCH64 ? UNWIND_ARCH_AARCH64 : UNWIND_ARCH_X86_64;
}

/* Instruction starts of every function, from capstone. */
static uint32_t *decode_starts(const struct cwasm_module *m, size_t *n)
{
	size_t cap = 1024;
	uint32_t *v = malloc(cap * sizeof(*v));
	struct dc_vec nv = { 0 };
	struct ap_err err = { 0 };

	*n = 0;
	for (uint32_t f = 0; v && f < m->nfuncs; f++) {
		const struct cwasm_func *fn = &m->funcs[f];

		nv.n = 0;
		if (!fn->size)
			continue;
		if (dc__decode(m->target.arch, m->text + fn->offset, fn->size, fn->offset, &nv,
			       &err)) {
			free(v);
			v = NULL;
			break;
		}
		for (uint32_t i = 0; i < nv.n; i++) {
			if (nv.v[i].kind == DC_DATA)
				continue;
			if (*n == cap) {
				uint32_t *p = realloc(v, 2 * cap * sizeof(*v));

				if (!p) {
					free(v);
					v = NULL;
					break;
				}
				v = p;
				cap *= 2;
			}
			v[(*n)++] = (uint32_t)nv.v[i].addr;
		}
	}
	dc_vec__exit(&nv);
	return v;
}

struct compare_stats {
	size_t starts, differ, known_funcs, funcs;
};

static void compare_modes(const char *path, struct compare_stats *cs)
{
	struct cwasm_module *m = NULL;
	struct ap_err err = { 0 };
	struct unwind_table *tb = NULL, *ti = NULL;
	uint32_t *offs = NULL, *starts = NULL;
	size_t n = 0;

	memset(cs, 0, sizeof(*cs));
	if (cwasm__read(path, &m, &err)) {
		fprintf(stderr, "%s: %s\n", path, err.msg);
		CHECK(0);
		return;
	}
	offs = malloc((m->nfuncs + 1) * sizeof(*offs));
	for (uint32_t f = 0; offs && f < m->nfuncs; f++)
		offs[f] = m->funcs[f].offset;
	starts = decode_starts(m, &n);
	CHECK(offs && starts && n > 0);
	if (!offs || !starts)
		goto out;
	tb = unwind_table__new(arch_of(m), m->text, m->text_size, offs, m->nfuncs, NULL, 0, NULL);
	ti = unwind_table__new(arch_of(m), m->text, m->text_size, offs, m->nfuncs, starts, n,
			       NULL);
	CHECK(tb && ti);
	if (!tb || !ti)
		goto out;
	for (size_t i = 0; i < n; i++) {
		const struct unwind_row *a = unwind_table__row(tb, starts[i], NULL);
		const struct unwind_row *b = unwind_table__row(ti, starts[i], NULL);

		cs->starts++;
		if (!a || !b || !same_row(a, b)) {
			if (cs->differ++ < 4) {
				fprintf(stderr, "%s: bytes and boundaries differ\n", path);
				print_row("bytes", starts[i], a);
				print_row("insns", starts[i], b);
			}
		}
	}
	for (uint32_t f = 0; f < m->nfuncs; f++) {
		if (!m->funcs[f].size)
			continue;
		cs->funcs++;
		cs->known_funcs += unwind_table__func_known(ti, f);
	}
out:
	unwind_table__delete(tb);
	unwind_table__delete(ti);
	free(starts);
	free(offs);
	cwasm__delete(m);
}

static const char *real_dir(void)
{
	static char buf[1024];
	const char *fx = getenv("FIXTURES");
	const char *cand[3] = { "tests/fixtures/real", NULL, NULL };
	char *slash;

	snprintf(buf, sizeof(buf), "%s", __FILE__);
	slash = strrchr(buf, '/');
	if (slash) {
		snprintf(slash, sizeof(buf) - (size_t)(slash - buf), "/../fixtures/real");
		cand[1] = buf;
	}
	for (int i = 0; i < 2; i++)
		if (cand[i] && access(cand[i], R_OK) == 0)
			return cand[i];
	if (fx) {
		static char b2[1024];

		snprintf(b2, sizeof(b2), "%s/../../tests/fixtures/real", fx);
		if (access(b2, R_OK) == 0)
			return b2;
	}
	return NULL;
}

static void test_bytes_vs_boundaries(void)
{
	const char *real = real_dir(), *fx = getenv("FIXTURES");
	const char *reals[] = { "test_minimal.aot", "sidecar-v1-x86_64.cwasm",
				"sidecar-v2-aarch64.cwasm" };
	struct compare_stats cs;
	char path[4096];

	CHECK(real != NULL);
	for (size_t i = 0; real && i < sizeof(reals) / sizeof(reals[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", real, reals[i]);
		compare_modes(path, &cs);
		CHECK(cs.starts > 0);
		CHECK_EQ_U64(cs.differ, 0);
		/* the compiler's own functions all have the known shapes */
		CHECK_EQ_U64(cs.known_funcs, cs.funcs);
	}
	if (!fx) {
		fprintf(stderr, "FIXTURES not set: fixture cores skipped\n");
		return;
	}
	snprintf(path, sizeof(path), "%s/sample.cwasm", fx);
	compare_modes(path, &cs);
	CHECK(cs.starts > 100000);
	CHECK_EQ_U64(cs.differ, 0);
	CHECK_EQ_U64(cs.known_funcs, cs.funcs);
	printf("sample.cwasm: %zu instruction starts, %zu functions, all rules known: %s\n",
	       cs.starts, cs.funcs, cs.known_funcs == cs.funcs ? "yes" : "no");
}

/* ---- .eh_frame round trip through an independent interpreter ---- */

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t rd_uleb(const uint8_t **p)
{
	uint64_t v = 0;
	int shift = 0;
	uint8_t c;

	do {
		c = *(*p)++;
		v |= (uint64_t)(c & 0x7f) << shift;
		shift += 7;
	} while (c & 0x80);
	return v;
}

static int64_t rd_sleb(const uint8_t **p)
{
	int64_t v = 0;
	int shift = 0;
	uint8_t c;

	do {
		c = *(*p)++;
		v |= (int64_t)(c & 0x7f) << shift;
		shift += 7;
	} while (c & 0x80);
	if (shift < 64 && (c & 0x40))
		v |= -((int64_t)1 << shift);
	return v;
}

/* Register rules as DWARF sees them. */
struct cfi_state {
	int cfa_reg;
	int64_t cfa_off;
	int ra_kind, fp_kind;	/* 0 same, 1 offset, 2 undefined */
	int64_t ra_off, fp_off;
};

struct cfi_arch {
	int sp, fp, ra, code_align;
};

static struct unwind_row row_of(const struct cfi_arch *a, const struct cfi_state *s)
{
	struct unwind_row r = { .known = 1 };

	if (s->ra_kind == 2)
		return (struct unwind_row){ .known = 0 };
	r.cfa_reg = s->cfa_reg == a->fp ? UNWIND_REG_FP : UNWIND_REG_SP;
	r.cfa_off = (int32_t)s->cfa_off;
	r.ra_where = s->ra_kind == 1 ? UNWIND_AT_CFA : UNWIND_SAME;
	r.ra_off = (int32_t)s->ra_off;
	r.fp_where = s->fp_kind == 1 ? UNWIND_AT_CFA : UNWIND_SAME;
	r.fp_off = (int32_t)s->fp_off;
	return r;
}

static void set_reg(const struct cfi_arch *a, struct cfi_state *s, int reg, int kind, int64_t off)
{
	if (reg == a->ra) {
		s->ra_kind = kind;
		s->ra_off = off;
	} else if (reg == a->fp) {
		s->fp_kind = kind;
		s->fp_off = off;
	}
}

/*
 * Run one instruction stream. With rows, check the state at every
 * location [loc, end) against the table (fn_start = text offset of the
 * FDE's function); returns the number of mismatches.
 */
static int run_cfi(const struct cfi_arch *a, const uint8_t *p, const uint8_t *end,
		   struct cfi_state *s, const struct cfi_state *init,
		   const struct unwind_table *t, uint32_t fn_start, uint32_t fn_size)
{
	struct cfi_state stack[8];
	int depth = 0, bad = 0;
	uint32_t loc = 0;

	for (;;) {
		uint32_t next = fn_size;
		uint8_t op;

		/* peek: an advance ends the rows at loc */
		if (p < end) {
			op = *p;
			if ((op & 0xc0) == 0x40)
				next = loc + (op & 0x3f) * (uint32_t)a->code_align;
			else if (op == 0x02)
				next = loc + p[1] * (uint32_t)a->code_align;
			else if (op == 0x03)
				next = loc + (p[1] | p[2] << 8) * (uint32_t)a->code_align;
			else if (op == 0x04)
				next = loc + rd32(p + 1) * (uint32_t)a->code_align;
			else
				next = loc;
		}
		if (t && next > loc) {
			struct unwind_row want = row_of(a, s);

			for (uint32_t o = loc; o < next && o < fn_size; o++) {
				const struct unwind_row *got = unwind_table__row(t, fn_start + o, NULL);

				if (!got || !same_row(got, &want)) {
					if (bad++ < 3) {
						print_row("cfi  ", o, &want);
						print_row("table", o, got);
					}
				}
			}
		}
		if (p >= end)
			break;
		op = *p++;
		if ((op & 0xc0) == 0x40) {
			loc += (op & 0x3f) * (uint32_t)a->code_align;
		} else if ((op & 0xc0) == 0x80) {
			set_reg(a, s, op & 0x3f, 1, (int64_t)rd_uleb(&p) * -8);
		} else if ((op & 0xc0) == 0xc0) {
			int reg = op & 0x3f;

			if (reg == a->ra)
				set_reg(a, s, reg, init->ra_kind, init->ra_off);
			else
				set_reg(a, s, reg, init->fp_kind, init->fp_off);
		} else {
			switch (op) {
			case 0x00:
				break;
			case 0x02:
				loc += *p++ * (uint32_t)a->code_align;
				break;
			case 0x03:
				loc += (p[0] | p[1] << 8) * (uint32_t)a->code_align;
				p += 2;
				break;
			case 0x04:
				loc += rd32(p) * (uint32_t)a->code_align;
				p += 4;
				break;
			case 0x07:
				set_reg(a, s, (int)rd_uleb(&p), 2, 0);
				break;
			case 0x08:
				set_reg(a, s, (int)rd_uleb(&p), 0, 0);
				break;
			case 0x0a:
				if (depth < 8)
					stack[depth++] = *s;
				break;
			case 0x0b:
				if (depth > 0)
					*s = stack[--depth];
				break;
			case 0x0c:
				s->cfa_reg = (int)rd_uleb(&p);
				s->cfa_off = (int64_t)rd_uleb(&p);
				break;
			case 0x0d:
				s->cfa_reg = (int)rd_uleb(&p);
				break;
			case 0x0e:
				s->cfa_off = (int64_t)rd_uleb(&p);
				break;
			default:
				fprintf(stderr, "cfi: opcode 0x%02x not expected\n", op);
				return bad + 1;
			}
		}
	}
	return bad;
}

/*
 * Parse .eh_frame at eh_vaddr and the header after it; check the header
 * table against the FDEs and every FDE's rows against the table. Returns
 * the number of FDEs, or -1 on a structural error.
 */
static long check_ehframe(const struct unwind_table *t, const struct unwind_ehframe *e,
			  uint64_t text_vaddr, uint64_t eh_vaddr)
{
	const struct cfi_arch a = unwind_table__arch(t) == UNWIND_ARCH_AARCH64
					  ? (struct cfi_arch){ 31, 29, 30, 4 }
					  : (struct cfi_arch){ 7, 6, 16, 1 };
	const uint8_t *eh = e->data, *hdr = e->data + e->eh_frame_size;
	uint64_t hdr_vaddr = eh_vaddr + e->eh_frame_size;
	struct cfi_state init = { 0 };
	size_t off = 0;
	long nfde = 0;
	int bad = 0;
	uint32_t count;

	/* the CIE */
	{
		uint32_t len = rd32(eh);
		const uint8_t *p = eh + 8, *end = eh + 4 + len;

		if (rd32(eh + 4) != 0 || p[0] != 1 || strcmp((const char *)p + 1, "zR"))
			return -1;
		p += 4;
		if ((int)rd_uleb(&p) != a.code_align || rd_sleb(&p) != -8 ||
		    (int)rd_uleb(&p) != a.ra)
			return -1;
		if (rd_uleb(&p) != 1 || *p++ != 0x1b)
			return -1;
		init.ra_kind = 0;
		run_cfi(&a, p, end, &init, &init, NULL, 0, 0);
		off = 4 + len;
		if ((4 + len) % 8)
			return -1;
	}
	/* the header */
	if (hdr[0] != 1 || hdr[1] != 0x1b || hdr[2] != 0x03 || hdr[3] != 0x3b)
		return -1;
	if (hdr_vaddr + 4 + (int32_t)rd32(hdr + 4) != eh_vaddr)
		return -1;
	count = rd32(hdr + 8);
	if (e->hdr_size != 12 + 8 * (size_t)count || count != e->nfdes)
		return -1;

	while (off + 4 <= e->eh_frame_size) {
		uint32_t len = rd32(eh + off), fn_start, fn_size;
		const uint8_t *p;
		uint64_t pc;
		int64_t rel;
		struct cfi_state s = init;

		if (!len)
			break;	/* the terminator */
		if ((4 + len) % 8 || rd32(eh + off + 4) != off + 4)
			return -1;
		rel = (int32_t)rd32(eh + off + 8);
		pc = eh_vaddr + off + 8 + (uint64_t)rel;
		fn_size = rd32(eh + off + 12);
		fn_start = (uint32_t)(pc - text_vaddr);
		/* the header's entry for this FDE, in order */
		if ((uint32_t)nfde >= count ||
		    hdr_vaddr + (uint64_t)(int64_t)(int32_t)rd32(hdr + 12 + 8 * nfde) != pc ||
		    hdr_vaddr + (uint64_t)(int64_t)(int32_t)rd32(hdr + 16 + 8 * nfde) != eh_vaddr + off)
			return -1;
		p = eh + off + 16;
		if (rd_uleb(&p) != 0)
			return -1;
		bad += run_cfi(&a, p, eh + off + 4 + len, &s, &init, t, fn_start, fn_size);
		nfde++;
		off += 4 + len;
	}
	if (off + 4 != e->eh_frame_size || (uint32_t)nfde != count)
		return -1;
	CHECK_EQ_U64(bad, 0);
	return nfde;
}

static void ehframe_of(const char *what, const struct unwind_table *t, uint32_t want_fdes)
{
	struct unwind_ehframe e;
	int failed_before = check_failed;

	/* text at 0x1000, CFI somewhere after it, as in an ELF image */
	CHECK_EQ_U64(unwind_ehframe__build(t, 0, unwind_table__nfuncs(t), 0x1000, 0x9008, &e), 0);
	CHECK_EQ_U64(check_ehframe(t, &e, 0x1000, 0x9008), want_fdes);
	CHECK_EQ_U64(e.nfdes, want_fdes);
	if (check_failed != failed_before)
		fprintf(stderr, "%s: eh_frame check\n", what);
	unwind_ehframe__exit(&e);
}

static void test_ehframe(void)
{
	struct unwind_table *t;
	uint8_t text[sizeof(x86_plain) + sizeof(x86_tail) + sizeof(x86_alien)];
	uint32_t offs[4] = { 0, sizeof(x86_plain), sizeof(x86_plain) + sizeof(x86_tail),
			     sizeof(text) };
	uint8_t a64[sizeof(a64_small) + sizeof(a64_big) + sizeof(a64_alien)];
	uint32_t aoffs[3] = { 0, sizeof(a64_small), sizeof(a64_small) + sizeof(a64_big) };
	struct unwind_ehframe e;
	const char *fx = getenv("FIXTURES");

	memcpy(text, x86_plain, sizeof(x86_plain));
	memcpy(text + offs[1], x86_tail, sizeof(x86_tail));
	memcpy(text + offs[2], x86_alien, sizeof(x86_alien));
	/* the alien one gets no FDE; the empty last one neither */
	t = unwind_table__new(UNWIND_ARCH_X86_64, text, sizeof(text), offs, 4, NULL, 0, NULL);
	CHECK(t != NULL);
	ehframe_of("x86 forms", t, 2);
	/* one function alone, as in a jitted ELF: code at 0x80 */
	CHECK_EQ_U64(unwind_ehframe__build(t, 1, 1, 0x80 - offs[1], 0x80 + 40, &e), 0);
	CHECK_EQ_U64(check_ehframe(t, &e, 0x80 - offs[1], 0x80 + 40), 1);
	unwind_ehframe__exit(&e);
	CHECK_EQ_U64(unwind_ehframe__build(t, 2, 3, 0, 0, &e), (unsigned long long)-EINVAL);
	/* pc-relative offsets must fit 32 bits */
	CHECK_EQ_U64(unwind_ehframe__build(t, 0, 1, 0x1000, 0x900000000ull, &e),
		     (unsigned long long)-EINVAL);
	unwind_table__delete(t);

	memcpy(a64, a64_small, sizeof(a64_small));
	memcpy(a64 + aoffs[1], a64_big, sizeof(a64_big));
	memcpy(a64 + aoffs[2], a64_alien, sizeof(a64_alien));
	t = unwind_table__new(UNWIND_ARCH_AARCH64, a64, sizeof(a64), aoffs, 3, NULL, 0, NULL);
	CHECK(t != NULL);
	ehframe_of("a64 forms", t, 2);
	unwind_table__delete(t);

	if (fx) {
		char path[4096];
		struct cwasm_module *m;
		struct ap_err err = { 0 };

		snprintf(path, sizeof(path), "%s/sample.cwasm", fx);
		if (!cwasm__read(path, &m, &err)) {
			uint32_t *o = malloc(m->nfuncs * sizeof(*o)), nz = 0;

			for (uint32_t f = 0; o && f < m->nfuncs; f++) {
				o[f] = m->funcs[f].offset;
				nz += m->funcs[f].size > 0;
			}
			t = o ? unwind_table__new(UNWIND_ARCH_X86_64, m->text, m->text_size, o,
						 m->nfuncs, NULL, 0, NULL) : NULL;
			CHECK(t != NULL);
			if (t)
				ehframe_of("sample.cwasm", t, nz);
			unwind_table__delete(t);
			free(o);
			cwasm__delete(m);
		} else {
			CHECK(0);
		}
	}
}

/* ---- JIT_CODE_UNWINDING_INFO records in a dump ---- */

static uint64_t rd64(const uint8_t *p)
{
	return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long n;

	*len = 0;
	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0) {
		buf = malloc((size_t)n);
		if (buf && fread(buf, 1, (size_t)n, f) == (size_t)n)
			*len = (size_t)n;
	}
	fclose(f);
	return buf;
}

/*
 * Write a dump of one core (x86_plain, x86_tail, x86_alien) and check its
 * records: an unwinding record right before the code load of each
 * function with a known prologue, none for the alien one; each record's
 * CFI, placed as perf's genelf places it, equal to the rules of T (the
 * rules the writer was given, or NULL: the bytes-only rules).
 */
static void check_dump(const char *what, const struct unwind_table *given)
{
	uint8_t text[sizeof(x86_plain) + sizeof(x86_tail) + sizeof(x86_alien)];
	uint32_t offs[3] = { 0, sizeof(x86_plain), sizeof(x86_plain) + sizeof(x86_tail) };
	const char *tmp = getenv("TMPDIR");
	struct unwind_table *bytes;
	const struct unwind_table *t;
	char path[4096];
	struct aotjit *j;
	size_t len, off = 40;
	uint8_t *d;
	uint32_t want_ids[5] = { 4, 0, 4, 0, 0 }, k = 0;
	int err = 0, failed_before = check_failed;

	memcpy(text, x86_plain, sizeof(x86_plain));
	memcpy(text + offs[1], x86_tail, sizeof(x86_tail));
	memcpy(text + offs[2], x86_alien, sizeof(x86_alien));
	bytes = unwind_table__new(UNWIND_ARCH_X86_64, text, sizeof(text), offs, 3, NULL, 0, NULL);
	t = given ? given : bytes;
	snprintf(path, sizeof(path), "%s/unwind-%s-%d.dump", tmp ? tmp : "/tmp", what, (int)getpid());
	unlink(path);
	j = aotjit_open_file(path, 4242, 62, 1000, &err);
	CHECK(j != NULL);
	if (!j || !bytes) {
		unwind_table__delete(bytes);
		return;
	}
	CHECK_EQ_U64(aotjit_register_core_rules(j, 0x400000, text, sizeof(text), offs, 3, NULL,
						NULL, 2000, given), 0);
	CHECK_EQ_U64(aotjit_close(j), 0);
	d = slurp(path, &len);
	CHECK(d && len > 40);
	while (d && off + 16 <= len && k < 5) {
		uint32_t id = rd32(d + off), size = rd32(d + off + 4);
		uint32_t func = k / 2;

		CHECK_EQ_U64(id, want_ids[k]);
		CHECK(size >= 16 && off + size <= len);
		if (size < 16 || off + size > len)
			break;
		CHECK_EQ_U64(rd64(d + off + 8), 2000);
		if (id == 4) {
			uint64_t usize = rd64(d + off + 16), hsize = rd64(d + off + 24);
			uint32_t fsize = (func + 1 < 3 ? offs[func + 1] : sizeof(text)) - offs[func];
			uint64_t eh_vaddr = (0x80 + (uint64_t)fsize + 7) & ~7ull;
			struct unwind_ehframe e = { .data = d + off + 40, .nfdes = 1 };

			CHECK_EQ_U64(size, 40 + usize);
			CHECK_EQ_U64(rd64(d + off + 32), 0);	/* mapped_size */
			CHECK_EQ_U64(hsize, 12 + 8);
			e.eh_frame_size = usize - hsize;
			e.hdr_size = hsize;
			CHECK_EQ_U64(check_ehframe(t, &e, 0x80 - offs[func], eh_vaddr), 1);
		} else {
			/* the code load of function k / 2 (the alien one is last) */
			uint32_t f = k == 4 ? 2 : func;

			CHECK_EQ_U64(rd64(d + off + 24), 0x400000 + offs[f]);	/* vma */
		}
		off += size;
		k++;
	}
	CHECK_EQ_U64(k, 5);
	CHECK(d && off + 16 == len && rd32(d + off) == 3);	/* then JIT_CODE_CLOSE */
	if (check_failed != failed_before)
		fprintf(stderr, "%s: dump check\n", what);
	free(d);
	unlink(path);
	unwind_table__delete(bytes);
}

static void test_jitdump_records(void)
{
	uint8_t text[sizeof(x86_plain) + sizeof(x86_tail) + sizeof(x86_alien)];
	uint32_t offs[3] = { 0, sizeof(x86_plain), sizeof(x86_plain) + sizeof(x86_tail) };
	uint32_t insns[64], n = 0;
	struct unwind_table *t;
	const struct unwind_row *row;

	check_dump("bytes", NULL);
	/* aotperf's route: boundary rules handed in, the tail jumps known */
	memcpy(text, x86_plain, sizeof(x86_plain));
	memcpy(text + offs[1], x86_tail, sizeof(x86_tail));
	memcpy(text + offs[2], x86_alien, sizeof(x86_alien));
	for (size_t i = 0; i < sizeof(x86_plain_insns) / 4; i++)
		insns[n++] = x86_plain_insns[i];
	for (size_t i = 0; i < sizeof(x86_tail_insns) / 4; i++)
		insns[n++] = offs[1] + x86_tail_insns[i];
	t = unwind_table__new(UNWIND_ARCH_X86_64, text, sizeof(text), offs, 3, insns, n, NULL);
	CHECK(t != NULL);
	if (!t)
		return;
	row = unwind_table__row(t, offs[1] + 16, NULL);
	CHECK(row && row->known);
	check_dump("insns", t);
	unwind_table__delete(t);
	/* no rules for other machines */
	CHECK(aotjit_unwind__table(40 /* EM_ARM */, text, sizeof(text), offs, 3) == NULL);
}

int main(void)
{
	test_x86_forms();
	test_a64_forms();
	test_table_args();
	test_x86_walk();
	test_a64_walk();
	test_bytes_vs_boundaries();
	test_ehframe();
	test_jitdump_records();
	CHECK_DONE();
}
