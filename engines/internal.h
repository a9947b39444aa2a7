/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_ENGINES_INTERNAL_H
#define AOTPERF_ENGINES_INTERNAL_H
/*
 * Inside engines/: files of the engine's code (ELF files named in mapping
 * records, or one per jitdump record), their mappings over time, and the
 * code objects samples land in.
 */
#include <stdint.h>
#include "engines.h"
#include "../decode/decode.h"
#include "../util/elffuncs.h"


/* A symbol of a file: [value, value + size) inside the file's addresses. */
struct eng_sym {
	uint64_t value, size;
	uint32_t code;		/* index into the profile's codes */
};

struct eng_file {
	char *path;		/* as mapped (or the dump's path) */
	int readable;		/* 0: missing or not an ELF; its samples are unresolved */
	uint16_t e_machine;
	struct elf_load *loads;	/* file offset -> address inside the file */
	size_t nloads;
	struct eng_sym *syms;	/* sorted by value */
	uint32_t nsyms;
};

/* A code object as the profile keeps it (pub is what callers see). */
struct eng_code_rec {
	struct eng_code pub;
	char *raw;		/* owns pub.raw_name */
	uint8_t *bytes;		/* owns pub.bytes */
	uint64_t *offs;		/* owns pub.offset_samples */
};

struct eng_profile {
	struct eng_summary sum;
	char *perf_path;
	struct eng_file *files;
	uint32_t nfiles, cfiles;
	struct eng_code_rec *codes;
	uint32_t ncodes, ccodes;
	struct eng_func *funcs;
	uint32_t nfuncs;
	uint32_t *func_codes;	/* backing store of every funcs[].codes */
	char **warnings;
	uint32_t nwarnings;
	const struct cwasm_module *wamr;
};

/* profile.c */
int eng_profile__warn(struct eng_profile *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * A new code object (name and bytes copied; bytes may be NULL); its index
 * or -1. plain_ok: a bare name may resolve through the WAMR side's names
 * (jitted files and dumps, whose one symbol is the function).
 */
int64_t eng_profile__add_code(struct eng_profile *p, const char *name, const char *file,
			      uint16_t e_machine, uint64_t size, const uint8_t *bytes,
			      int plain_ok);
/* A new empty file entry; its index or -1. */
int64_t eng_profile__add_file(struct eng_profile *p, const char *path);
/* Is a symbol of this name wasm code, so its bytes are worth keeping? */
int eng_profile__wants_bytes(const struct eng_profile *p, const char *name, int plain_ok);
/* After the samples: group code objects by function; then the totals. */
int eng_profile__build_funcs(struct eng_profile *p, struct ap_err *err);
void eng_profile__summarize(struct eng_profile *p);

/*
 * elfsyms.c: read the ELF at `where` into p->files[fi] (readable stays 0
 * when it is missing or no ELF). 0, or -1 when out of memory.
 */
int eng_elf__load(struct eng_profile *p, uint32_t fi, const char *where, int plain_ok,
		  struct ap_err *err);
/* The symbol holding file offset off, or NULL; *vaddr gets the address. */
const struct eng_sym *eng_file__sym_at(const struct eng_file *f, uint64_t off, uint64_t *vaddr);
/* "jitted-<pid>-<k>.so" as perf inject --jit names them. */
int eng_elf__is_jitted(const char *path);

/* A code record of a jitdump (jitdump_read.c). */
struct eng_jit_load {
	uint32_t pid;
	uint64_t time, addr, size;
	uint32_t code;		/* index into the profile's codes */
};

struct eng_jit_loads {
	struct eng_jit_load *v;
	uint32_t n, cap;
	uint16_t e_machine;
	int arch_timestamps;	/* the dump's clock is the TSC, not CLOCK_MONOTONIC */
};

/* Read one dump: one code object per JIT_CODE_LOAD, moves as extra loads. */
int eng_jitdump__read(struct eng_profile *p, const char *path, struct eng_jit_loads *out,
		      struct ap_err *err);

/* roles.c: roles from decoded instructions (address order). */
void eng_roles__from_insns(enum cwasm_arch arch, const struct dc_insn *v, uint32_t n,
			   struct eng_roles *o);
/* How many leading instructions of code at lo (len bytes) are reachable code. */
uint32_t eng__reachable_end(const struct dc_insn *v, uint32_t n, uint64_t lo, uint64_t len);

#endif
