/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_CLASSIFY_ANNOTATE_H
#define AOTPERF_CLASSIFY_ANNOTATE_H
/*
 * `perf annotate --stdio` output, one block per symbol ("Percent |
 * Source code & Disassembly of DSO for EVENT (N samples, ...)"). Raw bytes
 * (--asm-raw) are decoded with capstone; without them the instruction text
 * is parsed (Intel or AT&T). Checked against perf 6.1.
 */
#include "classify.h"

struct cls_annot_func {
	char symbol[128];
	char dso[128];
	char event[64];
	uint64_t header_samples;	/* "(N samples" in the block header, 0 if absent */
	int weights;			/* 0: -n sample counts; 1: percentages or periods */
	int raw;			/* decoded from --asm-raw bytes */
	int att;			/* the text was AT&T syntax */
	int approx;			/* text only: a jump table's extent or undecodable bytes estimated */
	enum cwasm_arch arch;
	struct cls_roles roles;
	struct cls_func func;
	uint64_t *samples;		/* parallel to func.insns */
	uint64_t unplaced;		/* on lines no instruction covers */
	struct cls_table table;
};

struct cls_annot {
	struct cls_annot_func *funcs;
	uint32_t n;
};

struct cls_annot_opts {
	enum cwasm_arch arch;		/* CWASM_ARCH_UNKNOWN: x86-64 unless the bytes are aarch64 words */
	const char *roles;		/* override, "vmctx=...,membase=...,frame=..." or NULL */
	int ignore_raw;			/* parse the text even when bytes are present */
};

/*
 * Parse buf[0..len); name is used in messages ("FILE: ..."). Weighted
 * input (percentages, periods) becomes estimated sample counts scaled to
 * the header's total; without a total the table is percent_only.
 */
int cls__annot_parse(const char *buf, size_t len, const char *name,
		     const struct cls_annot_opts *o, struct cls_annot *out, struct ap_err *err);
void cls_annot__exit(struct cls_annot *a);

/* The table of every symbol, as `aotperf classify` prints it; top hottest each. */
void cls__annot_print(FILE *out, const struct cls_annot *a, uint32_t top);
/* A whole JSON report {schema_version, tool, input, functions}, written atomically. */
int cls__annot_write_json(const char *path, const char *tool, const char *input,
			  const struct cls_annot *a, uint32_t top, struct ap_err *err);
/* {"functions": [...]} members for one JSON report (caller opens the object). */
void cls__annot_json(struct json_out *j, const struct cls_annot *a, uint32_t top);

#endif
