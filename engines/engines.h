/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_ENGINES_H
#define AOTPERF_ENGINES_H
/*
 * Another engine's profile of the same wasm, for comparisons with WAMR
 * (docs/engines.md). The other engine (Wasmtime, V8 in node) names its
 * code in perf's formats:
 *
 *  - a perf.data after `perf inject --jit`: MMAP/MMAP2 records of
 *    jitted-<pid>-<k>.so ELF files (one symbol each), or of other ELF files
 *    the engine mapped (a Wasmtime .cwasm, listed by the caller);
 *  - the engine's own jit-<pid>.dump, with or without the un-injected
 *    perf.data of the same run.
 *
 * Symbols are parsed as wasm function names (eng_name__parse), samples are
 * attributed by ip to the mapping live at the sample's time, and the
 * result is kept per wasm function index, with the code bytes for the
 * classifier (engines__classify) and a per-lever headroom estimate
 * against the WAMR side (engines__headroom).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "../classify/classify.h"
#include "../cwasm/cwasm.h"
#include "../util/err.h"

enum eng_engine {
	ENG_ENGINE_NONE = 0,	/* no wasm function name recognised */
	ENG_ENGINE_WASMTIME,	/* wasm[M]::function[N][::name] */
	ENG_ENGINE_V8,		/* JS:<name>-<N>-<tier> */
	ENG_ENGINE_PLAIN,	/* a bare function name, resolved through the WAMR side's names */
	ENG_ENGINE_MIXED,	/* names of more than one engine in one recording */
};

enum eng_kind {
	ENG_KIND_FUNCTION = 0,	/* the code of a wasm function */
	ENG_KIND_WRAPPER,	/* an engine's trampoline for a function (imports: wasm-to-js) */
};

enum eng_tier {
	ENG_TIER_UNKNOWN = 0,	/* the name does not say (Wasmtime) */
	ENG_TIER_BASELINE,	/* V8 liftoff */
	ENG_TIER_OPTIMIZED,	/* V8 turbofan */
	ENG_TIER__COUNT
};

/* "wasmtime", "v8", "plain", "mixed", "none". */
const char *eng_engine__name(enum eng_engine e);
/* "baseline", "optimized", "unknown". */
const char *eng_tier__name(enum eng_tier t);

/* A symbol read as a wasm function name; pointers point into the symbol. */
struct eng_name {
	enum eng_engine engine;
	enum eng_kind kind;
	enum eng_tier tier;
	const char *tier_name;	/* the engine's word ("turbofan", "liftoff"); NULL if none */
	uint32_t module;	/* Wasmtime's M; 0 elsewhere */
	uint32_t index;		/* the wasm function index (imports first) */
	int has_index;		/* 0: a bare name, index unknown until resolved */
	const char *name;	/* the wasm name inside the symbol, name_len bytes */
	size_t name_len;	/* 0: the engine gave no name (V8 wasm-function[N]) */
};

/*
 * Parse one symbol: 1 when it names wasm code (Wasmtime, V8), 0 when not.
 * Bare names (ENG_ENGINE_PLAIN) are never returned here: the reader only
 * tries them in jitted files, against the WAMR side's names.
 */
int eng_name__parse(const char *sym, struct eng_name *out);

/* One piece of the engine's code: a symbol of an ELF file or a jitdump record. */
struct eng_code {
	const char *raw_name;	/* the symbol as the engine wrote it */
	struct eng_name name;	/* parsed (engine NONE: not wasm) */
	const char *file;	/* the ELF or jitdump it was read from */
	uint16_t e_machine;	/* of that file: 62 x86-64, 183 aarch64 */
	uint32_t pid;		/* of its first mapping */
	uint64_t addr;		/* run-time address of its first byte (first mapping) */
	uint64_t size;		/* bytes (the symbol's size) */
	const uint8_t *bytes;	/* size bytes; NULL when not wasm code or not readable */
	uint64_t load_time;	/* time of its first mapping */
	uint64_t samples;
	const uint64_t *offset_samples; /* [size] samples per byte offset; NULL when none */
	int64_t wasm_index;	/* -1: not wasm, or a bare name that did not resolve */
	int32_t func;		/* index for engines__func, -1 none */
};

