// SPDX-License-Identifier: MIT
/* The loops of a profile's classified functions (loops/loops.h). */
#include <stdlib.h>
#include "profile.h"
#include "sidecar.h"
#include "../loops/analyze.h"

int profile__loops(struct profile *p, int model, struct ap_err *err)
{
	struct lp_func **lfs;
	const struct cls_func **fs;
	uint32_t n = 0;
	int ret;

	for (uint32_t i = 0; i < p->nfuncs; i++) {
		struct profile_func *f = &p->funcs[i];
		const struct attr_core *c = &p->attr.cores[f->core];

		if (!f->classified || f->loops)
			continue;
		f->loops = calloc(1, sizeof(*f->loops));
		if (!f->loops)
			return ap_err_nomem(err);
		if (lp_func__build(f->loops, c->mod, f->func, c->first_base, &f->cls.f,
				   p->source == PROFILE_STATIC ? NULL : f->cls.insn_samples, err) ||
		    (f->sc && f->sc->fr && lp_func__keep_frames(f->loops, &f->cls.f, f->sc->fr, err)))
			return -1;
		n++;
	}
	if (!model || !n)
		return 0;
	lfs = calloc(p->nfuncs, sizeof(*lfs));
	fs = calloc(p->nfuncs, sizeof(*fs));
	if (!lfs || !fs) {
		free(lfs);
		free(fs);
		return ap_err_nomem(err);
	}
	for (uint32_t i = 0; i < p->nfuncs; i++) {
		lfs[i] = p->funcs[i].loops;
		fs[i] = &p->funcs[i].cls.f;
	}
	/* the recording's CPU, this machine's without one */
	ret = p->source == PROFILE_STATIC ? lp__model(lfs, fs, p->nfuncs, NULL, NULL, err)
					  : lp__model(lfs, fs, p->nfuncs, p->cpuid, p->cpudesc, err);
	free(lfs);
	free(fs);
	return ret;
}
