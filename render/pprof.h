/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_RENDER_PPROF_H
#define AOTPERF_RENDER_PPROF_H
/*
 * A pprof profile builder (render/pprof.proto; docs/pprof.md), independent
 * of perf.data: the caller declares the value types, then adds mappings,
 * functions, locations and samples; equal strings, functions, locations and
 * stacks are stored once (a sample on a known stack adds to its values).
 * The result is a gzip-compressed Profile message, the file `go tool
 * pprof`, Grafana Pyroscope and Parca read.
 *
 * Ids are nonzero; a function returning an id returns 0 with err filled
 * (out of memory, or a bad argument).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "../util/err.h"

struct pprof;

struct pprof *pprof__new(struct ap_err *err);
void pprof__delete(struct pprof *p);

/*
 * The i-th value of every sample counts this (type, unit), e.g. ("samples",
 * "count") then ("cpu", "nanoseconds"). All before the first sample.
 */
int pprof__add_sample_type(struct pprof *p, const char *type, const char *unit,
			   struct ap_err *err);
/* What one sampling period is, e.g. ("cpu", "nanoseconds", 1001001). */
int pprof__set_period(struct pprof *p, const char *type, const char *unit, int64_t period,
		      struct ap_err *err);
/* Start (ns since the epoch) and length of the recording; 0 leaves them out. */
void pprof__set_time(struct pprof *p, int64_t time_nanos, int64_t duration_nanos);
/* The sample type a reader shows first (by its type name). */
int pprof__set_default_sample_type(struct pprof *p, const char *type, struct ap_err *err);
/* A line of free text shown to people ("recorded with perf record -e cpu-clock"). */
int pprof__add_comment(struct pprof *p, const char *text, struct ap_err *err);

/* An address range [start, limit) mapped from filename at file_offset. */
uint64_t pprof__mapping(struct pprof *p, uint64_t start, uint64_t limit, uint64_t file_offset,
			const char *filename, const char *build_id, struct ap_err *err);
/* name: what people read; system_name: the symbol (NULL: the same as name). */
uint64_t pprof__function(struct pprof *p, const char *name, const char *system_name,
			 const char *filename, int64_t start_line, struct ap_err *err);
/* A program counter in a function (mapping_id 0: none; function_id 0: no line). */
uint64_t pprof__location(struct pprof *p, uint64_t mapping_id, uint64_t address,
			 uint64_t function_id, int64_t line, struct ap_err *err);

/*
 * Add values (one per sample type) to the sample whose stack is locs[0..n),
 * leaf first. An empty stack is allowed (a sample with no frames).
 */
int pprof__sample(struct pprof *p, const uint64_t *locs, size_t n, const int64_t *values,
		  struct ap_err *err);

/*
 * aotperf's frames (docs/pprof.md). A wasm function is named
 * "[LABEL:]local_func_N[:WASM_NAME]" (system name "[LABEL:]local_func_N", the
 * symbol `perf report` shows after aotperf inject), its file is the core;
 * label is the core's "mod<M>" inside a manifest, NULL for a lone core.
 */
uint64_t pprof__wasm_function(struct pprof *p, const char *core, const char *label,
			      uint32_t local_func, const char *wasm_name, struct ap_err *err);
/* An instruction at byte `offset` from its function's start: line = offset. */
uint64_t pprof__wasm_location(struct pprof *p, uint64_t mapping_id, uint64_t function_id,
			      uint64_t address, uint32_t offset, struct ap_err *err);
/*
 * A host or kernel frame as perf names it: symbol (NULL: "[unknown]") in
 * dso (NULL: "[unknown]"), e.g. ("main", "/usr/bin/wamr"), ("do_syscall_64",
 * "[kernel.kallsyms]").
 */
uint64_t pprof__host_location(struct pprof *p, uint64_t mapping_id, uint64_t address,
			      const char *symbol, const char *dso, struct ap_err *err);

/* Counts so far (tests, progress): distinct samples, locations, functions, strings. */
size_t pprof__nsamples(const struct pprof *p);
size_t pprof__nlocations(const struct pprof *p);
size_t pprof__nfunctions(const struct pprof *p);
size_t pprof__nstrings(const struct pprof *p);

/* The serialized Profile message, uncompressed, in a malloc()ed buffer. */
int pprof__encode(struct pprof *p, uint8_t **out, size_t *len, struct ap_err *err);
/* The gzip-compressed profile into f; name is used in messages. */
int pprof__fwrite(struct pprof *p, FILE *f, const char *name, struct ap_err *err);
/* The same into path, atomically (util/outfile.h): nothing is left on failure. */
int pprof__write(struct pprof *p, const char *path, struct ap_err *err);

#endif
