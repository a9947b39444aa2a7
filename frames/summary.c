// SPDX-License-Identifier: MIT
/*
 * The origins summary: one pass over the function's instructions, each
 * frame instruction put under the origin its access proves (or under
 * "uncovered"), allocator traffic gathered per slot and value.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "summary.h"

struct build {
	struct frames_summary *s;
	const struct frames *fr;
	uint32_t cap_contrib, cap_unknown;
	uint32_t *cand_off;		/* per contributor: offset into pool */
	uint32_t *pool;
	uint32_t npool, cap_pool;
	int32_t *hash;			/* (slot, vreg) -> contributor, -1 empty */
	uint32_t hash_cap;
};

static int pool_add(struct build *b, uint32_t v)
{
	if (b->npool == b->cap_pool) {
		uint32_t cap = b->cap_pool ? b->cap_pool * 2 : 64, *np = realloc(b->pool, cap * sizeof(*np));

		if (!np)
			return -1;
		b->pool = np;
		b->cap_pool = cap;
	}
	b->pool[b->npool++] = v;
	return 0;
}

static struct frames_contributor *new_contrib(struct build *b)
{
	struct frames_summary *s = b->s;

	if (s->ncontrib == b->cap_contrib) {
		uint32_t cap = b->cap_contrib ? b->cap_contrib * 2 : 16;
		struct frames_contributor *nc = realloc(s->contrib, cap * sizeof(*nc));
		uint32_t *no = realloc(b->cand_off, cap * sizeof(*no));

		if (nc)
			s->contrib = nc;
		if (no)
			b->cand_off = no;
		if (!nc || !no)
			return NULL;
		b->cap_contrib = cap;
	}
	memset(&s->contrib[s->ncontrib], 0, sizeof(s->contrib[0]));
	b->cand_off[s->ncontrib] = b->npool;
	return &s->contrib[s->ncontrib++];
}

static uint32_t key_hash(uint32_t slot, int64_t vreg, uint32_t cap)
{
	uint64_t k = (uint64_t)slot * 0x9e3779b97f4a7c15ull ^ (uint64_t)vreg * 0xc2b2ae3d27d4eb4full;

	return (uint32_t)(k >> 32) & (cap - 1);
}

