/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_FRAMES_INTERNAL_H
#define AOTPERF_FRAMES_INTERNAL_H
/* Shared by the files of frames/ only. */
#include "frames.h"
#include "../decode/a64_ldst.h"

/* pool.c: interned strings, owned by the sidecar. */
struct frames_pool;
struct frames_pool *fr_pool__new(void);
void fr_pool__delete(struct frames_pool *p);
/* A stable copy of s[0..len) (equal strings share one); NULL on ENOMEM. */
const char *fr_pool__intern(struct frames_pool *p, const char *s, size_t len);

/* names.c: the sidecar's words for its enums (docs/sidecar.md) */
extern const char *const fr_origin_names[FRAMES__NORIGINS];
extern const char *const fr_base_names[4];	/* enum frames_base */
extern const char *const fr_reloc_names[3];	/* enum frames_reloc_kind */
/*
 * One line "PATH: access at +0xOFF: what" (acc may be NULL: "PATH: what"),
 * AP_ERR_INPUT; returns -1.
 */
int fr_err(struct ap_err *err, const struct frames *fr, const struct frames_access *acc,
	   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* check.c: every rule that needs no decoding, in the order docs/sidecar.md lists them. */
int fr__check(struct frames *fr, const struct cwasm_module *mod, uint32_t local_func,
	      struct ap_err *err);
/* native.c: the rules that re-decode the function's machine code. */
int fr__check_native(const struct frames *fr, const struct cwasm_module *mod,
		     struct ap_err *err);
/* check.c: per-vreg and total allocator counts against the metric (last). */
int fr__check_counts(const struct frames *fr, struct ap_err *err);
/* The function's bytes in mod's text (checked to exist by fr__check). */
const uint8_t *fr__code(const struct frames *fr, const struct cwasm_module *mod);

/* a64_track.c: the frame loads/stores of aarch64 code, materialized bases followed. */
struct fr_a64_access {
	uint32_t off;			/* function-relative */
	struct a64_ldst ls;
	uint8_t base;			/* effective base: FRAMES_X29 or FRAMES_SP */
	int32_t base_offset;		/* the base register's value minus that base */
	int64_t base_offset_wide;	/* the same, not cut to 32 bits */
};
int fr__a64_accesses(const struct frames *fr, const uint8_t *code, uint32_t size,
		     struct fr_a64_access **out, uint32_t *n, struct ap_err *err);

#endif