/* One wasm function (or wrapper) with all its code objects. */
struct eng_func {
	enum eng_kind kind;
	uint32_t module;
	uint32_t wasm_index;
	int64_t local_func;	/* wasm_index - import count; -1: an import, past the
				 * WAMR side's functions, or no import count known */
	const char *name;	/* the engine's wasm name; NULL when it gave none */
	uint64_t samples;	/* every code object of it, every tier */
	uint64_t tier_samples[ENG_TIER__COUNT];
	uint32_t ncodes;
	const uint32_t *codes;	/* indices for engines__code */
	int64_t best;		/* the code object a comparison uses: the optimized
				 * tier when there is one, then most samples, then
				 * the latest; -1 never (a function has code) */
};

struct eng_opts {
	int pid;			/* -1: all processes */
	const char *event;		/* NULL: all events */
	const char *const *dirs;	/* folders to look in, by base name, for ELF
					 * files moved since the recording */
	uint32_t ndirs;
	const char *const *elf_files;	/* other mapped ELF files to read symbols from
					 * (path or base name as mapped) */
	uint32_t nelf_files;
	const char *const *jitdumps;	/* the engine's own dumps: code comes from them */
	uint32_t njitdumps;
	const struct cwasm_module *wamr;/* the WAMR side: import count, names (may be NULL) */
	int64_t import_func_count;	/* without wamr: the count, or -1 unknown */
};

/* Defaults: every pid and event, no extra files, import count unknown. */
void eng_opts__init(struct eng_opts *o);

struct eng_summary {
	const char *perf_path;		/* NULL: read from jitdumps only */
	enum eng_engine engine;
	uint64_t total_samples;		/* selected samples in the recording */
	uint64_t engine_samples;	/* in code of the engine files read */
	uint64_t wasm_samples;		/* in wasm functions */
	uint64_t wrapper_samples;	/* in wrappers */
	uint64_t unresolved_samples;	/* in an engine file, in no symbol */
	uint32_t nfiles;		/* engine ELF files / dumps read */
	uint32_t nmissing;		/* mapped engine files that could not be read */
	int64_t import_func_count;	/* -1 unknown */
	int truncated;			/* the recording ended early */
};

struct eng_profile;

/*
 * Read an engine's profile. perf_path: a perf.data file (after perf inject
 * --jit, or plain when o->jitdumps are given); NULL reads the jitdumps
 * alone (code and names, no samples). Errors: "FILE: what is wrong".
 */
int engines__open(const char *perf_path, const struct eng_opts *o,
		  struct eng_profile **out, struct ap_err *err);
void engines__delete(struct eng_profile *p);

const struct eng_summary *engines__summary(const struct eng_profile *p);
/* Functions and wrappers, most samples first (then module, index, kind). */
uint32_t engines__nfuncs(const struct eng_profile *p);
const struct eng_func *engines__func(const struct eng_profile *p, uint32_t i);
uint32_t engines__ncodes(const struct eng_profile *p);
const struct eng_code *engines__code(const struct eng_profile *p, uint32_t i);
/* The function (not a wrapper) with that index, or NULL. */
const struct eng_func *engines__find(const struct eng_profile *p, uint32_t module,
				     uint32_t wasm_index);
/* The function whose local_func is n, or NULL. */
const struct eng_func *engines__find_local(const struct eng_profile *p, uint32_t module,
					   uint32_t n);
/* Things the caller should show: missing files, names that disagree... */
uint32_t engines__nwarnings(const struct eng_profile *p);
const char *engines__warning(const struct eng_profile *p, uint32_t i);

/* ---- register roles of the other engine's code ---- */

enum eng_roles_status {
	ENG_ROLES_NONE = 0,	/* no vmctx / memory-base pattern recognised */
	ENG_ROLES_VMCTX,	/* the vmctx register only: no linear-memory base found */
	ENG_ROLES_FOUND,	/* vmctx and one memory-base register */
	ENG_ROLES_AMBIGUOUS,	/* the memory base lives in several registers: the
				 * busiest is used, accesses through the others
				 * count as other_mem */
};

struct eng_roles {
	struct cls_roles roles;		/* what cls__decode gets */
	enum eng_roles_status status;
	int64_t membase_field;		/* vmctx displacement the base is loaded from; -1 */
	uint32_t vmctx_loads;		/* loads based on the vmctx register */
	uint32_t membase_uses;		/* linear accesses through the chosen register */
	uint32_t membase_regs;		/* registers loaded from that field */
	char why[200];			/* one line of evidence */
};

