// SPDX-License-Identifier: MIT
// fuzz-seeds: tree/tests/classify/annot-*.txt
// fuzz-options: -max_len=32768
/*
 * Fuzz target: `perf annotate --stdio` text, cls__annot_parse() on the input
 * with the architecture, raw-byte use and a role override chosen from the
 * input's size (so one input always takes the same path), the placement by
 * address annotate does from a recording (per-byte samples made of the
 * input's own bytes), then the table printing the classify command does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "classify/annotate.h"
#include "render/annotate.h"
#include "fuzz.h"

static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	devnull = fopen("/dev/null", "w");
	return devnull ? 0 : -1;
}

/* The first symbol's bytes weighed by the input's bytes, as the recording's would be. */
static void resolve(struct cls_annot *a, const uint8_t *data, size_t size)
{
	struct cls_annot exact = { 0 };
	struct cls_annot_func e = { 0 };
	const struct cls_func *f;
	uint64_t n;

	if (!a->n || !a->funcs[0].func.ninsns)
		return;
	f = &a->funcs[0].func;
	e = a->funcs[0];
	e.byte_addr = f->insns[0].addr;
	n = f->insns[f->ninsns - 1].addr + f->insns[f->ninsns - 1].size - e.byte_addr;
	e.byte_len = n < 65536 ? n : 65536;
	e.byte_samples = calloc(e.byte_len ? e.byte_len : 1, sizeof(uint64_t));
	if (!e.byte_samples)
		return;
	for (uint64_t i = 0; i < e.byte_len && size; i++)
		e.byte_samples[i] = data[i % size] & 7;
	exact.funcs = &e;
	exact.n = 1;
	cls_annot__resolve(a, &exact);
	free(e.byte_samples);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum cwasm_arch archs[3] = { CWASM_ARCH_UNKNOWN, CWASM_ARCH_X86_64,
						  CWASM_ARCH_AARCH64 };
	struct cls_annot_opts o = { 0 };
	struct cls_annot a = { 0 };
	struct ap_err err = { 0 };

	if (!devnull)
		LLVMFuzzerInitialize(NULL, NULL);
	o.arch = archs[size % 3];
	o.ignore_raw = (size / 3) % 2;
	if ((size / 6) % 4 == 3)
		o.roles = "vmctx=rcx,membase=none,frame=rbp";
	if (cls__annot_parse((const char *)data, size, "fuzz.txt", &o, &a, &err)) {
		FUZZ_ASSERT(err.msg[0] && strlen(err.msg) < sizeof(err.msg));
		return 0;
	}
	resolve(&a, data, size);
	if (devnull)
		FUZZ_ASSERT(!render__annot_print(devnull, &a, 5, &err) || err.kind == AP_ERR_NOMEM);
	cls_annot__exit(&a);
	return 0;
}
