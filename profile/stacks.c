// SPDX-License-Identifier: MIT
/*
 * The call-stack tree (stacks.h): symbols interned, a sample's frames
 * walked from the outermost caller down, each (parent, symbol) found in
 * one hash lookup. The per-symbol and per-edge views come from one
 * depth-first walk at the end, counting each symbol (and edge) once per
 * sample: only where it is not already on the path.
 */
#include <stdlib.h>
#include <string.h>
#include "stacks.h"
#include "u64map.h"
#include "../util/array.h"

struct stacks_build {
	struct u64map node_of;	/* parent << 32 | sym -> node */
	struct u64map wasm_of;	/* core << 32 | func -> sym */
	struct u64map host_of;	/* hash of name and dso -> sym */
	struct u64map leaf_of;	/* hash of node, core and at -> leaves */
	uint32_t last;		/* the node the last sample added ended in */
	size_t cap_leaves;
	int64_t kind_of[STACK_UNKNOWN + 1];
	size_t cap_nodes, cap_syms;
	char **strs;		/* the host names and dsos we own */
	size_t nstrs, cap_strs;
};

static const char *const kind_names[] = {
	[STACK_ROOT] = "all",
	[STACK_WASM] = "",
	[STACK_HOST] = "[unknown]",
	[STACK_KERNEL] = "[kernel.kallsyms]",
	[STACK_UNKNOWN] = "[caller unknown]",
};

static int init(struct profile_stacks *st)
{
	struct stacks_build *b = st->b;

	for (size_t i = 0; i < sizeof(b->kind_of) / sizeof(b->kind_of[0]); i++)
		b->kind_of[i] = -1;
	if (stacks__sym_kind(st, STACK_ROOT) != 0 ||
	    ap_grow(&st->nodes, &b->cap_nodes, 1, sizeof(*st->nodes)))
		return -1;
	memset(&st->nodes[0], 0, sizeof(st->nodes[0]));
	st->nnodes = 1;
	return 0;
}

struct profile_stacks *stacks__new(void)
{
	struct profile_stacks *st = calloc(1, sizeof(*st));

	if (!st)
		return NULL;
	st->b = calloc(1, sizeof(*st->b));
	if (!st->b || init(st)) {
		stacks__delete(st);
		return NULL;
	}
	return st;
}

static void build_exit(struct stacks_build *b)
{
	u64map__exit(&b->node_of);
	u64map__exit(&b->wasm_of);
	u64map__exit(&b->host_of);
	u64map__exit(&b->leaf_of);
	for (size_t i = 0; i < b->nstrs; i++)
		free(b->strs[i]);
	free(b->strs);
}

void stacks__delete(struct profile_stacks *st)
{
	if (!st)
		return;
	if (st->b)
		build_exit(st->b);
	free(st->b);
	free(st->nodes);
	free(st->syms);
	free(st->edges);
	free(st->leaves);
	free(st);
}

void stacks__reset(struct profile_stacks *st)
{
	struct stacks_build *b = st->b;

	build_exit(b);
	memset(b, 0, sizeof(*b));
	free(st->nodes);
	free(st->syms);
	free(st->edges);
	free(st->leaves);
	memset(st, 0, sizeof(*st));
	st->b = b;
	init(st);	/* the sizes it needs were there a moment ago */
}

static int64_t new_sym(struct profile_stacks *st, const struct stack_sym *s)
{
	if (st->nsyms == UINT32_MAX - 1 ||
	    ap_grow(&st->syms, &st->b->cap_syms, (size_t)st->nsyms + 1, sizeof(*st->syms)))
		return -1;
	st->syms[st->nsyms] = *s;
	return st->nsyms++;
}

int64_t stacks__sym_kind(struct profile_stacks *st, enum stack_kind kind)
{
	struct stack_sym s = { .kind = (uint8_t)kind, .name = kind_names[kind] };

	if (st->b->kind_of[kind] < 0)
		st->b->kind_of[kind] = new_sym(st, &s);
	return st->b->kind_of[kind];
}

int64_t stacks__sym_wasm(struct profile_stacks *st, uint32_t core, uint32_t func)
{
	struct stack_sym s = { .kind = STACK_WASM, .core = core, .func = func, .name = "" };
	uint64_t key = (uint64_t)core << 32 | func;
	uint32_t v;
	int64_t i;

	if (u64map__get(&st->b->wasm_of, key, &v))
		return v;
	i = new_sym(st, &s);
	if (i < 0 || u64map__put(&st->b->wasm_of, key, (uint32_t)i))
		return -1;
	return i;
}

