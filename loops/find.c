// SPDX-License-Identifier: MIT
/*
 * The loops of a function's blocks (find.h). A natural loop: a back edge
 * goes to a block that dominates its source; the loop is the header plus
 * every block that reaches the source without passing the header. Back
 * edges to one header make one loop. Dominators by the iterative
 * data-flow algorithm over reverse postorder (functions here have at most
 * a few thousand blocks).
 *
 * A branch back to a block at or before it that does not dominate it
 * (a cycle entered in its middle too, as a dispatch into cases that fall
 * into each other, or code no known edge reaches) is a loop all the same:
 * headed by the branch's target, made of the blocks between the target
 * and the branch that lie on the cycle (docs/levers.md).
 */
#include <stdlib.h>
#include <string.h>
#include "find.h"

int lp_loop__has(const struct lp_loop *l, uint32_t b)
{
	for (uint32_t i = 0; i < l->nblocks; i++)
		if (l->blocks[i] == b)
			return 1;
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

/* The loop headed by h gets the blocks in[]: a new loop, or more blocks for one found before. */
static int add_loop(struct lp_func *lf, uint32_t h, const uint8_t *in, struct ap_err *err)
{
	struct lp_loop *l = NULL, *nl;
	uint32_t n = 0, *blocks;

	for (uint32_t i = 0; i < lf->nloops && !l; i++)
		if (lf->loops[i].header == h)
			l = &lf->loops[i];
	for (uint32_t b = 0; b < lf->nblocks; b++)
		n += in[b] || (l && lp_loop__has(l, b));
	blocks = malloc((n ? n : 1) * sizeof(*blocks));
	if (!blocks)
		return ap_err_nomem(err);
	n = 0;
	for (uint32_t b = 0; b < lf->nblocks; b++)
		if (in[b] || (l && lp_loop__has(l, b)))
			blocks[n++] = b;
	if (!l) {
		nl = realloc(lf->loops, (lf->nloops + 1) * sizeof(*nl));
		if (!nl) {
			free(blocks);
			return ap_err_nomem(err);
		}
		lf->loops = nl;
		l = &nl[lf->nloops++];
		memset(l, 0, sizeof(*l));
		l->header = h;
		l->parent = -1;
	}
	free(l->blocks);
	l->blocks = blocks;
	l->nblocks = n;
	return 0;
}

/* Does a loop found before have exactly the blocks in[]? */
static int same_blocks_known(const struct lp_func *lf, const uint8_t *in)
{
	for (uint32_t i = 0; i < lf->nloops; i++) {
		const struct lp_loop *l = &lf->loops[i];
		uint32_t n = 0;

		for (uint32_t b = 0; b < lf->nblocks; b++)
			n += in[b];
		if (n != l->nblocks)
			continue;
		for (n = 0; n < l->nblocks && in[l->blocks[n]]; n++)
			;
		if (n == l->nblocks)
			return 1;
	}
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

/* An edge p -> h back to a block at or before p that is no natural loop's back edge. */
static int backward_edge(const struct lp_func *lf, const uint32_t *idom, uint32_t h, uint32_t p)
{
	return p >= h && !(lf->blocks[h].reached && lf->blocks[p].reached && dominates(idom, h, p));
}

/*
 * The loop of the edges back to h that h does not dominate: the blocks
 * between h and the last such source, in layout order, that h reaches
 * and that reach a source, without leaving that range. A loop found
 * before with exactly these blocks (a natural loop whose header is laid
 * out after its body) is not repeated.
 */
static int backward_loop(struct lp_func *lf, const uint32_t *idom, uint32_t h, uint32_t **preds,
			 const uint32_t *npred, uint8_t *in, uint8_t *fwd, uint32_t *stack,
			 struct ap_err *err)
{
	uint32_t last = h, sp = 0;
	int any = 0;

	for (uint32_t k = 0; k < npred[h]; k++)
		if (backward_edge(lf, idom, h, preds[h][k])) {
			any = 1;
			if (preds[h][k] > last)
				last = preds[h][k];
		}
	if (!any)
		return 0;
	memset(fwd + h, 0, last - h + 1);
	fwd[h] = 1;
	stack[sp++] = h;
	while (sp) {
		const struct lp_block *bl = &lf->blocks[stack[--sp]];

		for (uint32_t k = 0; k < bl->nsucc; k++) {
			uint32_t s = bl->succ[k];

			if (s >= h && s <= last && !fwd[s]) {
				fwd[s] = 1;
				stack[sp++] = s;
			}
		}
	}
	memset(in, 0, lf->nblocks);
	in[h] = 1;
	any = 0;
	for (uint32_t k = 0; k < npred[h]; k++) {
		uint32_t p = preds[h][k];

		if (!backward_edge(lf, idom, h, p) || p > last || !fwd[p])
			continue;
		any = 1;	/* h itself: a one-block loop */
		if (!in[p]) {
			in[p] = 1;
			stack[sp++] = p;
		}
	}
	if (!any)
		return 0;	/* h does not reach the branch back: no cycle */
	while (sp) {
		uint32_t b = stack[--sp];

		for (uint32_t k = 0; k < npred[b]; k++) {
			uint32_t p = preds[b][k];

			if (p >= h && p <= last && fwd[p] && !in[p]) {
				in[p] = 1;
				stack[sp++] = p;
			}
		}
	}
	return same_blocks_known(lf, in) ? 0 : add_loop(lf, h, in, err);
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

int lp_func__find_loops(struct lp_func *lf, const struct cls_func *f, const uint64_t *samples,
		      struct ap_err *err)
{
	uint32_t nb = lf->nblocks, nr, *npred, **preds;
	uint32_t *buf = calloc(5 * (size_t)(nb + 1), sizeof(*buf));
	uint8_t *in = calloc(2 * (size_t)(nb + 1), 1);
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
	/* then the branches back that no natural loop explains (the order is no longer needed) */
	for (uint32_t b = 0; b < nb; b++)
		if (backward_loop(lf, buf + 3 * (size_t)nb, b, preds, npred, in, in + nb + 1, buf,
				  err))
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
