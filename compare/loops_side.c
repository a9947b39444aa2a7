// SPDX-License-Identifier: MIT
/* A function with its hot loops, weighed by the recordings' samples (loops_side.h). */
#include <string.h>
#include "loops_side.h"

int cmp_loops_side__build(struct cmp_loops_side *s, const struct cwasm_module *m, uint32_t func,
			  const uint64_t *insn_samples, uint32_t ninsns, const char *roles,
			  struct ap_err *err)
{
	memset(s, 0, sizeof(*s));
	if (cls_result__classify(&s->cls, m, func, CWASM_ARCH_UNKNOWN, roles, NULL, 0, 0, err))
		return -1;
	/* the recordings' decode and this one: the same instructions */
	if (insn_samples && ninsns != s->cls.f.ninsns)
		return ap_errf(err, "%s: local_func_%u decodes to %u instructions here, %u in "
			       "the recordings", m->path, func, s->cls.f.ninsns, ninsns);
	if (lp_func__build(&s->lf, m, func, 0, &s->cls.f, insn_samples, err))
		return -1;
	s->built = 1;
	return 0;
}

void cmp_loops_side__exit(struct cmp_loops_side *s)
{
	if (s->built)
		lp_func__exit(&s->lf);
	cls_result__exit(&s->cls);
	memset(s, 0, sizeof(*s));
}
