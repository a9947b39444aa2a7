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

/*
 * A listing line whose samples no one instruction takes: objdump's line
 * runs over several instruction starts (its decode of a jump table ran
 * past the table's end), and perf annotate counted them together.
 */
struct cls_annot_span {
	uint64_t addr, end;		/* the line's bytes [addr, end) */
	uint64_t samples;
	int resolved;			/* placed by address from the recording */
};

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
	uint64_t realigned;		/* on lines starting elsewhere than the one instruction inside */
	uint32_t nrealigned;		/* such lines */
	struct cls_annot_span *spans;	/* lines over several instruction starts */
	uint32_t nspans;
	uint64_t ambiguous;		/* their samples not placed: not in the table */
	uint64_t resolved;		/* their samples placed by address (cls_annot__resolve) */
	/* the recording's samples per byte (annotate's own listing: annot_rec.h), else NULL */
	uint64_t *byte_samples;
	uint64_t byte_addr, byte_len;
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

/*
 * Place the samples of a's spans by address, from exact: the same
 * symbols listed from the recording itself (cls__annot_recording, which
 * keeps the samples per byte). A span is placed only where the
 * recording's samples in its bytes add up to the line's count. Returns
 * the samples left unplaced.
 */
uint64_t cls_annot__resolve(struct cls_annot *a, const struct cls_annot *exact);

/* The formats print it: render/annotate.h. */

#endif
