/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_FRAMES_H
#define AOTPERF_FRAMES_H
/*
 * The compiler's frame-attribution sidecars (docs/sidecar.md): one JSON
 * file per compiled function, schema 1 (x86_64) or 2 (aarch64), naming
 * every frame load and store the compiler emitted and why it exists
 * (allocator spill, wasm local, explicit frame storage, fixed runtime
 * state). frames__read() takes the container the function belongs to and
 * refuses the file unless every rule of docs/sidecar.md holds, the machine
 * code re-decoded included; what it returns can then be trusted.
 *
 * The structure is read-only for callers. Integers the file may leave
 * null are int64_t holding FRAMES_NULL; optional strings are NULL.
 */
#include <stddef.h>
#include <stdint.h>
#include "../cwasm/cwasm.h"
#include "../decode/decode.h"
#include "../util/err.h"

#define FRAMES_SCHEMA "wamr-aot-frame-attribution"
#define FRAMES_NULL INT64_MIN

enum frames_origin {
	FRAMES_ALLOCATOR_SPILL,
	FRAMES_WASM_LOCAL_OR_PHI,
	FRAMES_EXPLICIT_FRAME_STORAGE,
	FRAMES_FIXED_RUNTIME_FRAME_STATE,
	FRAMES_UNKNOWN,
	FRAMES__NORIGINS
};

enum frames_kind { FRAMES_LOAD, FRAMES_STORE };

/* Frame bases: the effective (and, v2, encoded) address register. */
enum frames_base { FRAMES_RBP, FRAMES_RSP, FRAMES_X29, FRAMES_SP };

enum frames_reloc_kind {
	FRAMES_RELOC_X86_64_CALL_REL32,
	FRAMES_RELOC_AARCH64_CALL_IMM26,	/* BL */
	FRAMES_RELOC_AARCH64_TAIL_CALL_IMM26,	/* B */
};

/* One memory element of an access; also the top-level fields of an access. */
struct frames_component {
	uint8_t base;			/* enum frames_base */
	uint8_t width;
	uint8_t origin;			/* enum frames_origin */
	uint8_t vreg_ambiguous;
	int32_t frame_offset;
	int16_t data_register;		/* 0-31; -1 when null (always -1 at top level) */
	int8_t data_register_class;	/* 0 gpr, 1 simd (enum a64_regclass); -1 null */
	int8_t remat;			/* rematerialization_eligible: 0, 1, -1 null */
	const char *detail;
	int64_t slot, local_index, explicit_slot, vreg, ir_position;	/* FRAMES_NULL */
	const char *defining_opcode, *source_class, *ir_opcode;		/* NULL */
};

struct frames_access {
	uint32_t native_start, native_end;	/* function-relative, half-open */
	uint8_t kind;				/* enum frames_kind */
	uint8_t addressing_mode;		/* enum a64_mode; 0 in schema 1 */
	int8_t encoded_base;			/* schema 2: register number, 31 = sp
						 * (x86: 4 rsp, 5 rbp); -1 in schema 1 */
	uint8_t ncomp;				/* 1 or 2 */
	int32_t encoded_offset;
	struct frames_component top;
	/* Schema 2 components; schema 1 has one, a copy of top. */
	struct frames_component comp[2];
};

struct frames_reloc {
	uint32_t native_start, native_end;
	uint8_t kind;			/* enum frames_reloc_kind */
};

struct frames_range {
	uint32_t native_start, native_end;
	const char *kind;		/* "br_table" */
};

struct frames_region {
	int32_t start, end;		/* frame bytes from the frame pointer */
	uint8_t origin;
	const char *detail;
};

struct frames_layout {
	uint8_t frame_pointer;		/* FRAMES_RBP or FRAMES_X29 */
	uint32_t frame_size, local_count, param_count;
	int32_t reserved_vmctx_offset, locals_first_offset, explicit_storage_first_offset;
	uint32_t explicit_storage_slots;
	int32_t spill_base, spill_stride;
	uint32_t spill_slots;
};

struct frames_spill_metric {
	uint32_t slots, spilled_vregs, scalar, v128, slots_scalar, slots_v128;
	uint32_t spill_ld, spill_st, remat, callee_saved;
};

struct frames_value {
	uint32_t vreg;
	int32_t frame_offset;
	uint32_t slot;
	uint8_t slot_count;
	uint8_t remat, reused;
	const char *value_type;			/* NULL when null */
	int64_t live_start, live_end;		/* FRAMES_NULL */
	const char *defining_opcode, *source_class;
	uint32_t ir_use_count, ir_def_count, reload_count, store_count;
};

struct frames {
	char *path;
	uint32_t schema_version;
	uint32_t cwasm_aot_version;
	const char *compiler_build_id;
	enum cwasm_arch arch;
	enum cwasm_abi abi;
	uint32_t module, local_func;
	const char *function_name;
	uint32_t module_text_size;
	char module_text_sha256[65];
	uint32_t function_offset, code_size;
	char normalized_code_sha256[65];

