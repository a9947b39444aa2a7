// SPDX-License-Identifier: MIT
/* Call-graph views as JSON members (callgraph.h; docs/json.md). */
#include <stdlib.h>
#include "callgraph.h"
#include "../util/pct.h"

static const char *const kind_names[] = {
	[STACK_ROOT] = "root", [STACK_WASM] = "wasm", [STACK_HOST] = "host",
	[STACK_KERNEL] = "kernel", [STACK_UNKNOWN] = "unknown",
};

/* The members naming one symbol: kind, name, and core/local_func or dso. */
static void sym_members(struct json_out *j, const struct profile *p, const struct stack_sym *s)
{
	char name[256];

	json_key(j, "kind");
	json_str(j, kind_names[s->kind]);
	json_key(j, "name");
	json_str(j, render__stack_name(p, s, name, sizeof(name)));
	if (s->kind == STACK_WASM) {
		json_key(j, "core");
		json_str(j, core_set__core_name(p->attr.cores[s->core].mod));
		json_key(j, "local_func");
		json_u64(j, s->func);
	} else if (s->kind == STACK_HOST) {
		json_key(j, "dso");
		json_str(j, s->dso);
	}
}

void render__callgraph_json(struct json_out *j, const struct profile *p, uint64_t top)
{
	const struct profile_stacks *st = p->stacks;
	static const char *const modes[] = { "none", "fp", "dwarf" };
	uint32_t n, *order = render__stack_order(p, &n);

	json_key(j, "call_graph");
	json_begin_obj(j);
	json_key(j, "mode");
	json_str(j, modes[st->mode]);
	json_key(j, "samples");
	json_u64(j, st->samples);
	json_key(j, "fp_samples");
	json_u64(j, st->fp_samples);
	json_key(j, "dwarf_samples");
	json_u64(j, st->dwarf_samples);
	json_key(j, "caller_unknown");
	json_u64(j, st->caller_unknown);
	json_key(j, "caller_from_lr");
	json_u64(j, st->caller_from_lr);
	json_key(j, "cut");
	json_u64(j, st->cut);
	json_key(j, "max_depth");
	json_u64(j, st->max_depth);
	json_key(j, "distinct_stacks");
	json_u64(j, st->nnodes - 1);
	json_end_obj(j);
	json_key(j, "children");
	json_begin_arr(j);
	if (top && top < n)
		n = (uint32_t)top;
	for (uint32_t i = 0; order && i < n; i++) {
		const struct stack_sym *s = &st->syms[order[i]];

		json_begin_obj(j);
		sym_members(j, p, s);
		json_key(j, "children_samples");
		json_u64(j, s->total);
		json_key(j, "self_samples");
		json_u64(j, s->self);
		json_key(j, "children_pct");
		json_dbl(j, ap_pct(s->total, st->samples), 2);
		json_key(j, "self_pct");
		json_dbl(j, ap_pct(s->self, st->samples), 2);
		json_key(j, "caller_unknown");
		json_u64(j, s->caller_unknown);
		json_end_obj(j);
	}
	json_end_arr(j);
	free(order);
}

void render__callgraph_json_edges(struct json_out *j, const struct profile *p,
				  const uint32_t *syms, uint32_t n, int callers)
{
	const struct profile_stacks *st = p->stacks;

	json_key(j, callers ? "callers" : "callees");
	json_begin_arr(j);
	for (uint32_t k = 0; k < n; k++) {
		const struct stack_sym *s = &st->syms[syms[k]];

		json_begin_obj(j);
		sym_members(j, p, s);
		json_key(j, "children_samples");
		json_u64(j, s->total);
		json_key(j, "self_samples");
		json_u64(j, s->self);
		json_key(j, callers ? "callers" : "callees");
		json_begin_arr(j);
		for (uint32_t i = 0; i < st->nedges; i++) {
			const struct stack_edge *e = &st->edges[i];

			if ((callers ? e->callee : e->caller) != syms[k])
				continue;
			json_begin_obj(j);
			sym_members(j, p, &st->syms[callers ? e->caller : e->callee]);
			json_key(j, "samples");
			json_u64(j, e->samples);
			json_end_obj(j);
		}
		json_end_arr(j);
		json_end_obj(j);
	}
	json_end_arr(j);
}
