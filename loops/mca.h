/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_LOOPS_MCA_H
#define AOTPERF_LOOPS_MCA_H
/*
 * llvm-mca, run as a child process (it has no C API): which binary, which
 * -mcpu for the machine that recorded (mcpu.c), the input of a loop's
 * executed path with and without each lever (whatif.c), and the numbers
 * read back from its report (model.c).
 */
#include <stddef.h>
#include "loops.h"

#define LP_MCA_ITERATIONS 100
/* loops modelled per function, hottest first (unless lp_func.model_min_self) */
#define LP_MODEL_LOOPS 3

struct lp_cpu {
	char cpuid[64];		/* perf's HEADER_CPUID text */
	char desc[128];		/* HEADER_CPUDESC, the model name */
	char source[40];	/* where it came from */
};

/*
 * The recording's machine, as its header says (profile.h's cpuid and
 * cpudesc): 0, or -1 when it holds no cpuid (NULL or "").
 */
int lp_cpu__from_recording(const char *cpuid, const char *cpudesc, struct lp_cpu *c);
/* The cpuid this machine would record (/proc/cpuinfo). */
void lp_cpu__host(struct lp_cpu *c);
/*
 * The -mcpu for c and one line on why: the closest model among known (the
 * text `llvm-mca -mcpu=help` prints; NULL: any name) that is not in
 * rejected ("znver5 ": names the LLVM refused; NULL: none).
 */
void lp_mcpu__pick(const struct lp_cpu *c, enum cwasm_arch arch, const char *known,
		   const char *rejected, char *mcpu, size_t n, char *why, size_t wn);
/*
 * The models an LLVM of major version major (0: unknown) predates, as
 * "name name ", into out: known without running it, so that parallel
 * llvm-mca children do not each try and fall back (loops/model.c).
 */
void lp_mcpu__too_new(unsigned major, char *out, size_t n);

/* The tool, found once per report. */
struct lp_mca {
	char path[256];		/* "" when none was found */
	char mcpu[32];
	char why[256];		/* why that -mcpu */
	char note[256];		/* why there is no model, or "" */
	enum cwasm_arch arch;
	struct lp_cpu cpu;
	char rejected[160];	/* models this LLVM's version predates ("znver5 ") */
};

/*
 * Find llvm-mca (AOTPERF_LLVM_MCA when set, "" meaning none; else the
 * newest /usr/lib/llvm-N/bin/llvm-mca, else llvm-mca on PATH) and the
 * first -mcpu to try for cpu (a model the LLVM refuses is replaced by the
 * next older one when it runs: no separate -mcpu=help run). 0, or -1 with
 * t->note saying how to get it.
 */
int lp_mca__find(struct lp_mca *t, enum cwasm_arch arch, const struct lp_cpu *cpu);

/* One assembled piece of llvm-mca input (whatif.c). */
struct lp_text {
	char *s;
	size_t len, cap;
};
int lp_text__add(struct lp_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void lp_text__exit(struct lp_text *t);

/*
 * The body of the loop's executed path with lever (or -1: as compiled)
 * applied, its branches aimed at label; *removed the instructions the
 * lever touched, *touched the samples on them.
 */
int lp_whatif__body(struct lp_text *t, const struct lp_func *lf, const struct lp_loop *l,
		    const struct cls_func *f, int lever, const char *label, uint32_t *removed,
		    uint64_t *touched);

/* Does lever touch instruction i of f (its class, lf's call_indirect marks and sidecar)? */
int lp_whatif__touches(const struct lp_func *lf, const struct cls_func *f, int lever, uint32_t i);

/*
 * Model the loops of each function with samples (lfs[i] decoded as fs[i];
 * the LP_MODEL_LOOPS hottest, or those lp_func.model_min_self names), one
 * llvm-mca child per CPU, in parallel. aliased: the second pass, the frame
 * lever's loops with -noalias=false (lp_loop.aliased_*), after the first.
 */
int lp_model__run(const struct lp_mca *t, struct lp_func *const *lfs,
		  const struct cls_func *const *fs, uint32_t n, int aliased, struct ap_err *err);

/* The comment that opens an llvm-mca marker line. */
const char *lp_mca__comment(enum cwasm_arch arch);

#endif
