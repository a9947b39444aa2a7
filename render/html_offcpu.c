// SPDX-License-Identifier: MIT
/*
 * The off-CPU members of the HTML data document (html_offcpu.h). The
 * stacks are folded into a tree as report --folded --cpu-state off folds
 * them (render/offcpu_callgraph.c): the wasm frames outermost first, the
 * host frame the innermost one called, the state as the leaf. Sorted by
 * that path, each stack shares a prefix with the one before it, so the
 * tree comes out parent first, each subtree in one piece, with no lookup.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "callgraph.h"
#include "html_data.h"
#include "html_offcpu.h"
#include "../profile/offcpu.h"
#include "../profile/stacks.h"
#include "../view/callgraph.h"

/* a path element's kind, in the order paths sort by */
enum { EL_WASM, EL_HOST, EL_STATE };

static const char *const el_kinds[] = { [EL_WASM] = "wasm", [EL_HOST] = "host",
					[EL_STATE] = "state" };

struct oc_node {
	int64_t parent;		/* index, -1: an outermost frame */
	int64_t out;		/* index in the document, -1: left out */
	uint8_t kind;
	uint64_t v;		/* EL_WASM: core << 32 | func; EL_STATE: the state */
	const char *via;	/* EL_HOST */
	uint64_t self, total;
};

struct html_offcpu {
	const struct profile *p;
	struct oc_node *nodes;
	uint32_t nnodes, kept;
	uint64_t on_ns, off_ns;
};

/* a stack for qsort: the comparison needs its frames */
struct oc_ref {
	const struct profile_offcpu *oc;
	const struct offcpu_stack *s;
};

struct oc_el {
	uint8_t kind;
	uint64_t v;
	const char *via;
};

static uint32_t path_len(const struct offcpu_stack *s)
{
	return s->n + (s->via ? 1 : 0) + 1;
}

/* the d-th element of the stack's path, outermost first */
static struct oc_el path_el(const struct profile_offcpu *oc, const struct offcpu_stack *s,
			    uint32_t d)
{
	if (d < s->n)
		return (struct oc_el){ EL_WASM, oc->frames[s->off + s->n - 1 - d], NULL };
	if (d == s->n && s->via)
		return (struct oc_el){ EL_HOST, 0, s->via };
	return (struct oc_el){ EL_STATE, s->state, NULL };
}

static int el_cmp(const struct oc_el *a, const struct oc_el *b)
{
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	if (a->kind == EL_HOST)
		return strcmp(a->via, b->via);
	return a->v < b->v ? -1 : a->v > b->v;
}

static int ref_cmp(const void *x, const void *y)
{
	const struct oc_ref *a = x, *b = y;
	uint32_t na = path_len(a->s), nb = path_len(b->s);

	for (uint32_t d = 0; d < na && d < nb; d++) {
		struct oc_el ea = path_el(a->oc, a->s, d), eb = path_el(b->oc, b->s, d);
		int c = el_cmp(&ea, &eb);

		if (c)
			return c;
	}
	return na < nb ? -1 : na > nb;
}

static void add_stack(struct html_offcpu *h, const struct oc_ref *r, const struct oc_ref *prev,
		     uint32_t *cur)
{
	const struct profile_offcpu *oc = r->oc;
	uint32_t len = path_len(r->s), same = 0;

	/* the elements it shares with the stack before it are made already */
	while (prev && same < len && same < path_len(prev->s)) {
		struct oc_el a = path_el(oc, r->s, same), b = path_el(oc, prev->s, same);

		if (el_cmp(&a, &b))
			break;
		same++;
	}
	for (uint32_t d = same; d < len; d++) {
		struct oc_el e = path_el(oc, r->s, d);
		struct oc_node *n = &h->nodes[h->nnodes];

		n->parent = d ? (int64_t)cur[d - 1] : -1;
		n->kind = e.kind;
		n->v = e.v;
		n->via = e.via;
		cur[d] = h->nnodes++;
	}
	for (uint32_t d = 0; d < len; d++)
		h->nodes[cur[d]].total += r->s->ns;
	h->nodes[cur[len - 1]].self += r->s->ns;
	h->off_ns += r->s->ns;
}

/* which nodes the document keeps (html_data__cut), parents first */
static int keep_nodes(struct html_offcpu *h)
{
	uint64_t *t = malloc((h->nnodes ? h->nnodes : 1) * sizeof(*t)), cut, ties;

	if (!t)
		return -1;
	for (uint32_t i = 0; i < h->nnodes; i++)
		t[i] = h->nodes[i].total;
	cut = html_data__cut(t, h->nnodes, &ties);
	free(t);
	for (uint32_t i = 0; i < h->nnodes; i++) {
		struct oc_node *n = &h->nodes[i];
		int keep = n->parent < 0 || h->nodes[n->parent].out >= 0;

		keep = keep && (n->total > cut || (n->total == cut && ties && ties--));
		n->out = keep ? (int64_t)h->kept++ : -1;
	}
	return 0;
}

