/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_CWASM_H
#define AOTPERF_CWASM_H

/*
 * The WAMR (Zig runtime) precompiled container, `.cwasm`, and the component
 * manifest `.cwasm.json`. See FORMATS.md section 1. No perf knowledge here.
 */
#include <stddef.h>
#include <stdint.h>
#include "../util/err.h"

#define CWASM_MAGIC 0x746f6100u /* "\0aot" little-endian */

/* Section types we understand; others are skipped by size. */
enum cwasm_section {
	CWASM_SEC_TARGET_INFO = 0,
	CWASM_SEC_INIT_DATA = 1,
	CWASM_SEC_TEXT = 2,
	CWASM_SEC_FUNCTION = 3,
	CWASM_SEC_EXPORT = 4,
	CWASM_SEC_DATA = 5,
	CWASM_SEC_NAMES = 7,
	CWASM_SEC_IMPORT = 8,
	CWASM_SEC_TYPE = 13,
};

enum cwasm_arch {
	CWASM_ARCH_UNKNOWN = 0,
	CWASM_ARCH_X86_64,
	CWASM_ARCH_AARCH64,
};

enum cwasm_abi {
	CWASM_ABI_UNSPECIFIED = 0,	/* legacy target info records none */
	CWASM_ABI_SYSV,
	CWASM_ABI_WIN64,
	CWASM_ABI_AAPCS64,
};

enum cwasm_format {
	CWASM_FMT_NONE = 0,		/* no target info section */
	CWASM_FMT_LEGACY,		/* bin_type 1, all else 0: "legacy-unspecified" */
	CWASM_FMT_ELF64,		/* "elf64-little" */
	CWASM_FMT_COFF64,		/* "coff64" */
};

#define CWASM_TARGET_INFO_SIZE 40

/* Section 0 as written: 40 bytes. */
struct cwasm_target_info {
	uint16_t bin_type, abi_type, e_type, e_machine;
	uint32_t e_flags, reserved;
	char arch[16];			/* NUL-padded, not terminated when 16 long */
	uint64_t features;
};

/* What the target info says, checked. */
struct cwasm_target {
	enum cwasm_arch arch;
	enum cwasm_abi abi;		/* UNSPECIFIED unless verified */
	enum cwasm_format format;
	int verified;			/* a current form, every field consistent */
};

/* "x86_64", "aarch64"; NULL for unknown. */
const char *cwasm_arch__name(enum cwasm_arch arch);
/* x86_64, x86-64, amd64, x64, aarch64, arm64 (any case); 0 or -1. */
int cwasm_arch__parse(const char *s, size_t len, enum cwasm_arch *out);
/* "sysv", "win64", "aapcs64"; NULL when unspecified. */
const char *cwasm_abi__name(enum cwasm_abi abi);
/* "legacy-unspecified", "elf64-little", "coff64"; NULL for none. */
const char *cwasm_format__name(enum cwasm_format fmt);
/*
 * Check a 40-byte target info payload: the legacy form, or one of the
 * current forms (x86_64/SysV ELF64 0x3e, x86_64/Win64 COFF64 0x8664,
 * aarch64/AAPCS64 ELF64 0xb7). Anything else is -1 with err naming the
 * file and the field.
 */
int cwasm_target__parse(const uint8_t *p, size_t len, const char *file,
			struct cwasm_target_info *ti, struct cwasm_target *t, struct ap_err *err);
/* The raw fields the compiler writes for a form (writer and tests); 0 or -1. */
int cwasm_target__spec(struct cwasm_target_info *ti, enum cwasm_arch arch,
		       enum cwasm_format format, enum cwasm_abi abi);

#define CWASM_NO_TYPE UINT32_MAX

struct cwasm_func {
	uint32_t offset;   /* from the first byte of text */
	uint32_t size;     /* to the next function's offset, the last one to end of text */
	uint32_t type_idx; /* CWASM_NO_TYPE for v6 offsets-only tables */
	const char *name;  /* wasm name (section 7), else an export name, else NULL */
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

/* A parsed core. All memory is owned by the module; free with cwasm__delete(). */
struct cwasm_module {
	char *path;             /* as given by the caller */
	uint32_t version;
	int version_known;      /* 0 when the version is outside what we have seen */
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
	uint32_t nimports;          /* all kinds (those read, see imports_partial) */
	int imports_partial;        /* a non-function import stopped the walk: the
				     * function import count is a lower bound */

	uint32_t ntypes;
	struct cwasm_type *types;

	uint32_t nexports;
	struct cwasm_export *exports;

	uint8_t sha256[32];     /* of the file bytes */

	int manifest_idx;       /* the manifest's "idx" for this core, -1 for a lone file */
	char *core_label;       /* "mod<idx>" inside a manifest, NULL for a lone file */

	char *name_pool;        /* internal: owns the section-7 strings funcs[].name point at */
};

/* Parse a .cwasm held in memory; `name` is used in error messages. */
int cwasm__parse(const uint8_t *buf, size_t len, const char *name,
		 struct cwasm_module **out, struct ap_err *err);
/* Read and parse a file (read-only). */
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

int cwasm_manifest__read(const char *path, struct cwasm_manifest **out,
			 struct ap_err *err);
void cwasm_manifest__delete(struct cwasm_manifest *man);

/* ---- writer (fixtures and tests) ---- */
struct cwasm_import_spec {
	const char *module, *field;
	uint8_t kind;      /* 0 = function */
	uint32_t type_idx; /* for functions */
};

struct cwasm_name_spec {
	uint32_t wasm_index;
	const char *name;
};

struct cwasm_spec {
	uint32_t version;        /* 6 writes offsets only, >= 7 pairs */
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
	uint32_t nexports;
	const struct cwasm_export *exports;
	uint32_t nnames;
	const struct cwasm_name_spec *names;
};

/* Serialize into a malloc'd buffer. */
int cwasm__build(const struct cwasm_spec *spec, uint8_t **buf, size_t *len,
		 struct ap_err *err);
/* Write atomically (temp file in the same folder, then rename). */
int cwasm__write(const char *path, const struct cwasm_spec *spec, struct ap_err *err);

#endif
