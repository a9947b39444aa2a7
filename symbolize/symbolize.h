/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_SYMBOLIZE_H
#define AOTPERF_SYMBOLIZE_H
/*
 * Make stock perf name the wasm functions of an attributed recording, by
 * the three routes perf offers (docs/formats-perf.md):
 *   perf maps      /tmp/perf-<pid>.map, read by perf report at report time;
 *   jitdump        jit-<pid>.dump plus a marker MMAP2 inserted into a copy
 *                  of perf.data, for stock `perf inject --jit` (-k mono only);
 *   ELF images     one image per core, and a copy of perf.data whose //anon
 *                  mapping records name it: no inject step, any clock.
 * The input perf.data is only read.
 */
#include "../attr/attr.h"
#include "../util/err.h"
#include "symname.h"

struct outset;
struct symcfi_maps;

struct sym_opts {
	enum symname_mode names;
	int prefix_core;   /* "mod<M>:" on local/wasm names */
	const char *dir;   /* where dumps / images go */
	int force;         /* replace perf maps aotperf did not write */
	/*
	 * The run's outputs (util/outset.h): every map, dump, image and copy
	 * is written under a temporary name from it, the caller commits them
	 * together (or aborts: the files at those names stay as they were).
	 * NULL: each is written into place (the dumps and marked copy that
	 * only feed perf inject --jit).
	 */
	struct outset *outs;
	/*
	 * every mapping record (cfi.h), collected by the caller's read (the
	 * images' CFI claims room in it); NULL: a pass of their own
	 */
	struct symcfi_maps *maps;
};

/* Prefix names with the core unless only one core was mapped. */
int symbolize__want_prefix(const struct attr_result *res);

/* The name to write the output path under: its temporary in o->outs, or path. NULL with err. */
const char *sym_opts__write_name(const struct sym_opts *o, const char *path, struct ap_err *err);

/*
 * One perf map per process that mapped a core. out: NULL for the default
 * /tmp/perf-<pid>.map, else a path (only when one process is involved).
 * The paths written (their final names) are appended to *written (caller
 * frees each and it).
 */
int symbolize__perfmaps(const struct attr_result *res, const struct sym_opts *o,
			const char *out, char ***written, uint32_t *nwritten, struct ap_err *err);

/* 1 when every event of the recording used CLOCK_MONOTONIC (-k mono), else 0. */
int symbolize__clock_is_mono(struct session *s);

/*
 * jit-<pid>.dump per process into o->dir, and perf_out: a copy of the
 * recording s reads with a marker MMAP2 for each dump right after that
 * process's first core mapping record. Dump paths are appended to *written.
 */
int symbolize__jitdump(struct session *s, const struct attr_result *res,
		       const struct sym_opts *o, const char *perf_out, char ***written,
		       uint32_t *nwritten, struct ap_err *err);

/*
 * One ELF image per mapped core into o->dir, and perf_out: a copy of the
 * recording s reads whose core mapping records name the images (pgoff
 * 0x1000) and carry their build ids, which its HEADER_BUILD_ID lists too.
 * *ids (when ids is not NULL): the images' build ids, ELFIMAGE_BUILD_ID_SIZE
 * bytes each, in the order their paths were appended to *written (caller
 * frees).
 */
int symbolize__elf(struct session *s, const struct attr_result *res,
		   const struct sym_opts *o, const char *perf_out, char ***written,
		   uint32_t *nwritten, uint8_t **ids, struct ap_err *err);

void symbolize__free_list(char **list, uint32_t n);

#endif
