/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_CLASSIFY_H
#define AOTPERF_CLASSIFY_H
/*
 * Instruction classes of AOT-compiled wasm code: is a hot function bound
 * by frame traffic, zero-extends and moves, bounds checks or dispatch?
 * Register roles (which register holds vmctx, which the linear-memory
 * base) are inferred per function from the code itself (roles.c), as the
 * generators place them differently per version and arch
 * (docs/codegen-idioms.md). Machine code is decoded with capstone;
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
	CLS_FRAME_LOAD,		/* reads a frame slot; nothing proves what it holds */
	CLS_FRAME_STORE,	/* writes a frame slot; same */
	CLS_FRAME_SAVE,		/* prologue save / epilogue restore of fp, lr, callee saves */
	CLS_VMCTX_SAVE,		/* stores vmctx into its reserved frame slot */
	CLS_VMCTX_RELOAD,	/* reloads vmctx from that slot */
	CLS_VMCTX_FIELD,	/* reads or writes a vmctx field (runtime state) */
	CLS_REG_MOVE,		/* register-to-register copy */
	CLS_ZEXT_MOVE,		/* i32 zero-extend: mov eXX,eXX / mov wN,wN */
	CLS_ALU,		/* arithmetic, logic, shifts, compares, constants */
	CLS_LEA,		/* address generation */
	CLS_BOUNDS_CHECK,	/* compare with the memory size and its branch */
	CLS_LINEAR_MEM,		/* access through an address derived from the memory base */
	CLS_OTHER_MEM,		/* any other memory access (tables, globals) */
	CLS_DISPATCH,		/* br_table: its bound, table load, indirect jump */
	CLS_CALL_DIRECT,
	CLS_CALL_INDIRECT,
	CLS_TAIL_CALL,		/* a jump out of the function (b label, br xN) */
	CLS_COND_BRANCH,
	CLS_BRANCH,		/* direct unconditional jump */
	CLS_TRAP,		/* trap blocks: the call through a vmctx trap slot, ud2, brk */
	CLS_OTHER,		/* ret, nop, system insns */
	CLS_DATA,		/* bytes in text that are not code */
	CLS__COUNT
};

const char *cls__name(enum cls_class c);
/* One line, for --help and docs/classes.md. */
const char *cls__desc(enum cls_class c);
/* Class by its name, or -1. */
int cls__by_name(const char *name);

/* Which part of a structure an instruction is (cls_insn.detail). */
enum cls_detail {
	CLS_D_NONE,
	CLS_D_BOUNDS_SIZE,	/* the memory size loaded from vmctx for the compare */
	CLS_D_BOUNDS_CMP,
	CLS_D_BOUNDS_BRANCH,
	CLS_D_MEMBASE_LOAD,	/* vmctx field 0 into a register */
	CLS_D_DISPATCH_BOUND,	/* cmp idx, N before a jump table */
	CLS_D_DISPATCH_DEFAULT,	/* its branch to the default target */
	CLS_D_DISPATCH_TABLE,	/* the table address */
	CLS_D_DISPATCH_ENTRY,	/* the table entry load */
	CLS_D_DISPATCH_ADD,	/* entry + table */
	CLS_D_DISPATCH_JUMP,	/* the indirect jump */
	CLS_D_DISPATCH_CHAIN,	/* aarch64: cmp wI,#k / b.eq chain and its b default */
	CLS_D_TRAP_CALL,	/* call through a vmctx trap slot */
	CLS_D_TABLE_ENTRY,	/* data: one jump-table entry */
	CLS_D__COUNT
};
const char *cls__detail_name(enum cls_detail d);

/*
 * Role overrides (`--roles vmctx=REG,membase=REG,frame=REG`): a named
 * register holds that role for the whole function, on top of what the
 * code shows. 0 everywhere: infer only. abi is the target's (from the
 * container); CWASM_ABI_UNSPECIFIED lets the prologue tell.
 */
struct cls_roles {
	enum cwasm_arch arch;
	enum cwasm_abi abi;
	uint8_t vmctx;
	uint8_t membase;
	uint8_t frame;
};

