// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>
#include "funcclass.h"

int cls__classify_func(const struct cwasm_module *m, uint32_t func, const char *roles,
		       const struct attr_hist *hist, uint32_t core, uint64_t base,
		       struct cls_result *out, struct ap_err *err)
{
	const struct cwasm_func *fn;
	struct cls_roles r;

	memset(out, 0, sizeof(*out));
	if (func >= m->nfuncs)
		return ap_errf(err, "%s: no local function %u (it has %u)", m->path, func, m->nfuncs);
	fn = &m->funcs[func];
	if ((uint64_t)fn->offset + fn->size > m->text_size)
		return ap_errf(err, "%s: local_func_%u lies past the end of the text", m->path, func);
	cls__roles_default(m->target.arch, &r);
	if (roles && cls__roles_parse(&r, roles, err))
		return -1;
	out->base = base;
	if (cls__decode(m->target.arch, &r, m->text + fn->offset, fn->size, base + fn->offset,
			&out->f, err))
		return -1;
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
	cls__tabulate(&out->f, out->insn_samples, &out->t);
	return 0;
}

void cls_result__exit(struct cls_result *r)
{
	cls_func__exit(&r->f);
	free(r->insn_samples);
	memset(r, 0, sizeof(*r));
}
