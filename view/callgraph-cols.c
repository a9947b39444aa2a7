// SPDX-License-Identifier: MIT
/*
 * The call-graph view's naming and edge columns (callgraph-internal.h),
 * which the samples' tables (callgraph.c) and the off-CPU or wall ones
 * (callgraph-time.c) both use.
 */
#include "callgraph-internal.h"

static const char *const kind_keys[] = {
	[STACK_ROOT] = "root", [STACK_WASM] = "wasm", [STACK_HOST] = "host",
	[STACK_KERNEL] = "kernel", [STACK_UNKNOWN] = "unknown",
};

uint32_t vcg__name_cols(struct vcols *s, const char *head, unsigned name_flags)
{
	unsigned h = VT_NO_TEXT | VT_NO_MD;
	uint32_t first = vcols__add(s, "kind", "kind", VT_TEXT, h);

	vcols__add(s, "name", head, VT_TEXT, name_flags);
	vcols__add(s, "core", "core", VT_TEXT, h | VT_JSON_OPT);
	vcols__add(s, "local_func", "local_func", VT_COUNT, h | VT_JSON_OPT);
	vcols__add(s, "dso", "dso", VT_TEXT, h | VT_JSON_OPT);
	return first;
}

int vcg__name_put(struct vt_table *t, uint32_t at, const struct profile *p,
		  const struct stack_sym *s)
{
	char name[512];

	vt_table__str(t, at, kind_keys[s->kind]);
	if (vt_table__strf(t, at + 1, "%s", view__stack_name(p, s, name, sizeof(name))))
		return -1;
	if (s->kind == STACK_WASM) {
		vt_table__str(t, at + 2, core_set__core_name(p->attr.cores[s->core].mod));
		vt_table__u64(t, at + 3, s->func);
	} else if (s->kind == STACK_HOST) {
		vt_table__str(t, at + 4, s->dso);
	}
	return 0;
}

uint32_t vcg__edge_cols(struct vcols *s, int callers, int time)
{
	uint32_t first = time ? vcols__add(s, "ns", "ms", VT_NS, 0)
			      : vcols__add(s, "samples", "Samples", VT_COUNT, 0);

	if (time)
		vcols__prec(s, 3, -1);
	vcols__add(s, "percent_of_function", "%func", VT_PERCENT, VT_PCT);
	vcg__name_cols(s, callers ? "Caller" : "Callee", VT_FLEX | VT_CODE);
	return first;
}

int vcg__edge_special(struct vt_table *t, uint32_t at, const char *kind, const char *label)
{
	vt_table__str(t, at, kind);
	return vt_table__strf(t, at + 1, "%s", label);
}