/* The contributor of one (slot, vreg) component, made on first sight. */
/* Its index, or -1 on ENOMEM. */
static int64_t single(struct build *b, const struct frames_access *x,
		      const struct frames_component *c)
{
	uint32_t slot = (uint32_t)c->slot, h = key_hash(slot, c->vreg, b->hash_cap), n;
	struct frames_contributor *k;
	const uint32_t *vals;

	for (; b->hash[h] >= 0; h = (h + 1) & (b->hash_cap - 1)) {
		k = &b->s->contrib[b->hash[h]];
		if (k->slot == slot && k->vreg == c->vreg)
			return b->hash[h];
	}
	k = new_contrib(b);
	if (!k)
		return -1;
	b->hash[h] = (int32_t)(b->s->ncontrib - 1);
	k->native_offset = x->native_start;
	k->slot = slot;
	k->frame_offset = c->frame_offset;
	k->vreg = c->vreg;
	k->vreg_ambiguous = c->vreg_ambiguous;
	k->remat = c->remat;
	k->defining_opcode = c->defining_opcode;
	k->source_class = c->source_class;
	k->value = c->vreg == FRAMES_NULL ? NULL : frames__value(b->fr, (uint32_t)c->vreg);
	vals = frames__slot_values(b->fr, slot, &n);
	for (uint32_t i = 0; i < n; i++)
		if (pool_add(b, b->fr->values[vals[i]].vreg))
			return -1;
	k->ncandidates = n;
	return b->hash[h];
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* An allocator access: static counts per component, samples to one place. */
static int allocator(struct build *b, const struct frames_access *x, uint64_t samples)
{
	const struct frames_component *c[2];
	uint32_t nc = 0, vregs[2], nv = 0;
	struct frames_contributor *p;
	int64_t one[2] = { -1, -1 };

	for (int i = 0; i < x->ncomp; i++) {
		if (x->comp[i].origin != FRAMES_ALLOCATOR_SPILL)
			continue;
		c[nc] = &x->comp[i];
		one[nc] = single(b, x, c[nc]);
		if (one[nc] < 0)
			return -1;
		if (x->kind == FRAMES_LOAD)
			b->s->contrib[one[nc]].static_loads++;
		else
			b->s->contrib[one[nc]].static_stores++;
		nc++;
	}
	if (nc == 1 || (nc == 2 && one[0] == one[1])) {
		b->s->contrib[one[0]].samples += samples;
		return 0;
	}
	if (!nc)
		return 0;
	/* two values under one instruction: the samples cannot be split */
	p = new_contrib(b);
	if (!p)
		return -1;
	p->paired = 1;
	p->native_offset = x->native_start;
	p->slot = c[0]->slot < c[1]->slot ? (uint32_t)c[0]->slot : (uint32_t)c[1]->slot;
	p->frame_offset = c[0]->frame_offset < c[1]->frame_offset ? c[0]->frame_offset
								 : c[1]->frame_offset;
	p->vreg = FRAMES_NULL;
	p->vreg_ambiguous = 1;
	p->remat = -1;
	p->source_class = "paired_allocator_access";
	for (uint32_t i = 0; i < 2; i++) {
		p->part[i].slot = (uint32_t)c[i]->slot;
		p->part[i].frame_offset = c[i]->frame_offset;
		p->part[i].vreg = c[i]->vreg;
		if (c[i]->vreg != FRAMES_NULL && !(nv && vregs[0] == (uint32_t)c[i]->vreg))
			vregs[nv++] = (uint32_t)c[i]->vreg;
	}
	qsort(vregs, nv, sizeof(vregs[0]), cmp_u32);
	for (uint32_t i = 0; i < nv; i++)
		if (pool_add(b, vregs[i]))
			return -1;
	p->ncandidates = nv;
	p->samples = samples;
	return 0;
}

static int add_unknown(struct build *b, const struct dc_insn *ni, uint32_t off, uint64_t samples,
		       const struct frames_access *x, const struct frames_operand *op)
{
	struct frames_summary *s = b->s;
	struct frames_unknown *u;

	if (s->nunknown == b->cap_unknown) {
		uint32_t cap = b->cap_unknown ? b->cap_unknown * 2 : 16;
		struct frames_unknown *nu = realloc(s->unknown, cap * sizeof(*nu));

		if (!nu)
			return -1;
		s->unknown = nu;
		b->cap_unknown = cap;
	}
	u = &s->unknown[s->nunknown++];
	memset(u, 0, sizeof(*u));
	u->native_offset = off;
	u->addr = ni->addr;
	u->samples = samples;
	snprintf(u->text, sizeof(u->text), "%s", ni->text);
	if (x) {
		u->listed = 1;
		u->kind = x->kind;
		u->base = x->top.base;
		u->frame_offset = x->top.frame_offset;
		u->detail = x->top.detail;
	} else {
		u->kind = op->kind;
		u->base = op->base;
		u->complex = op->complex;
		u->frame_offset = op->complex ? FRAMES_NULL : op->offset;
	}
	return 0;
}

static int rank_cmp(const void *a, const void *b)
{
	const struct frames_contributor *x = a, *y = b;
	uint32_t sx = x->static_loads + x->static_stores, sy = y->static_loads + y->static_stores;
	int64_t vx = x->vreg == FRAMES_NULL ? -1 : x->vreg, vy = y->vreg == FRAMES_NULL ? -1 : y->vreg;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	if (sx != sy)
		return sx > sy ? -1 : 1;
	if (x->slot != y->slot)
		return x->slot < y->slot ? -1 : 1;
	if (vx != vy)
		return vx < vy ? -1 : 1;
	return x->native_offset < y->native_offset ? -1 : x->native_offset > y->native_offset;
}

static int unknown_cmp(const void *a, const void *b)
{
	const struct frames_unknown *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return x->native_offset < y->native_offset ? -1 : x->native_offset > y->native_offset;
}

static int walk(struct build *b, const struct dc_insn *insns, uint32_t n, uint64_t func_addr,
		const uint64_t *samples)
{
	struct frames_summary *s = b->s;
	const struct frames *fr = b->fr;
	uint32_t placed = 0;

	for (uint32_t i = 0; i < n; i++) {
		const struct dc_insn *ni = &insns[i];
		uint64_t smp = samples ? samples[i] : 0;
		uint32_t off = (uint32_t)(ni->addr - func_addr);
		const struct frames_access *x;
		struct frames_operand op;
		int is_op;

		s->function_samples += smp;
		if (ni->addr < func_addr || ni->addr - func_addr >= fr->code_size)
			continue;
		x = ni->kind == DC_DATA ? NULL : frames__access_at(fr, off);
		is_op = ni->kind != DC_DATA && frames__operand(fr->arch, ni, &op);
		if (!x && !is_op)
			continue;
		s->frame_instructions++;
		s->frame_samples += smp;
		if (!x) {
			s->uncovered[op.kind].insns++;
			s->uncovered[op.kind].samples += smp;
			if (add_unknown(b, ni, off, smp, NULL, &op))
				return -1;
			continue;
		}
		placed++;
		s->attributed_frame_instructions++;
		s->attributed_frame_samples += smp;
		s->origin[x->top.origin][x->kind].insns++;
		s->origin[x->top.origin][x->kind].samples += smp;
		if (x->top.origin != FRAMES_UNKNOWN) {
			s->proven_origin_frame_instructions++;
			s->proven_origin_frame_samples += smp;
		} else if (add_unknown(b, ni, off, smp, x, NULL)) {
			return -1;
		}
		if (x->top.origin == FRAMES_ALLOCATOR_SPILL) {
			if (x->kind == FRAMES_LOAD)
				s->sampled_allocator_loads += smp;
			else
				s->sampled_allocator_stores += smp;
		}
		if (x->top.origin == FRAMES_ALLOCATOR_SPILL && allocator(b, x, smp))
			return -1;
	}
	s->unplaced = fr->nacc - placed;
	return 0;
}

int frames__summarize(const struct frames *fr, const struct dc_insn *insns, uint32_t n,
		      uint64_t func_addr, const uint64_t *samples, struct frames_summary **out,
		      struct ap_err *err)
{
	struct build b = { .fr = fr };
	struct frames_summary *s = calloc(1, sizeof(*s));

	*out = NULL;
	b.s = s;
	for (b.hash_cap = 16; b.hash_cap < 4 * (uint64_t)fr->nacc + 16; b.hash_cap *= 2)
		;
	b.hash = malloc(b.hash_cap * sizeof(*b.hash));
	if (!s || !b.hash)
		goto nomem;
	memset(b.hash, 0xff, b.hash_cap * sizeof(*b.hash));
	if (walk(&b, insns, n, func_addr, samples))
		goto nomem;
	for (uint32_t i = 0; i < fr->nacc; i++)
		for (int c = 0; c < fr->acc[i].ncomp; c++)
			if (fr->acc[i].comp[c].origin == FRAMES_ALLOCATOR_SPILL) {
				if (fr->acc[i].kind == FRAMES_LOAD)
					s->emitted_allocator_loads++;
				else
					s->emitted_allocator_stores++;
			}
	s->declared_loads = fr->emitted_allocator_loads;
	s->declared_stores = fr->emitted_allocator_stores;
	s->metric_loads = fr->metric.spill_ld;
	s->metric_stores = fr->metric.spill_st;
	s->matches = s->emitted_allocator_loads == s->metric_loads &&
		     s->emitted_allocator_stores == s->metric_stores &&
		     s->declared_loads == s->metric_loads && s->declared_stores == s->metric_stores;
	s->cand_pool = b.pool;
	b.pool = NULL;
	for (uint32_t i = 0; i < s->ncontrib; i++)
		s->contrib[i].candidates = s->contrib[i].ncandidates ? s->cand_pool + b.cand_off[i] : NULL;
	if (s->ncontrib)
		qsort(s->contrib, s->ncontrib, sizeof(*s->contrib), rank_cmp);
	if (s->nunknown)
		qsort(s->unknown, s->nunknown, sizeof(*s->unknown), unknown_cmp);
	free(b.hash);
	free(b.cand_off);
	*out = s;
	return 0;
nomem:
	free(b.hash);
	free(b.cand_off);
	free(b.pool);
	frames_summary__delete(s);
	return ap_err_nomem(err);
}

void frames_summary__delete(struct frames_summary *s)
{
	if (!s)
		return;
	free(s->contrib);
	free(s->unknown);
	free(s->cand_pool);
	free(s);
}

int frames_summary__reconciliation(const struct frames_summary *s, char *buf, size_t len)
{
	int n = snprintf(buf, len, "emitted allocator ld/st=%u/%u %s spill metric %u/%u (%s)",
			 s->emitted_allocator_loads, s->emitted_allocator_stores,
			 s->matches ? "==" : "!=", s->metric_loads, s->metric_stores,
			 s->matches ? "match" : "MISMATCH");

	return n < 0 || (size_t)n >= len ? -1 : 0;
}
