// SPDX-License-Identifier: MIT
#include <string.h>
#include "loops-side.h"

int loops_side__build(struct loops_side *s, const struct cwasm_module *m,
		      const struct capture_func *cf, const char *roles, struct ap_err *err)
{
	memset(s, 0, sizeof(*s));
	if (cls_result__classify(&s->cls, m, cf->cf.func, CWASM_ARCH_UNKNOWN, roles, NULL, 0, 0,
				 err))
		return -1;
	/* the recordings' decode (captures.c) and this one: the same instructions */
	if (cf->insn_samples && cf->ninsns != s->cls.f.ninsns)
		return ap_errf(err, "%s: local_func_%u decodes to %u instructions here, %u in "
			       "the recordings", m->path, cf->cf.func, s->cls.f.ninsns, cf->ninsns);
	if (lp_func__build(&s->lf, m, cf->cf.func, 0, &s->cls.f, cf->insn_samples, err))
		return -1;
	s->built = 1;
	return 0;
}

void loops_side__exit(struct loops_side *s)
{
	if (s->built)
		lp_func__exit(&s->lf);
	cls_result__exit(&s->cls);
	memset(s, 0, sizeof(*s));
}
