// SPDX-License-Identifier: MIT
/*
 * Basic blocks of a classified function, from a second decode of its
 * bytes: leaders after every branch, at every branch target and at every
 * entry of the jump table an indirect jump dispatches through (wherever
 * the table sits); inline data is no block. Its loops: find.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "loops.h"
#include "find.h"
#include "../decode/decode.h"

const char *lp_lever__name(enum lp_lever l)
{
	static const char *const names[LP__NLEVERS] = {
		[LP_ZEXT_MOVE] = "zext_move", [LP_FRAME] = "frame",
		[LP_BOUNDS_CHECK] = "bounds_check", [LP_VMCTX_RELOAD] = "vmctx_reload",
		[LP_DISPATCH] = "dispatch",
	};
	return l < LP__NLEVERS ? names[l] : "?";
}

static int ends_block(const struct dc_insn *d)
{
	return d->kind == DC_JMP || d->kind == DC_JCC || d->kind == DC_RET || d->kind == DC_TRAP;
}

/* Index of the instruction at addr, or -1 (binary search; v in address order). */
static int64_t find_addr(const struct dc_vec *nv, uint64_t addr)
{
	int64_t i = dc_vec__find(nv, addr);

	return i >= 0 && nv->v[i].kind == DC_DATA ? -1 : i;
}

/* Jump targets of instruction i inside the function: at most max written. */
static uint32_t targets(const struct dc_vec *nv, uint32_t i, uint32_t *t, uint32_t max)
{
	const struct dc_insn *d = &nv->v[i];
	uint32_t n = 0;
	int64_t k;

	if (d->kind == DC_JMP && d->indirect) {
		/*
		 * the jump table it dispatches through (right after it, or after
		 * the function's ret where its lea points): one data entry per
		 * target; padding before it is data without entries
		 */
		uint64_t tb = dc__table_base(nv, i);
		int64_t first = tb ? dc_vec__find(nv, tb) : -1;
		uint32_t j = first >= 0 ? (uint32_t)first : i + 1, left = UINT32_MAX;
		struct dc_table bound;

		if (dc__table_bound(nv, i, &bound))
			left = bound.nentries;	/* tables placed one after another */
		for (; j < nv->n && nv->v[j].kind == DC_DATA && n < max && left; j++) {
			if (!nv->v[j].ndata) {
				if (j != i + 1)
					break;	/* padding: only between the jump and its table */
				continue;
			}
			left--;
			if (nv->v[j].has_target && (k = find_addr(nv, nv->v[j].target)) >= 0)
				t[n++] = (uint32_t)k;
		}
		return n;
	}
	if ((d->kind == DC_JMP || d->kind == DC_JCC) && d->has_target &&
	    (k = find_addr(nv, d->target)) >= 0 && max)
		t[n++] = (uint32_t)k;
	return n;
}

#define MAX_TARGETS 4096