int64_t stacks__find_wasm(const struct profile_stacks *st, uint32_t core, uint32_t func)
{
	uint32_t v;

	return u64map__get(&st->b->wasm_of, (uint64_t)core << 32 | func, &v) ? (int64_t)v : -1;
}

static int same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static char *own(struct stacks_build *b, const char *s)
{
	char *c;

	if (!s)
		return NULL;
	c = strdup(s);
	if (c && ap_push(&b->strs, &b->nstrs, &b->cap_strs, &c, sizeof(c))) {
		free(c);
		return NULL;
	}
	return c;
}

int64_t stacks__sym_host(struct profile_stacks *st, const char *name, const char *dso)
{
	struct stacks_build *b = st->b;
	uint64_t key = u64map__hash_str(u64map__hash_str(0, name), dso);
	struct stack_sym s = { .kind = STACK_HOST };
	uint32_t v;
	int64_t i;

	if (u64map__get(&b->host_of, key, &v)) {
		if (same_str(st->syms[v].name, name) && same_str(st->syms[v].dso, dso))
			return v;
		/* two names, one hash: search them all (never in practice) */
		for (uint32_t k = 0; k < st->nsyms; k++)
			if (st->syms[k].kind == STACK_HOST && same_str(st->syms[k].name, name) &&
			    same_str(st->syms[k].dso, dso))
				return k;
	}
	s.name = own(b, name);
	s.dso = own(b, dso);
	if (!s.name || (dso && !s.dso))
		return -1;
	i = new_sym(st, &s);
	/* on a collision the first keeps the slot; the loop above finds this one */
	if (i < 0 || (!u64map__get(&b->host_of, key, &v) && u64map__put(&b->host_of, key, (uint32_t)i)))
		return -1;
	return i;
}

static int64_t child_of(struct profile_stacks *st, uint32_t parent, uint32_t sym)
{
	struct stacks_build *b = st->b;
	uint64_t key = (uint64_t)parent << 32 | sym;
	struct stack_node *n;
	uint32_t v;

	if (u64map__get(&b->node_of, key, &v))
		return v;
	if (st->nnodes == UINT32_MAX - 1 ||
	    ap_grow(&st->nodes, &b->cap_nodes, (size_t)st->nnodes + 1, sizeof(*st->nodes)) ||
	    u64map__put(&b->node_of, key, st->nnodes))
		return -1;
	n = &st->nodes[st->nnodes];
	memset(n, 0, sizeof(*n));
	n->sym = sym;
	n->parent = parent;
	n->next = st->nodes[parent].child;
	st->nodes[parent].child = st->nnodes;
	return st->nnodes++;
}

int stacks__add(struct profile_stacks *st, const uint32_t *syms, uint32_t n)
{
	uint32_t at = 0;

	/* find or make the path first, so a failure counts nothing */
	for (uint32_t i = n; i-- > 0;) {
		int64_t c = child_of(st, at, syms[i]);

		if (c < 0)
			return -1;
		at = (uint32_t)c;
	}
	st->nodes[at].self++;
	st->b->last = at;
	for (;;) {
		st->nodes[at].total++;
		if (!at)
			break;
		at = st->nodes[at].parent;
	}
	st->samples++;
	if (n > st->max_depth)
		st->max_depth = n;
	return 0;
}

void stacks__add_period(struct profile_stacks *st, uint64_t period)
{
	uint32_t at = st->b->last;

	st->nodes[at].self_period += period;
	for (;;) {
		st->nodes[at].total_period += period;
		if (!at)
			break;
		at = st->nodes[at].parent;
	}
}

static int same_leaf(const struct stack_leaf *l, uint32_t node, int32_t core, uint64_t at)
{
	return l->node == node && l->core == core && l->at == at;
}

int stacks__add_leaf(struct profile_stacks *st, int32_t core, uint64_t at)
{
	struct stacks_build *b = st->b;
	uint32_t node = b->last, v;
	uint64_t key = (at * 0x9e3779b97f4a7c15ULL ^ (uint64_t)node << 32 ^ (uint32_t)core) *
		       0xc2b2ae3d27d4eb4fULL;

	if (u64map__get(&b->leaf_of, key, &v)) {
		if (!same_leaf(&st->leaves[v], node, core, at)) {
			/* two leaves, one hash: search them all (never in practice) */
			for (v = 0; v < st->nleaves && !same_leaf(&st->leaves[v], node, core, at); v++)
				;
		}
		if (v < st->nleaves) {
			st->leaves[v].samples++;
			return 0;
		}
	}
	if (st->nleaves == UINT32_MAX - 1 ||
	    ap_grow(&st->leaves, &b->cap_leaves, (size_t)st->nleaves + 1, sizeof(*st->leaves)))
		return -1;
	/* on a collision the first keeps the slot; the loop above finds this one */
	if (!u64map__get(&b->leaf_of, key, &v) && u64map__put(&b->leaf_of, key, st->nleaves))
		return -1;
	st->leaves[st->nleaves++] = (struct stack_leaf){ node, core, at, 1 };
	return 0;
}