/* No overrides, ABI unspecified. */
void cls__roles_default(enum cwasm_arch arch, struct cls_roles *r);
/* No overrides, arch and ABI from a container's target info. */
void cls__roles_target(const struct cwasm_target *t, struct cls_roles *r);
/* Apply "vmctx=rcx,membase=none,frame=rbp" on top of *r. */
int cls__roles_parse(struct cls_roles *r, const char *spec, struct ap_err *err);
/* "vmctx=rcx,membase=none,frame=none" (the overrides) */
void cls__roles_str(const struct cls_roles *r, char *buf, size_t len);

/* What the code of one function showed about its registers (roles.c). */
enum cls_abi_source {
	CLS_ABI_TARGET,		/* the container's target info */
	CLS_ABI_PROLOGUE,	/* legacy container: the parameter the prologue stores */
	CLS_ABI_DEFAULT,	/* no evidence: the arch's usual convention */
};

struct cls_func_roles {
	enum cwasm_arch arch;
	enum cwasm_abi abi;
	uint8_t abi_source;	/* enum cls_abi_source */
	uint8_t vmctx_param;	/* register vmctx arrives in */
	uint8_t has_slot;	/* vmctx stored in a reserved frame slot */
	uint8_t slot_base;
	int32_t slot_disp;
	uint64_t vmctx_regs;	/* 1 << family: registers that held vmctx (param excluded) */
	uint64_t membase_regs;	/* registers loaded from vmctx field 0, or derived by moves */
	uint8_t frame;		/* frame base register (rbp, x29) */
	uint8_t pinned_vmctx;	/* read, never loaded: pinned module-wide (pinned.c); 0 none */
	uint8_t pinned_membase;
	struct cls_roles override;
};

/* "abi sysv (target), vmctx rdi -> [rbp-0x8], reloaded into r10; membase r10" */
void cls__roles_describe(const struct cls_func_roles *r, char *buf, size_t len);
/* The roles as the JSON names them (render/classes.c writes them). */
struct cls_roles_words {
	const char *abi;		/* NULL: unspecified */
	const char *abi_source;		/* "target", "prologue", "default" */
	const char *vmctx_param;	/* the register vmctx arrives in */
	char vmctx_slot[32];		/* "[rbp-0x8]"; "": none */
	const char *vmctx_regs[64], *membase_regs[64];
	uint32_t nvmctx, nmembase;
	const char *pinned_vmctx, *pinned_membase;	/* NULL: not pinned */
	const char *frame;		/* the frame base register */
	char override[96];		/* --roles as applied; "": none */
};
void cls__roles_words(const struct cls_func_roles *r, struct cls_roles_words *w);

struct cls_insn {
	uint64_t addr;
	uint32_t offset;	/* from the start of the function */
	uint16_t size;
	uint8_t cls;		/* enum cls_class */
	uint8_t detail;		/* enum cls_detail */
	uint8_t helper;		/* the helper's class, see cls__helper_class() */
	char text[112];		/* Intel syntax (capstone's, or the input's) */
};

struct cls_func {
	enum cwasm_arch arch;
	struct cls_insn *insns;	/* address order; CLS_DATA entries included */
	uint32_t ninsns;
	uint32_t static_count[CLS__COUNT];
	uint32_t ndata_bytes;	/* bytes skipped as data */
	struct cls_func_roles roles;
};

/*
 * Decode and classify len bytes of code that start at addr. Undecodable
 * bytes and br_table jump tables become CLS_DATA entries. roles NULL:
 * no overrides, ABI inferred.
 */
int cls__decode(enum cwasm_arch arch, const struct cls_roles *roles, const uint8_t *code,
		size_t len, uint64_t addr, struct cls_func *out, struct ap_err *err);
/*
 * Static classification of function func of a module, from the
 * container alone: arch and ABI from its target info (arch, when not
 * CWASM_ARCH_UNKNOWN, overrides an unknown or wrong one), roles the
 * overrides or NULL, base the address of text (0 for offsets).
 */
