/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_CWASM_H
#define AOTPERF_CWASM_H

/*
 * The WAMR (Zig runtime) precompiled container, `.cwasm`, and the component
 * manifest `.cwasm.json` (docs/formats-cwasm.md). The container is read by
 * the walker (walk.h), which the runtime library shares; this is the module
 * built from it. No perf knowledge here.
 */
#include <stddef.h>
#include <stdint.h>
#include "../util/err.h"
#include "target.h"
#include "walk.h"
#include "name.h"

#define CWASM_NO_TYPE UINT32_MAX

struct cwasm_func {
	uint32_t offset;   /* from the first byte of text */
	uint32_t size;     /* to the next function's offset, the last one to end of text */
	uint32_t type_idx; /* CWASM_NO_TYPE for v6 offsets-only tables */
	const char *name;  /* wasm name (section 7), else an export name, else NULL; sanitized */
};

struct cwasm_export {
	char *name;
	uint8_t kind;   /* 0 = function */
	uint32_t index; /* wasm function index space: imports first */
};

struct cwasm_type {
	uint32_t nparams, nresults;
	uint8_t *params, *results;
};

struct cwasm_import {
	char *module, *field;	/* sanitized */
	struct cwasm_import_type t;
};

/* A parsed core. All memory is owned by the module; free with cwasm__delete(). */
struct cwasm_module {
	char *path;             /* as given by the caller */
	uint32_t version;
	int version_known;      /* 0 when the version is outside what we have seen */
	uint32_t sections;      /* bit t: a section of type t (< 16) is present */
	/* target info; has_target_info is 0 when section 0 is absent */
	int has_target_info;
	struct cwasm_target_info ti;
	struct cwasm_target target;

	uint8_t *text;          /* owned copy */
	uint32_t text_size;

	uint32_t nfuncs;
	struct cwasm_func *funcs;
	int has_type_idx;       /* v7+ pairs */

	uint32_t import_func_count; /* function imports shift the wasm index space */
	uint32_t nimports;          /* all kinds */
	struct cwasm_import *imports;

	uint32_t ntypes;
	struct cwasm_type *types;

	uint32_t nexports;
	struct cwasm_export *exports;

	uint8_t sha256[32];     /* of the file bytes */

	int manifest_idx;       /* the manifest's "idx" for this core, -1 for a lone file */
	char *core_label;       /* "mod<idx>" inside a manifest, NULL for a lone file */

	char *name_pool;        /* internal: owns the strings funcs[].name point at */
};

/* A .cwasm bigger than this is refused unread. */
#define CWASM_FILE_MAX ((size_t)1 << 30)

/* Parse a .cwasm held in memory; `name` is used in error messages. */
int cwasm__parse(const uint8_t *buf, size_t len, const char *name,
		 struct cwasm_module **out, struct ap_err *err);
/*
 * Read and parse a file, read-only, through util/file.h: only a regular
 * file of at most CWASM_FILE_MAX bytes is read; a FIFO, a device or a
 * directory is refused without blocking on it or reading from it.
 */
int cwasm__read(const char *path, struct cwasm_module **out, struct ap_err *err);
void cwasm__delete(struct cwasm_module *mod);

/* Index of the function whose [offset, offset+size) holds text_off, or -1. */
int64_t cwasm__func_at(const struct cwasm_module *mod, uint64_t text_off);
/* The wasm function index of local function n (imports come first). */
static inline uint32_t cwasm__wasm_index(const struct cwasm_module *mod, uint32_t n)
{
	return mod->import_func_count + n;
}
/* "local_func_N" into buf; returns buf. */
char *cwasm__local_name(uint32_t n, char *buf, size_t len);

/* ---- component manifest ---- */
struct cwasm_manifest {
	char *path;
	uint32_t version;
	char *wamr_build_id;      /* may be NULL */
	char *component_sha256;   /* may be NULL */
	uint32_t ncores;
	struct cwasm_module **cores; /* in manifest order, sha256 verified */
};

/* Core paths may be absolute or climb out of the manifest's folder. */
#define CWASM_MANIFEST_ANY_PATH (1u << 0)

/* Read a manifest and every core it lists; core paths must stay inside its folder. */
int cwasm_manifest__read(const char *path, struct cwasm_manifest **out,
			 struct ap_err *err);
/* The same with CWASM_MANIFEST_* flags. */
int cwasm_manifest__read_flags(const char *path, unsigned flags,
			       struct cwasm_manifest **out, struct ap_err *err);
void cwasm_manifest__delete(struct cwasm_manifest *man);

/* ---- writer (fixtures and tests) ---- */
/*
 * Written in the layout of the spec's version (docs/formats-cwasm.md,
 * "Imports"); the payload of a table, memory or global import comes from
 * the spec's import_types.
 */
struct cwasm_import_spec {
	const char *module, *field;
	uint8_t kind;      /* enum cwasm_kind */
	uint32_t type_idx; /* function, tag; version 6 writes it for every kind */
};

/* A section written as given, where the compiler puts its type. */
struct cwasm_raw_section {
	uint32_t type;
	const uint8_t *data;
	uint32_t size;
};

struct cwasm_name_spec {
	uint32_t wasm_index;
	const char *name;
};

/*
 * What to write, in the compiler's order: 0, 2, 13 (7+), 3, 4 (always),
 * the raw sections of type 5 and 6, 8, the other raw sections, 7 (7+).
 * Version 6 had no type and no name section: ntypes and nnames are ignored.
 */
struct cwasm_spec {
	uint32_t version;        /* 6 writes offsets only, >= 7 (offset, type) pairs */
	struct cwasm_target_info ti; /* written as is (cwasm_target__spec fills real forms) */
	int no_target_info;      /* leave section 0 out */
	const uint8_t *text;
	uint32_t text_size;
	uint32_t nfuncs;
	const uint32_t *offsets;
	const uint32_t *type_idx;   /* may be NULL: all 0 */
	uint32_t ntypes;
	const struct cwasm_type *types;
	uint32_t nimports;
	const struct cwasm_import_spec *imports;
	const struct cwasm_import_type *import_types; /* NULL, or nimports payloads */
	uint32_t nexports;
	const struct cwasm_export *exports;
	uint32_t nnames;
	const struct cwasm_name_spec *names;
	uint32_t nraw;
	const struct cwasm_raw_section *raw;
};

/* Serialize into a malloc'd buffer. */
int cwasm__build(const struct cwasm_spec *spec, uint8_t **buf, size_t *len,
		 struct ap_err *err);
/* Write atomically (temp file in the same folder, then rename). */
int cwasm__write(const char *path, const struct cwasm_spec *spec, struct ap_err *err);

#endif
