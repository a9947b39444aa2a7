/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_RENDER_CLASSES_H
#define AOTPERF_RENDER_CLASSES_H
/*
 * A class table's view (view/classes.h) in each format: the rows, the
 * amounts and levers under them and the verdict; a hottest-instructions
 * table. report, classify, annotate and report -i a -i b print through
 * these, so a class table reads the same wherever it is.
 */
#include <stdio.h>
#include "../util/err.h"
#include "../util/json_out.h"
#include "../view/classes.h"

/* The table, then frame traffic, the vmctx slot, the levers and the verdict (80 columns). */
void render__classes_text(FILE *out, const struct view_classes *v);
/* The "classes" value: {class: {samples, percent_of_run, static_instructions, percent_of_function}}. */
void render__classes_json(struct json_out *j, const struct view_classes *v);
/*
 * The "classes" value of a table that has no view yet (compare's, until
 * it is one): the view built and written at once.
 */
void render__cls_table_json(struct json_out *j, const struct cls_table *t, uint64_t run_total);
/* The members "stack_traffic", "frame_traffic" and "levers". */
void render__classes_json_levers(struct json_out *j, const struct view_classes *v);
/* The table and the verdict's line, as Markdown; 0, or -1 with err. */
int render__classes_md(FILE *f, const char *name, const struct view_classes *v,
		       struct ap_err *err);

/* A hottest-instructions table (view_classes__hottest) as text at columns (0: 80). */
void render__hottest_text(FILE *out, const struct vt_table *h, unsigned columns);
/* Its rows as a JSON array. */
void render__hottest_json(struct json_out *j, const struct vt_table *h);

/* "  roles      abi sysv (prologue), vmctx ...", wrapped at ", " and "; " within 80 columns. */
void render__roles_text(FILE *out, const char *roles);
/* The roles as a JSON object {abi, abi_source, vmctx_param, vmctx_slot, ..., override}. */
void render__roles_json(struct json_out *j, const struct cls_func_roles *r);

#endif