	uint32_t *rel32;			/* direct_call_rel32_offsets */
	uint32_t nrel32;
	struct frames_reloc *relocs;		/* normalized_relocations */
	uint32_t nrelocs;
	struct frames_range *data;		/* inline_data_ranges */
	uint32_t ndata;
	struct frames_layout layout;
	struct frames_region *regions;		/* schema 2 */
	uint32_t nregions;
	struct frames_spill_metric metric;
	uint32_t emitted_allocator_loads, emitted_allocator_stores;
	struct frames_value *values;		/* allocator_values, file order */
	uint32_t nvalues;
	struct frames_access *acc;		/* sorted by native_start */
	uint32_t nacc;

	/* Indexes built while checking (see frames__value, frames__slot_values). */
	uint32_t *by_vreg;			/* value indexes sorted by vreg */
	uint32_t *slot_first, *slot_vals;	/* slot s: slot_vals[slot_first[s] .. slot_first[s+1]) */
	uint32_t nslot_index;			/* slots indexed: highest occupied + 1 */

	struct frames_pool *pool;		/* internal: owns the strings */
};

/* "PREFIX.mod<M>.func<F>.json" into buf; -1 if it does not fit. */
int frames__path(char *buf, size_t len, const char *prefix, uint32_t mod, uint32_t func);

/*
 * Read the sidecar at path for local function local_func of mod and check
 * it (docs/sidecar.md). On any failure: -1 and one line in err, "PATH: ..."
 * naming the access by its native offset where there is one; AP_ERR_INPUT
 * for a file that breaks a rule, AP_ERR_IO, AP_ERR_NOMEM.
 */
int frames__read(const char *path, const struct cwasm_module *mod, uint32_t local_func,
		 struct frames **out, struct ap_err *err);
/* The same from a buffer; name stands for the path in messages. */
int frames__parse(const char *text, size_t len, const char *name,
		  const struct cwasm_module *mod, uint32_t local_func, struct frames **out,
		  struct ap_err *err);
void frames__delete(struct frames *fr);

/* Names as the file spells them; NULL when out of range. */
const char *frames__origin_name(enum frames_origin o);
const char *frames__kind_name(enum frames_kind k);
const char *frames__base_name(enum frames_base b);
const char *frames__reloc_name(enum frames_reloc_kind k);

/* ---- lookups ---- */

/* The access starting exactly at native offset off, or NULL. */
const struct frames_access *frames__access_at(const struct frames *fr, uint32_t off);
/* The access whose [native_start, native_end) holds off, or NULL. */
const struct frames_access *frames__access_covering(const struct frames *fr, uint32_t off);
/* The allocator value of vreg, or NULL. */
const struct frames_value *frames__value(const struct frames *fr, uint32_t vreg);
/* The values occupying spill slot s (reuse makes it more than one); count in *n. */
const uint32_t *frames__slot_values(const struct frames *fr, uint32_t slot, uint32_t *n);
/* 1 if native offset off lies in an inline data range. */
int frames__in_data(const struct frames *fr, uint32_t off);

/*
 * Decode the function as the sidecar sees it: code between the inline data
 * ranges through capstone (decode/), each data range one DC_DATA entry.
 * Addresses start at addr (the function's first byte).
 */
int frames__decode(const struct frames *fr, const struct cwasm_module *mod, uint64_t addr,
		   struct dc_vec *out, struct ap_err *err);

/* ---- what a frame instruction is, and its class ---- */

/*
 * A frame instruction without a sidecar: x86_64 an rbp/rsp-based memory
 * operand (not lea, not nop) or push/pop; aarch64 a load or store based on
 * x29 or sp. Fills kind, base and, for a plain base+displacement, offset.
 */
struct frames_operand {
	uint8_t kind;		/* enum frames_kind: store when the memory is written */
	uint8_t rmw;		/* x86 read-modify-write (add [rbp-8], 1): a load too */
	uint8_t base;		/* enum frames_base */
	uint8_t complex;	/* an index register: no single offset */
	uint8_t width;		/* bytes; 0 when the decoder does not say (aarch64) */
	int64_t offset;		/* displacement from base */
};
int frames__operand(enum cwasm_arch arch, const struct dc_insn *ni, struct frames_operand *op);

/*
 * The class the helper gives instruction ni (at native offset off) with a
 * sidecar: "<origin>_load"/"<origin>_store" when the sidecar lists it,
 * "unknown_frame_load"/"unknown_frame_store" for a frame instruction it
 * does not list, NULL for anything else. *acc (may be NULL) gets the access.
 */
const char *frames__insn_class(const struct frames *fr, const struct dc_insn *ni, uint32_t off,
			       const struct frames_access **acc);

/* ---- static validation (what --validate-frame-metadata runs) ---- */

struct frames_identity {
	char schema[32];			/* FRAMES_SCHEMA */
	uint32_t schema_version;
	char compiler_build_id[256];		/* cut at 255 bytes */
	char module_text_sha256[65];
	char normalized_code_sha256[65];
	uint32_t module;
};

/* The identity block of a checked sidecar (a copy: it outlives fr). */
void frames__identity(const struct frames *fr, struct frames_identity *id);
/*
 * Check the sidecar at path against local function local_func of mod: 0
 * with the identity filled (id may be NULL), or -1 and the one-line error.
 */
int frames__validate(const struct cwasm_module *mod, uint32_t local_func, const char *path,
		     struct frames_identity *id, struct ap_err *err);

#endif