struct html_offcpu *html_offcpu__new(const struct profile *p)
{
	const struct profile_offcpu *oc = p->offcpu;
	struct html_offcpu *h = calloc(1, sizeof(*h));
	struct oc_ref *refs = NULL;
	uint32_t cur[OFFCPU_MAX_DEPTH + 2];
	size_t cap = 0;

	if (!h)
		return NULL;
	h->p = p;
	/*
	 * the page scales the on-CPU stacks by on_ns / their samples: the
	 * periods of those very samples, not of every sample (some may have
	 * no stack)
	 */
	if (p->stacks && p->stacks->nnodes)
		h->on_ns = p->stacks->nodes[0].total_period;
	else
		for (uint32_t i = 0; i < oc->nprocs; i++)
			h->on_ns += oc->procs[i].on_ns;
	for (uint32_t i = 0; i < oc->nstacks; i++)
		cap += path_len(&oc->stacks[i]);
	h->nodes = calloc(cap ? cap : 1, sizeof(*h->nodes));
	refs = calloc(oc->nstacks ? oc->nstacks : 1, sizeof(*refs));
	if (!h->nodes || !refs || cap > UINT32_MAX) {
		free(refs);
		html_offcpu__delete(h);
		return NULL;
	}
	for (uint32_t i = 0; i < oc->nstacks; i++)
		refs[i] = (struct oc_ref){ oc, &oc->stacks[i] };
	qsort(refs, oc->nstacks, sizeof(*refs), ref_cmp);
	for (uint32_t i = 0; i < oc->nstacks; i++)
		add_stack(h, &refs[i], i ? &refs[i - 1] : NULL, cur);
	free(refs);
	if (keep_nodes(h)) {
		html_offcpu__delete(h);
		return NULL;
	}
	return h;
}

void html_offcpu__delete(struct html_offcpu *h)
{
	if (!h)
		return;
	free(h->nodes);
	free(h);
}

void html_offcpu__core_json(const struct html_offcpu *h, struct json_out *j, uint32_t core)
{
	const struct profile_offcpu *oc;

	if (!h)
		return;
	oc = h->p->offcpu;
	json_key(j, "off_cpu_functions");
	json_begin_arr(j);
	for (uint32_t i = 0; i < oc->nfuncs; i++) {
		const struct offcpu_func *f = &oc->funcs[i];

		if (f->core != core)
			continue;
		json_begin_arr(j);
		json_u64(j, f->func);
		json_u64(j, f->on_ns);
		json_u64(j, f->on_incl_ns);
		json_u64(j, f->off_self_ns);
		json_u64(j, f->off_incl_ns);
		json_end_arr(j);
	}
	json_end_arr(j);
}

void html_offcpu__json(const struct html_offcpu *h, struct json_out *j)
{
	char name[512], state[16];

	if (!h)
		return;
	json_key(j, "off_cpu_stacks");
	json_begin_obj(j);
	json_key(j, "on_cpu_ns");
	json_u64(j, h->on_ns);
	json_key(j, "off_cpu_ns");
	json_u64(j, h->off_ns);
	json_key(j, "nodes");
	json_begin_arr(j);
	for (uint32_t i = 0; i < h->nnodes; i++) {
		const struct oc_node *n = &h->nodes[i];
		struct stack_sym sym = { .kind = STACK_WASM, .core = (uint32_t)(n->v >> 32),
					 .func = (uint32_t)n->v };
		const struct cwasm_module *m = n->kind == EL_WASM ?
					       h->p->attr.cores[sym.core].mod : NULL;
		struct html_stack_node hn = {
			.parent = n->parent < 0 ? -1 : h->nodes[n->parent].out,
			.kind = el_kinds[n->kind], .self = n->self, .total = n->total,
			.core = m ? core_set__core_name(m) : NULL,
			.local_func = m ? (int64_t)sym.func : -1,
		};

		if (n->out < 0)
			continue;
		if (n->kind == EL_WASM)
			hn.name = view__stack_name(h->p, &sym, name, sizeof(name));
		else if (n->kind == EL_HOST)
			hn.name = n->via;
		else
			hn.name = state;
		if (n->kind == EL_STATE)
			snprintf(state, sizeof(state), "[%s]", offcpu_state__name((enum offcpu_state)n->v));
		html_data__stack_node(j, &hn);
	}
	json_end_arr(j);
	json_key(j, "left_out");
	json_u64(j, h->nnodes - h->kept);
	json_end_obj(j);
}