int cls__classify_func(const struct cwasm_module *m, uint32_t func, enum cwasm_arch arch,
		       const struct cls_roles *roles, uint64_t base, struct cls_func *out,
		       struct ap_err *err);
void cls_func__exit(struct cls_func *f);
/*
 * Entry i's text for a listing: a direct branch into f itself with its
 * target as an offset from f's start ("jbe +0x4c"), else the text as it is.
 * Returns buf or the entry's own text.
 */
const char *cls__insn_text(const struct cls_func *f, uint32_t i, char *buf, size_t len);
/* Index of the entry holding addr, or -1. */
int64_t cls__insn_at(const struct cls_func *f, uint64_t addr);
/* Instructions proper (entries that are not data). */
uint32_t cls__insn_count(const struct cls_func *f);

/*
 * The class the upstream helper gives entry i, by its rules
 * (docs/helper-interface.md, "Instruction classes"): frame_load_unattributed, frame_store_unattributed, bounds_cmp,
 * bounds_branch, call, dispatch_jmp, jmp, cond_branch, mem_access,
 * regmov, alu, other; aarch64 also linear_memory, indirect_dispatch,
 * direct_branch; data entries inline_data_or_sample_skid.
 */
const char *cls__helper_class(const struct cls_func *f, uint32_t i);
/*
 * The helper's class of each of n instructions decoded as the helper
 * decodes (dc__decode_sweep, or between a sidecar's inline data ranges),
 * by its rules alone (docs/helper-interface.md, "Instruction classes"),
 * aarch64's bounds pair over the stream included: out[i], a code for
 * cls_helper__name(). 0, or -1 when out of memory.
 */
struct dc_insn;
int cls_helper__stream(enum cwasm_arch arch, const struct dc_insn *v, uint32_t n, uint8_t *out);
const char *cls_helper__name(uint8_t c);

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
	int static_only;	/* no recording: static counts only (tabulated without samples) */
	/* proven allocator spills (the compiler's sidecar), cls_table__set_spills */
	int spills_known;
	uint64_t spill_samples;
	uint32_t spill_static;
	/*
	 * Why its samples carry no lever verdict (another build's samples, a
	 * recording cut short: profile__no_verdict), or NULL. The table still
	 * counts them; the verdict is "none" and the outputs say why.
	 */
	const char *no_verdict;
};

/* insn_samples is parallel to f->insns; NULL gives static counts only (static_only). */
void cls__tabulate(const struct cls_func *f, const uint64_t *insn_samples,
		   struct cls_table *t);
/*
 * Proven allocator-spill traffic among the frame accesses (samples in the
 * table's unit, static instructions): only with it does the verdict say
 * "spill-bound".
 */
void cls_table__set_spills(struct cls_table *t, uint64_t samples, uint32_t static_insns);

/* The lever groups the verdict weighs, in percent of the function. */
struct cls_levers {
	double frame;		/* frame_load + frame_store (unattributed) */
	double moves, bounds, dispatch;
	double vmctx;		/* vmctx_reload + vmctx_field: runtime state reloaded at each use */
	double spills;		/* proven spills, when known (else 0) */
	const char *verdict;	/* "frame traffic", "spill-bound", "move-bound", "vmctx-bound", ... "mixed";
				 * "none" with the table's no_verdict */
};
void cls__levers(const struct cls_table *t, struct cls_levers *l);

/*
 * Indices (into f->insns) of the n instructions with the most samples s[],
 * most first, ties by address; those with no samples left out. Returns
 * how many (at most n) were written to idx.
 */
uint32_t cls__hottest(const struct cls_func *f, const uint64_t *s, uint32_t n, uint32_t *idx);

/*
 * The tables are views (view/classes.h) that the formats print
 * (render/classes.c): report --func, classify, annotate alike.
 */

/* Frame-slot data traffic that is not a save: frame_load/store, vmctx_save/reload. */
int cls__is_stack_traffic(enum cls_class c);

#endif
