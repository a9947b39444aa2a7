/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_CLI_ANNOTATE_FALLBACK_H
#define AOTPERF_CLI_ANNOTATE_FALLBACK_H
/*
 * When stock perf annotate cannot be used: perf 6.12 crashes in it on many
 * functions and, disassembling with LLVM, prints no bytes with --asm-raw
 * (docs/install.md, "perf versions"). One judgement of a perf annotate run, shared
 * by annotate (which then lists the function itself, from the recording:
 * classify/annot_rec.h), doctor (which tells) and record (whose next
 * commands leave out what would fail).
 */
#include <stddef.h>
#include "../classify/annotate.h"
#include "../util/run.h"

enum annot_health {
	ANNOT_WORKS = 0,	/* a listing with instruction bytes */
	ANNOT_CRASHES,		/* killed by SIGSEGV, SIGBUS, SIGABRT, SIGILL or SIGFPE */
	ANNOT_NO_BYTES,		/* a listing, but --asm-raw gave no bytes */
	ANNOT_UNKNOWN,		/* failed otherwise, or no listing: nothing to judge */
};

/* Judge a finished `perf annotate --stdio --asm-raw` run; why: a short phrase. */
enum annot_health annot_health__of(const struct ap_child *c, char *why, size_t wlen);

/*
 * Run `PERF annotate -i INPUT --stdio -n --asm-raw -M intel -- SYMBOL` once
 * (killed after timeout_ms) and judge it.
 */
enum annot_health annot_health__probe(const char *perf, const char *input, const char *symbol,
				      int timeout_ms, char *why, size_t wlen);

/*
 * annotate's way round: aotperf's own listing of symbol from the recording
 * into *a (what perf annotate's parse would have given), and one line on
 * stderr saying why. 0, or -1 with err.
 */
int annot_fallback__run(const char *input, const char *symbol, const struct cls_annot_opts *o,
			const char *why, struct cls_annot *a, struct ap_err *err);

/*
 * Lines of perf annotate's listing that run over several instructions
 * (objdump's decode of a jump table ran past its end) hold samples perf
 * counted together: place them by address from the recording itself
 * (cls_annot__resolve). 0, or -1 with err when the recording could not be
 * listed (the spans then stay unplaced, and the listing says so).
 */
int annot_fallback__resolve(const char *input, const char *symbol, const struct cls_annot_opts *o,
			    struct cls_annot *a, struct ap_err *err);

#endif