static int make_blocks(struct lp_func *lf, const struct dc_vec *nv, const struct cls_func *f,
		       const uint64_t *samples, struct ap_err *err)
{
	uint32_t n = nv->n, *t = malloc(MAX_TARGETS * sizeof(*t)), nb = 0;
	uint8_t *leader = calloc(n + 1, 1);

	lf->block_of = malloc((n + 1) * sizeof(*lf->block_of));
	if (!t || !leader || !lf->block_of) {
		free(t);
		free(leader);
		return ap_err_nomem(err);
	}
	for (uint32_t i = 0; i < n; i++) {
		const struct dc_insn *d = &nv->v[i];

		if (d->kind == DC_DATA)
			continue;
		if (!i || nv->v[i - 1].kind == DC_DATA || ends_block(&nv->v[i - 1]))
			leader[i] = 1;
		for (uint32_t k = 0, nt = targets(nv, i, t, MAX_TARGETS); k < nt; k++)
			leader[t[k]] = 1;
	}
	for (uint32_t i = 0; i < n; i++)
		nb += leader[i];
	lf->blocks = calloc(nb ? nb : 1, sizeof(*lf->blocks));
	if (!lf->blocks) {
		free(t);
		free(leader);
		return ap_err_nomem(err);
	}
	nb = 0;
	for (uint32_t i = 0; i < n; i++) {
		lf->block_of[i] = UINT32_MAX;
		if (nv->v[i].kind == DC_DATA)
			continue;
		if (leader[i])
			lf->blocks[nb++].first = i;
		lf->block_of[i] = nb - 1;
		lf->blocks[nb - 1].end = i + 1;
	}
	lf->nblocks = nb;
	for (uint32_t b = 0; b < nb; b++) {
		struct lp_block *bl = &lf->blocks[b];
		uint32_t last = bl->end - 1, nt, ntrap = 0;
		const struct dc_insn *d = &nv->v[last];
		int falls = !(d->kind == DC_JMP || d->kind == DC_RET || d->kind == DC_TRAP);

		nt = targets(nv, last, t, MAX_TARGETS - 1);
		if (falls && bl->end < n && nv->v[bl->end].kind != DC_DATA)
			t[nt++] = bl->end;
		bl->succ = malloc((nt ? nt : 1) * sizeof(*bl->succ));
		if (!bl->succ) {
			free(t);
			free(leader);
			return ap_err_nomem(err);
		}
		for (uint32_t k = 0; k < nt; k++)
			bl->succ[k] = lf->block_of[t[k]];
		bl->nsucc = nt;
		for (uint32_t i = bl->first; i < bl->end; i++) {
			bl->samples += samples ? samples[i] : 0;
			ntrap += f->insns[i].cls == CLS_TRAP || nv->v[i].kind == DC_TRAP;
		}
		bl->trap = ntrap == bl->end - bl->first;
	}
	free(t);
	free(leader);
	return 0;
}

int lp_func__build_code(struct lp_func *out, const uint8_t *code, uint64_t len, uint64_t addr,
			const char *what, const struct cls_func *f, const uint64_t *samples,
			struct ap_err *err)
{
	struct dc_vec nv = { 0 };
	int ret = -1;

	memset(out, 0, sizeof(*out));
	out->arch = f->arch;
	if (dc__decode(f->arch, code, len, addr, &nv, err))
		goto out;
	if (nv.n != f->ninsns || (nv.n && nv.v[0].addr != f->insns[0].addr)) {
		ap_errf(err, "%s decodes differently the second time", what);
		goto out;
	}
	for (uint32_t i = 0; i < f->ninsns; i++)
		out->total += samples ? samples[i] : 0;
	out->samples = samples;
	if (make_blocks(out, &nv, f, samples, err) || lp_icall__mark(out, &nv, f, err) ||
	    lp_func__find_loops(out, f, samples, err))
		goto out;
	ret = 0;
out:
	dc_vec__exit(&nv);
	if (ret)
		lp_func__exit(out);
	return ret;
}

int lp_func__build(struct lp_func *out, const struct cwasm_module *m, uint32_t func,
		   uint64_t base, const struct cls_func *f, const uint64_t *samples,
		   struct ap_err *err)
{
	const struct cwasm_func *fn = &m->funcs[func];
	char what[300];

	snprintf(what, sizeof(what), "%.260s: local_func_%u", m->path, func);
	return lp_func__build_code(out, m->text + fn->offset, fn->size, base + fn->offset, what, f,
				   samples, err);
}

void lp_func__exit(struct lp_func *lf)
{
	for (uint32_t b = 0; lf->blocks && b < lf->nblocks; b++)
		free(lf->blocks[b].succ);
	for (uint32_t i = 0; i < lf->nloops; i++) {
		free(lf->loops[i].blocks);
		free(lf->loops[i].input);
	}
	free(lf->blocks);
	free(lf->loops);
	free(lf->block_of);
	free(lf->frame_keep);
	free(lf->icall);
	memset(lf, 0, sizeof(*lf));
}

void lp_func__delete(struct lp_func *lf)
{
	if (!lf)
		return;
	lp_func__exit(lf);
	free(lf);
}
