/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_UNWIND_H
#define AOTPERF_UNWIND_H
/*
 * unwind: where the canonical frame address (CFA), the return address and
 * the caller's frame pointer are at every offset of every function of a
 * core, derived from the compiler's fixed prologue and epilogue shapes
 * (docs/unwinding.md); a stepper that turns one frame's registers into its
 * caller's; a walker over one sample's registers and stack copy; and the
 * frame-pointer-chain classifier for `perf record -g` callchains.
 *
 * libc only: the runtime library (jitdump/) compiles this in. Errors are
 * negative errno values, as in jitdump/jitdump.h; nothing prints.
 */
#include <stddef.h>
#include <stdint.h>

enum unwind_arch {
	UNWIND_ARCH_X86_64 = 1,
	UNWIND_ARCH_AARCH64 = 2,
};

/* The register the CFA is computed from. */
enum unwind_reg {
	UNWIND_REG_SP = 0,	/* rsp / sp */
	UNWIND_REG_FP = 1,	/* rbp / x29 */
};

/* Where a value of the caller's is. */
enum unwind_where {
	UNWIND_SAME = 0,	/* still in its register (fp: the caller's own
				 * value; ra: aarch64 x30 before it is saved) */
	UNWIND_AT_CFA = 1,	/* saved in memory at CFA + off */
};

/*
 * One row: holds from function offset `off` up to the next row's `off`
 * (the last row to the function's end). known == 0 is the honest "no
 * rule here": the code is not a shape we recognise, and a caller must
 * stop rather than guess.
 */
struct unwind_row {
	uint32_t off;
	uint8_t known;
	uint8_t cfa_reg;	/* enum unwind_reg */
	uint8_t ra_where;	/* enum unwind_where */
	uint8_t fp_where;	/* enum unwind_where */
	int32_t cfa_off;	/* CFA = cfa_reg + cfa_off */
	int32_t ra_off;		/* ra_where == UNWIND_AT_CFA: at CFA + ra_off */
	int32_t fp_off;		/* fp_where == UNWIND_AT_CFA: at CFA + fp_off */
};

/* Rows of every function of one core (opaque). */
struct unwind_table;

/*
 * Rules for the core whose TEXT (TEXT_SIZE bytes) holds NFUNCS functions
 * starting at the ascending OFFSETS (each runs to the next offset, the
 * last to the end of text; functions of size 0 get no rows).
 *
 * insns: the ascending text offsets of every instruction start, when the
 * caller decoded the text (aotperf, with capstone); NULL to work from the
 * bytes alone (the runtime library). The two agree at every instruction
 * start except that, without boundaries, an x86 jump right after a
 * `pop rbp`/`leave` byte gets no rule (unwind/rules_x86.c says why).
 * A function none of whose instruction starts is listed is read from
 * its bytes, so a caller may decode only the functions that need it
 * (those unwind_table__func_known() finds unknown in the bytes run).
 *
 * Returns NULL and sets *err (if not NULL) to -EINVAL (bad arguments or
 * offsets) or -ENOMEM.
 */
struct unwind_table *unwind_table__new(enum unwind_arch arch, const uint8_t *text,
				       uint32_t text_size, const uint32_t *offsets,
				       uint32_t nfuncs, const uint32_t *insns,
				       size_t ninsns, int *err);
void unwind_table__delete(struct unwind_table *t);

enum unwind_arch unwind_table__arch(const struct unwind_table *t);
uint32_t unwind_table__nfuncs(const struct unwind_table *t);

/*
 * Function FUNC's rows (NULL and 0 for a function of size 0), its text
 * offset and size. Returns 0, or -1 if FUNC is out of range.
 */
int unwind_table__func(const struct unwind_table *t, uint32_t func,
		       const struct unwind_row **rows, uint32_t *nrows,
		       uint32_t *start, uint32_t *size);

/* 1 if every row of FUNC is known (its prologue was recognised and no
 * window of it is unknown), else 0. */
int unwind_table__func_known(const struct unwind_table *t, uint32_t func);

/*
 * The row at text offset TEXT_OFF, and (if func is not NULL) the function
 * holding it. NULL when the offset is outside every function.
 */
const struct unwind_row *unwind_table__row(const struct unwind_table *t, uint32_t text_off,
					   uint32_t *func);

/* ---- stepping ---- */

/* One frame's registers. ra: aarch64 x30, meaningful only with has_ra. */
struct unwind_regs {
	uint64_t ip, sp, fp, ra;
	uint8_t has_ra;
};

/* Read the 8-byte little-endian word at ADDR into *val: 0, or -1 if the
 * address is not readable (outside the stack copy). */
