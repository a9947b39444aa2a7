/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_CWASM_WALK_H
#define AOTPERF_CWASM_WALK_H

/*
 * The one reader of the .cwasm container, versions 6 to 11
 * (docs/formats-cwasm.md). cwasm__parse() builds a module from it and the
 * runtime library's aotjit_register_cwasm() registers a core through it,
 * so both accept and refuse exactly the same bytes with the same message.
 *
 * libc only, and it never allocates: cwasm_walk__init() checks every
 * section it interprets (framing, counts, every entry, function offsets
 * against the text), then the accessors below read entries in place.
 */
#include <stddef.h>
#include <stdint.h>
#include "target.h"
#include "../util/err.h"

#define CWASM_MAGIC 0x746f6100u /* "\0aot" little-endian */
#define CWASM_VERSION_MIN 6
#define CWASM_VERSION_MAX 11	/* newer ones are read as 11, flagged unknown */

/* Section types (u32 type, u32 size, payload). Types above 15 are skipped. */
enum cwasm_section {
	CWASM_SEC_TARGET_INFO = 0,
	CWASM_SEC_INIT_DATA = 1,	/* upstream C WAMR only */
	CWASM_SEC_TEXT = 2,
	CWASM_SEC_FUNCTION = 3,
	CWASM_SEC_EXPORT = 4,
	CWASM_SEC_DATA = 5,
	CWASM_SEC_RELOCATION = 6,
	CWASM_SEC_NAMES = 7,
	CWASM_SEC_IMPORT = 8,
	CWASM_SEC_MEMORY = 9,
	CWASM_SEC_GLOBAL = 10,
	CWASM_SEC_ELEM = 11,
	CWASM_SEC_START = 12,
	CWASM_SEC_TYPE = 13,
	CWASM_SEC_TAG = 14,
	CWASM_SEC_TABLE = 15,
	CWASM_SEC_COUNT = 16,
};

/* Import and export kinds. */
enum cwasm_kind {
	CWASM_KIND_FUNC = 0,
	CWASM_KIND_TABLE = 1,
	CWASM_KIND_MEMORY = 2,
	CWASM_KIND_GLOBAL = 3,
	CWASM_KIND_TAG = 4,
};

/*
 * How an import section lays out what follows an entry's kind byte:
 * UNIFORM (version 6): a u32 for every kind (a function's type index);
 * BY_KIND (version 11): function u32 type_idx; table u8 elem_type, u32 min,
 * u8 has_max, [u32 max]; memory u32 min, u8 has_max, [u32 max], u8 is64,
 * u8 shared; global u8 valtype, u8 mutable; tag u32 type_idx.
 */
enum cwasm_import_layout {
	CWASM_IMPORTS_UNIFORM = 0,
	CWASM_IMPORTS_BY_KIND,
};

/* Bytes inside the container: not NUL-terminated, not sanitized. */
struct cwasm_str {
	const uint8_t *p;
	uint32_t len;
};

/* What an import entry says after its names. */
struct cwasm_import_type {
	uint8_t kind;			/* enum cwasm_kind */
	uint8_t elem_type;		/* table */
	uint8_t has_max;		/* table, memory */
	uint8_t is64, shared;		/* memory */
	uint8_t valtype, is_mutable;	/* global */
	uint32_t type_idx;		/* function, tag (UNIFORM: the u32 every entry has) */
	uint32_t min, max;		/* table, memory */
};

struct cwasm_import_entry {
	struct cwasm_str module, field;
	struct cwasm_import_type t;
};

struct cwasm_export_entry {
	struct cwasm_str name;
	uint8_t kind;			/* enum cwasm_kind */
	uint32_t index;			/* in that kind's index space, imports first */
};

struct cwasm_name_entry {
	uint32_t wasm_index;		/* wasm function index: imports first */
	struct cwasm_str name;
};

struct cwasm_type_entry {
	struct cwasm_str params, results;	/* value type bytes */
};

struct cwasm_span {
	const uint8_t *p;		/* payload */
	uint32_t size;
	size_t off;			/* file offset of the payload */
};

struct cwasm_walk {
	const uint8_t *buf;
	size_t len;
	const char *file;		/* for messages */
	uint32_t version;
	int version_known;		/* CWASM_VERSION_MIN..CWASM_VERSION_MAX */
	uint32_t seen;			/* bit t: section type t (< 16) is present */
	struct cwasm_span sec[CWASM_SEC_COUNT];

	int has_target_info;
	struct cwasm_target_info ti;
	struct cwasm_target target;

	const uint8_t *text;
	uint32_t text_size;

	uint32_t nfuncs;
	uint32_t func_stride;		/* 4: offsets only (v6), 8: (offset, type_idx) */

	uint32_t nimports, import_func_count;
	enum cwasm_import_layout import_layout;
	uint32_t nexports, ntypes, nnames;
};

/*
 * Check a whole container. Returns 0, or with err set to one line
 * "FILE: what is wrong" (FILE NULL: "<memory>"): -ENOEXEC not a .cwasm,
 * -ENOTSUP an upstream C WAMR .aot, -EINVAL anything inconsistent.
 * buf must stay valid while w is used.
 */
int cwasm_walk__init(struct cwasm_walk *w, const void *buf, size_t len, const char *file,
		     struct ap_err *err);

/* Local function i: offset from the first byte of text, type index or UINT32_MAX (v6). */
uint32_t cwasm_walk__func_offset(const struct cwasm_walk *w, uint32_t i);
uint32_t cwasm_walk__func_type(const struct cwasm_walk *w, uint32_t i);
/* Its size: to the next function's offset, the last one to the end of text. */
uint32_t cwasm_walk__func_size(const struct cwasm_walk *w, uint32_t i);

/* Entries of section sec (IMPORT, EXPORT, NAMES or TYPE), in file order. */
struct cwasm_iter {
	const struct cwasm_walk *w;
	uint32_t sec;
	size_t pos;
	uint32_t left;
};

void cwasm_walk__iter(const struct cwasm_walk *w, uint32_t sec, struct cwasm_iter *it);
/* The next entry: 1, or 0 at the end. */
int cwasm_iter__import(struct cwasm_iter *it, struct cwasm_import_entry *e);
int cwasm_iter__export(struct cwasm_iter *it, struct cwasm_export_entry *e);
int cwasm_iter__name(struct cwasm_iter *it, struct cwasm_name_entry *e);
int cwasm_iter__type(struct cwasm_iter *it, struct cwasm_type_entry *e);

/*
 * The wasm name of every local function (names[0..nfuncs)): the first
 * non-empty name section entry for it, else the first non-empty function
 * export; len 0 for none. Raw bytes: sanitize before showing them.
 * Returns how many functions got a name.
 */
uint32_t cwasm_walk__func_names(const struct cwasm_walk *w, struct cwasm_str *names);

/* "target_info", "text", ... for section types; "unknown" for others. */
const char *cwasm_section__name(uint32_t type);

#endif
