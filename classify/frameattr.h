/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_CLASSIFY_FRAMEATTR_H
#define AOTPERF_CLASSIFY_FRAMEATTR_H
/*
 * Frame-attribution sidecars (docs/sidecar.md): the compiler's own
 * record of why each frame access of a function exists. The classifier
 * only sees "a load from [rbp-0x38]"; the sidecar says whether that slot
 * is an allocator spill, a wasm local, explicit frame storage or fixed
 * runtime state. Joined with a decoded function (classify.h) this gives
 * per-origin totals and the places where the heuristic and the compiler
 * disagree.
 *
 * Accepted file (README "Frame-attribution sidecars"):
 *
 *   {"schema": "wamr-aot-frame-attribution", "version": 1,
 *    "mod": 0, "local_func": 1501,
 *    "accesses": [{"start": 12, "end": 16, "kind": "load",
 *                  "slot": -56, "origin": "allocator_spill"}, ...]}
 *
 * start/end (or start/size) are byte offsets from the function start,
 * integers or "0x1c"/"28" strings; end is exclusive. kind and slot are
 * optional; unknown keys are ignored.
 */
#include <stdint.h>
#include "classify.h"

#define FA_SCHEMA "wamr-aot-frame-attribution"
#define FA_MAX_ORIGINS 32	/* the four known ones plus unknown names */
#define FA_MAX_NAME 64

/* The compiler's origins, in table order; others are kept by name after them. */
enum fa_known_origin {
	FA_ALLOCATOR_SPILL,
	FA_WASM_LOCAL_OR_PHI,
	FA_EXPLICIT_FRAME_STORAGE,
	FA_FIXED_RUNTIME_FRAME_STATE,
	FA__KNOWN
};

enum fa_kind {
	FA_KIND_ANY = 0,	/* not given, or a kind this reader does not know */
	FA_KIND_LOAD = 1,
	FA_KIND_STORE = 2,
	FA_KIND_BOTH = 3,	/* read-modify-write, or a load and a store listed alike */
};

struct fa_access {
	uint32_t start, end;	/* [start, end) from the function start */
	int64_t slot;
	uint8_t has_slot;
	uint8_t kind;		/* enum fa_kind */
	uint16_t origin;	/* index into fa_sidecar.origins */
};

struct fa_sidecar {
	char *path;
	int64_t mod, local_func;	/* as the file says; -1 when absent */
	char *origins[FA_MAX_ORIGINS];	/* [0, FA__KNOWN) are the known names */
	uint32_t norigins;
	struct fa_access *acc;		/* sorted by start, not overlapping */
	uint32_t nacc;
};

const char *fa__known_name(enum fa_known_origin o);

/*
 * Read and validate a sidecar for a function of func_size bytes. mod and
 * local_func, when >= 0, must match what the file says about itself.
 * Errors are one line starting with the path.
 */
int fa__load(const char *path, int64_t mod, int64_t local_func, uint32_t func_size,
	     struct fa_sidecar *out, struct ap_err *err);
/* The same from a buffer; name stands for the path in messages. */
int fa__parse(const char *text, size_t len, const char *name, int64_t mod, int64_t local_func,
	      uint32_t func_size, struct fa_sidecar *out, struct ap_err *err);
void fa__exit(struct fa_sidecar *sc);

/* "PREFIX.mod<M>.func<N>.json" into buf; -1 if it does not fit. */
int fa__path(char *buf, size_t len, const char *prefix, uint32_t mod, uint32_t local_func);

struct fa_count {
	uint32_t insns;
	uint64_t samples;
};

struct fa_origin_total {
	uint32_t accesses;		/* sidecar entries with this origin */
	struct fa_count all;		/* instructions they cover */
	struct fa_count heuristic;	/* of those, spill_reload/frame_store */
};

/* Where the sidecar and the heuristic part ways, for one instruction. */
enum fa_disagree {
	FA_AGREE,
	FA_HEURISTIC_ONLY,	/* frame class, but no sidecar access there */
	FA_SIDECAR_ONLY,	/* sidecar access, but not a frame class */
	FA_KIND_MISMATCH,	/* reload vs a store access, or store vs a load */
};

struct fa_join {
	const struct fa_sidecar *sc;
	int32_t *insn_access;		/* parallel to f->insns: index into sc->acc or -1 */
	struct fa_origin_total origin[FA_MAX_ORIGINS];
	uint64_t func_samples;		/* all samples of the function's entries */
	struct fa_count stack;		/* the heuristic's spill_reload + frame_store */
	struct fa_count dis[FA_KIND_MISMATCH + 1];	/* by enum fa_disagree */
	uint32_t unplaced;		/* accesses that cover no instruction (data only) */
};

/*
 * Join: each instruction takes the origin of the first access that overlaps
 * its bytes. insn_samples is parallel to f->insns, NULL for static only.
 */
int fa__join(const struct fa_sidecar *sc, const struct cls_func *f, const uint64_t *insn_samples,
	     struct fa_join *out, struct ap_err *err);
void fa_join__exit(struct fa_join *jn);
enum fa_disagree fa__disagreement(const struct fa_join *jn, const struct cls_func *f, uint32_t i);
const char *fa__disagree_name(enum fa_disagree d);
/* Origin name of instruction i, or NULL. */
const char *fa__insn_origin(const struct fa_join *jn, uint32_t i);

struct json_out;
/* Text: the origins table, the heuristic's stack traffic by origin, disagreements. */
void fa__print(FILE *out, const struct fa_join *jn, const struct cls_func *f,
	       const uint64_t *insn_samples, uint32_t max_listed);
/* JSON object: path, accesses, origins, heuristic_stack_traffic, disagreements. */
void fa__json(struct json_out *j, const struct fa_join *jn, const struct cls_func *f,
	      const uint64_t *insn_samples, uint32_t max_listed);

#endif
