// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>
#include "funcclass.h"

int cls_result__classify(struct cls_result *out, const struct cwasm_module *m, uint32_t func,
			 enum cwasm_arch arch, const char *roles, const struct attr_hist *hist,
			 uint32_t core, uint64_t base, struct ap_err *err)
{
	const struct cwasm_func *fn;
	struct cls_roles r;

	memset(out, 0, sizeof(*out));
	cls__roles_target(&m->target, &r);
	if (arch != CWASM_ARCH_UNKNOWN && arch != r.arch) {
		r.arch = arch;
		r.abi = CWASM_ABI_UNSPECIFIED;
	}
	if (roles && cls__roles_parse(&r, roles, err))
		return -1;
	out->base = base;
	if (cls__classify_func(m, func, arch, &r, base, &out->f, err))
		return -1;
	fn = &m->funcs[func];
	out->insn_samples = calloc(out->f.ninsns + 1, sizeof(uint64_t));
	if (!out->insn_samples) {
		cls_func__exit(&out->f);
		return ap_err_nomem(err);
	}
	for (uint32_t i = 0; hist && i < out->f.ninsns; i++) {
		const struct cls_insn *in = &out->f.insns[i];

		out->insn_samples[i] = attr_hist__sum(hist, core, (uint64_t)fn->offset + in->offset,
						      in->size);
	}
	/* no histogram: no recording, static counts only */
	cls__tabulate(&out->f, hist ? out->insn_samples : NULL, &out->t);
	return 0;
}

void cls_result__exit(struct cls_result *r)
{
	cls_func__exit(&r->f);
	free(r->insn_samples);
	memset(r, 0, sizeof(*r));
}
