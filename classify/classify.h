/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_CLASSIFY_H
#define AOTPERF_CLASSIFY_H
/*
 * Instruction classes of AOT-compiled wasm code (FORMATS.md section 7):
 * is a hot function spill-bound, move-bound, bounds-check-bound or
 * dispatch-bound? Machine code is decoded with capstone (x86-64, aarch64);
 * `perf annotate --stdio` text can be read too (classify/annotate.c). Both
 * feed one structural classifier, so they agree on the same code.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "../cwasm/cwasm.h"
#include "../util/err.h"

struct json_out;

/* Stable order: tables print in this order; names are JSON keys. */
enum cls_class {
	CLS_SPILL_RELOAD,	/* reads a frame slot */
	CLS_FRAME_STORE,	/* writes a frame slot */
	CLS_REG_MOVE,		/* register-to-register copy */
	CLS_ZEXT_MOVE,		/* i32 zero-extend: mov eXX,eXX / mov wN,wN */
	CLS_ALU,		/* arithmetic, logic, shifts, compares, constants */
	CLS_LEA,		/* address generation */
	CLS_BOUNDS_CHECK,	/* compare + branch to a trap stub */
	CLS_LINEAR_MEM,		/* access through the linear-memory base */
	CLS_OTHER_MEM,		/* any other memory access (vmctx, globals) */
	CLS_DISPATCH,		/* indirect jump and its br_table sequence */
	CLS_CALL_DIRECT,
	CLS_CALL_INDIRECT,
	CLS_COND_BRANCH,
	CLS_BRANCH,		/* direct unconditional jump */
	CLS_OTHER,		/* ret, nop, push/pop, traps, system insns */
	CLS_DATA,		/* bytes in text that are not code */
	CLS__COUNT
};

const char *cls__name(enum cls_class c);
/* One line, for --help and the README. */
const char *cls__desc(enum cls_class c);
/* Class by its name, or -1. */
int cls__by_name(const char *name);

/*
 * Register roles (FORMATS.md section 7). A role holds a register family
 * (rax/eax/ax/al are one family), 0 for none. With no membase role,
 * [base + index*1] accesses count as linear memory instead.
 */
struct cls_roles {
	enum cwasm_arch arch;
	uint8_t vmctx;
	uint8_t membase;
	uint8_t frame;
};

/* x86-64: vmctx=rbx,membase=r15,frame=rbp; aarch64: x19, x28, x29. */
void cls__roles_default(enum cwasm_arch arch, struct cls_roles *r);
/* Apply "vmctx=rcx,membase=none,frame=rbp" on top of *r. */
int cls__roles_parse(struct cls_roles *r, const char *spec, struct ap_err *err);
/* "vmctx=rbx,membase=r15,frame=rbp" */
void cls__roles_str(const struct cls_roles *r, char *buf, size_t len);

struct cls_insn {
	uint64_t addr;
	uint32_t offset;	/* from the start of the function */
	uint16_t size;
	uint8_t cls;		/* enum cls_class */
	char text[112];		/* Intel syntax (capstone's, or the input's) */
};

struct cls_func {
	struct cls_insn *insns;	/* address order; CLS_DATA entries included */
	uint32_t ninsns;
	uint32_t static_count[CLS__COUNT];
	uint32_t ndata_bytes;	/* bytes skipped as data */
};

/*
 * Decode and classify len bytes of code that start at addr. Undecodable
 * bytes and recognised br_table jump tables become CLS_DATA entries.
 */
int cls__decode(enum cwasm_arch arch, const struct cls_roles *roles, const uint8_t *code,
		size_t len, uint64_t addr, struct cls_func *out, struct ap_err *err);
void cls_func__exit(struct cls_func *f);
/* Index of the entry holding addr, or -1. */
int64_t cls__insn_at(const struct cls_func *f, uint64_t addr);
/* Instructions proper (entries that are not data). */
uint32_t cls__insn_count(const struct cls_func *f);

/*
 * Per-class totals. samples[] are counts; when the input only had
 * percentages and no total, percent_only is set and samples[] hold
 * hundredths of a percent.
 */
struct cls_table {
	uint64_t samples[CLS__COUNT];
	uint32_t static_count[CLS__COUNT];
	uint64_t total;
	int percent_only;
};

/* insn_samples is parallel to f->insns; NULL gives static counts only. */
void cls__tabulate(const struct cls_func *f, const uint64_t *insn_samples,
		   struct cls_table *t);

/* The lever groups the verdict weighs, in percent of the function. */
struct cls_levers {
	double stack, moves, bounds, dispatch;
	const char *verdict; /* "spill-bound", "move-bound", ... or "mixed" */
};
void cls__levers(const struct cls_table *t, struct cls_levers *l);

/*
 * The class table that `report --func`, `classify` and `annotate` print:
 * one row per class with samples or static instructions, then the
 * stack-traffic and lever lines. run_total 0 leaves %run blank.
 */
void cls__print_table(FILE *out, const struct cls_table *t, uint64_t run_total);
/* The n hottest instructions: samples, %func, address, +offset, class, text. */
void cls__print_hottest(FILE *out, const struct cls_func *f, const uint64_t *insn_samples,
			uint32_t n, const struct cls_table *t, uint64_t run_total);

/*
 * The value of FORMATS.md section 6 "classes": {name: {samples,
 * percent_of_run, static_instructions, percent_of_function}}; then call
 * cls__json_levers for the "stack_traffic" and "levers" additions.
 */
void cls__json(struct json_out *j, const struct cls_table *t, uint64_t run_total);
void cls__json_levers(struct json_out *j, const struct cls_table *t);
/* "hottest_instructions" value: [{samples, percent_of_run, address, offset, class, instruction}] */
void cls__json_hottest(struct json_out *j, const struct cls_func *f,
		       const uint64_t *insn_samples, uint32_t n, uint64_t run_total);

/*
 * The members of a FORMATS.md section 6 "classified_function" object (the
 * caller opens and closes it, and may add more): local_func, wasm_func, name,
 * core, samples, percent_of_run, instruction_count, code_bytes, classes,
 * stack_traffic, levers, hottest_instructions (the nhot hottest).
 */
void cls__json_function(struct json_out *j, const struct cwasm_module *m, uint32_t func,
			uint64_t samples, uint64_t run_total, const struct cls_func *f,
			const struct cls_table *t, const uint64_t *insn_samples, uint32_t nhot);

#endif
