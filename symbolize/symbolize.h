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

struct sym_opts {
	enum symname_mode names;
	int prefix_core;   /* "mod<M>:" on local/wasm names */
	const char *dir;   /* where dumps / images go */
	int force;         /* replace perf maps aotperf did not write */
};

/* Prefix names with the core unless only one core was mapped. */
int symbolize__want_prefix(const struct attr_result *res);

/*
 * One perf map per process that mapped a core. out: NULL for the default
 * /tmp/perf-<pid>.map, else a path (only when one process is involved).
 * The paths written are appended to *written (caller frees each and it).
 */
int symbolize__perfmaps(const struct attr_result *res, const struct sym_opts *o,
			const char *out, char ***written, uint32_t *nwritten, struct ap_err *err);

/* 1 when every event of the recording used CLOCK_MONOTONIC (-k mono). */
int symbolize__clock_is_mono(const char *perf_path, int *mono, struct ap_err *err);

/*
 * jit-<pid>.dump per process into o->dir, and perf_out: a copy of perf_in
 * with a marker MMAP2 for each dump right after that process's first core
 * mapping record. Dump paths are appended to *written.
 */
int symbolize__jitdump(const char *perf_in, const struct attr_result *res,
		       const struct sym_opts *o, const char *perf_out, char ***written,
		       uint32_t *nwritten, struct ap_err *err);

/*
 * One ELF image per mapped core into o->dir, and perf_out: a copy of perf_in
 * whose core mapping records name the images (pgoff 0x1000) and carry their
 * build ids, which its HEADER_BUILD_ID lists too. *ids (when ids is not
 * NULL): the images' build ids, ELFIMAGE_BUILD_ID_SIZE bytes each, in the
 * order their paths were appended to *written (caller frees).
 */
int symbolize__elf(const char *perf_in, const struct attr_result *res,
		   const struct sym_opts *o, const char *perf_out, char ***written,
		   uint32_t *nwritten, uint8_t **ids, struct ap_err *err);

void symbolize__free_list(char **list, uint32_t n);

#endif