static int edge_cmp(const void *a, const void *b)
{
	const struct stack_edge *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	if (x->caller != y->caller)
		return x->caller < y->caller ? -1 : 1;
	return x->callee < y->callee ? -1 : x->callee > y->callee;
}

/* The walk's state: how often each symbol and edge is on the current path. */
struct walk {
	struct profile_stacks *st;
	uint32_t *sym_on, *edge_on;
	uint32_t *edge_of;	/* per node: its edge from the parent, UINT32_MAX: none */
	struct u64map edge_ix;
	size_t cap_edges, cap_edge_on;
};

static int enter(struct walk *w, uint32_t n)
{
	struct profile_stacks *st = w->st;
	const struct stack_node *nd = &st->nodes[n];
	struct stack_sym *s = &st->syms[nd->sym];
	uint32_t psym = st->nodes[nd->parent].sym, e;
	uint64_t key;

	if (!w->sym_on[nd->sym]++) {
		s->total += nd->total;
		s->total_period += nd->total_period;
	}
	s->self += nd->self;
	s->self_period += nd->self_period;
	w->edge_of[n] = UINT32_MAX;
	if (!nd->parent)
		return 0;
	if (st->syms[psym].kind == STACK_UNKNOWN)
		s->caller_unknown += nd->self;
	key = (uint64_t)psym << 32 | nd->sym;
	if (!u64map__get(&w->edge_ix, key, &e)) {
		e = st->nedges;
		if (ap_grow(&st->edges, &w->cap_edges, (size_t)e + 1, sizeof(*st->edges)) ||
		    ap_grow(&w->edge_on, &w->cap_edge_on, (size_t)e + 1, sizeof(*w->edge_on)) ||
		    u64map__put(&w->edge_ix, key, e))
			return -1;
		st->edges[e] = (struct stack_edge){ psym, nd->sym, 0 };
		w->edge_on[e] = 0;
		st->nedges++;
	}
	w->edge_of[n] = e;
	if (!w->edge_on[e]++)
		st->edges[e].samples += nd->total;
	return 0;
}

static void leave(struct walk *w, uint32_t n)
{
	w->sym_on[w->st->nodes[n].sym]--;
	if (w->edge_of[n] != UINT32_MAX)
		w->edge_on[w->edge_of[n]]--;
}

int stacks__finish(struct profile_stacks *st, struct ap_err *err)
{
	struct walk w = { .st = st };
	uint32_t n;
	int ret = -1;

	free(st->edges);
	st->edges = NULL;
	st->nedges = 0;
	for (uint32_t i = 0; i < st->nsyms; i++) {
		st->syms[i].self = st->syms[i].total = st->syms[i].caller_unknown = 0;
		st->syms[i].self_period = st->syms[i].total_period = 0;
	}
	w.sym_on = calloc(st->nsyms + 1, sizeof(*w.sym_on));
	w.edge_of = calloc(st->nnodes + 1, sizeof(*w.edge_of));
	if (!w.sym_on || !w.edge_of)
		goto out;
	st->syms[0].total = st->nodes[0].total;
	st->syms[0].self = st->nodes[0].self;
	st->syms[0].total_period = st->nodes[0].total_period;
	st->syms[0].self_period = st->nodes[0].self_period;
	n = st->nodes[0].child;
	while (n) {
		if (enter(&w, n))
			goto out;
		if (st->nodes[n].child) {
			n = st->nodes[n].child;
			continue;
		}
		for (;;) {
			leave(&w, n);
			if (st->nodes[n].next) {
				n = st->nodes[n].next;
				break;
			}
			n = st->nodes[n].parent;
			if (!n)
				break;
		}
	}
	if (st->nedges)
		qsort(st->edges, st->nedges, sizeof(*st->edges), edge_cmp);
	st->finished = 1;
	ret = 0;
out:
	if (ret)
		ap_err_nomem(err);
	free(w.sym_on);
	free(w.edge_on);
	free(w.edge_of);
	u64map__exit(&w.edge_ix);
	return ret;
}
