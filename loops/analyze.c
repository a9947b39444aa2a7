// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>
#include "analyze.h"
#include "mca.h"

/* Model every function of one arch: one -mcpu query, one child per function. */
static int model_arch(struct profile *p, enum cwasm_arch arch, const struct lp_cpu *cpu,
		      struct ap_err *err)
{
	struct lp_func **lfs = calloc(p->nfuncs + 1, sizeof(*lfs));
	const struct cls_func **fs = calloc(p->nfuncs + 1, sizeof(*fs));
	struct lp_mca t;
	uint32_t n = 0;
	int found, ret;

	if (!lfs || !fs) {
		free(lfs);
		free(fs);
		return ap_err_nomem(err);
	}
	found = !lp_mca__find(&t, arch, cpu);
	for (uint32_t i = 0; i < p->nfuncs; i++) {
		struct lp_func *lf = p->funcs[i].loops;

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
		fs[n++] = &p->funcs[i].cls.f;
	}
	ret = found && n ? lp_model__run(&t, lfs, fs, n, err) : 0;
	free(lfs);
	free(fs);
	return ret;
}

int lp__profile(struct profile *p, int model, struct ap_err *err)
{
	struct lp_cpu cpu;
	int archs = 0;

	for (uint32_t i = 0; i < p->nfuncs; i++) {
		struct profile_func *f = &p->funcs[i];
		const struct attr_core *c = &p->attr.cores[f->core];

		if (!f->classified || f->loops)
			continue;
		f->loops = calloc(1, sizeof(*f->loops));
		if (!f->loops)
			return ap_err_nomem(err);
		if (lp_func__build(f->loops, c->mod, f->func, c->first_base, &f->cls.f,
				   p->source == PROFILE_STATIC ? NULL : f->cls.insn_samples, err))
			return -1;
		archs |= 1 << f->loops->arch;
	}
	if (!model || !archs)
		return 0;
	if (p->source == PROFILE_STATIC || lp_cpu__from_perfdata(p->input, &cpu))
		lp_cpu__host(&cpu);
	for (int a = 0; a < 8; a++)
		if ((archs >> a & 1) && model_arch(p, (enum cwasm_arch)a, &cpu, err))
			return -1;
	return 0;
}
