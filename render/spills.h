/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_RENDER_SPILLS_H
#define AOTPERF_RENDER_SPILLS_H
/* aotperf spills' output (spills/spills.h): text, and JSON (docs/json.md). */
#include <stdio.h>
#include "warnings.h"
#include "../spills/spills.h"

/*
 * The ranking (with the runtime flags and lesson once joined), or the diff
 * with --vs, in columns columns (util/term.h; 0: 80): columns that do not
 * fit give way (insts, sp_vregs, spill_st, then frame_ld), names are cut.
 */
void render__spills_text(FILE *out, const struct spills *s, unsigned columns);
/*
 * The JSON document, written atomically; hint words the warnings' hints
 * (NULL: none); extra (NULL: none) adds the front end's members last.
 */
int render__spills_json_file(const char *path, const struct spills *s, render_hint_fn hint,
			     void (*extra)(struct json_out *j, void *ctx), void *ctx,
			     struct ap_err *err);

#endif
