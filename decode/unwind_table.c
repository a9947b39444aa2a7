// SPDX-License-Identifier: MIT
/*
 * A core's unwinding rules (unwind_table.h): from the bytes, then from
 * capstone's instruction starts for the functions where they matter, so
 * x86 tail jumps get their rule (unwind/rules_x86.c).
 */
#include <errno.h>
#include <stdlib.h>

#include "decode.h"
#include "unwind_table.h"

int dc__unwind_arch(const struct cwasm_module *m, enum unwind_arch *arch)
{
	switch (m->target.arch) {
	case CWASM_ARCH_X86_64:
		*arch = UNWIND_ARCH_X86_64;
		return 1;
	case CWASM_ARCH_AARCH64:
		*arch = UNWIND_ARCH_AARCH64;
		return 1;
	default:
		return 0;
	}
}

struct u32vec {
	uint32_t *v;
	size_t n, cap;
};

static int u32vec_push(struct u32vec *u, uint32_t x)
{
	if (u->n == u->cap) {
		size_t cap = u->cap ? 2 * u->cap : 4096;
		uint32_t *v = realloc(u->v, cap * sizeof(*v));

		if (!v)
			return -1;
		u->v = v;
		u->cap = cap;
	}
	u->v[u->n++] = x;
	return 0;
}

/*
 * Instruction starts (text offsets) of the functions that need them:
 * those whose rules from the bytes alone have an unknown window after a
 * recognised prologue (an x86 jump right after a pop rbp/leave byte, see
 * unwind/rules_x86.c). Decoding every function would cost capstone's
 * full decode of the core, ~20x the rest of `inject --direct`, for the
 * same rules elsewhere (test_unwind checks that on real code).
 */
static int decode_starts(const struct cwasm_module *m, const struct unwind_table *bytes,
			 struct u32vec *out, struct ap_err *err)
{
	struct dc_vec nv = { 0 };
	int ret = 0;

	for (uint32_t f = 0; f < m->nfuncs && !ret; f++) {
		const struct cwasm_func *fn = &m->funcs[f];
		const struct unwind_row *rows;
		uint32_t nrows;

		if (!fn->size || unwind_table__func_known(bytes, f))
			continue;
		unwind_table__func(bytes, f, &rows, &nrows, NULL, NULL);
		if (!nrows || !rows[0].known)
			continue;	/* not the compiler's prologue: nothing to gain */
		nv.n = 0;
		ret = dc__decode(m->target.arch, m->text + fn->offset, fn->size, fn->offset, &nv, err);
		for (uint32_t i = 0; i < nv.n && !ret; i++)
			if (nv.v[i].kind != DC_DATA && u32vec_push(out, (uint32_t)nv.v[i].addr))
				ret = ap_err_nomem(err);
	}
	dc_vec__exit(&nv);
	return ret;
}

struct unwind_table *dc__unwind_table(const struct cwasm_module *m, struct ap_err *err)
{
	struct u32vec starts = { 0 };
	struct unwind_table *bytes, *t = NULL;
	uint32_t *offs;
	enum unwind_arch arch;
	int e = 0;

	if (!dc__unwind_arch(m, &arch) || !m->nfuncs)
		return NULL;
	offs = malloc(m->nfuncs * sizeof(*offs));
	if (!offs) {
		ap_err_nomem(err);
		return NULL;
	}
	for (uint32_t f = 0; f < m->nfuncs; f++)
		offs[f] = m->funcs[f].offset;
	bytes = unwind_table__new(arch, m->text, m->text_size, offs, m->nfuncs, NULL, 0, &e);
	if (bytes && !decode_starts(m, bytes, &starts, err)) {
		if (!starts.n) {
			t = bytes;
			bytes = NULL;
		} else {
			t = unwind_table__new(arch, m->text, m->text_size, offs, m->nfuncs,
					      starts.v, starts.n, &e);
		}
	}
	if (!t && e)
		ap_errk(err, e == -ENOMEM ? AP_ERR_NOMEM : AP_ERR_INPUT,
			"%s: cannot derive unwinding rules", m->path);
	unwind_table__delete(bytes);
	free(starts.v);
	free(offs);
	return t;
}
