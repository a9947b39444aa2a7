/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_RENDER_SPILLS_H
#define AOTPERF_RENDER_SPILLS_H
/*
 * aotperf spills' output from its view (view/spills.h): text, and JSON
 * (docs/json.md).
 */
#include <stdio.h>
#include "warnings.h"
#include "../spills/spills.h"

struct view_spills;

/*
 * The ranking (with the runtime flags and lesson once joined), or the diff
 * with --vs, in columns columns (util/term.h; 0: 80): columns that do not
 * fit give way (insts, sp_vregs, spill_st, then frame_ld), names are cut.
 */
void render__spills_text(FILE *out, const struct view_spills *v, unsigned columns);
/*
 * The JSON document, written atomically; hint words the warnings' hints
 * (NULL: none); with --frame-attribution its "frame_origins" last.
 */
int render__spills_json_file(const char *path, const struct view_spills *v, render_hint_fn hint,
			     struct ap_err *err);

#endif
