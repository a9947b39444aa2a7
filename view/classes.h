/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_VIEW_CLASSES_H
#define AOTPERF_VIEW_CLASSES_H
/*
 * A function's class table (classify/classify.h struct cls_table) as one
 * view: the rows every format shows (report --func, classify, annotate,
 * report -i a -i b), the amounts under it (frame traffic, the vmctx slot,
 * the stack traffic the sidecar's view sees), the lever shares and the
 * verdict in words; its hottest instructions. Computed once here; the
 * formats (render/classes.c, render/report-*.c) only format them.
 *
 * Static counts are instructions: jump-table words and undecodable bytes
 * (the data class) are a row of their own and in no total.
 */
#include <stdint.h>
#include "table.h"
#include "../classify/classify.h"
#include "../util/err.h"

struct view_classes {
	/*
	 * One row per class, in the classes' order: class, samples,
	 * percent_of_function, percent_of_run, static_instructions. Text and
	 * Markdown show those with samples or instructions (every one with
	 * all), then the total (a footer); JSON has every class.
	 */
	struct vt_table *rows;
	int static_only;		/* no recording: static counts; %func is of them */
	int percent_only;		/* the input had percentages, no counts */
	int sampled;			/* the function has samples */
	const char *basis;		/* the levers' basis: "samples", "static" */
	/* the amounts under the table: samples (absent: counts unknown), %func, static */
	uint64_t frame_samples, stack_samples, vmctx_samples;
	double frame_pct, stack_pct;
	uint32_t frame_static, frame_loads, frame_stores, stack_static, vmctx_static;
	uint32_t static_total;		/* instructions (no data words) */
	struct cls_levers lv;		/* the lever shares (classify/) */
	int spills_known;
	const char *no_verdict;		/* why there is none (cls_table.no_verdict), or NULL */
	const char *verdict;		/* the verdict word: lv.verdict */
	const char *note;		/* what the verdict means, two lines, or NULL */
};

/*
 * The view of t; run_total the run's samples (0: no %run). all: every
 * class row is shown. 0, or -1 with err (out of memory).
 */
int view_classes__init(struct view_classes *v, const struct cls_table *t, uint64_t run_total,
		       int all, struct ap_err *err);
void view_classes__exit(struct view_classes *v);

/*
 * The n hottest instructions of f (insn_samples parallel to f->insns; t
 * its class table): samples, percent_of_function, percent_of_run,
 * address, offset, class, helper_class, instruction (a branch into f by
 * its offset: cls__insn_text). NULL with err when out of memory; a table
 * without rows when nothing was sampled.
 */
struct vt_table *view_classes__hottest(const struct cls_func *f, const uint64_t *insn_samples,
				       uint32_t n, const struct cls_table *t, uint64_t run_total,
				       struct ap_err *err);

#endif