typedef int (*unwind_read_fn)(void *ctx, uint64_t addr, uint64_t *val);

enum unwind_status {
	UNWIND_OK = 0,
	UNWIND_NO_RULE = 1,	/* the row is unknown, or needs a lost x30 */
	UNWIND_NO_MEM = 2,	/* a saved value lies outside readable memory */
	UNWIND_BAD_FRAME = 3,	/* the caller's sp would not be above ours */
};

/*
 * The caller's registers from ROW (the row at in->ip's function offset):
 * out->sp = CFA, out->ip = the return address, out->fp = the caller's
 * frame pointer; out->has_ra = 0 (a caller's x30 is not preserved).
 * Returns an enum unwind_status.
 */
int unwind__step(const struct unwind_row *row, const struct unwind_regs *in,
		 unwind_read_fn read, void *ctx, struct unwind_regs *out);

/*
 * For `perf record -g`: the kernel walks the frame-pointer chain from the
 * sampled fp. At an ip whose row has the CFA on sp (before `mov rbp, rsp`
 * / `mov x29, sp`, after `pop rbp` / `ldp x29, x30`), fp still holds the
 * caller's frame, so the chain's first return address is the caller's
 * caller's and the immediate caller is missing from the callchain.
 * Returns 1 (the chain skips the immediate caller: its return address is
 * at sp + cfa_off + ra_off, or in x30 when ra_where is UNWIND_SAME),
 * 0 (the chain is right), -1 (unknown row).
 */
int unwind_row__fp_skips_caller(const struct unwind_row *row);

/* ---- walking one sample ---- */

/* The code an ip falls in, as the walker's caller knows it. */
struct unwind_code {
	const struct unwind_table *table;
	uint64_t base;		/* runtime address of text offset 0 */
	uint32_t core;		/* the caller's index, copied into frames */
};

/* Find the core whose text holds IP: 0 and *code filled, or -1 (not wasm). */
typedef int (*unwind_lookup_fn)(void *ctx, uint64_t ip, struct unwind_code *code);

/* A copy of user stack memory: data[0] is the byte at address sp. */
struct unwind_stack {
	uint64_t sp;
	const uint8_t *data;
	uint64_t size;
};

/* An unwind_read_fn over a struct unwind_stack (ctx). */
int unwind_stack__read(void *ctx, uint64_t addr, uint64_t *val);

struct unwind_frame {
	uint64_t ip;		/* sampled ip, then return addresses */
	uint32_t core, func;	/* valid when wasm */
	uint8_t wasm;		/* 1: a wasm function; 0: host code */
	uint8_t by_fp;		/* 1: found through the host fp chain (a guess
				 * where host code has no frame pointers) */
};

enum unwind_stop {
	UNWIND_STOP_HOST = 0,	/* the last frame is host code; *regs are its */
	UNWIND_STOP_END,	/* return address 0, or the host fp chain ended */
	UNWIND_STOP_NO_RULE,
	UNWIND_STOP_NO_MEM,
	UNWIND_STOP_BAD_FRAME,
	UNWIND_STOP_MAX,	/* frames[] is full */
};

/* Walk flags. */
enum {
	/* Past the wasm frames, follow the host's frame-pointer chain
	 * ([fp] = caller's fp, [fp + 8] = return address; x86-64 and
	 * aarch64 alike), switching back to the rules whenever a return
	 * address lands in wasm code. Host code built without frame
	 * pointers makes this chain wrong or short. */
	UNWIND_WALK_HOST_FP = 1u << 0,
	/* regs->ip is a return address (another unwinder handed over a
	 * caller's frame): look it up at ip - 1 too. */
	UNWIND_WALK_RETURN_ADDR = 1u << 1,
};

/*
 * Unwind one sample from *regs (the sampled ip, sp, fp and, on aarch64,
 * x30 with has_ra = 1). frames[0] is the sampled ip; each further frame
 * is a caller. A caller's rules are looked up at its return address - 1,
 * inside the call. The first host frame is written and ends the walk
 * (UNWIND_STOP_HOST) unless UNWIND_WALK_HOST_FP; *regs is then that
 * frame's (ip, sp = its CFA, fp), for another unwinder to carry on.
 * Returns the enum unwind_stop reason; *nframes gets the number of
 * frames written.
 */
int unwind__walk(unwind_lookup_fn lookup, void *lctx, unwind_read_fn read, void *rctx,
		 struct unwind_regs *regs, unsigned flags, struct unwind_frame *frames,
		 uint32_t max, uint32_t *nframes);

#endif