/*
 * Infer vmctx and memory-base registers from the code (x86_64): vmctx is
 * the register live at entry that most loads are based on; the memory base
 * is the register loaded from the vmctx field whose loaded value serves
 * as the base of [base + index] accesses. See docs/engines.md.
 */
int eng_roles__infer(enum cwasm_arch arch, const uint8_t *code, size_t len, uint64_t addr,
		     struct eng_roles *out, struct ap_err *err);

/* ---- one function, classified ---- */

struct eng_classes {
	const struct eng_func *func;
	const struct eng_code *code;	/* the code object used (func->best) */
	uint32_t nmerged;		/* code objects with the same bytes merged into it */
	uint64_t code_bytes;		/* the symbol's size */
	uint64_t code_used;		/* bytes classified: trailing data after the last
					 * reachable instruction is left out */
	uint64_t samples;		/* in the code used (merged objects included) */
	uint64_t run_total;		/* the recording's selected samples */
	struct eng_roles roles;
	uint32_t unavailable;		/* bit c set: class c cannot be told apart */
	char unavailable_why[200];
	struct cls_func f;		/* the classified instructions */
	uint64_t *insn_samples;		/* parallel to f.insns */
	struct cls_table table;		/* static counts and samples per class */
};

/*
 * Classify the code object a comparison uses for fn (fn->best), with the
 * inferred roles; per-instruction samples from the ips. Without a
 * recognisable pattern the classes that need roles are flagged in
 * `unavailable` instead of guessed.
 */
int engines__classify(const struct eng_profile *p, const struct eng_func *fn,
		      struct eng_classes *out, struct ap_err *err);
void eng_classes__exit(struct eng_classes *c);

/* ---- the comparison ---- */

enum eng_lever {
	ENG_LEVER_STACK,	/* frame_load + frame_store */
	ENG_LEVER_MOVES,	/* reg_move + zext_move */
	ENG_LEVER_BOUNDS,	/* bounds_check */
	ENG_LEVER_DISPATCH,	/* dispatch */
	ENG_LEVER__COUNT
};

const char *eng_lever__name(enum eng_lever l);

struct eng_lever_est {
	int available;		/* 0: a class it needs is unavailable on the other side */
	double wamr_pct;	/* share of the WAMR function, percent */
	double other_pct;	/* share of the other engine's function, percent */
	double reduction;	/* 0..1: how much of WAMR's share the other engine does without */
	double headroom_pct;	/* ESTIMATE, percent of the WAMR run: hot x share x reduction */
};

struct eng_headroom {
	int sampled;		/* 1: shares of samples on both sides; 0: of static
				 * instructions (too few samples on a side) */
	double hot_pct;		/* the WAMR function's share of its run, percent */
	struct eng_lever_est lever[ENG_LEVER__COUNT];
	double class_delta[CLS__COUNT]; /* other - WAMR, percentage points of the function */
};

/*
 * Per-lever headroom of the WAMR function (class table wamr, its samples
 * out of wamr_run_total) against the other engine's function. Shares come
 * from samples when both functions have at least min_samples, else from
 * static instruction counts; reduction = 1 - other/wamr share, clamped to
 * [0, 1]; headroom = hot share x WAMR share x reduction. An estimate: it
 * assumes a lever's cost scales with its share and that the other engine's
 * share is reachable.
 */
void engines__headroom(const struct cls_table *wamr, uint64_t wamr_run_total,
		       const struct eng_classes *other, uint64_t min_samples,
		       struct eng_headroom *out);

/* ---- JSON (members of an object the caller opens and closes) ---- */

struct json_out;

/*
 * engine, module, wasm_func, local_func, name, symbol, tier, tier_name,
 * samples, function_samples, percent_of_run, address, code_bytes,
 * code_used, instruction_count, roles {status, vmctx, membase,
 * membase_field, evidence}, unavailable_reason, classes {name: {status
 * ("measured"/"unavailable"), samples, percent_of_function,
 * static_instructions}}.
 */
void engines__json_classes(struct json_out *j, const struct eng_classes *c);
/*
 * estimate (true), basis ("samples"/"static_instructions"),
 * hot_percent_of_run, levers [{lever, status, wamr_percent_of_function,
 * other_percent_of_function, reduction, headroom_percent_of_run}],
 * class_delta_points {name: points}.
 */
void engines__json_headroom(struct json_out *j, const struct eng_headroom *h);

#endif
