// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>
#include "analyze.h"
#include "mca.h"
#include "../frames/frames.h"

/* Model the functions of one arch among lfs: one tool lookup, one child per CPU. */
static int model_arch(struct lp_func *const *all, const struct cls_func *const *allf, uint32_t nall,
		      enum cwasm_arch arch, const struct lp_cpu *cpu, struct ap_err *err)
{
	struct lp_func **lfs = calloc(nall + 1, sizeof(*lfs));
	const struct cls_func **fs = calloc(nall + 1, sizeof(*fs));
	struct lp_mca t;
	uint32_t n = 0;
	int found, ret;

	if (!lfs || !fs) {
		free(lfs);
		free(fs);
		return ap_err_nomem(err);
	}
	found = !lp_mca__find(&t, arch, cpu);
	for (uint32_t i = 0; i < nall; i++) {
		struct lp_func *lf = all[i];

		if (!lf || lf->arch != arch)
			continue;
		lf->model.asked = 1;
		snprintf(lf->model.tool, sizeof(lf->model.tool), "%s", t.path);
		snprintf(lf->model.mcpu, sizeof(lf->model.mcpu), "%s", t.mcpu);
		snprintf(lf->model.why, sizeof(lf->model.why), "%s", t.why);
		snprintf(lf->model.note, sizeof(lf->model.note), "%s", t.note);
		if (!lf->nloops)
			continue;
		lfs[n] = lf;
		fs[n++] = allf[i];
	}
	ret = found && n ? lp_model__run(&t, lfs, fs, n, 0, err) : 0;
	for (uint32_t i = 0; !ret && found && i < n; i++)
		if (lfs[i]->model_aliased) {	/* the frame lever's bound: a second pass */
			ret = lp_model__run(&t, lfs, fs, n, 1, err);
			break;
		}
	free(lfs);
	free(fs);
	return ret;
}

static int model_all(struct lp_func *const *lfs, const struct cls_func *const *fs, uint32_t n,
		     const struct lp_cpu *cpu, struct ap_err *err)
{
	int archs = 0;

	for (uint32_t i = 0; i < n; i++)
		if (lfs[i])
			archs |= 1 << lfs[i]->arch;
	for (int a = 0; a < 8; a++)
		if ((archs >> a & 1) && model_arch(lfs, fs, n, (enum cwasm_arch)a, cpu, err))
			return -1;
	return 0;
}

int lp__model(struct lp_func *const *lfs, const struct cls_func *const *fs, uint32_t n,
	      const char *cpuid, const char *cpudesc, struct ap_err *err)
{
	struct lp_cpu cpu;

	if (lp_cpu__from_recording(cpuid, cpudesc, &cpu))
		lp_cpu__host(&cpu);
	return model_all(lfs, fs, n, &cpu, err);
}

/*
 * The frame lever touches only what the compiler's sidecar calls an
 * allocator spill: a wasm local, explicit frame storage or runtime frame
 * state lives in the frame by design, and an access the sidecar does not
 * list is not known to be a spill.
 */
int lp_func__keep_frames(struct lp_func *lf, const struct cls_func *f, const struct frames *fr,
			 struct ap_err *err)
{
	lf->frame_keep = calloc(f->ninsns + 1, 1);
	if (!lf->frame_keep)
		return ap_err_nomem(err);
	for (uint32_t i = 0; i < f->ninsns; i++) {
		const struct cls_insn *in = &f->insns[i];
		const struct frames_access *a;

		if (in->cls != CLS_FRAME_LOAD && in->cls != CLS_FRAME_STORE)
			continue;
		a = frames__access_covering(fr, in->offset);
		if (!a || a->top.origin != FRAMES_ALLOCATOR_SPILL) {
			lf->frame_keep[i] = 1;
			lf->frame_kept++;
		}
	}
	return 0;
}
