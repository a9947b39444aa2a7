/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_RENDER_FRAMES_H
#define AOTPERF_RENDER_FRAMES_H
/*
 * A function's frame traffic by proven origin (profile/sidecar.h,
 * frames/summary.h) and the upstream helper's view of it, as text and
 * JSON. aotperf's own views (report, annotate, the dlfilter, spills) print
 * render__frames_text(); the helper's JSON keys (docs/helper-interface.md)
 * come from one writer here, shared by `aotperf attr` and report's JSON.
 */
#include <stdint.h>
#include <stdio.h>
#include "../profile/sidecar.h"
#include "../util/json_out.h"

/* Frame instructions without a proven origin listed by the text view. */
#define RENDER_FRAMES_LISTED 10

/*
 * The origins section of aotperf's views: the sidecar, per origin and
 * kind the static and sampled counts, coverage, the reconciliation, the
 * allocator contributors ranked by samples and the frame instructions the
 * sidecar does not prove (at most max_listed of each). func_samples: the
 * base of %func (0: static, no column).
 */
void render__frames_text(FILE *out, const struct profile_sidecar *sc, uint64_t func_samples,
			 uint32_t max_listed);

/*
 * Two lines for `aotperf spills`: label, the metric log's spill_ld/
 * spill_st (have_log) against the sidecar's allocator loads/stores, and
 * the frame instructions per origin, statically and (have_samples) sampled.
 */
void render__frames_brief(FILE *out, const char *label, const struct profile_sidecar *sc,
			  int have_samples, uint64_t func_samples, int have_log, uint64_t log_ld,
			  uint64_t log_st);

/*
 * The helper's members of a classified function for the sidecar sc:
 * frame_attribution, frame_metadata (absolute path), frame_metadata_module,
 * frame_metadata_identity, keys sorted. addr0 is added to each native
 * offset for "address". extended adds aotperf's keys (loads and stores
 * apart, the frame instructions no access lists).
 */
void render__frames_json(struct json_out *j, const struct profile_sidecar *sc, uint64_t addr0,
			 int extended);

/*
 * The helper's classified_function members (keys sorted): classes,
 * frame_* (with a sidecar), hottest_instructions, instruction_count,
 * local_func, percent_of_run, samples.
 */
void render__helper_func_json(struct json_out *j, uint32_t func, const struct helper_view *hv,
			      const struct profile_sidecar *sc, uint64_t addr0, uint64_t run_total);

/* An absolute path with symlinks resolved (the helper's Path.resolve()); the input when it fails. */
const char *render__abspath(const char *path, char *buf, size_t len);

#endif
