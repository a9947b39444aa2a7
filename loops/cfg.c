// SPDX-License-Identifier: MIT
/*
 * Basic blocks and natural loops: a back edge goes to a block that
 * dominates its source; the loop is the header plus every block that
 * reaches the source without passing the header. Back edges to one
 * header make one loop. Dominators by the iterative data-flow algorithm
 * over reverse postorder (functions here have at most a few thousand
 * blocks).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "loops.h"
#include "../decode/decode.h"

const char *lp_lever__name(enum lp_lever l)
{
	static const char *const names[LP__NLEVERS] = {
		[LP_ZEXT_MOVE] = "zext_move", [LP_FRAME] = "frame",
		[LP_BOUNDS_CHECK] = "bounds_check", [LP_VMCTX_RELOAD] = "vmctx_reload",
	};
	return l < LP__NLEVERS ? names[l] : "?";
}

int lp_loop__has(const struct lp_loop *l, uint32_t b)
{
	for (uint32_t i = 0; i < l->nblocks; i++)
		if (l->blocks[i] == b)
			return 1;
	return 0;
}

static int ends_block(const struct dc_insn *d)
{
	return d->kind == DC_JMP || d->kind == DC_JCC || d->kind == DC_RET || d->kind == DC_TRAP;
}

/* Index of the instruction at addr, or -1 (binary search; v in address order). */
static int64_t find_addr(const struct dc_vec *nv, uint64_t addr)
{
	uint32_t lo = 0, hi = nv->n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (nv->v[mid].addr == addr)
			return nv->v[mid].kind == DC_DATA ? -1 : (int64_t)mid;
		if (nv->v[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* Jump targets of instruction i inside the function: at most max written. */
static uint32_t targets(const struct dc_vec *nv, uint32_t i, uint32_t *t, uint32_t max)
{
	const struct dc_insn *d = &nv->v[i];
	uint32_t n = 0;
	int64_t k;

	if (d->kind == DC_JMP && d->indirect) {
		/* the jump table right after it: one data entry per target */
		for (uint32_t j = i + 1; j < nv->n && nv->v[j].kind == DC_DATA && n < max; j++)
			if (nv->v[j].ndata && nv->v[j].has_target &&
			    (k = find_addr(nv, nv->v[j].target)) >= 0)
				t[n++] = (uint32_t)k;
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

/* Reverse postorder of the blocks reached from block 0; returns how many. */
static uint32_t rpo(struct lp_func *lf, uint32_t *order, uint32_t *stack, uint32_t *next)
{
	uint32_t sp = 0, no = lf->nblocks;

	if (!lf->nblocks)
		return 0;
	memset(next, 0, lf->nblocks * sizeof(*next));
	stack[sp++] = 0;
	lf->blocks[0].reached = 1;
	while (sp) {
		uint32_t b = stack[sp - 1];
		struct lp_block *bl = &lf->blocks[b];

		if (next[b] < bl->nsucc) {
			uint32_t s = bl->succ[next[b]++];

			if (!lf->blocks[s].reached) {
				lf->blocks[s].reached = 1;
				stack[sp++] = s;
			}
			continue;
		}
		order[--no] = b;
		sp--;
	}
	/* order[no..nblocks) holds the reverse postorder */
	memmove(order, order + no, (lf->nblocks - no) * sizeof(*order));
	return lf->nblocks - no;
}

static uint32_t intersect(const uint32_t *idom, const uint32_t *pos, uint32_t a, uint32_t b)
{
	while (a != b) {
		while (pos[a] > pos[b])
			a = idom[a];
		while (pos[b] > pos[a])
			b = idom[b];
	}
	return a;
}

static void dominators(const struct lp_func *lf, const uint32_t *order, uint32_t nr,
		       uint32_t *idom, uint32_t *pos, uint32_t **preds, uint32_t *npred)
{
	int changed = 1;

	for (uint32_t b = 0; b < lf->nblocks; b++) {
		idom[b] = UINT32_MAX;
		pos[b] = UINT32_MAX;
	}
	for (uint32_t i = 0; i < nr; i++)
		pos[order[i]] = i;
	idom[0] = 0;
	while (changed) {
		changed = 0;
		for (uint32_t i = 1; i < nr; i++) {
			uint32_t b = order[i], nd = UINT32_MAX;

			for (uint32_t k = 0; k < npred[b]; k++) {
				uint32_t p = preds[b][k];

				if (idom[p] == UINT32_MAX)
					continue;
				nd = nd == UINT32_MAX ? p : intersect(idom, pos, p, nd);
			}
			if (nd != idom[b]) {
				idom[b] = nd;
				changed = 1;
			}
		}
	}
}

static int dominates(const uint32_t *idom, uint32_t h, uint32_t b)
{
	for (;;) {
		if (b == h)
			return 1;
		if (!b || idom[b] == UINT32_MAX)
			return 0;
		b = idom[b];
	}
}

static int add_loop(struct lp_func *lf, uint32_t h, const uint8_t *in, struct ap_err *err)
{
	struct lp_loop *l, *nl = realloc(lf->loops, (lf->nloops + 1) * sizeof(*nl));
	uint32_t n = 0;

	if (!nl)
		return ap_err_nomem(err);
	lf->loops = nl;
	l = &nl[lf->nloops];
	memset(l, 0, sizeof(*l));
	l->header = h;
	l->parent = -1;
	for (uint32_t b = 0; b < lf->nblocks; b++)
		n += in[b];
	l->blocks = malloc((n ? n : 1) * sizeof(*l->blocks));
	if (!l->blocks)
		return ap_err_nomem(err);
	for (uint32_t b = 0; b < lf->nblocks; b++)
		if (in[b])
			l->blocks[l->nblocks++] = b;
	lf->nloops++;
	return 0;
}

/* The natural loop of header h: every block reaching a back-edge source. */
static int natural_loop(struct lp_func *lf, const uint32_t *idom, uint32_t h, uint32_t **preds,
			const uint32_t *npred, uint8_t *in, uint32_t *stack, struct ap_err *err)
{
	uint32_t sp = 0;
	int back = 0;

	memset(in, 0, lf->nblocks);
	in[h] = 1;
	for (uint32_t k = 0; k < npred[h]; k++) {
		uint32_t p = preds[h][k];

		if (!lf->blocks[p].reached || !dominates(idom, h, p))
			continue;
		back = 1;	/* h itself: a one-block loop */
		if (!in[p]) {
			in[p] = 1;
			stack[sp++] = p;
		}
	}
	if (!back)
		return 0;
	while (sp) {
		uint32_t b = stack[--sp];

		for (uint32_t k = 0; k < npred[b]; k++) {
			uint32_t p = preds[b][k];

			if (!in[p] && lf->blocks[p].reached) {
				in[p] = 1;
				stack[sp++] = p;
			}
		}
	}
	return add_loop(lf, h, in, err);
}

static void loop_stats(struct lp_func *lf, const struct cls_func *f, const uint64_t *samples)
{
	for (uint32_t i = 0; i < lf->nloops; i++) {
		struct lp_loop *l = &lf->loops[i];
		uint32_t best = UINT32_MAX;

		for (uint32_t k = 0; k < l->nblocks; k++) {
			const struct lp_block *bl = &lf->blocks[l->blocks[k]];

			for (uint32_t j = bl->first; j < bl->end; j++) {
				unsigned c = f->insns[j].cls < CLS__COUNT ? f->insns[j].cls : CLS_OTHER;

				l->cls_static[c]++;
				l->static_insns++;
				l->cls_samples[c] += samples ? samples[j] : 0;
				l->samples += samples ? samples[j] : 0;
			}
		}
		/* nesting: the smallest other loop that holds this header */
		l->depth = 1;
		for (uint32_t o = 0; o < lf->nloops; o++) {
			const struct lp_loop *p = &lf->loops[o];

			if (o == i || !lp_loop__has(p, l->header) || p->nblocks < l->nblocks ||
			    (p->nblocks == l->nblocks && o > i))
				continue;
			l->depth++;
			if (best == UINT32_MAX || p->nblocks < lf->loops[best].nblocks)
				best = o;
		}
		l->parent = best == UINT32_MAX ? -1 : (int)best;
	}
	/* self samples: each block counts for the smallest loop holding it */
	for (uint32_t b = 0; b < lf->nblocks; b++) {
		uint32_t best = UINT32_MAX;

		for (uint32_t i = 0; i < lf->nloops; i++)
			if (lp_loop__has(&lf->loops[i], b) &&
			    (best == UINT32_MAX || lf->loops[i].nblocks < lf->loops[best].nblocks))
				best = i;
		if (best != UINT32_MAX)
			lf->loops[best].self_samples += lf->blocks[b].samples;
	}
}

static int by_heat(const void *a, const void *b)
{
	const struct lp_loop *x = a, *y = b;

	if (x->self_samples != y->self_samples)
		return x->self_samples < y->self_samples ? 1 : -1;
	if (x->samples != y->samples)
		return x->samples < y->samples ? 1 : -1;
	if (x->static_insns != y->static_insns)
		return x->static_insns < y->static_insns ? 1 : -1;
	return x->header < y->header ? -1 : x->header > y->header;
}

static int find_loops(struct lp_func *lf, const struct cls_func *f, const uint64_t *samples,
		      struct ap_err *err)
{
	uint32_t nb = lf->nblocks, nr, *npred, **preds;
	uint32_t *buf = calloc(5 * (size_t)(nb + 1), sizeof(*buf));
	uint8_t *in = calloc(nb + 1, 1);
	int ret = -1;

	npred = calloc(nb + 1, sizeof(*npred));
	preds = calloc(nb + 1, sizeof(*preds));
	if (!buf || !in || !npred || !preds)
		goto out;
	for (uint32_t b = 0; b < nb; b++)
		for (uint32_t k = 0; k < lf->blocks[b].nsucc; k++)
			npred[lf->blocks[b].succ[k]]++;
	for (uint32_t b = 0; b < nb; b++) {
		preds[b] = malloc((npred[b] ? npred[b] : 1) * sizeof(**preds));
		if (!preds[b])
			goto out;
		npred[b] = 0;
	}
	for (uint32_t b = 0; b < nb; b++)
		for (uint32_t k = 0; k < lf->blocks[b].nsucc; k++) {
			uint32_t s = lf->blocks[b].succ[k];

			preds[s][npred[s]++] = b;
		}
	nr = rpo(lf, buf, buf + nb, buf + 2 * nb);
	dominators(lf, buf, nr, buf + 3 * (size_t)nb, buf + 4 * (size_t)nb, preds, npred);
	for (uint32_t b = 0; b < nb; b++)
		if (lf->blocks[b].reached &&
		    natural_loop(lf, buf + 3 * (size_t)nb, b, preds, npred, in, buf + nb, err))
			goto fail;
	loop_stats(lf, f, samples);
	/* parents are indices before the sort: turn them into headers, then back */
	for (uint32_t i = 0; i < lf->nloops; i++)
		if (lf->loops[i].parent >= 0)
			lf->loops[i].parent = (int)lf->loops[lf->loops[i].parent].header;
	if (lf->nloops > 1)	/* no loops: lf->loops is NULL, which qsort may not get */
		qsort(lf->loops, lf->nloops, sizeof(*lf->loops), by_heat);
	for (uint32_t i = 0; i < lf->nloops; i++) {
		int hdr = lf->loops[i].parent;

		lf->loops[i].parent = -1;
		for (uint32_t o = 0; hdr >= 0 && o < lf->nloops; o++)
			if (lf->loops[o].header == (uint32_t)hdr)
				lf->loops[i].parent = (int)o;
	}
	ret = 0;
out:
	if (ret)
		ap_err_nomem(err);
fail:
	for (uint32_t b = 0; preds && b < nb; b++)
		free(preds[b]);
	free(preds);
	free(npred);
	free(buf);
	free(in);
	return ret;
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
	if (make_blocks(out, &nv, f, samples, err) || find_loops(out, f, samples, err))
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
	memset(lf, 0, sizeof(*lf));
}

void lp_func__delete(struct lp_func *lf)
{
	if (!lf)
		return;
	lp_func__exit(lf);
	free(lf);
}
